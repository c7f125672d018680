#!/usr/bin/env bash
# Runs a script as root inside an arm64 Debian root (an ext4 image file) under qemu-system-aarch64 -M virt (TCG),
# and returns the script's exit status. This is how the image's maintainer scripts run on a host without
# binfmt_misc: not qemu-user in a chroot, but Debian's own arm64 kernel booting a small busybox initramfs that
# mounts the root (virtio disk /dev/vda, no loop device on the host), chroots into it and runs the script there.
#
# Usage: image/rpi/guest.sh [--snapshot] [--out DIR] [--log FILE] [--timeout S] ROOT_EXT4 SCRIPT [FILES...]
#   ROOT_EXT4  the root file system image; changed in place unless --snapshot (then changes are thrown away)
#   SCRIPT     run inside the root with /bin/sh (use a bash shebang-free script, or `exec bash` in it) as root,
#              working directory /run/guest/files, environment: PATH, HOME=/root, LANG=C.UTF-8, GUEST_FILES,
#              GUEST_OUT, DEBIAN_FRONTEND=noninteractive
#   FILES      copied into /run/guest/files/ (by base name; directories whole) before the script runs
#   --out DIR  what the script writes to /run/guest/out/ ends up in DIR on the host (a 9p share)
#   --log FILE the guest's console (kernel, init, script output); default .build-image/guest.log
#   --timeout  seconds before the guest is stopped (default 1800: a configuration pass under TCG is slow)
# Inside the root: /proc, /sys, /dev, /dev/pts and a tmpfs /run are mounted; nothing runs but the script (no
# systemd: maintainer scripts see a chroot, as in debootstrap and mmdebstrap). The script's output is shown with
# a "  guest: " prefix as it runs. Exit status: the script's; 125 when the guest did not report one (a kernel
# panic, a timeout: the log's tail is shown).
#
# The kernel and its modules are the base root's own linux-image package, unpacked by image/rpi/base.sh into
# ${XDG_CACHE_HOME:-~/.cache}/appliance/image/base/kernel; the initramfs (busybox-static + the virtio, ext4 and 9p
# modules) is packed once next to it. Files move through 9p (virtio-9p: Debian's kernel has it as modules).
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
base=${GUEST_BASE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/appliance/image/base}

die() { printf 'guest: error: %s\n' "$*" >&2; exit 125; }

snapshot=off out="" log=$repo/.build-image/guest.log timeout=1800
while [[ $# -gt 0 ]]; do
    case $1 in
    --snapshot) snapshot=on; shift ;;
    --out) out=$2; shift 2 ;;
    --log) log=$2; shift 2 ;;
    --timeout) timeout=$2; shift 2 ;;
    --) shift; break ;;
    -*) die "unknown option $1 (see the header of $0)" ;;
    *) break ;;
    esac
done
[[ $# -ge 2 ]] || die "usage: $0 [--snapshot] [--out DIR] [--log FILE] [--timeout S] ROOT_EXT4 SCRIPT [FILES...]"
root_image=$1 script=$2; shift 2
[[ -f $root_image ]] || die "no root image $root_image"
[[ -f $script ]] || die "no script $script"
command -v qemu-system-aarch64 >/dev/null || die "qemu-system-aarch64 missing (image/host-deps.sh image installs qemu-system-arm)"
command -v cpio >/dev/null || die "cpio missing (image/host-deps.sh image)"

kver=$(cat "$base/kernel-version" 2>/dev/null) || die "no kernel in $base: run image/rpi/base.sh first"
vmlinuz=$base/kernel/boot/vmlinuz-$kver
[[ -f $vmlinuz ]] || die "no $vmlinuz (run image/rpi/base.sh again)"

# ---- the initramfs, packed once per kernel and per version of this script ----------------------------------------
initramfs=$base/runner-initramfs.cpio.gz
initramfs_key=$(cat "$0" "$base/kernel-version" | sha256sum | cut -c1-16)
if [[ $(cat "$initramfs.key" 2>/dev/null) != "$initramfs_key" ]]; then
    work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
    busybox_deb=$(ls "$base"/debs/busybox-static_*.deb 2>/dev/null | head -1)
    [[ -n $busybox_deb ]] || die "no busybox-static package in $base/debs (run image/rpi/base.sh again)"
    mkdir -p "$work/x" "$work/i"/{bin,proc,sys,dev,root,modules}
    dpkg-deb -x "$busybox_deb" "$work/x"
    cp "$work/x/usr/bin/busybox" "$work/i/bin/busybox" 2>/dev/null || cp "$work/x/bin/busybox" "$work/i/bin/busybox"
    # virtio-blk for the root, ext4 (crc32c is requested by name at mount: crc32c_generic by hand), 9p for files.
    python3 - "$base/kernel/usr/lib/modules/$kver" "$work/i/modules" virtio_blk crc32c_generic ext4 9pnet_virtio 9p <<'PY' \
        || die "collecting the runner's modules from $base/kernel failed"
import lzma, os, shutil, sys
tree, target, wanted = sys.argv[1], sys.argv[2], sys.argv[3:]
deps = {}
for line in open(os.path.join(tree, "modules.dep")):
    path, _, rest = line.partition(":")
    deps[path] = rest.split()
name_of = lambda p: os.path.basename(p).split(".ko")[0].replace("-", "_")
by_name = {name_of(p): p for p in deps}
order = []
for name in wanted:
    if name not in by_name:
        sys.exit(f"module {name} is not in {tree}/modules.dep")
    # modules.dep lists a module's dependencies nearest first: insert them last to first, then the module.
    for p in list(reversed(deps[by_name[name]])) + [by_name[name]]:
        base = name_of(p) + ".ko"
        if base in order:
            continue
        src = os.path.join(tree, p)
        with (lzma.open(src) if p.endswith(".xz") else open(src, "rb")) as f, open(os.path.join(target, base), "wb") as o:
            shutil.copyfileobj(f, o)
        order.append(base)
open(os.path.join(target, "order"), "w").write("\n".join(order) + "\n")
PY
    cat > "$work/i/init" <<'INIT'
#!/bin/busybox sh
# The runner's init: mount the root, chroot into it, run the script, report its status, power off.
/bin/busybox --install -s /bin
mount -t proc proc /proc; mount -t sysfs sysfs /sys; mount -t devtmpfs devtmpfs /dev
for m in $(cat /modules/order); do insmod /modules/$m || echo "guest-init: insmod $m failed"; done
finish() { echo "GUEST-EXIT=$1"; sync; umount -r /root 2>/dev/null; poweroff -f; }
mount -t ext4 -o rw /dev/vda /root || { echo "guest-init: cannot mount /dev/vda"; finish 126; }
mkdir -p /root/proc /root/sys /root/dev /root/run
mount -t proc proc /root/proc; mount -t sysfs sysfs /root/sys; mount -t devtmpfs devtmpfs /root/dev
mkdir -p /root/dev/pts && mount -t devpts devpts /root/dev/pts
mount -t tmpfs -o mode=755 tmpfs /root/run
mkdir -p /root/run/guest && mount -t 9p -o trans=virtio,version=9p2000.L,msize=262144 guest /root/run/guest \
    || { echo "guest-init: cannot mount the 9p share"; finish 126; }
echo "GUEST-START"
chroot /root /usr/bin/env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin HOME=/root \
    LANG=C.UTF-8 DEBIAN_FRONTEND=noninteractive GUEST_FILES=/run/guest/files GUEST_OUT=/run/guest/out \
    /bin/sh -c 'cd /run/guest/files && exec /bin/sh /run/guest/script' < /dev/null
rc=$?
for m in /root/dev/pts /root/run/guest /root/run /root/dev /root/sys /root/proc; do umount "$m" 2>/dev/null || umount -l "$m"; done
mount -o remount,ro /root 2>/dev/null
finish $rc
INIT
    chmod 755 "$work/i/init"
    (cd "$work/i" && find . | LC_ALL=C sort | cpio -o -H newc --quiet | gzip -1) > "$initramfs.tmp"
    mv "$initramfs.tmp" "$initramfs"
    echo "$initramfs_key" > "$initramfs.key"
    rm -rf "$work"; trap - EXIT
fi

# ---- the share: the script, the files, the output directory ----------------------------------------------------
share=$(mktemp -d)
cleanup() { rm -rf "$share"; }
trap cleanup EXIT
mkdir -p "$share/files" "$share/out"
cp "$script" "$share/script"
for f in "$@"; do
    [[ -e $f ]] || die "no file $f"
    cp -a "$f" "$share/files/"
done
mkdir -p "$(dirname "$log")"

# ---- boot ----------------------------------------------------------------------------------------------------------
# -cpu max with pauth-impdef: the architected pointer-authentication algorithm is the slowest part of TCG's max CPU.
status=0
timeout "$timeout" qemu-system-aarch64 -M virt -cpu max,pauth-impdef=on -smp 2 -m 1024 -nographic -no-reboot \
    -nic none -kernel "$vmlinuz" -initrd "$initramfs" \
    -append "console=ttyAMA0 rdinit=/init panic=-1 quiet loglevel=2" \
    -drive "file=$root_image,format=raw,if=none,id=root,cache=writeback,snapshot=$snapshot" \
    -device virtio-blk-pci,drive=root \
    -fsdev "local,id=guest,path=$share,security_model=none" -device virtio-9p-pci,fsdev=guest,mount_tag=guest \
    < /dev/null > "$log" 2>&1 &
qemu=$!
tail -n +1 -F --pid="$qemu" "$log" 2>/dev/null | tr -d '\r' | sed -u -n '/^GUEST-START/,/^GUEST-EXIT/{/^GUEST-/d;s/^/  guest: /;p}' \
    | cut -c1-160 >&2 || true
wait "$qemu" || status=$?
rc=$(tr -d '\r' < "$log" | sed -n 's/^GUEST-EXIT=\([0-9]*\)$/\1/p' | tail -1)
if [[ -z $rc ]]; then
    echo "---- last lines of $log ----" >&2; tr -d '\r' < "$log" | tail -n 25 >&2
    [[ $status -eq 124 ]] && die "the guest did not finish within ${timeout}s (log: $log)"
    die "the guest stopped without reporting the script's exit status (qemu exit $status; log: $log)"
fi
if [[ -n $out ]]; then
    mkdir -p "$out"
    cp -a "$share/out/." "$out/"
fi
exit "$rc"
