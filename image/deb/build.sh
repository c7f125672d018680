#!/usr/bin/env bash
# Builds the appliance's arm64 Debian package: .build-deb/appliance_<version>_arm64.deb (`make deb`).
#
# Usage: image/deb/build.sh [BINARY]     BINARY defaults to .build-arm/bin/appliance-static (`make arm`)
# Environment: APPLIANCE_DEB_VERSION overrides the computed version (the upgrade test builds a version N+1 this
#              way); APPLIANCE_DEB_OUT moves the output directory; APPLIANCE_DEBIAN_MIRROR as in image/cross/arm.sh.
#
# Why this way: one binary package with hand-written control data and maintainer scripts, assembled in a staged
# tree and packed with dpkg-deb. Nothing here needs debhelper, and the scripts say exactly what runs on the board.
# - Version: <BASE_VERSION>+git<commits>.<hash>-1. The commit count grows along the branch, so every later commit
#   sorts higher for dpkg (upgrades work); the hash names the source. A dirty tree adds "~dirty" to the upstream
#   part (sorting below the clean build of the same commit). The Debian revision -1 makes it a non-native package, whose changelog Debian policy 12.7 names
#   changelog.Debian.gz.
# - Depends: computed by dpkg-shlibdeps from the binary's NEEDED libraries and the symbols/shlibs files of the
#   trixie arm64 packages that ship them. The arm64 sysroot (image/cross/arm.sh) is made with mmdebstrap's extract
#   variant, which leaves no dpkg database, so those packages are fetched here, by apt from the Debian mirror, into
#   a cache keyed by its inputs: the runtime packages the cross build's -dev packages depend on (arm.sh's
#   SYSROOT_PACKAGES), each unpacked with its DEBIAN/ control files for dpkg-shlibdeps -S.
# - Recommends: the FFmpeg libraries the binary dlopens (Sources/Queue/C/CFFmpeg): their sonames carry the major
#   versions of the sysroot's FFmpeg headers, and the package shipping each soname is found in the same cache.
# - The dates inside the package come from the commit (SOURCE_DATE_EPOCH), so the same commit gives the same .deb.
set -euo pipefail

readonly BASE_VERSION=0.15.0    # bump by hand for a release; the +git part counts commits on top of it
readonly SUITE=trixie ARCH=arm64 MULTIARCH=aarch64-linux-gnu
readonly MAINTAINER="Appliance maintainers <maintainers@users.noreply.a-seed-d0664df7.example>"
readonly LIBS_LAYOUT=2          # bump when the way the library cache is made changes

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
here=$repo/image/deb
files=$here/files
binary=${1:-$repo/.build-arm/bin/appliance-static}
out=${APPLIANCE_DEB_OUT:-$repo/.build-deb}
cache=${XDG_CACHE_HOME:-$HOME/.cache}/appliance/deb
arm_sysroot=${XDG_CACHE_HOME:-$HOME/.cache}/appliance/arm/root/opt/swift-sdks/debian-trixie-aarch64.artifactbundle/aarch64-unknown-linux-gnu/sysroot

say()  { printf '\033[1mdeb:\033[0m %s\n' "$*" >&2; }
die()  { printf 'deb: error: %s\n' "$*" >&2; exit 1; }
warn() { printf '\033[1;31mdeb: WARNING:\033[0m %s\n' "$*" >&2; }

# ---- checks ------------------------------------------------------------------------------------------------------
declare -A tool_package=([dpkg-deb]=dpkg [dpkg-shlibdeps]=dpkg-dev [apt-get]=apt [chrpath]=chrpath
                         [objdump]=binutils [git]=git [gzip]=gzip [file]=file)
for tool in "${!tool_package[@]}"; do
    command -v "$tool" >/dev/null || die "'$tool' not found: run image/host-deps.sh deb (Debian package ${tool_package[$tool]})"
done
[[ -f $binary ]] || die "no binary at $binary: run 'make arm' first"
file -b "$binary" | grep -q 'ARM aarch64' || die "$binary is not an aarch64 executable ($(file -b "$binary"))"
[[ -d $arm_sysroot/usr/include ]] || die "no arm64 sysroot at $arm_sysroot: run 'make arm' first"

# ---- version -----------------------------------------------------------------------------------------------------
commits=$(git -C "$repo" rev-list --count HEAD)
hash=$(git -C "$repo" rev-parse --short=10 HEAD)
upstream=$BASE_VERSION+git$commits.$hash
# Untracked files under .build*/ are ignored; anything else changed makes the package say so.
# "~" sorts before anything (deb-version(7)): a dirty build of commit N is newer than N-1 but never hides N's clean one.
[[ -z $(git -C "$repo" status --porcelain --untracked-files=no) ]] || upstream+="~dirty"
# A shallow clone counts only the commits it has: the version would sort below earlier builds (a downgrade).
if [[ $(git -C "$repo" rev-parse --is-shallow-repository) == true ]]; then
    printf 'deb: warning: %s is a shallow clone: version %s counts only its %s commits and may sort below earlier builds (git fetch --unshallow)\n' \
        "$repo" "$upstream" "$commits" >&2
fi
version=${APPLIANCE_DEB_VERSION:-$upstream-1}
export SOURCE_DATE_EPOCH=${SOURCE_DATE_EPOCH:-$(git -C "$repo" log -1 --format=%ct)}
say "appliance $version (commit $hash, $commits commits)"

# ---- the trixie arm64 library packages (cached) ------------------------------------------------------------------
# shellcheck source=../debian-mirror.sh
source "$repo/image/debian-mirror.sh"

# The -dev packages the cross build links against: arm.sh's SYSROOT_PACKAGES, its one source of truth.
dev_packages=$(sed -n '/^readonly SYSROOT_PACKAGES=/,/"[[:space:]]*$/p' "$repo/image/cross/arm.sh" \
               | tr -d '\\\n' | sed 's/^[^"]*"//; s/".*//' | tr ',' ' ')
[[ $dev_packages == *libc6-dev* ]] || die "cannot read SYSROOT_PACKAGES from image/cross/arm.sh (got '$dev_packages')"

mirror=$(debian_mirror)
libs_key=$(printf '%s\n' "$LIBS_LAYOUT" "$SUITE" "$ARCH" "$mirror" "$dev_packages" | sha256sum | cut -c1-16)
apt_dir=$cache/apt
trees=$cache/trees

# apt-get and apt-cache on the host, but reading only the trixie arm64 index in $apt_dir.
apt_arm64() { APT_CONFIG=$apt_dir/apt.conf "$@"; }

make_library_cache() {
    [[ $(cat "$cache/libs.done" 2>/dev/null) == "$libs_key" ]] && return
    say "fetching the $SUITE $ARCH index and the runtime library packages from $mirror (once; cached in $cache)"
    rm -rf "$apt_dir" "$trees" "$cache/libs.done"
    mkdir -p "$apt_dir"/etc/{apt.conf.d,preferences.d,sources.list.d,trusted.gpg.d} \
             "$apt_dir"/state/lists/partial "$apt_dir"/cache/archives/partial "$apt_dir/debs" "$trees"
    : > "$apt_dir/state/status"
    echo "deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $mirror $SUITE main" > "$apt_dir/etc/sources.list"
    cat > "$apt_dir/apt.conf" <<EOF
Dir::Etc "$apt_dir/etc/";
Dir::State "$apt_dir/state/";
Dir::State::status "$apt_dir/state/status";
Dir::Cache "$apt_dir/cache/";
APT::Architecture "$ARCH";
APT::Architectures { "$ARCH"; };
Acquire::Languages "none";
Debug::NoLocking "true";
Dir::Cache::srcpkgcache "";
EOF
    apt_arm64 apt-get -q update > "$cache/apt-update.log" 2>&1 \
        || die "apt-get update for $SUITE $ARCH failed (log: $cache/apt-update.log): is $mirror reachable?"
    # Walk the -dev packages' Depends through other -dev packages; what is not -dev is a runtime package.
    local -A seen=() runtime=()
    local -a queue=($dev_packages)
    local pkg dep
    while ((${#queue[@]})); do
        pkg=${queue[0]}; queue=("${queue[@]:1}")
        [[ -n ${seen[$pkg]:-} ]] && continue
        seen[$pkg]=1
        while read -r dep; do
            if [[ $dep == *-dev ]]; then queue+=("$dep"); else runtime[$dep]=1; fi
        done < <(apt_arm64 apt-cache depends --no-recommends --no-suggests --no-conflicts --no-breaks \
                     --no-replaces --no-enhances "$pkg" 2>/dev/null | sed -n 's/^ *|\{0,1\}Depends: \([^<][^ ]*\)$/\1/p')
    done
    ((${#runtime[@]})) || die "no runtime packages found for: $dev_packages (log: $cache/apt-update.log)"
    (cd "$apt_dir/debs" && apt_arm64 apt-get -q download "${!runtime[@]}") > "$cache/download.log" 2>&1 \
        || die "downloading the $ARCH runtime packages failed (log: $cache/download.log)"
    local deb
    for deb in "$apt_dir"/debs/*.deb; do
        pkg=$(dpkg-deb -f "$deb" Package)
        dpkg-deb -R "$deb" "$trees/$pkg"     # files and DEBIAN/ (shlibs, symbols) as dpkg-shlibdeps -S reads them
        rm "$deb"
    done
    say "cached $(ls "$trees" | wc -l) $SUITE $ARCH runtime packages"
    echo "$libs_key" > "$cache/libs.done"
}
make_library_cache

# The package (in the cache) that ships a library soname for $MULTIARCH.
package_of_soname() {
    local t
    for t in "$trees"/*; do
        if [[ -e $t/usr/lib/$MULTIARCH/$1 || -e $t/lib/$MULTIARCH/$1 ]]; then basename "$t"; return; fi
    done
    die "no $SUITE $ARCH package in $trees ships $1"
}

# ---- overlays (image/overlays/build.sh OUT_DIR) -----------------------------------------------------------------
overlays_out=$out/overlays
rm -rf "$overlays_out"; mkdir -p "$overlays_out"
overlays_missing=""
if [[ -x $repo/image/overlays/build.sh ]]; then
    say "building the device-tree overlays (image/overlays/build.sh)"
    "$repo/image/overlays/build.sh" "$overlays_out" >&2 || die "image/overlays/build.sh failed"
    compgen -G "$overlays_out/*.dtbo" >/dev/null || die "image/overlays/build.sh wrote no .dtbo into $overlays_out"
else
    overlays_missing=1
    warn "image/overlays/build.sh does not exist yet: this package has NO device-tree overlays"
fi

# ---- the staged tree ---------------------------------------------------------------------------------------------
stage=$out/stage
rm -rf "$stage"; mkdir -p "$stage/DEBIAN"
umask 022
install -D -m 0755 "$binary" "$stage/usr/bin/appliance"
# SwiftPM links every product with RUNPATH $ORIGIN (for a runtime beside the binary); this one has its Swift runtime
# inside and takes its C libraries from the system, so the search path only widens where libraries are looked up
# (Debian policy 10.2, lintian custom-library-search-path).
chrpath -d "$stage/usr/bin/appliance" >/dev/null
install -D -m 0644 "$repo/image/service/appliance.service" "$stage/usr/lib/systemd/system/appliance.service"
install -D -m 0644 "$repo/image/service/appliance.sysusers.conf" "$stage/usr/lib/sysusers.d/appliance.conf"
install -D -m 0644 "$files/appliance.rules" "$stage/usr/lib/udev/rules.d/60-appliance.rules"
install -D -m 0644 "$files/modules-load.conf" "$stage/usr/lib/modules-load.d/appliance.conf"
install -D -m 0644 "$files/default" "$stage/etc/default/appliance"
# Board files: every real board. simulated.yaml is built into the binary (SimulatedBoard.swift) and names no hardware.
mkdir -p "$stage/usr/share/appliance/board-configs"
for board in "$repo"/board-configs/*.yaml; do
    [[ $(basename "$board") == simulated.yaml ]] && continue
    install -m 0644 "$board" "$stage/usr/share/appliance/board-configs/"
done
if [[ -z $overlays_missing ]]; then
    install -D -m 0644 -t "$stage/usr/share/appliance/overlays" "$overlays_out"/*.dtbo
fi
install -D -m 0644 "$files/appliance.1" "$stage/usr/share/man/man1/appliance.1"
gzip -9n "$stage/usr/share/man/man1/appliance.1"
doc=$stage/usr/share/doc/appliance
install -D -m 0644 "$repo/README.md" "$doc/README.md"
install -m 0644 "$files/copyright" "$doc/copyright"
install -D -m 0644 "$files/lintian-overrides" "$stage/usr/share/lintian/overrides/appliance"
# changelog.Debian: one entry for this build, dated by the commit (Debian policy 4.4 format).
{
    echo "appliance ($version) unstable; urgency=medium"
    echo
    echo "  * Built from commit $(git -C "$repo" rev-parse HEAD):"
    echo "    $(git -C "$repo" log -1 --format=%s | cut -c1-66)"
    echo
    echo " -- $MAINTAINER  $(date -u -R -d "@$SOURCE_DATE_EPOCH")"
} > "$doc/changelog.Debian"
gzip -9n "$doc/changelog.Debian"

for script in postinst prerm postrm; do
    install -m 0755 "$files/$script" "$stage/DEBIAN/$script"
done
echo /etc/default/appliance > "$stage/DEBIAN/conffiles"

# ---- dependencies ------------------------------------------------------------------------------------------------
# dpkg-shlibdeps wants debian/control of a source package beside it; a scratch one names this package.
scratch=$out/shlibdeps
rm -rf "$scratch"; mkdir -p "$scratch/debian" "$scratch/admindir"
printf 'Source: appliance\n\nPackage: appliance\nArchitecture: %s\n' "$ARCH" > "$scratch/debian/control"
: > "$scratch/admindir/status"     # an empty database: every library must come from the cached packages
search=()
for t in "$trees"/*; do search+=("-S$t"); done
depends=$(cd "$scratch" && DEB_HOST_ARCH=$ARCH dpkg-shlibdeps --admindir="$scratch/admindir" -O --warnings=0 \
              "${search[@]}" "$stage/usr/bin/appliance" 2> "$scratch/shlibdeps.log") \
    || die "dpkg-shlibdeps failed (log: $scratch/shlibdeps.log)"
depends=${depends#shlibs:Depends=}
[[ $depends == *libc6* ]] || die "dpkg-shlibdeps found no libc6 dependency: '$depends' (log: $scratch/shlibdeps.log)"
# systemd: runs the unit, and its systemd-sysusers and udev make the user and the device permissions.
# (deb-systemd-helper and deb-systemd-invoke come from init-system-helpers, which is Essential: no Depends.)
depends+=", systemd"

# FFmpeg's sonames from the sysroot's headers (what CFFmpeg was compiled against): libavX.so.<MAJOR>.
# (libavutil keeps its major in version.h, the others in version_major.h.)
major() {
    local h
    for h in "$arm_sysroot/usr/include/$MULTIARCH/lib$2"/version{,_major}.h; do
        if [[ -f $h ]]; then sed -n "s/^#define LIB${1}_VERSION_MAJOR[[:space:]]*\([0-9]*\).*/\1/p" "$h"; fi
    done | head -1
}
recommends=""
for lib in AVFORMAT:avformat AVCODEC:avcodec AVUTIL:avutil; do
    m=$(major "${lib%%:*}" "${lib#*:}")
    [[ -n $m ]] || die "no LIB${lib%%:*}_VERSION_MAJOR in $arm_sysroot/usr/include/$MULTIARCH/lib${lib#*:}/"
    recommends+="${recommends:+, }$(package_of_soname "lib${lib#*:}.so.$m")"
done

# Built-Using (Debian policy 7.8): the Swift runtime is linked in statically, from swiftlang.
arm_admin=${XDG_CACHE_HOME:-$HOME/.cache}/appliance/arm/root/var/lib/dpkg
swift_source=$(dpkg-query --admindir="$arm_admin" -W -f='${source:Package} (= ${source:Version})' swiftlang 2>/dev/null) \
    || die "cannot read swiftlang's version from the cross environment ($arm_admin): run 'make arm'"

installed_size=$(du -sk --apparent-size --exclude=DEBIAN "$stage" | cut -f1)
cat > "$stage/DEBIAN/control" <<EOF
Package: appliance
Version: $version
Architecture: $ARCH
Maintainer: $MAINTAINER
Installed-Size: $installed_size
Depends: $depends
Recommends: $recommends
Built-Using: $swift_source
Section: sound
Priority: optional
Description: headless audio appliance for Raspberry Pi I2S codec HATs
 A player and recorder for a Raspberry Pi with an I2S codec HAT: it brings
 up the codec over I2C, plays and records through ALSA, reads the board's
 buttons and jack detection over GPIO, and answers a console on a serial
 line. It runs as the systemd service appliance.service, configured in
 /etc/default/appliance; the board files in /usr/share/appliance/board-configs
 and the device-tree overlays in /usr/share/appliance/overlays describe the
 supported HATs.
 .
 AAC and Apple Lossless playback load FFmpeg's libraries when first used.
EOF

# md5sums of every file but the control area (dpkg --verify, debsums).
(cd "$stage" && find . -path ./DEBIAN -prune -o -type f -printf '%P\0' | LC_ALL=C sort -z | xargs -0 md5sum) \
    > "$stage/DEBIAN/md5sums"
chmod 0644 "$stage/DEBIAN/md5sums" "$stage/DEBIAN/conffiles" "$stage/DEBIAN/control"
find "$stage" -type d -exec chmod 0755 {} +
find "$stage" -exec touch -h -d "@$SOURCE_DATE_EPOCH" {} +

deb=$out/appliance_${version}_${ARCH}.deb
rm -f "$out"/appliance_*_"$ARCH".deb
dpkg-deb --root-owner-group -Zxz --build "$stage" "$deb" >/dev/null || die "dpkg-deb --build failed for $stage"
say "Depends: $depends"
say "Recommends: $recommends"
[[ -z $overlays_missing ]] || warn "built WITHOUT overlays (image/overlays/build.sh missing)"
say "built $deb ($(du -k "$deb" | cut -f1) KiB, sha256 $(sha256sum "$deb" | cut -c1-16)...)"
