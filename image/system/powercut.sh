#!/usr/bin/env bash
# Power cuts with the real kernel (RELIABILITY.md section 2): the aarch64 appliance records onto journaled ext4
# on a virtio disk (as the image's data partition at /var/lib/appliance) in a -M virt guest, and QEMU is killed
# at a seeded random moment (a hard power-off: nothing the guest had not written to the disk survives). The
# disk is then checked with e2fsck (journal replay), booted again so the appliance repairs the take at start,
# and the take copied out (debugfs) is decoded by ffmpeg: it must play and have lost at most the commit
# interval (1 s) of what `status` said was written last. Then one take on a small ext4 filled until ENOSPC
# (RELIABILITY.md section 3). Called by system.sh powercut with: CACHE KERNEL_VERSION OUT_DIR.
# POWERCUT_SYSTEM_RUNS (default 5) runs, POWERCUT_SEED the seed.
set -euo pipefail
cache=$1 kver=$2 out=$3
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
runs=${POWERCUT_SYSTEM_RUNS:-5}
seed=${POWERCUT_SEED:-16}
readonly FORMATS="wav caf aiff flac opus alac"
readonly MODULES="virtio-blk crc32c-generic ext4"
readonly COMMIT_SECONDS=1        # TakeWriter.Output.commitSeconds

say()  { printf '\033[1mpowercut:\033[0m %s\n' "$*" >&2; }
die()  { printf 'powercut: error: %s\n' "$*" >&2; exit 1; }
for tool in qemu-system-aarch64 mkfs.ext4 e2fsck debugfs ffmpeg cpio python3; do
    command -v "$tool" >/dev/null || die "$tool is missing (run image/host-deps.sh system)"
done
binary=$repo/.build-arm/bin/appliance-static
[[ -f $binary ]] || die "no $binary: run 'make arm' first"
work=$out/powercut
rm -rf "$work"; mkdir -p "$work"

# The initramfs: the cached guest userspace, the appliance, the disk's modules, the power-cut init.
stage_dir=$work/initramfs
mkdir -p "$stage_dir"
cp -a "$cache/guest/." "$stage_dir/"
mkdir -p "$stage_dir"/{proc,sys,dev,tmp,modules}
mknod -m 600 "$stage_dir/dev/console" c 5 1   # init's output, before devtmpfs is mounted
install -m 755 "$binary" "$stage_dir/usr/bin/appliance"
install -m 755 "$here/guest/powercut-init" "$stage_dir/init"
python3 "$here/collect-modules.py" "$cache/kernel/usr/lib/modules/$kver" "$stage_dir/modules" $MODULES \
    || die "collecting the modules failed"
(cd "$stage_dir" && find . | LC_ALL=C sort | cpio -o -H newc --quiet | gzip -1) > "$work/initramfs.cpio.gz"

# One data disk for all the runs, as on a device: the takes of earlier cuts stay beside the new ones.
disk=$work/data.img
# Larger than the recorder's free-space floor (64 MiB, ApplianceSettings.minimumFreeBytes); sparse on the host.
mkfs.ext4 -q -F -L appliance-data "$disk" 512M

# Boots the guest in PHASE (record:FORMAT or check), its console log in LOG, in the background: $qemu.
boot() {
    local phase=$1 log=$2
    qemu-system-aarch64 -M virt -cpu max -smp 2 -m 512 -nographic -no-reboot -nic none \
        -kernel "$cache/kernel/boot/vmlinuz-$kver" -initrd "$work/initramfs.cpio.gz" \
        -drive file="$disk",format=raw,if=none,id=data,cache=writeback -device virtio-blk-pci,drive=data \
        -append "console=ttyAMA0 rdinit=/init panic=-1 loglevel=3 POWERCUT=$phase" < /dev/null > "$log" 2>&1 &
    qemu=$!
}

# Waits up to SECONDS for a line matching PATTERN in LOG (or QEMU's end); 0 if it came.
wait_for() {
    local log=$1 pattern=$2 seconds=$3 i
    for ((i = 0; i < seconds * 10; i++)); do
        grep -qsE "$pattern" "$log" && return 0
        kill -0 "$qemu" 2>/dev/null || { grep -qsE "$pattern" "$log"; return; }
        sleep 0.1
    done
    return 1
}

RANDOM=$seed
failures=0 worst=0
results=()
started=$SECONDS
for ((run = 1; run <= runs; run++)); do
    formats=($FORMATS)
    format=${formats[$(( (run - 1) % ${#formats[@]} ))]}
    delay_ms=$(( 500 + RANDOM % 2500 ))
    log=$work/run$run-record.log
    say "run $run/$runs: $format, power off ${delay_ms} ms into the take (seed $seed)"
    boot "record:$format" "$log"
    if ! wait_for "$log" '^POWERCUT-WRITTEN ' 180; then
        kill -9 "$qemu" 2>/dev/null || true; wait "$qemu" 2>/dev/null || true
        tr -d '\r' < "$log" | tail -n 20 >&2
        die "run $run: the take never started"
    fi
    sleep "$(printf '%d.%03d' $((delay_ms / 1000)) $((delay_ms % 1000)))"
    kill -9 "$qemu"; wait "$qemu" 2>/dev/null || true
    last=$(tr -d '\r' < "$log" | grep '^POWERCUT-WRITTEN ' | tail -n 1)
    ext=$format; [[ $format == alac ]] && ext=m4a
    take=$(echo "$last" | cut -d' ' -f2).$ext written=$(echo "$last" | cut -d' ' -f3)

    # fsck as the next boot would: the journal replayed, anything else found is fixed and counted.
    fsck_status=0
    e2fsck -fy "$disk" > "$work/run$run-fsck.log" 2>&1 || fsck_status=$?
    check=$work/run$run-check.log
    boot check "$check"
    wait_for "$check" '^POWERCUT-DONE' 300 || { kill -9 "$qemu" 2>/dev/null || true; }
    wait "$qemu" 2>/dev/null || true
    tr -d '\r' < "$check" > "$check.txt" && mv "$check.txt" "$check"
    recovery=$(grep '^POWERCUT-RECOVERY ' "$check" | cut -d' ' -f2- | tr '\n' ';' || true)
    problem=""
    (( fsck_status < 4 )) || problem+="e2fsck exit $fsck_status; "
    grep -q '^POWERCUT-EXIT 0' "$check" || problem+="the appliance did not start and stop cleanly; "
    grep -q '^POWERCUT-UNMOUNTED' "$check" || problem+="the data file system did not unmount; "
    [[ $recovery != *"cannot"* ]] || problem+="not recovered: $recovery; "

    # The take, copied out of the file system, decoded by ffmpeg.
    copy=$work/run$run.$ext
    debugfs -R "dump /state/recordings/$take $copy" "$disk" > /dev/null 2>&1 || true
    recovered=0
    if [[ -s $copy ]]; then
        if decoded=$(ffmpeg -nostdin -v error -i "$copy" -ac 1 -f s32le - 2> "$work/run$run-ffmpeg.err" | wc -c) \
            && [[ ! -s $work/run$run-ffmpeg.err ]]; then
            recovered=$(python3 -c "print(round($decoded / 4 / 48000, 3))")
        else
            problem+="ffmpeg cannot decode $take: $(head -c 200 "$work/run$run-ffmpeg.err"); "
        fi
    elif [[ $recovery != *"removed $take"* ]]; then
        problem+="$take is missing; "
    fi
    loss=$(python3 -c "print(round(max(0, ${written:-0} - $recovered), 3))")
    python3 -c "import sys; sys.exit(0 if $loss <= $COMMIT_SECONDS else 1)" || problem+="lost $loss s (more than ${COMMIT_SECONDS} s); "
    worst=$(python3 -c "print(max($worst, $loss))")
    line="run $run $format: written ${written:-0} s, recovered $recovered s, lost $loss s, e2fsck exit $fsck_status, ${recovery:-nothing to recover}"
    results+=("$line")
    if [[ -n $problem ]]; then
        failures=$((failures + 1))
        say "FAIL $line: $problem"
    else
        say "ok   $line"
    fi
done
say "$runs power-offs in $((SECONDS - started)) s, $failures failed, worst loss $worst s (commit interval ${COMMIT_SECONDS} s), seed $seed"

# A full data partition (RELIABILITY.md section 3) on the real kernel: a fresh 32 MiB ext4 (no blocks reserved
# for root: the guest's appliance runs as root) filled to about 3 MiB free, settings with no free-space floor,
# so the recorder writes until ext4 refuses with ENOSPC. Expected (the recorder's contract, README "record"):
# `EVENT record disk-full`, the take stopped and finalized (its RIFF and data sizes describe the bytes on
# disk, Microsoft/IBM RIFF 1.0; sox reads it), `disk full: 1` in stats, the next `record` refused with
# `ERR full`, a clean exit, the file system clean (e2fsck -fn), and settings.json still valid JSON (the
# atomic write fails whole or not at all).
full_failed=""
disk=$work/full.img
mkfs.ext4 -q -F -m 0 -L appliance-data "$disk" 32M
log=$work/diskfull.log
say "full disk: recording onto ext4 with about 3 MiB free"
boot diskfull "$log"
wait_for "$log" '^POWERCUT-DONE' 300 || { kill -9 "$qemu" 2>/dev/null || true; full_failed+="the guest did not finish; "; }
wait "$qemu" 2>/dev/null || true
tr -d '\r' < "$log" > "$log.txt" && mv "$log.txt" "$log"
grep -q '^DISKFULL-OUT EVENT record disk-full' "$log" || full_failed+="no 'EVENT record disk-full'; "
stopped=$(grep -m1 '^DISKFULL-OUT EVENT record stopped ' "$log" | cut -d' ' -f5- || true)
[[ -n $stopped ]] || full_failed+="no 'EVENT record stopped'; "
grep -qE '^DISKFULL-OUT +disk full: 1$' "$log" || full_failed+="stats does not say 'disk full: 1'; "
grep -q '^DISKFULL-OUT ERR full ' "$log" || full_failed+="the next record was not refused with 'ERR full'; "
grep -q '^DISKFULL-EXIT 0' "$log" || full_failed+="the appliance did not exit 0; "
grep -q '^POWERCUT-UNMOUNTED' "$log" || full_failed+="the data file system did not unmount; "
e2fsck -fn "$disk" > "$work/diskfull-fsck.log" 2>&1 || full_failed+="e2fsck -fn found problems ($work/diskfull-fsck.log); "
take=$(echo "$stopped" | cut -d' ' -f1)
take=${take##*/}.wav
seconds=$(echo "$stopped" | cut -d' ' -f2)
copy=$work/diskfull-take.wav
debugfs -R "dump /state/recordings/$take $copy" "$disk" > /dev/null 2>&1 || true
debugfs -R "dump /state/settings.json $work/diskfull-settings.json" "$disk" > /dev/null 2>&1 || true
python3 -c 'import json, sys; json.load(open(sys.argv[1]))' "$work/diskfull-settings.json" 2>/dev/null \
    || full_failed+="settings.json is not valid JSON after the full disk; "
layout=$(python3 - "$copy" <<'PY' 2>&1
import sys
data = open(sys.argv[1], "rb").read()
assert data[:4] == b"RIFF" and data[8:12] == b"WAVE", "not a RIFF/WAVE file"
riff, position = int.from_bytes(data[4:8], "little"), 12
while position + 8 <= len(data):
    chunk, size = data[position:position + 4], int.from_bytes(data[position + 4:position + 8], "little")
    if chunk == b"data":
        assert riff == len(data) - 8, f"RIFF size {riff}, file {len(data)} bytes"
        assert position + 8 + size == len(data), f"data size {size} at {position + 8}, file {len(data)} bytes"
        print(f"{len(data)} bytes, data {size} bytes")
        break
    position += 8 + size + (size & 1)
else:
    raise SystemExit("no data chunk")
PY
) || full_failed+="the take's header does not describe it: $layout; "
if decoded=$(sox "$copy" -t raw -e signed -b 32 - 2> "$work/diskfull-sox.err" | wc -c) && [[ -s $copy ]]; then
    heard=$(python3 -c "print(round($decoded / 8 / 48000, 3))")
    python3 -c "import sys; sys.exit(0 if abs($heard - ${seconds:-0}) <= 0.05 else 1)" \
        || full_failed+="sox reads $heard s, the appliance said ${seconds:-?} s; "
else
    full_failed+="sox cannot read $take: $(head -c 200 "$work/diskfull-sox.err"); "
fi
free=$(grep -m1 '^DISKFULL-FREE ' "$log" | cut -d' ' -f2 || true)
if [[ -n $full_failed ]]; then
    failures=$((failures + 1))
    say "FAIL full disk: $full_failed(log: $log)"
    grep -E '^DISKFULL-(OUT (EVENT|ERR)|ERR)' "$log" | head -n 20 >&2 || true
else
    say "ok   full disk: ${free:-?} KiB free at the start; $take stopped at ${seconds} s by ENOSPC, finalized ($layout; sox reads $heard s); disk full: 1; the next record refused; e2fsck clean"
fi
(( failures == 0 )) || die "$failures of the $runs power-off runs and the full-disk run failed (logs: $work)"
