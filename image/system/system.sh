#!/usr/bin/env bash
# The system-test rig: boots Debian trixie's arm64 kernel under qemu-system-aarch64 (TCG) with kernel modules
# that simulate the hardware (gpio-sim, i2c-stub, snd-aloop, snd-dummy) and runs the cross-built aarch64
# `appliance` against them: through its hidden `appliance hal ...` commands (scenarios i2c, gpio, alsa), and as
# the running daemon (scenario daemon: `appliance run` on a board file of those drivers, its console on a
# virtio console that image/system/daemon-driver.py drives from the host).
#
# Usage: image/system/system.sh test     build what is missing, boot the guest, run the scenarios (default)
#        image/system/system.sh setup    only prepare the cached kernel, modules and guest userspace
#        image/system/system.sh shell    a shell in the trixie environment that builds the modules
#
# Everything comes from Debian packages, by name, from the mirror the host's apt uses: the kernel, its headers,
# linux-source (for the three modules Debian does not build), the cross compiler the kernel was built with, and
# the arm64 userspace (busybox-static, i2c-tools, and the libraries the appliance links). It is made once and
# cached in ${XDG_CACHE_HOME:-~/.cache}/appliance/system/, each stage keyed by a hash of its inputs (the package
# lists, the scripts that make it): a stage whose inputs changed is made again, with the stages after it.
# The appliance binary comes from `make arm` (.build-arm/bin/appliance-static).
#
# Environment: APPLIANCE_DEBIAN_MIRROR overrides the mirror; XDG_CACHE_HOME moves the cache;
#              SYSTEM_TIMEOUT (seconds, default 600) stops a guest that does not finish;
#              SYSTEM_SCENARIOS runs a subset (e.g. "i2c alsa"; default "i2c gpio alsa daemon").
set -euo pipefail

readonly SUITE=trixie
readonly KERNEL_SERIES=6.12                     # trixie's kernel; its modules are built with gcc-14
readonly ENV_PACKAGES="gcc-14-aarch64-linux-gnu,make,kmod,cpio,xz-utils,gcc,libc6-dev"
# arm64 userspace of the guest: busybox for the shell and tools, i2c-tools for an independent i2cget, and the
# libraries the appliance links dynamically (the Swift runtime is linked statically into appliance-static;
# libedit2 with its libbsd0, libmd0 and libtinfo6 for the console).
readonly GUEST_PACKAGES="busybox-static i2c-tools libi2c0 libc6 libasound2t64 libasound2-data libgpiod3 libstdc++6 libgcc-s1 libedit2 libbsd0 libmd0 libtinfo6 libflac14 libogg0 libmpg123-0t64 libopus0 libopusfile0 libopusenc0"
readonly ENV_LAYOUT=1 MODULES_LAYOUT=1 GUEST_LAYOUT=1     # bump when the way a stage is made changes

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
cache_base=${XDG_CACHE_HOME:-$HOME/.cache}/appliance
cache=$cache_base/system
root=$cache/root                 # trixie amd64 (+arm64 multiarch) environment with the cross compiler
debs=$root/debs                  # the arm64 packages, downloaded by name
kernel=$cache/kernel             # the unpacked linux-image package (boot/vmlinuz, usr/lib/modules)
guest=$cache/guest               # the unpacked arm64 userspace
logs=$cache/logs
out=$repo/.build-system          # git-ignored (.build-*/): the initramfs and the guest's log

input_hash() { printf '%s\n' "$@" | sha256sum | cut -c1-16; }
file_hash() { cat "$@" | sha256sum | cut -c1-16; }
readonly ENV_KEY=$(input_hash "$ENV_LAYOUT" "$SUITE" "$KERNEL_SERIES" "$ENV_PACKAGES" "$GUEST_PACKAGES" \
    "$(file_hash "$here/fetch-hook.sh")")
readonly MODULES_KEY=$(input_hash "$ENV_KEY" "$MODULES_LAYOUT" "$(file_hash "$here/build-modules.sh")")
readonly GUEST_KEY=$(input_hash "$ENV_KEY" "$GUEST_LAYOUT")

say()  { printf '\033[1msystem:\033[0m %s\n' "$*" >&2; }
die()  { printf 'system: error: %s\n' "$*" >&2; exit 1; }
stage() { printf '\n\033[1m== system: %s\033[0m\n' "$*" >&2; }

# ---- checks: every host piece, or a clear failure (never a silent skip) ---------------------------------------
[[ $(id -u) -eq 0 ]] || die "must run as root (mmdebstrap and chroot need it); try: sudo $0 $*"
missing=()
for tool in mmdebstrap unshare chroot flock dpkg-deb sha256sum qemu-system-aarch64 sox python3 cpio; do
    command -v "$tool" >/dev/null || missing+=("$tool")
done
[[ ${#missing[@]} -eq 0 ]] || die "missing on this machine: ${missing[*]} (run image/host-deps.sh system: it installs qemu-system-arm, mmdebstrap, sox, python3, cpio)"

# shellcheck source=../debian-mirror.sh
source "$repo/image/debian-mirror.sh"

# Runs bash script text as root inside the environment (private mount namespace, /proc, /dev; the repository
# at /src).
in_env() {
    unshare --mount --propagation private -- bash -euo pipefail -c '
        root=$1 repo=$2 script=$3
        mount -t proc proc "$root/proc"
        mount --rbind /dev "$root/dev"
        mkdir -p "$root/src" && mount --bind "$repo" "$root/src"
        exec chroot "$root" /usr/bin/env -i HOME=/root LANG=C.UTF-8 \
            PATH=/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin bash -euo pipefail -c "$script"
    ' in-env "$root" "$repo" "$1"
}

# Runs a long command with its output in a log; shows lines matching a pattern as progress, the log's tail on failure.
logged() {
    local log=$1 pattern=$2; shift 2
    mkdir -p "$logs"
    local status=0
    "$@" > "$log" 2>&1 &
    local pid=$!
    tail -n +1 -F --pid="$pid" "$log" 2>/dev/null | grep --line-buffered -E "$pattern" | cut -c1-150 >&2 || true
    wait "$pid" || status=$?
    if [[ $status -ne 0 ]]; then
        echo "---- last lines of $log ----" >&2; tail -n 30 "$log" >&2
    fi
    return "$status"
}

done_with() { [[ $(cat "$cache/$1.done" 2>/dev/null) == "$2" ]]; }
kernel_version() { cat "$root/debs/kernel-version"; }

# ---- stage 1: the environment, the cross compiler, and the packages by name -------------------------------------
make_env() {
    done_with env "$ENV_KEY" && return
    rm -f "$cache"/*.done
    local mirror; mirror=$(debian_mirror)
    stage "1/3 Debian $SUITE environment with gcc-14 for aarch64; the arm64 kernel $KERNEL_SERIES, headers, linux-source and guest userspace (~350 MB from $mirror)"
    rm -rf "$root" "$kernel" "$guest"; mkdir -p "$root"
    logged "$logs/env.log" '^(I:|W:|E:|Err:|fetch:)' \
        mmdebstrap --verbose --variant=apt --architectures=amd64,arm64 --include="$ENV_PACKAGES" \
            --customize-hook="GUEST_PACKAGES='$GUEST_PACKAGES' KERNEL_SERIES=$KERNEL_SERIES '$here/fetch-hook.sh' \"\$1\"" \
            "$SUITE" "$root" "$mirror" \
        || die "making the $SUITE environment failed (log: $logs/env.log): is $mirror reachable and does it carry $SUITE?"
    local kver; kver=$(kernel_version)
    say "kernel $kver"
    # The headers unpack at their own absolute paths inside the environment: their Makefile includes the
    # common tree by /usr/src/... .
    dpkg-deb -x "$debs"/linux-headers-"$kver"_*.deb "$root"
    dpkg-deb -x "$debs"/linux-headers-"${kver%-arm64}"-common_*.deb "$root"
    mkdir -p "$kernel"
    dpkg-deb -x "$debs"/linux-image-"$kver"_*.deb "$kernel"
    [[ -f $kernel/boot/vmlinuz-$kver ]] || die "no vmlinuz-$kver in the linux-image package"
    echo "$ENV_KEY" > "$cache/env.done"
}

# ---- stage 2: gpio-sim, i2c-stub and snd-dummy, built out of tree for that kernel ---------------------------------
make_modules() {
    done_with modules "$MODULES_KEY" && return
    rm -f "$cache/modules.done"
    local kver; kver=$(kernel_version)
    stage "2/3 building gpio-sim, i2c-stub, snd-dummy for $kver with aarch64-linux-gnu-gcc-14"
    cp "$here/build-modules.sh" "$root/build-modules.sh"
    logged "$logs/modules.log" '^(  CC|  LD|  MODPOST|error|build-modules:)' \
        in_env "KVER=$kver KERNEL_SERIES=$KERNEL_SERIES bash /build-modules.sh" \
        || die "building the modules failed (log: $logs/modules.log)"
    local extra=$kernel/usr/lib/modules/$kver/extra
    rm -rf "$extra"; mkdir -p "$extra"
    cp "$root"/modules-build/*.ko "$extra/"
    depmod_in_env "$kver"
    echo "$MODULES_KEY" > "$cache/modules.done"
}

# depmod needs the module tree inside the environment: bind it there for one command.
depmod_in_env() {
    unshare --mount --propagation private -- bash -euo pipefail -c '
        root=$1 kernel=$2 kver=$3
        mkdir -p "$root/kernel" && mount --bind "$kernel" "$root/kernel"
        chroot "$root" /sbin/depmod -b /kernel/usr "$kver"
    ' depmod "$root" "$kernel" "$1" || die "depmod failed for $1"
}

# ---- stage 3: the guest's userspace --------------------------------------------------------------------------------
make_guest() {
    done_with guest "$GUEST_KEY" && return
    stage "3/3 guest userspace: busybox, i2c-tools, libraries"
    rm -rf "$guest"; mkdir -p "$guest/usr"
    for d in bin sbin lib; do mkdir -p "$guest/usr/$d"; ln -s "usr/$d" "$guest/$d"; done
    local p f
    for p in $GUEST_PACKAGES; do
        f=$(ls "$debs/${p}"_*.deb 2>/dev/null | head -1)
        [[ -n $f ]] || die "package $p was not downloaded (see $logs/env.log)"
        dpkg-deb -x "$f" "$guest"
    done
    rm -rf "$guest"/usr/share/doc "$guest"/usr/share/man "$guest"/usr/share/lintian "$guest"/usr/lib/*/gconv
    echo "$GUEST_KEY" > "$cache/guest.done"
}

setup() {
    mkdir -p "$cache"
    make_env
    make_modules
    make_guest
}

main() {
    local cmd=${1:-test}
    mkdir -p "$cache_base"
    exec 9> "$cache_base/system.lock"
    flock 9 || die "cannot lock $cache_base/system.lock"
    local started=$SECONDS
    case $cmd in
    setup) setup ;;
    test)  setup; "$here/run-guest.sh" "$cache" "$(kernel_version)" "$out" ;;
    powercut) setup; "$here/powercut.sh" "$cache" "$(kernel_version)" "$out" ;;
    shell) setup; in_env "exec bash -i" ;;
    *) die "unknown command '$cmd' (test, powercut, setup, shell)" ;;
    esac
    say "$cmd done in $((SECONDS - started)) s"
}

main "$@"; exit
