#!/usr/bin/env python3
"""Reads a Raspberry Pi boot partition's config.txt the way the GPU firmware does on a Pi 3 Model B, for the boot
smoke test (QEMU's raspi3b runs no GPU firmware, so the test must do the firmware's part itself).

Usage: firmware-config.py BOOT_DIR      (BOOT_DIR holds config.txt and the files it includes, copied out with mtools)
Prints shell-safe lines, one fact each:
    kernel=FILE  initramfs=FILE  device_tree=FILE  cmdline=FILE  overlay=NAME (each, in order)
    ignored=WHAT (each directive the test cannot apply, said aloud rather than dropped)

The rules, from the Raspberry Pi documentation "config.txt" (raspberrypi.com/documentation/computers/config_txt):
- conditional sections: [all] applies everywhere; [pi3] to the Pi 3 family (QEMU's raspi3b is a Pi 3 Model B);
  [pi3+], [pi4], [pi400], [pi5], [cm4], [cm5], [pi0], [pi0w], [pi02], [pi1], [pi2], [none] do not apply; other filters
  (EDID, gpio, serial number, HDMI port) cannot be evaluated here and are treated as not applying, reported;
- `include FILE` reads FILE in place (Debian's config.txt ends with `include appliance.txt` in this project);
- `kernel=`, `initramfs FILE [followkernel|addr]` (no equals sign), `device_tree=`, `cmdline=` (default cmdline.txt),
  `os_prefix=` (prepended to kernel, initramfs, device tree and cmdline), `overlay_prefix=` (default overlays/);
- `dtoverlay=NAME[,param=value...]` loads overlays/NAME.dtbo (parameters after the comma set the overlay's
  __overrides__, which fdtoverlay cannot apply: reported); `dtparam=` sets base-tree parameters (Debian's upstream
  device trees have no __overrides__: reported);
- the device tree for a Pi 3 Model B is bcm2710-rpi-3-b.dtb, or with `upstream_kernel=1` the upstream name
  bcm2837-rpi-3-b.dtb, unless `device_tree=` names one; the 64-bit kernel default is kernel8.img.
"""
import os
import re
import shlex
import sys

APPLYING = {"all", "pi3"}
NOT_APPLYING = {"pi1", "pi2", "pi3+", "pi4", "pi400", "pi5", "pi500", "cm4", "cm4s", "cm5", "pi0", "pi0w", "pi02",
                "none"}


def main():
    boot = sys.argv[1]
    out = []
    settings = {}
    overlays = []
    ignored = []

    def read(name, depth):
        path = os.path.join(boot, name)
        if depth > 4:
            sys.exit(f"firmware-config: include nesting too deep at {name}")
        if not os.path.exists(path):
            sys.exit(f"firmware-config: {name} is named in config.txt but is not on the boot partition")
        active = True
        for raw in open(path, encoding="utf-8", errors="replace"):
            line = raw.split("#", 1)[0].strip()
            if not line:
                continue
            m = re.fullmatch(r"\[(.+)\]", line)
            if m:
                section = m.group(1).strip().lower()
                if section in APPLYING:
                    active = True
                elif section in NOT_APPLYING:
                    active = False
                else:
                    active = False
                    ignored.append(f"section [{section}] (a filter the test cannot evaluate; treated as not a Pi 3 B)")
                continue
            if not active:
                continue
            if line.startswith("include "):
                read(line.split(None, 1)[1].strip(), depth + 1)
                continue
            if line.startswith("initramfs "):
                settings["initramfs"] = line.split()[1]
                continue
            if "=" not in line:
                ignored.append(line)
                continue
            key, value = (s.strip() for s in line.split("=", 1))
            if key == "dtoverlay":
                name, _, params = value.partition(",")
                if name:
                    overlays.append(name)
                if params:
                    ignored.append(f"dtoverlay parameters {name}:{params} (fdtoverlay cannot set __overrides__)")
            elif key == "dtparam":
                ignored.append(f"dtparam={value} (the upstream device tree has no __overrides__)")
            else:
                settings[key] = value

    read("config.txt", 0)
    prefix = settings.get("os_prefix", "")
    upstream = settings.get("upstream_kernel", "0") == "1"
    dtb = settings.get("device_tree") or ("bcm2837-rpi-3-b.dtb" if upstream else "bcm2710-rpi-3-b.dtb")
    out.append(("kernel", prefix + settings.get("kernel", "kernel8.img")))
    if "initramfs" in settings:
        out.append(("initramfs", prefix + settings["initramfs"]))
    out.append(("device_tree", prefix + dtb))
    out.append(("cmdline", prefix + settings.get("cmdline", "cmdline.txt")))
    overlay_prefix = settings.get("overlay_prefix", "overlays/")
    for name in overlays:
        out.append(("overlay", f"{prefix}{overlay_prefix}{name}.dtbo"))
    for what in ignored:
        out.append(("ignored", what))
    for key, value in out:
        print(f"{key}={shlex.quote(value)}")


if __name__ == "__main__":
    main()
