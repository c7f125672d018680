#!/bin/sh
# Real-time check: `appliance play` on the simulated PCM (paced by the system clock) for SECONDS with a
# busy loop per core at normal priority, at PERIOD frames x 2 periods at 48 kHz. Prints /usr/bin/time -v's
# CPU, wall and peak RSS lines and the command's --stats (xruns, SCHED_FIFO, render time per period).
# Usage: Benchmarks/playback/realtime.sh PERIOD [SECONDS] [APPLIANCE]   (release build by default)
set -eu
period=${1:?period frames (64, 128, 256)}
seconds=${2:-600}
here=$(cd "$(dirname "$0")/../.." && pwd)
appliance=${3:-$here/.build/release/appliance}
work=$(mktemp -d)
hogs=""
cleanup() { for pid in $hogs; do kill "$pid" 2>/dev/null || true; done; rm -rf "$work"; }
trap cleanup EXIT INT TERM
# 10 s of a 44.1 kHz stereo 16-bit file, looped gaplessly by --seconds (and converted to 48 kHz).
sox -n -r 44100 -c 2 -b 16 "$work/music.wav" synth 10 sine 440 sine 660 vol 0.5
for core in $(seq "$(nproc)"); do
    sh -c 'while :; do :; done' &
    hogs="$hogs $!"
done
/usr/bin/time -v "$appliance" play "$work/music.wav" --rate 48000 --period "$period" --periods 2 \
    --seconds "$seconds" --stats 2>"$work/time.txt" || status=$?
grep -E "User time|System time|Elapsed|Maximum resident" "$work/time.txt"
grep -v -E "^\s" "$work/time.txt" || true
exit "${status:-0}"
