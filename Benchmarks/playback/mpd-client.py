"""Drives MPD over its unix socket for the CPU benchmark: update, add FILE, play, wait until it stops, kill.
Adapted from the lead's client. Usage: python3 mpd-client.py SOCKET FILE-URI"""
import socket, sys, time

path, fileuri = sys.argv[1], sys.argv[2]
for _ in range(200):
    try:
        s = socket.socket(socket.AF_UNIX)
        s.connect(path)
        break
    except OSError:
        time.sleep(0.05)
f = s.makefile('rw')


def cmd(c):
    f.write(c + "\n")
    f.flush()
    lines = []
    while True:
        line = f.readline()
        if not line:
            return lines
        line = line.rstrip("\n")
        if line == "OK" or line.startswith("ACK"):
            if line.startswith("ACK"):
                print(c, line, file=sys.stderr)
            return lines
        lines.append(line)


f.readline()
cmd("clear")
cmd("update")
while any(l.startswith("updating_db") for l in cmd("status")):
    time.sleep(0.1)
cmd('add "%s"' % fileuri)
cmd("play")
started = time.monotonic()
while True:
    st = dict(l.split(": ", 1) for l in cmd("status"))
    if st.get("state") == "stop":
        break
    time.sleep(0.1)
print("    mpd played for %.1f s" % (time.monotonic() - started), file=sys.stderr)
f.write("kill\n")
f.flush()
