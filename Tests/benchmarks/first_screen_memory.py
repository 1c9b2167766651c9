#!/usr/bin/python3
"""Peak memory after the first screen, Image Gallery against gThumb (issue 48's goal: at most 0.4 of gThumb's):
`/usr/bin/python3 Tests/benchmarks/first_screen_memory.py [--runs 3]`.

`versus_gthumb.py`'s homes, photos (10,000), launch and "painted" (Metacity, 1280x1024), without its whole-folder
warm-ups (a first screen needs only its own thumbnails, which any earlier run of either app made) and without the
keys: one unmeasured launch each, then --runs launches each, alternating, printing each app's peak RSS (VmHWM) once
painted, median and range, and the ratio. The app is $IMAGE_GALLERY_BIN, else the release build.
Our library is one the app has measured (`versus_gthumb.py` gives every image a likeness): the launch's likeness pass
does not run.
"""
import argparse
import os
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "e2e"))
import versus_gthumb as vg  # noqa: E402


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    import harness
    release = os.path.join(harness.REPO_ROOT, ".build", "release", "image-gallery")
    binary = os.path.abspath(os.environ.get("IMAGE_GALLERY_BIN") or release)
    vg.run_alone()
    vg.setup()
    bench = vg.Bench(argparse.Namespace(runs=args.runs, count=10000, fresh=False, binary=binary,
                                        artifacts="/tmp/image-gallery-bench-artifacts", only="launch"))
    bench.prepare()

    def first_screen(app, measured, timeout=180):
        with vg.Session() as session:
            try:
                started = app.launch(session.desktop, session.screen, vg.SIZE)
                result = bench.painted(session, app, started, "first screen after launch", timeout=timeout)
                peak = app.peak_mb()
                vg.log("  %s%s: first screen painted %.2f s, peak RSS %.1f MB" % (
                    app.name, "" if measured else " (warm-up)", result["t"], peak))
                return peak
            finally:
                app.stop()

    vg.log("binary: %s" % binary)
    first_screen(bench.ours, False, timeout=1500)
    first_screen(bench.gthumb, False)
    peaks = {"ours": [], "gthumb": []}
    for i in range(args.runs):
        order = [(bench.ours, "ours"), (bench.gthumb, "gthumb")]
        for app, who in (order if i % 2 == 0 else order[::-1]):
            peaks[who].append(first_screen(app, True))
    for who, values in peaks.items():
        print("%s: peak RSS after the first screen, median %.1f MB (%.1f-%.1f)" % (
            who, statistics.median(values), min(values), max(values)))
    print("ours / gThumb: %.2f (goal at most 0.4); each round: %s" % (
        statistics.median(peaks["ours"]) / statistics.median(peaks["gthumb"]),
        ", ".join("%.2f" % (o / g) for o, g in zip(peaks["ours"], peaks["gthumb"]))))


if __name__ == "__main__":
    main()
