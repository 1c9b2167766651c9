#!/usr/bin/python3
"""What a pasted flood of gzip bombs costs: `/usr/bin/python3 Tests/benchmarks/bomb_flood.py [runs]` (default 5).

The built app ($IMAGE_GALLERY_BIN, else the release build if present, else debug) starts under Xvfb on an empty
gallery; another process owns the clipboard with a `text/uri-list` of 300 addresses of one server (the e2e tests'
transfer server), each answering 49 MB of zeros gzipped to 48 kB with `Content-Encoding: gzip`, and Ctrl+V pastes them.
Printed: the peak resident memory above the baseline after launch (VmHWM, reset through /proc/<pid>/clear_refs
before the paste), and the time from the paste until every placeholder has settled (gone, refused as not an image);
medians and ranges over the runs. Not a test.
"""
import os
import pathlib
import statistics
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "e2e"))
import harness  # noqa: E402
from test_transfer_slots import TransferServer, paste  # noqa: E402

BOMBS = 300


def flood(binary, desktop, server, work, run):
    app = harness.App(None, desktop=desktop, root=str(work / "app"), binary=binary)
    app.start()
    app.resize(900, 700)
    time.sleep(2)
    baseline = harness.process_memory_mib(app.proc.pid)
    with open("/proc/%d/clear_refs" % app.proc.pid, "w") as clear:
        clear.write("5")  # VmHWM starts again from VmRSS
    urls = [server.url("/bomb/r%d-%d.png" % (run, i)) for i in range(BOMBS)]
    started = time.monotonic()
    owner = paste(app, desktop, work, "".join(url + "\r\n" for url in urls), "text/uri-list")
    try:
        app.wait_cells(lambda cs: len(cs) > 0, 60, what="the placeholders")
        harness.wait_until(lambda: not app.cells(), 600, 0.2, "the flood to settle")
        settled = time.monotonic() - started
        peak = harness.process_memory_mib(app.proc.pid, "VmHWM") - baseline
    finally:
        owner.kill()
        owner.wait(10)
        app.stop()
    return peak, settled


def main():
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 5
    binary = harness.benchmark_binary()
    desktop = harness.start_desktop()
    server = TransferServer()
    work = pathlib.Path(tempfile.mkdtemp(prefix="gallery-bombs-"))
    try:
        results = []
        for run in range(runs):
            folder = work / str(run)
            folder.mkdir()
            results.append(flood(binary, desktop, server, folder, run))
            print("run %d: peak +%.0f MiB, settled after %.1f s" % ((run + 1,) + results[-1]))
            sys.stdout.flush()
        peaks, times = zip(*results)
        print("binary: %s, %d runs, %d gzip bombs pasted" % (os.path.relpath(binary, harness.REPO_ROOT), runs, BOMBS))
        print("peak memory above baseline: %.0f MiB (%.0f–%.0f)" % (statistics.median(peaks), min(peaks), max(peaks)))
        print("until every cell settled:   %.1f s (%.1f–%.1f)" % (statistics.median(times), min(times), max(times)))
    finally:
        server.stop()
        harness.stop_desktop()


if __name__ == "__main__":
    main()
