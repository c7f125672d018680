#!/usr/bin/env python3
"""Turns ordo-one/benchmark's markdown output into per-sample figures for BENCHMARKS.md.

Each benchmark name ends in "[N samples]"; the wall-clock median (p50, ns per iteration, one buffer per
iteration) divided by N gives ns per sample, and twice that ns per frame (every buffer is stereo). EQ benchmarks also name their band count ("10-band"), which
gives ns per sample per band. Reads stdin, prints a markdown table.
"""
import re
import sys

rows = []
name = None
for line in sys.stdin:
    heading = re.match(r"^### (.+)$", line.strip())
    if heading:
        name = heading.group(1)
        continue
    if name and line.startswith("| Time (wall clock) (ns)"):
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        p0, p50 = float(cells[1]), float(cells[3])
        samples = re.search(r"\[(\d+) samples\]", name)
        bands = re.search(r"(\d+)-band", name)
        if samples:
            n = int(samples.group(1))
            per = p50 / n
            row = f"| {name} | {p50:.0f} | {per:.3f} | {2 * per:.3f} | {1 / per:.2f} |"
            row += f" {per / int(bands.group(1)):.3f} |" if bands else " |"
            rows.append(row)
        name = None
    elif name and line.startswith("| Malloc (total)"):
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if cells[7] != "0":
            print(f"warning: {name} allocates ({cells[7]} mallocs at p100)", file=sys.stderr)

print("| benchmark | ns per buffer (p50) | ns per sample | ns per stereo frame | G samples/s | ns per sample per band |")
print("|---|---:|---:|---:|---:|---:|")
print("\n".join(rows))
