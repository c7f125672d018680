#!/bin/sh
# CPU and peak RSS per minute of playback: a 60 s 44.1 kHz stereo 16-bit WAV played to a 48 kHz device,
# `appliance play` (simulated PCM paced by the system clock) against MPD (null output with sync, soxr
# "high" resampler, 48000:16:2), alternating ROUNDS times, each under /usr/bin/time -v.
# Usage: Benchmarks/playback/cpu.sh [ROUNDS] [APPLIANCE]   (release build by default; extra appliance
# flags in ${PLAY_FLAGS:-}, e.g. PLAY_FLAGS=--no-lock-memory)
set -eu
rounds=${1:-2}
here=$(cd "$(dirname "$0")" && pwd)
appliance=${2:-$here/../../.build/release/appliance}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT INT TERM
mkdir -p "$work/music"
sox -n -r 44100 -c 2 -b 16 "$work/music/music.wav" synth 60 sine 440 sine 660 vol 0.5
cat > "$work/mpd.conf" <<CONF
log_level "verbose"
music_directory "$work/music"
db_file "$work/mpd.db"
bind_to_address "$work/socket"
audio_output {
    type "null"
    name "null"
    sync "yes"
    format "48000:16:2"
}
resampler {
    plugin "soxr"
    quality "high"
}
CONF
summary() { # label, time -v output
    awk -v label="$1" -F': ' '
        /User time/ {u=$2} /System time/ {s=$2} /Elapsed/ {w=$2} /Maximum resident/ {r=$2}
        END {printf "%-10s user %5.2f s  sys %5.2f s  user+sys %5.2f s  wall %s  peak RSS %6.1f MB\n", label, u, s, u+s, w, r/1024}' "$2"
}
for round in $(seq "$rounds"); do
    /usr/bin/time -v "$appliance" play "$work/music/music.wav" --rate 48000 ${PLAY_FLAGS:-} --stats \
        >"$work/play.txt" 2>"$work/time.txt"
    summary "appliance" "$work/time.txt"
    sed 's/^/    /' "$work/play.txt"
    rm -f "$work/socket"
    /usr/bin/time -v mpd --no-daemon "$work/mpd.conf" >"$work/mpd.log" 2>"$work/time.txt" &
    mpd=$!
    python3 "$here/mpd-client.py" "$work/socket" music.wav
    # The client's "kill" ends MPD; should it not within 5 s, end it as its service manager would (SIGTERM).
    for _ in 1 2 3 4 5; do kill -0 "$mpd" 2>/dev/null || break; sleep 1; done
    if kill -0 "$mpd" 2>/dev/null; then pkill -TERM -P "$mpd" || true; fi
    wait "$mpd" || true
    summary "mpd" "$work/time.txt"
done
