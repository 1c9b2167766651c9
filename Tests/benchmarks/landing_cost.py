#!/usr/bin/python3
"""Images landing in a big gallery: `/usr/bin/python3 Tests/benchmarks/landing_cost.py [--gallery 50000]
[--count 2000] [--runs 3] [--at top|end] [--versus OTHER_BINARY]`.

The app ($IMAGE_GALLERY_BIN, else `.build/release/image-gallery`) on a library of one gallery of `--gallery` images
(`generated_library.py`, galleries=1: kept originals, likenesses and animations known, so nothing runs in the background;
made once under /tmp/image-gallery-bench-homes/landing-N/ and put back before each run), under Xvfb with Metacity,
the window 1280x1024. Once the first screen is painted and the app is quiet, a folder of `--count` distinct small PNGs
(made once) is dropped on the gallery (real XDND): in the middle of the first screen (`--at top`, the images go in
near the start), or after End at the right of the last row (`--at end`, after the last image). Measured from the
button's release until this computer's log in the library's journal names every dropped image: the processor time of the GTK thread (the process's
main thread, /proc/PID/task/PID/schedstat: its frames included) and of the whole app, and the wall time. The dropped
images' originals are removed after each run, so every run keeps them afresh. With `--versus`, that build runs in turn
with this one, run by run. Printed: each run, then median (min–max) per build. Not a test.
"""
import argparse
import glob
import os
import re
import statistics
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "e2e"))
sys.path.insert(0, HERE)
import harness  # noqa: E402
from drag_source import DragSource, target, uri_list  # noqa: E402
from generated_library import write_library  # noqa: E402
from million import Library, wait_quiet  # noqa: E402
from versus_gthumb import HOMES, SIZE, ImageGallery, Session, log, run_alone  # noqa: E402


class OneGallery(Library):
    """The generated library in one gallery, shown at launch."""

    def __init__(self, home, binary, count):
        library = os.path.join(home, "library")
        marker = os.path.join(library, "generated-%d" % count)
        if not os.path.exists(marker):
            log("generating one gallery of %d images ..." % count)
            write_library(library, count, galleries=1, log=log)
            open(marker, "w").close()
        super().__init__(home, binary, count)
        self.originals = os.path.join(os.path.dirname(self.state_path), "originals")
        self.kept = set(self.original_files())

    def original_files(self):
        return glob.glob(os.path.join(self.originals, "*", "*"))

    def forget_dropped(self):
        """The originals the last drop kept go: the next run keeps its images afresh."""
        for path in set(self.original_files()) - self.kept:
            os.unlink(path)


def dropped_folder(count):
    """A folder of `count` distinct small PNGs, made once."""
    folder = os.path.join(HOMES, "landing-drop-%d" % count)
    if not os.path.exists(os.path.join(folder, "done")):
        os.makedirs(folder, exist_ok=True)
        for index in range(count):
            width, height = 48 + index % 97, 40 + (index * 7) % 89
            rgb = (index % 256, (index // 256) % 256, (index * 37) % 256)
            with open(os.path.join(folder, "drop%05d.png" % index), "wb") as out:
                out.write(harness.png_bytes(width, height, rgb))
        open(os.path.join(folder, "done"), "w").close()
    return folder


def one_run(app, folder, count, at):
    with Session() as session:
        try:
            app.write_state()
            started = app.launch(session.desktop, session.screen, SIZE)
            session.screen.wait_painted(ImageGallery.area, started, 600, cpu=app.cpu, what="first screen")
            wait_quiet(app)
            app.focus(session.screen)
            x, y, width, height = ImageGallery.area
            point = (x + width // 2, y + height // 3)
            if at == "end":
                session.screen.key("End")
                wait_quiet(app, still=1.0)
                point = (x + width - 24, y + height - 60)
            since = app.log_end()
            uri = harness.file_url(folder)
            with DragSource(session.desktop, [target("text/uri-list", uri_list(uri))],
                            workdir=os.path.join(app.home, "drag-source")) as source:
                # Read just before the button's release.
                gtk, cpu, released = source.drag_into(
                    point, while_hovering=lambda: (app.gtk_thread_ns(), app.cpu(), time.monotonic()))
                source.wait_for("drag-end", timeout=30)
                while len(set(re.findall(rb"drop\d{5}\.png", app.appended(since)))) < count:
                    app.check_alive()
                    if time.monotonic() - released > 600:
                        raise TimeoutError("the drop did not land in 600 s")
                    time.sleep(0.05)
                figures = {"gtk": (app.gtk_thread_ns() - gtk) / 1e6, "cpu": (app.cpu() - cpu) * 1e3,
                           "wall": (time.monotonic() - released) * 1e3}
            return figures
        finally:
            app.stop()
            app.forget_dropped()


def summary(values):
    return "%.0f (%.0f–%.0f)" % (statistics.median(values), min(values), max(values))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--gallery", type=int, default=50000)
    parser.add_argument("--count", type=int, default=2000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--at", choices=("top", "end"), default="top")
    parser.add_argument("--versus", help="another build's binary, run in turn")
    args = parser.parse_args()
    run_alone()
    binaries = [harness.benchmark_binary()] + ([args.versus] if args.versus else [])
    folder = dropped_folder(args.count)
    results = {binary: [] for binary in binaries}
    for run in range(args.runs):
        for binary in binaries:
            app = OneGallery(os.path.join(HOMES, "landing-%d" % args.gallery), binary, args.gallery)
            log("%s, run %d/%d (load average %.1f)" % (binary, run + 1, args.runs, os.getloadavg()[0]))
            figures = one_run(app, folder, args.count, args.at)
            log("  GTK thread %.0f ms, app %.0f ms, wall %.0f ms" % (figures["gtk"], figures["cpu"], figures["wall"]))
            results[binary].append(figures)
    print("%d images dropped (%s) into a gallery of %d, %d runs" % (args.count, args.at, args.gallery, args.runs))
    print("| build | GTK thread, ms | whole app, ms | release → all saved, ms |")
    print("| --- | --- | --- | --- |")
    for binary in binaries:
        runs = results[binary]
        print("| %s | %s | %s | %s |" % (binary, summary([r["gtk"] for r in runs]), summary([r["cpu"] for r in runs]),
                                         summary([r["wall"] for r in runs])))


if __name__ == "__main__":
    main()
