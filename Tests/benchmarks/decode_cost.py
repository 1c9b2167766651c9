"""What a dropped JPEG's decode costs in gdk-pixbuf, in instructions (valgrind --tool=callgrind), split by the size
the loader is told in `size-prepared`.

The photos are the first `--use` of `photo_set(--photos)` (the ones versus_gthumb.py's drop serves). Each variant
decodes them all with a `GdkPixbufLoader` in a process of its own under callgrind; a baseline process reads the
files and decodes nothing, and its count is taken off. Variants:
- box: what ImageDecoder asks for a drop (fitted into the x-large thumbnail's 512 px box): libjpeg picks the
  smallest DCT scale whose output still covers the box, and the loader scales that down bilinearly to the box;
- half, quarter: the loader told libjpeg's output size at DCT scale 1/2 or 1/4, so it scales nothing after;
- full: no size told.
So box − half is the loader's scaling pass, and half − quarter what one more DCT halving would save.

    /usr/bin/python3 Tests/benchmarks/decode_cost.py [--photos 10000] [--use 20]

Needs Debian's python3-gi and valgrind. Takes about a minute per variant for 20 photos.
"""
import argparse
import os
import re
import subprocess
import sys

VARIANTS = ["box", "half", "quarter", "full"]
BOX = 512


def decode(variant, paths):
    """Runs in the measured process: decodes every file as `variant` says."""
    import gi
    gi.require_version("GdkPixbuf", "2.0")
    from gi.repository import GdkPixbuf
    contents = [open(path, "rb").read() for path in paths]
    if variant == "baseline":
        return

    def prepared(loader, width, height):
        factor = min(BOX / width, BOX / height)
        if variant == "box" and factor < 1:
            loader.set_size(max(1, round(width * factor)), max(1, round(height * factor)))
        elif variant == "half":
            loader.set_size((width + 1) // 2, (height + 1) // 2)
        elif variant == "quarter":
            loader.set_size((width + 3) // 4, (height + 3) // 4)

    for data in contents:
        loader = GdkPixbuf.PixbufLoader()
        loader.connect("size-prepared", prepared)
        loader.write(data)
        loader.close()
        assert loader.get_pixbuf() is not None


def instructions(variant, paths):
    out = "/tmp/decode_cost.%d.%s.callgrind" % (os.getpid(), variant)
    try:
        result = subprocess.run(
            ["valgrind", "--tool=callgrind", "--callgrind-out-file=" + out, sys.executable, __file__,
             "--measured", variant] + paths, capture_output=True, text=True, check=True)
    finally:
        if os.path.exists(out):
            os.remove(out)
    return int(re.search(r"Collected : (\d+)", result.stderr).group(1))


def main():
    if len(sys.argv) > 2 and sys.argv[1] == "--measured":
        return decode(sys.argv[2], sys.argv[3:])
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--photos", type=int, default=10000, help="the photo set's size (default 10000)")
    parser.add_argument("--use", type=int, default=20, help="how many of its first photos to decode (default 20)")
    args = parser.parse_args()
    from photo_set import photo_set
    paths = photo_set(args.photos)[:args.use]
    baseline = instructions("baseline", paths)
    print("%d photos; instructions a photo, the baseline's %d taken off" % (len(paths), baseline))
    for variant in VARIANTS:
        print("%-8s %6.1f M" % (variant, (instructions(variant, paths) - baseline) / len(paths) / 1e6), flush=True)


if __name__ == "__main__":
    main()
