#!/usr/bin/python3
"""What a state file costs at launch: `/usr/bin/python3 Tests/benchmarks/state_bounds.py [runs]` (default 5).

The built app ($IMAGE_GALLERY_BIN, else the release build if present, else debug) starts under Xvfb on each of
these state files (harness.hostile_states), until its first cell settles (shown, or an error):
- plain: one image served from 127.0.0.1;
- bloated: that image, with a 50 MiB unknown string, a 50 MiB unknown field nested 200 objects deep around an
  array of small objects, and 100,000 small unknown fields (about 103 MiB in all);
- oversized: that image's state followed by zeros to one byte past the size the app reads (1 GiB, sparse on disk);
  the app starts on an empty gallery, so it waits for the message ("could not be read") instead of a cell;
- 10,000 images: a normal library, every address refused at once (nothing listens on port 9).
Printed per file, as the median and range of the runs: the peak resident memory (VmHWM) and the time from the
start of the process until the first cell settled (or the message showed). Not a test: numbers go here.
"""
import json
import os
import shutil
import statistics
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "e2e"))
import harness  # noqa: E402
from harness.hostile_states import bloated_state, write_oversized_state  # noqa: E402


def state_of(urls):
    return {"version": 1, "sidebarVisible": False, "galleries": [{"id": "g", "name": "Bench", "images": [
        {"id": "i%d" % index, "url": url, "aspectRatio": 1} for index, url in enumerate(urls)]}]}


def launch(app, oversized):
    """Starts `app` until its first cell settled (or, `oversized`, the message showed): peak MiB and seconds."""
    start = time.monotonic()
    app.start()
    if oversized:
        app.wait_for_object("could not be read", contains=True, ignore_case=True, timeout=120)
    else:
        app.wait_cells(lambda cs: cs and (cs[0].settled or cs[0].error), 120)
    result = harness.process_memory_mib(app.proc.pid, "VmHWM"), time.monotonic() - start
    app.stop()
    return result


def spread(values, unit, digits=0):
    return "%.*f %s (%.*f–%.*f)" % (digits, statistics.median(values), unit, digits, min(values), digits, max(values))


def main():
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 5
    binary = harness.benchmark_binary()
    print("binary: %s, %d runs" % (os.path.relpath(binary, harness.REPO_ROOT), runs))
    desktop = harness.start_desktop()
    server = harness.ImageServer()
    work = tempfile.mkdtemp(prefix="gallery-state-bounds-")
    plain = state_of([server.add_image("red", 64, 48, (200, 30, 30)).url])
    bloated = bloated_state(plain)
    cases = [("plain", plain, None), ("bloated", None, bloated), ("oversized", None, None),
             ("10,000 images", state_of(["http://127.0.0.1:9/%d.png" % i for i in range(10000)]), None)]
    results = {name: {"memory": [], "time": []} for name, _, _ in cases}
    try:
        for run in range(runs):
            for index, (name, state, raw) in enumerate(cases):
                root = os.path.join(work, "run%d-case%d" % (run, index))
                app = harness.App(state, {}, desktop=desktop, root=root, binary=binary, state_raw=raw)
                if name == "oversized":
                    os.makedirs(app.state_dir, exist_ok=True)
                    write_oversized_state(app.state_path, plain)
                memory, seconds = launch(app, name == "oversized")
                results[name]["memory"].append(memory)
                results[name]["time"].append(seconds)
                shutil.rmtree(root, ignore_errors=True)
        print("| state file | size | peak memory | first cell |")
        print("| --- | --- | --- | --- |")
        sizes = {name: len(raw) if raw else len(json.dumps(state or {})) for name, state, raw in cases}
        sizes["oversized"] = (1 << 30) + 1
        for name, result in results.items():
            print("| %s | %.1f MiB | %s | %s |" % (name, sizes[name] / (1 << 20),
                                             spread(result["memory"], "MiB"), spread(result["time"], "s", 2)))
    finally:
        server.stop()
        harness.stop_desktop()


if __name__ == "__main__":
    main()
