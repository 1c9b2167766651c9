"""Issue 47, end to end: an animated GIF plays in the viewer.

The GIFs are made with Pillow in each test: frames of distinct solid colours, so a screenshot says which frame
shows. The viewer's picture is sampled in its centre; the header bar's subtitle says the image is animated."""
import io
import os
import time

from PIL import Image

import harness
from harness import colour_close, dominant_colour, process_memory_mib, wait_until
from test_add_and_export import export_through_menu, toast_text
from test_viewer import viewer, wait_header, wait_viewer

COLOURS = [(230, 20, 20), (20, 180, 40), (20, 40, 230), (250, 220, 0), (0, 200, 200), (200, 0, 200),
           (255, 140, 0), (140, 70, 20)]


def gif_bytes(frames, size=240, delay=100, loop=0):
    images = [Image.new("RGB", (size, size), COLOURS[i % len(COLOURS)]) for i in range(frames)]
    out = io.BytesIO()
    images[0].save(out, "GIF", save_all=True, append_images=images[1:], duration=delay, loop=loop, optimize=False)
    return out.getvalue()


def open_in_viewer(make_app, tmp_path, data, name="moving.gif"):
    path = tmp_path / name
    path.write_bytes(data)
    app = make_app({"version": 1, "sidebarVisible": False, "galleries": [{
        "id": "9b2f3c4e-0000-4000-8000-00000000f11e", "name": "Gallery", "images": [
            {"id": "9b2f3c4e-0000-4000-8000-000000000001", "url": harness.file_url(str(path)), "aspectRatio": 1}]}]})
    app.start()
    app.wait_cells(lambda cs: len(cs) == 1 and cs[0].settled, 30, what="the GIF's cell")
    app.focus()
    baseline = process_memory_mib(app.proc.pid)
    app.key("Home")
    app.key("Return")
    area = wait_viewer(app, name).extents()
    return app, area, baseline


def frame_shown(app, area):
    """The index of the frame colour that fills the viewer's centre, or None."""
    colour, share = dominant_colour(app.screenshot(), area, 0.1)
    if share < 0.8:
        return None
    return next((i for i, c in enumerate(COLOURS) if colour_close(colour, c, 40)), None)


def frames_seen(app, area, seconds):
    seen = set()
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        seen.add(frame_shown(app, area))
    return seen - {None}


def test_a_gif_plays_in_the_viewer_space_pauses_and_period_steps(make_app, tmp_path):
    app, area, _ = open_in_viewer(make_app, tmp_path, gif_bytes(8))
    wait_header(app, "1 of 1 · Animated · 8 frames")
    # Frames of 100 ms: within a second of playing, more than one colour shows.
    wait_until(lambda: frame_shown(app, area) is not None, 10, 0.1, "a frame drawn in the viewer")
    seen = frames_seen(app, area, 1.0)
    assert len(seen) >= 2, "only the frames %r showed in a second" % seen

    app.key("space")
    time.sleep(0.3)  # a frame swapped in while the key travelled is not a failure: the hold is measured after it
    held = frame_shown(app, area)
    assert held is not None
    seen = frames_seen(app, area, 2.0)
    assert seen == {held}, "paused on frame %d, yet %r showed" % (held, seen)

    app.key("period")
    wait_until(lambda: frame_shown(app, area) == (held + 1) % 8, 5, 0.05, "the frame after %d" % held,
               lambda: "frame %r shows" % frame_shown(app, area))
    app.key("comma")
    wait_until(lambda: frame_shown(app, area) == held, 5, 0.05, "frame %d again" % held,
               lambda: "frame %r shows" % frame_shown(app, area))

    app.key("space")
    seen = frames_seen(app, area, 1.0)
    assert len(seen) >= 2, "playing again, only the frames %r showed in a second" % seen


def test_a_gif_cut_short_plays_its_good_frames_and_the_app_lives_on(make_app, tmp_path):
    data = gif_bytes(8)
    app, area, _ = open_in_viewer(make_app, tmp_path, data[:len(data) * 2 // 3])
    wait_until(lambda: frame_shown(app, area) is not None, 10, 0.1, "a frame drawn in the viewer")
    seen = frames_seen(app, area, 1.5)
    assert len(seen) >= 2 and max(seen) < 7, "the frames %r showed" % seen
    assert viewer(app, "moving.gif") is not None
    app.stop()


def numbered_colour(index):
    """A colour of its own for each of 5120 frames: 16 steps of red and green, 20 of blue."""
    return (index % 16 * 16 + 8, index // 16 % 16 * 16 + 8, index // 256 * 12 + 8)


def numbered_frame_shown(app, area):
    """The number of the frame that fills the viewer's centre (coloured by `numbered_colour`), or None."""
    (red, green, blue), share = dominant_colour(app.screenshot(), area, 0.1)
    if share < 0.8:
        return None
    index = round((red - 8) / 16) + 16 * round((green - 8) / 16) + 256 * round((blue - 8) / 12)
    return index if colour_close((red, green, blue), numbered_colour(index), 4) else None


def test_a_gif_of_5000_frames_plays_within_its_memory_budget(make_app, tmp_path):
    """Frames decoded a few at a time: the app's memory stays under what it held before the viewer opened plus the
    animation's budget (64 MiB) and a margin for the viewer's own picture and GTK's, while it plays 600 frames,
    which would hold twice that if each stayed."""
    margin = 40
    frames = 600
    out = io.BytesIO()
    images = [Image.new("RGB", (300, 300), numbered_colour(i)) for i in range(5000)]
    images[0].save(out, "GIF", save_all=True, append_images=images[1:], duration=20, loop=0, optimize=False)
    app, area, baseline = open_in_viewer(make_app, tmp_path, out.getvalue(), "long.gif")
    # The count grouped as the locale groups digits (C.UTF-8: not at all).
    wait_until(lambda: app.find_all(lambda a: a.role_name == "label" and a.has_state("SHOWING")
                                    and (a.name or "").replace(",", "") == "1 of 1 · Animated · 5000 frames"),
               20, 0.2, "the header bar saying the GIF has 5000 frames", app.dump_tree)
    highest = baseline
    seen = set()
    # Frames of 20 ms: 600 of them play in 12 s; a loaded machine gets slack.
    end = time.monotonic() + 60
    while time.monotonic() < end and max(seen - {None}, default=0) < frames:
        seen.add(numbered_frame_shown(app, area))
        highest = max(highest, process_memory_mib(app.proc.pid))
    assert max(seen - {None}, default=0) >= frames, "it did not play %d frames: %r" % (frames, sorted(seen - {None}))
    assert highest < baseline + 64 + margin, "%.0f MiB at most while playing, %.0f MiB before" % (highest, baseline)


def test_an_exported_gif_keeps_its_own_bytes_every_frame_included(make_app, tmp_path):
    data = gif_bytes(8)
    app, _, _ = open_in_viewer(make_app, tmp_path, data)
    app.key("Escape")
    target = tmp_path / "out"
    target.mkdir()
    export_through_menu(app, target)
    toast_text(app, "exported to", timeout=30)
    folder = target / os.listdir(target)[0]
    exported = [name for name in os.listdir(folder) if name.endswith(".gif")]
    assert len(exported) == 1, os.listdir(folder)
    assert (folder / exported[0]).read_bytes() == data
