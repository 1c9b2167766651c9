#!/usr/bin/python3
"""Launching a library that keeps its originals: `/usr/bin/python3 Tests/benchmarks/kept_launch.py [runs] --before
BINARY [--count N]`.

One library of N distinct JPEG photos (default 10,000; 1024×768, about 270 kB each, as `keeping_drops.py` makes
them) in two layouts: as the build under test keeps it ($IMAGE_GALLERY_BIN, else the release build), each image with
its `original` and `origin` in state.json and its bytes under `originals/`; and as `--before`, a build of the commit
before the library kept originals (1a756b9), had it, the same addresses with their bytes in the download cache. No
server answers: each build reads only what it has on disk. Each build is launched once to make the first screen's
thumbnails, then `runs` times more (default 5), alternating which goes first. Printed per build, median and range:
the time from the start of the process until its first screen of cells shows loaded, the processor time the app
took until then, and the processor time it took in the 10 seconds after (what launch left to the background: the
clean-up that walks the originals). Then the library's disk use: `du -sB1` of the originals folder against the sum
of the originals' bytes. Not a test.
"""
import hashlib
import io
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time

from PIL import Image

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "e2e"))
import harness  # noqa: E402

COUNT = 10000


def photos(count):
    """Distinct JPEGs with a photo's size and entropy, yielded one at a time (10,000 of them are 2.7 GB)."""
    rng = random.Random(31)
    bases = []
    for _ in range(8):
        base = Image.linear_gradient("L").resize((1024, 768)).convert("RGB")
        noise = Image.effect_noise((1024, 768), 40).convert("RGB")
        tint = Image.new("RGB", (1024, 768), tuple(rng.randrange(256) for _ in range(3)))
        bases.append(Image.blend(Image.blend(base, tint, 0.5), noise, 0.35))
    for index in range(count):
        picture = bases[index % len(bases)].copy()
        x, y = index % 1000, 24 * (index // 1000)
        picture.paste(tuple(rng.randrange(256) for _ in range(3)), (x, y, x + 24, y + 24))
        buffer = io.BytesIO()
        picture.save(buffer, "JPEG", quality=85)
        yield buffer.getvalue()


def libraries(work, count):
    """The two apps' folders (kept, cached) holding the same images, and the originals' total bytes."""
    kept, cached = os.path.join(work, "kept"), os.path.join(work, "cached")
    originals = os.path.join(kept, "data", "image-gallery", "originals")
    cache = os.path.join(cached, "cache", "image-gallery")
    os.makedirs(cache)
    kept_images, cached_images, total = [], [], 0
    for index, data in enumerate(photos(count)):
        url = "http://127.0.0.1:9/photos/%05d.jpg" % index
        sha256 = hashlib.sha256(data).hexdigest()
        os.makedirs(os.path.join(originals, sha256[:2]), exist_ok=True)
        with open(os.path.join(originals, sha256[:2], sha256), "wb") as out:
            out.write(data)
        with open(os.path.join(cache, hashlib.sha256(url.encode()).hexdigest()), "wb") as out:
            out.write(data)
        total += len(data)
        image = {"id": "i%05d" % index, "url": url, "aspectRatio": 1024 / 768}
        cached_images.append(dict(image))
        image["original"] = {"sha256": sha256, "bytes": len(data), "width": 1024, "height": 768, "format": "jpeg"}
        image["origin"] = {"arrival": "drop", "added": "2026-11-27T01:00:00Z",
                           "page": "https://photos.example/album/%d" % (index // 100)}
        kept_images.append(image)
    for root, images in ((kept, kept_images), (cached, cached_images)):
        state = {"version": 1, "sidebarVisible": False, "galleries": [{"id": "g", "name": "Gallery", "images": images}]}
        folder = os.path.join(root, "data", "image-gallery")
        os.makedirs(folder, exist_ok=True)
        with open(os.path.join(folder, "state.json"), "w") as out:
            json.dump(state, out, indent=2)
    return kept, cached, originals, total


def cpu_seconds(pid):
    with open("/proc/%d/stat" % pid) as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def launch(binary, desktop, root):
    """Seconds from the start until the first screen shows loaded, the app's processor time until then, and in
    the 10 seconds after."""
    app = harness.App(None, {}, desktop=desktop, root=root, binary=binary)
    started = time.monotonic()
    app.start(timeout=120)
    app.wait_cells(lambda cells: cells and all(c.settled for c in cells), 120, what="the first screen loaded")
    seconds = time.monotonic() - started
    cpu = cpu_seconds(app.proc.pid)
    time.sleep(10)
    after = cpu_seconds(app.proc.pid) - cpu
    app.stop()
    return seconds, cpu, after


def summary(values, unit="s"):
    return "%.2f %s (%.2f–%.2f)" % (statistics.median(values), unit, min(values), max(values))


def main():
    args = sys.argv[1:]
    before = args[args.index("--before") + 1] if "--before" in args else None
    if before is None:
        sys.exit("--before BINARY: a build of the commit before keeping, e.g. 1a756b9")
    count = int(args[args.index("--count") + 1]) if "--count" in args else COUNT
    numbers = [a for i, a in enumerate(args) if a.isdigit() and (i == 0 or not args[i - 1].startswith("--"))]
    runs = int(numbers[0]) if numbers else 5
    binary = harness.benchmark_binary()
    work = tempfile.mkdtemp(prefix="gallery-kept-launch-")
    kept, cached, originals, total = libraries(work, count)
    builds = [("keeping", binary, kept), ("before", before, cached)]
    results = {name: [] for name, _, _ in builds}
    desktop = harness.start_desktop()
    try:
        print("%d photos (%.0f MB); keeping: %s, before: %s" % (count, total / 1e6, binary, before))
        for name, build, root in builds:
            launch(build, desktop, root)  # the first screen's thumbnails
        for run in range(runs):
            for name, build, root in builds if run % 2 == 0 else list(reversed(builds)):
                results[name].append(launch(build, desktop, root))
                print("run %d, %s: %.2f s, CPU %.2f s, CPU in the 10 s after %.2f s (load average %.1f)" % (
                    (run + 1, name) + results[name][-1] + (os.getloadavg()[0],)))
                sys.stdout.flush()
        print("| build | launch to first screen loaded | processor time until then | processor time in the 10 s after |")
        print("| --- | --- | --- | --- |")
        for name, _, _ in builds:
            seconds, cpu, after = zip(*results[name])
            print("| %s | %s | %s | %s |" % (name, summary(seconds), summary(cpu), summary(after)))
        used = int(subprocess.run(["du", "-sB1", originals], capture_output=True, text=True,
                                  check=True).stdout.split()[0])
        print("originals: %d bytes on disk for %d bytes of images (%+.2f%%)" % (used, total, 100 * (used / total - 1)))
    finally:
        harness.stop_desktop()
        subprocess.run(["rm", "-rf", work], check=False)


if __name__ == "__main__":
    main()
