#!/usr/bin/env bash
# Packs the initramfs (the guest userspace, the modules the scenarios load with their dependencies, the
# aarch64 appliance, the scenarios and their inputs), boots it under qemu-system-aarch64 and reads the results;
# for the daemon scenario it runs daemon-driver.py beside the guest, on the two virtio consoles' sockets.
# Called by system.sh test with: CACHE KERNEL_VERSION OUT_DIR. Exit status 1 when a scenario fails or the guest
# does not finish; the guest's log is shown then.
set -euo pipefail
cache=$1 kver=$2 out=$3
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
timeout=${SYSTEM_TIMEOUT:-600}
scenarios=${SYSTEM_SCENARIOS:-i2c gpio alsa daemon}   # a subset runs only those (the kernel hands SCENARIOS to init)
# The top-level modules the scenarios load (dependencies are added from modules.dep).
readonly MODULES="configfs i2c-dev i2c-stub gpio-sim snd-aloop snd-dummy"

say()  { printf '\033[1msystem:\033[0m %s\n' "$*" >&2; }
die()  { printf 'system: error: %s\n' "$*" >&2; exit 1; }
stage() { printf '\n\033[1m== system: %s\033[0m\n' "$*" >&2; }

binary=$repo/.build-arm/bin/appliance-static
[[ -f $binary ]] || die "no $binary: run 'make arm' first (the rig runs the cross-built binary)"
kernel_image=$cache/kernel/boot/vmlinuz-$kver
modules=$cache/kernel/usr/lib/modules/$kver

stage "packing the initramfs (.build-system/initramfs.cpio.gz)"
stage_dir=$out/initramfs
rm -rf "$stage_dir"; mkdir -p "$stage_dir"
cp -a "$cache/guest/." "$stage_dir/"
mkdir -p "$stage_dir"/{proc,sys,dev,tmp,system,modules}
mknod -m 600 "$stage_dir/dev/console" c 5 1
install -m 755 "$binary" "$stage_dir/usr/bin/appliance"
install -m 755 "$here/guest/init" "$stage_dir/init"
install -m 644 "$here/guest/scenarios.sh" "$stage_dir/system/scenarios.sh"
command -v python3 >/dev/null || die "python3 is missing (run image/host-deps.sh system)"

# The modules, decompressed, with the order to insert them in (collect-modules.py).
python3 "$here/collect-modules.py" "$modules" "$stage_dir/modules" $MODULES || die "collecting the modules failed"

# The signal for the loopback: 2 s of white noise between 0.25 s of digital silence (-D: no dither), 16-bit
# stereo at 48 kHz
# (made here, not committed; any signal works, the guest compares what it played with what it captured).
sox -R -D -n -r 48000 -c 2 -b 16 -e signed-integer "$stage_dir/system/signal.wav" synth 2 whitenoise vol 0.5 pad 0.25 0.25 \
    || die "sox could not make the test signal"
# The same signal in 32-bit containers, for the loopback side the daemon scenario plays into the appliance's
# capture (snd-aloop's two ends must agree on the format, and the appliance's engine runs S32_LE).
sox -D "$stage_dir/system/signal.wav" -b 32 -e signed-integer "$stage_dir/system/signal32.wav" \
    || die "sox could not convert the test signal to 32 bits"

# The WM8960 power-up writes, from the golden-trace test (one source of truth): the lines between
# `try rig.codec.powerUp()` and the end of its expected list in powerUpAt48kFrom12288MHz.
python3 - "$repo/Tests/HALTests/Codec/WM8960GoldenTraceTests.swift" > "$stage_dir/system/wm8960-power-up.golden" <<'PY' \
    || die "could not read the golden power-up trace from the WM8960 tests"
import re, sys
text = open(sys.argv[1]).read()
body = text[text.index("func powerUpAt48kFrom12288MHz"):]
body = body[body.index("try rig.codec.powerUp()"):]
body = body[:body.index("])")]
writes = re.findall(r"\.write\(reg: (0x[0-9A-F]+), value: (0x[0-9A-F]+)\)", body)
if not writes:
    sys.exit("no writes found")
for reg, value in writes:
    print(f"power-up write {reg} {value}")
PY

(cd "$stage_dir" && find . | LC_ALL=C sort | cpio -o -H newc --quiet | gzip -1) > "$out/initramfs.cpio.gz"
say "initramfs $(du -h "$out/initramfs.cpio.gz" | cut -f1) (appliance $(du -h "$binary" | cut -f1), kernel $kver)"

stage "booting Debian's $kver under qemu-system-aarch64 (TCG, -M virt -cpu max): scenarios"
log=$out/guest.log
status=0
started=$SECONDS
# Two virtio consoles (virtio-pci and its console driver are built into Debian's arm64 kernel): /dev/hvc0 is
# the appliance's serial console, /dev/hvc1 the guest's command shell for the daemon scenario's driver; both
# are unix sockets here.
console_sock=$out/console.sock shell_sock=$out/shell.sock
rm -f "$console_sock" "$shell_sock"
timeout "$timeout" qemu-system-aarch64 -M virt -cpu max -smp 2 -m 1024 -nographic -no-reboot -nic none \
    -kernel "$kernel_image" -initrd "$out/initramfs.cpio.gz" \
    -device virtio-serial-pci \
    -chardev socket,id=console,path="$console_sock",server=on,wait=off -device virtconsole,chardev=console,nr=0 \
    -chardev socket,id=shell,path="$shell_sock",server=on,wait=off -device virtconsole,chardev=shell,nr=1 \
    -append "console=ttyAMA0 no_console_suspend rdinit=/init panic=-1 loglevel=3 SCENARIOS=${scenarios// /,}" < /dev/null > "$log" 2>&1 &
qemu=$!
driver=""
if [[ " $scenarios " == *" daemon "* ]]; then
    # The host's half of the daemon scenario (its RESULT lines reach the guest log through the shell console).
    python3 "$here/daemon-driver.py" "$console_sock" "$shell_sock" "$stage_dir/system/signal.wav" "$out/daemon" \
        > "$out/daemon-driver.log" 2>&1 &
    driver=$!
fi
tail -n +1 -F --pid="$qemu" "$log" 2>/dev/null | tr -d '\r' \
    | grep --line-buffered -E '^(RESULT|SCENARIO|SYSTEM-TEST)' | sed -u 's/^/  /' >&2 || true
wait "$qemu" || status=$?
driver_status=0
[[ -n $driver ]] && { wait "$driver" || driver_status=$?; }
tr -d '\r' < "$log" > "$log.txt" && mv "$log.txt" "$log"

passed=$(grep -c '^RESULT [^ ]* PASS' "$log" || true)
failed=$(grep -c '^RESULT [^ ]* FAIL' "$log" || true)
problem=""
if [[ $status -eq 124 ]]; then problem="the guest did not finish within ${timeout}s (SYSTEM_TIMEOUT)"
elif ! grep -q '^SYSTEM-TEST-DONE' "$log"; then problem="the guest stopped before finishing (qemu exit $status)"
elif [[ $failed -gt 0 ]]; then problem="$failed check(s) failed"
elif [[ $passed -eq 0 ]]; then problem="no check ran"
elif [[ $driver_status -ne 0 ]] && ! grep -q '^RESULT daemon\.[^ ]* FAIL' "$log"; then
    problem="the daemon scenario's driver failed (exit $driver_status, log: .build-system/daemon-driver.log)"
fi
for scenario in $scenarios; do
    grep -q "^RESULT $scenario\." "$log" || problem+="${problem:+; }scenario $scenario reported nothing"
done
if [[ -n $problem ]]; then
    echo "---- guest log ($log) ----" >&2
    cat "$log" >&2
    [[ -n $driver ]] && { echo "---- daemon driver ($out/daemon-driver.log) ----" >&2; tail -n 20 "$out/daemon-driver.log" >&2; }
    echo "system: $passed passed, $failed failed" >&2
    die "$problem"
fi
stage "system test: $passed checks passed in $((SECONDS - started)) s of guest time (log: .build-system/guest.log)"
