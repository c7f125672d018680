#!/usr/bin/env python3
# The modules a guest loads, decompressed (busybox insmod takes plain .ko files), and for each top-level module
# the files to insert in order: its dependencies (modules.dep lists them nearest first, so they load last to
# first), then it. Usage: collect-modules.py MODULES_TREE TARGET_DIR NAME... (writes TARGET_DIR/order).
import lzma, os, shutil, sys
tree, target, wanted = sys.argv[1], sys.argv[2], sys.argv[3:]
deps = {}
for line in open(os.path.join(tree, "modules.dep")):
    path, _, rest = line.partition(":")
    deps[path] = rest.split()
by_name = {os.path.basename(p).split(".ko")[0].replace("_", "-"): p for p in deps}
order = []
for name in wanted:
    path = by_name.get(name)
    if path is None:
        sys.exit(f"module {name} is not in {tree}/modules.dep")
    for p in list(reversed(deps[path])) + [path]:
        base = os.path.basename(p).split(".ko")[0]
        out = os.path.join(target, base + ".ko")
        if not os.path.exists(out):
            src = os.path.join(tree, p)
            if p.endswith(".xz"):
                with lzma.open(src) as f, open(out, "wb") as o: o.write(f.read())
            else:
                shutil.copyfile(src, out)
        order.append(f"{name} {base}.ko")
open(os.path.join(target, "order"), "w").write("\n".join(order) + "\n")
print(f"modules: {', '.join(wanted)} with {len(set(order)) - len(wanted)} dependencies", file=sys.stderr)
