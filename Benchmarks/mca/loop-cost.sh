#!/usr/bin/env bash
# Cycles per unit of work of the DSP hot loops in the shipped aarch64 binary, by llvm-mca's models of the
# Cortex-A72 (Pi 4) and Cortex-A53 (Pi Zero 2 W, Pi 3): a cost figure that needs no board.
#
# Usage: [LOOP_TABLE=FILE] Benchmarks/mca/loop-cost.sh [SHIPPED [UNSTRIPPED]]
#        (defaults: .build-arm/bin/appliance, the `make arm` output, and the unstripped binary it was stripped from,
#         .build-arm/dynamic/aarch64-unknown-linux-gnu/release/appliance)
#
# How: the shipped binary is stripped, so each loop's function is found BY SYMBOL in the unstripped twin, and the
# function's bytes are checked to be identical in the shipped binary (strip keeps .text as it is). The function is
# disassembled (llvm-objdump), its loops are the backward branches (a branch whose target lies before it, inside
# the function); the largest one is the hot loop. Its body, target to branch, goes to `llvm-mca -mcpu=CPU`, whose
# cycles per iteration (Total Cycles / Iterations, loop-carried dependencies included) are divided by the work
# one iteration does.
#
# The table below is the only place to add a loop: one row per loop, fields separated by '|':
#   name | symbol (an extended regex matched against the mangled names) | work per iteration | unit [| body]
# "work per iteration" is what one trip through the loop body computes, in the unit named beside it. With "body"
# (an extended regex), the loop is instead the largest innermost one (no backward branch inside it) whose body
# has an instruction matching it: for a function whose hot loop is nested in its per-output loop.
# Needs: llvm-objdump, llvm-mca, llvm-nm (Debian's llvm package; image/host-deps.sh mca).
set -euo pipefail

LOOPS='
EQ, two bell stages, stereo (runBellTwoStagesPair)|BiquadKernelO20runBellTwoStagesPair_|4|sample per band
converter dot product, stereo (SampleRateConverter.render)|19SampleRateConverterC6render6source|16|tap per channel|umlal2
'
# LOOP_TABLE=FILE replaces the table (same format), e.g. for a probe object (Benchmarks/eq-design/probe-cost.sh).
[[ -n ${LOOP_TABLE:-} ]] && LOOPS=$(cat "$LOOP_TABLE")
readonly LOOPS
readonly CPUS="cortex-a72 cortex-a53"
readonly ITERATIONS=200

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
shipped=${1:-$repo/.build-arm/bin/appliance}
unstripped=${2:-$repo/.build-arm/dynamic/aarch64-unknown-linux-gnu/release/appliance}

die() { printf 'loop-cost: error: %s\n' "$*" >&2; exit 1; }
for tool in llvm-objdump llvm-mca llvm-nm; do
    command -v "$tool" >/dev/null || die "'$tool' not found: run image/host-deps.sh mca (Debian's llvm package)"
done
[[ -f $shipped ]] || die "no shipped binary at $shipped: run 'make arm' first"
[[ -f $unstripped ]] || die "no unstripped binary at $unstripped: run 'make arm' first"
file -b "$shipped" | grep -q 'ARM aarch64' || die "$shipped is not an aarch64 binary (or object)"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
llvm-nm -S --defined-only "$unstripped" > "$work/symbols"

# Prints the instructions (address<TAB>text) of [start, stop) in a binary.
disassemble() {
    llvm-objdump -d --no-show-raw-insn --start-address="0x$2" --stop-address="0x$3" "$1" |
        sed -nE 's/^ *([0-9a-f]+):[[:space:]]+(.*)$/\1\t\2/p'
}
# Prints the raw bytes of [start, stop) in a binary (to compare the shipped code with the unstripped one).
code_bytes() {
    llvm-objdump -d --start-address="0x$2" --stop-address="0x$3" "$1" |
        sed -nE 's/^ *[0-9a-f]+:[[:space:]]+(([0-9a-f]{2} ){4}).*/\1/p'
}

printf '%-52s %-10s %9s %10s %18s\n' "loop" "cpu" "instrs" "cycles/it" "cycles per unit"
status=0
while IFS='|' read -r name pattern per_iteration unit body; do
    [[ -n $name ]] || continue
    # The largest function matching (specialized copies share the name stem).
    read -r start size symbol < <(awk -v p="$pattern" '$3 ~ /^[tT]$/ && $4 ~ p { print $1, $2, $4 }' "$work/symbols" |
        sort -k2,2 -r | head -n 1) || { printf '%-52s no symbol matching %s\n' "$name" "$pattern"; status=1; continue; }
    stop=$(printf '%x' $((0x$start + 0x$size)))
    [[ $(code_bytes "$shipped" "$start" "$stop" | md5sum) == $(code_bytes "$unstripped" "$start" "$stop" | md5sum) ]] ||
        die "$name: the code of $symbol differs between $shipped and $unstripped (rebuild with make arm)"
    # Addresses in decimal (awk here may be mawk, which reads no hex): "address<TAB>target or -<TAB>instruction".
    disassemble "$unstripped" "$start" "$stop" | while IFS=$'\t' read -r address text; do
        text=${text//$'\t'/ }
        text=${text%%<*}
        target=-
        if [[ $text =~ ^(b|b\.[a-z]+|cbz|cbnz|tbz|tbnz)[[:space:]].*0x([0-9a-f]+)[[:space:]]*$ ]]; then
            target=$((0x${BASH_REMATCH[2]}))
        fi
        printf '%d\t%s\t%s\n' $((0x$address)) "$target" "${text%%//*}"
    done > "$work/function"
    # Backward branches inside the function; the loop with the most instructions is the hot one (with a body
    # regex: the largest innermost loop with an instruction matching it).
    read -r target branch < <(awk -F'\t' -v start=$((0x$start)) -v body="$body" '
        { address[NR] = $1 + 0; text[NR] = $3 }
        $2 != "-" && $2 + 0 < $1 + 0 && $2 + 0 >= start { n++; from[n] = $2 + 0; to[n] = $1 + 0 }
        END {
            for (i = 1; i <= n; i++) {
                if (body != "") {
                    inner = 1; matched = 0
                    for (j = 1; j <= n; j++) if (j != i && to[j] >= from[i] && to[j] < to[i]) inner = 0
                    for (k = 1; k <= NR; k++) if (address[k] >= from[i] && address[k] <= to[i] && text[k] ~ body) matched = 1
                    if (!inner || !matched) continue
                }
                print from[i], to[i], to[i] - from[i]
            }
        }' "$work/function" |
        sort -k3,3nr | head -n 1 | cut -d' ' -f1,2 | grep .) ||
        { printf '%-52s no loop in %s\n' "$name" "$symbol"; status=1; continue; }
    # The body as llvm-mca input: addresses dropped, branch targets replaced by labels.
    awk -F'\t' -v t="$target" -v b="$branch" '
        $1 + 0 >= t + 0 && $1 + 0 <= b + 0 {
            line = $3
            if ($2 != "-") {
                sub(/0x[0-9a-f]+([[:space:]]*<[^>]*>)?/, "", line)
                line = line (($1 + 0 == b + 0) ? "loop" : "out")
            }
            print line
        }' "$work/function" > "$work/body.s"
    { echo "loop:"; cat "$work/body.s"; echo "out:"; } > "$work/loop.s"
    instructions=$(wc -l < "$work/body.s")
    for cpu in $CPUS; do
        report=$(llvm-mca -mtriple=aarch64-linux-gnu -mcpu="$cpu" -iterations=$ITERATIONS "$work/loop.s" 2>&1) ||
            die "$name: llvm-mca failed for $cpu: $(printf '%s\n' "$report" | head -n 3)"
        cycles=$(printf '%s\n' "$report" | awk '/^Total Cycles:/ { print $3 }')
        printf '%-52s %-10s %9d %10.2f %8.2f per %s\n' "$name" "$cpu" "$instructions" \
            "$(echo "$cycles / $ITERATIONS" | bc -l)" "$(echo "$cycles / $ITERATIONS / $per_iteration" | bc -l)" "$unit"
    done
done <<< "$LOOPS"
exit $status
