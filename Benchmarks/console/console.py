#!/usr/bin/env python3
"""Start-to-console-ready and command round trip: `appliance run --board simulated` against MPD, same run.

Start to ready: from spawning the process to the `OK` of its first `status` (the appliance, on stdin/stdout)
and to MPD's `OK MPD` greeting on its Unix socket; rounds alternate appliance, mpd, appliance, mpd, ...
CPU is the process's own user+sys (from /proc/PID/stat) at the moment it is ready.
Round trip: `status` over each one's Unix socket, N times on one connection, p50/p99/max.

Usage: Benchmarks/console/console.py [ROUNDS] [COMMANDS] [APPLIANCE]
"""
import os, socket, subprocess, sys, tempfile, time

rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 5
commands = int(sys.argv[2]) if len(sys.argv) > 2 else 10000
here = os.path.dirname(os.path.abspath(__file__))
appliance = sys.argv[3] if len(sys.argv) > 3 else os.path.join(here, "../../.build/release/appliance")
ticks = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid):
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / ticks   # utime, stime


def read_reply(stream):
    """Lines up to the final OK / ERR line."""
    lines = []
    while True:
        line = stream.readline()
        if not line:
            raise RuntimeError("connection closed before OK/ERR; got %r" % lines)
        line = line.rstrip("\n")
        lines.append(line)
        if line == "OK" or line.startswith("ERR "):
            return lines


def start_appliance(work):
    sock = os.path.join(work, "control.sock")
    args = [appliance, "run", "--board", "simulated", "--state", os.path.join(work, "state"),
            "--media", os.path.join(work, "media"), "--recordings", os.path.join(work, "recordings"),
            "--socket", sock]
    t0 = time.perf_counter()
    p = subprocess.Popen(args, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    p.stdin.write("status\n"); p.stdin.flush()
    lines = read_reply(p.stdout)
    ready = time.perf_counter() - t0
    cpu = cpu_seconds(p.pid)
    if lines[-1] != "OK":
        raise RuntimeError("status answered %r" % lines)
    return p, sock, ready, cpu


def stop_appliance(p):
    p.stdin.write("shutdown\n"); p.stdin.flush()
    try:
        p.wait(10)
    except subprocess.TimeoutExpired:
        p.kill(); p.wait()


def connect(path, timeout=10):
    deadline = time.perf_counter() + timeout
    while True:
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            s.connect(path)
            return s
        except OSError:
            s.close()
            if time.perf_counter() > deadline:
                raise
            time.sleep(0.0005)


def start_mpd(work):
    os.makedirs(os.path.join(work, "music"), exist_ok=True)
    sock = os.path.join(work, "mpd.sock")
    conf = os.path.join(work, "mpd.conf")
    with open(conf, "w") as f:
        f.write(f'music_directory "{work}/music"\ndb_file "{work}/mpd.db"\nbind_to_address "{sock}"\n'
                'audio_output {\n type "null"\n name "null"\n}\n')
    if os.path.exists(sock):
        os.unlink(sock)
    t0 = time.perf_counter()
    p = subprocess.Popen(["mpd", "--no-daemon", conf], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    s = connect(sock)
    stream = s.makefile("rw")
    greeting = stream.readline()
    ready = time.perf_counter() - t0
    cpu = cpu_seconds(p.pid)
    if not greeting.startswith("OK MPD"):
        raise RuntimeError("mpd said %r" % greeting)
    return p, s, stream, ready, cpu


def round_trips(stream, count, line="status"):
    times = []
    for _ in range(count):
        t = time.perf_counter()
        stream.write(line + "\n"); stream.flush()
        read_reply(stream)
        times.append(time.perf_counter() - t)
    times.sort()
    return times


def summary(label, times):
    us = lambda x: x * 1e6
    n = len(times)
    return f"{label:10s} p50 {us(times[n // 2]):7.1f} us  p99 {us(times[int(n * 0.99)]):7.1f} us  max {us(times[-1]):8.1f} us  ({n} commands)"


starts = {"appliance": [], "mpd": []}
for r in range(rounds):
    with tempfile.TemporaryDirectory() as work:
        for d in ("state", "media", "recordings"):
            os.makedirs(os.path.join(work, d))
        p, sock, ready, cpu = start_appliance(work)
        starts["appliance"].append((ready, cpu))
        last = r == rounds - 1
        if last:
            s = connect(sock); stream = s.makefile("rw")
            appliance_times = round_trips(stream, commands)
            s.close()
        stop_appliance(p)
        mp, ms, mstream, mready, mcpu = start_mpd(work)
        starts["mpd"].append((mready, mcpu))
        if last:
            mpd_times = round_trips(mstream, commands)
        mstream.write("kill\n"); mstream.flush(); ms.close()
        try:
            mp.wait(10)
        except subprocess.TimeoutExpired:
            mp.kill(); mp.wait()

print(f"start to console ready, {rounds} rounds alternating (wall; process CPU user+sys at ready):")
for label, values in starts.items():
    walls = sorted(v[0] for v in values); cpus = sorted(v[1] for v in values)
    print(f"  {label:10s} median {walls[len(walls)//2]*1000:7.1f} ms  min {walls[0]*1000:7.1f} ms  max {walls[-1]*1000:7.1f} ms"
          f"  CPU median {cpus[len(cpus)//2]*1000:6.1f} ms")
print(f"`status` round trip over the Unix socket, one connection:")
print("  " + summary("appliance", appliance_times))
print("  " + summary("mpd", mpd_times))
