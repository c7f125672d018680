#!/usr/bin/env python3
"""Boots the SD-card image under qemu-system-aarch64 -M raspi3b and checks it through its two UARTs.

Called by image/rpi/boot-test.sh (which prepares the kernel, initrd, device tree and command line from the image's
boot partition); not meant to be run by hand. Prints one line per check: `PASS what` or `FAIL what: why`, then the
tails of both serial logs when anything failed. Exit status 0 only when every check passed.

The two channels (QEMU's raspi3b wires the first -serial to the PL011, uart0, and the second to the mini UART,
uart1; found by trying, see toolchain-notes.md):
- uart1 = /dev/ttyS1 in the guest: the appliance console, exactly as a user's USB-serial adapter sees it. Only
  `status` is sent there, so the check cannot disturb it.
- uart0 = /dev/ttyAMA0: systemd's debug shell (a root shell, no login), asked for on the kernel command line by
  the test alone (`systemd.debug_shell=/dev/ttyAMA0`); the test's copy of the device tree has the Bluetooth serdev
  node under uart0 removed so the port is a tty at all. Everything else is checked through it.
Both are QEMU socket chardevs this script connects to, so nothing depends on a terminal.
"""
import argparse
import os
import re
import selectors
import socket
import subprocess
import sys
import time


class Channel:
    """One serial port: everything received is appended to a log and to `text` (carriage returns dropped)."""

    def __init__(self, name, path, log_path):
        self.name, self.path = name, path
        self.text = ""
        self.log = open(log_path, "w", encoding="utf-8", errors="replace")
        self.sock = None

    def connect(self, deadline):
        while True:
            try:
                s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
                s.connect(self.path)
                s.setblocking(False)
                self.sock = s
                return
            except OSError:
                if time.monotonic() > deadline:
                    raise RuntimeError(f"QEMU never opened its {self.name} socket {self.path}")
                time.sleep(0.05)

    def send(self, data):
        self.sock.sendall(data.encode())

    def take(self):
        try:
            data = self.sock.recv(65536)
        except BlockingIOError:
            return True
        if not data:
            return False
        chunk = data.decode("utf-8", errors="replace").replace("\r", "")
        self.text += chunk
        self.log.write(chunk)
        self.log.flush()
        return True


class Guest:
    def __init__(self, args):
        self.args = args
        os.makedirs(args.logs, exist_ok=True)
        self.uart0 = Channel("uart0 (PL011, ttyAMA0: debug shell)", os.path.join(args.logs, "uart0.sock"),
                             os.path.join(args.logs, "uart0.log"))
        self.uart1 = Channel("uart1 (mini UART, ttyS1: appliance console)", os.path.join(args.logs, "uart1.sock"),
                             os.path.join(args.logs, "uart1.log"))
        self.sel = selectors.DefaultSelector()
        self.qemu = None
        self.started = None
        self.serial = 0

    def start(self):
        for ch in (self.uart0, self.uart1):
            if os.path.exists(ch.path):
                os.unlink(ch.path)
        a = self.args
        command = ["qemu-system-aarch64", "-M", "raspi3b", "-m", "1G", "-display", "none", "-monitor", "none",
                   "-no-reboot", "-kernel", a.kernel, "-dtb", a.dtb, "-append", a.append,
                   "-drive", f"file={a.sd},if=sd,format=raw",
                   "-chardev", f"socket,id=uart0,path={self.uart0.path},server=on,wait=off", "-serial", "chardev:uart0",
                   "-chardev", f"socket,id=uart1,path={self.uart1.path},server=on,wait=off", "-serial", "chardev:uart1"]
        if a.initrd:
            command += ["-initrd", a.initrd]
        if a.single_thread:
            command += ["-accel", "tcg,thread=single"]
        self.qemu_log = open(os.path.join(a.logs, "qemu.log"), "w")
        self.qemu = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=self.qemu_log, stderr=subprocess.STDOUT)
        self.started = time.monotonic()
        deadline = self.started + 10
        for ch in (self.uart0, self.uart1):
            ch.connect(deadline)
            self.sel.register(ch.sock, selectors.EVENT_READ, ch)

    def elapsed(self):
        return time.monotonic() - self.started

    def pump(self, seconds):
        """Reads whatever arrives for up to `seconds`; raises when QEMU has gone."""
        for key, _ in self.sel.select(timeout=max(0.0, seconds)):
            key.data.take()
        if self.qemu.poll() is not None:
            raise RuntimeError(f"QEMU exited with status {self.qemu.returncode} (log: {self.qemu_log.name})")

    def wait_for(self, channel, pattern, deadline, start=0, poke=None, every=3.0):
        """Waits until `pattern` matches channel.text from `start`; `poke` is sent every `every` seconds meanwhile."""
        regex = re.compile(pattern, re.M)
        next_poke = 0.0
        while True:
            m = regex.search(channel.text, start)
            if m:
                return m
            now = time.monotonic()
            if now > deadline:
                return None
            if poke is not None and now >= next_poke:
                channel.send(poke)
                next_poke = now + every
            self.pump(min(0.2, deadline - now))

    def shell(self, command, timeout=30.0):
        """Runs `command` in the debug shell; returns (exit status, output) or (None, what arrived)."""
        self.serial += 1
        n = self.serial
        start = len(self.uart0.text)
        # The markers are made by the shell's arithmetic, so the terminal's echo of the typed line never matches.
        # The empty echo ends output that has no final newline, so the end marker always starts a line.
        self.uart0.send(f"echo @@B$(({n}))@@; {{ {command} ; }} 2>&1; r=$?; echo; echo \"@@E$(({n}))@@ $r\"\n")
        # Not anchored at the line's start: bash's readline may put an escape sequence (bracketed paste) first.
        m = self.wait_for(self.uart0, rf"@@E{n}@@ (\d+)$", time.monotonic() + timeout, start)
        text = self.uart0.text[start:]
        if not m:
            return None, text
        body = self.uart0.text[start:m.start()]
        b = re.search(rf"@@B{n}@@$", body, re.M)   # a prompt may precede it
        output = body[b.end():].strip("\n") if b else body
        return int(m.group(1)), output

    def stop(self):
        if self.qemu and self.qemu.poll() is None:
            self.qemu.terminate()
            try:
                self.qemu.wait(10)
            except subprocess.TimeoutExpired:
                self.qemu.kill()
                self.qemu.wait()


class Report:
    def __init__(self):
        self.failed = []
        self.passed = 0

    def check(self, ok, what, why=""):
        if ok:
            self.passed += 1
            print(f"PASS {what}", flush=True)
        else:
            self.failed.append(what)
            print(f"FAIL {what}{': ' + why if why else ''}", flush=True)
        return ok

    @staticmethod
    def info(what):
        print(f"     {what}", flush=True)


def one_line(text, limit=160):
    text = " | ".join(line.strip() for line in text.strip().splitlines() if line.strip())
    return text if len(text) <= limit else text[:limit] + "..."


def run_checks(guest, args, report):
    deadline = guest.started + args.timeout
    shell_ok = True

    # 1. The debug shell answers (the second channel). `echo` with arithmetic: only a live shell prints 42.
    m = guest.wait_for(guest.uart0, r"DEBUG-SHELL-42$", deadline, poke="echo DEBUG-SHELL-$((40+2))\n", every=5)
    if not report.check(m is not None, "the test's debug shell answers on uart0 (ttyAMA0)",
                        f"nothing within {args.timeout} s"):
        shell_ok = False
    else:
        report.info(f"debug shell up {guest.elapsed():.0f} s after QEMU started")
        guest.shell("stty -echo; PS1=''", 10)   # no echo of typed commands, no prompts: a cleaner log

    # 2. The service reaches `active` (Type=notify: READY=1 once the board is up and the console answers). Waited
    #    for until it is active or failed, or the boot is over (is-system-running past `starting`) with the
    #    service still inactive (never started: not enabled, a condition false) or its unit not found.
    load = state = sub = system = ""
    if shell_ok:
        while time.monotonic() < deadline:
            rc, out = guest.shell("systemctl show -P LoadState appliance.service; "
                                  "systemctl show -P ActiveState appliance.service; "
                                  "systemctl show -P SubState appliance.service; systemctl is-system-running", 20)
            words = (out or "").split()
            load, state, sub, system = (words + ["", "", "", ""])[:4]
            if sub == "auto-restart":   # it exited and systemd waits to start it again (Restart=on-failure)
                state = "failed (restarting)"
                break
            # systemctl(1): ActiveState active/failed are final; is-system-running says initializing/starting
            # while the boot's jobs run.
            if state in ("active", "failed") or load == "not-found":
                break
            if state == "inactive" and system not in ("initializing", "starting", ""):
                break
            guest.pump(2)
        why = f"unit {load}" if load == "not-found" else f"state '{state or 'unknown'}' (system {system or '?'})"
        report.check(state == "active", "appliance.service is active (systemctl is-active)", why)
        if state == "active":
            report.info(f"appliance.service active {guest.elapsed():.0f} s after QEMU started")

    # 3. The appliance console on the mini UART answers `status` with OK (the console's grammar: a reply ends in a
    #    line `OK` or `ERR ...`, DESIGN.md "console line -> ... -> reply (OK / ERR)"), and names the board chosen
    #    through the boot partition's appliance.txt.
    start = len(guest.uart1.text)
    # A service that is not running cannot answer: a short try then, not the whole timeout.
    console_deadline = deadline if state == "active" or not shell_ok else min(deadline, time.monotonic() + 15)
    m = guest.wait_for(guest.uart1, r"^(OK|ERR.*)$", console_deadline, start, poke="status\r", every=4)
    reply = guest.uart1.text[start:m.end()] if m else ""
    report.check(m is not None and m.group(1) == "OK", "the appliance console on uart1 (ttyS1, 115200) answers `status` with OK",
                 f"reply: {one_line(reply) or 'nothing'}")
    if m:
        # The serial console edits lines (libedit): a prompt and an erase-line escape may precede a reply's first line.
        clean = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", reply)
        board = re.search(r"^(?:\S+> )?board: (\S+)$", clean, re.M)
        report.check(board is not None and board.group(1) == args.board,
                     f"the console's status names board `{args.board}` (set in appliance.txt on the boot partition)",
                     f"status says: {board.group(0) if board else 'no board line'}")

    if not shell_ok:
        return

    def sh(command, timeout=30.0):
        rc, out = guest.shell(command, timeout)
        return rc, (out or "").strip()

    # 4. The device tree the kernel got is the Pi 3's (the image's own dtb).
    rc, model = sh("tr -d '\\0' < /proc/device-tree/model")
    # Expected: the `model` property of Linux's arch/arm64/boot/dts/broadcom/bcm2837-rpi-3-b.dts.
    report.check(model == "Raspberry Pi 3 Model B", "the kernel runs on the image's Pi 3 device tree",
                 f"model '{model}'")

    # 5. The service runs as the appliance user, a member of the device groups (issue 15: "a system user in the
    #    audio/gpio/i2c groups"; dialout for the serial console, image/service/appliance.sysusers.conf).
    rc, uid = sh("stat -c %U /proc/\"$(systemctl show -P MainPID appliance.service)\"")
    report.check(rc == 0 and uid == "appliance", "the appliance process runs as user `appliance`", f"user '{uid}'")
    rc, groups = sh("id -nG appliance")
    missing = [g for g in ("audio", "gpio", "i2c", "dialout") if g not in groups.split()]
    report.check(rc == 0 and not missing, "user `appliance` is in audio, gpio, i2c, dialout",
                 f"id -nG: '{groups}'" + (f"; missing {', '.join(missing)}" if missing else ""))
    rc, shell_of = sh("getent passwd appliance | cut -d: -f6,7")
    report.info(f"appliance home:shell = {shell_of}")

    # 6. Mounts (findmnt -r: raw, so no column is cut to the terminal's width). Root: partition 2 by its PARTUUID (sfdisk on the host), read-only (issue 15 "a read-only root").
    rc, root = sh("findmnt -rno SOURCE,FSTYPE,OPTIONS /")
    rc2, root_partuuid = sh("blkid -s PARTUUID -o value \"$(findmnt -no SOURCE /)\"")
    fields = root.split()
    report.check(len(fields) == 3 and root_partuuid == args.root_partuuid,
                 f"/ is partition 2 (PARTUUID {args.root_partuuid})", f"findmnt: '{root}', PARTUUID '{root_partuuid}'")
    report.check(len(fields) == 3 and fields[1] == "ext4" and "ro" in fields[2].split(","),
                 "/ is ext4 mounted read-only", f"findmnt: '{root}'")
    rc, out = sh("touch /.boot-test-write; echo rc=$?")
    # touch(1) on a read-only mount fails with EROFS, "Read-only file system" (errno(3)).
    report.check("Read-only file system" in out, "a write to / fails with EROFS", f"touch said: '{one_line(out)}'")

    # Data: partition 4, ext4 with a journal (survives power loss), mounted read-write at the StateDirectory.
    rc, data = sh("findmnt -rno SOURCE,FSTYPE,OPTIONS /var/lib/appliance")
    rc2, data_partuuid = sh("blkid -s PARTUUID -o value \"$(findmnt -no SOURCE /var/lib/appliance)\"")
    fields = data.split()
    report.check(len(fields) == 3 and data_partuuid == args.data_partuuid,
                 f"/var/lib/appliance is partition 4 (PARTUUID {args.data_partuuid})",
                 f"findmnt: '{data or 'not a mount point'}', PARTUUID '{data_partuuid}'")
    report.check(len(fields) == 3 and fields[1] == "ext4" and "rw" in fields[2].split(","),
                 "/var/lib/appliance is ext4 mounted read-write", f"findmnt: '{data}'")
    if data:
        report.info(f"data mount options: {fields[2] if len(fields) == 3 else data}")
    rc, features = sh("dumpe2fs -h \"$(findmnt -no SOURCE /var/lib/appliance)\" 2>/dev/null | grep -i '^Filesystem features'")
    # has_journal: the ext4 feature flag of a journaled file system (ext4(5)).
    report.check("has_journal" in features.split(), "the data file system has a journal (dumpe2fs: has_journal)",
                 f"'{features or 'dumpe2fs said nothing'}'")
    rc, out = sh("runuser -u appliance -- sh -c 'echo boot-test > /var/lib/appliance/.boot-test && "
                 "cat /var/lib/appliance/.boot-test && rm /var/lib/appliance/.boot-test'")
    report.check(rc == 0 and out.splitlines()[-1:] == ["boot-test"],
                 "user `appliance` writes, reads back and removes a file in /var/lib/appliance", f"'{one_line(out)}'")

    # 7. No login getty on the appliance's console (issue 15: "a login getty only if the configuration asks").
    rc, getty = sh("systemctl is-active serial-getty@ttyS1.service")
    # `systemctl is-active` prints `inactive` for a unit that is neither running nor failed (systemctl(1)).
    report.check(getty.splitlines()[-1:] == ["inactive"], "no login getty on ttyS1", f"serial-getty@ttyS1 is '{getty}'")

    # 8. What the kernel made of the sound overlay. QEMU's raspi3b models no I2S (and no I2C controller), so no
    #    sound can flow; but the card's probe is the kernel's own (bcm2835-i2s, simple-audio-card, the codec driver
    #    binding the overlay's nodes), so the node and the card are checked when the overlay has them.
    rc, cards = sh("cat /proc/asound/cards 2>&1")
    report.info(f"/proc/asound/cards: {one_line(cards)}")
    rc, sound = sh("dmesg | grep -iE 'asoc|simple-audio|snd|i2s|sound|wm8960|codec' | tail -n 8")
    for line in sound.splitlines() or ["(no sound lines in dmesg: ASoC is silent when a card probes)"]:
        report.info(f"kernel: {line.strip()}")
    if args.sound_node:
        rc, compat = sh(f"tr '\\0' ' ' < /proc/device-tree{args.sound_node}/compatible")
        # simple-audio-card's binding (Documentation/devicetree/bindings/sound/simple-card.yaml).
        report.check(compat.strip() == "simple-audio-card",
                     f"the overlay's generic card {args.sound_node} is in the kernel's live device tree",
                     f"compatible: '{one_line(compat) or 'none'}'")
    if args.sound_name:
        # /proc/asound/cards prints "N [id]: driver - shortname"; ASoC takes the short name from the card's name,
        # simple-audio-card,name (sound/core/info.c, sound/soc/generic/simple-card-utils.c).
        card = re.search(rf"^\s*\d+ \[[^]]*\]: \S+ - {re.escape(args.sound_name)}$", cards, re.M)
        report.check(card is not None, f"the kernel made ALSA card '{args.sound_name}' from it (/proc/asound/cards)",
                     f"cards: '{one_line(cards)}'")

    rc, boot_time = sh("systemd-analyze time 2>&1 | head -n 1")
    report.info(f"systemd-analyze: {one_line(boot_time)}")
    rc, failed = sh("systemctl --failed --no-legend --plain | cut -d' ' -f1")
    report.info(f"failed units: {one_line(failed) or 'none'}")
    if state != "active":
        rc, journal = sh("journalctl -b -u appliance.service --no-pager | tail -n 20", 60)
        print("---- journalctl -u appliance.service ----")
        print(journal)


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--kernel", required=True)
    p.add_argument("--initrd")
    p.add_argument("--dtb", required=True)
    p.add_argument("--append", required=True)
    p.add_argument("--sd", required=True)
    p.add_argument("--logs", required=True)
    p.add_argument("--timeout", type=float, default=420)
    p.add_argument("--board", required=True)
    p.add_argument("--root-partuuid", required=True)
    p.add_argument("--data-partuuid", required=True)
    p.add_argument("--sound-node", help="the generic card's node path in the merged device tree, if any")
    p.add_argument("--sound-name", help="its simple-audio-card,name")
    p.add_argument("--single-thread", action="store_true")
    args = p.parse_args()

    guest = Guest(args)
    report = Report()
    try:
        guest.start()
        run_checks(guest, args, report)
    except RuntimeError as error:
        report.check(False, "the guest ran to the end of the checks", str(error))
    finally:
        guest.stop()
    print(f"     {report.passed} passed, {len(report.failed)} failed; {guest.elapsed():.0f} s in QEMU", flush=True)
    if report.failed:
        for ch in (guest.uart1, guest.uart0):
            print(f"---- last lines of {ch.name} ({ch.log.name}) ----")
            print("\n".join(ch.text.splitlines()[-25:]))
        sys.exit(1)


if __name__ == "__main__":
    main()
