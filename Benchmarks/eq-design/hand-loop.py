#!/usr/bin/env python3
"""Prints a hand-scheduled aarch64 NEON loop of the error-feedback bell (error-feedback.py, P = 28) for llvm-mca.

Why: what the compiler makes of ErrorFeedbackBellProbe.swift mixes the design's cost with the compiler's moves and
spills; this is the design's own floor, the loop an assembly programmer would write (assembly is excluded from the
firmware, not from a measurement). It is never assembled or run: llvm-mca models only instructions and their
dependencies, so the registers are chosen for the dependencies alone (the constants of all stages share registers;
a real loop of four stages would be short of the 32 NEON registers).

One iteration: two stereo frames through N stages in canon (stage s takes stage s-1's output of the frame before,
through a scratch row per stage; x_{n-2} is read back from that row), the state e and r rotating between two
registers each by the unrolling. Per stage and frame: three rounded 32x32->64 products at their own exponents
(smull + srshl), the remainder's feedback (mul, mla by element), the 64-bit sum, e0 (rshrn), r0 (xtn, shl, sub), y.
Usage: hand-loop.py N | llvm-mca -mtriple=aarch64 -mcpu=cortex-a72 -iterations=300
       (cycles per sample per band = Total Cycles / 300 / (4 N))
"""
import sys

lines = []
emit = lines.append
temporaries = ["v16", "v17", "v18", "v19", "v20", "v21", "v22"]
# Per stage: (e_a, e_b, r_a, r_b); the constants: v4 (mantissas g, A1, d2 by element), v5 (k1, k2 by element),
# v6 v7 v8 (the three right shifts, negative, per lane).
states = [("v0", "v1", "v2", "v3"), ("v9", "v10", "v11", "v12"), ("v23", "v24", "v25", "v26"),
          ("v28", "v29", "v13", "v14")]


def stage(x0, x2, e1, e2, r1, r2, y):
    """One bell stage for one stereo frame: e0 goes to e2's register and r0 to r2's (they rotate by unrolling)."""
    t = temporaries
    emit(f"sub {t[0]}.2s, {x0}.2s, {x2}.2s")          # x0 - x2
    emit(f"sub {t[1]}.2s, {e1}.2s, {e2}.2s")          # w = e1 - e2
    emit(f"smull {t[2]}.2d, {t[0]}.2s, v4.s[0]")      # g (x0 - x2)
    emit(f"smull {t[3]}.2d, {e1}.2s, v4.s[1]")        # A1 e1
    emit(f"smull {t[4]}.2d, {t[1]}.2s, v4.s[2]")      # d2 w
    emit(f"saddl {t[5]}.2d, {e1}.2s, {t[1]}.2s")      # e1 + w
    emit(f"mul {t[6]}.2s, {r1}.2s, v5.s[0]")          # k1 r1
    emit(f"mla {t[6]}.2s, {r2}.2s, v5.s[1]")          # + k2 r2
    emit(f"srshl {t[2]}.2d, {t[2]}.2d, v6.2d")        # each product rounded to the accumulator's scale
    emit(f"srshl {t[3]}.2d, {t[3]}.2d, v7.2d")
    emit(f"srshl {t[4]}.2d, {t[4]}.2d, v8.2d")
    emit(f"shl {t[5]}.2d, {t[5]}.2d, #29")            # (e1 + w) << F
    emit(f"saddw {t[5]}.2d, {t[5]}.2d, {t[6]}.2s")
    emit(f"add {t[5]}.2d, {t[5]}.2d, {t[2]}.2d")
    emit(f"add {t[3]}.2d, {t[3]}.2d, {t[4]}.2d")
    emit(f"sub {t[5]}.2d, {t[5]}.2d, {t[3]}.2d")      # acc
    emit(f"rshrn {e2}.2s, {t[5]}.2d, #29")            # e0 = round(acc >> F)
    emit(f"xtn {t[0]}.2s, {t[5]}.2d")
    emit(f"shl {t[1]}.2s, {e2}.2s, #29")
    emit(f"sub {r2}.2s, {t[0]}.2s, {t[1]}.2s")        # r0 = acc - (e0 << F), in 32 bits
    emit(f"add {y}.2s, {x0}.2s, {e2}.2s")             # y = x0 + e0


def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 2
    if not 1 <= n <= len(states):
        sys.exit(f"hand-loop: 1 to {len(states)} stages")
    for frame in range(2):
        offset = 8 * frame
        for s, (ea, eb, ra, rb) in enumerate(states[:n]):
            e1, e2, r1, r2 = (ea, eb, ra, rb) if frame == 0 else (eb, ea, rb, ra)
            emit(f"ldr d31, [x{s}, #{offset - 8 * s}]")
            emit(f"ldr d30, [x{s}, #{offset - 8 * s - 16}]")
            stage("v31", "v30", e1, e2, r1, r2, "v27")
            emit(f"str d27, [x{s + 1}, #{offset - 8 * s}]")
    for s in range(n + 1):
        emit(f"add x{s}, x{s}, #16")
    emit("subs x9, x9, #2")
    emit("b.ne .Lloop")
    print(".Lloop:")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
