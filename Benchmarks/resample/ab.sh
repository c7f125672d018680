#!/usr/bin/env bash
# A/B timing of the sample-rate converter against libsoxr's very-high-quality setting through sox
# (`sox IN -b 24 OUT rate -v RATE`), on the same stereo 24-bit file of MINUTES minutes, for 44.1k->48k,
# 48k->44.1k, 48k->96k and 96k->48k. Each round runs `appliance convert` and sox back to back (the order
# alternates by round) under /usr/bin/time -v; the summary prints each side's median CPU time (user + sys)
# and wall time per conversion, and the ratios sox/appliance (above 1: the appliance is faster).
# Usage: Benchmarks/resample/ab.sh [APPLIANCE_BINARY] [ROUNDS] [MINUTES]   (issue 17, part G)
set -euo pipefail
binary=${1:-.build/release/appliance}
rounds=${2:-5}
minutes=${3:-3}
[[ -x $binary ]] || { echo "ab.sh: no appliance binary at $binary (swift build -c release first)" >&2; exit 1; }
command -v sox >/dev/null || { echo "ab.sh: sox is not installed (image/host-deps.sh)" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
seconds=$((minutes * 60))

# Music-like material: two tones plus pink noise, -3 dBFS peak, 24-bit stereo at each source rate.
for rate in 44100 48000 96000; do
    echo "ab.sh: making ${minutes}-minute source at $rate Hz" >&2
    sox -n -r "$rate" -c 2 -b 24 "$work/in$rate.wav" synth "$seconds" pinknoise synth sine mix 1000 sine amod 0.3 vol 0.5 gain -n -3
done

# Prints "cpu wall" in seconds for one command, from /usr/bin/time -v.
measure() {
    local log="$work/time.log"
    /usr/bin/time -v "$@" >/dev/null 2>"$log" || { echo "ab.sh: failed: $*" >&2; cat "$log" >&2; exit 1; }
    awk -F': ' '/User time/ {u=$2} /System time/ {s=$2} /Elapsed \(wall clock\)/ {
        n=split($2, p, ":"); w=0; for (i=1; i<=n; i++) w = w*60 + p[i] } END { printf "%.3f %.3f\n", u+s, w }' "$log"
}

median() { sort -n | awk '{a[NR]=$1} END { print (NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2 }'; }

printf "%-14s %10s %10s %10s %10s %8s %8s\n" conversion "app cpu" "sox cpu" "app wall" "sox wall" "cpu x" "wall x"
for pair in 44100:48000 48000:44100 48000:96000 96000:48000; do
    from=${pair%:*} to=${pair#*:}
    : >"$work/app" ; : >"$work/sox"
    for round in $(seq 1 "$rounds"); do
        echo "ab.sh: $from -> $to round $round/$rounds" >&2
        app=(measure "$binary" convert "$work/in$from.wav" "$work/app.wav" --rate "$to" --data-format s24)
        ref=(measure sox "$work/in$from.wav" -b 24 "$work/sox.wav" rate -v "$to")
        if (( round % 2 )); then "${app[@]}" >>"$work/app"; "${ref[@]}" >>"$work/sox"
        else "${ref[@]}" >>"$work/sox"; "${app[@]}" >>"$work/app"; fi
    done
    ac=$(cut -d' ' -f1 "$work/app" | median) aw=$(cut -d' ' -f2 "$work/app" | median)
    sc=$(cut -d' ' -f1 "$work/sox" | median) sw=$(cut -d' ' -f2 "$work/sox" | median)
    awk -v p="$from->$to" -v ac="$ac" -v sc="$sc" -v aw="$aw" -v sw="$sw" \
        'BEGIN { printf "%-14s %10.3f %10.3f %10.3f %10.3f %8.2f %8.2f\n", p, ac, sc, aw, sw, sc / ac, sw / aw }'
done
