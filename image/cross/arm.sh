#!/usr/bin/env bash
# Cross-builds the appliance for aarch64 Debian trixie and runs its tests under qemu-aarch64-static.
#
# Usage: image/cross/arm.sh build   release binary, static and dynamic Swift runtime, into .build-arm/bin/
#        image/cross/arm.sh test    cross-build the test bundle and run it under qemu (non-zero if a test fails)
#        image/cross/arm.sh setup   only prepare the cached toolchain
#        image/cross/arm.sh shell   interactive shell inside the trixie build environment
#        image/cross/arm.sh run CMD run a command there (in /src, the repository)
#
# Why this way: the only aarch64 Swift runtime we can have is Debian trixie's swiftlang 6.0.3, and trixie's
# compiler needs glibc 2.38, which the bookworm host lacks. So the compiler runs in a trixie amd64 environment
# (made with mmdebstrap, entered with unshare + chroot) and targets an arm64 sysroot described to SwiftPM as a
# Swift SDK. Everything comes from Debian packages, from the Debian mirror the host's apt already uses.
#
# The toolchain is made once and cached in ${XDG_CACHE_HOME:-~/.cache}/appliance/arm/. Each stage (environment,
# sysroot, SDK) leaves a stamp holding the hash of its inputs (suite, package lists, layout version); a stage
# whose stamp is missing (interrupted) or differs (inputs changed) is made again, with the stages after it.
# Later runs only run `swift build`.
#
# Environment: APPLIANCE_DEBIAN_MIRROR overrides the mirror; XDG_CACHE_HOME moves the cache;
#              ARM_TEST_ARGS adds arguments to the Swift Testing run (e.g. "--filter Fixed824Tests");
#              ARM_TEST_CONFIG=debug builds the tests unoptimized (default: release with -enable-testing);
#              ARM_TEST_TIMEOUT (seconds, default 1800) stops a hung test run.
set -euo pipefail

# ---- inputs of the cached toolchain ------------------------------------------------------------------------------
# Each stage is keyed by a hash of its inputs (and of the stages before it): change one and that stage and the
# ones after it are made again; otherwise they are reused.
readonly SUITE=trixie
readonly SWIFT_VERSION=6.0.3                   # Debian's swiftlang; the arm64 runtime must match it exactly
readonly ENV_PACKAGES="swiftlang,libc6-dev,libstdc++-14-dev,pkgconf,ca-certificates,git,binutils-aarch64-linux-gnu"
#                      (binutils-aarch64-linux-gnu only for aarch64-linux-gnu-strip)
readonly SYSROOT_PACKAGES="libc6-dev,libstdc++-14-dev,libasound2-dev,libgpiod-dev,libi2c-dev,libedit-dev,\
libflac-dev,libmpg123-dev,libopusfile-dev,libopusenc-dev,libavformat-dev,libavcodec-dev,libavutil-dev"
#                          (the codec libraries of Queue/Codecs; FFmpeg's runtime is there for the tests under qemu)
readonly RUNTIME_PACKAGES="swiftlang libswiftlang"   # arm64; only their usr/libexec/swift/lib is kept
readonly TRIPLE=aarch64-unknown-linux-gnu
readonly SDK_ID=debian-trixie-aarch64            # the name `swift build --swift-sdk` takes
readonly ENV_LAYOUT=1 SYSROOT_LAYOUT=2 SDK_LAYOUT=1   # bump when the way a stage is made changes

input_hash() { printf '%s\n' "$@" | sha256sum | cut -c1-16; }
readonly ENV_KEY=$(input_hash "$ENV_LAYOUT" "$SUITE" "$SWIFT_VERSION" "$ENV_PACKAGES")
readonly SYSROOT_KEY=$(input_hash "$ENV_KEY" "$SYSROOT_LAYOUT" "$SYSROOT_PACKAGES" "$RUNTIME_PACKAGES" "$TRIPLE" "$SDK_ID")
readonly SDK_KEY=$(input_hash "$SYSROOT_KEY" "$SDK_LAYOUT")

# ---- paths -------------------------------------------------------------------------------------------------------
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cache_base=${XDG_CACHE_HOME:-$HOME/.cache}/appliance
cache=$cache_base/arm
root=$cache/root                                          # the trixie amd64 build environment
sdks_in_env=/opt/swift-sdks                               # where the SDK bundle lives, seen from inside
bundle_in_env=$sdks_in_env/$SDK_ID.artifactbundle
sysroot_in_env=$bundle_in_env/$TRIPLE/sysroot
sysroot=$root$sysroot_in_env                              # the arm64 sysroot, seen from the host
runtime_in_sysroot=/usr/libexec/swift/lib/swift/linux     # where libswiftlang puts the .so files, on the board too
logs=$cache/logs
out=$repo/.build-arm                                      # git-ignored (.build-*/)

say()  { printf '\033[1marm:\033[0m %s\n' "$*" >&2; }
die()  { printf 'arm: error: %s\n' "$*" >&2; exit 1; }
stage() { printf '\n\033[1m== arm: %s\033[0m\n' "$*" >&2; }

# ---- checks ------------------------------------------------------------------------------------------------------
[[ $(id -u) -eq 0 ]] || die "must run as root (mmdebstrap, unshare --mount and chroot need it); try: sudo $0 $*"
for tool in mmdebstrap unshare chroot flock dpkg-deb sha256sum; do
    command -v "$tool" >/dev/null || die "'$tool' not found: run image/host-deps.sh arm (installs mmdebstrap, qemu-user-static, file)"
done

# The Debian mirror the host's apt uses (its main archive, not security), unless overridden.
# shellcheck source=../debian-mirror.sh
source "$repo/image/debian-mirror.sh"

# Runs a command (bash script text) as root inside the trixie environment: a private mount namespace, /proc,
# /sys and /dev from the host, the repository at /src, and the git mirrors the host's system git config maps
# URLs to (url.<dir>.insteadOf), at the same paths and with the same setting, so SwiftPM resolves
# dependencies exactly as on the host.
in_env() {
    local script=$1
    local -a mirrors=()
    local line base
    : > "$root/etc/gitconfig"
    while read -r line; do                                  # "url.<base>.insteadof <value>"
        base=${line%%.insteadof *}; base=${base#url.}
        if [[ $base == /* && -d $base ]]; then
            mirrors+=("$base")
        fi
        git config --file "$root/etc/gitconfig" --add "url.$base.insteadOf" "${line#* }"
    done < <(git config --system --get-regexp '^url\..*\.insteadof$' 2>/dev/null || true)
    unshare --mount --propagation private -- bash -euo pipefail -c '
        root=$1 repo=$2 script=$3; shift 3
        mount -t proc proc "$root/proc"
        mount --rbind /sys "$root/sys"
        mount --rbind /dev "$root/dev"
        mkdir -p "$root/src" && mount --bind "$repo" "$root/src"
        for m in "$@"; do mkdir -p "$root$m" && mount --bind -o ro "$m" "$root$m"; done
        exec chroot "$root" /usr/bin/env -i HOME=/root TERM="${TERM:-dumb}" LANG=C.UTF-8 \
            PATH=/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin bash -euo pipefail -c "cd /src; $script"
    ' in-env "$root" "$repo" "$script" "${mirrors[@]}"
}

# Runs a long command with its whole output in a log; shows the lines matching a pattern as progress, and the
# log's tail if it fails.
logged() {
    local log=$1 pattern=$2; shift 2
    mkdir -p "$logs"
    local status=0
    "$@" > "$log" 2>&1 &
    local pid=$!
    tail -n +1 -F --pid="$pid" "$log" 2>/dev/null | grep --line-buffered -E "$pattern" \
        | grep --line-buffered -v 'unsandboxed as root' | cut -c1-150 >&2 || true
    wait "$pid" || status=$?
    if [[ $status -ne 0 ]]; then
        echo "---- last lines of $log ----" >&2; tail -n 25 "$log" >&2
    fi
    return "$status"
}

# True when a stage was finished with these inputs.
done_with() { [[ $(cat "$cache/$1.done" 2>/dev/null) == "$2" ]]; }

# ---- stage 1: the trixie amd64 build environment ------------------------------------------------------------------
make_env() {
    done_with env "$ENV_KEY" && return
    rm -f "$cache"/*.done
    local mirror; mirror=$(debian_mirror)
    stage "1/3 build environment: Debian $SUITE amd64 with swiftlang (~560 MB from $mirror)"
    rm -rf "$root"; mkdir -p "$root"
    logged "$logs/env.log" '^(I:|W:|E:|Get:|Fetched|Err:)' \
        mmdebstrap --verbose --variant=apt --architectures=amd64 --include="$ENV_PACKAGES" \
            "$SUITE" "$root" "$mirror" \
        || die "making the $SUITE environment failed (log: $logs/env.log): is $mirror reachable and does it carry $SUITE?"
    local version
    version=$(dpkg-query --admindir="$root/var/lib/dpkg" -W -f='${Version}' swiftlang)
    [[ $version == "$SWIFT_VERSION"-* ]] || die "$SUITE now has swiftlang $version, not $SWIFT_VERSION: update SWIFT_VERSION in $0"
    echo "$ENV_KEY" > "$cache/env.done"
}

# ---- stage 2: the arm64 sysroot with the Swift runtime -----------------------------------------------------------
make_sysroot() {
    done_with sysroot "$SYSROOT_KEY" && return
    rm -f "$cache/sdk.done"
    local mirror; mirror=$(debian_mirror)
    local version; version=$(dpkg-query --admindir="$root/var/lib/dpkg" -W -f='${Version}' swiftlang)
    stage "2/3 arm64 sysroot: C libraries and the Swift $version runtime (~450 MB from $mirror)"
    rm -rf "$sysroot"; mkdir -p "$sysroot"
    local debs=$cache/runtime-debs
    rm -rf "$debs"; mkdir -p "$debs"
    local pins=""
    for p in $RUNTIME_PACKAGES; do pins+=" $p=$version"; done
    # The extract variant only unpacks the packages (no arm64 code runs) and skips the merged-/usr links, which
    # the linker needs (/lib/aarch64-linux-gnu/libc.so.6): the setup hook makes them. The extract hook fetches
    # the Swift runtime packages with mmdebstrap's own arm64 apt configuration, without their dependencies
    # (a compiler's worth).
    logged "$logs/sysroot.log" '^(I:|W:|E:|Get:|Fetched|Err:)' \
        mmdebstrap --verbose --variant=extract --architectures=arm64 --include="$SYSROOT_PACKAGES" \
            --setup-hook='for d in bin sbin lib; do ln -s "usr/$d" "$1/$d"; done' \
            --extract-hook="cd '$debs' && APT_CONFIG=\$MMDEBSTRAP_APT_CONFIG apt-get download$pins" \
            "$SUITE" "$sysroot" "$mirror" \
        || die "making the arm64 sysroot failed (log: $logs/sysroot.log): is $mirror reachable, and has it swiftlang $version for arm64?"
    [[ -L $sysroot/lib ]] || die "the sysroot has no merged-/usr link /lib -> usr/lib"
    for deb in "$debs"/*.deb; do
        # Keep the Swift resources (modules, runtime, static libraries, clang headers); skip the tools' own
        # libraries (lldb, sourcekitd, LTO: ~500 MB).
        say "unpacking $(basename "$deb") (usr/libexec/swift/lib, without the tools' libraries)"
        dpkg-deb --fsys-tarfile "$deb" \
            | tar -x -C "$sysroot" --exclude='./usr/libexec/swift/lib/lib*' ./usr/libexec/swift/lib \
            || die "unpacking $deb failed"
    done
    rm -rf "$debs"
    [[ -f $sysroot$runtime_in_sysroot/libswiftCore.so && -d $sysroot/usr/libexec/swift/lib/swift_static ]] \
        || die "the arm64 Swift runtime is incomplete in $sysroot/usr/libexec/swift/lib"
    echo "$SYSROOT_KEY" > "$cache/sysroot.done"
}

# ---- stage 3: the SwiftPM Swift SDK description -----------------------------------------------------------------
make_sdk() {
    done_with sdk "$SDK_KEY" && return
    stage "3/3 Swift SDK $SDK_ID"
    local bundle=$root$bundle_in_env
    local version; version=$(dpkg-query --admindir="$root/var/lib/dpkg" -W -f='${Version}' swiftlang)
    cat > "$bundle/info.json" <<EOF
{
  "schemaVersion": "1.0",
  "artifacts": {
    "$SDK_ID": {
      "type": "swiftSDK",
      "version": "$version",
      "variants": [ { "path": "$TRIPLE" } ]
    }
  }
}
EOF
    cat > "$bundle/$TRIPLE/swift-sdk.json" <<EOF
{
  "schemaVersion": "4.0",
  "targetTriples": {
    "$TRIPLE": {
      "sdkRootPath": "sysroot",
      "swiftResourcesPath": "sysroot/usr/libexec/swift/lib/swift",
      "swiftStaticResourcesPath": "sysroot/usr/libexec/swift/lib/swift_static",
      "toolsetPaths": ["toolset.json"]
    }
  }
}
EOF
    # Only to quiet the driver's "Could not read SDKSettings.json" warning on every compile.
    printf '{ "Version": "%s", "CanonicalName": "%s" }\n' "$SWIFT_VERSION" "$SDK_ID" > "$bundle/$TRIPLE/sysroot/SDKSettings.json"
    # gold, the environment's default linker, cannot link arm64; lld can.
    cat > "$bundle/$TRIPLE/toolset.json" <<EOF
{
  "schemaVersion": "1.0",
  "swiftCompiler": { "extraCLIOptions": ["-use-ld=lld"] }
}
EOF
    echo "$SDK_KEY" > "$cache/sdk.done"
}

# Prepares the whole toolchain, each stage only if not done yet with the same inputs.
setup() {
    mkdir -p "$cache"
    make_env
    make_sysroot
    make_sdk
}

# ---- building and testing ----------------------------------------------------------------------------------------
readonly SDK_ARGS="--swift-sdks-path $sdks_in_env --swift-sdk $SDK_ID"
# pkg-config answers for the arm64 sysroot only (SwiftPM 6.0.3 honours PKG_CONFIG_PATH and _SYSROOT_DIR;
# the LIBDIR keeps the pkg-config command itself off the amd64 .pc files).
readonly PC_DIRS=$sysroot_in_env/usr/lib/aarch64-linux-gnu/pkgconfig:$sysroot_in_env/usr/share/pkgconfig
readonly PKG_ENV="PKG_CONFIG_SYSROOT_DIR=$sysroot_in_env PKG_CONFIG_PATH=$PC_DIRS PKG_CONFIG_LIBDIR=$PC_DIRS"
# A dynamically linked binary looks for the Swift runtime where Debian's libswiftlang installs it (on the board,
# and in the sysroot under qemu), not where the toolchain's copy happens to be.
readonly DYNAMIC_FLAGS="-Xswiftc -no-toolchain-stdlib-rpath -Xlinker -rpath -Xlinker $runtime_in_sysroot"
readonly PRODUCT=appliance

# swift build for aarch64 inside the environment, into .build-arm/<scratch>.
cross_build() {
    local scratch=$1; shift
    in_env "export $PKG_ENV; swift build $SDK_ARGS --scratch-path /src/.build-arm/$scratch $*" \
        || die "swift build for aarch64 failed (.build-arm/$scratch)"
}

need_qemu() {
    command -v qemu-aarch64-static >/dev/null \
        || die "qemu-aarch64-static is not installed, so the aarch64 tests cannot run: apt-get install qemu-user-static (or run image/host-deps.sh arm)"
}

# Runs an aarch64 program under qemu-user with the sysroot as its root for libraries (no binfmt needed).
qemu() { QEMU_LD_PREFIX=$sysroot qemu-aarch64-static "$@"; }

human_size() { numfmt --to=iec --suffix=B --format='%.1f' "$(stat -c %s "$1")"; }

# `build`: the release binary twice, with the Swift runtime linked statically and dynamically, stripped copies
# in .build-arm/bin/.
build() {
    stage "building $PRODUCT for aarch64: release, dynamic Swift runtime (.build-arm/dynamic)"
    cross_build dynamic -c release --product "$PRODUCT" "$DYNAMIC_FLAGS"
    stage "building $PRODUCT for aarch64: release, static Swift runtime (.build-arm/static)"
    cross_build static -c release --product "$PRODUCT" --static-swift-stdlib
    mkdir -p "$out/bin"
    in_env "aarch64-linux-gnu-strip -o /src/.build-arm/bin/$PRODUCT /src/.build-arm/dynamic/release/$PRODUCT
            aarch64-linux-gnu-strip -o /src/.build-arm/bin/$PRODUCT-static /src/.build-arm/static/release/$PRODUCT"
    stage "aarch64 binaries"
    local variant f
    for variant in dynamic static; do
        f=$out/bin/$PRODUCT; [[ $variant == static ]] && f+=-static
        printf '  %-32s %8s stripped (%s unstripped), %s Swift runtime\n' "${f#"$repo"/}" "$(human_size "$f")" \
            "$(human_size "$out/$variant/release/$PRODUCT")" "$variant" >&2
        printf '      %s\n' "$(file -b "$f" | cut -d, -f1-2,4)" >&2
        file -b "$f" | grep -q 'ARM aarch64' || die "$f is not an aarch64 binary"
    done
    if command -v qemu-aarch64-static >/dev/null; then
        for f in "$out/bin/$PRODUCT" "$out/bin/$PRODUCT-static"; do
            qemu "$f" --help >/dev/null || die "${f#"$repo"/} --help failed under qemu-aarch64-static"
        done
        say "both start under qemu-aarch64-static ('$PRODUCT --help')"
    else
        say "qemu-aarch64-static not installed: binaries not started (apt-get install qemu-user-static)"
    fi
    say "the dynamic one needs Debian trixie's libswiftlang $(swift_version) on the board; the static one only glibc >= 2.38"
}

swift_version() { dpkg-query --admindir="$root/var/lib/dpkg" -W -f='${Version}' swiftlang; }

# `test`: the test bundle, built for aarch64, run under qemu: Swift Testing first, then XCTest. Fails if either
# fails, if either crashes without its summary, or if no test ran at all.
test_arm() {
    need_qemu
    local config=${ARM_TEST_CONFIG:-release}
    local flags=$DYNAMIC_FLAGS
    # Release (optimized, as on the board, and faster under emulation) with @testable imports allowed.
    [[ $config == release ]] && flags+=" -Xswiftc -enable-testing"
    stage "building the tests for aarch64 ($config, .build-arm/tests)"
    cross_build tests -c "$config" --build-tests "$flags"
    local bundles=("$out/tests/$config"/*PackageTests.xctest)
    [[ -f ${bundles[0]} ]] || die "no test bundle (*PackageTests.xctest) in .build-arm/tests/$config: has the package test targets?"
    local bundle=${bundles[0]} log=$out/tests/arm-test.log
    local timeout=${ARM_TEST_TIMEOUT:-1800} st_status=0 xc_status=0

    # The tests' library prefix: only the sysroot's library and configuration trees. qemu-user looks every
    # absolute path up under the prefix first, so a prefix with its own dev/ makes ptys fail (the sysroot's
    # empty dev/ptmx: ENODEV), and one with its own tmp/ makes realpath(3) of a test's /tmp directory resolve
    # into the sysroot's tmp/ (ENOENT).
    local prefix=$cache/ld-prefix entry
    rm -rf "$prefix"; mkdir -p "$prefix"
    for entry in usr lib lib64 bin sbin etc; do
        [[ -e $sysroot/$entry ]] && ln -s "$sysroot/$entry" "$prefix/$entry"
    done

    stage "Swift Testing on aarch64 under qemu-aarch64-static ($(basename "$bundle"))"
    # SwiftPM's generated runner picks the library from this argument; `swift test` does the same.
    # Tests that start the appliance binary as a child need qemu for it too (no binfmt registration here).
    timeout "$timeout" env QEMU_LD_PREFIX="$prefix" APPLIANCE_LAUNCHER="$(command -v qemu-aarch64-static)" \
        APPLIANCE_SOURCE_ROOT="$repo" qemu-aarch64-static "$bundle" --testing-library swift-testing ${ARM_TEST_ARGS:-} 2>&1 | tee "$log.swift-testing" || st_status=$?
    stage "XCTest on aarch64 under qemu-aarch64-static"
    timeout "$timeout" env QEMU_LD_PREFIX="$prefix" APPLIANCE_LAUNCHER="$(command -v qemu-aarch64-static)" \
        APPLIANCE_SOURCE_ROOT="$repo" qemu-aarch64-static "$bundle" > "$log.xctest" 2>&1 || xc_status=$?

    # Count: Swift Testing's closing line "Test run with N tests passed/failed ..."; its failed tests are the
    # "✘ Test name() failed after" lines. XCTest's closing "Executed N tests, with M failures" (M counts failed
    # assertions), its failed tests the "Test Case '...' failed" lines.
    local st_summary st_total st_failed xc_summary xc_total xc_failed
    st_summary=$(grep -a 'Test run with [0-9]* tests\? ' "$log.swift-testing" | tail -1 || true)
    st_total=$(sed -nE 's/.*Test run with ([0-9]+) tests? .*/\1/p' <<< "$st_summary")
    st_failed=$(grep -aE '^[^ ]+ Test .* failed after' "$log.swift-testing" | grep -vac ' Test run with ' || true)
    xc_summary=$(grep -a 'Executed [0-9]* tests\?, with' "$log.xctest" | tail -1 || true)
    xc_total=$(sed -nE 's/.*Executed ([0-9]+) tests?, with ([0-9]+) failures?.*/\1/p' <<< "$xc_summary")
    xc_failed=$(grep -acE "^Test Case '.*' failed" "$log.xctest" || true)
    # XCTest prints its output only when it has tests (or something went wrong); an empty run is one line.
    if [[ ${xc_total:-0} -gt 0 || $xc_status -ne 0 || -z $xc_summary ]]; then
        cat "$log.xctest"
    else
        echo "(no XCTest tests: $(sed 's/^[[:space:]]*//' <<< "$xc_summary"))"
    fi

    [[ $st_status -eq 124 || $xc_status -eq 124 ]] && die "the aarch64 test run took over ${timeout}s and was stopped (ARM_TEST_TIMEOUT)"
    [[ -n $st_total ]] || die "Swift Testing printed no summary on aarch64 (exit status $st_status): crashed? see $log.swift-testing"
    [[ -n $xc_total ]] || die "XCTest printed no summary on aarch64 (exit status $xc_status): crashed? see $log.xctest"
    local total=$((st_total + xc_total)) failed=$((st_failed + xc_failed))
    stage "aarch64 results: Swift Testing $st_total tests ($st_failed failed), XCTest $xc_total tests ($xc_failed failed)"
    if [[ $st_status -ne 0 || $xc_status -ne 0 ]] && [[ $failed -eq 0 ]]; then
        failed=1                               # a failure we could not attribute to a test still fails the run
    fi
    echo "arm64: $((total - failed)) passed, $failed failed"
    [[ $total -gt 0 ]] || die "no test ran on aarch64"
    [[ $st_status -eq 0 && $xc_status -eq 0 && $failed -eq 0 ]] \
        || die "tests failed on aarch64 (Swift Testing exit $st_status, XCTest exit $xc_status)"
}

# ---- main ----------------------------------------------------------------------------------------------------
# (A function, called on the last line, so that bash has read the whole file before running: editing the script
# while it runs cannot change what runs.)
main() {
    local cmd=${1:-build}
    mkdir -p "$cache_base"
    exec 9> "$cache_base/arm.lock"         # one run at a time: they share the toolchain and .build-arm
    flock 9 || die "cannot lock $cache_base/arm.lock"
    local started=$SECONDS
    case $cmd in
    setup) setup ;;
    build) setup; build ;;
    test)  setup; test_arm ;;
    shell)
        setup
        in_env "export $PKG_ENV; echo 'inside the $SUITE environment; cross builds: swift build $SDK_ARGS'; exec bash -i" ;;
    run)
        shift; setup
        in_env "export $PKG_ENV; $*" ;;
    *) die "unknown command '$cmd' (build, test, setup, shell, run COMMAND)" ;;
    esac
    say "$cmd done in $((SECONDS - started)) s"
}

main "$@"; exit
