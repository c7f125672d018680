#!/usr/bin/env bash
# `appliance render` against sox on the same ten biquads (the Rock preset: peaking, Q = sqrt 2, 31 Hz ... 16 kHz)
# over a 10-minute 48 kHz stereo 16-bit file, alternating appliance and sox in each round, each timed with
# /usr/bin/time -v. Prints per-round CPU (user + sys) and wall time, then medians and the ratios sox / appliance.
# Both write 16-bit output with TPDF dither (sox dithers by default when it reduces to 16 bits after effects).
# Usage: Benchmarks/render/render-vs-sox.sh [ROUNDS [APPLIANCE_BINARY [BEFORE_BINARY]]]
#        (default 5 rounds, the release build; BEFORE_BINARY, e.g. a copy of an earlier build, runs in each round too)
# Needs: sox, /usr/bin/time (Debian's time package), a release build (swift build -c release --product appliance).
set -euo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
rounds=${1:-5}
app=${2:-$(cd "$repo" && swift build -c release --show-bin-path)/appliance}
die() { printf 'render-vs-sox: error: %s\n' "$*" >&2; exit 1; }
[[ -x $app ]] || die "no release binary at $app: run 'swift build -c release --product appliance'"
before=${3:-}
[[ -z $before || -x $before ]] || die "no binary at $before"
[[ -x /usr/bin/time ]] || die "/usr/bin/time not found: apt-get install time"
command -v sox >/dev/null || die "sox not found: run image/host-deps.sh host"
work=${RENDER_BENCH_DIR:-$(mktemp -d)}
[[ -n ${RENDER_BENCH_DIR:-} ]] || trap 'rm -rf "$work"' EXIT
input=$work/in10.wav
[[ -f $input ]] || sox -R -n -r 48000 -c 2 -b 16 "$input" synth 600 pinknoise gain -6
eq=(equalizer 31 1.41421q 5 equalizer 62 1.41421q 4 equalizer 125 1.41421q 3 equalizer 250 1.41421q 1.5
    equalizer 500 1.41421q -0.5 equalizer 1000 1.41421q -1 equalizer 2000 1.41421q 0.5 equalizer 4000 1.41421q 2.5
    equalizer 8000 1.41421q 3.5 equalizer 16000 1.41421q 4.5)
# Runs a command under /usr/bin/time -v; prints "cpu wall" in seconds.
timed() {
    /usr/bin/time -v -o "$work/time" "$@" >/dev/null 2>&1 || die "failed: $*"
    awk -F': ' '/User time/ { u = $2 } /System time/ { s = $2 }
        /Elapsed \(wall clock\)/ { n = split($2, t, ":"); w = 0; for (i = 1; i <= n; i++) w = w * 60 + t[i] }
        END { printf "%.2f %.2f\n", u + s, w }' "$work/time"
}
: > "$work/app"; : > "$work/sox"; : > "$work/before"
for ((r = 1; r <= rounds; r++)); do
    read -r ac aw < <(timed "$app" render "$input" "$work/out-app.wav" --eq rock)
    read -r sc sw < <(timed sox "$input" "$work/out-sox.wav" "${eq[@]}")
    if [[ -n $before ]]; then
        read -r bc bw < <(timed "$before" render "$input" "$work/out-before.wav" --eq rock)
        echo "$bc $bw" >> "$work/before"
        cmp -s "$work/out-app.wav" "$work/out-before.wav" || die "the two appliance builds wrote different files"
        printf 'round %d: before  cpu %5.2f s wall %5.2f s (output identical)\n' "$r" "$bc" "$bw"
    fi
    echo "$ac $aw" >> "$work/app"; echo "$sc $sw" >> "$work/sox"
    printf 'round %d: appliance cpu %5.2f s wall %5.2f s | sox cpu %5.2f s wall %5.2f s | sox/appliance cpu %.2f wall %.2f\n' \
        "$r" "$ac" "$aw" "$sc" "$sw" "$(echo "$sc / $ac" | bc -l)" "$(echo "$sw / $aw" | bc -l)"
done
median() { sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
acm=$(cut -d' ' -f1 "$work/app" | median); awm=$(cut -d' ' -f2 "$work/app" | median)
scm=$(cut -d' ' -f1 "$work/sox" | median); swm=$(cut -d' ' -f2 "$work/sox" | median)
if [[ -n $before ]]; then
    printf 'before: median cpu %.2f s wall %.2f s\n' "$(cut -d' ' -f1 "$work/before" | median)" "$(cut -d' ' -f2 "$work/before" | median)"
fi
printf 'medians over %d rounds: appliance cpu %.2f s wall %.2f s; sox cpu %.2f s wall %.2f s; sox/appliance cpu %.2fx wall %.2fx\n' \
    "$rounds" "$acm" "$awm" "$scm" "$swm" "$(echo "$scm / $acm" | bc -l)" "$(echo "$swm / $awm" | bc -l)"
