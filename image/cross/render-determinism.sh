#!/usr/bin/env bash
# Render determinism across architectures: the aarch64 binary (`make arm`, run under qemu-aarch64-static) and the
# host's x86_64 release build render the same input with the same options, and the outputs must be identical
# byte for byte (cmp). Both sides are rendered now, from this checkout, so the check follows the code: there is no
# frozen golden file to re-record when the DSP changes on purpose, only the two architectures to agree.
#
# Usage: image/cross/render-determinism.sh [HOST_BINARY [ARM_BINARY]]
#        (defaults: `swift build -c release --show-bin-path`/appliance and .build-arm/bin/appliance)
# Cases: the 10-band EQ with 16-bit TPDF dither, EQ + limiter into 24-bit (no dither), EQ at 96 kHz, gain + EQ
#        into 32-bit float, and a rate conversion 44.1 -> 48 kHz with EQ (the converter is integer too).
# Needs: sox (the test signal), qemu-aarch64-static and the arm sysroot (image/host-deps.sh arm; make arm).
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
die() { printf 'render-determinism: error: %s\n' "$*" >&2; exit 1; }
say() { printf '\033[1mrender-determinism:\033[0m %s\n' "$*" >&2; }

host=${1:-$(cd "$repo" && swift build -c release --show-bin-path)/appliance}
arm=${2:-$repo/.build-arm/bin/appliance}
sysroot=${XDG_CACHE_HOME:-$HOME/.cache}/appliance/arm/root/opt/swift-sdks/debian-trixie-aarch64.artifactbundle/aarch64-unknown-linux-gnu/sysroot
for tool in sox qemu-aarch64-static cmp; do
    command -v "$tool" >/dev/null || die "'$tool' not found: run image/host-deps.sh arm and image/host-deps.sh host"
done
[[ -x $host ]] || die "no host release binary at $host: run 'swift build -c release --product appliance'"
[[ -x $arm ]] || die "no aarch64 binary at $arm: run 'make arm'"
[[ -d $sysroot ]] || die "no aarch64 sysroot at $sysroot: run 'make arm'"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# 20 s of stereo: pink noise on the left, a 20 Hz - 20 kHz sweep on the right (full band, both channels differ),
# loud enough that the rock preset's boosts reach the limiter. -R: sox's repeatable noise.
sox -R -n -r 48000 -c 2 -b 16 "$work/in48.wav" synth 20 pinknoise sine 20/20000 gain -3
sox -R "$work/in48.wav" -r 44100 "$work/in44.wav"
sox -R "$work/in48.wav" -r 96000 -b 24 "$work/in96.wav"

cases=(
    "in48.wav|out.wav|--eq rock"
    "in48.wav|out.wav|--eq rock --limit --data-format s24"
    "in96.wav|out.wav|--eq classical"
    "in48.wav|out.wav|--eq bass-booster --gain -4.5 --data-format f32"
    "in44.wav|out.wav|--eq rock --rate 48000"
)
failed=0
for c in "${cases[@]}"; do
    IFS='|' read -r input output options <<< "$c"
    # shellcheck disable=SC2086  # the options are words
    "$host" render "$work/$input" "$work/x86_64-$output" $options >/dev/null \
        || die "the host binary failed: render $input $options"
    # shellcheck disable=SC2086
    QEMU_LD_PREFIX=$sysroot timeout 300 qemu-aarch64-static "$arm" render "$work/$input" "$work/aarch64-$output" $options >/dev/null \
        || die "the aarch64 binary failed under qemu: render $input $options"
    if difference=$(cmp "$work/x86_64-$output" "$work/aarch64-$output" 2>&1); then
        say "identical on x86_64 and aarch64: render $input $options ($(stat -c %s "$work/x86_64-$output") bytes)"
    else
        printf 'render-determinism: FAIL: render %s %s differs between x86_64 and aarch64: %s\n' "$input" "$options" "$difference" >&2
        failed=1
    fi
done
[[ $failed -eq 0 ]] || die "render output differs between the architectures"
say "all ${#cases[@]} renders identical on both architectures"
