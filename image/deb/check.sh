#!/usr/bin/env bash
# Checks the arm64 package that image/deb/build.sh made, on the host (no arm64 code runs):
#   lintian (Debian policy), the control data, every file's path, mode and owner, the conffile and its values, the
#   binary (aarch64, no RUNPATH), md5sums, the unit (systemd-analyze verify), the sysusers file (systemd-sysusers
#   into a scratch root made from Debian's base-passwd), the Depends and Recommends against the trixie arm64 index,
#   and that the same commit builds the same bytes.
# Usage: image/deb/check.sh [DEB]          DEB defaults to the one .deb in .build-deb/
#
# Why this way: every expected value comes from outside build.sh: the issue's contract (paths, conffile values),
# Debian policy and its tools (lintian, dpkg-deb, systemd's own checkers), objdump's view of the binary, and the
# Debian archive's trixie arm64 index. All checks run, then the failures are listed; the exit status is non-zero
# if any failed.
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
out=$repo/.build-deb
cache=${XDG_CACHE_HOME:-$HOME/.cache}/appliance/deb
readonly MULTIARCH=aarch64-linux-gnu

die()  { printf 'deb-check: error: %s\n' "$*" >&2; exit 1; }
failures=()
pass() { printf '  ok    %s\n' "$*"; }
fail() { printf '  FAIL  %s\n' "$*"; failures+=("$*"); }
# check DESCRIPTION COMMAND...: runs the command quietly; its status decides.
check() { local what=$1; shift; if "$@" >/dev/null 2>&1; then pass "$what"; else fail "$what"; fi; }

declare -A tool_package=([lintian]=lintian [dpkg-deb]=dpkg [objdump]=binutils [file]=file
                         [systemd-analyze]=systemd [systemd-sysusers]=systemd [apt-cache]=apt)
for tool in "${!tool_package[@]}"; do
    command -v "$tool" >/dev/null || die "'$tool' not found: run image/host-deps.sh deb (Debian package ${tool_package[$tool]})"
done
[[ -f /usr/share/base-passwd/group.master ]] || die "no /usr/share/base-passwd/group.master: apt-get install base-passwd"

deb=${1:-}
if [[ -z $deb ]]; then
    debs=("$out"/appliance_*_arm64.deb)
    [[ ${#debs[@]} -eq 1 && -f ${debs[0]} ]] || die "expected one .deb in $out, found: ${debs[*]}; run 'make deb'"
    deb=${debs[0]}
fi
[[ -f $deb ]] || die "no package at $deb"
[[ -f $cache/apt/apt.conf ]] || die "no trixie arm64 index in $cache/apt: run image/deb/build.sh first"
work=$(mktemp -d /tmp/deb-check.XXXXXX)
# The scratch directory (and the logs the failures name) stays when a check fails.
trap '[[ ${#failures[@]} -eq 0 ]] && rm -rf "$work"' EXIT
echo "deb-check: $deb"

# ---- lintian -----------------------------------------------------------------------------------------------------
# Every tag down to pedantic is shown; errors, warnings and infos not overridden (with a reason, in the package's
# lintian overrides) fail.
echo "lintian:"
if lintian --pedantic --info --fail-on error,warning,info "$deb" > "$work/lintian.log" 2>&1; then
    pass "lintian --pedantic: no tags ($(grep -c '^[EWIP]:' "$work/lintian.log" || true) shown)"
else
    grep -E '^[EWIP]:' "$work/lintian.log" | sed 's/^/        /'
    fail "lintian reports the tags above (log: $work/lintian.log)"
fi

# ---- control data ------------------------------------------------------------------------------------------------
echo "control:"
field() { dpkg-deb -f "$deb" "$1"; }
name=$(basename "$deb" .deb)
check "Package is appliance" test "$(field Package)" = appliance
check "Architecture is arm64" test "$(field Architecture)" = arm64
check "the file is named <Package>_<Version>_<Architecture>.deb (Debian policy 5.6.12, dpkg-name)" \
    test "$name" = "appliance_$(field Version)_arm64"
check "Version is non-native, <upstream>-<revision>" grep -qE '^[0-9][^-]*-[0-9]+$' <<< "$(field Version)"
dpkg-deb -e "$deb" "$work/control"
check "conffiles lists exactly /etc/default/appliance" test "$(cat "$work/control/conffiles")" = /etc/default/appliance
for script in postinst prerm postrm; do
    check "$script is executable and passes sh -n" sh -n "$work/control/$script"
done

# ---- contents: paths, modes, owners ------------------------------------------------------------------------------
echo "contents:"
dpkg-deb --contents "$deb" > "$work/contents"
# Every entry is root:root (Debian policy 10.9: files owned by root unless there is a reason).
check "every entry is owned by root/root" test -z "$(awk '$2 != "root/root"' "$work/contents")"
check "every directory is 0755" test -z "$(awk '/^d/ && $1 != "drwxr-xr-x"' "$work/contents")"
mode_of() { awk -v p="./$1" '$6 == p { print $1 }' "$work/contents"; }
expect_file() {   # PATH MODE: the path is in the package with that mode
    local m; m=$(mode_of "$1")
    if [[ $m == "$2" ]]; then pass "/$1 $2"; else fail "/$1: expected $2, found '${m:-absent}'"; fi
}
# The issue's contract ("Package"): what the package installs, where.
expect_file usr/bin/appliance -rwxr-xr-x
expect_file usr/lib/systemd/system/appliance.service -rw-r--r--
expect_file usr/lib/sysusers.d/appliance.conf -rw-r--r--
expect_file etc/default/appliance -rw-r--r--
expect_file usr/lib/udev/rules.d/60-appliance.rules -rw-r--r--
expect_file usr/lib/modules-load.d/appliance.conf -rw-r--r--
# Debian policy 12.5 and 12.7: copyright, and a non-native package's changelog.Debian.gz.
expect_file usr/share/doc/appliance/copyright -rw-r--r--
expect_file usr/share/doc/appliance/changelog.Debian.gz -rw-r--r--
expect_file usr/share/doc/appliance/README.md -rw-r--r--
# Board files: every one in the repository's board-configs/ except the simulated board (built into the binary).
for board in "$repo"/board-configs/*.yaml; do
    [[ $(basename "$board") == simulated.yaml ]] && continue
    expect_file "usr/share/appliance/board-configs/$(basename "$board")" -rw-r--r--
done
check "no simulated board file is shipped" test -z "$(mode_of usr/share/appliance/board-configs/simulated.yaml)"
# Overlays: what image/overlays/build.sh writes, one appliance-<board>.dtbo per board it supports.
if [[ -x $repo/image/overlays/build.sh ]]; then
    mkdir -p "$work/overlays"
    if "$repo/image/overlays/build.sh" "$work/overlays" > "$work/overlays.log" 2>&1; then
        n=0
        for dtbo in "$work"/overlays/*.dtbo; do
            [[ -e $dtbo ]] || continue
            n=$((n + 1))
            expect_file "usr/share/appliance/overlays/$(basename "$dtbo")" -rw-r--r--
        done
        overlays_built=$work/overlays
        check "image/overlays/build.sh made overlays ($n)" test "$n" -gt 0
        check "the package has no other overlays" test "$(grep -c '/usr/share/appliance/overlays/.*\.dtbo$' "$work/contents")" -eq "$n"
    else
        fail "image/overlays/build.sh failed (log: $work/overlays.log)"
    fi
else
    fail "overlays: image/overlays/build.sh is missing, so the package has no overlays"
fi

dpkg-deb -x "$deb" "$work/root"
if [[ -n ${overlays_built:-} ]]; then
    for dtbo in "$overlays_built"/*.dtbo; do
        check "$(basename "$dtbo") is what image/overlays/build.sh makes from this tree" \
            cmp "$dtbo" "$work/root/usr/share/appliance/overlays/$(basename "$dtbo")"
    done
fi
# md5sums (dpkg --verify) match the files.
check "DEBIAN/md5sums matches every file" bash -c "cd '$work/root' && md5sum --quiet -c '$work/control/md5sums'"
check "DEBIAN/md5sums lists every regular file" test "$(wc -l < "$work/control/md5sums")" -eq "$(find "$work/root" -type f | wc -l)"

# ---- the conffile's values (the contract) --------------------------------------------------------------------------
echo "/etc/default/appliance:"
for setting in APPLIANCE_BOARD=auto APPLIANCE_CONSOLE=/dev/ttyS1 APPLIANCE_BAUD=115200 APPLIANCE_OPTIONS=; do
    check "$setting" grep -qx "$setting" "$work/root/etc/default/appliance"
done
# Every variable ExecStart uses ("${VAR}" or "$VAR", systemd.service(5)) is set there.
for var in $(grep '^ExecStart=' "$work/root/usr/lib/systemd/system/appliance.service" | grep -oE '\$\{?[A-Z_]+' | tr -d '${'); do
    check "$var, used by ExecStart, is set in it" grep -q "^$var=" "$work/root/etc/default/appliance"
done
check "it is commented (what each setting means)" test "$(grep -c '^#' "$work/root/etc/default/appliance")" -ge 4

# modules-load.d(5): one module name per line; i2c-dev makes /dev/i2c-N (Documentation/i2c/dev-interface.rst).
check "modules-load.d loads i2c-dev" grep -qx i2c-dev "$work/root/usr/lib/modules-load.d/appliance.conf"

# ---- the binary ----------------------------------------------------------------------------------------------------
echo "binary:"
bin=$work/root/usr/bin/appliance
check "aarch64 ELF executable (file)" grep -q 'ELF 64-bit LSB pie executable, ARM aarch64' <<< "$(file -b "$bin")"
objdump -p "$bin" > "$work/objdump" 2>&1 || fail "objdump -p cannot read the binary"
check "no RPATH or RUNPATH (Debian policy 10.2)" test -z "$(grep -E '^ *(RPATH|RUNPATH) ' "$work/objdump")"
check "no NEEDED Swift runtime library (the runtime is static)" test -z "$(grep -E 'NEEDED +libswift' "$work/objdump")"

# ---- systemd's own checkers --------------------------------------------------------------------------------------
echo "systemd:"
unit=$work/root/usr/lib/systemd/system/appliance.service
check "the unit reads /etc/default/appliance (optional: '-')" grep -qx 'EnvironmentFile=-/etc/default/appliance' "$unit"
# systemd-analyze checks ExecStart's program exists: point it at one that does.
sed 's|^ExecStart=/usr/bin/appliance |ExecStart=/bin/true |' "$unit" > "$work/appliance.service"
if systemd-analyze verify "$work/appliance.service" > "$work/verify.log" 2>&1 && [[ ! -s $work/verify.log ]]; then
    pass "systemd-analyze verify: no complaints"
else
    sed 's/^/        /' "$work/verify.log"; fail "systemd-analyze verify complains (above)"
fi
# sysusers.d(5) applied by systemd-sysusers to a root holding Debian's static users and groups (base-passwd).
sysroot=$work/sysusers
mkdir -p "$sysroot/etc"
cp /usr/share/base-passwd/group.master "$sysroot/etc/group"
cp /usr/share/base-passwd/passwd.master "$sysroot/etc/passwd"
if systemd-sysusers --root="$sysroot" "$work/root/usr/lib/sysusers.d/appliance.conf" > "$work/sysusers.log" 2>&1; then
    check "systemd-sysusers creates the system user appliance (uid < 1000, home /var/lib/appliance, nologin)" \
        awk -F: '$1 == "appliance" && $3 < 1000 && $6 == "/var/lib/appliance" && $7 ~ /nologin$/ { ok = 1 } END { exit !ok }' "$sysroot/etc/passwd"
    for group in audio gpio i2c dialout; do
        check "appliance is in group $group" \
            awk -F: -v g="$group" '$1 == g && ("," $4 ",") ~ /,appliance,/ { ok = 1 } END { exit !ok }' "$sysroot/etc/group"
    done
else
    fail "systemd-sysusers failed on the package's sysusers.d file (log: $work/sysusers.log)"
fi

# ---- Depends and Recommends against the trixie arm64 archive -----------------------------------------------------
echo "relations (the trixie arm64 index in $cache/apt):"
apt_arm64() { APT_CONFIG=$cache/apt/apt.conf "$@"; }
# PACKAGE [OP VERSION]: the archive has the package and its candidate version satisfies the relation.
declare -A archive_version=()
relation_satisfied() {
    local candidate=${archive_version[$1]:-}
    [[ -n $candidate ]] || return 1
    [[ -z ${2:-} ]] || dpkg --compare-versions "$candidate" "$2" "$3"
}
depends=$(field Depends)
recommends=$(field Recommends)
IFS=',' read -ra rels <<< "$depends, $recommends"
# The candidate versions of every named package, in one apt-cache run.
names() { sed 's/ *([^)]*)//g; s/, */\n/g' <<< "$1"; }
while read -r pkg ver; do
    archive_version[$pkg]=$ver
done < <(apt_arm64 apt-cache show --no-all-versions $(names "$depends, $recommends") 2>/dev/null \
             | awk '/^Package: / { p = $2 } /^Version: / { print p, $2 }')
for rel in "${rels[@]}"; do
    rel=$(sed 's/^ *//; s/ *$//' <<< "$rel")
    if [[ $rel =~ ^([a-z0-9.+-]+)\ \((>=|=|<=|>>|<<)\ ([^\)]+)\)$ ]]; then
        check "trixie arm64 has $rel" relation_satisfied "${BASH_REMATCH[1]}" "${BASH_REMATCH[2]}" "${BASH_REMATCH[3]}"
    else
        check "trixie arm64 has $rel" relation_satisfied "$rel"
    fi
done
# Each NEEDED library of the binary (objdump) is shipped by a package in Depends (its data, from the archive).
for soname in $(awk '$1 == "NEEDED" { print $2 }' "$work/objdump"); do
    owner=""
    for t in "$cache"/trees/*; do
        if [[ -e $t/usr/lib/$MULTIARCH/$soname || -e $t/lib/$MULTIARCH/$soname ]]; then owner=$(basename "$t"); break; fi
    done
    if [[ -n $owner ]] && names "$depends" | grep -qxF "$owner"; then
        pass "NEEDED $soname: $owner is in Depends"
    else
        fail "NEEDED $soname: its package (${owner:-not found}) is not in Depends"
    fi
done
check "Depends has systemd (the unit, sysusers, udev)" grep -qx systemd <<< "$(names "$depends")"
# Sources/Queue/Codecs/FFmpeg/FFmpegLibrary.swift dlopens libavutil, libavcodec and libavformat by soname: no
# NEEDED entry shows them, so they are recommended.
for lib in libavformat libavcodec libavutil; do
    check "Recommends has $lib<soname major>" grep -qxE "$lib[0-9]+" <<< "$(names "$recommends")"
done

# ---- reproducible ----------------------------------------------------------------------------------------------
echo "reproducible:"
if APPLIANCE_DEB_OUT=$work/again APPLIANCE_DEB_VERSION=$(field Version) "$repo/image/deb/build.sh" > "$work/again.log" 2>&1; then
    check "building again from this tree gives the same bytes (SOURCE_DATE_EPOCH; fails if the .deb is older than the tree)" \
        cmp "$deb" "$work/again/$(basename "$deb")"
else
    fail "the second build failed (log: $work/again.log)"
fi

echo
if ((${#failures[@]})); then
    echo "deb-check: ${#failures[@]} FAILED:"; printf '  - %s\n' "${failures[@]}"
    exit 1
fi
echo "deb-check: all checks passed"
