#!/usr/bin/python3
"""Decoders that ignore the size refusal: `/usr/bin/python3 Tests/benchmarks/hostile_decoders.py [runs]` (default 3).

For each file of harness.hostile (a few-kB TIFF, XPM, XBM, GIF frame, icon with a PNG and AVIF/HEIF declaring
30000x30000, progressive JPEGs whose coefficients alone exceed the budget, an RLE TGA that decodes to 192 MB, an SVG
whose filter would draw for minutes) the built app ($IMAGE_GALLERY_BIN, else the release build if present, else
debug) starts under Xvfb with that one image in its gallery, served from 127.0.0.1, until its cell settles (an
error, or shown). Each run also starts it once on an empty gallery: the baseline. Printed per file, as the median
and range of the runs: the peak resident memory (VmHWM) above the baseline's, the processor time above the
baseline's (the app's and its decoder processes', from /proc/<pid>/stat), and the longest main-loop stall
(IMAGE_GALLERY_STALL_LOG: only a `--traits StallLog` build logs stalls over 8 ms; "-" otherwise), launch
included: the empty gallery's row says what the launch alone stalls. The goal (issue
30): under 64 MiB and 2 s each. Not a test: numbers go here.
"""
import os
import statistics
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "e2e"))
import harness  # noqa: E402


def cpu_seconds(pid):
    """The process's processor time and that of the children it waited for (its decoder processes)."""
    with open("/proc/%d/stat" % pid) as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return sum(int(value) for value in fields[11:15]) / os.sysconf("SC_CLK_TCK")


def longest_stall(path):
    if not os.path.exists(path):
        return None
    with open(path) as log:
        return max((float(line.split()[2]) for line in log if line.startswith("stall ")), default=0.0)


def settle(app, state, timeout=60):
    """Starts `app` (made with `state`) until every cell settled; its peak memory (MiB) and processor time (s) then."""
    app.start()
    count = len(state["galleries"][0]["images"])
    cells = app.wait_cells(lambda cs: len(cs) == count and all(c.settled or c.error for c in cs), timeout)
    result = harness.process_memory_mib(app.proc.pid, "VmHWM"), cpu_seconds(app.proc.pid), cells
    app.stop()
    return result


def spread(values, unit, digits=1):
    if any(value is None for value in values):
        return "-"
    return "%.*f %s (%.*f–%.*f)" % (digits, statistics.median(values), unit, digits, min(values), digits, max(values))


def main():
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 3
    binary = harness.benchmark_binary()
    print("binary: %s, %d runs" % (os.path.relpath(binary, harness.REPO_ROOT), runs))
    desktop = harness.start_desktop()
    server = harness.ImageServer()
    work = tempfile.mkdtemp(prefix="gallery-hostile-")
    cases = harness.hostile.cases()
    urls = [server.add_file("/case%d.%s" % (i, ext), data, mime) for i, (_, data, mime, ext) in enumerate(cases)]
    results = {name: {"memory": [], "cpu": [], "stall": [], "cell": ""} for name, _, _, _ in cases}
    baseline_stalls = []
    try:
        for run in range(runs):
            empty = {"version": 1, "sidebarVisible": False, "galleries": [{"id": "g", "name": "Bench", "images": []}]}
            root = os.path.join(work, "run%d-empty" % run)
            stall_log = os.path.join(work, "run%d-empty-stalls.log" % run)
            app = harness.App(empty, {"IMAGE_GALLERY_STALL_LOG": stall_log}, desktop=desktop, root=root, binary=binary)
            baseline_memory, baseline_cpu, _ = settle(app, empty, 10)
            baseline_stalls.append(longest_stall(stall_log))
            for index, (name, _, _, _) in enumerate(cases):
                stall_log = os.path.join(work, "run%d-case%d-stalls.log" % (run, index))
                state = {"version": 1, "sidebarVisible": False, "galleries": [{"id": "g", "name": "Bench", "images": [
                    {"id": "i", "url": urls[index], "aspectRatio": 1}]}]}
                app = harness.App(state, {"IMAGE_GALLERY_STALL_LOG": stall_log}, desktop=desktop,
                                  root=os.path.join(work, "run%d-case%d" % (run, index)), binary=binary)
                memory, cpu, cells = settle(app, state)
                results[name]["memory"].append(memory - baseline_memory)
                results[name]["cpu"].append(cpu - baseline_cpu)
                results[name]["stall"].append(longest_stall(stall_log))
                results[name]["cell"] = cells[0].error or "shown"
        print("| file | peak above baseline | CPU above baseline | longest stall | cell |")
        print("| --- | --- | --- | --- | --- |")
        print("| (empty gallery: the baseline) | 0 | 0 | %s | |" % spread(baseline_stalls, "ms"))
        for name, result in results.items():
            print("| %s | %s | %s | %s | %s |" % (name, spread(result["memory"], "MiB"), spread(result["cpu"], "s", 2),
                                                 spread(result["stall"], "ms"), result["cell"]))
    finally:
        server.stop()
        harness.stop_desktop()


if __name__ == "__main__":
    main()
