#!/usr/bin/python3
"""How the real app copes with a large gallery: `/usr/bin/python3 Tests/benchmarks/large_gallery.py [count]`.

Starts the built app (release build if present, else debug) under Xvfb with `count` local images (file://,
distinct sizes), and reports: time until the window shows its first cells loaded, time to jump to the end
(End key) until the last cells are loaded, how long a fast 'Page Down' sweep over the whole gallery takes to end
with its screen loaded, and the
app's resident memory after seeing every image (decoded images are kept within a budget, so it stays
bounded). Not a test: timings go here, not in the test suite.
"""
import os
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "e2e"))
import harness  # noqa: E402


def main():
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 3000
    binary = harness.benchmark_binary()
    work = tempfile.mkdtemp(prefix="gallery-bench-")
    images = []
    for index in range(count):
        width, height = 160 + (index * 37) % 320, 120 + (index * 53) % 240
        rgb = ((index * 67) % 256, (index * 139) % 256, (index * 211) % 256)
        path = os.path.join(work, "img%05d.png" % index)
        with open(path, "wb") as out:
            out.write(harness.png_bytes(width, height, rgb))
        images.append({"id": "i%05d" % index, "url": harness.file_url(path), "aspectRatio": width / height})
    # The sidebar hidden: the same canvas width as the numbers measured before it existed.
    state = {"version": 1, "sidebarVisible": False, "galleries": [{"id": "g", "name": "Gallery", "images": images}]}

    desktop = harness.start_desktop()
    try:
        app = harness.App(state, desktop=desktop, root=os.path.join(work, "app"), binary=binary)
        started = time.monotonic()
        app.start()
        app.wait_settled(timeout=120)
        first = time.monotonic() - started
        visible = len(app.cells())

        app.focus()
        started = time.monotonic()
        desktop.key("End")
        app.wait_cells(lambda cells: any(c.description == images[-1]["url"] for c in cells)
                       and not any("loading" in c.name for c in cells), timeout=120)
        to_end = time.monotonic() - started

        desktop.key("Home")
        app.wait_cells(lambda cells: any(c.description == images[0]["url"] for c in cells), timeout=60)
        # As fast as a held key repeats: the app must keep up and show the end loaded.
        pages = 300
        started = time.monotonic()
        desktop.xdotool("key", "--delay", "15", *(["Page_Down"] * pages))
        app.wait_cells(lambda cells: any(c.description == images[-1]["url"] for c in cells)
                       and not any("loading" in c.name for c in cells), timeout=120)
        sweep = time.monotonic() - started
        memory = harness.process_memory_mib(app.proc.pid)
        print("binary: %s" % os.path.relpath(binary, harness.REPO_ROOT))
        print("%d images, %d cells on screen" % (count, visible))
        print("launch to first screen loaded:  %6.2f s" % first)
        print("End key to last screen loaded:  %6.2f s" % to_end)
        print("%d Page Downs, 15 ms apart, until the end shows loaded: %6.2f s" % (pages, sweep))
        print("resident memory afterwards:     %6.1f MiB" % memory)
        app.stop()
    finally:
        harness.stop_desktop()


if __name__ == "__main__":
    main()
