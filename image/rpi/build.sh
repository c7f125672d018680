#!/usr/bin/env bash
# `make image`: the Raspberry Pi SD-card image (Pi 3, 4, Zero 2 W; Debian trixie arm64) with the appliance.
#
# Usage: image/rpi/build.sh [raw|release]     (raw: only .build-image/appliance-<board>.img; release, the default
#                                              for `make image`: also the .img.xz, its .bmap, size and sha256)
# Environment: BOARD (default waveshare-wm8960): the board named in appliance.txt (dtoverlay=appliance-<board>);
#              DISK_ID (8 hex digits, default random): the MBR disk signature, hence the PARTUUIDs <id>-01..04.
#
# Steps, and why this way:
# 1. the configured base root (image/rpi/base.sh, cached): Debian's maintainer scripts ran in a QEMU guest, since
#    this host has no binfmt_misc;
# 2. a copy of it gets the appliance package (.build-deb/appliance_*_arm64.deb from `make deb`) and the image's configuration
#    (image/rpi/configure.sh), inside the guest again (image/rpi/guest.sh), so dpkg, systemctl and raspi-firmware's
#    own hook do the work: the boot files (config.txt, cmdline.txt, kernel, initrd, device trees, GPU firmware) come
#    out of /boot/firmware as raspi-firmware writes them, exactly as a kernel upgrade on the board would;
# 3. the root and data file systems made with mke2fs -d from the configured tree (handed out as a tar), the boot
#    partition and the MBR disk made by genimage (mtools for FAT, no loop device, no mount, no root needed by it);
# 4. the partition table read back with sfdisk --dump and checked against the layout below.
#
# Layout (MBR: the Pi 3's boot ROM reads only MBR; the firmware loads from the first FAT partition):
#   p1 boot   FAT32 (type 0x0c, LBA), bootable flag, /boot/firmware     BOOT_SIZE
#   p2 root A ext4 (0x83), mounted read-only                            ROOT_SIZE
#   p3 root B ext4-sized empty (0x83), for A/B updates later           ROOT_SIZE
#   p4 data   ext4 (0x83), journaled, /var/lib/appliance                DATA_SIZE
# Every partition starts on a 4 MiB boundary (SD cards' erase blocks are 4 MiB or divide it: SD Physical Layer
# spec, allocation unit sizes up to 4 MB for SDHC), so no partition straddles an erase block it shares with another.
set -euo pipefail

readonly BOOT_SIZE_MIB=256   # kernel (~10 MB) + initrd (~35 MB) + firmware (~20 MB) + dtbs, twice during an upgrade
readonly ROOT_SIZE_MIB=896   # the root with the appliance (~600 MB) and room for upgrades
readonly DATA_SIZE_MIB=1024  # settings, media, recordings (~1.5 h of 48 kHz 16-bit stereo WAV); the image stays
                             # under a 4 GB card's 3814 MiB (4 + 256 + 2 x 896 + 1024 = 3076 MiB). Not grown to
                             # fill a bigger card yet.
readonly ALIGN_MIB=4

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
out=$repo/.build-image
cache=${XDG_CACHE_HOME:-$HOME/.cache}/appliance/image
mode=${1:-release}
board=${BOARD:-waveshare-wm8960}

say()   { printf '\033[1mimage:\033[0m %s\n' "$*" >&2; }
die()   { printf 'image: error: %s\n' "$*" >&2; exit 1; }
stage() { printf '\n\033[1m== image: %s\033[0m\n' "$*" >&2; }

[[ $mode == raw || $mode == release ]] || die "unknown mode '$mode' (raw, release)"
[[ $(id -u) -eq 0 ]] || die "must run as root (the root file system's owners and device nodes); try: sudo $0"
for tool in genimage mcopy mkfs.vfat mke2fs dumpe2fs debugfs sfdisk dtc qemu-system-aarch64; do
    command -v "$tool" >/dev/null || die "$tool missing (run image/host-deps.sh image)"
done
if [[ $mode == release ]]; then
    for tool in xz bmaptool; do command -v "$tool" >/dev/null || die "$tool missing (run image/host-deps.sh image)"; done
fi

# The boards the image can name: those image/overlays/build.sh makes an overlay for, checked after it ran.
disk_id=${DISK_ID:-$(od -An -N4 -tx4 /dev/urandom | tr -d ' ')}
[[ $disk_id =~ ^[0-9a-f]{8}$ ]] || die "DISK_ID must be 8 lower-case hex digits, not '$disk_id'"

started=$SECONDS
mkdir -p "$out"
"$here/base.sh"

work=$out/work
rm -rf "$work"; mkdir -p "$work"/{files,boot,genimage-tmp,rootpath}

stage "1/5 the overlays and the appliance package"
# One overlay per hardware board (appliance-<board>.dtbo), generated from the board files by image/overlays/build.sh:
# the list of boards appliance.txt offers is the list of overlays.
mkdir -p "$work/boot/overlays"
"$repo/image/overlays/build.sh" "$work/overlays" || die "image/overlays/build.sh failed (the overlays)"
boards=()
for f in "$work"/overlays/appliance-*.dtbo; do b=${f##*/appliance-}; boards+=("${b%.dtbo}"); done
printf '%s\n' "${boards[@]}" | grep -qx "$board" || die "no overlay for BOARD '$board'; boards: ${boards[*]}"
say "overlays: ${boards[*]}"
deb=$(ls "$repo"/.build-deb/appliance_*_arm64.deb 2>/dev/null | sort -V | tail -1 || true)
[[ -n $deb ]] || die "no .build-deb/appliance_*_arm64.deb: run 'make deb' (make image does)"
say "package $(basename "$deb")"
cp "$deb" "$work/files/"
# The guest installs it with dpkg alone (no network, no apt): every package its Depends names must already be in
# the base root. Checked here from the root's own dpkg database (read with debugfs, no mount), so a new library in
# the binary is one clear line naming base.sh's PACKAGES, not a dpkg error deep in the guest's log.
installed=$(debugfs -R "cat /var/lib/dpkg/status" "$cache/base/root.ext4" 2>/dev/null \
    | awk '/^Package: /{p=$2} /^Status: install ok installed/{print p}' | sed 's/:arm64$//' | sort -u)
[[ -n $installed ]] || die "cannot read the base root's dpkg database ($cache/base/root.ext4)"
missing=()
for dependency in $(dpkg-deb -f "$deb" Depends | tr ',' '\n' | sed 's/|.*//; s/(.*)//; s/:any//' | tr -d ' '); do
    grep -qx "$dependency" <<< "$installed" || missing+=("$dependency")
done
[[ ${#missing[@]} -eq 0 ]] || die "the package depends on ${missing[*]}, which the base root lacks: add them to PACKAGES in image/rpi/base.sh"

stage "2/5 installing it in the base root (a copy-on-write snapshot) and configuring the image (in the guest)"
cat > "$work/files/params" <<EOF
DISK_ID=$disk_id
BOARD=$board
EOF
cp "$here/configure.sh" "$work/configure.sh"
# --snapshot: the base stays as it is (QEMU keeps the changes in a temporary overlay); the configured tree comes
# out as root.tar.
"$here/guest.sh" --snapshot --log "$out/configure.log" --out "$work/out" --timeout 1800 "$cache/base/root.ext4" \
    "$work/configure.sh" \
    "$work"/files/* || die "installing and configuring in the guest failed (log: $out/configure.log)"
[[ -f $work/out/boot/config.txt && -f $work/out/boot/cmdline.txt ]] \
    || die "raspi-firmware's hook wrote no config.txt/cmdline.txt (log: $out/configure.log)"

stage "3/5 file systems: root ${ROOT_SIZE_MIB} MiB, data ${DATA_SIZE_MIB} MiB, boot ${BOOT_SIZE_MIB} MiB"
# A fresh file system at the partition's size from the configured tree (resize2fs cannot shrink the 2 GB working
# copy below its conservative minimum, and a fresh one carries no blocks of deleted files into the image).
[[ -f $work/out/root.tar ]] || die "the guest handed out no root.tar (log: $out/configure.log)"
mkdir -p "$work/rootfs"
tar --numeric-owner --xattrs --xattrs-include='*' -C "$work/rootfs" -xpf "$work/out/root.tar" || die "unpacking root.tar failed"
rm -f "$work/out/root.tar" "$work/root.ext4"
mke2fs -q -t ext4 -L rootA -E root_owner=0:0 -d "$work/rootfs" "$work/root.ext4" "${ROOT_SIZE_MIB}M" \
    || die "the root does not fit in ${ROOT_SIZE_MIB} MiB (mke2fs -d from $work/rootfs)"
rm -rf "$work/rootfs"
used=$(dumpe2fs -h "$work/root.ext4" 2>/dev/null | awk -F: '/^Block count/{b=$2} /^Free blocks/{f=$2} /^Block size/{s=$2} END{printf "%d", (b-f)*s/1048576}')
say "root: ${used} MiB used of ${ROOT_SIZE_MIB} MiB"
# The data partition: journaled ext4 (the default data=ordered journal: after a power cut, files hold no stale
# blocks and the file system needs no long fsck). Empty but for the service's state directory's subdirectories,
# which the service (StateDirectory=appliance) owns and fills.
mkdir -p "$work/data"
mke2fs -q -t ext4 -L data -E root_owner=0:0 -d "$work/data" "$work/data.ext4" "${DATA_SIZE_MIB}M" \
    || die "mke2fs failed for the data partition"
# The boot partition's files: raspi-firmware's, the board choice, the overlays.
cp -a "$work/out/boot/." "$work/boot/"
# raspi-firmware's two overlays stay next to the appliance's.
cp "$work"/overlays/appliance-*.dtbo "$work/boot/overlays/"
{
    echo "# The appliance's board: the one dtoverlay= line below both loads the HAT's device-tree overlay (the"
    echo "# firmware reads this file through 'include appliance.txt' in config.txt) and names the board for"
    echo "# 'appliance run --board auto'. To change the board, replace the name after 'appliance-' with one of:"
    for b in "${boards[@]}"; do
        printf '#   %-22s %s\n' "$b" "$(sed -n 's/^description: *//p' "$repo/board-configs/$b.yaml" 2>/dev/null)"
    done
    echo "# Without a dtoverlay=appliance-... line no overlay loads, so there is no sound card."
    echo "dtoverlay=appliance-$board"
} > "$work/boot/appliance.txt"

stage "4/5 the disk image (genimage, MBR, disk id 0x$disk_id)"
boot_files=""
for f in "$work"/boot/*; do boot_files+="\"$f\", "; done
cat > "$work/genimage.cfg" <<EOF
image boot.vfat {
    vfat {
        label = "BOOT"
        extraargs = "-F 32"
        files = { ${boot_files%, } }
    }
    size = ${BOOT_SIZE_MIB}M
}
image appliance-$board.img {
    hdimage {
        partition-table-type = "mbr"
        disk-signature = 0x$disk_id
        align = ${ALIGN_MIB}M
    }
    partition boot {
        partition-type = 0x0C
        bootable = true
        image = "boot.vfat"
    }
    partition rootA {
        partition-type = 0x83
        image = "$work/root.ext4"
        size = ${ROOT_SIZE_MIB}M
    }
    partition rootB {
        partition-type = 0x83
        size = ${ROOT_SIZE_MIB}M
    }
    partition data {
        partition-type = 0x83
        image = "$work/data.ext4"
        size = ${DATA_SIZE_MIB}M
    }
}
EOF
img=$out/appliance-$board.img
rm -f "$img"
genimage --config "$work/genimage.cfg" --rootpath "$work/rootpath" --tmppath "$work/genimage-tmp" \
    --inputpath "$work" --outputpath "$work" > "$work/genimage.log" 2>&1 \
    || { tail -n 20 "$work/genimage.log" >&2; die "genimage failed (log: $work/genimage.log)"; }
mv "$work/appliance-$board.img" "$img"

stage "5/5 checking the partition table (sfdisk --dump)"
"$here/check-layout.sh" "$img" "$disk_id" "$BOOT_SIZE_MIB" "$ROOT_SIZE_MIB" "$DATA_SIZE_MIB" "$ALIGN_MIB" \
    || die "the partition table of $img is not the layout (see above)"
say "raw image: $img ($(du -h --apparent-size "$img" | cut -f1), $(du -h "$img" | cut -f1) allocated)"

if [[ $mode == release ]]; then
    stage "compressing (xz -T0) and the block map (bmaptool create)"
    # The block map first, from the sparse raw file: it lists only the blocks that hold data, so bmaptool copy
    # writes ~1 GB, not the card's whole 2 GB.
    bmaptool create -o "$img.bmap" "$img" || die "bmaptool create failed"
    # xz rather than zstd: .img.xz is the form Raspberry Pi OS itself is published in, so every Raspberry Pi
    # Imager and bmaptool reads it; it comes out smaller than zstd's default level, and the image is compressed
    # once and downloaded many times. -T0: all cores; -6: xz's default preset (its decompressor needs ~10 MB).
    xz -T0 -6 -k -f "$img" &
    xz_pid=$!
    while kill -0 "$xz_pid" 2>/dev/null; do     # a progress line every 20 s (xz shows none off a terminal)
        sleep 20
        [[ -f $img.xz ]] && say "compressing: $(( $(stat -c %s "$img.xz" 2>/dev/null || echo 0) / 1048576 )) MiB of .xz so far"
    done
    wait "$xz_pid" || die "xz failed on $img"
    size=$(stat -c %s "$img.xz")
    sha=$(sha256sum "$img.xz" | cut -d' ' -f1)
    printf '%s  %s\n' "$sha" "$(basename "$img.xz")" > "$img.xz.sha256"
    stage "image ready in $((SECONDS - started)) s"
    echo "  $img.xz  $((size / 1048576)) MiB ($size bytes)"
    echo "  sha256 $sha"
    echo "  $img.bmap"
    echo "  flash: bmaptool copy $img.xz /dev/sdX   (README.md, 'Flash it')"
else
    stage "raw image ready in $((SECONDS - started)) s: $img"
fi
