#!/usr/bin/python3
"""Typing in the search bar over a large library:
`/usr/bin/python3 Tests/benchmarks/search_typing.py [--runs N] [--rounds N] [--versus OTHER_BINARY]
[--galleries G --per-gallery P] [--metacity]`.

The built app ($IMAGE_GALLERY_BIN, else the release build if present, else debug; it must be built with
`--traits StallLog`, whose log says when each query's results were first painted) starts under Xvfb on 50,000
images in 20 galleries, each with a note, one to three tags (some nested, accented or Cyrillic) and a page on one of
40 sites. Each run opens the search bar with Ctrl+F and types queries one key at a time (XTEST, 150 ms apart, as a
quick typist; `--rounds N` types them N times a run, so that the 99th percentile is not a run's slowest key). The
characters no key of Xvfb's keyboard types (“елка”) are bound to spare keycodes once before typing, as a keyboard
layout that has them would be, and typed with one XTEST press each: until 2026-11-29 xdotool typed them, remapping a
key for each at the server and every client (36–78 ms from its start to the app's query, charged to the app). A
key's latency is from the press to the first paint of its query's results (the app's
`event ... results-painted` line, on the same CLOCK_MONOTONIC), and a key whose results were overtaken by the next
key's before being painted counts until the paint of the results that replaced them (what the user waited for).
`--galleries` and `--per-gallery` scale the library (200 × 5,000 for a million images: the state file is written once,
compactly, and each run waits for the app's `index-built` line before typing); `--metacity` runs GNOME's Metacity on
the Xvfb display, as the launch benchmarks do.

`--callgrind`: instead, each binary once under `valgrind --tool=callgrind` (a copy stripped of the debug information
valgrind cannot read, beside the binary): the search bar opened and its index made (a key typed and erased), counters
zeroed, one key that matches every image ("c") until its results are painted and a second after, counted: every
thread, and the job lanes' part (the workers); the rest is mostly the GTK thread's. Then "r", and "e" counted the same
way: a key that narrows 9,000 results, which the GTK thread refines itself within its budget.

Each run also says how many searches were asked once the index was built, how many of them asked the same query
again (a change of the library making the results be searched again), and how many were answered on the GTK thread
by narrowing the results shown, which paints a key with its letter, rather than on a worker.

Memory: the app's resident memory once the gallery shows (2 s after its first screen settled: the index, built in
the background once the first screen is loaded, is built by then; a build from before that change builds it at the first
search), then after the run's searches, and the growth, as a share of the latter. The index's own share is the
difference of the first figure between this build and one that builds it at the first search, run side by side:
`--versus` alternates runs of the two binaries in one sitting and reports both. Reports each run and the median
and range over the runs. Not a test: timings go here, not in the test suite.
"""
import argparse
import itertools
import json
import os
import random
import statistics
import subprocess
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
ROUNDS = 1
QUERIES = ["harbour", "kitchen wall", "creme", "елка", "colour/red", "site7.example", "zzz"]


def library(work):
    """The state file's bytes: GALLERIES × PER_GALLERY images, written a gallery at a time."""
    rng = random.Random(32)
    files = []
    for index in range(50):
        width, height = 160 + (index * 37) % 320, 120 + (index * 53) % 240
        path = os.path.join(work, "img%02d.png" % index)
        with open(path, "wb") as out:
            out.write(harness.png_bytes(width, height, ((index * 67) % 256, (index * 139) % 256, (index * 211) % 256)))
        files.append((harness.file_url(path), width / height))
    parts = [b'{"version": 1, "sidebarVisible": true, "galleries": [']
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
        gallery = {"id": "g%02d" % g, "name": "Gallery %d" % (g + 1), "images": images}
        parts.append((b", " if g else b"") + json.dumps(gallery, ensure_ascii=False).encode())
    parts.append(b"]}\n")
    return b"".join(parts)


def wait_for_index(path, timeout):
    """Waits for the app's `index-built` line: typing before it would wait for the index, which a launch builds after
    its first screen."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        with open(path, encoding="utf-8") as log:
            if any(line.startswith("event ") and line.rstrip("\n").endswith(" index-built") for line in log):
                return
        time.sleep(0.5)
    raise TimeoutError("the index was not built within %d s" % timeout)


def painted_events(path):
    """[(monotonic seconds, query)] of the log's results-painted lines."""
    events = []
    with open(path, encoding="utf-8") as log:
        for line in log:
            if line.startswith("event ") and " results-painted " in line:
                _, when, _, _count, *query = line.rstrip("\n").split(" ")
                events.append((float(when), " ".join(query)))
    return events


def events_of(path, kind):
    """[(monotonic seconds, query)] of the log's lines of this kind (query-asked, results-came)."""
    with open(path, encoding="utf-8") as log:
        return [(float(line.split(" ")[1]), line.rstrip("\n").split(" ", 3)[3]) for line in log
                if line.startswith("event ") and line.split(" ")[2] == kind]


def one_run(binary, desktop, state, work, run):
    log = os.path.join(work, "stall-%d.log" % run)
    app = harness.App(state_raw=state, env_overrides={"IMAGE_GALLERY_STALL_LOG": log}, desktop=desktop,
                      root=os.path.join(work, "app-%d" % run), binary=binary)
    app.start(timeout=300)
    app.wait_cells(lambda cs: len(cs) > 0 and all(c.settled for c in cs), 600, what="the first gallery loaded")
    time.sleep(2)
    wait_for_index(log, 900)
    before = harness.process_memory_mib(app.proc.pid)
    ran = gtk_thread_ran_ms(app.proc.pid)
    presses = type_queries(app, desktop)
    ran = gtk_thread_ran_ms(app.proc.pid) - ran
    after = harness.process_memory_mib(app.proc.pid)
    app.stop()
    print("  the GTK thread ran %.0f ms while typing, %.1f ms a key (its processor time: the load moves it little)"
          % (ran, ran / len(presses)))
    print("  searches asked %d (the same query again %d): %d refined on the GTK thread, %d on a worker"
          % searches_asked(log))
    return key_latencies(presses, log), before, after, len(presses)


def gtk_thread_ran_ms(pid):
    """Milliseconds the process's main (GTK) thread has run on a core, from the kernel's schedstat."""
    with open("/proc/%d/task/%d/schedstat" % (pid, pid)) as stat:
        return int(stat.read().split()[0]) / 1e6


def type_queries(app, desktop, queries=QUERIES):
    """Opens the search bar of `app` (a harness App) with Ctrl+F and types each query one key at a time, 150 ms
    apart, the field emptied before each; returns [(press time, the query after this key)]."""
    screen = Screen(desktop.display)
    try:
        # The characters no key types get keys of their own first, as a layout with them has (see `map_characters`).
        codes = screen.map_characters(sorted({c for query in queries for c in query if ord(c) > 127}))
        app.focus()
        app.key("ctrl+f")
        app.wait_for_object("Search", harness.ROLE.TEXT, timeout=30)
        presses = []
        for query in queries * ROUNDS:
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
                else:
                    name = character
                at = screen.press_code(codes[character]) if character in codes else screen.key(name)
                presses.append((at, typed))
                time.sleep(0.15)
            time.sleep(1.5)
        return presses
    finally:
        screen.unmap_characters()
        screen.close()


def key_latencies(presses, log):
    """Milliseconds from each press (`type_queries`) to the first paint of its results in the stall log `log`."""
    events = painted_events(log)
    latencies = []
    for index, (at, query) in enumerate(presses):
        # The first paint after the press of results for this query or a later one of the same word, until the field
        # is emptied for the next query (a query's first key).
        typed_on = presses[index:index + 1] + [
            press for press in itertools.takewhile(lambda press: len(press[1]) > 1, presses[index + 1:])]
        later = [text for _, text in typed_on if text.startswith(query) or query.startswith(text)]
        paint = next((when for when, text in events if when >= at and text in later), None)
        if paint is not None:
            latencies.append((paint - at) * 1000)
            if EACH:
                asked = next((when for when, what in events_of(log, "query-asked") if when >= at and what == query), None)
                came = next((when for when, what in events_of(log, "results-came") if when >= at and what == query), None)
                print("  %-14r %7.1f ms (key to asked %s, to results back %s)" % (
                    query, (paint - at) * 1000, "%.1f" % ((asked - at) * 1000) if asked else "-",
                    "%.1f" % ((came - at) * 1000) if came else "-"))
    return latencies


def callgrind_key(binary, desktop, state, work, run):
    """Instructions (all threads, the workers' part) of one key matching every image, to its results painted."""
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from versus_gthumb import callgrind_dump  # noqa: E402
    stripped = binary + ".nodebug"
    subprocess.run(["strip", "--strip-debug", "-o", stripped, binary], check=True)
    out = os.path.join(work, "callgrind-%d.out" % run)
    wrapper = os.path.join(work, "callgrind-%d.sh" % run)
    with open(wrapper, "w") as script:
        script.write('#!/bin/sh\nexec valgrind --tool=callgrind --callgrind-out-file=%s %s "$@"\n' % (out, stripped))
    os.chmod(wrapper, 0o755)
    log = os.path.join(work, "stall-cg-%d.log" % run)
    app = harness.App(state_raw=state, env_overrides={"IMAGE_GALLERY_STALL_LOG": log}, desktop=desktop,
                      root=os.path.join(work, "app-cg-%d" % run), binary=wrapper)
    app.start(timeout=600)
    try:
        app.wait_cells(lambda cs: len(cs) > 0 and all(c.settled for c in cs), 900, what="the first gallery loaded")
        app.focus()
        app.key("ctrl+f")
        app.wait_for_object("Search", harness.ROLE.TEXT, timeout=300)
        app.key("z")
        wait_for_event(log, lambda text: text == "z", 600)
        app.key("BackSpace")
        time.sleep(10)
        subprocess.run(["callgrind_control", "-z", str(app.proc.pid)], check=True, stdout=subprocess.DEVNULL)
        app.key("c")
        wait_for_event(log, lambda text: text == "c", 600)
        time.sleep(1)
        first = callgrind_dump(app.proc.pid, out)
        # "cr" (9,000 images, 1.2 MiB of text) on a worker, then "cre", which narrows them, counted.
        app.key("r")
        wait_for_event(log, lambda text: text == "cr", 600)
        time.sleep(10)
        subprocess.run(["callgrind_control", "-z", str(app.proc.pid)], check=True, stdout=subprocess.DEVNULL)
        app.key("e")
        wait_for_event(log, lambda text: text == "cre", 600)
        time.sleep(1)
        return first, callgrind_dump(app.proc.pid, out)
    finally:
        app.stop(timeout=120, check=False)


def wait_for_event(log, matches, timeout):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if any(matches(text) for _, text in painted_events(log)):
            return
        time.sleep(0.5)
    raise TimeoutError("no results painted in %s" % log)


def searches_asked(path):
    """(searches asked once the index was built, of those the query just asked again, answered on the GTK thread by
    narrowing the results shown, on a worker) from the stall log: a key the GTK thread refines paints with its letter,
    a worker's search waits for a core; a query asked again is the library's change making it search everything."""
    events = []
    with open(path, encoding="utf-8") as log:
        for line in log:
            if line.startswith("event "):
                _, when, kind, *text = line.rstrip("\n").split(" ", 3)
                events.append((float(when), kind, text[0] if text else ""))
    built = next((when for when, kind, _ in events if kind == "index-built"), 0)
    asked = [(when, text) for when, kind, text in events if kind == "query-asked" and when >= built]
    came = [(when, text) for when, kind, text in events if kind == "results-came" and when >= built]
    again = sum(1 for before, after in zip(asked, asked[1:]) if before[1] == after[1])
    refined = sum(1 for when, text in asked
                  if any(text == other and when <= back < when + 0.002 for back, other in came))
    return len(asked), again, refined, len(asked) - refined


def percentile(values, fraction):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(fraction * (len(ordered) - 1))))]


def main():
    global EACH, GALLERIES, PER_GALLERY, ROUNDS
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--each", action="store_true", help="print every key's latency")
    parser.add_argument("--versus", help="another build, run in turn with this one")
    parser.add_argument("--callgrind", action="store_true", help="count one key's instructions under callgrind")
    parser.add_argument("--galleries", type=int, default=GALLERIES)
    parser.add_argument("--per-gallery", type=int, default=PER_GALLERY)
    parser.add_argument("--metacity", action="store_true", help="run Metacity on the display")
    parser.add_argument("--rounds", type=int, default=ROUNDS, help="type the queries this many times a run")
    args = parser.parse_args()
    EACH = args.each
    ROUNDS = args.rounds
    GALLERIES, PER_GALLERY = args.galleries, args.per_gallery
    binary = harness.benchmark_binary()
    binaries = [binary] + ([args.versus] if args.versus else [])
    work = tempfile.mkdtemp(prefix="gallery-search-bench-")
    state = library(work)
    desktop = harness.start_desktop(window_manager="metacity") if args.metacity else harness.start_desktop()
    if args.callgrind:
        try:
            for run, each in enumerate(binaries):
                (total, workers), (narrow_total, narrow_workers) = callgrind_key(each, desktop, state, work, run)
                print("%s: one key matching every image, to painted: %.1f M instructions, workers %.1f M, the rest "
                      "%.1f M" % (os.path.relpath(each, harness.REPO_ROOT), total / 1e6, workers / 1e6,
                                  (total - workers) / 1e6))
                print("%s: a key narrowing 9,000 results (“cr” to “cre”), to painted: %.1f M instructions, workers "
                      "%.1f M, the rest %.1f M" % (os.path.relpath(each, harness.REPO_ROOT), narrow_total / 1e6,
                                                  narrow_workers / 1e6, (narrow_total - narrow_workers) / 1e6))
        finally:
            harness.stop_desktop()
        return
    rows = {each: [] for each in binaries}
    pooled = {each: [] for each in binaries}
    try:
        for run in range(args.runs):
            for each in binaries:
                latencies, before, after, keys = one_run(each, desktop, state, work, len(rows[each]) * 2 + (each != binary))
                if not latencies:
                    sys.exit("no results-painted events: build with `swift build -c release --traits StallLog`")
                row = (statistics.median(latencies), percentile(latencies, 0.99), max(latencies), before, after,
                       (after - before) / after * 100, len(latencies), keys)
                rows[each].append(row)
                pooled[each] += latencies
                print("%s run %d: key to results painted median %.1f ms, p99 %.1f ms, max %.1f ms; memory %.1f MiB "
                      "before searching, %.1f MiB after (+%.1f%%); %d of %d keys painted"
                      % ((os.path.relpath(each, harness.REPO_ROOT), run + 1) + row))
    finally:
        harness.stop_desktop()
    for each in binaries:
        print("binary: %s, %d images in %d galleries, %d runs" % (
            os.path.relpath(each, harness.REPO_ROOT), GALLERIES * PER_GALLERY, GALLERIES, len(rows[each])))
        for name, column in (("median ms", 0), ("p99 ms", 1), ("max ms", 2), ("before MiB", 3), ("after MiB", 4),
                             ("growth %", 5)):
            values = [row[column] for row in rows[each]]
            print("  %-12s median %.1f, range %.1f–%.1f" % (
                name, statistics.median(values), min(values), max(values)))
        keys = pooled[each]
        print("  every run's keys together: %d painted, median %.1f ms, p99 %.1f ms, over 50 ms %d, over 16 ms %d" % (
            len(keys), statistics.median(keys), percentile(keys, 0.99), sum(1 for k in keys if k > 50),
            sum(1 for k in keys if k > 16)))


if __name__ == "__main__":
    main()
