#!/usr/bin/env bash
# `make test-image`: the checks of what users flash, cheapest first: the overlays' checks (image/overlays/check.sh),
# the package's checks (image/deb/check.sh), then the SD-card image booted under QEMU's raspi3b
# (image/rpi/boot-test.sh). The uncompressed image is built first if it is missing or stale (the image build is
# cached by its inputs, so an unchanged tree costs a few seconds).
#
# Usage: image/rpi/test-image.sh           Environment: BOOT_TEST_IMAGE=FILE boots FILE instead (nothing is built).
# Why a script rather than Make prerequisites: the image build decides itself what is stale (its cache keys), and a
# check script another part has not delivered yet is a clear line here, not a Make error.
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
    build=image/rpi/build.sh
    [[ -x $build ]] || die "no $build (make image) in this tree: nothing to boot; or set BOOT_TEST_IMAGE=FILE"
    stage "the uncompressed image ($build --raw)"
    image=$("$build" --raw) || die "$build --raw failed"
fi
[[ -f $image ]] || die "no image at '$image'"
image/rpi/boot-test.sh "$image"
