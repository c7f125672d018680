#!/bin/bash
# Usage: build A (chain branch aac43a1) and B (this branch) release binaries as /tmp/app-A and /tmp/app-B, make /tmp/in48.wav and /tmp/in44.wav (see BENCHMARKS.md), then: Benchmarks/engine-manual-ab.sh 5
# Alternating A/B: A = FileRenderer on OutputChain (chain branch aac43a1), B = on RenderEngine manual mode (engine).
# Each run pinned to one core (taskset -c 0) and timed with /usr/bin/time -v.
rounds=${1:-5}
for r in $(seq 1 $rounds); do
  for job in "48 A" "48 B" "44 A" "44 B"; do
    set -- $job
    extra=""; [ "$1" = 44 ] && extra="--rate 48000"
    /usr/bin/time -v -o /tmp/t.txt taskset -c 0 /tmp/app-$2 render /tmp/in$1.wav /tmp/out$1$2.wav --eq rock --limit $extra > /dev/null 2>&1
    wall=$(grep "Elapsed" /tmp/t.txt | awk '{print $NF}'); user=$(grep "User time" /tmp/t.txt | awk '{print $NF}'); sys=$(grep "System time" /tmp/t.txt | awk '{print $NF}')
    echo "round $r in$1 $2 wall $wall user $user sys $sys"
  done
done
cmp /tmp/out48A.wav /tmp/out48B.wav && echo "48: A and B identical"
cmp /tmp/out44A.wav /tmp/out44B.wav && echo "44: A and B identical"
