#!/usr/bin/python3
"""One 500×500 GIF at 25 fps playing in the viewer: `/usr/bin/python3 Tests/benchmarks/animation_cpu.py [runs]`.

Starts the built app (release build if present, else debug) under Xvfb on a gallery of that GIF (50 frames of 40 ms,
each a different gradient and blocks, made with PIL), opens it in the viewer, lets it play 3 s, then reads the app's
processor time (utime + stime of /proc/<pid>/stat, every thread) over 10 s of playing: the share of one core. Each run
opens the GIF again. Reported: each run's share, their median and range, and the app's resident memory after the last.
Not a test: timings go here.
"""
import io
import os
import statistics
import sys
import tempfile
import time

from PIL import Image, ImageDraw

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "e2e"))
import harness  # noqa: E402


def gif_bytes(frames=50, side=500, delay=40):
    images = []
    for i in range(frames):
        image = Image.linear_gradient("L").resize((side, side)).convert("RGB")
        draw = ImageDraw.Draw(image)
        for j in range(6):
            x, y = (i * 37 + j * 91) % (side - 80), (i * 53 + j * 61) % (side - 80)
            draw.rectangle([x, y, x + 80, y + 80], fill=((i * 67 + j * 30) % 256, (j * 139) % 256, (i * 211) % 256))
        images.append(image)
    out = io.BytesIO()
    images[0].save(out, "GIF", save_all=True, append_images=images[1:], duration=delay, loop=0)
    return out.getvalue()


def cpu_seconds(pid):
    with open("/proc/%d/stat" % pid) as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def cpu_shares(app, runs, before_run, after_run):
    """Each run: `before_run(run)`, 3 s of playing, the app's processor time over 10 s as a share of one core in
    per cent, then `after_run(run)`."""
    shares = []
    for run in range(runs):
        before_run(run)
        time.sleep(3)
        started, cpu = time.monotonic(), cpu_seconds(app.proc.pid)
        time.sleep(10)
        shares.append(100 * (cpu_seconds(app.proc.pid) - cpu) / (time.monotonic() - started))
        after_run(run)
    return shares


def report(app, binary, what, shares):
    """Prints the binary, what was measured, each run's share, their median and range, and the memory after."""
    print("binary: %s" % os.path.relpath(binary, harness.REPO_ROOT))
    print(what)
    print("share of one core: %s %%" % ", ".join("%.1f" % s for s in shares))
    print("median %.1f %%, range %.1f–%.1f %%" % (statistics.median(shares), min(shares), max(shares)))
    print("resident memory after: %.1f MiB" % harness.process_memory_mib(app.proc.pid))


def main():
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 5
    binary = harness.benchmark_binary()
    work = tempfile.mkdtemp(prefix="animation-bench-")
    path = os.path.join(work, "playing.gif")
    with open(path, "wb") as out:
        out.write(gif_bytes())
    state = {"version": 1, "galleries": [{"id": "g", "name": "Gallery", "images": [
        {"id": "gif", "url": harness.file_url(path), "aspectRatio": 1}]}]}
    desktop = harness.start_desktop()
    try:
        app = harness.App(state, {}, desktop=desktop, root=os.path.join(work, "app"), binary=binary)
        app.start()
        app.wait_settled(timeout=120)
        app.focus()
        time.sleep(1)
        def open_viewer(_):
            desktop.key("Home")
            desktop.key("Return")

        def close_viewer(_):
            desktop.key("Escape")
            time.sleep(1)

        shares = cpu_shares(app, runs, open_viewer, close_viewer)
        report(app, binary, "500x500 GIF, 25 fps, %d runs of 10 s playing in the viewer" % runs, shares)
        app.stop()
    finally:
        harness.stop_desktop()


if __name__ == "__main__":
    main()
