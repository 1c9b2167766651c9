#!/usr/bin/python3
"""Twelve animated GIFs playing at once in the gallery (Play Animations):
`/usr/bin/python3 Tests/benchmarks/gallery_animations_cpu.py [runs]`.

Starts the built app (release build if present, else debug) under Xvfb on a gallery of twelve 240×240 GIFs of 50
frames each (gradients and moving blocks, made with PIL), each at a pace of its own (frames of 40 to 95 ms: 25 to
10.5 fps), with Play Animations on in the state file, and checks that all twelve cells are on screen and playing. Each run lets
them play 3 s, then reads the app's processor time (utime + stime of /proc/<pid>/stat, every thread) over 10 s: the
share of one core; between runs the animations stop (Play Animations off through the main menu, frames let go) and
start again. Reported: each run's share, their median and range, and the app's resident memory after the last.
Not a test: timings go here.
"""
import os
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "e2e"))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import harness  # noqa: E402
from PIL import ImageChops  # noqa: E402
from animation_cpu import cpu_shares, gif_bytes, report  # noqa: E402

COUNT = 12


def toggle_play_animations(app):
    app.wait_for_object("Main Menu", "toggle button", timeout=10).do_action(0)
    time.sleep(0.4)
    app.wait_for_object("Play Animations", "check box", timeout=10).do_action(0)


def playing(app, cell):
    """Whether the cell's pixels change within half a second."""
    first = app.screenshot().crop((cell.x, cell.y, cell.x + cell.width, cell.y + cell.height))
    for _ in range(10):
        time.sleep(0.05)
        now = app.screenshot().crop((cell.x, cell.y, cell.x + cell.width, cell.y + cell.height))
        if ImageChops.difference(first.convert("RGB"), now.convert("RGB")).getbbox():
            return True
    return False


def main():
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 5
    binary = harness.benchmark_binary()
    work = tempfile.mkdtemp(prefix="gallery-animations-bench-")
    images = []
    for i in range(COUNT):
        path = os.path.join(work, "playing%02d.gif" % i)
        with open(path, "wb") as out:
            out.write(gif_bytes(frames=50, side=240, delay=40 + 5 * i))
        images.append({"id": "gif%02d" % i, "url": harness.file_url(path), "aspectRatio": 1,
                       "animation": {"duration": 50 * (40 + 5 * i), "frames": 50}})
    state = {"version": 1, "sidebarVisible": False, "playAnimations": True,
             "galleries": [{"id": "g", "name": "Gallery", "images": images}]}
    desktop = harness.start_desktop()
    try:
        app = harness.App(state, {}, desktop=desktop, root=os.path.join(work, "app"), binary=binary)
        app.start()
        app.wait_settled(timeout=120)
        app.focus()
        # Smaller cells until all twelve are on screen.
        for _ in range(8):
            if len([c for c in app.cells() if c.settled]) >= COUNT:
                break
            desktop.key("ctrl+minus")
            time.sleep(0.5)
        visible = len(app.cells())
        if visible < COUNT:
            sys.exit("only %d cells on screen" % visible)
        desktop.move(2, 2)
        time.sleep(3)
        if not all(playing(app, cell) for cell in app.cells()):
            sys.exit("not every cell plays")
        def restart_between_runs(run):
            if 0 < run:
                toggle_play_animations(app)
                time.sleep(1)
                toggle_play_animations(app)

        shares = cpu_shares(app, runs, restart_between_runs, lambda _: None)
        report(app, binary, "%d GIFs of 240x240 on screen, 10.5 to 25 fps, %d runs of 10 s playing in the gallery"
               % (COUNT, runs), shares)
        app.stop()
    finally:
        harness.stop_desktop()


if __name__ == "__main__":
    main()
