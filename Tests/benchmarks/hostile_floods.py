#!/usr/bin/python3
"""What a flood costs: `/usr/bin/python3 Tests/benchmarks/hostile_floods.py [runs]` (default 3).

The built app ($IMAGE_GALLERY_BIN, else the release build if present, else debug) starts under Xvfb on an empty
gallery; each flood is one drop (a `text/uri-list` from a real XDND drag source) of:
  - 2,000 URLs: 2,000 small PNGs from one server (the e2e tests' hostile server);
  - 200 gzip bombs: 200 answers of 60 MB of zeros gzipped to about 60 kB, each stopped at the 50 MB cap;
  - 200 slow servers: 200 servers (ports) that send an image's headers and then 2 bytes a second, each stopped
    after 15 s as too slow.
Printed per flood: the peak resident memory above the baseline after launch (VmHWM, reset through
/proc/<pid>/clear_refs before the drop), the CPU time the app used from the drop until the flood settled, and
the longest main-loop stall (from IMAGE_GALLERY_STALL_LOG: only a build with the StallLog trait writes it,
`swift build -c release --traits StallLog`; else "n/a"). Medians and ranges over the runs. Not a test.
"""
import gzip
import os
import statistics
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "e2e"))
import harness  # noqa: E402
from drag_source import DragSource, target, uri_list  # noqa: E402
from test_hostile_servers import HostileServer  # noqa: E402

BOMB = gzip.compress(bytes(60_000_000), 9)


class BombServer(HostileServer):
    def answer(self, sock, path, last_part):
        if not path.startswith("/bomb/"):
            return super().answer(sock, path, last_part)
        last_part()
        sock.sendall(("HTTP/1.1 200 OK\r\nContent-Type: image/png\r\nContent-Encoding: gzip\r\n"
                      "Content-Length: %d\r\nConnection: close\r\n\r\n" % len(BOMB)).encode() + BOMB)


def cpu_seconds(pid):
    with open("/proc/%d/stat" % pid) as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def longest_stall(path, offset):
    if not os.path.exists(path):
        return None
    with open(path) as log:
        log.seek(offset)
        return max((float(line.split()[2]) for line in log if line.startswith("stall ")), default=0.0)


def flood(binary, desktop, work, urls, settled):
    stall_log = os.path.join(work, "stalls.log")
    app = harness.App(None, {"IMAGE_GALLERY_STALL_LOG": stall_log}, desktop=desktop, root=os.path.join(work, "app"),
                      binary=binary)
    app.start()
    app.resize(900, 700)
    time.sleep(2)
    baseline = harness.process_memory_mib(app.proc.pid, "VmRSS")
    with open("/proc/%d/clear_refs" % app.proc.pid, "w") as clear:
        clear.write("5")  # VmHWM starts again from VmRSS
    offset = os.path.getsize(stall_log) if os.path.exists(stall_log) else 0
    cpu = cpu_seconds(app.proc.pid)
    x, y, width, height = app.gallery().extents()
    with DragSource(desktop, [target("text/uri-list", uri_list(*urls))], workdir=os.path.join(work, "source")) as src:
        src.drag_into((x + width // 2, y + height // 3))
        src.wait_for("drag-end", timeout=60)
    if len(urls) > 500:  # the app asks before adding more than 500 images
        harness.press(app, harness.add_images_question(app, len(urls)), "Add")
    app.wait_cells(lambda cs: len(cs) > 0, 60, what="the placeholders")
    harness.wait_until(lambda: settled(app), 600, 0.5, "the flood to settle")
    result = (harness.process_memory_mib(app.proc.pid, "VmHWM") - baseline, cpu_seconds(app.proc.pid) - cpu,
              longest_stall(stall_log, offset))
    app.stop()
    return result


def saved_count(app):
    try:
        return len(app.image_urls(0))
    except (FileNotFoundError, IndexError):
        return 0


def summary(values, unit):
    if any(v is None for v in values):
        return "n/a"
    return "%.0f %s (%.0f–%.0f)" % (statistics.median(values), unit, min(values), max(values)) if unit != "s" else \
        "%.1f s (%.1f–%.1f)" % (statistics.median(values), min(values), max(values))


def main():
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 3
    binary = harness.benchmark_binary()
    desktop = harness.start_desktop()
    server = BombServer()
    slow = [HostileServer() for _ in range(200)]
    work = tempfile.mkdtemp(prefix="gallery-floods-")
    floods = [
        ("2,000 URLs", lambda run: [server.url("/img/r%d-%d.png" % (run, i)) for i in range(2000)],
         lambda app: saved_count(app) == 2000),
        ("200 gzip bombs", lambda run: [server.url("/bomb/r%d-%d" % (run, i)) for i in range(200)],
         lambda app: not app.cells()),
        ("200 slow servers", lambda run: [s.url("/trickle/r%d" % run) for s in slow], lambda app: not app.cells()),
    ]
    try:
        print("binary: %s, %d runs; medians (ranges)" % (os.path.relpath(binary, harness.REPO_ROOT), runs))
        print("| flood | peak memory above baseline | CPU | longest main-loop stall |")
        print("| --- | --- | --- | --- |")
        for name, urls, settled in floods:
            results = [flood(binary, desktop, os.path.join(work, "%s-%d" % (name[:3], run)), urls(run), settled)
                       for run in range(runs)]
            memory, cpu, stall = zip(*results)
            print("| %s | %s | %s | %s |" % (name, summary(memory, "MiB"), summary(cpu, "s"), summary(stall, "ms")))
            sys.stdout.flush()
    finally:
        server.stop()
        for s in slow:
            s.stop()
        harness.stop_desktop()


if __name__ == "__main__":
    main()
