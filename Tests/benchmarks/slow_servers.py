#!/usr/bin/python3
"""How long a visible image waits while other servers trickle: `/usr/bin/python3 Tests/benchmarks/slow_servers.py`.

The built app ($IMAGE_GALLERY_BIN, else the release build if present, else debug) starts under Xvfb on a gallery
whose first 8 images come from connections that send 2 bytes a second (the e2e tests' hostile server) and whose
last image is served at once. Printed: the time from launch until that last image shows, and, for comparison,
the same gallery without the trickling ones. Not a test: timings go here.
"""
import os
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "e2e"))
import harness  # noqa: E402
from test_hostile_servers import HostileServer, state_of  # noqa: E402

TRICKLERS = 8


def time_to_show(binary, desktop, urls, root):
    app = harness.App(state_of(urls), desktop=desktop, root=root, binary=binary)
    started = time.monotonic()
    app.start()
    app.wait_cells(lambda cs: len(cs) == len(urls) and cs[-1].settled and cs[-1].error is None, 120)
    elapsed = time.monotonic() - started
    app.stop()
    return elapsed


def main():
    binary = harness.benchmark_binary()
    desktop = harness.start_desktop()
    server = HostileServer()
    work = tempfile.mkdtemp(prefix="gallery-slow-")
    try:
        alone = time_to_show(binary, desktop, [server.url("/img/alone")], os.path.join(work, "alone"))
        crowded = time_to_show(binary, desktop, [server.url("/trickle/%d" % i) for i in range(TRICKLERS)]
                               + [server.url("/img/crowded")], os.path.join(work, "crowded"))
        print("binary: %s" % os.path.relpath(binary, harness.REPO_ROOT))
        print("launch until the image shows, alone:                        %6.2f s" % alone)
        print("launch until the image shows, behind %d trickling servers:   %6.2f s" % (TRICKLERS, crowded))
    finally:
        server.stop()
        harness.stop_desktop()


if __name__ == "__main__":
    main()
