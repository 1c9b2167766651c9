#!/usr/bin/python3
"""An animation's memory and its first frame in the viewer (issue 47):
`/usr/bin/python3 Tests/benchmarks/animation_memory.py [runs]` (runs: 3 unless given; the binary is
IMAGE_GALLERY_BIN, else the release build if present, else the debug build).

Memory: each run starts the app afresh under Xvfb on a gallery of one 300×300 GIF of 5000 frames of 20 ms (each
frame one colour of its own, as in test_animation.py's 5000-frame test, made in palette mode), reads the app's
resident memory (VmRSS of /proc/<pid>/status) once the gallery has settled (the baseline), opens the GIF in the viewer
(Home, Return) and lets it play 60 s. Memory is read ten times a second for the peak and kept once a second for the
slope: a least-squares line through the last 40 s, in MiB per minute (flat: about 0). Which frame shows is read off
the viewer's centre once a second, to show it played (on time, frame 3000 shows after 60 s).

First frame: one app on a gallery of a 1000×1000 animated GIF (20 frames of 100 ms) and a 1000×1000 still PNG whose
centres are the same one-pixel black and white checkerboard, in a window large enough to show them at 1:1. Each run
opens the GIF (Home, Return) and the PNG (End, Return), alternating, and times from the Return key to the
checkerboard sharp in the viewer's centre, sampled with the harness's `grab` (a few milliseconds a sample): the cell's
picture the viewer shows meanwhile is smaller than the image, so its checkerboard is a flat grey until the decode
of the image itself is painted. Before the runs, each image is opened once untimed (files in the page cache).

Reported: each run's figures, their median and range, and the load average. Not a test: timings go here.
"""
import collections
import io
import os
import statistics
import sys
import tempfile
import time

from PIL import Image

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "e2e"))
import harness  # noqa: E402

BUDGET_MIB = 64
PLAY_SECONDS = 60
SLOPE_SECONDS = 40
SIDE = 1000
GIF_FRAMES = 20


def numbered_colour(index):
    """A colour of its own for each of 5120 frames: 16 steps of red and green, 20 of blue (test_animation.py's)."""
    return (index % 16 * 16 + 8, index // 16 % 16 * 16 + 8, index // 256 * 12 + 8)


def long_gif_bytes(frames=5000, side=300, delay=20):
    """test_animation.py's 5000-frame GIF, its frames made in palette mode: one index, a palette of its colour."""
    images = []
    for i in range(frames):
        image = Image.new("P", (side, side), 0)
        image.putpalette(numbered_colour(i))
        images.append(image)
    out = io.BytesIO()
    images[0].save(out, "GIF", save_all=True, append_images=images[1:], duration=delay, loop=0, optimize=False)
    return out.getvalue()


def checkerboard(frame):
    """A SIDE×SIDE palette image: a one-pixel black and white checkerboard, and a red square in a corner that
    stands somewhere else in each frame, so that no two frames are alike."""
    even, odd = bytes([0, 1]) * (SIDE // 2), bytes([1, 0]) * (SIDE // 2)
    image = Image.frombytes("P", (SIDE, SIDE), (even + odd) * (SIDE // 2))
    image.putpalette([0, 0, 0, 255, 255, 255, 220, 30, 30])
    x = 20 + frame * 10
    image.paste(2, (x, 20, x + 60, 80))
    return image


def checkerboard_gif_bytes(delay=100):
    images = [checkerboard(i) for i in range(GIF_FRAMES)]
    out = io.BytesIO()
    images[0].save(out, "GIF", save_all=True, append_images=images[1:], duration=delay, loop=0, optimize=False)
    return out.getvalue()


def checkerboard_png_bytes():
    out = io.BytesIO()
    checkerboard(0).save(out, "PNG")
    return out.getvalue()


def viewer(app, label):
    """The viewer's image object showing `label`, or None (test_viewer.py's `viewer`)."""
    found = app.find_all(lambda a: a.role_name == "image" and a.name == label and a.has_state("SHOWING")
                         and harness._safe(lambda: a.parent().role_name) != "layered pane")
    return found[0] if found else None


def wait_viewer(app, label):
    return harness.wait_until(lambda: viewer(app, label), 20, 0.1, "the viewer showing %r" % label, app.dump_tree)


def centre_box(area, width, height):
    x, y, w, h = area
    return (x + (w - width) // 2, y + (h - height) // 2, width, height)


def numbered_frame(app, area):
    """The number of the frame filling the viewer's centre, or None (test_animation.py's, read with `grab`)."""
    box = centre_box(area, 40, 40)
    (red, green, blue), share = harness.dominant_colour(app.grab(box), (0, 0, box[2], box[3]), 1)
    if share < 0.8:
        return None
    index = round((red - 8) / 16) + 16 * round((green - 8) / 16) + 256 * round((blue - 8) / 12)
    return index if harness.colour_close((red, green, blue), numbered_colour(index), 4) else None


def sharp_checkerboard(image):
    """Whether the one-pixel checkerboard shows at 1:1: nearly every pixel far from its right-hand neighbour."""
    pixels = image.load()
    width, height = image.size
    pairs = differing = 0
    for y in range(height):
        for x in range(width - 1):
            a, b = pixels[x, y], pixels[x + 1, y]
            pairs += 1
            differing += abs(a[0] - b[0]) + abs(a[1] - b[1]) + abs(a[2] - b[2]) > 300
    return differing > 0.8 * pairs


def slope_mib_per_minute(samples):
    """The least-squares slope of (seconds, MiB) samples, in MiB per minute."""
    times = [t for t, _ in samples]
    mean_t, mean_m = statistics.fmean(times), statistics.fmean(m for _, m in samples)
    spread = sum((t - mean_t) ** 2 for t in times)
    return 60 * sum((t - mean_t) * (m - mean_m) for t, m in samples) / spread


def gallery_state(paths):
    return {"version": 1, "sidebarVisible": False, "galleries": [{
        "id": "9b2f3c4e-0000-4000-8000-00000000f11e", "name": "Gallery", "images": [
            {"id": "9b2f3c4e-0000-4000-8000-%012d" % (i + 1), "url": harness.file_url(path), "aspectRatio": 1}
            for i, path in enumerate(paths)]}]}


def started_app(desktop, work, name, paths, binary):
    app = harness.App(gallery_state(paths), {}, desktop=desktop, root=os.path.join(work, name), binary=binary)
    app.start()
    app.wait_cells(lambda cs: len(cs) == len(paths) and all(c.settled for c in cs), 120, what="the cells")
    app.focus()
    return app


def memory_run(desktop, work, path, binary, number):
    app = started_app(desktop, work, "memory-%d" % number, [path], binary)
    pid = app.proc.pid
    time.sleep(2)
    baseline = harness.process_memory_mib(pid)
    app.key("Home")
    started = time.monotonic()
    app.key("Return")
    area = wait_viewer(app, "long.gif").extents()
    peak, series, frames = baseline, [], []
    next_second = 1.0
    while True:
        elapsed = time.monotonic() - started
        if elapsed >= PLAY_SECONDS:
            break
        resident = harness.process_memory_mib(pid)
        peak = max(peak, resident)
        if elapsed >= next_second:
            series.append((elapsed, resident))
            frames.append(numbered_frame(app, area))
            next_second = int(elapsed) + 1.0
        time.sleep(0.1)
    app.key("Escape")
    app.stop()
    last = [(t, m) for t, m in series if t >= PLAY_SECONDS - SLOPE_SECONDS]
    shown = [f for f in frames if f is not None]
    return {"baseline": baseline, "peak": peak - baseline, "slope": slope_mib_per_minute(last),
            "end": shown[-1] if shown else None, "distinct": len(set(shown))}


def first_frame_seconds(app, open_key, box, timeout=30):
    """From the Return key to the sharp checkerboard in the viewer's centre; back to the gallery after."""
    if sharp_checkerboard(app.grab(box)):
        raise harness.HarnessError("the checkerboard shows before the viewer opened")
    app.key(open_key)
    time.sleep(0.3)
    started = time.monotonic()
    app.key("Return")
    while not sharp_checkerboard(app.grab(box)):
        if time.monotonic() - started > timeout:
            raise harness.HarnessError("no sharp checkerboard in the viewer %d s after Return" % timeout)
    seconds = time.monotonic() - started
    app.key("Escape")
    harness.wait_until(lambda: not sharp_checkerboard(app.grab(box)), 10, 0.05, "the gallery back")
    time.sleep(1)
    return seconds


def shown_at_one_to_one(app):
    """Opens the PNG once and sizes the window so that the viewer's margins around it are whole pixels (an image
    drawn half a pixel off is blended): returns the box in the viewer's centre to sample."""
    for _ in range(3):
        app.key("End")
        app.key("Return")
        x, y, w, h = wait_viewer(app, "still.png").extents()
        app.key("Escape")
        time.sleep(1)
        if w < SIDE or h < SIDE:
            raise harness.HarnessError("the viewer is %d×%d, too small for the image at 1:1" % (w, h))
        if (w - SIDE) % 2 == 0 and (h - SIDE) % 2 == 0:
            return centre_box((x, y, w, h), 48, 8)
        _, _, width, height = app.window_extents()
        app.resize(width + (w - SIDE) % 2, height + (h - SIDE) % 2)
        time.sleep(1)
    raise harness.HarnessError("the viewer's margins stay uneven")


def spread(values, unit, digits=1):
    form = "%%.%df" % digits
    return "median %s %s, range %s–%s %s" % (form % statistics.median(values), unit, form % min(values),
                                              form % max(values), unit)


def main():
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 3
    binary = harness.benchmark_binary()
    work = tempfile.mkdtemp(prefix="animation-memory-bench-")
    long_path = os.path.join(work, "long.gif")
    with open(long_path, "wb") as out:
        out.write(long_gif_bytes())
    gif_path, png_path = os.path.join(work, "moving.gif"), os.path.join(work, "still.png")
    with open(gif_path, "wb") as out:
        out.write(checkerboard_gif_bytes())
    with open(png_path, "wb") as out:
        out.write(checkerboard_png_bytes())
    print("binary: %s" % binary)
    print("load average at the start: %.2f %.2f %.2f" % os.getloadavg())
    desktop = harness.start_desktop(width=1600, height=1400)
    try:
        print("\nMemory: 300x300 GIF of 5000 frames of 20 ms, %d s playing in the viewer, %d runs of a fresh app"
              % (PLAY_SECONDS, runs))
        results = []
        for number in range(1, runs + 1):
            result = memory_run(desktop, work, long_path, binary, number)
            results.append(result)
            print("run %d: baseline %.1f MiB, peak above it %.1f MiB, slope of the last %d s %+.2f MiB/min, frame %s "
                  "showing at the end (%d distinct frames in %d samples)"
                  % (number, result["baseline"], result["peak"], SLOPE_SECONDS, result["slope"], result["end"],
                     result["distinct"], PLAY_SECONDS - 1), flush=True)
        print("baseline before the viewer opened: %s" % spread([r["baseline"] for r in results], "MiB"))
        print("peak above baseline: %s (budget %d MiB)" % (spread([r["peak"] for r in results], "MiB"), BUDGET_MIB))
        print("slope of the last %d s: %s" % (SLOPE_SECONDS, spread([r["slope"] for r in results], "MiB/min", 2)))

        print("\nFirst frame: %dx%d, from Return to the image sharp in the viewer's centre, %d runs each, alternating"
              % (SIDE, SIDE, runs))
        app = started_app(desktop, work, "first-frame", [gif_path, png_path], binary)
        app.resize(1500, 1350)
        box = shown_at_one_to_one(app)
        first_frame_seconds(app, "Home", box)
        first_frame_seconds(app, "End", box)
        times = collections.defaultdict(list)
        for _ in range(runs):
            times["gif"].append(1000 * first_frame_seconds(app, "Home", box))
            times["png"].append(1000 * first_frame_seconds(app, "End", box))
        app.stop()
        for kind, label in (("gif", "animated GIF (%d frames)" % GIF_FRAMES), ("png", "still PNG")):
            print("%s: %s ms; %s" % (label, ", ".join("%.0f" % t for t in times[kind]),
                                     spread(times[kind], "ms", 0)))
        print("\nload average at the end: %.2f %.2f %.2f" % os.getloadavg())
    finally:
        harness.stop_desktop()


if __name__ == "__main__":
    main()
