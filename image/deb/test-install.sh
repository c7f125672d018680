#!/usr/bin/env bash
# Installs, upgrades, removes and purges the appliance package in a configured Debian trixie arm64 root booted
# under qemu-system-aarch64 -M virt (`make test-deb-install`): image/deb/guest-test.sh runs there and checks each step.
#
# Usage: image/deb/test-install.sh
# Environment: APPLIANCE_DEB_BASE_ROOT=FILE uses that configured root (ext4 image) as it is, instead of asking
#              image/rpi/base.sh for its cached one (guest.sh's GUEST_BASE_DIR then names its kernel's directory).
#
# Why this way: this host has no binfmt_misc, so arm64 maintainer scripts cannot run under qemu-user in a chroot.
# The image build already has what is needed: a configured trixie arm64 base root (image/rpi/base.sh, cached)
# and a runner that boots Debian's arm64 kernel on it and runs a script as root (image/rpi/guest.sh). The root is
# used with --snapshot, so the cached base is never changed. Version N is the package `make deb` built; N+1 is the
# same tree rebuilt with the next Debian revision (<upstream>-<revision+1>), which dpkg sorts after N: an upgrade
# that replaces every file, as a real update does.
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
here=$repo/image/deb
out=$repo/.build-deb/install-test
base_root=${XDG_CACHE_HOME:-$HOME/.cache}/appliance/image/base/root.ext4

say() { printf '\033[1mdeb-install:\033[0m %s\n' "$*" >&2; }
die() { printf 'deb-install: error: %s\n' "$*" >&2; exit 1; }

[[ -x $repo/image/rpi/guest.sh && -x $repo/image/rpi/base.sh ]] \
    || die "image/rpi/guest.sh and base.sh (the arm64 base root and its runner) are missing"

# ---- version N and N+1 -------------------------------------------------------------------------------------------
debs=("$repo"/.build-deb/appliance_*_arm64.deb)
[[ ${#debs[@]} -eq 1 && -f ${debs[0]} ]] || die "expected one .deb in .build-deb/, found: ${debs[*]}; run 'make deb'"
deb_n=${debs[0]}
version_n=$(dpkg-deb -f "$deb_n" Version)
[[ $version_n =~ ^(.+)-([0-9]+)$ ]] || die "version $version_n has no Debian revision"
version_next=${BASH_REMATCH[1]}-$((BASH_REMATCH[2] + 1))
rm -rf "$out"; mkdir -p "$out"
say "building N+1 = $version_next (N = $version_n)"
APPLIANCE_DEB_OUT=$out/next APPLIANCE_DEB_VERSION=$version_next "$here/build.sh" > "$out/build-next.log" 2>&1 \
    || die "building version $version_next failed (log: $out/build-next.log)"
deb_next=$out/next/appliance_${version_next}_arm64.deb
[[ -f $deb_next ]] || die "no $deb_next after the build (log: $out/build-next.log)"

# ---- the guest ----------------------------------------------------------------------------------------------------
if [[ -n ${APPLIANCE_DEB_BASE_ROOT:-} ]]; then
    base_root=$APPLIANCE_DEB_BASE_ROOT
    [[ -f $base_root ]] || die "no root image at APPLIANCE_DEB_BASE_ROOT=$base_root"
else
    "$repo/image/rpi/base.sh" || die "image/rpi/base.sh could not make the arm64 base root"
    [[ -f $base_root ]] || die "no base root at $base_root after image/rpi/base.sh"
fi
# guest.sh runs its script with /bin/sh in the directory holding the files: hand over to bash there.
cat > "$out/run.sh" <<EOF
exec bash ./guest-test.sh ./$(basename "$deb_n") ./$(basename "$deb_next")
EOF
say "install, upgrade, remove, purge in trixie arm64 under qemu-system-aarch64 -M virt (a few minutes under TCG)"
start=$SECONDS
status=0
"$repo/image/rpi/guest.sh" --snapshot --log "$out/guest.log" --timeout 1200 "$base_root" "$out/run.sh" \
    "$here/guest-test.sh" "$deb_n" "$deb_next" || status=$?
say "guest finished in $((SECONDS - start)) s (log: $out/guest.log)"
grep -q 'guest-deb: PASS' "$out/guest.log" && [[ $status -eq 0 ]] \
    || die "the install/upgrade/remove/purge checks failed (exit $status; log: $out/guest.log)"
say "install, upgrade, remove and purge: all checks passed"
