#!/usr/bin/env python3
"""Accuracy model of a bell (peaking) stage computed with 32x32->64 products only, against a float64 reference.

Why: issue 17 asks for an EQ kernel near the multiplier limit of NEON/SSE (two channels in SIMD lanes, 32x32->64
products). This model answers, before any Swift is written, whether 31-bit coefficient mantissas keep the
accuracy contract of Tests/Codec8_24Tests/Filter/BiquadAccuracyTests (every output within 1 LSB of 8.24 of the
float64 biquad, 31 Hz bands at 96 kHz included). Integer arithmetic is exact here (Python ints), so the figures are
those a kernel with the same rounding would give.

The stage: e = g*(x0 - x2) + [feedback on e1, e2], y = x0 + e; state Q15.48 (x, e); 8.24 in and out.
Each product is coefficient mantissa m (|m| < 2^31, value m * 2^-(29+shift)) times a Q15.48 value split into a
signed high and a signed low 32-bit half: two 32x32->64 products, recombined as ((m*hi) << 3) + ((m*lo) >> 29),
then rounded right by `shift`.
Feedback forms:
  delta: na1*e1 + na2*e2 = 2 e1 - e2 - d1 e1 + d2 e2,  d1 = 2 + a1, d2 = 1 - a2 (one exponent for both)
  dc:    na1*e1 + na2*e2 = e1 + w - A1 e1 - d2 w,      w = e1 - e2, A1 = 1 + a1 + a2 = A(1), d2 = 1 - a2
Usage: split-coefficients.py FORM RATE FREQ GAIN_DB SIGNAL_HZ (0: seeded uniform noise) [EXTRA_MANTISSA_BITS]
Prints the worst error in LSB of 8.24 and the SNR against the float64 reference.
"""
import math
import random
import sys


def peaking(f, q, gain_db, fs):
    """RBJ cookbook peaking EQ, normalized (as BiquadCoefficients(.peaking, ...))."""
    a = 10 ** (gain_db / 40)
    w = 2 * math.pi * f / fs
    alpha = math.sin(w) / (2 * q)
    c = math.cos(w)
    a0 = 1 + alpha / a
    return [(1 + alpha * a) / a0, -2 * c / a0, (1 - alpha * a) / a0, -2 * c / a0, (1 - alpha / a) / a0]


def mantissa(value, extra):
    """(m, shift): value ~ m * 2^-(29 + shift), |m| < 2^(31 + extra), shift >= 0 as large as fits."""
    if value == 0:
        return 0, 0
    shift = 0
    while abs(value) * 2 ** (29 + shift + 1) < 2 ** (31 + extra) - 1 and shift < 60:
        shift += 1
    return round(value * 2 ** (29 + shift)), shift


def halves(v):
    lo = ((v + 2 ** 31) % 2 ** 32) - 2 ** 31
    return (v - lo) >> 32, lo


def scaled(m, shift, v):
    hi, lo = halves(v)
    q = ((m * hi) << 3) + ((m * lo) >> 29)
    return (q + ((1 << shift) >> 1)) >> shift


def reference(c, xs):
    b0, b1, b2, a1, a2 = c
    x1 = x2 = y1 = y2 = 0.0
    out = []
    for x in xs:
        y = b0 * x + b1 * x1 + b2 * x2 - a1 * y1 - a2 * y2
        x2, x1, y2, y1 = x1, x, y1, y
        out.append(y)
    return out


def fixed(c, xs, form, extra):
    b0, _, _, a1, a2 = c
    mg, sg = mantissa(b0 - 1, extra)
    if form == "delta":
        d1, d2 = 2 + a1, 1 - a2
        _, sd = mantissa(max(abs(d1), abs(d2)), extra)
        m1, m2 = round(d1 * 2 ** (29 + sd)), round(d2 * 2 ** (29 + sd))
    else:
        ma, sa = mantissa(1 + a1 + a2, extra)
        m2, s2 = mantissa(1 - a2, extra)
    x1 = x2 = e1 = e2 = 0
    out = []
    for x in xs:
        x0 = round(x * 2 ** 24) << 24
        u = scaled(mg, sg, x0 - x2)
        if form == "delta":
            e0 = u + 2 * e1 - e2 + scaled(-m1, sd, e1) + scaled(m2, sd, e2)
        else:
            w = e1 - e2
            e0 = u + e1 + w - scaled(ma, sa, e1) - scaled(m2, s2, w)
        y = x0 + e0
        x2, x1, e2, e1 = x1, x0, e1, e0
        out.append(((y + 2 ** 23) >> 24) / 2 ** 24)
    return out


def test_signal(fs, hz, n=12_000):
    """BiquadAccuracyTests' single-stage signals on the 8.24 grid: a 0.2 sine at hz (phase 0.3), or seeded noise."""
    if hz > 0:
        return [round(0.2 * math.sin(2 * math.pi * hz * i / fs + 0.3) * 2 ** 24) / 2 ** 24 for i in range(n)]
    random.seed(7)
    return [round(random.uniform(-0.2, 0.2) * 2 ** 24) / 2 ** 24 for _ in range(n)]


def accuracy(out, ref):
    """(worst error in LSB of 8.24, SNR in dB) of out against the float64 reference."""
    worst = max(abs(a - b) for a, b in zip(out, ref)) * 2 ** 24
    noise = sum((a - b) ** 2 for a, b in zip(out, ref))
    snr = 10 * math.log10(sum(b * b for b in ref) / noise) if noise else float("inf")
    return worst, snr


def main():
    form, fs, f, gain, signal = sys.argv[1], float(sys.argv[2]), float(sys.argv[3]), float(sys.argv[4]), float(sys.argv[5])
    extra = int(sys.argv[6]) if len(sys.argv) > 6 else 0
    c = peaking(f, 1.41, gain, fs)
    xs = test_signal(fs, signal)
    ref = reference(c, xs)
    out = fixed(c, xs, form, extra)
    worst, snr = accuracy(out, ref)
    print(f"{form:5} {fs:6.0f} Hz {f:6.0f} Hz {gain:+5.1f} dB signal {signal:5.0f} Hz: worst {worst:.3f} LSB, SNR {snr:.1f} dB")


if __name__ == "__main__":
    main()
