#!/usr/bin/python3
"""What keeping originals costs: `/usr/bin/python3 Tests/benchmarks/keeping_drops.py [runs] --before BINARY`.

Two builds of the app each take the same drop, one after the other in every run (default 3 runs; which goes first
alternates): the build under
test ($IMAGE_GALLERY_BIN, else the release build if present, else debug), which hashes and keeps every dropped
image's bytes, and `--before`, a build of the commit before the library kept originals (1a756b9), which cached them
instead. Both start under Xvfb on an empty gallery in fresh XDG folders; the drop is a `text/uri-list` (a real XDND
drag) of 1,000 distinct JPEG photos (1024×768, about 270 kB each) from a loopback server.
Printed: how long the drop takes to land (from the end of the drag until state.json names all 1,000 images: the
app names an image only once it is decoded, kept and its thumbnail written), median and range for each build, and
the difference of the medians, and the processor time (user and system) the app took meanwhile, which a machine
busy with other work disturbs less than the time; then, for the keeping build, the disk the originals folder takes (`du -sB1`)
against the sum of the originals' bytes. Each drop starts after `sync`, on a disk with nothing left to write from
the runs before it. Not a test.
"""
import io
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

from PIL import Image

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "e2e"))
import harness  # noqa: E402
from drag_source import DragSource, target, uri_list  # noqa: E402

COUNT = 1000
# A build run under a wrapper (valgrind's callgrind, to count instructions) starts slowly.
START_TIMEOUT = int(os.environ.get("KEEPING_START_TIMEOUT", "60"))


def photos(count):
    """Distinct JPEGs with a photo's size and entropy: smooth gradients under fine noise, each its own."""
    rng = random.Random(31)
    bases = []
    for _ in range(8):
        base = Image.linear_gradient("L").resize((1024, 768)).convert("RGB")
        noise = Image.effect_noise((1024, 768), 40).convert("RGB")
        tint = Image.new("RGB", (1024, 768), tuple(rng.randrange(256) for _ in range(3)))
        bases.append(Image.blend(Image.blend(base, tint, 0.5), noise, 0.35))
    out = []
    for index in range(count):
        picture = bases[index % len(bases)].copy()
        picture.paste(tuple(rng.randrange(256) for _ in range(3)), (index % 1000, 0, index % 1000 + 24, 24))
        buffer = io.BytesIO()
        picture.save(buffer, "JPEG", quality=85)
        out.append(buffer.getvalue())
    return out


def landed_count(app):
    try:
        return len(app.image_urls(0))
    except (FileNotFoundError, IndexError, ValueError):
        return 0


def question(app, count):
    """The dialog asking before adding `count` images, if it shows now."""
    wanted = "Add %d images?" % count
    alerts = app.find_all(lambda a: a.role_name == "alert")
    return next((a for a in alerts if (a.name or "").replace(",", "").replace("\u202f", "") == wanted), None)


def cpu_seconds(pid):
    with open("/proc/%d/stat" % pid) as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def land(binary, desktop, work, urls):
    """Seconds from the end of the drag until state.json names every image, the processor time the app took
    meanwhile, and the app's data folder."""
    app = harness.App(None, {}, desktop=desktop, root=os.path.join(work, "app"), binary=binary)
    app.start(timeout=START_TIMEOUT)
    app.resize(900, 700)
    # Every run starts on a disk with nothing left to write: the build before keeping leaves its 270 MB of cached
    # downloads for the kernel to write later, which would otherwise land in whichever run comes next.
    os.sync()
    time.sleep(2)
    x, y, width, height = app.gallery().extents()
    cpu = cpu_seconds(app.proc.pid)
    with DragSource(desktop, [target("text/uri-list", uri_list(*urls))], workdir=os.path.join(work, "source")) as src:
        src.drag_into((x + width // 2, y + height // 3))
        src.wait_for("drag-end", timeout=60)
        start = time.monotonic()
    # Builds since the question came ask before adding more than 500 images: timed from the answer.
    asked = harness.wait_until(lambda: question(app, len(urls)) or (landed_count(app) > 0 and "landing"), 120, 0.1,
                               "the question or the first image")
    if asked != "landing":
        harness.press(app, asked, "Add")
        start = time.monotonic()
    harness.wait_until(lambda: landed_count(app) == len(urls), 900, 0.1, "the drop to land")
    seconds = time.monotonic() - start
    cpu = cpu_seconds(app.proc.pid) - cpu
    app.stop()
    return seconds, cpu, app.data_home


def disk_use(folder):
    used = int(subprocess.run(["du", "-sB1", folder], capture_output=True, text=True, check=True).stdout.split()[0])
    size = sum(os.path.getsize(os.path.join(d, f)) for d, _, files in os.walk(folder) for f in files)
    return used, size


def summary(values):
    return "%.1f s (%.1f–%.1f)" % (statistics.median(values), min(values), max(values))


def main():
    args = sys.argv[1:]

    def option(name, default=None):
        return args[args.index(name) + 1] if name in args else default

    before = option("--before")
    if before is None:
        sys.exit("--before BINARY: a build of the commit before keeping, e.g. 1a756b9")
    count = int(option("--count", COUNT))
    numbers = [a for i, a in enumerate(args) if a.isdigit() and (i == 0 or not args[i - 1].startswith("--"))]
    runs = int(numbers[0]) if numbers else 3
    binary = harness.benchmark_binary()
    # Further keeping builds to set beside the one under test (each `--also NAME=BINARY`).
    builds = [("keeping", binary)] + [tuple(args[i + 1].split("=", 1)) for i, a in enumerate(args) if a == "--also"]
    builds.append(("before", before))
    server = harness.ImageServer()
    data = photos(count)
    desktop = harness.start_desktop()
    work = tempfile.mkdtemp(prefix="gallery-keeping-")
    times = {name: [] for name, _ in builds}
    cpus = {name: [] for name, _ in builds}
    disk = []
    try:
        print("%s, %d runs of %d photos (%.0f MB in all)" % (
            ", ".join("%s: %s" % build for build in builds), runs, count, sum(map(len, data)) / 1e6))
        for run in range(runs):
            # Rotating which goes first: no build always meets a cold (or a busy) machine.
            shift = run % len(builds)
            for name, build in builds[shift:] + builds[:shift]:
                # Fresh addresses each time: no build finds them in a cache.
                urls = [server.add_file("/r%d-%s/%04d.jpg" % (run, name, i), photo, "image/jpeg")
                        for i, photo in enumerate(data)]
                seconds, cpu, data_home = land(build, desktop, os.path.join(work, "%s-%d" % (name, run)), urls)
                times[name].append(seconds)
                cpus[name].append(cpu)
                if name == "keeping":
                    disk.append(disk_use(os.path.join(data_home, "image-gallery", "originals")))
                print("run %d, %s: %.1f s, CPU %.1f s (load average %.1f)" % (
                    run + 1, name, seconds, cpu, os.getloadavg()[0]))
                sys.stdout.flush()
        plain = statistics.median(times["before"])
        print("| build | time to land | the app's processor time |")
        print("| --- | --- | --- |")
        for name, _ in builds:
            print("| %s | %s | %s |" % (name, summary(times[name]), summary(cpus[name])))
        for name, _ in builds[:-1]:
            print("%s adds %+.1f%% to the median time to land, %+.1f%% to the median processor time" % (
                name, 100 * (statistics.median(times[name]) / plain - 1),
                100 * (statistics.median(cpus[name]) / statistics.median(cpus["before"]) - 1)))
        for used, size in disk:
            print("originals: %d bytes on disk for %d bytes of images (%+.2f%%)" % (used, size, 100 * (used / size - 1)))
    finally:
        server.stop()
        harness.stop_desktop()
        # Every run's originals and thumbnails: gigabytes.
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
