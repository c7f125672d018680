#!/usr/bin/env python3
"""Decode speed of each compressed format: `appliance convert IN OUT.wav` against `ffmpeg -i IN OUT.wav`, same run.

The source is one minute of stereo 44.1 kHz music-like signal (sox: two sines and pink noise); the reference
tools encode it to FLAC (flac -5), MP3 (lame -V2), Opus (opusenc 128 kb/s), AAC (ffmpeg aac 192 kb/s, M4A) and
Apple Lossless (ffmpeg alac, M4A). Each file is then decoded to a 16-bit WAV by the appliance and by ffmpeg,
alternating appliance, ffmpeg, appliance, ... for ROUNDS rounds. Both do the same work: open, decode every frame,
write a WAV. Figures are medians; CPU is the child's user+sys and peak RSS its ru_maxrss (wait4, what
/usr/bin/time -v reports), so a busy machine shows in wall time only. Opus decodes to 48 kHz (2,880,000 frames)
in both; frames/s counts the 44.1 kHz source's frames for every format, so rows compare with each other.

Usage: Benchmarks/codecs/decode.py [ROUNDS] [APPLIANCE]
"""
import os, shutil, subprocess, sys, tempfile, time

rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 5
here = os.path.dirname(os.path.abspath(__file__))
appliance = sys.argv[2] if len(sys.argv) > 2 else os.path.join(here, "../../.build/release/appliance")
for tool in ("sox", "flac", "lame", "opusenc", "ffmpeg"):
    if not shutil.which(tool):
        sys.exit(f"decode.py: '{tool}' is missing: run image/host-deps.sh host")


def timed(args):
    """Wall seconds, child CPU seconds (user + sys) and peak resident MiB of one run."""
    t0 = time.perf_counter()
    p = subprocess.Popen(args, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(p.pid, 0)
    wall = time.perf_counter() - t0
    if status != 0:
        raise RuntimeError("%s failed: %s" % (" ".join(args), p.stderr.read().decode()))
    return wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024


def median(values):
    v = sorted(values)
    return v[len(v) // 2]


work = tempfile.mkdtemp(prefix="decode-bench-")
try:
    source = os.path.join(work, "source.wav")
    subprocess.run(["sox", "-n", "-r", "44100", "-c", "2", "-b", "16", source, "synth", "60",
                    "sine", "440", "sine", "660", "pinknoise", "remix", "1,3", "2,3", "gain", "-6"], check=True)
    frames = 60 * 44100
    files = {
        "FLAC (flac -5)": ("music.flac", ["flac", "-s", "-5", "-o", "{out}", source]),
        "MP3 (lame -V2)": ("music.mp3", ["lame", "--quiet", "-V2", source, "{out}"]),
        "Opus (opusenc 128k)": ("music.opus", ["opusenc", "--quiet", "--bitrate", "128", source, "{out}"]),
        "AAC (ffmpeg aac 192k, M4A)": ("music-aac.m4a", ["ffmpeg", "-v", "error", "-y", "-i", source, "-c:a", "aac", "-b:a", "192k", "{out}"]),
        "ALAC (ffmpeg alac, M4A)": ("music-alac.m4a", ["ffmpeg", "-v", "error", "-y", "-i", source, "-c:a", "alac", "{out}"]),
    }
    print(f"{rounds} rounds each, alternating; one minute of stereo 44.1 kHz ({frames} frames); medians\n")
    print("| format | appliance wall | appliance CPU | appliance frames/s (CPU) | appliance peak RSS | ffmpeg wall | ffmpeg CPU | ffmpeg frames/s (CPU) | ffmpeg peak RSS | CPU ratio |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for name, (file, encode) in files.items():
        path = os.path.join(work, file)
        subprocess.run([a.replace("{out}", path) for a in encode], check=True)
        ours, theirs = [], []
        out = os.path.join(work, "out.wav")
        for _ in range(rounds):
            ours.append(timed([appliance, "convert", path, out, "--data-format", "s16"]))
            theirs.append(timed(["ffmpeg", "-v", "error", "-nostdin", "-y", "-i", path, "-c:a", "pcm_s16le", out]))
        ow, oc, om = (median([r[i] for r in ours]) for i in range(3))
        tw, tc, tm = (median([r[i] for r in theirs]) for i in range(3))
        print(f"| {name} | {ow:.3f} s | {oc:.3f} s | {frames / oc / 1e6:.1f} M | {om:.0f} MiB | {tw:.3f} s | {tc:.3f} s | "
              f"{frames / tc / 1e6:.1f} M | {tm:.0f} MiB | {oc / tc:.2f} |")
finally:
    shutil.rmtree(work)
