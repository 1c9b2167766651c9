#!/usr/bin/python3
"""A million images (issue 48): `/usr/bin/python3 Tests/benchmarks/million.py [--sizes 10000,100000,1000000]
[--runs 3] [--warm-ups 1] [--no-search] [--home NAME] [--launch-only [--first-screen-only]]`.

The app ($IMAGE_GALLERY_BIN, else `.build/release/image-gallery`; built with `--traits StallLog`, whose log says when
search results were painted) on a library `generated_library.py` makes (N images in 200 galleries, with origins, notes,
tags, kept originals; generated once per size into /tmp/image-gallery-bench-homes/million-N/, and put back before each
run, so every run starts from the same file). Each run is a fresh Xvfb with Metacity, as versus_gthumb.py runs it,
the window 1280x1024 at (0, 0), showing the first gallery. Per size: one warm-up launch (the first screen's
thumbnails), then `--runs` runs of:
1. warm launch -> first screen painted (screen_watch.py: the window's content still for 0.5 s, with pictures
   everywhere in the gallery, which the app's accessible tree places beside the sidebar when the library shows it: the
   sidebar's rows are no pictures, its selected row no background), from the Popen;
   the app's processor time until then (every thread, utime+stime: what a busy machine does not stretch); peak
   resident memory (VmHWM) then;
2. the app left until its processor time stays under 5% for 2 s (at most 120 s): what the launch left to the background
   (the search index, the clean-up of originals); the peak resident memory then;
3. three edits as the e2e tests drive them, each once the one before is on disk: a move (Home, then Alt+Right: the
   first image one place on), a tag (Ctrl+T on it, the tag typed, Return) and a note (Alt+Return, Alt+N, the note
   typed, Escape). Each from its last key until this computer's log in the library's journal (its size polled every
   10 ms, then what was appended read) holds it: the latency; the bytes the app wrote meanwhile (/proc/PID/io write_bytes, until it stays still for 1 s after);
   the processor time of the GTK thread (the process's main thread, /proc/PID/task/PID/schedstat) from the key to
   the file holding it, which includes the frames it drew meanwhile (a dialog closing, the cell's new tag);
4. a hundred edits in a minute: Home, then Alt+Right 100 times 0.6 s apart (the first image walks 100 places, back
   with Alt+Left from the end of a gallery of fewer), and
   the bytes written from the first key until write_bytes is still for 1 s, and when the log last grew by a record
   of the walking image (the last move on disk);
5. search as you type: search_typing.py's queries typed into Ctrl+F's field (its `type_queries`), each key to its
   results painted (the StallLog's `results-painted`), over all keys of the run: median and 99th percentile.
`--home NAME` runs in a home of its own, million-N-NAME (so that two builds' journals stay apart, and the edits stay
out of million-N), beside the generated library it shares, on the library's journal made once (a launch carries
state.json over, a move is saved and the snapshot it leads to written); without it the runs are in million-N, or in
million-N-launch with `--launch-only`. `--launch-only` runs steps 1 and 2 alone; `--first-screen-only` step 1 alone (a
million images' background work takes minutes a run). A home copied (`cp -a`) to another name is a new library folder
to the app, which carries state.json over again unless the folder in the copy's
.local/state/image-gallery/journal-state-file.json is made the copy's.
Printed: each run's figures, then a table of median (min–max) per size. Not a test.
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
import search_typing  # noqa: E402
from generated_library import write_library  # noqa: E402
from versus_gthumb import GALLERY_INSET, HOMES, SIZE, ImageGallery, Session, log, memory_mb, run_alone  # noqa: E402

SIZES = (10000, 100000, 1000000)


class Library(ImageGallery):
    """Our app on a generated library, which each run starts from again."""
    place_within = 600  # a million images' window maps late on a busy machine

    def __init__(self, home, binary, count, source=None):
        self.library = os.path.join(source or home, "library")
        self.count = count
        marker = os.path.join(self.library, "generated-%d" % count)
        if not os.path.exists(marker):
            log("generating %d images ..." % count)
            self.size = write_library(self.library, count, log=log)
            open(marker, "w").close()
        self.size = os.path.getsize(os.path.join(self.library, "state.json"))
        super().__init__(home, binary, [], [])
        originals = os.path.join(os.path.dirname(self.state_path), "originals")
        for path in glob.glob(os.path.join(self.library, "originals", "*", "*")):
            target = os.path.join(originals, os.path.relpath(path, os.path.join(self.library, "originals")))
            if not os.path.exists(target):
                os.makedirs(os.path.dirname(target), exist_ok=True)
                os.link(path, target)

    def write_state(self):
        """The generated file, linked: the app replaces state.json by a rename, never writing into it."""
        if not hasattr(self, "library"):
            return
        if os.path.exists(self.state_path):
            os.unlink(self.state_path)
        os.link(os.path.join(self.library, "state.json"), self.state_path)
        local = os.path.join(self.home, ".local", "state", "image-gallery")
        for name in glob.glob(os.path.join(local, "last-*-state*.json")):
            os.unlink(name)

    def image_id(self, index):
        return "g000i%07d" % index

    def written_bytes(self):
        with open("/proc/%d/io" % self.proc.pid) as io:
            return int(next(line for line in io if line.startswith("write_bytes:")).split()[1])

    def gtk_thread_ns(self):
        with open("/proc/%d/task/%d/schedstat" % (self.proc.pid, self.proc.pid)) as stat:
            return int(stat.read().split()[0])

    def file_revision(self):
        """state.json's identity (edit_on_disk.py's measure of a build that keeps it)."""
        try:
            info = os.stat(self.state_path)
        except FileNotFoundError:
            return None
        return info.st_ino, info.st_mtime_ns

    def file_text(self):
        with open(self.state_path, "rb") as f:
            return f.read()

    def journal_log(self):
        """This computer's log in the library's journal (the one last written), nil before the first."""
        logs = glob.glob(os.path.join(os.path.dirname(self.state_path), "journal", "*.log"))
        return max(logs, key=os.path.getmtime) if logs else None

    def log_end(self):
        path = self.journal_log()
        return (path, os.path.getsize(path)) if path else (None, 0)

    def appended(self, since):
        """What this computer's log holds past `since` (a `log_end()`): all of it when the log is another."""
        path, start = since
        now = self.journal_log()
        if now is None:
            return b""
        with open(now, "rb") as f:
            if now == path:
                f.seek(start)
            return f.read()


def chord(screen, modifier, name):
    """modifier+name through XTEST; returns the time of the press."""
    from Xlib.ext import xtest
    codes = [screen.keycode(modifier), screen.keycode(name)]
    at = time.monotonic()
    for code in codes:
        xtest.fake_input(screen.d, screen.X.KeyPress, code)
    for code in reversed(codes):
        xtest.fake_input(screen.d, screen.X.KeyRelease, code)
    screen.d.sync()
    return at


def wait_quiet(app, share=0.05, still=2.0, limit=120):
    """Waits until the app's processor time grows by less than `share` of the time for `still` seconds; returns how
    long that took."""
    started = time.monotonic()
    window = [(started, app.cpu())]
    while time.monotonic() - started < limit:
        time.sleep(0.25)
        window.append((time.monotonic(), app.cpu()))
        while window[-1][0] - window[0][0] > still + 0.01:
            window.pop(0)
        if window[-1][0] - window[0][0] >= still - 0.3 and \
                window[-1][1] - window[0][1] <= share * (window[-1][0] - window[0][0]):
            break
    return time.monotonic() - started


def wait_on_disk(app, since, needle, timeout):
    """Polls this computer's log until what was appended past `since` (a `log_end()`) holds `needle`; returns the
    monotonic time it was seen."""
    deadline = time.monotonic() + timeout
    size = since
    while time.monotonic() < deadline:
        now = app.log_end()
        if now != size:
            seen = time.monotonic()
            size = now
            if needle in app.appended(since):
                return seen
        time.sleep(0.01)
        app.check_alive()
    raise TimeoutError("the edit was not on disk within %d s" % timeout)


def wait_writes_still(app, still=1.0, limit=60):
    last, since = app.written_bytes(), time.monotonic()
    deadline = time.monotonic() + limit
    while time.monotonic() - since < still and time.monotonic() < deadline:
        time.sleep(0.1)
        now = app.written_bytes()
        if now != last:
            last, since = now, time.monotonic()
    return last


def in_order(text, ids):
    """Whether the images `ids` come in this order in the state file's text."""
    places = [text.find(b'"%s"' % i.encode()) for i in ids]
    return all(p >= 0 for p in places) and places == sorted(places)


# What a log record that gives an image (or a gallery) a place holds: a move's.
PLACED = b'"key":"'


def measured_edit(app, key, needle, timeout):
    """Presses `key()` (returns the press time) and measures it until this computer's log holds `needle`."""
    since, written, gtk = app.log_end(), app.written_bytes(), app.gtk_thread_ns()
    pressed = key()
    try:
        seen = wait_on_disk(app, since, needle, timeout)
    except TimeoutError:
        return {"latency": None, "bytes": app.written_bytes() - written, "gtk_ms": (app.gtk_thread_ns() - gtk) / 1e6}
    gtk_ms = (app.gtk_thread_ns() - gtk) / 1e6
    return {"latency": seen - pressed, "bytes": wait_writes_still(app) - written, "gtk_ms": gtk_ms}


def first_screen(session, app, started):
    """Waits for the first screen painted: the window's content still for 0.5 s, and the gallery in it (beside the
    sidebar when the library shows it) with pictures everywhere."""
    return session.screen.wait_painted(ImageGallery.area, started, 900, cpu=app.cpu, what="first screen of %d"
                                       % app.count, pictures_in=lambda: app.gallery_area(session.desktop),
                                       inset=GALLERY_INSET)


def one_run(app, args, results, measured):
    with Session() as session:
        try:
            app.write_state()
            started = app.launch(session.desktop, session.screen, SIZE)
            painted = first_screen(session, app, started)
            peak = memory_mb(app.proc.pid, "VmHWM")
            log("  launch -> first screen painted %.2f s (processor time %.2f s), peak RSS %.0f MB"
                % (painted["t"], painted["cpu"], peak))
            if not measured:
                return
            results["launch"].append(painted["t"])
            results["launch_cpu"].append(painted["cpu"])
            results["rss"].append(peak)
            if args.first_screen_only:
                return
            quiet = wait_quiet(app)
            results["rss_quiet"].append(memory_mb(app.proc.pid, "VmHWM"))
            log("  quiet after %.1f s more; peak RSS then %.0f MB" % (quiet, results["rss_quiet"][-1]))
            stalls = app.stalls(since=started + painted["t"])
            if stalls is not None:
                results["stall_after"].append(max([s.ms for s in stalls] or [0]))
                log("  main-loop stalls from the first screen until quiet: %s ms"
                    % (", ".join("%.0f" % s.ms for s in stalls) or "none"))
            if args.launch_only:
                return
            screen, desktop = session.screen, session.desktop
            gui = app.harness_app(desktop)
            app.focus(screen)
            timeout = args.edit_timeout
            # A move: the first image one place on.
            screen.key("Home")
            time.sleep(0.5)
            first, second = app.image_id(0), app.image_id(1)
            # The journal is kept between runs: the first image may be the one an earlier run moved on.
            move = measured_edit(app, lambda: chord(screen, "Alt_L", "Right"), PLACED, timeout)
            # A tag on it (it stays selected).
            tag = "benchtag%d" % len(results["launch"])
            app.focus(screen)
            chord(screen, "Control_L", "t")
            gui.wait_for_object("Tags of 1 Image", timeout=60)
            desktop.type_text(tag)
            tagged = measured_edit(app, lambda: screen.key("Return"), tag.encode(), timeout)
            desktop.key("Escape")
            time.sleep(0.5)
            # A note on it, in its properties.
            note = "benchnote%d" % len(results["launch"])
            app.focus(screen)
            chord(screen, "Alt_L", "Return")
            gui.wait_for_object("Image Properties", timeout=60)
            chord(screen, "Alt_L", "n")
            desktop.type_text(note)
            noted = measured_edit(app, lambda: screen.key("Escape"), note.encode(), timeout)
            for name, edit in (("move", move), ("tag", tagged), ("note", noted)):
                if edit["latency"] is None:
                    results["timeouts"].append("%s not on disk within %.0f s" % (name, timeout))
                    log("  %s: not on disk within %.0f s (%.1f MB written meanwhile, GTK thread %.0f ms)"
                        % (name, timeout, edit["bytes"] / 1e6, edit["gtk_ms"]))
                    continue
                for figure in ("latency", "bytes", "gtk_ms"):
                    results["%s_%s" % (name, figure)].append(edit[figure])
                log("  %s: on disk after %.2f s, %.1f MB written, GTK thread %.0f ms"
                    % (name, edit["latency"], edit["bytes"] / 1e6, edit["gtk_ms"]))
            # A hundred edits in a minute: the first image walks 100 places (back from the end of a small gallery).
            time.sleep(1)
            app.focus(screen)
            screen.key("Home")
            time.sleep(0.5)
            order = [second, first] + [app.image_id(i) for i in range(2, app.count // 200)]
            place, step = 0, 1
            written = app.written_bytes()
            begun = time.monotonic()
            for index in range(100):
                if not 0 <= place + step < len(order):
                    step = -step
                place += step
                delay = begun + index * 0.6 - time.monotonic()
                if delay > 0:
                    time.sleep(delay)
                last = chord(screen, "Alt_L", "Right" if step > 0 else "Left")
            # The walk's saves are paced: the last move is on disk with the last place the log takes once the app's
            # writes are still for 1 s.
            since = app.log_end()
            try:
                seen = wait_on_disk(app, since, PLACED, timeout)
                grown, end, still_since = app.log_end(), app.written_bytes(), time.monotonic()
                while time.monotonic() - still_since < 1.0:
                    time.sleep(0.01)
                    now = app.log_end()
                    if now != grown:
                        if PLACED in app.appended(grown):
                            seen = time.monotonic()
                        grown = now
                    if app.written_bytes() != end:
                        end, still_since = app.written_bytes(), time.monotonic()
            except TimeoutError:
                results["timeouts"].append("100 moves: the last not on disk within %.0f s" % timeout)
                log("  100 moves: the last not on disk within %.0f s (%.1f MB written by then)"
                    % (timeout, (app.written_bytes() - written) / 1e6))
                seen = None
            if seen is not None:
                hundred = end - written
                results["hundred_bytes"].append(hundred)
                results["hundred_after"].append(seen - last)
                log("  100 moves in %.0f s: %.1f MB written; the last on disk %.2f s after its key"
                    % (last - begun, hundred / 1e6, seen - last))
            # Search as you type.
            if not args.no_search:
                presses = search_typing.type_queries(gui, desktop)
                has_log = os.path.exists(app.stall_log)
                latencies = search_typing.key_latencies(presses, app.stall_log) if has_log else []
                if latencies:
                    results["search_median"].append(statistics.median(latencies))
                    results["search_p99"].append(search_typing.percentile(latencies, 0.99))
                    log("  search: %d of %d keys painted, median %.1f ms, p99 %.1f ms"
                        % (len(latencies), len(presses), results["search_median"][-1], results["search_p99"][-1]))
                else:
                    log("  search: no results-painted events (a build without the StallLog trait?)")
        finally:
            app.stop()


def make_journal(app, limit=1800):
    """The library's journal, made once: a launch carries state.json over, a move is saved, and the snapshot it leads
    to is written (a launch reads the snapshot from then on)."""
    snapshots = os.path.join(os.path.dirname(app.state_path), "journal", "snapshot-*.json")
    if glob.glob(snapshots):
        return
    log("%d images: making the journal" % app.count)
    with Session() as session:
        try:
            app.write_state()
            started = app.launch(session.desktop, session.screen, SIZE)
            first_screen(session, app, started)
            app.focus(session.screen)
            session.screen.key("Home")
            time.sleep(0.5)
            chord(session.screen, "Alt_L", "Right")
            deadline = time.monotonic() + limit
            while not glob.glob(snapshots):
                if time.monotonic() > deadline:
                    raise TimeoutError("no snapshot within %d s" % limit)
                time.sleep(1)
                app.check_alive()
        finally:
            app.stop()


FIGURES = [
    ("launch", "warm launch → first screen painted", 1, "s", 2),
    ("launch_cpu", "its processor time (all threads)", 1, "s", 2),
    ("rss", "peak RSS after it", 1, "MB", 0),
    ("rss_quiet", "peak RSS once the launch's background work is done", 1, "MB", 0),
    ("stall_after", "longest main-loop stall from the first screen until quiet (StallLog)", 1, "ms", 0),
    ("move_latency", "a move: on disk after", 1, "s", 2),
    ("move_bytes", "a move: written", 1e6, "MB", 1),
    ("move_gtk_ms", "a move: GTK thread", 1, "ms", 0),
    ("tag_latency", "a tag: on disk after", 1, "s", 2),
    ("tag_bytes", "a tag: written", 1e6, "MB", 1),
    ("tag_gtk_ms", "a tag: GTK thread", 1, "ms", 0),
    ("note_latency", "a note: on disk after", 1, "s", 2),
    ("note_bytes", "a note: written", 1e6, "MB", 1),
    ("note_gtk_ms", "a note: GTK thread", 1, "ms", 0),
    ("hundred_bytes", "100 moves in a minute: written", 1e6, "MB", 0),
    ("hundred_after", "100 moves: the last on disk after", 1, "s", 1),
    ("search_median", "search: key → results painted, median", 1, "ms", 1),
    ("search_p99", "search: key → results painted, p99", 1, "ms", 1),
]


def cell(values, scale, unit, digits):
    if not values:
        return "–"
    values = [v / scale for v in values]
    return "%.*f %s (%.*f–%.*f)" % (digits, statistics.median(values), unit, digits, min(values), digits, max(values))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--sizes", default=",".join(str(n) for n in SIZES))
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--edit-timeout", type=float, default=180)
    parser.add_argument("--warm-ups", type=int, default=1, help="unmeasured launches first (0: warm already)")
    parser.add_argument("--no-search", action="store_true")
    parser.add_argument("--launch-only", action="store_true", help="steps 1 and 2 alone, on the library's journal")
    parser.add_argument("--home", help="the home's name, one per build (with --launch-only: 'launch' by default)")
    parser.add_argument("--first-screen-only", action="store_true",
                        help="with --launch-only: step 1 alone, each run ended once its first screen is painted")
    args = parser.parse_args()
    run_alone()
    release = os.path.join(harness.REPO_ROOT, ".build", "release", "image-gallery")
    binary = os.environ.get("IMAGE_GALLERY_BIN") or release
    sizes = [int(n) for n in args.sizes.split(",")]
    table = {}
    for count in sizes:
        began = time.monotonic()
        source = os.path.join(HOMES, "million-%d" % count)
        home = args.home or ("launch" if args.launch_only else None)
        if home:
            app = Library(os.path.join(HOMES, "million-%d-%s" % (count, home)), binary, count, source)
            make_journal(app)
        else:
            app = Library(source, binary, count)
        results = {key: [] for key, *_ in FIGURES}
        results["timeouts"] = []
        for _ in range(args.warm_ups):
            log("%d images (state.json %.0f MB): warm-up" % (count, app.size / 1e6))
            one_run(app, args, results, False)
        for run in range(args.runs):
            log("%d images, run %d/%d (load average %.1f)" % (count, run + 1, args.runs, os.getloadavg()[0]))
            one_run(app, args, results, True)
        table[count] = (results, app.size)
        log("%d images took %.1f min" % (count, (time.monotonic() - began) / 60))
    print("binary: %s, %d runs each" % (binary, args.runs))
    print("| figure | " + " | ".join("{:,} images ({:.0f} MB)".format(n, table[n][1] / 1e6) for n in sizes) + " |")
    print("| --- |" + " --- |" * len(sizes))
    for key, label, scale, unit, digits in FIGURES:
        print("| %s | %s |" % (label, " | ".join(cell(table[n][0][key], scale, unit, digits) for n in sizes)))
    for n in sizes:
        for timeout in table[n][0]["timeouts"]:
            print("{:,} images: {}".format(n, timeout))


if __name__ == "__main__":
    main()
