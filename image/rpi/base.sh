#!/usr/bin/env bash
# The image's base root: Debian trixie arm64, configured (maintainer scripts run), cached as an ext4 image.
#
# Usage: image/rpi/base.sh     makes ${XDG_CACHE_HOME:-~/.cache}/appliance/image/base/root.ext4 if missing or stale
#
# Why this way: this host has no binfmt_misc, so an arm64 root cannot run its maintainer scripts through qemu-user in
# a chroot (mmdebstrap refuses). debootstrap --foreign downloads and unpacks on the host (no emulation); its second
# stage (dpkg installing and configuring every package) then runs inside Debian's own arm64 kernel under
# qemu-system-aarch64 -M virt, through image/rpi/guest.sh, on an ext4 image made from the directory with
# `mke2fs -d` (no loop device, no mount on the host). debootstrap rather than mmdebstrap --variant=extract: the
# extract variant leaves no dpkg database, and debootstrap's second stage is the maintained way to finish a
# foreign root (it orders the essential packages' installation itself).
#
# The result is cached, keyed by a hash of the package list, this script and the runner; a changed input makes it
# again. The kernel package is also unpacked next to it (the runner boots it) with busybox-static for the runner's
# initramfs. Environment: APPLIANCE_DEBIAN_MIRROR overrides the mirror; XDG_CACHE_HOME moves the cache.
set -euo pipefail

readonly SUITE=trixie
# What the appliance needs on a board, and no more (no network, no package manager use on the device):
# - boot: the kernel, its initramfs generator, raspi-firmware (GPU firmware, config.txt/cmdline.txt, the kernel and
#   device trees copied to /boot/firmware by its hooks), systemd as init, udev, kmod;
# - the appliance's runtime libraries (readelf -d of the aarch64 binary: libasound, libgpiod, libi2c, libedit,
#   libFLAC, libmpg123, libopus, libopusfile, libopusenc, libogg, libstdc++, libgcc_s; the Swift runtime is static);
# - tools for a person on the serial line: alsa-utils (aplay, amixer), i2c-tools, gpiod, e2fsprogs and dosfstools
#   (checking the data and boot file systems);
# - busybox-static: the runner's initramfs shell (and initramfs-tools uses it when present).
readonly PACKAGES="systemd systemd-sysv udev kmod linux-image-arm64 initramfs-tools raspi-firmware \
libasound2t64 libgpiod3 libi2c0 libedit2 libflac14 libmpg123-0t64 libopus0 libopusfile0 libopusenc0 libogg0 \
libstdc++6 libgcc-s1 alsa-utils i2c-tools gpiod e2fsprogs dosfstools busybox-static"
readonly BASE_LAYOUT=1                      # bump when the way the base is made changes
readonly ROOT_BUILD_SIZE=2G                 # the ext4 image while configuring (sparse; build.sh shrinks its copy)

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
cache=${XDG_CACHE_HOME:-$HOME/.cache}/appliance/image
base=$cache/base
logs=$cache/logs

say()   { printf '\033[1mimage:\033[0m %s\n' "$*" >&2; }
die()   { printf 'image: error: %s\n' "$*" >&2; exit 1; }
stage() { printf '\n\033[1m== image: %s\033[0m\n' "$*" >&2; }

[[ $(id -u) -eq 0 ]] || die "must run as root (debootstrap creates device nodes and owners); try: sudo $0"
for tool in debootstrap depmod mke2fs qemu-system-aarch64 dpkg-deb python3 cpio flock; do
    command -v "$tool" >/dev/null || die "$tool missing (run image/host-deps.sh image)"
done

# The configuration pass's script (what runs inside the root). Part of the cache key with the package list: the
# root's content depends on those; the runner and this script's comments do not make it again.
readonly CONFIGURE_SCRIPT='set -eu
# raspi-firmware'"'"'s kernel and initramfs hooks install to /boot/firmware, which must exist; outside a chroot they
# also want it to be a mount point (on a board: the FAT partition): a bind mount of the directory onto itself. The
# files stay in the root'"'"'s directory, from where build.sh collects them for the boot partition.
mount --bind /boot/firmware /boot/firmware
/debootstrap/debootstrap --second-stage
umount /boot/firmware 2>/dev/null || true
apt-get clean
rm -rf /var/lib/apt/lists/* /var/log/*.log /var/cache/debconf/*-old /var/lib/dpkg/*-old
echo "configured: $(dpkg-query -W | wc -l) packages, $(du -sxm / | cut -f1) MB"
ls -l /boot /boot/firmware
dpkg --audit
'
readonly KEY=$(printf '%s\n' "$BASE_LAYOUT" "$SUITE" "$PACKAGES" "$ROOT_BUILD_SIZE" "$CONFIGURE_SCRIPT" | sha256sum | cut -c1-16)

# shellcheck source=../debian-mirror.sh
source "$here/../debian-mirror.sh"

mkdir -p "$cache" "$logs"
exec 8> "$cache/base.lock"
flock 8 || die "cannot lock $cache/base.lock"
if [[ $(cat "$base/done" 2>/dev/null) == "$KEY" ]]; then
    say "base root cached ($base/root.ext4, key $KEY)"
    exit 0
fi

started=$SECONDS
mirror=$(debian_mirror)
work=$cache/base.new
rm -rf "$work"; mkdir -p "$work"
stage "1/3 debootstrap --foreign: Debian $SUITE arm64 from $mirror (download and unpack, no emulation)"
log=$logs/debootstrap.log
debootstrap --foreign --arch=arm64 --variant=minbase --components=main,non-free-firmware \
    --include="${PACKAGES// /,}" "$SUITE" "$work/root" "$mirror" > "$log" 2>&1 &
pid=$!
tail -n +1 -F --pid="$pid" "$log" 2>/dev/null | grep --line-buffered -E '^(I: (Retrieving Release|Validating Packages|Resolving|Found additional|Checking component|Extracting base-files|Installing core)|W:|E:)' | cut -c1-150 >&2 || true
wait "$pid" || { tail -n 20 "$log" >&2; die "debootstrap failed (log: $log)"; }
say "first stage done in $((SECONDS - started)) s: $(ls "$work/root/var/cache/apt/archives/"*.deb | wc -l) packages"

# The kernel (for the runner and for its modules) and busybox-static, outside the root.
mkdir -p "$work/debs" "$work/kernel"
kdeb=$(ls "$work"/root/var/cache/apt/archives/linux-image-[0-9]*-arm64_*.deb | grep -v -- '-dbg' | head -1)
[[ -n $kdeb ]] || die "no linux-image-*-arm64 package among the downloaded ones"
cp "$kdeb" "$work"/root/var/cache/apt/archives/busybox-static_*.deb "$work/debs/"
dpkg-deb -x "$kdeb" "$work/kernel"
kver=$(ls "$work/kernel/usr/lib/modules/")
[[ -f $work/kernel/boot/vmlinuz-$kver ]] || die "no vmlinuz-$kver in $kdeb"
# The package ships no modules.dep (its postinst makes it): the host's depmod makes it for the runner's initramfs.
depmod -b "$work/kernel/usr" "$kver" || die "depmod failed on $work/kernel/usr/lib/modules/$kver (kmod)"
echo "$kver" > "$work/kernel-version"
say "kernel $kver"

stage "2/3 the root as an ext4 image (mke2fs -d, $ROOT_BUILD_SIZE sparse)"
# raspi-firmware's hooks copy the kernel, initrd and device trees to /boot/firmware, which must exist.
mkdir -p "$work/root/boot/firmware"
mke2fs -q -t ext4 -L root -E root_owner=0:0 -d "$work/root" "$work/root.ext4" "$ROOT_BUILD_SIZE" \
    || die "mke2fs -d failed for $work/root"
rm -rf "$work/root"

stage "3/3 configuration pass: debootstrap --second-stage inside qemu-system-aarch64 -M virt (TCG: slow, ~15-30 min)"
printf '%s' "$CONFIGURE_SCRIPT" > "$work/configure.sh"
GUEST_BASE_DIR=$work "$here/guest.sh" --log "$logs/configure.log" --timeout 3600 "$work/root.ext4" "$work/configure.sh" \
    || die "the configuration pass failed (log: $logs/configure.log)"
e2fsck -fy "$work/root.ext4" > "$logs/e2fsck.log" 2>&1 || [[ $? -le 1 ]] || die "e2fsck found errors in the configured root (log: $logs/e2fsck.log)"
echo "$KEY" > "$work/done"
rm -rf "$base"; mv "$work" "$base"
# The runner's initramfs key names its own directory: it is rebuilt there on the next run (cheap).
say "base root ready in $((SECONDS - started)) s: $base/root.ext4"
