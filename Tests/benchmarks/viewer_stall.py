#!/usr/bin/python3
"""Opening a 12000×8000 JPEG in the viewer: `/usr/bin/python3 Tests/benchmarks/viewer_stall.py [runs]`.

Starts the built app (release build if present, else debug; built with `--traits StallLog`) under Xvfb on a gallery of that JPEG (96 megapixels,
gradients and blocks, made with PIL) and a small PNG, with IMAGE_GALLERY_STALL_LOG set: the app then logs each
main-loop stall over 8 ms ("stall <seconds> <ms>"). Once the gallery has loaded, each run opens the JPEG (Enter), waits
3 s, shows it at 1:1 (the key 1: a decode bounded to 25 megapixels), waits 4 s, fits it again (Ctrl+0), waits 2 s,
and goes back (Escape). Reported: the
longest stall while it opened and while it went 1:1, how long Enter took to show the viewer over AT-SPI, and the
peak resident memory (VmHWM) before opening, after the fitted open and after 1:1. Not a test: timings go here.
"""
import os
import sys
import tempfile
import time

from PIL import Image, ImageDraw

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "e2e"))
import harness  # noqa: E402


def huge_jpeg(path):
    """12000×8000 with gradients and blocks, so the decoder has real work."""
    gradient = Image.linear_gradient("L").resize((12000, 8000))
    image = Image.merge("RGB", (gradient, gradient.transpose(Image.Transpose.ROTATE_180), gradient.rotate(90)))
    draw = ImageDraw.Draw(image)
    for i in range(40):
        x, y = (i * 997) % 11000, (i * 613) % 7000
        draw.rectangle([x, y, x + 900, y + 700], fill=((i * 67) % 256, (i * 139) % 256, (i * 211) % 256))
    image.save(path, quality=85)


def stalls_since(path, offset):
    """The stalls (ms) logged past byte `offset` of the log."""
    with open(path) as log:
        log.seek(offset)
        return [float(line.split()[2]) for line in log if line.startswith("stall ")]


def log_size(path):
    return os.path.getsize(path) if os.path.exists(path) else 0


def main():
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 3
    binary = harness.benchmark_binary()
    work = tempfile.mkdtemp(prefix="viewer-bench-")
    big = os.path.join(work, "huge.jpg")
    huge_jpeg(big)
    small = os.path.join(work, "small.png")
    with open(small, "wb") as out:
        out.write(harness.png_bytes(300, 200, (20, 180, 40)))
    state = {"version": 1, "galleries": [{"id": "g", "name": "Gallery", "images": [
        {"id": "huge", "url": harness.file_url(big), "aspectRatio": 1.5},
        {"id": "small", "url": harness.file_url(small), "aspectRatio": 1.5}]}]}
    stall_log = os.path.join(work, "stalls.log")

    desktop = harness.start_desktop()
    try:
        app = harness.App(state, {"IMAGE_GALLERY_STALL_LOG": stall_log}, desktop=desktop,
                          root=os.path.join(work, "app"), binary=binary)
        app.start()
        app.wait_settled(timeout=120)
        app.focus()
        time.sleep(1)
        before = harness.process_memory_mib(app.proc.pid, "VmHWM")
        opening, one_to_one, fit_again, shown_after, fit_peak, full_peak = [], [], [], [], [], []
        for _ in range(runs):
            desktop.key("Home")
            offset = log_size(stall_log)
            started = time.monotonic()
            desktop.key("Return")
            harness.wait_until(lambda: any(a.has_state("SHOWING") for a in app.find_all(
                lambda a: a.role_name == "image" and a.name == "huge.jpg"
                and harness._safe(lambda: a.parent().role_name) != "layered pane")), 10, 0.02, "the viewer")
            shown_after.append(time.monotonic() - started)
            time.sleep(3)
            opening.append(max(stalls_since(stall_log, offset), default=0.0))
            fit_peak.append(harness.process_memory_mib(app.proc.pid, "VmHWM"))
            offset = log_size(stall_log)
            desktop.key("1")
            time.sleep(4)
            one_to_one.append(max(stalls_since(stall_log, offset), default=0.0))
            full_peak.append(harness.process_memory_mib(app.proc.pid, "VmHWM"))
            offset = log_size(stall_log)
            desktop.key("ctrl+0")
            time.sleep(2)
            fit_again.append(max(stalls_since(stall_log, offset), default=0.0))
            desktop.key("Escape")
            time.sleep(1)
        print("binary: %s" % os.path.relpath(binary, harness.REPO_ROOT))
        print("12000x8000 JPEG, %d runs (stalls over 8 ms are logged; 0 = none)" % runs)
        print("longest main-loop stall while opening (fit):  %s ms" % ", ".join("%.1f" % s for s in opening))
        print("longest main-loop stall going 1:1:            %s ms" % ", ".join("%.1f" % s for s in one_to_one))
        print("longest main-loop stall fitting again:        %s ms" % ", ".join("%.1f" % s for s in fit_again))
        print("Enter to the viewer showing (AT-SPI):         %s s" % ", ".join("%.2f" % s for s in shown_after))
        print("peak memory (VmHWM) before opening:           %.1f MiB" % before)
        print("peak memory after the fitted open:            %s MiB" % ", ".join("%.1f" % m for m in fit_peak))
        print("peak memory after 1:1:                        %s MiB" % ", ".join("%.1f" % m for m in full_peak))
        app.stop()
    finally:
        harness.stop_desktop()


if __name__ == "__main__":
    main()
