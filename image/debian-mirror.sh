# Sourced by the scripts that fetch Debian packages (cross/arm.sh, system/system.sh, rpi/base.sh, deb/build.sh):
# the one way they find the Debian mirror. Needs the caller's `die`.

# The mirror the host's apt already uses for Debian (not its security archive): $APPLIANCE_DEBIAN_MIRROR if set;
# else apt's index targets; else, with no apt lists yet, the sources files themselves.
debian_mirror() {
    if [[ -n ${APPLIANCE_DEBIAN_MIRROR:-} ]]; then echo "$APPLIANCE_DEBIAN_MIRROR"; return; fi
    local site
    site=$(apt-get indextargets --format '$(SITE)|$(LABEL)' 2>/dev/null | awk -F'|' '$2 == "Debian" { print $1; exit }')
    if [[ -z $site ]]; then
        site=$(grep -hsoE '(URIs:|^deb)[[:space:]]+(\[[^]]*\][[:space:]]+)?https?://[^[:space:]]+/debian/?([[:space:]]|$)' \
                 /etc/apt/sources.list /etc/apt/sources.list.d/* | grep -v security | head -1 | awk '{print $NF}')
    fi
    [[ -n $site ]] || die "cannot find the Debian mirror in /etc/apt/sources.list*; set APPLIANCE_DEBIAN_MIRROR"
    echo "${site%/}"
}
