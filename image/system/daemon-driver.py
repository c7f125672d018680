#!/usr/bin/env python3
"""The host's side of the system rig's `daemon` scenario: talks to the running appliance's console over a virtio
console (/dev/hvc0 in the guest, a unix socket here) exactly as a user's terminal on the serial line would, and
drives the simulated hardware through a command shell the guest serves on a second virtio console (/dev/hvc1).
Each check prints `RESULT daemon.<name> PASS|FAIL ...`; the lines go back to the guest to be logged with the
other scenarios' (one log, in order) and to this script's standard output.

Why on the host: Python has timeouts on every read, and the expected values are computed here from things that
are not the appliance: the WM8960 datasheet (register values), sox (the reference reader and writer of the audio
files), the kernel's i2c-stub (i2cget), gpio-sim and snd-aloop.

Usage: daemon-driver.py CONSOLE_SOCKET SHELL_SOCKET SIGNAL_WAV WORK_DIR
"""
import base64
import hashlib
import os
import re
import socket
import subprocess
import sys
import time

console_path, shell_path, signal_wav, work = sys.argv[1:5]
os.makedirs(work, exist_ok=True)


class Channel:
    """A line-oriented unix-socket connection to one of QEMU's chardevs, with a timeout on every read."""

    def __init__(self, path, name, wait):
        self.name = name
        deadline = time.monotonic() + wait
        while True:
            try:
                self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
                self.sock.connect(path)
                break
            except OSError:
                self.sock.close()
                if time.monotonic() > deadline:
                    raise SystemExit(f"daemon-driver: cannot connect to {path} ({name})")
                time.sleep(0.2)
        self.buffer = b""
        self.transcript = open(os.path.join(work, name + ".transcript"), "w", buffering=1)

    def send(self, text):
        self.transcript.write(f"> {text}\n")
        self.transcript.flush()
        self.sock.sendall(text.encode() + b"\n")

    def readline(self, timeout):
        """The next line without its end, or None at the timeout or when the other side closed."""
        deadline = time.monotonic() + timeout
        while b"\n" not in self.buffer:
            left = deadline - time.monotonic()
            if left <= 0:
                return None
            self.sock.settimeout(left)
            try:
                chunk = self.sock.recv(65536)
            except socket.timeout:
                return None
            if not chunk:
                return None
            self.buffer += chunk
        line, _, self.buffer = self.buffer.partition(b"\n")
        text = line.decode(errors="replace").rstrip("\r")
        self.transcript.write(f"< {text}\n")
        return text


class Shell:
    """The guest's command shell on /dev/hvc1: one command, its output, `END <status>`."""

    def __init__(self, channel):
        self.channel = channel

    def run(self, command, timeout=60):
        self.channel.send(command)
        lines = []
        deadline = time.monotonic() + timeout
        while True:
            line = self.channel.readline(max(0.1, deadline - time.monotonic()))
            if line is None:
                raise TimeoutError(f"guest shell: no END for '{command[:80]}' within {timeout}s")
            # The output's last line may lack its newline (busybox base64 ends without one when the last line
            # is short): END then follows it on the same line. END's space is in no base64 text.
            match = re.fullmatch(r"(.*)END (\d+)", line)
            if match:
                if match.group(1):
                    lines.append(match.group(1))
                return int(match.group(2)), lines
            lines.append(line)

    def fetch(self, path, timeout=120):
        """A guest file's bytes (base64 over the serial line), checked against the guest's md5sum: a transfer
        that lost bytes is made again (at most three times), never judged as the file."""
        status, lines = self.run(f"md5sum {path}")
        if status != 0 or not lines:
            raise RuntimeError(f"cannot read {path} in the guest: {' '.join(lines)[:200]}")
        want = lines[-1].split()[0]
        for attempt in range(3):
            status, lines = self.run(f"base64 {path}", timeout)
            if status != 0:
                raise RuntimeError(f"cannot read {path} in the guest: {' '.join(lines)[:200]}")
            try:
                data = base64.b64decode("".join(lines), validate=True)
            except ValueError:
                continue
            if hashlib.md5(data).hexdigest() == want:
                return data
        raise RuntimeError(f"{path} did not come over the serial line intact in 3 tries")


class Console:
    """The appliance console: a command's reply ends with `OK` or `ERR ...`; `EVENT` lines come any time.
    A serial line is a terminal, so the appliance edits it with libedit as for a person: it echoes what is typed
    after its prompt, and draws each line it prints over the prompt (carriage return, erase line). What a
    person reads is the text after the last carriage return, without the escape sequences; a line that is
    still the prompt (with the echo of a command) is not output."""

    prompt = "appliance> "

    def __init__(self, channel):
        self.channel = channel
        self.events = []
        plain = channel.readline

        def readline(timeout):
            deadline = time.monotonic() + timeout
            while True:
                line = plain(max(0.0, deadline - time.monotonic()))
                if line is None:
                    return None
                text = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", line.split("\r")[-1])
                if not text.startswith(self.prompt):
                    return text
        self.readline = readline

    def command(self, text, timeout=30):
        self.channel.send(text)
        lines = []
        deadline = time.monotonic() + timeout
        while True:
            line = self.readline(max(0.1, deadline - time.monotonic()))
            if line is None:
                return lines, None
            if line.startswith("EVENT "):
                self.events.append(line)
            elif line == "OK" or line.startswith("ERR "):
                return lines, line
            elif line:
                lines.append(line)

    def wait_event(self, pattern, timeout=20, since=0):
        """The first EVENT line (from index `since`) matching `pattern`, reading more while needed."""
        deadline = time.monotonic() + timeout
        index = since
        while True:
            while index < len(self.events):
                if re.search(pattern, self.events[index]):
                    return self.events[index]
                index += 1
            line = self.readline(max(0.0, deadline - time.monotonic()))
            if line is None:
                return None
            if line.startswith("EVENT "):
                self.events.append(line)

    def drain(self, seconds):
        """Collects what arrives for `seconds` (events after an action settle)."""
        deadline = time.monotonic() + seconds
        while (left := deadline - time.monotonic()) > 0:
            line = self.readline(left)
            if line is None:
                return
            if line.startswith("EVENT "):
                self.events.append(line)


failures = 0
shell = None


def xruns_since(console, mark):
    """The losses the appliance reported since event index `mark`: engine xruns (`EVENT xrun N`) and frames a
    stalled recording writer dropped (`EVENT record dropped N frames`, counted as one). A check of bit-exact
    audio says how many there were: a stalled emulated CPU is the usual reason for a difference."""
    xruns = sum(int(e.split()[2]) for e in console.events[mark:] if re.fullmatch(r"EVENT xrun \d+", e))
    return xruns + sum(1 for e in console.events[mark:] if e.startswith("EVENT record dropped "))


def result(name, passed, text):
    global failures
    line = f"RESULT daemon.{name} {'PASS' if passed else 'FAIL'} {text}"
    print(line, flush=True)
    if not passed:
        failures += 1
    if shell is not None:
        try:
            shell.channel.send(line.replace("\n", " "))
        except OSError:
            pass


def sox_raw(path):
    """A WAV file's samples as 32-bit signed little-endian frames, decoded by sox (the reference reader:
    it also refuses a file whose header does not describe it)."""
    raw = subprocess.run(["sox", "-D", path, "-t", "raw", "-e", "signed-integer", "-b", "32", "-"],
                         capture_output=True)
    if raw.returncode != 0:
        raise RuntimeError(f"sox cannot read {path}: {raw.stderr.decode().strip()}")
    return raw.stdout


def frames(data, channels=2):
    size = 4 * channels
    return [data[i:i + size] for i in range(0, len(data) - size + 1, size)]


def bit_exact(reference_path, captured_path):
    """Finds the reference's sound (its first to last non-silent frame) in the capture and compares it frame for
    frame. The loopback's start offset is arbitrary, so the capture is aligned on the first non-silent frame.
    Returns (passed, text)."""
    reference = frames(sox_raw(reference_path))
    captured = frames(sox_raw(captured_path))
    silent = bytes(8)
    loud = [i for i, f in enumerate(reference) if f != silent]
    if not loud:
        return False, "the reference is silent"
    sound = reference[loud[0]:loud[-1] + 1]
    start = next((i for i, f in enumerate(captured) if f != silent), None)
    if start is None:
        return False, f"the capture ({len(captured)} frames) is silent"
    got = captured[start:start + len(sound)]
    if len(got) < len(sound):
        return False, f"the capture holds {len(got)} of the {len(sound)} frames from frame {start}"
    differ = [i for i in range(len(sound)) if got[i] != sound[i]]
    if differ:
        first = differ[0]
        return False, (f"{len(differ)} of {len(sound)} frames differ from frame {start}: first at {first}, "
                       f"want {sound[first].hex()} got {got[first].hex()}")
    return True, f"{len(sound)} frames bit-exact from frame {start} of {len(captured)}"


def wav_layout(data):
    """The RIFF chunk walk of a WAV file (RIFF size, fmt, data size) against its length, to judge that a
    recording was finalized: both sizes in the header must describe the bytes on disk (the WAV format:
    Microsoft/IBM RIFF specification, 1991)."""
    if data[:4] != b"RIFF" or data[8:12] != b"WAVE":
        return False, "not a RIFF/WAVE file"
    riff = int.from_bytes(data[4:8], "little")
    position, data_size, data_at = 12, None, None
    while position + 8 <= len(data):
        chunk, size = data[position:position + 4], int.from_bytes(data[position + 4:position + 8], "little")
        if chunk == b"data":
            data_size, data_at = size, position + 8
            break
        position += 8 + size + (size & 1)
    if data_size is None:
        return False, "no data chunk"
    ok = riff == len(data) - 8 and data_at + data_size == len(data) and data_size > 0
    return ok, f"RIFF size {riff} (file {len(data)} bytes), data chunk {data_size} bytes at {data_at}"


# The WM8960's registers after bring-up, each as the datasheet defines it (Wolfson/Cirrus WM8960 datasheet
# Rev 4.x, "Register map" and the register descriptions; bit names as in the kernel's sound/soc/codecs/wm8960.h).
# The board: 48 kHz from a 12.288 MHz MCLK (MCLK/256: no PLL, all dividers at 1), the codec providing BCLK and
# LRCLK (MS=1), I2S with 24-bit words in the rig's two 32-bit slots (BCLK = 64 x 48 kHz = MCLK/4), the speaker
# route at the board's default -20 dB, the DAC at 0 dB and unmuted.
WM8960_EXPECTED = [
    # (register, value, why)
    (0x05, 0x000, "R5 ADC & DAC Control 1: DACMU=0 (unmuted), no de-emphasis"),
    (0x07, 0x04A, "R7 Audio Interface: MS=1 (bit 6, master), WL=10 (bits 3:2, 24-bit), FORMAT=10 (I2S)"),
    (0x08, 0x1C4, "R8 Clocking 2: DCLKDIV=111 (reset), BCLKDIV=0100 (SYSCLK/4 = 3.072 MHz = 64 x 48 kHz)"),
    (0x0A, 0x0FF, "R10 Left DAC volume: 0xFF = 0 dB"),
    (0x0B, 0x1FF, "R11 Right DAC volume: DACVU | 0xFF = 0 dB"),
    (0x19, 0x0FC, "R25 Power Mgmt 1: VMIDSEL=01 (2x50k, playback), VREF, AINL, AINR (input PGA and boost mixer), "
                  "ADCL, ADCR on for the board's line input; MICB=0 (a line input takes no microphone bias)"),
    (0x28, 0x0E5, "R40 Left speaker volume: SPKLZC | 0x65 (0x79 = 0 dB, 1 dB steps: -20 dB)"),
    (0x29, 0x1E5, "R41 Right speaker volume: SPKVU | SPKRZC | 0x65 (-20 dB)"),
    (0x22, 0x150, "R34 Left out mix: LD2LO=1 (bit 8), LI2LOVOL reset 101"),
    (0x25, 0x150, "R37 Right out mix: RD2RO=1 (bit 8), RI2ROVOL reset 101"),
]


def r26():
    """The WM8960's R26 (Power Mgmt 2) low byte as i2c-stub holds it: DACL (bit 8) stays on while anything plays,
    so every write has bit 8 set and lands on SMBus command 0x35; bits 6/5 are LOUT1/ROUT1 (the headphone
    drivers), bits 4/3 SPKL/SPKR (the speaker drivers) (datasheet, R26 Power Mgmt (2)). None if unreadable."""
    return read_command(0x35)[0]


def read_command(command):
    """The byte i2c-stub holds under SMBus `command` at the WM8960's 0x1a, read with i2cget: (value or None, text)."""
    status, lines = shell.run(f"i2cget -y $bus 0x1a {command:#04x} b")
    got = lines[-1] if lines else ""
    return (int(got, 16) if status == 0 and got.startswith("0x") else None), got


def play_through_loopback(console):
    """Plays signal.wav through the appliance while the test captures the loopback's other end; the capture
    is compared with the signal. Returns (passed, text, engine xruns meanwhile)."""
    mark = len(console.events)
    shell.run("rm -f /tmp/played.wav /tmp/played.out; $app hal pcm capture --device hw:Loopback,1,0 --format S32_LE "
              f"--period-frames 4096 --periods 16 --frames {48000 * 5} /tmp/played.wav > /tmp/played.out 2>&1 & "
              "capture_pid=$!")
    # The capture must be running before the appliance plays (it prints `opened` then).
    shell.run("n=0; until grep -q '^opened' /tmp/played.out; do n=$((n + 1)); [ $n -gt 300 ] && break; sleep 0.1; done")
    _, final = console.command("play signal.wav")
    _, lines = shell.run("wait $capture_pid; echo exit $?; cat /tmp/played.out", timeout=120)
    console.command("stop")
    console.drain(0.7)   # xruns are reported twice a second
    xruns = xruns_since(console, mark)
    if final != "OK" or "exit 0" not in lines:
        return False, f"'play signal.wav' answered {final}; capture: {' | '.join(lines)}", xruns
    path = os.path.join(work, "played.wav")
    open(path, "wb").write(shell.fetch("/tmp/played.wav"))
    passed, text = bit_exact(signal_wav, path)
    return passed, text, xruns


def record_from_loopback(console):
    """The appliance records (24-bit WAV holds the 16-bit signal exactly: no dither is needed or allowed) until
    `stop`, after the test's player has drained signal32.wav into the loopback (the signal ends in 0.25 s of
    silence). Returns (passed, text, engine xruns meanwhile)."""
    mark = len(console.events)
    _, final = console.command("record --format wav --bits 24")
    _, fed = shell.run("$app hal pcm play --device hw:Loopback,1,0 --period-frames 4096 --periods 16 "
                       "/system/signal32.wav 2>&1", timeout=120)
    time.sleep(0.5)
    console.command("stop")
    stopped = console.wait_event(r"^EVENT record stopped ", timeout=30, since=mark)
    console.drain(0.7)
    xruns = xruns_since(console, mark)
    name = os.path.basename(stopped.split()[3]) + ".wav" if stopped else ""
    if final != "OK" or not stopped:
        _, listing = shell.run("ls -la /tmp/state/recordings; tail -5 /tmp/daemon.log")
        return False, (f"'record' answered {final}; '{stopped}'; the test's player: {' | '.join(fed)}; "
                       f"{' | '.join(listing)}"), xruns
    path = os.path.join(work, "recorded.wav")
    open(path, "wb").write(shell.fetch(f"/tmp/state/recordings/{name}"))
    passed, text = bit_exact(signal_wav, path)
    return passed, f"{name} recorded from hw:Loopback,0,0 while the test played signal.wav: {text}", xruns


def attempts(check, console):
    """Runs `check` (play_through_loopback or record_from_loopback) until it passes, or fails with no loss
    reported meanwhile, at most three times: an engine xrun (the emulated CPU starved on a loaded host) fades the
    output back in after the gap, so only an attempt without one is judged. Returns (passed, text, attempt, xruns)."""
    for attempt in range(1, 4):
        passed, text, xruns = check(console)
        if passed or xruns == 0:
            break
    return passed, text, attempt, xruns


def card_goes_away_and_comes_back(console):
    """(h) The sound card disappears while playing and comes back (RELIABILITY.md section 3, on the real kernel).
    Unbinding snd-aloop's platform device from its driver frees the card as pulling out a USB card does: the
    kernel's snd_card_disconnect() wakes every waiter and fails every later call on the card's open PCMs with
    ENODEV (sound/core/init.c, sound/core/pcm_native.c), and the unbind itself returns only once every file on
    the card is closed (snd_card_free waits for the last release). So the appliance must notice, say so, close
    its streams (or the unbind never returns), keep answering, and open the card again once it is bound back;
    then a file played must reach the loopback bit-exact, as in (d)."""
    device = "/sys/bus/platform/drivers/snd_aloop"
    mark = len(console.events)
    _, final = console.command("play signal.wav")
    playing = console.wait_event(r"^EVENT transport playing ", timeout=10, since=mark)
    shell.run(f"echo snd_aloop.0 > {device}/unbind & unbind_pid=$!")
    lost = console.wait_event(r"^EVENT device lost: ", timeout=30, since=mark)
    # The unbind returns once the appliance has closed every stream on the card.
    _, unbound = shell.run("wait $unbind_pid; echo exit $?; grep -c Loopback /proc/asound/cards || true", timeout=60)
    status_lines, _ = console.command("status")
    said_lost = next((l for l in status_lines if l.startswith("audio device:")), "no 'audio device:' line")
    result("device.lost", final == "OK" and playing is not None and lost is not None
           and "exit 0" in unbound and unbound[-1:] == ["0"] and "lost" in said_lost,
           f"snd_aloop.0 unbound while playing: '{lost}'; unbind {' '.join(unbound[:1])} once the streams were "
           f"closed, Loopback cards left: {unbound[-1] if unbound else '?'}; status: '{said_lost}'")
    time.sleep(2)
    mark = len(console.events)
    shell.run(f"echo snd_aloop.0 > {device}/bind")
    back = console.wait_event(r"^EVENT device back ", timeout=60, since=mark)
    stats, _ = console.command("stats")
    counted = next((l for l in stats if l.strip().startswith("pcm lost:")), "no 'pcm lost:' line")
    result("device.back", back is not None and counted.split(":")[-1].strip() == "1",
           f"bound again: '{back}'; stats '{counted.strip()}'")
    passed, text, attempt, xruns = attempts(play_through_loopback, console)
    result("device.playback", passed, f"signal.wav played on the card opened anew: {text} "
           f"(attempt {attempt}, losses reported in it: {xruns})")


def main():
    global shell
    console = Console(Channel(console_path, "console", wait=30))
    shell = Shell(Channel(shell_path, "shell", wait=30))
    # The guest says HELLO once the earlier scenarios are done and the daemon has been started.
    hello = None
    while hello != "HELLO":
        hello = shell.channel.readline(timeout=900)
        if hello is None:
            raise SystemExit("daemon-driver: the guest never opened its command shell (/dev/hvc1)")

    # The daemon is up once its control socket is there (it listens after attaching the serial console).
    ready = False
    started = time.monotonic()
    for _ in range(120):
        status, _ = shell.run("[ -S /tmp/state/control.sock ]")
        if status == 0:
            ready = True
            break
        status, lines = shell.run("kill -0 $daemon_pid")
        if status != 0:
            break
        time.sleep(0.5)
    if not ready:
        _, log = shell.run("cat /tmp/daemon.log")
        result("start", False, "the daemon did not come up: " + " | ".join(log)[-600:])
        return
    result("start", True, f"appliance run came up in about {time.monotonic() - started:.1f} s after the shell opened")

    # (f) The console answers on the serial line.
    lines, final = console.command("status")
    result("console", final == "OK" and any(lines),
           f"'status' on /dev/hvc0 answered {final} with {len(lines)} lines: {' / '.join(lines[:4])}")
    _, final = console.command("events on")
    result("events", final == "OK", f"'events on' answered {final}")

    # (a) Bring-up's codec registers, read back from i2c-stub with i2cget. The stub keeps SMBus byte data by
    # command; the WM8960's 7-bit address + 9-bit value frame is command = reg << 1 | bit 8, data = bits 7:0
    # (datasheet, "Control interface").
    # The stub keeps no order: a last write whose bit 8 differs from an earlier one's would leave the earlier
    # byte under the other command. So the other command must be untouched (the stub was loaded fresh, all 0):
    # then the expected byte is the register's only, hence last, write.
    bad = []

    for register, value, why in WM8960_EXPECTED:
        command = (register << 1) | (value >> 8)
        other = command ^ 1
        got, text = read_command(command)
        other_got, other_text = read_command(other)
        if got != value & 0xFF:
            bad.append(f"R{register} ({why.split(':')[0]}): want {value:#05x}, command {command:#04x} read '{text}'")
        elif other_got != 0:
            bad.append(f"R{register} ({why.split(':')[0]}): command {other:#04x} (bit 8 the other way) holds "
                       f"'{other_text}': which write came last cannot be told")
    result("registers", not bad,
           f"{len(WM8960_EXPECTED) - len(bad)} of {len(WM8960_EXPECTED)} WM8960 registers as the datasheet says"
           + ("" if not bad else ": " + "; ".join(bad)))

    # Unity gain for the bit-exact checks: 100 % is the board's max-db, 0 dB (the codec's DAC and output carry
    # the level; the chain's fine gain is then exactly one).
    _, final = console.command("vol 100")
    result("volume", final == "OK", f"'vol 100' answered {final}")

    # (b) A click on the play button through gpio-sim: pulled low (pressed, active low) for 100 ms, released.
    # The remote button's gestures are Android's headset conventions (a single click is play/pause) and with
    # nothing playing play/pause plays the media directory.
    mark = len(console.events)
    shell.run("echo pull-down > $sim/sim_gpio0/pull; sleep 0.1; echo pull-up > $sim/sim_gpio0/pull")
    button = console.wait_event(r"^EVENT button play click togglePlayPause$", since=mark)
    transport = console.wait_event(r"^EVENT transport playing ", since=mark)
    result("button", button is not None and transport is not None,
           f"gpio-sim click on line 0: '{button}', then '{transport}'")
    lines, _ = console.command("status")
    result("button.status", any(re.search(r"playing", l) for l in lines),
           "status after the click: " + " / ".join(lines[:3]))

    # (c) The jack line: a plug in (line pulled low) moves the route to the headphones; pulled out while
    # playing, the route goes back to the speaker and the player pauses (Android's "becoming noisy").
    mark = len(console.events)
    shell.run("echo pull-down > $sim/sim_gpio1/pull")
    jack_in = console.wait_event(r"^EVENT jack ", since=mark)
    route_in = console.wait_event(r"^EVENT route headphones", since=mark)
    power = r26()
    result("jack.in", jack_in is not None and route_in is not None and power is not None
           and power & 0x60 == 0x60 and power & 0x18 == 0,
           f"plug in: '{jack_in}', '{route_in}'; R26 {power if power is None else hex(power)} "
           "(want LOUT1|ROUT1 on, SPKL|SPKR off)")
    mark = len(console.events)
    shell.run("echo pull-up > $sim/sim_gpio1/pull")
    route_out = console.wait_event(r"^EVENT route speaker", since=mark)
    paused = console.wait_event(r"^EVENT transport paused ", since=mark)
    power = r26()
    result("jack.out", route_out is not None and paused is not None and power is not None
           and power & 0x18 == 0x18 and power & 0x60 == 0,
           f"plug out while playing: '{route_out}', '{paused}'; R26 {power if power is None else hex(power)} "
           "(want SPKL|SPKR on, LOUT1|ROUT1 off)")
    console.command("stop")
    console.drain(1)

    # (d) A file played by the appliance, captured on the loopback's other side, bit-exact. An engine xrun
    # (the emulated CPU starved on a loaded host) fades the output back in after the gap, so an attempt in
    # which the appliance reported a loss is made again (at most three); a difference without one fails at once.
    passed, text, attempt, xruns = attempts(play_through_loopback, console)
    result("playback", passed, f"signal.wav played by the appliance, captured on hw:Loopback,1,0: {text} "
           f"(attempt {attempt}, losses reported in it: {xruns})")

    # (e) A recording of what the test plays into the loopback (heard by the appliance on hw:Loopback,0,0),
    # made again after a reported loss (an xrun, frames the writer dropped) as (d) is.
    passed, text, attempt, xruns = attempts(record_from_loopback, console)
    result("recording", passed, f"{text} (attempt {attempt}, losses reported in it: {xruns})")

    card_goes_away_and_comes_back(console)

    # (g) SIGTERM during a recording: exit 0, the recording finalized (its header describes its size), as sox
    # reads it.
    mark = len(console.events)
    _, final = console.command("record --format wav --bits 24")
    started = console.wait_event(r"^EVENT record started ", timeout=10, since=mark)
    time.sleep(2.0)
    _, lines = shell.run("kill -TERM $daemon_pid; wait $daemon_pid; echo exit $?", timeout=60)
    code = next((l for l in lines if l.startswith("exit ")), "no exit status")
    _, lines = shell.run("ls -t /tmp/state/recordings/ | head -1")
    # The event names the take without its extension (`EVENT record started 2026-11-25_02-15-44`).
    name = os.path.basename(started.split()[3]) + ".wav" if started else (lines[0] if lines else "")
    if final != "OK" or started is None or not name:
        _, log = shell.run("tail -5 /tmp/daemon.log")
        result("sigterm", False, f"'record' answered {final}, '{started}'; daemon {code}; log: {' | '.join(log)}")
        return
    data = shell.fetch(f"/tmp/state/recordings/{name}")
    path = os.path.join(work, "interrupted.wav")
    open(path, "wb").write(data)
    finalized, layout = wav_layout(data)
    try:
        seconds = len(sox_raw(path)) / 8 / 48000
        readable = f"sox reads {seconds:.2f} s"
    except RuntimeError as error:
        readable, finalized = str(error), False
    result("sigterm", code == "exit 0" and finalized,
           f"SIGTERM while recording {name}: daemon {code}; {layout}; {readable}")


try:
    main()
except (TimeoutError, RuntimeError, OSError) as error:
    result("driver", False, f"{type(error).__name__}: {error}")
if shell is not None:
    try:
        shell.channel.send("end")
    except OSError:
        pass
sys.exit(1 if failures else 0)
