#!/usr/bin/env bash
# `make test-image`: the checks of what users flash, cheapest first: the overlays' checks (image/overlays/check.sh),
# the package's checks (image/deb/check.sh), then the SD-card image booted under QEMU's raspi3b
# (image/rpi/boot-test.sh). The uncompressed image is built first (part C's image/rpi/build.sh raw) if it is missing
# or older than one of its inputs.
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
    # Part C's raw image (image/rpi/build.sh raw -> .build-image/appliance-$BOARD.img), rebuilt only when an input
    # is newer than it: the aarch64 binary, the package, the image's scripts, the overlays, the board files, the unit.
    board=${BOARD:-waveshare-wm8960}
    image=.build-image/appliance-$board.img
    build=image/rpi/build.sh
    newer=""
    if [[ -f $image ]]; then
        newer=$(find .build-arm/bin/appliance-static .build-deb image/rpi image/overlays image/service board-configs \
            -newer "$image" -type f 2>/dev/null | head -1)
    fi
    if [[ ! -f $image || -n $newer ]]; then
        [[ -x $build ]] || die "no $build (make image) in this tree: nothing to boot; or set BOOT_TEST_IMAGE=FILE"
        stage "the uncompressed image ($build raw, BOARD=$board${newer:+; newer input: $newer})"
        image/host-deps.sh image
        BOARD=$board "$build" raw || die "$build raw failed"
    else
        printf 'test-image: %s is newer than its inputs: booting it as it is\n' "$image" >&2
    fi
fi
[[ -f $image ]] || die "no image at '$image'"
image/rpi/boot-test.sh "$image"
