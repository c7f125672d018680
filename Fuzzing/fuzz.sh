#!/usr/bin/env bash
# libFuzzer runs of the firmware's parsers (issue 16; RELIABILITY.md "1. Fuzzing").
#   Fuzzing/fuzz.sh build                 the sanitizer build (Fuzzing/.build/debug/Fuzz; FUZZ_RELEASE=1: optimized)
#   Fuzzing/fuzz.sh seeds                 seed corpora: the firmware's writers, sox, ffmpeg, flac, lame, opusenc
#   Fuzzing/fuzz.sh replay                every regression fixture (Fuzzing/Regressions/<target>/*) once
#   Fuzzing/fuzz.sh run SECONDS [TARGET]  each target (or one) for SECONDS, at nice 19, one after another
#                                         (FUZZ_KEEP_GOING=1: a finding is recorded and the next target runs;
#                                         FUZZ_RUNS=N: a target also ends after N executions, e.g. the 10^7 goal;
#                                         FUZZ_INSTANCE=K: a further process on the same targets, its own log
#                                         .build/fuzz-<target>-K.log; libFuzzer reloads the shared corpus, so the
#                                         processes share what they find and their executions add up)
#   Fuzzing/compare.py TARGET EXTENSION   the readers against ffmpeg (and sox) over a corpus: wrong answers,
#                                         not crashes (e.g. compare.py caf caf; compare.py alac m4a)
# A finding (crash, hang over 10 s, leak, ASan report) fails the run and is left in Fuzzing/Findings/<target>/;
# make it a fixture in Fuzzing/Regressions/<target>/ with the fix. Growing corpora are kept in Fuzzing/Corpus/.
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
cd "$here"
mkdir -p .build
# FUZZ_RELEASE=1: the optimized sanitizer build, for long runs (about 3x the executions per second of the debug
# build: wav 5,211 against 1,687, the dispatcher 100 against 28, 20 s each in one run), in its own build folder;
# make test keeps the debug build, whose line-level coverage counters are finer (no inlining).
# FUZZ_BINARY: a copy of the build for long runs (so a rebuild meanwhile does not replace it under them).
if [[ "${FUZZ_RELEASE:-0}" == 1 ]]; then
    configuration=(-c release --scratch-path "$here/.build-release" -Xswiftc -enable-testing)
    built="$here/.build-release/release/Fuzz"
else
    configuration=()
    built="$here/.build/debug/Fuzz"
fi
binary="${FUZZ_BINARY:-$built}"
seeds="$here/.build/seeds"
timeout_seconds=10
# The sanitizer build. SwiftPM's `--sanitize fuzzer --sanitize address` hands swiftc two -sanitize= flags, and
# swiftc 6.3.1 then drops the fuzzer's coverage instrumentation of Swift code (only C was instrumented: 272
# counters); one combined `-sanitize=fuzzer,address` instruments it. --sanitize=fuzzer stays for SwiftPM's link
# (libFuzzer's main instead of the executable's).
# (-enable-testing in the release build: the dispatcher target turns the engine's internal periods, as the soak.)
build_flags=("${configuration[@]}" --sanitize=fuzzer -Xswiftc -sanitize=fuzzer,address)
export ASAN_OPTIONS="detect_leaks=1:abort_on_error=0:allocator_may_return_null=1"
export LSAN_OPTIONS="suppressions=$here/lsan.supp:print_suppressions=0"
# Swift's own crash backtracer, on by default, trips AddressSanitizer while it reads the crashed process's
# stack, and that report hides the trap; without it libFuzzer reports the trap and its stack itself.
export SWIFT_BACKTRACE="enable=no"

fail() { echo "fuzz: $*" >&2; exit 1; }

targets() { FUZZ_TARGET=list "$binary"; }

# The dictionary and largest input of each target.
dictionary() {
    case "$1" in
        wav|rf64) echo riff ;; aiff) echo aiff ;; caf) echo caf ;; flac) echo flac ;; mp3) echo mp3 ;;
        opus) echo ogg ;; aac|alac) echo mp4 ;; *) echo "$1" ;;
    esac
}
max_len() {
    case "$1" in
        board|settings|console|dispatcher) echo 4096 ;;
        *) echo 65536 ;;
    esac
}

build() {
    echo "fuzz: building the sanitizer build (swift build ${build_flags[*]})"
    nice -n 10 swift build "${build_flags[@]}" 2>&1 | grep -E "error:|Build complete" || true
    [[ -x "$binary" ]] || fail "the build made no $binary (run 'cd Fuzzing && swift build ${build_flags[*]}' to see why)"
}

# Seed corpora in .build/seeds/<target>: the firmware's own writers, the reference tools, the curated text seeds.
make_seeds() {
    rm -rf "$seeds"
    for target in $(targets); do mkdir -p "$seeds/$target"; done
    FUZZ_TARGET=seeds FUZZ_SEEDS="$seeds" "$binary" >/dev/null 2>&1 || fail "the firmware's writers made no seeds"
    local tmp; tmp="$(mktemp -d)"
    trap 'rm -rf "$tmp"' RETURN
    sox -n -r 44100 -c 2 -b 16 "$tmp/tone.wav" synth 0.05 sine 440 gain -6
    sox -n -r 8000 -c 1 -b 16 "$tmp/mono.wav" synth 0.05 sine 300
    sox "$tmp/tone.wav" "$seeds/wav/sox-s16.wav"
    sox "$tmp/tone.wav" -e floating-point -b 32 "$seeds/wav/sox-f32.wav"
    sox "$tmp/mono.wav" -e ima-adpcm "$seeds/wav/sox-ima.wav"
    sox "$tmp/mono.wav" -e u-law "$seeds/wav/sox-ulaw.wav"
    ffmpeg -v error -y -i "$tmp/tone.wav" -rf64 always "$seeds/rf64/ffmpeg.rf64" 2>/dev/null \
        || ffmpeg -v error -y -i "$tmp/tone.wav" -f w64 "$seeds/rf64/ffmpeg.w64"
    sox "$tmp/tone.wav" "$seeds/aiff/sox.aiff"
    sox "$tmp/tone.wav" -e floating-point -b 32 "$seeds/aiff/sox-fl32.aifc"
    sox "$tmp/tone.wav" -b 24 "$seeds/caf/sox-s24.caf" 2>/dev/null || true
    ffmpeg -v error -y -i "$tmp/tone.wav" -c:a pcm_s16be "$seeds/caf/ffmpeg.caf"
    ffmpeg -v error -y -i "$tmp/tone.wav" -c:a alac "$seeds/caf/ffmpeg-alac.caf"
    flac -s -f -o "$seeds/flac/flac.flac" "$tmp/tone.wav"
    flac -s -f -8 --blocksize=192 -o "$seeds/flac/flac-small-blocks.flac" "$tmp/mono.wav"
    lame --quiet -b 64 "$tmp/tone.wav" "$seeds/mp3/lame-cbr.mp3"
    lame --quiet -V 5 --add-id3v2 --tt seed "$tmp/mono.wav" "$seeds/mp3/lame-vbr.mp3"
    opusenc --quiet "$tmp/tone.wav" "$seeds/opus/opusenc.opus"
    ffmpeg -v error -y -i "$tmp/tone.wav" -c:a aac -b:a 64k "$seeds/aac/ffmpeg.aac"
    ffmpeg -v error -y -i "$tmp/tone.wav" -c:a alac "$seeds/alac/ffmpeg-alac.m4a"
    ffmpeg -v error -y -i "$tmp/tone.wav" -c:a aac -b:a 64k "$seeds/alac/ffmpeg-aac.m4a"
    # As iTunes, fdkaac and qaac lay AAC out: no edit list, the gapless counts in an iTunSMPB '----' atom
    # (AtomicParsley writes it; 1024 + 2205 + 867 = the 4 packets' 4096 frames).
    ffmpeg -v error -y -i "$seeds/aac/ffmpeg.aac" -c:a copy -use_editlist 0 "$seeds/alac/itunes-aac.m4a"
    AtomicParsley "$seeds/alac/itunes-aac.m4a" --rDNSatom " 00000000 00000400 00000363 000000000000089D" \
        name=iTunSMPB domain=com.apple.iTunes --overWrite >/dev/null
    # The stream target reads a first byte (hint and chunk count) and chunk sizes before the stream.
    local file n=0
    for file in "$seeds"/{wav,rf64,aiff,caf,flac,mp3,opus,aac,alac}/*; do
        { printf '\x03\x01\x10\xff\x40'; cat "$file"; } > "$seeds/stream/$n-$(basename "$file")"; n=$((n + 1))
    done
    # The repair target reads a first byte choosing the extension, then a file cut short (a power cut).
    n=0
    for file in "$seeds"/{wav,rf64,aiff,caf,flac}/*; do
        local size; size=$(stat -c %s "$file")
        { printf '\x00'; head -c $((size * 2 / 3)) "$file"; } > "$seeds/repair/$n-cut-$(basename "$file")"
        n=$((n + 1))
    done
    cp ../board-configs/*.yaml "$seeds/board/"
    local target
    for target in settings console dispatcher; do cp Seeds/$target/* "$seeds/$target/"; done
    echo "fuzz: seeds made: $(find "$seeds" -type f | wc -l) files"
}

# Each fixture under Regressions/<target>/ run once through its target.
replay() {
    local dir target count=0
    for dir in Regressions/*/; do
        [[ -d "$dir" ]] || continue
        target="$(basename "$dir")"
        local files=("$dir"*)
        [[ -e "${files[0]}" ]] || continue
        FUZZ_TARGET="$target" "$binary" -timeout=$timeout_seconds "${files[@]}" > ".build/replay-$target.log" 2>&1 \
            || { tail -30 ".build/replay-$target.log" >&2; fail "fixture of $target fails again (log .build/replay-$target.log)"; }
        count=$((count + ${#files[@]}))
    done
    echo "fuzz: replayed $count regression fixtures, all pass"
}

# One target for $2 seconds: its corpus grows in Corpus/<target>; figures go to .build/figures.txt.
run_one() {
    local target="$1" seconds="$2"
    mkdir -p "Corpus/$target" "Findings/$target"
    local log=".build/fuzz-$target${FUZZ_INSTANCE:+-$FUZZ_INSTANCE}.log"
    local start=$SECONDS
    local runs_limit=()
    [[ -n "${FUZZ_RUNS:-}" ]] && runs_limit=(-runs="$FUZZ_RUNS")
    if ! FUZZ_TARGET="$target" nice -n 19 "$binary" "Corpus/$target" "$seeds/$target" \
            -max_total_time="$seconds" -timeout=$timeout_seconds -rss_limit_mb=2048 -max_len="$(max_len "$target")" \
            -dict="Dictionaries/$(dictionary "$target").dict" -artifact_prefix="Findings/$target/" \
            -print_final_stats=1 "${runs_limit[@]}" > "$log" 2>&1; then
        { grep -aE "ERROR|SUMMARY|Test unit written|Fatal error|Precondition failed|ParseDictionaryFile" "$log" | head -8 >&2; } || true
        [[ "${FUZZ_KEEP_GOING:-0}" == 1 ]] || fail "$target: a finding (log Fuzzing/$log; input in Fuzzing/Findings/$target/)"
        echo "fuzz: $target: FINDING after $((SECONDS - start)) s (log Fuzzing/$log)" | tee -a .build/figures.txt
        return 0
    fi
    local runs cov ft corpus rate
    # -a: a log can hold NUL bytes when two runs of one target wrote it (make test's short run beside a long one).
    runs=$(grep -aoE "stat::number_of_executed_units: *[0-9]+" "$log" | grep -oE "[0-9]+$" || echo 0)
    rate=$(grep -aoE "stat::average_exec_per_sec: *[0-9]+" "$log" | grep -oE "[0-9]+$" || echo 0)
    cov=$(grep -aoE "cov: [0-9]+ ft: [0-9]+ corp: [0-9]+/[0-9]+[a-zA-Z]*" "$log" | tail -1 || true)
    echo "fuzz: $target: $runs runs in $((SECONDS - start)) s ($rate exec/s), $cov, no finding" | tee -a .build/figures.txt
}

case "${1:-}" in
    build) build ;;
    seeds) [[ -x "$binary" ]] || build; make_seeds ;;
    replay) [[ -x "$binary" ]] || build; replay ;;
    run)
        seconds="${2:?usage: fuzz.sh run SECONDS [TARGET]}"
        [[ -x "$binary" ]] || build
        [[ -d "$seeds" ]] || make_seeds
        # nice 19 yields only within one autogroup, and a run started with setsid has its own, which the scheduler
        # weighs the same as a whole shell session (sched(7), "The autogroup feature"): such a run, the leader of
        # its session, lowers its autogroup's nice value as well, so a long run does not slow a build beside it.
        read -r -a stat < "/proc/$$/stat"
        if [[ "${stat[5]}" == "$$" && -w /proc/self/autogroup ]]; then echo 19 > /proc/self/autogroup || true; fi
        replay
        list="${3:-$(targets)}"
        for target in $list; do run_one "$target" "$seconds"; done
        ;;
    *) fail "usage: fuzz.sh build | seeds | replay | run SECONDS [TARGET]" ;;
esac
