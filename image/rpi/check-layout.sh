#!/usr/bin/env bash
# Reads an appliance SD-card image back with tools that did not write it, and checks it against the layout
# build.sh promises (and README.md "Flash it" documents):
# - the partition table (util-linux sfdisk --dump reads the MBR from the file: no loop device) has label dos, the
#   disk id, four primary partitions at the expected sectors, sizes, types and boot flag;
# - the boot partition (mtools reads the FAT at its offset) has config.txt with `include appliance.txt`, the
#   chosen board's dtoverlay line in appliance.txt, cmdline.txt rooted at PARTUUID <id>-02 read-only;
# - the root (debugfs through e2fsprogs' `?offset=` I/O option) has the fstab mounting p2 ro and p4 at
#   /var/lib/appliance, and the root and data file systems carry their labels.
# Usage: image/rpi/check-layout.sh IMAGE DISK_ID BOOT_MIB ROOT_MIB DATA_MIB ALIGN_MIB [BOARD]
set -euo pipefail
img=$1 disk_id=$2 boot_mib=$3 root_mib=$4 data_mib=$5 align_mib=$6
board=${7:-$(basename "$img" .img)}; board=${board#appliance-}

fail=0
check() {   # check WHAT EXPECTED ACTUAL
    if [[ $2 == "$3" ]]; then printf '  ok   %-38s %s\n' "$1" "$3" >&2
    else printf '  FAIL %-38s expected %s, found %s\n' "$1" "$2" "$3" >&2; fail=1; fi
}
for tool in sfdisk mtype debugfs dumpe2fs; do
    command -v "$tool" >/dev/null || { echo "check-layout: $tool missing (image/host-deps.sh image)" >&2; exit 1; }
done

dump=$(sfdisk --dump "$img") || { echo "check-layout: sfdisk cannot read a partition table in $img" >&2; exit 1; }
field() { sed -n "s/^$1: *//p" <<< "$dump"; }
# sfdisk(8) --dump: "label: dos" is its name for an MBR (DOS) partition table; label-id is the disk signature at
# offset 440 (0x1B8) of the MBR, printed as 0x%08x.
check "label" "dos" "$(field label)"
check "label-id (disk signature)" "0x$disk_id" "$(field label-id)"
check "sector-size" "512" "$(field sector-size)"
# The partitions in sectors of 512 bytes: each starts at the next multiple of ALIGN MiB (align_mib * 2048 sectors)
# after the previous one; the first at ALIGN MiB (the MBR and the gap before it).
sectors_per_mib=2048
start=$((align_mib * sectors_per_mib))
# Partition types from the MBR type list (sfdisk --list-types -X dos: "c  W95 FAT32 (LBA)", "83  Linux").
check "type c is FAT32 LBA in sfdisk's list" "W95 FAT32 (LBA)" "$(sfdisk --label dos --list-types | sed -n 's/^ *c  *//p')"
check "type 83 is Linux in sfdisk's list" "Linux" "$(sfdisk --label dos --list-types | sed -n 's/^ *83  *//p')"
n=0
for spec in "boot:$boot_mib:c:bootable" "rootA:$root_mib:83:" "rootB:$root_mib:83:" "data:$data_mib:83:"; do
    IFS=: read -r name mib type flag <<< "$spec"
    n=$((n + 1))
    line=$(grep -E "^$img$n :" <<< "$dump" || true)
    size=$((mib * sectors_per_mib))
    want="start=$start, size=$size, type=$type${flag:+, $flag}"
    check "p$n $name" "$want" "$(sed -E 's/^[^:]*: *//; s/= +/=/g; s/ +/ /g' <<< "$line")"
    start=$(( (start + size + align_mib * sectors_per_mib - 1) / (align_mib * sectors_per_mib) * (align_mib * sectors_per_mib) ))
done
check "partitions" "4" "$(grep -cE "^$img[0-9]+ :" <<< "$dump")"

offset_of() { sed -n "s/^$img$1 : start= *\([0-9]*\),.*/\1/p" <<< "$dump"; }
boot_off=$(( $(offset_of 1) * 512 ))
root_off=$(( $(offset_of 2) * 512 ))
data_off=$(( $(offset_of 4) * 512 ))
config=$(mtype -i "$img@@$boot_off" ::config.txt 2>/dev/null || true)
check "config.txt includes appliance.txt" "include appliance.txt" "$(grep -x 'include appliance.txt' <<< "$config" || echo none)"
check "config.txt arm_64bit" "arm_64bit=1" "$(grep -x 'arm_64bit=1' <<< "$config" || echo none)"
check "config.txt enable_uart" "enable_uart=1" "$(grep -x 'enable_uart=1' <<< "$config" || echo none)"
overlay=$(mtype -i "$img@@$boot_off" ::appliance.txt 2>/dev/null | grep -m1 '^dtoverlay=' || echo none)
check "appliance.txt board" "dtoverlay=appliance-$board" "$overlay"
cmdline=$(mtype -i "$img@@$boot_off" ::cmdline.txt 2>/dev/null | tr -d '\r' || true)
check "cmdline.txt root" "root=PARTUUID=$disk_id-02" "$(grep -o "root=PARTUUID=$disk_id-02" <<< "$cmdline" || echo none)"
# ro after the hook's rw: the last of the two wins (kernel-parameters.txt: both set the root mount flags).
check "cmdline.txt last ro/rw" "ro" "$(grep -oE '(^| )(ro|rw)( |$)' <<< "$cmdline" | tail -1 | tr -d ' ')"
check "cmdline.txt console" "console=ttyS1,115200" "$(grep -o 'console=ttyS1,115200' <<< "$cmdline" || echo none)"
kernel=$(sed -n 's/^kernel=//p' <<< "$config")
check "the kernel config.txt names is there" "$kernel" "$(mdir -b -i "$img@@$boot_off" "::$kernel" 2>/dev/null | sed 's|^::/||' || echo none)"

fstab=$(debugfs -R 'cat /etc/fstab' "$img?offset=$root_off" 2>/dev/null || true)
check "fstab / read-only" "PARTUUID=$disk_id-02 / ro" "$(awk '$2 == "/" { split($4, o, ","); print $1, $2, o[1] }' <<< "$fstab")"
check "fstab data" "PARTUUID=$disk_id-04 /var/lib/appliance ext4" "$(awk '$2 == "/var/lib/appliance" { print $1, $2, $3 }' <<< "$fstab")"
check "root label" "rootA" "$(dumpe2fs -h "$img?offset=$root_off" 2>/dev/null | sed -n 's/^Filesystem volume name: *//p')"
check "data label" "data" "$(dumpe2fs -h "$img?offset=$data_off" 2>/dev/null | sed -n 's/^Filesystem volume name: *//p')"
check "data has a journal" "has_journal" "$(dumpe2fs -h "$img?offset=$data_off" 2>/dev/null | grep -o has_journal | head -1)"
exit $fail
