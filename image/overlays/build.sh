#!/usr/bin/env bash
# Compiles the appliance's device-tree overlays: appliance-<board>.dtbo for every board file in board-configs/
# that gets one (its codec programmed by the appliance, real hardware), into OUT_DIR.
#
# Usage: image/overlays/build.sh OUT_DIR
#
# The DTS is not kept in git: `appliance board overlay NAME` renders it from the board file (Sources/Board/
# Overlay/BoardOverlay.swift), so the clock role, the I2S frame and the card the board's pcm: names use have one
# source (print one with `appliance board overlay NAME`). OUT_DIR gets only the .dtbo files (it may be the boot
# partition's overlays/); the sources go to a temporary directory, kept and named when dtc fails. dtc compiles each with -@ (the firmware and fdtoverlay
# resolve &i2s, &i2c1, &pcm_gpio18 and &dma through the base tree's __symbols__), and any dtc warning fails the
# build. Environment: APPLIANCE, an appliance binary that runs here (default: this checkout's debug build).
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
die() { printf 'overlays: error: %s\n' "$*" >&2; exit 1; }
say() { printf '\033[1moverlays:\033[0m %s\n' "$*" >&2; }

[[ $# -eq 1 ]] || die "usage: image/overlays/build.sh OUT_DIR"
out=$1
command -v dtc >/dev/null || die "dtc not found: install Debian's device-tree-compiler (image/host-deps.sh overlays)"

appliance=${APPLIANCE:-}
if [[ -z $appliance ]]; then
    say "building the host appliance binary (renders the DTS)"
    (cd "$repo" && swift build --product appliance >/dev/null) || die "swift build --product appliance failed in $repo"
    appliance="$(cd "$repo" && swift build --show-bin-path)/appliance"
fi
[[ -x $appliance ]] || die "no appliance binary at $appliance"

mkdir -p "$out"
rm -f "$out"/appliance-*.dtbo
src=$(mktemp -d)
log="$src/dtc.log"
list=$(cd "$repo" && "$appliance" board overlay --all-in board-configs) \
    || die "appliance board overlay --all-in board-configs failed (see above)"
mapfile -t boards <<<"$list"
[[ -n $list ]] || die "no board in $repo/board-configs gets an overlay"
for board in "${boards[@]}"; do
    dts="$src/appliance-$board.dts"
    dtbo="$out/appliance-$board.dtbo"
    (cd "$repo" && "$appliance" board overlay --boards board-configs "$board") >"$dts" \
        || die "appliance board overlay $board failed"
    err="$src/dtc-$board.err"
    if ! dtc -@ -I dts -O dtb -o "$dtbo" "$dts" 2>"$err" || [[ -s $err ]]; then
        cat "$err" >>"$log"
        rm -f "$dtbo"
        die "dtc failed or warned on $dts: $(head -1 "$err") (all in $log)"
    fi
    rm -f "$err"
    say "$(basename "$dtbo"): $(stat -c %s "$dtbo") bytes"
done
rm -rf "$src"
say "${#boards[@]} overlays in $out"
