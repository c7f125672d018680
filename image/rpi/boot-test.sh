#!/usr/bin/env bash
# The boot smoke test: the SD-card image itself boots under qemu-system-aarch64 -M raspi3b to the appliance console,
# and the running system is what the image promises (service, user, groups, read-only root, journaled data partition).
#
# Usage: image/rpi/boot-test.sh IMAGE        IMAGE: the uncompressed .img that `make image` writes (left untouched)
# Environment: BOOT_TEST_TIMEOUT (seconds in QEMU, default 420), BOOT_TEST_BOARD (default simulated),
#              BOOT_TEST_MTTCG=1 (one host thread per emulated core; the default is one thread for raspi3b's four
#              cores, which booted faster on a busy 2-core host: 10 s to the debug shell instead of 18-22 s)
# Output: one line per check (PASS/FAIL), the serial logs in .build-boot/test/ (uart0.log: the test's debug shell;
# uart1.log: the appliance console). Exit status 1 when a check fails, with the logs' tails.
#
# Why this way:
# - QEMU's raspi3b runs no GPU firmware, so this script does the firmware's part from the image's own boot partition:
#   it reads config.txt (and what it includes: appliance.txt) with image/rpi/firmware-config.py, takes the kernel,
#   initramfs, Pi 3 device tree and cmdline.txt it names, and applies the overlays it names with fdtoverlay. The
#   files come out with mtools (`mcopy -i IMAGE@@OFFSET`, the offset from sfdisk --json): no loop device, no mount.
# - It works on a copy of the image grown to a power of two (QEMU's SD card model accepts only such sizes; the
#   partitions are unchanged), so the image is never modified and the guest may write to its data partition.
# - The board is switched to `simulated` in the copy's appliance.txt (the file on the boot partition, as a user
#   edits it): QEMU models no codec, and the board-selection path (`--board auto` reading appliance.txt) is run.
# - Test-only changes, both needed for a second channel that leaves the appliance console alone: the Bluetooth
#   serdev node under uart0 is removed from the test's copy of the device tree (with it the PL011 is no tty), and
#   `systemd.debug_shell=ttyAMA0` is added to the image's own command line (a root shell on the PL011, which QEMU
#   wires to its first -serial). Nothing else differs from a real boot.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
work=$repo/.build-boot/test   # wiped on each run
board=${BOOT_TEST_BOARD:-simulated}
timeout=${BOOT_TEST_TIMEOUT:-420}

say()   { printf '\033[1mboot-test:\033[0m %s\n' "$*" >&2; }
die()   { printf 'boot-test: error: %s\n' "$*" >&2; exit 1; }
stage() { printf '\n\033[1m== boot-test: %s\033[0m\n' "$*" >&2; }
failures=0
pass()  { printf 'PASS %s\n' "$*"; }
fail()  { printf 'FAIL %s\n' "$*"; failures=$((failures + 1)); }

[[ $# -eq 1 ]] || die "usage: $0 IMAGE (the uncompressed SD-card image from make image)"
image=$1
[[ -f $image ]] || die "no image $image (make image builds it)"
# Each tool with the Debian package that has it (image/host-deps.sh boot installs them).
for pair in qemu-system-aarch64:qemu-system-arm sfdisk:fdisk mcopy:mtools mtype:mtools fdtoverlay:device-tree-compiler \
        fdtput:device-tree-compiler fdtget:device-tree-compiler python3:python3; do
    command -v "${pair%%:*}" >/dev/null || die "${pair%%:*} missing: install Debian's ${pair#*:} (image/host-deps.sh boot)"
done

started=$SECONDS
stage "copying $(basename "$image") to .build-boot/test/sd.img, grown to a power of two (QEMU's SD card needs one)"
rm -rf "$work"; mkdir -p "$work/boot"
cp --sparse=always "$image" "$work/sd.img"
size=$(stat -c %s "$work/sd.img")
pow=1; while (( pow < size )); do pow=$((pow * 2)); done
truncate -s "$pow" "$work/sd.img"
say "image $((size / 1048576)) MiB, card $((pow / 1048576)) MiB"

# ---- the partition table, read by sfdisk --------------------------------------------------------------------------
stage "partition table (sfdisk --json)"
sfdisk --json "$work/sd.img" > "$work/table.json" 2>"$work/sfdisk.err" || die "sfdisk cannot read $image: $(cat "$work/sfdisk.err")"
# One shell line per fact: label, disk id, then for each partition: number start size type.
table=$(python3 - "$work/table.json" <<'PY'
import json, sys
t = json.load(open(sys.argv[1]))["partitiontable"]
print(t.get("label", ""), t.get("id", ""))
for i, p in enumerate(t.get("partitions", []), 1):
    print(i, p["start"], p["size"], p["type"])
PY
) || die "cannot parse sfdisk's JSON ($work/table.json)"
read -r label disk_id <<< "$(head -1 <<< "$table")"
declare -A pstart=() psize=() ptype=()
while read -r n start sz type; do pstart[$n]=$start psize[$n]=$sz ptype[$n]=$type; done < <(tail -n +2 <<< "$table")
# A Pi 3's boot ROM reads only an MBR ("dos") table (Raspberry Pi documentation, "Boot sequence"; issue 15).
[[ $label == dos ]] && pass "MBR partition table" || fail "MBR partition table: sfdisk says label '$label'"
# The contract's layout: p1 boot FAT, p2 root A, p3 root B (same size), p4 data. MBR type ids (sfdisk --list-types):
# c = W95 FAT32 (LBA), b = W95 FAT32, e = W95 FAT16 (LBA); 83 = Linux.
if [[ ${#ptype[@]} -eq 4 ]]; then pass "four partitions"; else fail "four partitions: sfdisk lists ${#ptype[@]}"; fi
[[ ${ptype[1]:-} =~ ^(c|b|e)$ ]] && pass "partition 1 is FAT (type ${ptype[1]})" \
    || fail "partition 1 is FAT: type '${ptype[1]:-none}'"
for n in 2 3 4; do
    [[ ${ptype[$n]:-} == 83 ]] && pass "partition $n is Linux (type 83)" || fail "partition $n is Linux: type '${ptype[$n]:-none}'"
done
[[ -n ${psize[2]:-} && ${psize[2]:-} == "${psize[3]:-}" ]] && pass "root B is the size of root A (${psize[2]} sectors)" \
    || fail "root B is the size of root A: ${psize[2]:-?} vs ${psize[3]:-?} sectors"
[[ -n ${pstart[1]:-} ]] || die "no boot partition in $image: nothing to boot"
# An MBR partition's PARTUUID is the disk identifier and the partition number, "SSSSSSSS-PP" in hex
# (the kernel's Documentation/admin-guide/kernel-parameters.txt, root=PARTUUID=).
id_hex=${disk_id#0x}
root_partuuid=$(printf '%08x-%02x' "$((16#$id_hex))" 2)
data_partuuid=$(printf '%08x-%02x' "$((16#$id_hex))" 4)
fat="$work/sd.img@@$((pstart[1] * 512))"

# ---- the firmware's part: config.txt, the board, the kernel, the device tree --------------------------------------
stage "the boot partition, read as the firmware would (mtools)"
export MTOOLS_SKIP_CHECK=1
mdir -b -i "$fat" :: > "$work/boot.list" 2>"$work/mtools.err" || die "mtools cannot read the boot partition: $(cat "$work/mtools.err")"
# Every top-level .txt file (config.txt includes others), then the user's edit of appliance.txt.
grep -E '\.txt$' "$work/boot.list" | while read -r f; do mcopy -n -i "$fat" "$f" "$work/boot/"; done
[[ -f $work/boot/config.txt ]] || die "no config.txt on the boot partition"
[[ -f $work/boot/appliance.txt ]] && pass "appliance.txt on the boot partition" || fail "appliance.txt on the boot partition"
grep -qE '^[[:space:]]*include[[:space:]]+appliance\.txt' "$work/boot/config.txt" \
    && pass "config.txt includes appliance.txt" || fail "config.txt includes appliance.txt (contract: include appliance.txt)"
shipped_board=$(sed -nE 's/^[[:space:]]*dtoverlay=appliance-([^,[:space:]]+).*/\1/p' "$work/boot/appliance.txt" 2>/dev/null | head -1)
# The kernel's view of the generic card: a real board's overlay loads too, on a line after the board's (only the
# first dtoverlay=appliance- line names the board, the contract's rule, so the appliance still runs `simulated`,
# while the firmware step applies both; a missing appliance-simulated.dtbo is skipped as the firmware skips it).
probe=${shipped_board:-${BOOT_TEST_PROBE_BOARD:-waveshare-wm8960}}
[[ $probe == "$board" ]] && probe=""
if [[ -n $probe ]] && ! mdir -b -i "$fat" ::overlays/appliance-$probe.dtbo >/dev/null 2>&1; then
    fail "overlays/appliance-$probe.dtbo is on the boot partition"; probe=""
fi
say "appliance.txt as shipped names board '${shipped_board:-none}'; the test sets '$board' as a user would${probe:+, then loads appliance-$probe.dtbo so the kernel sees a generic card}"
python3 - "$work/boot/appliance.txt" "$board" "$probe" <<'PY' || die "cannot edit appliance.txt"
import re, sys
path, board, probe = sys.argv[1], sys.argv[2], sys.argv[3]
try:
    lines = open(path).read().splitlines()
except FileNotFoundError:
    lines = []
wanted = [f"dtoverlay=appliance-{board}"] + ([f"dtoverlay=appliance-{probe}"] if probe else [])
for i, text in enumerate(lines):
    if re.match(r"\s*dtoverlay=appliance-", text):
        lines[i:i + 1] = wanted   # the user's edit: the board line now names another board
        break
else:
    lines += wanted
open(path, "w").write("\n".join(lines) + "\n")
PY
mcopy -o -i "$fat" "$work/boot/appliance.txt" ::appliance.txt || die "cannot write appliance.txt back to the copy"

python3 "$here/firmware-config.py" "$work/boot" > "$work/firmware.txt" || die "cannot read config.txt as the firmware would"
kernel="" initramfs="" device_tree="" cmdline=""
overlays=()
while IFS= read -r line; do
    key=${line%%=*}
    eval "value=${line#*=}"   # firmware-config.py quotes each value with shlex.quote
    case $key in
    kernel|initramfs|device_tree|cmdline) printf -v "$key" '%s' "$value" ;;
    overlay) overlays+=("$value") ;;
    ignored) say "not applied (QEMU has no firmware): $value" ;;
    esac
done < "$work/firmware.txt"
say "config.txt: kernel=$kernel initramfs=${initramfs:-none} device_tree=$device_tree cmdline=$cmdline overlays: ${overlays[*]:-none}"
for f in "$kernel" "$device_tree" "$cmdline" ${initramfs:+"$initramfs"}; do
    mcopy -n -i "$fat" "::$f" "$work/boot/$(basename "$f")" 2>/dev/null \
        && pass "config.txt's $f is on the boot partition" || fail "config.txt's $f is on the boot partition"
done
[[ -f $work/boot/$(basename "$kernel") && -f $work/boot/$(basename "$device_tree") && -f $work/boot/$(basename "$cmdline") ]] \
    || die "the boot partition lacks what config.txt names; nothing to boot"

# The overlays, applied in config.txt's order as the firmware does, onto the image's own Pi 3 device tree.
dtb=$work/test.dtb
ovl_files=()
for o in "${overlays[@]}"; do
    local_copy=$work/boot/$(basename "$o")
    if mcopy -n -i "$fat" "::$o" "$local_copy" 2>/dev/null; then ovl_files+=("$local_copy")
    elif [[ $(basename "$o") == appliance-simulated.dtbo ]]; then
        say "no $o: the simulated board has no hardware, hence no overlay (the firmware skips a missing one)"
    else fail "overlay $o (named in config.txt/appliance.txt) is on the boot partition"; fi
done
if [[ ${#ovl_files[@]} -gt 0 ]]; then
    if fdtoverlay -i "$work/boot/$(basename "$device_tree")" -o "$dtb" "${ovl_files[@]}" 2>"$work/fdtoverlay.err"; then
        pass "fdtoverlay applies ${#ovl_files[@]} overlay(s) to $(basename "$device_tree")"
    else
        fail "fdtoverlay applies the overlays to $(basename "$device_tree"): $(tr '\n' ' ' < "$work/fdtoverlay.err")"
        cp "$work/boot/$(basename "$device_tree")" "$dtb"
    fi
else
    cp "$work/boot/$(basename "$device_tree")" "$dtb"
fi
expect_sound=()
# The generic card an applied overlay brought (the base tree has none): its node and card name, read with fdtget
# from the merged tree, are what the guest's live tree and ALSA must then show.
for node in $(fdtget -l "$dtb" / 2>/dev/null); do
    if [[ $(fdtget "$dtb" "/$node" compatible 2>/dev/null) == simple-audio-card ]]; then
        expect_sound=(--sound-node "/$node" --sound-name "$(fdtget "$dtb" "/$node" simple-audio-card,name 2>/dev/null || true)")
        say "the merged tree has the generic card /$node (simple-audio-card,name '${expect_sound[3]}')"
        break
    fi
done
# Test-only: uart0's Bluetooth child makes the PL011 a serdev controller rather than a tty (found by trying).
fdtput -r "$dtb" /soc/serial@7e201000/bluetooth 2>/dev/null || say "no Bluetooth node under uart0 to remove"

append=$(tr '\n' ' ' < "$work/boot/$(basename "$cmdline")" | sed 's/[[:space:]]*$//')
[[ -n $append ]] || fail "cmdline.txt is not empty"
say "cmdline.txt: $append"
append+=" systemd.debug_shell=ttyAMA0"

# ---- boot --------------------------------------------------------------------------------------------------------
stage "booting under qemu-system-aarch64 -M raspi3b (TCG; up to ${timeout} s)"
single=(--single-thread)
[[ ${BOOT_TEST_MTTCG:-0} == 1 ]] && single=()
status=0
python3 "$here/boot-console.py" --kernel "$work/boot/$(basename "$kernel")" \
    ${initramfs:+--initrd "$work/boot/$(basename "$initramfs")"} --dtb "$dtb" --append "$append" --sd "$work/sd.img" \
    --logs "$work" --timeout "$timeout" --board "$board" --root-partuuid "$root_partuuid" \
    --data-partuuid "$data_partuuid" "${expect_sound[@]}" "${single[@]}" || status=$?
rm -f "$work/sd.img"   # a sparse copy of the whole card: do not leave it lying around
if [[ $status -ne 0 || $failures -gt 0 ]]; then
    die "boot smoke test failed ($failures host check(s) failed; guest status $status; logs in .build-boot/test/)"
fi
stage "boot smoke test passed in $((SECONDS - started)) s"
