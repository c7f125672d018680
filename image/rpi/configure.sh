# Runs INSIDE the image's root (image/rpi/guest.sh, called by build.sh), as root, with /bin/sh, in the directory
# holding its inputs: `params` (DISK_ID, BOARD) and the appliance package (appliance_*_arm64.deb). Installs the
# appliance, writes the image's configuration, lets raspi-firmware's own hook write the boot partition's files, and hands them out through $GUEST_OUT/boot.
# (No bash-isms: the runner runs scripts with /bin/sh.)
set -eu
. ./params
say() { echo "configure: $*"; }

# ---- the appliance -------------------------------------------------------------------------------------------------
say "installing $(ls appliance_*_arm64.deb)"
# Its dependencies are in the base root already (build.sh checked; no network here): dpkg, not apt.
dpkg -i appliance_*_arm64.deb

# ---- mounts: read-only root, the data partition, tmpfs for what must be writable ---------------------------------
# PARTUUIDs are <MBR disk signature>-<partition number> (util-linux blkid), fixed by genimage's disk-signature.
# root: ro (the A/B root is replaced whole, never written in place); fsck pass 1 with fsck.repair=yes from
#   cmdline.txt, so a dirty flag never stops the boot.
# boot: ro too: the FAT is written only when the card is in a computer (appliance.txt); a power cut cannot damage
#   what is not being written. vfat has no journal, which is the other reason to keep it read-only.
# data: the only writable medium. noatime: reading media must not write (wear, and no write amplification);
#   data=ordered (ext4's default, stated): a file's blocks reach the card before the metadata naming them, so a
#   recording cut by a power loss ends early but never contains stale blocks; commit=5 (ext4's default, stated):
#   at most about 5 s of a recording is lost on a power cut, which is what a cut during a take costs anyway,
#   while a longer interval would save little flash wear; errors=remount-ro: on a detected inconsistency the
#   file system stops taking writes instead of spreading damage (fsck pass 2 at the next boot repairs it);
#   nodev,nosuid,noexec: the data partition holds no programs.
# /tmp and /var/tmp: tmpfs, the root being read-only.
cat > /etc/fstab <<EOF
# The appliance image (image/rpi/configure.sh). PARTUUID = MBR disk id 0x${DISK_ID} and the partition number.
PARTUUID=${DISK_ID}-02  /                   ext4   ro,noatime,errors=remount-ro                                   0 1
PARTUUID=${DISK_ID}-01  /boot/firmware      vfat   ro,noatime,nodev,nosuid,noexec,umask=0022                       0 2
PARTUUID=${DISK_ID}-04  /var/lib/appliance  ext4   rw,noatime,nodev,nosuid,noexec,data=ordered,commit=5,errors=remount-ro  0 2
tmpfs                   /tmp                tmpfs  rw,nosuid,nodev,mode=1777,size=64M                             0 0
tmpfs                   /var/tmp            tmpfs  rw,nosuid,nodev,mode=1777,size=16M                             0 0
EOF
mkdir -p /boot/firmware /var/lib/appliance

# ---- what a read-only root needs ----------------------------------------------------------------------------------
# The journal in /run only (journald.conf(5) Storage=volatile): nothing writes logs to the card.
mkdir -p /etc/systemd/journald.conf.d
printf '%s\n' '# The root is read-only: the journal lives in RAM (image/rpi/configure.sh).' '[Journal]' \
    'Storage=volatile' 'RuntimeMaxUse=16M' > /etc/systemd/journald.conf.d/appliance.conf
# machine-id(5): an empty /etc/machine-id on a read-only /etc makes systemd generate a transient ID at each boot
# and mount it over the file; unlike "uninitialized" it does not put every boot in first-boot mode.
: > /etc/machine-id
rm -f /var/lib/dbus/machine-id
# No network and no Bluetooth on the appliance, and the image carries no Wi-Fi/Bluetooth firmware: without these
# the drivers would only log their missing firmware on the console line.
printf '%s\n' '# The appliance image has no network (image/rpi/configure.sh).' 'blacklist brcmfmac' 'blacklist hci_uart' \
    > /etc/modprobe.d/appliance.conf
# /dev/i2c-1 (i2c-dev loaded) and the GPIO devices' group come with the package (modules-load.d, udev rules).
echo appliance > /etc/hostname
printf '127.0.0.1\tlocalhost\n127.0.1.1\tappliance\n::1\tlocalhost ip6-localhost ip6-loopback\n' > /etc/hosts

# ---- the serial line: the appliance's console, or a login if the boot partition asks ---------------------------
# The kernel console is ttyS1 (cmdline.txt), so systemd-getty-generator would start serial-getty@ttyS1 there; the
# appliance's console uses the same line. A file named `login` on the boot partition (like Raspberry Pi OS's `ssh`
# file) switches the line to a root login: the getty runs only if it exists, and the appliance service only if it
# does not. Conditions are checked when the units start, after local-fs.target has mounted /boot/firmware.
mkdir -p /etc/systemd/system/serial-getty@ttyS1.service.d /etc/systemd/system/appliance.service.d
cat > /etc/systemd/system/serial-getty@ttyS1.service.d/appliance.conf <<'EOF'
# A login on the serial line only when the boot partition has a file named `login` (image/rpi/configure.sh).
# Root has no password on the image: the login is automatic; whoever can write the boot partition owns the device.
[Unit]
ConditionPathExists=/boot/firmware/login
[Service]
ExecStart=
ExecStart=-/sbin/agetty --autologin root --keep-baud 115200,57600,38400,9600 - $TERM
EOF
cat > /etc/systemd/system/appliance.service.d/image.conf <<'EOF'
# On the SD-card image (image/rpi/configure.sh): the board is chosen from /boot/firmware/appliance.txt and the
# state is on the data partition; the serial line is the appliance's unless the boot partition has `login`.
[Unit]
RequiresMountsFor=/boot/firmware /var/lib/appliance
ConditionPathExists=!/boot/firmware/login
EOF

# Headless, and root has no password: no login prompts on the HDMI consoles (getty@tty1, and Debian's
# getty-static, which starts tty2-6 when dbus and logind are absent, as here). e2scrub_reap cleans up e2scrub's
# LVM snapshots (there is no LVM) and took 45 s of a boot under QEMU; e2scrub_all.timer likewise has nothing to do.
rm -f /etc/systemd/system/getty.target.wants/getty@tty1.service
systemctl mask getty-static.service e2scrub_reap.service e2scrub_all.timer

# ---- raspi-firmware: its configuration, then its hook writes config.txt and cmdline.txt ---------------------------
# /etc/default/raspi-firmware: the root by PARTUUID; the console on the mini UART only (ttyS1 on arm64 Pi 3/4,
# per the file's own comment); CMA=0 leaves the cma= parameter out (the file: "for a headless setup", and a
# CMA size on a Pi 4 "might render your system unbootable").
cat >> /etc/default/raspi-firmware <<EOF

# The appliance image (image/rpi/configure.sh):
ROOTPART="PARTUUID=${DISK_ID}-02"
CONSOLES="ttyS1,115200"
CMA=0
EOF
# Appended to config.txt by the hook: Pi 4's VPU clock fixed at 360 MHz so the mini UART's baud rate holds (the
# GPU_FREQ note in /etc/default/raspi-firmware: 500 and 550 MHz corrupt the serial console; the hook writes it only
# when it runs on a Pi 4, so here it goes in a [pi4] section), then the board's file.
cat > /etc/default/raspi-firmware-custom <<'EOF'
[pi4]
core_freq=360
[all]
include appliance.txt
EOF
# After the hook's "root=... rw ...": `ro` (the last of ro/rw wins, for the kernel and initramfs-tools alike), and
# quiet enough that the appliance's console is usable on the line the kernel also logs to: kernel messages of
# error level and worse only, systemd's status only on errors.
echo "ro quiet loglevel=3 systemd.show_status=error" > /etc/default/raspi-extra-cmdline

mount --bind /boot/firmware /boot/firmware
DEB_MAINT_PARAMS=configure /etc/kernel/postinst.d/z50-raspi-firmware
mkdir -p "$GUEST_OUT/boot"
cp -r /boot/firmware/. "$GUEST_OUT/boot/"
umount /boot/firmware
# The directory is the boot partition's mount point: what the hook left in the root's copy is hidden anyway.
find /boot/firmware -mindepth 1 -delete
say "config.txt:"; sed 's/^/    /' "$GUEST_OUT/boot/config.txt"
say "cmdline.txt:"; sed 's/^/    /' "$GUEST_OUT/boot/cmdline.txt"

# ---- tidy ----------------------------------------------------------------------------------------------------------
apt-get clean
rm -rf /var/lib/apt/lists/* /var/cache/apt/*.bin /var/log/*.log /var/log/apt/* /root/.bash_history
say "appliance: $(dpkg-query -W -f '${Version}' appliance), service $(systemctl is-enabled appliance.service)"
say "root: $(dpkg-query -W | wc -l) packages, $(du -sxm / | cut -f1) MB"
# The whole root, out to the host (numeric owners, extended attributes): build.sh makes the root partition's file
# system from it with mke2fs -d at its final size, compact and without the blocks of deleted files.
say "packing the root for the host (tar to the 9p share: minutes under TCG)"
# (Exit status 1 is GNU tar's "some files differed": the mount points /sys and /proc, whose contents it skips.)
tar --numeric-owner --xattrs --xattrs-include='*' --one-file-system --warning=no-file-changed -C / \
    -cf "$GUEST_OUT/root.tar" . || [ $? -eq 1 ]
say "root.tar: $(du -m "$GUEST_OUT/root.tar" | cut -f1) MB"
