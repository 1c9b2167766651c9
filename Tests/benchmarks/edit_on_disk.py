#!/usr/bin/python3
"""An edit on disk (issue 48): `/usr/bin/python3 Tests/benchmarks/edit_on_disk.py [--sizes 10000,50000] [--runs 3]
[--right-after SECONDS] [--versus BINARY] [--home NAME] [--keep-journal]`.

The app ($IMAGE_GALLERY_BIN, else `.build/release/image-gallery`) on million.py's generated library (N images in 200
galleries, its state.json put back before each launch), in a fresh Xvfb with Metacity as million.py runs it. One
warm-up launch, then per run: a launch, the first screen painted, the app left until it is quiet, then a move (Home,
Alt+Right: the first image one place on), measured from the key until it is on disk (a build that keeps the library in
state.json: the file holds the new order; one that keeps a journal: this computer's log has grown by the move's
record), the bytes the app wrote from the key until its writes stay still for 1 s (/proc/PID/io write_bytes), and the
GTK thread's processor time from the key until the move is on disk (/proc/PID/task/PID/schedstat).
The journal is kept from one launch to the next, as a user's is: the warm-up's first edit writes its first snapshot.
`--right-after SECONDS` makes the move that long after the StallLog's `rest-adopted` (a launch that read its shown
gallery first has the rest of the library in) instead of once the app is quiet: while the launch's upkeep (the clean-up
of originals) and the rest of its background work run. `--versus BINARY` runs another build in turn, run by run, on
the same journal; `--home NAME` takes the homes NAME-N (default edit-on-disk-N) in /tmp/image-gallery-bench-homes/, so
that one helper's runs leave another's journal alone; `--keep-journal` starts from the journal the home holds, without
the warm-up (which carries state.json over and writes the first snapshot: minutes at a million). Printed: each run's
figures (with the key's time on CLOCK_MONOTONIC, the StallLog's clock), then median (min–max) per size and build.
Not a test.
"""
import argparse
import glob
import os
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "e2e"))
sys.path.insert(0, HERE)
import harness  # noqa: E402
from million import Library, cell, chord, in_order, wait_quiet, wait_writes_still  # noqa: E402
from versus_gthumb import HOMES, SIZE, ImageGallery, Session, log, run_alone  # noqa: E402


def journal_log(app):
    """This computer's log, nil for a build that keeps state.json."""
    logs = glob.glob(os.path.join(os.path.dirname(app.state_path), "journal", "*.log"))
    return max(logs, key=os.path.getmtime) if logs else None


def size_of(path):
    try:
        return os.path.getsize(path)
    except OSError:
        return 0


def move_on_disk(app, screen, timeout):
    """Alt+Right on the first image: (seconds from the key until it is on disk, bytes written, the GTK thread's
    processor time from the key until then in ms)."""
    first, second = app.image_id(0), app.image_id(1)
    log_path = journal_log(app)
    start = size_of(log_path) if log_path else None
    revision, written, gtk = app.file_revision(), app.written_bytes(), app.gtk_thread_ns()
    pressed = chord(screen, "Alt_L", "Right")
    log("  key pressed at %.6f (monotonic)" % pressed)
    deadline = pressed + timeout
    while time.monotonic() < deadline:
        if log_path is not None:
            if size_of(log_path) > start:
                with open(log_path, "rb") as f:
                    f.seek(start)
                    appended = f.read()
                    # The journal is kept between runs: the first image is the one an earlier run moved on.
                    if any(b'"image":"%s"' % image.encode() in appended for image in (first, second)):
                        break
        elif app.file_revision() != revision:
            revision = app.file_revision()
            if in_order(app.file_text(), [second, first]):
                break
        time.sleep(0.005)
        app.check_alive()
    else:
        return None, app.written_bytes() - written, (app.gtk_thread_ns() - gtk) / 1e6
    seen = time.monotonic()
    gtk_ms = (app.gtk_thread_ns() - gtk) / 1e6
    return seen - pressed, wait_writes_still(app) - written, gtk_ms


def wait_event(app, name, limit=300):
    """Waits until the StallLog names `name` (`event <seconds> <name>`); False when it did not within `limit`."""
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        if os.path.exists(app.stall_log):
            with open(app.stall_log) as f:
                if any(line.startswith("event ") and line.rstrip("\n").endswith(" " + name) for line in f):
                    return True
        time.sleep(0.02)
        app.check_alive()
    return False


def one_run(app, results, timeout, right_after=None):
    with Session() as session:
        try:
            app.write_state()
            started = app.launch(session.desktop, session.screen, SIZE)
            session.screen.wait_painted(ImageGallery.area, started, 900, cpu=app.cpu)
            if right_after is None:
                wait_quiet(app)
            app.focus(session.screen)
            session.screen.key("Home")
            time.sleep(0.5)
            if right_after is not None:
                # The launch's background work has begun once the whole library is in (the rest adopted).
                if not wait_event(app, "rest-adopted"):
                    log("  no rest-adopted event (a StallLog build reading the shown gallery first is needed)")
                time.sleep(right_after)
            latency, written, gtk_ms = move_on_disk(app, session.screen, timeout)
            if results is None and right_after is not None:
                # The measured launches read the shown gallery first only from a snapshot: the warm-up's is let finish.
                journal = os.path.join(os.path.dirname(app.state_path), "journal")
                deadline = time.monotonic() + 600
                while not glob.glob(os.path.join(journal, "snapshot-*.json")) and time.monotonic() < deadline:
                    time.sleep(0.5)
                wait_writes_still(app)
            log("  a move: on disk after %s, %.1f kB written, GTK thread %.1f ms"
                % ("%.3f s" % latency if latency is not None else "(not within %d s)" % timeout, written / 1e3,
                   gtk_ms))
            if results is not None and latency is not None:
                results["latency"].append(latency)
                results["bytes"].append(written)
                results["gtk_ms"].append(gtk_ms)
        finally:
            app.stop()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--sizes", default="10000,50000")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--timeout", type=float, default=60)
    parser.add_argument("--right-after", type=float, default=None, metavar="SECONDS",
                        help="edit SECONDS after the rest of the library is in, not once the app is quiet")
    parser.add_argument("--home", default="edit-on-disk", help="the homes' name, before the size")
    parser.add_argument("--keep-journal", action="store_true",
                        help="start from the journal an earlier run left in the home, without a warm-up")
    parser.add_argument("--versus", metavar="BINARY", help="another build, run by run in turn on the same journal")
    args = parser.parse_args()
    run_alone()
    binary = os.environ.get("IMAGE_GALLERY_BIN") or os.path.join(harness.REPO_ROOT, ".build", "release",
                                                                 "image-gallery")
    binaries = [binary] + ([args.versus] if args.versus else [])
    table = {}
    for count in [int(n) for n in args.sizes.split(",")]:
        # A home of its own (million.py's may be in use), its generated library linked from million.py's when there.
        home = os.path.join(HOMES, "%s-%d" % (args.home, count))
        shared = os.path.join(HOMES, "million-%d" % count, "library")
        if not os.path.exists(home) and os.path.exists(os.path.join(shared, "generated-%d" % count)):
            os.makedirs(home)
            subprocess.run(["cp", "-al", shared, os.path.join(home, "library")], check=True)
        apps = [Library(home, each, count) for each in binaries]
        # The builds start from the generated state.json alone: no journal, no record of another build's; with
        # `--versus` they share the journal the warm-up makes, as one user's builds in turn would.
        for path in [] if args.keep_journal else glob.glob(
                os.path.join(os.path.dirname(apps[0].state_path), "journal", "*")) + glob.glob(
                os.path.join(apps[0].home, ".local", "state", "image-gallery", "journal-*")):
            os.unlink(path)
        results = {each: {"latency": [], "bytes": [], "gtk_ms": []} for each in binaries}
        if not args.keep_journal:
            log("%d images: warm-up" % count)
            one_run(apps[0], None, args.timeout, args.right_after)
        for run in range(args.runs):
            for each, app in zip(binaries, apps):
                log("%d images, run %d/%d, %s (load average %.1f)"
                    % (count, run + 1, args.runs, each, os.getloadavg()[0]))
                one_run(app, results[each], args.timeout, args.right_after)
        table[count] = results
    print("%d runs each%s" % (args.runs, "" if args.right_after is None else
                               ", edits %.1f s after the rest was in" % args.right_after))
    print("| images | binary | a move: on disk after | a move: written | GTK thread |")
    print("| --- | --- | --- | --- | --- |")
    for count, by_binary in table.items():
        for each, results in by_binary.items():
            print("| {:,} | {} | {} | {} | {} |".format(
                count, each, cell(results["latency"], 1e-3, "ms", 0), cell(results["bytes"], 1e3, "kB", 1),
                cell(results["gtk_ms"], 1, "ms", 1)))


if __name__ == "__main__":
    main()
