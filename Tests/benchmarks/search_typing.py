#!/usr/bin/python3
"""Typing in the search bar over a large library: `/usr/bin/python3 Tests/benchmarks/search_typing.py [--runs N]`.

The built app ($IMAGE_GALLERY_BIN, else the release build if present, else debug; it must be built with
`--traits StallLog`, whose log says when each query's results were first painted) starts under Xvfb on 50,000
images in 20 galleries, each with a note, one to three tags (some nested, accented or Cyrillic) and a page on one of
40 sites. Each run opens the search bar with Ctrl+F and types queries one key at a time (XTEST, 150 ms apart, as a
quick typist): a key's latency is from the press to the first paint of its query's results (the app's
`event ... results-painted` line, on the same CLOCK_MONOTONIC), and a key whose results were overtaken by the next
key's before being painted counts until the paint of the results that replaced them (what the user waited for).

Memory: the app's resident memory once the gallery shows (the index is built at the first search, so not yet), then
after the run's searches (the index built and kept), and the difference, as a share of the latter. Reports each
run and the median and range over the runs. Not a test: timings go here, not in the test suite.
"""
import argparse
import os
import random
import statistics
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "e2e"))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import harness  # noqa: E402
from screen_watch import Screen  # noqa: E402

GALLERIES = 20
PER_GALLERY = 2500
WORDS = ["harbour", "sunset", "kitchen", "wall", "crème", "brûlée", "forest", "mountain", "street", "night",
         "ёлка", "зима", "москва", "portrait", "window", "garden", "river", "bridge", "market", "station"]
TAGS = ["colour/red", "colour/blue", "colour/green", "mood/calm", "mood/busy", "Зима", "été", "texture/wood",
        "texture/stone", "people", "animals/cats", "animals/dogs", "food", "architecture", "light"]
EACH = False
QUERIES = ["harbour", "kitchen wall", "creme", "елка", "colour/red", "site7.example", "zzz"]


def library(work):
    rng = random.Random(32)
    files = []
    for index in range(50):
        width, height = 160 + (index * 37) % 320, 120 + (index * 53) % 240
        path = os.path.join(work, "img%02d.png" % index)
        with open(path, "wb") as out:
            out.write(harness.png_bytes(width, height, ((index * 67) % 256, (index * 139) % 256, (index * 211) % 256)))
        files.append((harness.file_url(path), width / height))
    galleries = []
    for g in range(GALLERIES):
        images = []
        for i in range(PER_GALLERY):
            url, aspect = files[(g * PER_GALLERY + i) % len(files)]
            note = " ".join(rng.choice(WORDS) for _ in range(rng.randint(2, 6))) + " %d" % i
            images.append({
                "id": "g%02di%05d" % (g, i), "url": url, "aspectRatio": aspect, "note": note,
                "tags": rng.sample(TAGS, rng.randint(1, 3)),
                "origin": {"page": "https://www.site%d.example/post/%d" % (rng.randrange(40), i),
                           "added": "2026-0%d-1%dT10:00:00Z" % (1 + i % 9, i % 10)}})
        galleries.append({"id": "g%02d" % g, "name": "Gallery %d" % (g + 1), "images": images})
    return {"version": 1, "sidebarVisible": True, "galleries": galleries}


def painted_events(path):
    """[(monotonic seconds, query)] of the log's results-painted lines."""
    events = []
    with open(path, encoding="utf-8") as log:
        for line in log:
            if line.startswith("event ") and " results-painted " in line:
                _, when, _, _count, *query = line.rstrip("\n").split(" ")
                events.append((float(when), " ".join(query)))
    return events


def one_run(binary, desktop, state, work, run):
    log = os.path.join(work, "stall-%d.log" % run)
    app = harness.App(state, {"IMAGE_GALLERY_STALL_LOG": log}, desktop=desktop,
                      root=os.path.join(work, "app-%d" % run), binary=binary)
    app.start()
    app.wait_cells(lambda cs: len(cs) > 0 and all(c.settled for c in cs), 180, what="the first gallery loaded")
    time.sleep(2)
    before = harness.process_memory_mib(app.proc.pid)
    screen = Screen(desktop.display)
    try:
        app.focus()
        app.key("ctrl+f")
        app.wait_for_object("Search", harness.ROLE.TEXT, timeout=30)
        presses = []  # (time, query after this key)
        for query in QUERIES:
            app.key("ctrl+a")
            app.key("BackSpace")
            time.sleep(1.5)
            typed = ""
            for character in query:
                typed += character
                if character == " ":
                    name = "space"
                elif character == "/":
                    name = "slash"
                elif character == ".":
                    name = "period"
                elif ord(character) > 127:
                    name = None
                else:
                    name = character
                if name is None:
                    # xdotool types what XTEST has no key for (accents, Cyrillic), by remapping a key.
                    at = time.monotonic()
                    desktop.xdotool("type", character)
                else:
                    at = screen.key(name)
                presses.append((at, typed))
                time.sleep(0.15)
            time.sleep(1.5)
        after = harness.process_memory_mib(app.proc.pid)
    finally:
        screen.close()
    app.stop()
    events = painted_events(log)
    latencies = []
    for index, (at, query) in enumerate(presses):
        # The first paint after the press of results for this query or a later one of the same word.
        later = [text for _, text in presses[index:] if text.startswith(query) or query.startswith(text)]
        paint = next((when for when, text in events if when >= at and text in later), None)
        if paint is not None:
            latencies.append((paint - at) * 1000)
            if EACH:
                print("  %-14r %7.1f ms" % (query, (paint - at) * 1000))
    return latencies, before, after, len(presses)


def percentile(values, fraction):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(fraction * (len(ordered) - 1))))]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--each", action="store_true", help="print every key's latency")
    args = parser.parse_args()
    global EACH
    EACH = args.each
    release = os.path.join(harness.REPO_ROOT, ".build", "release", "image-gallery")
    binary = os.environ.get("IMAGE_GALLERY_BIN") or (release if os.path.exists(release) else harness.DEFAULT_BINARY)
    work = tempfile.mkdtemp(prefix="gallery-search-bench-")
    state = library(work)
    desktop = harness.start_desktop()
    rows = []
    try:
        for run in range(args.runs):
            latencies, before, after, keys = one_run(binary, desktop, state, work, run)
            if not latencies:
                sys.exit("no results-painted events: build with `swift build -c release --traits StallLog`")
            row = (statistics.median(latencies), percentile(latencies, 0.99), max(latencies), before, after,
                   (after - before) / after * 100, len(latencies), keys)
            rows.append(row)
            print("run %d: key to results painted median %.1f ms, p99 %.1f ms, max %.1f ms; memory %.1f MiB "
                  "before the index, %.1f MiB with it (%.1f%%); %d of %d keys painted" % ((run + 1,) + row))
    finally:
        harness.stop_desktop()
    print("binary: %s, %d images in %d galleries, %d runs" % (
        os.path.relpath(binary, harness.REPO_ROOT), GALLERIES * PER_GALLERY, GALLERIES, len(rows)))
    for name, column in (("median ms", 0), ("p99 ms", 1), ("index share %", 5)):
        values = [row[column] for row in rows]
        print("%-14s median %.1f, range %.1f–%.1f" % (name, statistics.median(values), min(values), max(values)))


if __name__ == "__main__":
    main()
