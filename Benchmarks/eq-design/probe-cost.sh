#!/usr/bin/env bash
# llvm-mca cost of a bell probe as the board's compiler (Debian trixie's Swift 6.0.3, in the `make arm`
# environment) builds it for aarch64, and as the host's swiftc builds it for x86_64 (znver3 model). Prints cycles
# per sample per band and how many 64-bit products went to scalar `mul` instead of NEON smull/smlal: the question
# is whether the compiler vectorizes the 32x32->64 products at all.
# Usage: Benchmarks/eq-design/probe-cost.sh [split|feedback|canon]
#        split (default): SplitBellProbe.swift; feedback: ErrorFeedbackBellProbe.swift, one stage; canon: the same,
#        two stages in canon. Needs make arm's toolchain cache and image/host-deps.sh mca.
set -euo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
die() { printf 'probe-cost: error: %s\n' "$*" >&2; exit 1; }
command -v llvm-mca >/dev/null || die "llvm-mca not found: run image/host-deps.sh mca"
case "${1:-split}" in
    split) probe=SplitBellProbe symbol=probeSplitBellStereo label="split-coefficient bell probe, stereo" ;;
    feedback) probe=ErrorFeedbackBellProbe symbol=probeErrorFeedbackBellStereo label="error-feedback bell probe, stereo" ;;
    canon) probe=ErrorFeedbackBellProbe symbol=probeErrorFeedbackBellCanon label="error-feedback bells in canon, stereo" units=4 ;;
    *) die "unknown probe '$1' (split, feedback or canon)" ;;
esac
out=$repo/.build-arm/probe/$probe
mkdir -p "$out"
sdk=/opt/swift-sdks/debian-trixie-aarch64.artifactbundle/aarch64-unknown-linux-gnu/sysroot
echo "probe-cost: compiling the probe for aarch64 (swiftc 6.0.3 in the arm environment)" >&2
"$repo/image/cross/arm.sh" run "swiftc -O -parse-as-library -emit-library -target aarch64-unknown-linux-gnu -use-ld=lld -sdk $sdk \
    -resource-dir $sdk/usr/libexec/swift/lib/swift -module-name Probe \
    /src/Benchmarks/eq-design/$probe.swift -o /src/.build-arm/probe/$probe/libprobe-arm.so" >/dev/null \
    || die "the aarch64 compile failed"
table=$out/table
printf '%s\n' "$label|$symbol|${units:-2}|sample per band" > "$table"
LOOP_TABLE=$table "$repo/Benchmarks/mca/loop-cost.sh" "$out/libprobe-arm.so" "$out/libprobe-arm.so"
scalar=$(llvm-objdump -d "$out/libprobe-arm.so" | grep -cE $'\tmul\tx' || true)
vector=$(llvm-objdump -d "$out/libprobe-arm.so" | grep -cE $'\t(s|u)(mull|mlal)2?\t' || true)
echo "aarch64: $scalar scalar 64-bit mul, $vector NEON widening multiplies in the object"

echo "probe-cost: compiling the probe for x86_64 (host swiftc)" >&2
swiftc -O -parse-as-library -emit-assembly -module-name Probe "$repo/Benchmarks/eq-design/$probe.swift" -o "$out/probe-x86.s"
# The innermost loop: from the label the function's backward branch names to that branch.
awk -v symbol="$symbol" '$0 ~ symbol ".*:" { f = 1 } f && /Loop Header/ { l = 1; next } l && /^[[:space:]]*j[a-z]+[[:space:]]+\.LBB/ { exit }
     l && !/^[[:space:]]*[#.]/ { print }' "$out/probe-x86.s" > "$out/loop-x86.s"
[[ -s $out/loop-x86.s ]] || die "no loop found in the x86_64 assembly"
cycles=$(llvm-mca -mcpu=znver3 -iterations=200 "$out/loop-x86.s" | awk '/^Total Cycles:/ { print $3 }')
printf 'x86_64 (znver3): %d instructions, %.2f cycles per sample per band, %d pmuludq\n' "$(wc -l < "$out/loop-x86.s")" \
    "$(echo "$cycles / 200 / 2" | bc -l)" "$(grep -c pmuludq "$out/loop-x86.s" || true)"
