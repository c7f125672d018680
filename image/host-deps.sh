#!/usr/bin/env bash
# Installs, with apt, the Debian packages the build and tests need on the host, and only the missing ones.
# Usage: image/host-deps.sh [host|arm|system|deb|image|overlays|boot|mca|all]
#        (host: tests' reference tools; arm: cross-build and qemu-user; system: the QEMU kernel rig;
#         deb: the Debian package and its checks; image: the SD-card image, image/rpi/;
#         overlays: the device-tree compiler and the tools that check its output;
#         boot: the raspi3b boot smoke test, image/rpi/boot-test.sh;
#         mca: llvm-objdump and llvm-mca for Benchmarks/mca/loop-cost.sh)
set -euo pipefail

want=${1:-host}
declare -A need=()   # command -> Debian package
if [[ $want == host || $want == all ]]; then
    need[sox]=sox            # reference encoder/decoder for the IMA ADPCM tests
    need[ffmpeg]=ffmpeg      # second reference for IMA ADPCM
    need[aplay]=alsa-utils   # ALSA's tools, for the PCM tests' reference
    need[strace]=strace      # watches the atomic writes' system calls from outside (AtomicWriteTraceTests)
    need[flac]=flac          # reference FLAC encoder/decoder (issue 14)
    need[lame]=lame          # reference MP3 encoder (LAME/Xing gapless header)
    need[opusenc]=opus-tools # reference Opus encoder/decoder (opusenc, opusdec)
    need[AtomicParsley]=atomicparsley  # writes an M4A's iTunSMPB as iTunes does (a '----' freeform atom)
    need[systemd-analyze]=systemd   # rates the unit's hardening (ServiceUnitTests, systemd-analyze security)
    need[setpriv]=util-linux         # a control-socket client as another uid (UnixSocketPermissionTests)
    need[python3]=python3            # that client's connect(2) (UnixSocketPermissionTests)
fi
# C libraries the HAL links (headers and .so), checked by package rather than by command.
declare -a libs=()
if [[ $want == host || $want == all ]]; then
    libs=(libasound2-dev libgpiod-dev libi2c-dev libedit-dev)   # libedit: the console's line editing (BSD)
    # The codec libraries (Queue/Codecs): FLAC, MP3, Opus; FFmpeg for AAC and Apple Lossless.
    libs+=(libflac-dev libmpg123-dev libopusfile-dev libopusenc-dev libavformat-dev libavcodec-dev libavutil-dev)
fi
if [[ $want == arm || $want == all ]]; then
    need[mmdebstrap]=mmdebstrap              # builds the trixie cross environment and arm64 sysroot
    need[qemu-aarch64-static]=qemu-user-static   # runs the aarch64 tests
    need[unshare]=util-linux
    need[file]=file
fi
if [[ $want == system || $want == all ]]; then
    need[mmdebstrap]=mmdebstrap                      # the trixie environment that builds the kernel modules
    need[qemu-system-aarch64]=qemu-system-arm        # boots the arm64 kernel (TCG; no KVM needed)
    need[unshare]=util-linux
    need[sox]=sox                                    # makes the test signal; reads the daemon scenario's captures
    need[python3]=python3                            # the daemon scenario's console driver; compares captured audio
    need[cpio]=cpio                                  # packs the initramfs
    need[e2fsck]=e2fsprogs                           # powercut.sh: the data disk made, checked after each cut, read
    need[ffmpeg]=ffmpeg                              # powercut.sh: decodes the recovered takes
fi
if [[ $want == deb || $want == all ]]; then
    need[dpkg-deb]=dpkg                              # packs the staged tree
    need[dpkg-shlibdeps]=dpkg-dev                    # Depends from the binary's NEEDED libraries
    need[chrpath]=chrpath                            # drops SwiftPM's RUNPATH $ORIGIN from the packaged binary
    need[objdump]=binutils                           # dpkg-shlibdeps reads the aarch64 binary's dynamic section
    need[file]=file
    need[lintian]=lintian                            # image/deb/check.sh: Debian policy checks on the .deb
    need[systemd-analyze]=systemd                    # check.sh: systemd-analyze verify on the unit
    need[systemd-sysusers]=systemd                   # check.sh: the sysusers file applied to a scratch root
fi
if [[ $want == deb || $want == all ]]; then
    libs+=(base-passwd)                              # check.sh: Debian's static users and groups (group.master)
fi
if [[ $want == overlays || $want == all ]]; then
    need[dtc]=device-tree-compiler                   # compiles the overlays (image/overlays/build.sh)
    need[fdtoverlay]=device-tree-compiler            # applies them to Debian's Pi device trees (check.sh)
    need[fdtget]=device-tree-compiler                # reads the merged tree back
fi
if [[ $want == image || $want == all ]]; then
    need[debootstrap]=debootstrap                    # the trixie arm64 base root (first stage; the second runs in QEMU)
    need[qemu-system-aarch64]=qemu-system-arm        # the configuration pass and the runner (image/rpi/guest.sh)
    need[mke2fs]=e2fsprogs                           # ext4 images from directories (mke2fs -d), debugfs, resize2fs
    need[genimage]=genimage                          # the MBR image from partition images, without loop devices
    need[mcopy]=mtools                               # genimage's vfat writer
    need[mkfs.vfat]=dosfstools                       # genimage's vfat formatter
    need[bmaptool]=bmap-tools                        # the block map of the image
    need[sfdisk]=fdisk                               # reads the partition table back (checks)
    need[xz]=xz-utils                                # the compressed image
    need[python3]=python3                            # orders the initramfs modules
    need[cpio]=cpio                                  # packs the runner's initramfs
fi
if [[ $want == boot || $want == all ]]; then
    need[qemu-system-aarch64]=qemu-system-arm        # -M raspi3b boots the image
    need[sfdisk]=fdisk                               # reads the image's partition table (--json)
    need[mcopy]=mtools                               # reads and edits the boot partition inside the image file
    need[mdir]=mtools
    need[fdtoverlay]=device-tree-compiler            # applies config.txt's overlays as the firmware would
    need[fdtput]=device-tree-compiler                # the test-only change to its copy of the device tree
    need[python3]=python3                            # drives the two serial consoles
fi

if [[ $want == mca || $want == all ]]; then
    need[llvm-objdump]=llvm                          # disassembles the hot loops of the aarch64 binary
    need[llvm-mca]=llvm                              # cycles per iteration by the Cortex-A72/A53 models
    need[llvm-nm]=llvm                               # finds them by symbol
    need[bc]=bc                                      # divides the cycle counts
fi

missing=()
for cmd in "${!need[@]}"; do
    command -v "$cmd" >/dev/null 2>&1 || missing+=("${need[$cmd]}")
done
for pkg in "${libs[@]}"; do
    dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$pkg")
done
[[ ${#missing[@]} -eq 0 ]] && exit 0

echo "host-deps: installing missing Debian packages: ${missing[*]}"
sudo=""
[[ $(id -u) -eq 0 ]] || sudo="sudo"
if ! command -v apt-get >/dev/null 2>&1; then
    echo "host-deps: apt-get not found; install these yourself: ${missing[*]}" >&2
    exit 1
fi
# Wait for another apt (a parallel install, unattended-upgrades) instead of failing on its lock.
lock_wait=(-o DPkg::Lock::Timeout=600)
$sudo apt-get "${lock_wait[@]}" update -qq || { echo "host-deps: 'apt-get update' failed: is Debian's mirror reachable?" >&2; exit 1; }
DEBIAN_FRONTEND=noninteractive $sudo apt-get "${lock_wait[@]}" install -y -qq --no-install-recommends "${missing[@]}" >/dev/null \
    || { echo "host-deps: could not install ${missing[*]} with apt-get" >&2; exit 1; }
