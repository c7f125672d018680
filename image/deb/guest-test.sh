#!/bin/bash
# Runs INSIDE a trixie arm64 system (a QEMU guest, as root): installs the appliance package, upgrades it, removes
# it and purges it, checking the system after each step the way an admin would see it.
# Usage: guest-test.sh DEB_N DEB_N_PLUS_1
#        DEB_N_PLUS_1 is a later version of the same package (image/deb/test-install.sh builds both).
# The last line is "guest-deb: PASS" or "guest-deb: FAIL (<count>)", for the host side to read.
#
# What is expected, and from where:
# - dpkg's conffile handling (Debian policy 10.7.3, dpkg(1)): a conffile the admin changed is kept on upgrade when
#   the package's version of it did not change; it stays on remove, and goes on purge.
# - sysusers.d(5) and the package's contract: a system user "appliance" in audio, gpio, i2c, dialout.
# - deb-systemd-helper(1p): enabling = the WantedBy symlink in /etc/systemd/system/multi-user.target.wants/ and its
#   state file; purge removes both.
# - The package's policy (its postrm): purge removes settings.json but keeps recordings/ and media/ (user data)
#   and the user.
# Works with or without systemd as PID 1: systemctl is asked only when /run/systemd/system exists.
set -euo pipefail

[[ $# -eq 2 ]] || { echo "usage: $0 DEB_N DEB_N_PLUS_1" >&2; exit 2; }
deb_n=$1 deb_next=$2
for f in "$deb_n" "$deb_next"; do [[ -f $f ]] || { echo "guest-deb: error: no package at $f" >&2; exit 2; }; done
[[ $(id -u) -eq 0 ]] || { echo "guest-deb: error: must run as root" >&2; exit 2; }

failures=0
pass() { echo "  ok    $*"; }
fail() { echo "  FAIL  $*"; failures=$((failures + 1)); }
check() { local what=$1; shift; if "$@" >/dev/null 2>&1; then pass "$what"; else fail "$what"; fi; }
step() { echo; echo "== $*"; }

unit=appliance.service
wants=/etc/systemd/system/multi-user.target.wants/$unit
state=/var/lib/appliance
systemd_running=""; [[ -d /run/systemd/system ]] && systemd_running=1
version_of() { dpkg-deb -f "$1" Version; }
status_of() { dpkg-query -W -f='${db:Status-Abbrev}|${Version}' appliance 2>/dev/null || true; }
groups_of() { id -nG appliance 2>/dev/null | tr ' ' '\n'; }
# dpkg with its output kept; a failure shows it.
run_dpkg() {
    if ! dpkg "$@" > /tmp/guest-deb-dpkg.log 2>&1 < /dev/null; then
        sed 's/^/        /' /tmp/guest-deb-dpkg.log
        fail "dpkg $* failed (output above)"
        return 1
    fi
}

echo "guest-deb: $(uname -m), $(. /etc/os-release && echo "$PRETTY_NAME"), systemd ${systemd_running:+running}${systemd_running:-not running}"
check "the machine is arm64 (dpkg --print-architecture)" test "$(dpkg --print-architecture)" = arm64
check "the package is not installed yet" test -z "$(dpkg-query -W -f='${Status}' appliance 2>/dev/null | grep ' installed')"
check "version N+1 ($(version_of "$deb_next")) sorts after N ($(version_of "$deb_n"))" \
    dpkg --compare-versions "$(version_of "$deb_next")" gt "$(version_of "$deb_n")"

# The file system's paths (not contents), as piuparts compares them before install and after purge; what the
# kernel, runtime and logs make is left out.
snapshot() {
    find / -xdev \( -path /proc -o -path /sys -o -path /dev -o -path /run -o -path /tmp -o -path /var/tmp \
        -o -path /var/log -o -path /var/cache -o -path /var/lib/dpkg -o -path /root \) -prune -o -print \
        | LC_ALL=C sort
}
before_install=$(snapshot)

installed_checks() {   # VERSION
    check "dpkg: appliance $1 installed (ii)" test "$(status_of)" = "ii |$1"
    # (a conffile the admin changed is reported as changed, flagged "c": that one is expected)
    check "dpkg --verify: every file matches its md5sum" \
        test -z "$(dpkg --verify appliance 2>&1 | grep -v ' c /etc/default/appliance$')"
    check "user appliance exists, a system user (uid < 1000) with home $state" \
        bash -c "getent passwd appliance | awk -F: '\$3 < 1000 && \$6 == \"$state\" { ok = 1 } END { exit !ok }'"
    for group in gpio i2c; do check "group $group exists" getent group "$group"; done
    for group in audio gpio i2c dialout; do check "appliance is in group $group" grep -qx "$group" <<< "$(groups_of)"; done
    check "the unit is enabled: $wants -> /usr/lib/systemd/system/$unit" \
        test "$(readlink "$wants")" = "/usr/lib/systemd/system/$unit"
    if [[ -n $systemd_running ]]; then
        check "systemctl is-enabled $unit says enabled" test "$(systemctl is-enabled "$unit" 2>/dev/null)" = enabled
        echo "        (service state: $(systemctl is-active "$unit" 2>/dev/null || true); with no HAT here it may fail)"
    fi
    # The binary starts: every library it needs is installed (the Depends are complete).
    check "/usr/bin/appliance runs (appliance --help)" /usr/bin/appliance --help
    check "appliance board list shows the installed board files" \
        bash -c '/usr/bin/appliance board list 2>&1 | grep -q waveshare-wm8960'
    if command -v udevadm >/dev/null && udevadm verify --help >/dev/null 2>&1; then
        check "udevadm verify accepts 60-appliance.rules" udevadm verify /usr/lib/udev/rules.d/60-appliance.rules
    fi
    if [[ -d /boot/firmware/overlays ]] && compgen -G '/usr/share/appliance/overlays/*.dtbo' >/dev/null; then
        for dtbo in /usr/share/appliance/overlays/*.dtbo; do
            check "overlay $(basename "$dtbo") copied to /boot/firmware/overlays" cmp "$dtbo" "/boot/firmware/overlays/$(basename "$dtbo")"
        done
    fi
}

# ---- install N ---------------------------------------------------------------------------------------------------
step "install $(basename "$deb_n")"
if run_dpkg -i "$deb_n"; then
    installed_checks "$(version_of "$deb_n")"
    check "/etc/default/appliance is the packaged conffile" grep -qx APPLIANCE_BAUD=115200 /etc/default/appliance
fi
uid_before=$(id -u appliance 2>/dev/null || echo none)

# The admin's changes and the user's data, which the upgrade must keep.
sed -i 's/^APPLIANCE_BAUD=.*/APPLIANCE_BAUD=57600/' /etc/default/appliance
mkdir -p "$state/recordings" "$state/media"
echo '{"volume":40}' > "$state/settings.json"
echo "a recording" > "$state/recordings/take-1.wav"
echo "a track" > "$state/media/track.flac"

# ---- upgrade to N+1 ----------------------------------------------------------------------------------------------
step "upgrade to $(basename "$deb_next")"
if run_dpkg -i "$deb_next"; then
    installed_checks "$(version_of "$deb_next")"
    check "the admin's /etc/default/appliance is kept (APPLIANCE_BAUD=57600)" grep -qx APPLIANCE_BAUD=57600 /etc/default/appliance
    check "no .dpkg-new or .dpkg-dist beside it (no conffile prompt)" \
        test -z "$(ls /etc/default/appliance.dpkg-* 2>/dev/null)"
    check "the user kept its uid ($uid_before)" test "$(id -u appliance)" = "$uid_before"
    check "settings kept" test -f "$state/settings.json"
    check "recordings kept" test -f "$state/recordings/take-1.wav"
    check "media kept" test -f "$state/media/track.flac"
fi

# ---- an admin's disable survives an upgrade ---------------------------------------------------------------------
step "disable, then reinstall $(basename "$deb_next")"
systemctl disable "$unit" > /dev/null 2>&1 || fail "systemctl disable $unit failed"
if run_dpkg -i "$deb_next"; then
    check "the unit stays disabled (deb-systemd-helper was-enabled is false)" test ! -e "$wants"
fi
systemctl enable "$unit" > /dev/null 2>&1 || fail "systemctl enable $unit failed"

# ---- remove ------------------------------------------------------------------------------------------------------
step "remove"
if run_dpkg -r appliance; then
    check "dpkg: config-files only (rc)" test "$(status_of | cut -d'|' -f1)" = "rc "
    for path in /usr/bin/appliance /usr/lib/systemd/system/$unit /usr/lib/sysusers.d/appliance.conf \
                /usr/lib/modules-load.d/appliance.conf \
                /usr/lib/udev/rules.d/60-appliance.rules /usr/share/appliance /usr/share/doc/appliance; do
        check "$path is gone" test ! -e "$path"
    done
    check "/etc/default/appliance stays until purge (a conffile)" test -f /etc/default/appliance
    check "recordings and settings stay" test -f "$state/recordings/take-1.wav" -a -f "$state/settings.json"
    check "the user stays" getent passwd appliance
    if [[ -n $systemd_running ]]; then
        check "the service is not running" bash -c "! systemctl is-active --quiet $unit"
    fi
fi

# ---- purge -------------------------------------------------------------------------------------------------------
step "purge"
if run_dpkg -P appliance; then
    check "dpkg: not installed, nothing left" test -z "$(dpkg-query -W -f='${Status}' appliance 2>/dev/null | grep -v not-installed)"
    check "/etc/default/appliance is gone" test ! -e /etc/default/appliance
    check "the enablement is gone ($wants)" test ! -L "$wants"
    check "deb-systemd-helper's state is gone" \
        test -z "$(ls /var/lib/systemd/deb-systemd-helper-enabled/ 2>/dev/null | grep -F "$unit")"
    check "settings.json is gone (package state)" test ! -e "$state/settings.json"
    check "recordings are kept (user data)" test -f "$state/recordings/take-1.wav"
    check "media are kept (user data)" test -f "$state/media/track.flac"
    check "no appliance-*.dtbo left in /boot/firmware/overlays" test -z "$(ls /boot/firmware/overlays/appliance-*.dtbo 2>/dev/null)"
    check "the user stays (Debian practice: files may still be owned by it)" getent passwd appliance
    # What is left that was not there before the install: only the kept user data, the user's shadow backups
    # (/etc/passwd- and friends: the user stays), and the empty directories systemd's enablement and
    # deb-systemd-helper create (piuparts ignores those too).
    # (files, not <(...): the runner's /dev has no /dev/fd)
    echo "$before_install" > /tmp/guest-deb-before
    snapshot > /tmp/guest-deb-after
    new_paths=$(comm -13 /tmp/guest-deb-before /tmp/guest-deb-after)
    echo "        new since before the install: $(echo $new_paths)"
    leftovers=$(echo "$new_paths" | grep -vxE \
        '/var/lib/appliance(/recordings(/take-1\.wav)?|/media(/track\.flac)?)?|/etc/(passwd|group|shadow|gshadow)-|/etc/systemd/system/multi-user\.target\.wants|/var/lib/systemd/deb-systemd-helper-(enabled|masked)(/multi-user\.target\.wants)?|/var/lib/systemd' || true)
    if [[ -z $leftovers ]]; then
        pass "after purge nothing is left but the user's data and the user (file list before install vs now)"
    else
        fail "after purge these are left: $(echo $leftovers)"
    fi
fi

echo
if ((failures)); then echo "guest-deb: FAIL ($failures)"; exit 1; fi
echo "guest-deb: PASS"
