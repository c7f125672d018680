#!/usr/bin/env python3
"""The firmware's readers against the reference decoders, over a fuzz corpus (RELIABILITY.md, "1. Fuzzing").

    Fuzzing/compare.py TARGET EXTENSION [LIMIT]      e.g. compare.py caf caf; compare.py alac m4a

Each input is decoded by `appliance convert` (to 32-bit WAV) and by ffmpeg. A crash is what the fuzzer looks for;
this looks for wrong answers: audio that differs, a length that differs, or a file refused that ffmpeg decodes
without a word. Where ffmpeg and we differ, sox decides when it reads the file too (ffmpeg rounds IMA ADPCM its
own way, and ignores the `fact` chunk's length). What is left is listed for a person to judge: a damaged file
has more than one defensible reading.
"""
import os
import shutil
import struct
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
APPLIANCE = os.environ.get("APPLIANCE", os.path.join(HERE, "..", ".build", "debug", "appliance"))
TOLERANCE = 1 << 8          # 8.24 keeps 25 of a 32-bit sample's bits


def run(arguments):
    return subprocess.run(["nice", "-n", "19", "timeout", "60"] + arguments, capture_output=True)


def int32s(data):
    return struct.unpack("<%di" % (len(data) // 4), data[: len(data) // 4 * 4])


def wav_samples(path):
    """The data chunk of a WAV this firmware wrote, as 32-bit samples."""
    data = open(path, "rb").read()
    at = 12
    while at + 8 <= len(data):
        size = struct.unpack("<I", data[at + 4 : at + 8])[0]
        if data[at : at + 4] == b"data":
            return int32s(data[at + 8 : at + 8 + size])
        at += 8 + size + (size & 1)
    return ()


def agree(ours, theirs, extra_allowed=0):
    """Same samples, and the same length or up to `extra_allowed` more in `theirs`."""
    if not 0 <= len(theirs) - len(ours) <= extra_allowed:
        return False
    return all(abs(a - b) <= TOLERANCE for a, b in zip(ours, theirs))


def main():
    target, extension = sys.argv[1], sys.argv[2]
    limit = int(sys.argv[3]) if len(sys.argv) > 3 else None
    corpus = os.path.join(HERE, "Corpus", target)
    names = sorted(os.listdir(corpus))[:limit]
    scratch = tempfile.mkdtemp()
    counts = dict(inputs=0, both_refuse=0, we_refuse_damage=0, ffmpeg_refuses=0, agree=0, agree_with_sox=0, listed=0)
    try:
        for index, name in enumerate(names):
            if index and index % 200 == 0:
                print(f"compare: {target}: {index} of {len(names)}", file=sys.stderr, flush=True)
            counts["inputs"] += 1
            source = os.path.join(scratch, "input." + extension)
            try:
                shutil.copyfile(os.path.join(corpus, name), source)
            except FileNotFoundError:
                continue                                # a running fuzzer merged it away
            output = os.path.join(scratch, "ours.wav")
            if os.path.exists(output):
                os.remove(output)
            ours_run = run([APPLIANCE, "convert", source, output, "--data-format", "s32"])
            ffmpeg = run(["ffmpeg", "-v", "error", "-nostdin", "-i", source, "-f", "s32le", "-acodec", "pcm_s32le", "-"])
            ffmpeg_clean = ffmpeg.returncode == 0 and not ffmpeg.stderr.strip() and ffmpeg.stdout
            if ours_run.returncode != 0:
                if not ffmpeg_clean:
                    counts["both_refuse"] += 1
                    continue
                message = (ours_run.stderr.decode(errors="replace").strip().splitlines() or ["?"])[-1]
                if "is lossy" in message:
                    counts["both_refuse"] += 1          # convert declines lossy to PCM without --data-format lossy
                    continue
                counts["we_refuse_damage"] += 1
                counts["listed"] += 1
                print(f"refused {name}: ffmpeg decodes {len(ffmpeg.stdout) // 4} samples; we say: {message[:200]}", flush=True)
                continue
            if not ffmpeg_clean:
                counts["ffmpeg_refuses"] += 1
                continue
            ours, theirs = wav_samples(output), int32s(ffmpeg.stdout)
            if agree(ours, theirs):
                counts["agree"] += 1
                continue
            sox = run(["sox", source, "-t", "s32", "-"])
            # sox, like ffmpeg, decodes an IMA ADPCM file's last block whole, past the fact chunk's length.
            if sox.returncode == 0 and agree(ours, int32s(sox.stdout), extra_allowed=65536):
                counts["agree_with_sox"] += 1
                continue
            first = next((i for i, (a, b) in enumerate(zip(ours, theirs)) if abs(a - b) > TOLERANCE), None)
            counts["listed"] += 1
            print(f"differs {name}: we decode {len(ours)} samples, ffmpeg {len(theirs)}; first difference at {first}", flush=True)
    finally:
        shutil.rmtree(scratch)
    print(f"compare: {target}: " + ", ".join(f"{key.replace('_', ' ')} {value}" for key, value in counts.items()), flush=True)


if __name__ == "__main__":
    main()
