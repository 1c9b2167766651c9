#!/usr/bin/python3
"""Peak memory of images built to exhaust the app: `/usr/bin/python3 Tests/benchmarks/pixel_bombs.py`.

For each case the built app ($IMAGE_GALLERY_BIN, else the release build if present, else debug) starts under Xvfb on an empty gallery, its
peak resident memory (VmHWM) is read as the baseline, the image is pasted in as a drop would bring it (here: the
state names it, served from 127.0.0.1), and once its cell has settled (shown, or an error) the peak is read
again. Printed: the peak above the baseline, per case, and what the cell says. The goal (issue 9): under 64 MiB
above the baseline for a 30000x30000 PNG bomb and for a 12000x12000 PNG. Not a test: numbers go here.
"""
import json
import os
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "e2e"))
import harness  # noqa: E402

CASES = [
    ("30000x30000 PNG (bomb, 1 bit, %s)", 30000, (200, 30, 30)),
    ("12000x12000 PNG (just under the cap, %s)", 12000, (30, 160, 60)),
]


def main():
    binary = harness.benchmark_binary()
    print("binary: %s" % os.path.relpath(binary, harness.REPO_ROOT))
    desktop = harness.start_desktop()
    server = harness.ImageServer()
    work = tempfile.mkdtemp(prefix="gallery-bombs-")
    try:
        for index, (label, side, rgb) in enumerate(CASES):
            data = harness.palette_png_bytes(side, side, rgb)
            url = server.add_file("/case%d.png" % index, data, "image/png")
            state = {"version": 1, "sidebarVisible": False, "galleries": [{"id": "g", "name": "Bench", "images": []}]}
            app = harness.App(state, desktop=desktop, root=os.path.join(work, "app%d" % index), binary=binary)
            app.start()
            app.wait_cells(lambda cells: True, 10)
            baseline = harness.process_memory_mib(app.proc.pid, "VmHWM")
            app.stop()
            state["galleries"][0]["images"] = [{"id": "i", "url": url, "aspectRatio": 1}]
            with open(app.state_path, "w") as out:
                json.dump(state, out)
            app.start()
            cells = app.wait_cells(lambda cs: len(cs) == 1 and (cs[0].settled or cs[0].error), 120)
            peak = harness.process_memory_mib(app.proc.pid, "VmHWM")
            print("%-52s peak %7.1f MiB, %+7.1f MiB above the empty app's %6.1f MiB; cell: %s"
                  % (label % ("%.1f MB file" % (len(data) / 1e6)), peak, peak - baseline, baseline, cells[0].name))
            app.stop()
    finally:
        server.stop()
        harness.stop_desktop()


if __name__ == "__main__":
    main()
