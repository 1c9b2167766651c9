#!/usr/bin/python3
"""Where Image Gallery's memory goes (issue 10): `/usr/bin/python3 Tests/benchmarks/memory_breakdown.py`.

Launches the app as `versus_gthumb.py` does (the same photos, home and window: `--count 10000` by default, the
release build if present), waits until the first screen is painted, and prints the resident memory by kind, from
/proc/PID/smaps: the heap (malloc's main arena and the threads' arenas), thread stacks, each shared library's
pages (code and data), SysV/memfd shared memory (X SHM images), and the rest. Then it holds Page Down through the
whole gallery (`--sweep`, default on; `--no-sweep` to skip) and prints the same again, with the peak (VmHWM).
`--launches N` launches it N times in a row, leaving between them what the app keeps of its past reads and writes
of the library (as `versus_gthumb.py`'s runs do), and prints each launch's first screen.
The decoded pictures are kept within 192 MB (`ImageLoader.byteBudget`); cairo-xlib keeps a copy of each picture it
has painted in SysV shared memory for the X server (MIT-SHM), which shows here as shared memory.
"""
import argparse
import collections
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "e2e"))

import versus_gthumb as vg  # noqa: E402


def breakdown(pid):
    """{kind: KiB resident} from /proc/PID/smaps."""
    kinds = collections.Counter()
    name = None
    with open("/proc/%d/smaps" % pid) as smaps:
        for line in smaps:
            head = re.match(r"^[0-9a-f]+-[0-9a-f]+ \S+ \S+ \S+ \S+\s*(.*)$", line)
            if head:
                name = kind_of(head.group(1).strip())
            elif line.startswith("Rss:"):
                kinds[name] += int(line.split()[1])
    return kinds


def kind_of(path):
    if path == "[heap]":
        return "heap (main arena)"
    if path == "":
        return "anonymous (thread arenas, large allocations, stacks)"
    if path.startswith("[stack"):
        return "main thread stack"
    if path.startswith("/SYSV") or path.startswith("/memfd") or path.startswith("/dev/shm"):
        return "shared memory (MIT-SHM: cairo's copies of pictures for the X server)"
    if path.startswith("["):
        return "kernel ([vdso], [vvar])"
    base = os.path.basename(path)
    for prefix in ("libicu", "libswift", "libFoundation", "libgtk", "libgdk", "libglib", "libgio", "libgobject",
                   "libcairo", "libpango", "libharfbuzz", "libfreetype", "libfontconfig", "libpixman", "libX",
                   "libxcb", "libcurl", "librsvg", "libatk", "libatspi", "libdbus", "libjpeg", "libpng", "libz"):
        if base.startswith(prefix):
            return "library " + prefix + "*"
    if base == "image-gallery":
        return "the executable"
    if base.endswith(".cache") or "fontconfig" in path or path.endswith(".ttf") or path.endswith(".otf"):
        return "fonts and font caches"
    if ".so" in base:
        return "other libraries"
    return "other files (%s)" % base


def show(title, pid):
    kinds = breakdown(pid)
    total = sum(kinds.values())
    print("%s: RSS %.0f MiB, peak (VmHWM) %.0f MiB" % (title, total / 1024, vg.memory_mb(pid, "VmHWM")))
    for kind, kib in kinds.most_common():
        if kib >= 512:
            print("  %7.1f MiB  %s" % (kib / 1024, kind))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--count", type=int, default=10000)
    parser.add_argument("--no-sweep", dest="sweep", action="store_false")
    parser.add_argument("--launches", type=int, default=1)
    parser.add_argument("--binary", default=os.environ.get("IMAGE_GALLERY_BIN") or next(
        (p for p in (".build/release/image-gallery", ".build/debug/image-gallery") if os.path.exists(p)), None))
    args = parser.parse_args()
    if not args.binary:
        sys.exit("no app binary: build it (swift build -c release) or set IMAGE_GALLERY_BIN")
    args.binary = os.path.abspath(args.binary)
    vg.run_alone()
    vg.setup()
    bench = vg.Bench(argparse.Namespace(count=args.count, fresh=False, binary=args.binary, artifacts=None, runs=1))
    bench.prepare()
    app = bench.ours
    for launch in range(1, args.launches + 1):
        with vg.Session() as session:
            try:
                started = app.launch(session.desktop, session.screen, vg.SIZE)
                bench.painted(session, app, started, "first screen", timeout=120)
                show("launch %d of %d, first screen painted" % (launch, args.launches), app.proc.pid)
                if args.sweep and launch == args.launches:
                    app.focus(session.screen)
                    bench.sweep(session, app)
                    show("after Page Down through all %d" % args.count, app.proc.pid)
            finally:
                app.stop()


if __name__ == "__main__":
    main()
