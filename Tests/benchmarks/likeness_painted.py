#!/usr/bin/python3
"""More Like This and a colour search at 250,000 images, to their results painted (issue 45):
`/usr/bin/python3 Tests/benchmarks/likeness_painted.py [--count 250000] [--runs 3] [--samples 5] [--metacity]`.

The app ($IMAGE_GALLERY_BIN, else `.build/release/image-gallery`; built with `--traits StallLog`, whose log says when
each new set of search results was first painted: `results-drawn COUNT KIND`, KIND `look-alikes` or `colour:NAME`)
starts under Xvfb on a library `generated_library.py` makes (COUNT images in 200 galleries, each with its likeness
measured; generated once into /tmp/image-gallery-bench-homes/likeness-COUNT/ and linked into each run's data folder),
and waits for its first screen and its search index (`index-built`). Then, `--samples` times each:
1. More Like This: a right click on a visible cell (another each time, in the gallery or in the look-alikes shown),
   the pointer moved onto the menu's “More Like This”, and its button pressed (XTEST, the press's time known to the
   millisecond): from the press to the first paint of the look-alikes (`results-drawn ... look-alikes`);
2. a colour: the search bar's “Add a Filter”, “Colour”, then a named colour (another each time, which replaces the
   one before) pressed the same way: from the press to the first paint of that colour's results.
The GTK thread activates a menu item at the button's release, which follows the press at once. Each run reports
its samples and the load average; then the median and range over every sample of every run.

`--scrolling`: instead, frames while the gallery scrolls during the launch's likeness pass. The library is generated
without likenesses (`generated_library.py --no-likeness`), so the launch measures every image's in the background;
once the first screen is painted, the gallery scrolls by `--scroll-seconds` of wheel clicks (XTEST, 20 a second, down
then up); then the same on the library with its likenesses (no pass), in the same sitting. Per run: the GTK thread's
stalls over 8 ms and over 16.7 ms (a frame late at 60 Hz) in the StallLog while scrolling, the longest, and the
app's processor time meanwhile (every thread: the pass's share shows as the difference). Not a test.
"""
import argparse
import glob
import os
import statistics
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "e2e"))
sys.path.insert(0, HERE)
import harness  # noqa: E402
from actions_helpers import menu_item  # noqa: E402
from generated_library import write_library  # noqa: E402
from screen_watch import Screen  # noqa: E402
from search_typing import events_of, wait_for_index  # noqa: E402
from test_search import showing_button  # noqa: E402
from versus_gthumb import cpu_seconds  # noqa: E402

HOMES = "/tmp/image-gallery-bench-homes"
EACH = False
COLOURS = ["Red", "Blue", "Green", "Yellow", "Orange", "Purple", "Pink", "Brown", "Grey", "White", "Black"]


def generated(count, likeness=True):
    """The generated library's folder (state.json and originals/), made once per count."""
    folder = os.path.join(HOMES, "likeness-%d%s" % (count, "" if likeness else "-unmeasured"), "library")
    marker = os.path.join(folder, "generated-%d" % count)
    if not os.path.exists(marker):
        write_library(folder, count, log=print, likeness=likeness)
        open(marker, "w").close()
    return folder


def linked_into(app, folder):
    """The library's state file and originals linked into `app`'s data folder: the app replaces, never writes into."""
    os.makedirs(app.state_dir, exist_ok=True)
    os.link(os.path.join(folder, "state.json"), app.state_path)
    for path in glob.glob(os.path.join(folder, "originals", "*", "*")):
        target = os.path.join(app.state_dir, os.path.relpath(path, folder))
        os.makedirs(os.path.dirname(target), exist_ok=True)
        os.link(path, target)
    app._state_written = True


def drawn_events(path):
    """[(monotonic seconds, count, kind)] of the stall log's results-drawn lines."""
    events = []
    with open(path, encoding="utf-8") as log:
        for line in log:
            parts = line.rstrip("\n").split(" ")
            if line.startswith("event ") and len(parts) >= 5 and parts[2] == "results-drawn":
                events.append((float(parts[1]), int(parts[3]), " ".join(parts[4:])))
    return events


def wait_drawn(log, since, kind, asked, timeout=60):
    """(milliseconds from `since`, count) of the first results of `kind` painted after `since`; with --each, also
    when the query `asked` was asked and its results came back."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = [(when, count) for when, count, what in drawn_events(log) if when >= since and what == kind]
        if found:
            if EACH:
                steps = [next((when for when, what in events_of(log, step) if when >= since and what == asked), None)
                         for step in ("query-asked", "results-came")]
                print("  %s: asked %s ms, results back %s ms, painted %.1f ms (%d results)" % (
                    kind, *["%.1f" % ((when - since) * 1000) if when else "-" for when in steps],
                    (found[0][0] - since) * 1000, found[0][1]), flush=True)
            return (found[0][0] - since) * 1000, found[0][1]
        time.sleep(0.1)
    raise TimeoutError("no %s results painted within %d s" % (kind, timeout))


def press_on(app, screen, node):
    """Moves the pointer onto `node` (an AT-SPI object), then presses and releases the first button; returns the
    press's time."""
    x, y, w, h = node.extents()
    app.desktop.xdotool("mousemove", "--sync", x + w // 2, y + h // 2)
    time.sleep(0.3)  # the menu's item under the pointer lights up, as a user's hand rests before clicking
    at = screen.button(True)
    screen.button(False)
    return at


def more_like_this(app, screen, log, sample):
    cells = app.wait_cells(lambda cs: len(cs) > 1, 30, what="cells to pick from")
    cell = cells[(sample * 3 + 1) % len(cells)]
    app.desktop.click(int(cell.center[0]), int(cell.center[1]), button=3)
    at = press_on(app, screen, menu_item(app, "More Like This", timeout=15))
    return wait_drawn(log, at, "look-alikes", "look-alikes")


def colour(app, screen, log, sample):
    name = COLOURS[sample % len(COLOURS)]
    app.desktop.click(*centre(showing_button(app, "Add a Filter")))
    app.desktop.click(*centre(menu_item(app, "Colour", timeout=15)))
    at = press_on(app, screen, menu_item(app, name, timeout=15))
    return wait_drawn(log, at, "colour:" + name.lower(), "")


def centre(node):
    x, y, w, h = node.extents()
    return x + w // 2, y + h // 2


def started(binary, desktop, folder, root):
    """The app on the library in `folder`, its home `root`, its first gallery shown: (app, its stall log, a Screen,
    the load average before it started)."""
    log = os.path.join(root, "stall.log")
    app = harness.App(env_overrides={"IMAGE_GALLERY_STALL_LOG": log}, desktop=desktop, root=root, binary=binary)
    linked_into(app, folder)
    load = os.getloadavg()[0]
    app.start(timeout=300)
    screen = Screen(desktop.display)
    try:
        app.resize(1280, 1000)
        app.wait_cells(lambda cs: len(cs) > 0 and all(c.settled for c in cs), 600, what="the first gallery loaded")
    except BaseException:
        screen.close()
        app.stop(timeout=60)
        raise
    return app, log, screen, load


def one_run(binary, desktop, folder, run, samples):
    root = os.path.join(HOMES, "likeness-run-%d-%d" % (os.getpid(), run))
    app, log, screen, first_load = started(binary, desktop, folder, root)
    load = [first_load]
    try:
        wait_for_index(log, 900)
        time.sleep(2)
        app.focus()
        alike = [more_like_this(app, screen, log, sample) for sample in range(samples)]
        app.key("Escape")
        app.key("ctrl+f")
        coloured = [colour(app, screen, log, sample) for sample in range(samples)]
        load.append(os.getloadavg()[0])
    finally:
        screen.close()
        app.stop(timeout=60)
    return alike, coloured, load


def stalls_in(path, since, until):
    """The stalls (ms) the log's lines put between monotonic `since` and `until`."""
    with open(path, encoding="utf-8") as log:
        lines = log.read().splitlines()
    start = float(lines[0].split()[1])
    ended = [(start + float(line.split()[1]), float(line.split()[2])) for line in lines if line.startswith("stall ")]
    return [ms for at, ms in ended if since <= at - ms / 1000 and at <= until]


def scrolling_run(binary, desktop, folder, run, seconds):
    """(stalls in ms while scrolling, the app's processor seconds meanwhile, load averages)."""
    root = os.path.join(HOMES, "likeness-scroll-%d-%d-%s" % (os.getpid(), run, os.path.basename(
        os.path.dirname(folder))))
    app, log, screen, first_load = started(binary, desktop, folder, root)
    load = [first_load]
    try:
        x, y, w, h = app.gallery().extents()
        app.desktop.xdotool("mousemove", "--sync", x + w // 2, y + h // 2)
        cpu_before, since = cpu_seconds(app.proc.pid), time.monotonic()
        clicks = int(seconds * 20)
        for index in range(clicks):
            screen.button(True, 5 if index < clicks // 2 else 4)
            screen.button(False, 5 if index < clicks // 2 else 4)
            time.sleep(max(0.0, since + (index + 1) / 20 - time.monotonic()))
        until = time.monotonic()
        cpu = cpu_seconds(app.proc.pid) - cpu_before
        load.append(os.getloadavg()[0])
    finally:
        screen.close()
        app.stop(timeout=60)
    return stalls_in(log, since, until), cpu, load


def scrolling(binary, desktop, args):
    unmeasured, measured = generated(args.count, likeness=False), generated(args.count)
    rows = {"during the likeness pass": [], "with every likeness kept": []}
    for run in range(args.runs):
        for name, folder in (("during the likeness pass", unmeasured), ("with every likeness kept", measured)):
            stalls, cpu, load = scrolling_run(binary, desktop, folder, run, args.scroll_seconds)
            late = [ms for ms in stalls if ms > 1000 / 60]
            rows[name].append((len(stalls), len(late), max(stalls, default=0.0), cpu))
            print("run %d, %s: %d stalls over 8 ms, %d over 16.7 ms, longest %.1f ms; app CPU %.1f s in %.0f s of "
                  "scrolling; load average %s" % (run + 1, name, len(stalls), len(late), max(stalls, default=0.0), cpu,
                                                 args.scroll_seconds, "–".join("%.2f" % v for v in load)), flush=True)
    for name, values in rows.items():
        print("%s, %d images, %d runs:" % (name, args.count, len(values)))
        for label, column in (("stalls over 8 ms", 0), ("over 16.7 ms", 1), ("longest ms", 2), ("app CPU s", 3)):
            column_values = [row[column] for row in values]
            print("  %-16s median %.1f, range %.1f–%.1f" % (
                label, statistics.median(column_values), min(column_values), max(column_values)))


def summary(name, values):
    return "%s: median %.1f ms, range %.1f–%.1f ms over %d samples" % (
        name, statistics.median(values), min(values), max(values), len(values))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--count", type=int, default=250000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--samples", type=int, default=5)
    parser.add_argument("--metacity", action="store_true", help="run Metacity on the display")
    parser.add_argument("--scrolling", action="store_true", help="frames while scrolling during the likeness pass")
    parser.add_argument("--scroll-seconds", type=float, default=20)
    parser.add_argument("--each", action="store_true", help="print when each sample was asked and answered")
    args = parser.parse_args()
    global EACH
    EACH = args.each
    release = os.path.join(harness.REPO_ROOT, ".build", "release", "image-gallery")
    binary = os.environ.get("IMAGE_GALLERY_BIN") or release
    desktop = harness.start_desktop(window_manager="metacity") if args.metacity else harness.start_desktop()
    if args.scrolling:
        try:
            scrolling(binary, desktop, args)
        finally:
            harness.stop_desktop()
        return
    folder = generated(args.count)
    alike, coloured, loads = [], [], []
    try:
        for run in range(args.runs):
            a, c, load = one_run(binary, desktop, folder, run, args.samples)
            alike += [ms for ms, _ in a]
            coloured += [ms for ms, _ in c]
            loads += load
            print("run %d: More Like This %s ms (%s results); colour %s ms (%s results); load average %s" % (
                run + 1, ", ".join("%.1f" % ms for ms, _ in a), ", ".join(str(n) for _, n in a),
                ", ".join("%.1f" % ms for ms, _ in c), ", ".join(str(n) for _, n in c),
                "–".join("%.2f" % value for value in load)), flush=True)
    finally:
        harness.stop_desktop()
    print("binary: %s, %d images in 200 galleries, %d runs" % (os.path.relpath(binary, harness.REPO_ROOT), args.count,
                                                                args.runs))
    print("  " + summary("More Like This to results painted", alike))
    print("  " + summary("a colour to results painted", coloured))
    print("  load average (1 min) over the runs: %.2f–%.2f" % (min(loads), max(loads)))


if __name__ == "__main__":
    main()
