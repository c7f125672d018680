#!/usr/bin/env bash
# Runs inside the system rig's trixie environment: builds gpio-sim (with the irq_sim helper it needs linked
# in), i2c-stub and snd-dummy out of tree, from the sources in Debian's linux-source package, against the
# kernel's headers, with the compiler the kernel was built with. Needs KVER (e.g. 6.12.48+deb13-arm64) and
# KERNEL_SERIES. Leaves the .ko files in /modules-build.
set -euo pipefail
say() { echo "build-modules: $*"; }
headers=/usr/src/linux-headers-$KVER
[[ -f $headers/Makefile ]] || { say "no kernel headers at $headers"; exit 1; }
cc=aarch64-linux-gnu-gcc-14
command -v $cc >/dev/null || { say "$cc missing"; exit 1; }

# The few source files, from the tarball inside linux-source (it is the same upload as the kernel).
work=/modules-build
rm -rf "$work" /tmp/linux-source; mkdir -p "$work" /tmp/linux-source
dpkg-deb -x /debs/linux-source-"$KERNEL_SERIES"_*.deb /tmp/linux-source
tarball=/tmp/linux-source/usr/src/linux-source-$KERNEL_SERIES.tar.xz
top=linux-source-$KERNEL_SERIES
say "extracting gpio-sim.c, irq_sim.c, i2c-stub.c, dummy.c from $(basename "$tarball")"
tar -xJf "$tarball" -C /tmp/linux-source "$top/drivers/gpio/gpio-sim.c" "$top/drivers/gpio/gpiolib.h" \
    "$top/kernel/irq/irq_sim.c" "$top/drivers/i2c/i2c-stub.c" "$top/sound/drivers/dummy.c"
src=/tmp/linux-source/$top
cp "$src/drivers/gpio/gpio-sim.c" "$work/gpio-sim-core.c"
cp "$src/drivers/gpio/gpiolib.h" "$work/gpiolib.h"
cp "$src/drivers/i2c/i2c-stub.c" "$work/i2c-stub.c"
cp "$src/sound/drivers/dummy.c" "$work/dummy.c"
# irq_to_desc() is not exported to modules; generic_handle_irq() does the same for a mapped interrupt.
sed 's/handle_simple_irq(irq_to_desc(\([a-z_]*\)))/generic_handle_irq(\1)/' "$src/kernel/irq/irq_sim.c" > "$work/irq_sim.c"
grep -q 'irq_to_desc' "$work/irq_sim.c" && { say "irq_sim.c still calls irq_to_desc: the patch no longer applies"; exit 1; }
rm -rf /tmp/linux-source

cat > "$work/Kbuild" <<'KBUILD'
obj-m := gpio-sim.o i2c-stub.o snd-dummy.o
gpio-sim-y := gpio-sim-core.o irq_sim.o
snd-dummy-y := dummy.o
KBUILD
say "building against $headers"
make -C "$headers" M="$work" ARCH=arm64 CROSS_COMPILE=aarch64-linux-gnu- CC=$cc -j2 modules
for m in gpio-sim i2c-stub snd-dummy; do
    [[ -f $work/$m.ko ]] || { say "$m.ko was not built"; exit 1; }
    say "$m.ko: $(modinfo -F vermagic "$work/$m.ko")"
done
