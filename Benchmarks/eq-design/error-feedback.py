#!/usr/bin/env python3
"""Accuracy model of a bell stage with 32-bit state and error feedback (issue 17's second suggestion), against float64.

Why: the split design (split-coefficients.py) needs six 32x32->64 products per sample and band; this one needs three,
which would put the multiplier limit at 1.5 cycles per sample per band on a Cortex-A72 (two channels in the lanes of
one smull/smlal). It keeps the bell and the "dc" feedback form of split-coefficients.py (same coefficient
mantissas), but every value is a 32-bit integer:
  x, y, e  P fractional bits (8.24 when P = 24; 4.28 when P = 28: 16x less rounding, 16x less headroom)
  e0 = round(acc >> F),  acc = g*(x0 - x2) + (e1 + w) << F - A1*e1 - d2*w + k1*r1 + k2*r2   (F = 29, w = e1 - e2)
  r0 = acc - (e0 << F)   the rounding remainder, fed back with small integer weights k1, k2 (shifts and adds)
  y = x0 + e0
The products are coefficient mantissa (|m| < 2^31) times a 32-bit value, each exact in 64 bits and rounded once to
the accumulator's scale. The remainder's feedback shapes the rounding noise by (1 - k1 z^-1 - k2 z^-2) / A(z); with
k = (2, -1) it has a double zero at DC, where a low band's poles make 1/A(z) largest (about 2^18 for 31 Hz at 96
kHz); k1, k2 = round(-a1), round(-a2) in general.
Usage: error-feedback.py stage P RATE FREQ GAIN_DB SIGNAL_HZ (0: seeded noise)
       error-feedback.py cascade P RATE GAIN_DB...    (the 10-band graphic EQ, Q sqrt(2), noise 0.1 + 31 Hz 0.1)
FEEDBACK=0 drops the remainder's feedback (k1 = k2 = 0), to show what it is for.
Prints the worst error in LSB of 8.24 and the SNR against the float64 reference (the contract of
Tests/Codec8_24Tests/Filter/BiquadAccuracyTests: worst <= 1 LSB, SNR >= 120 dB), and whether any value left Int32.
"""
import importlib.util
import math
import os
import random
import sys

_spec = importlib.util.spec_from_file_location("split", os.path.join(os.path.dirname(__file__), "split-coefficients.py"))
split = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(split)

F = 29
INT32 = 2 ** 31


def rounded(m, v, shift):
    """m * 2^-(29 + shift) times v, at the accumulator's scale 2^-(P + F): one rounding of an exact 64-bit product."""
    s = 29 + shift - F
    return (m * v + ((1 << s) >> 1)) >> s


class Stage:
    def __init__(self, c):
        b0, _, _, a1, a2 = c
        self.mg, self.sg = split.mantissa(b0 - 1, 0)
        self.ma, self.sa = split.mantissa(1 + a1 + a2, 0)
        self.md, self.sd = split.mantissa(1 - a2, 0)
        self.k1, self.k2 = (round(-a1), round(-a2)) if os.environ.get("FEEDBACK", "1") == "1" else (0, 0)
        self.x1 = self.x2 = self.e1 = self.e2 = self.r1 = self.r2 = 0
        self.overflow = False

    def run(self, xs):
        out = []
        for x0 in xs:
            w = self.e1 - self.e2
            dx = x0 - self.x2
            acc = (rounded(self.mg, dx, self.sg) + ((self.e1 + w) << F) - rounded(self.ma, self.e1, self.sa)
                   - rounded(self.md, w, self.sd) + self.k1 * self.r1 + self.k2 * self.r2)
            e0 = (acc + (1 << (F - 1))) >> F
            r0 = acc - (e0 << F)
            y = x0 + e0
            if max(abs(dx), abs(w), abs(e0), abs(y)) >= INT32:
                self.overflow = True
            self.x2, self.x1, self.e2, self.e1, self.r2, self.r1 = self.x1, x0, self.e1, e0, self.r1, r0
            out.append(y)
        return out


def run(coefficients, xs, p):
    values = [round(x * 2 ** p) for x in xs]
    stages = [Stage(c) for c in coefficients]
    for stage in stages:
        values = stage.run(values)
    half = (1 << (p - 24)) >> 1
    return [((v + half) >> (p - 24)) / 2 ** 24 for v in values], any(s.overflow for s in stages)


def report(label, out, ref, overflow):
    worst, snr = split.accuracy(out, ref)
    print(f"{label}: worst {worst:.3f} LSB, SNR {snr:.1f} dB{', LEFT INT32' if overflow else ''}")


def main():
    mode, p, fs = sys.argv[1], int(sys.argv[2]), float(sys.argv[3])
    if mode == "stage":
        f, gain, signal = float(sys.argv[4]), float(sys.argv[5]), float(sys.argv[6])
        coefficients = [split.peaking(f, 1.41, gain, fs)]
        xs = split.test_signal(fs, signal)
        label = f"stage P={p} {fs:6.0f} Hz {f:6.0f} Hz {gain:+5.1f} dB signal {signal:5.0f} Hz"
    else:
        gains = [float(g) for g in sys.argv[4:]]
        centres = [31, 62, 125, 250, 500, 1000, 2000, 4000, 8000, 16000]
        coefficients = [split.peaking(f, math.sqrt(2), g, fs) for f, g in zip(centres, gains) if g != 0 and f < 0.45 * fs]
        random.seed(11)
        xs = [round((random.uniform(-0.1, 0.1) + 0.1 * math.sin(2 * math.pi * 31 * i / fs)) * 2 ** 24) / 2 ** 24
              for i in range(20_000)]
        label = f"cascade P={p} {fs:6.0f} Hz gains {' '.join(sys.argv[4:])}"
    ref = xs
    for c in coefficients:
        ref = split.reference(c, ref)
    out, overflow = run(coefficients, xs, p)
    report(label, out, ref, overflow)


if __name__ == "__main__":
    main()
