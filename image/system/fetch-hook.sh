#!/bin/sh
# mmdebstrap customize hook: in the new trixie environment ($1), finds the arm64 kernel of the suite, installs
# the kbuild tools of that exact version (amd64), and downloads by name the arm64 kernel, its headers, the
# matching linux-source and the guest's userspace into $1/debs. Needs KERNEL_SERIES and GUEST_PACKAGES.
set -eu
root=$1
in_root() { chroot "$root" "$@"; }
# linux-image-arm64 (the suite's current kernel) depends on linux-image-<version>-arm64.
kver=$(in_root apt-cache depends linux-image-arm64:arm64 | sed -n 's/^ *Depends: linux-image-\([0-9][^:]*-arm64\)\(:arm64\)\{0,1\}$/\1/p' | head -1)
case $kver in
    "$KERNEL_SERIES".*) ;;
    *) echo "fetch: the suite's arm64 kernel is '$kver', not $KERNEL_SERIES.x" >&2; exit 1 ;;
esac
kbase=${kver%-arm64}
echo "fetch: kernel $kver"
in_root env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "linux-kbuild-$kbase"
mkdir -p "$root/debs"
arm64=""
for p in $GUEST_PACKAGES; do
    case $p in libasound2-data) arm64="$arm64 $p" ;; *) arm64="$arm64 $p:arm64" ;; esac
done
in_root sh -c "cd /debs && apt-get download linux-image-$kver:arm64 linux-headers-$kver:arm64 \
    linux-headers-$kbase-common linux-source-$KERNEL_SERIES $arm64"
# The source must be the same upload as the kernel.
image_version=$(dpkg-deb -f "$root"/debs/linux-image-"$kver"_*.deb Version)
source_version=$(dpkg-deb -f "$root"/debs/linux-source-"$KERNEL_SERIES"_*.deb Version)
if [ "$image_version" != "$source_version" ]; then
    echo "fetch: linux-source-$KERNEL_SERIES is $source_version but the kernel is $image_version" >&2; exit 1
fi
echo "$kver" > "$root/debs/kernel-version"
echo "fetch: done ($image_version)"
