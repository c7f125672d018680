#!/usr/bin/env bash
# `make test-image`: the checks of what users flash, cheapest first: the overlays' checks (image/overlays/check.sh),
# the package's checks (image/deb/check.sh), its install, upgrade, remove and purge in the base root
# (image/deb/test-install.sh), then the SD-card image booted under QEMU's raspi3b
# (image/rpi/boot-test.sh). The uncompressed image is built first (image/rpi/build.sh raw) if it is missing or its
# inputs changed.
#
# Usage: image/rpi/test-image.sh     Environment: BOARD (the image's board, as make image), BOOT_TEST_IMAGE=FILE boots
#                                    FILE instead (nothing is built).
# Why a script rather than Make prerequisites: the image is a directory of inputs deep, and a check script another
# part has not delivered yet is a clear line here, not a Make error.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)

die()   { printf 'test-image: error: %s\n' "$*" >&2; exit 1; }
stage() { printf '\n\033[1m== test-image: %s\033[0m\n' "$*" >&2; }

cd "$repo"
for check in image/overlays/check.sh image/deb/check.sh; do
    if [[ -x $check ]]; then
        stage "$check"
        "$check" || die "$check failed"
    else
        printf 'test-image: %s is not in this tree: not run\n' "$check" >&2
    fi
done

image=${BOOT_TEST_IMAGE:-}
if [[ -z $image ]]; then
    # The package installed, upgraded, removed and purged in the image's configured base root (-M virt).
    image/host-deps.sh image
    stage "image/deb/test-install.sh"
    image/deb/test-install.sh || die "image/deb/test-install.sh failed"

    # The raw image (image/rpi/build.sh raw -> .build-image/appliance-$BOARD.img), rebuilt only when its inputs
    # changed: a hash of their contents (the package's bytes, reproducible for a commit; the image's scripts; the
    # board files, the overlays' generator, the unit) kept beside the image. Not file times: `make deb` rewrites
    # the same package on every run, and the boot test's own files are no input of the image.
    board=${BOARD:-waveshare-wm8960}
    image=.build-image/appliance-$board.img
    build=image/rpi/build.sh
    debs=(.build-deb/appliance_*_arm64.deb)
    [[ -f ${debs[0]} ]] || die "no package in .build-deb/ (make deb)"
    key=$( { echo "$board"; sha256sum "${debs[@]}" | cut -d' ' -f1
             cat image/rpi/build.sh image/rpi/configure.sh image/rpi/base.sh image/rpi/guest.sh \
                 image/rpi/check-layout.sh image/overlays/build.sh Sources/Board/Overlay/*.swift 2>/dev/null
             cat board-configs/*.yaml image/service/*; } | sha256sum | cut -c1-16)
    if [[ ! -f $image || $(cat "$image.key" 2>/dev/null) != "$key" ]]; then
        [[ -x $build ]] || die "no $build (make image) in this tree: nothing to boot; or set BOOT_TEST_IMAGE=FILE"
        stage "the uncompressed image ($build raw, BOARD=$board; inputs $key)"
        image/host-deps.sh image
        rm -f "$image.key"
        BOARD=$board "$build" raw || die "$build raw failed"
        echo "$key" > "$image.key"
    else
        printf 'test-image: %s was built from these inputs (%s): booting it as it is\n' "$image" "$key" >&2
    fi
fi
[[ -f $image ]] || die "no image at '$image'"
image/rpi/boot-test.sh "$image"
