#!/usr/bin/python3
"""A hundred images from one HTTP/2 server against the same from twenty:
`/usr/bin/python3 Tests/benchmarks/http2_servers.py [--runs N]`.

The built app ($IMAGE_GALLERY_BIN, else the release build if present, else debug) launches under Xvfb on a library
of 100 web images, which it keeps at launch; printed is the time from launch until state.json records every one
kept, for one HTTP/2 server (nghttpd over TLS on 127.0.0.1, trusted through the test's own certificate authority)
and for twenty such servers holding five each, and for one server that answers each image one second after its
request (`slow_http2_server.py`, Python's h2: nghttpd cannot wait; kept at launch, the images beyond the window's
cells are carried over four at a time, so the 3 s goal is measured on a drop, `versus_gthumb.py --only drop
--drop-http2`), in turn, as median and range of --runs launches each, with the connections the one servers were
opened and the most streams the slow one carried at once. Needs Debian's nghttp2-server and python3-h2. Not a test:
timings go here.
"""
import argparse
import os
import statistics
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "e2e"))
import harness  # noqa: E402
from http2_server import HTTP2Server  # noqa: E402
from slow_http2_server import SlowHTTP2Server  # noqa: E402
from test_hostile_servers import state_of  # noqa: E402

IMAGES = 100


def time_to_keep(binary, desktop, urls, env, root):
    app = harness.App(state_of(urls), env, desktop=desktop, root=root, binary=binary)
    started = time.monotonic()
    app.start()
    app.wait_every_image_kept(120)
    elapsed = time.monotonic() - started
    app.stop()
    return elapsed


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    binary = harness.benchmark_binary()
    files = {"%d.png" % i: harness.png_bytes(320, 240, (i * 2, 255 - i * 2, 90)) for i in range(IMAGES)}
    names = sorted(files)
    desktop = harness.start_desktop()
    work = tempfile.mkdtemp(prefix="gallery-http2-")
    times = {"one": [], "twenty": [], "slow": []}
    connections, slow_connections = [], []
    try:
        for run in range(args.runs):
            one = HTTP2Server(files)
            twenty = [HTTP2Server({name: files[name] for name in names[i::20]}) for i in range(20)]
            slow = SlowHTTP2Server(files, delay=1.0)
            try:
                times["one"].append(time_to_keep(binary, desktop, [one.url(name) for name in names], one.env(),
                                                 os.path.join(work, "one%d" % run)))
                connections.append(one.connections())
                urls = [twenty[i % 20].url(name) for i, name in enumerate(names)]
                bundle = os.path.join(work, "authorities%d.pem" % run)
                with open(bundle, "wb") as out:
                    for server in twenty:
                        with open(server.ca_file, "rb") as f:
                            out.write(f.read())
                times["twenty"].append(time_to_keep(binary, desktop, urls, {"IMAGE_GALLERY_TEST_CA_FILE": bundle},
                                                    os.path.join(work, "twenty%d" % run)))
                times["slow"].append(time_to_keep(binary, desktop, [slow.url(name) for name in names], slow.env(),
                                                  os.path.join(work, "slow%d" % run)))
                slow_connections.append((slow.connections(), slow.most_streams))
            finally:
                for server in [one, slow] + twenty:
                    server.remove()
        print("binary: %s, %d runs" % (os.path.relpath(binary, harness.REPO_ROOT), args.runs))
        for key, label in (("one", "one HTTP/2 server"), ("twenty", "twenty HTTP/2 servers"),
                           ("slow", "a one-second server")):
            values = times[key]
            print("%d images kept from %-22s median %.2f s (%.2f–%.2f)" % (
                IMAGES, label + ":", statistics.median(values), min(values), max(values)))
        # Kept at launch, images beyond the window's cells are carried over four at a time (OriginalsCarryOver), so
        # this is not the goal's figure: that is a drop's, `versus_gthumb.py --only drop --drop-http2`.
        print("a one-second server, the launch's carry-over (four fetches at a time beside the window's cells; the "
              "3 s goal is a drop's, versus_gthumb.py --only drop --drop-http2); (connections, most streams at once) "
              "each run: %s" % slow_connections)
        print("one server / twenty: %.2f (goal at most 1.2); connections to the one server: %s" % (
            statistics.median(times["one"]) / statistics.median(times["twenty"]), connections))
    finally:
        harness.stop_desktop()


if __name__ == "__main__":
    main()
