"""Issue 47, end to end: an animated GIF, WebP and APNG play in the viewer, and a GIF in its gallery cell under the
pointer.

The animations are made in each test (GIF and APNG with Pillow, WebP with img2webp): frames of distinct solid colours,
so a screenshot says which frame shows. The viewer's picture is sampled in its centre; the header bar's subtitle says
the image is animated. In the gallery, a cell's centre says which frame it shows, and its lower left corner whether it
carries the badge of an animation (a dark pill with a white play sign)."""
import io
import os
import struct
import subprocess
import time
import zlib

from PIL import Image

import harness
from harness import colour_close, dominant_colour, process_memory_mib, wait_until
from actions_helpers import menu_item
from test_add_and_export import export_through_menu, toast_text
from test_galleries import shot, wait_state
from test_properties import fields, pane
from test_search import showing_button
from test_viewer import viewer, wait_header, wait_viewer

COLOURS = [(230, 20, 20), (20, 180, 40), (20, 40, 230), (250, 220, 0), (0, 200, 200), (200, 0, 200),
           (255, 140, 0), (140, 70, 20)]


def gif_bytes(frames, size=240, delay=100, loop=0):
    images = [Image.new("RGB", (size, size), COLOURS[i % len(COLOURS)]) for i in range(frames)]
    out = io.BytesIO()
    images[0].save(out, "GIF", save_all=True, append_images=images[1:], duration=delay, loop=loop, optimize=False)
    return out.getvalue()


def solid_gif(colours, size, delay_ms, loop=0):
    """An animated GIF of solid frames of these colours, written directly: every frame shares the same compressed
    pixels (all of colour 0) and differs only in its local colour table, so thousands of frames take no time."""
    pixels = _lzw_zeros(size * size)
    blocks = b"".join(bytes([len(pixels[i:i + 255])]) + pixels[i:i + 255] for i in range(0, len(pixels), 255))
    out = [b"GIF89a", struct.pack("<HHBBB", size, size, 0, 0, 0),
           b"\x21\xff\x0bNETSCAPE2.0\x03\x01" + struct.pack("<H", loop) + b"\x00"]
    for colour in colours:
        out.append(b"\x21\xf9\x04\x04" + struct.pack("<H", max(1, delay_ms // 10)) + b"\x00\x00")
        out.append(b"\x2c" + struct.pack("<HHHH", 0, 0, size, size) + b"\x80" + bytes(colour) + b"\x00\x00\x00")
        out.append(b"\x02" + blocks + b"\x00")
    out.append(b"\x3b")
    return b"".join(out)


def _lzw_zeros(count):
    """GIF's LZW code stream (minimum code size 2) of `count` pixels of colour 0."""
    clear, end = 4, 5
    codes = [clear]
    table = {(0,): 0}
    next_code, width = 6, 3
    widths = [3]
    current = (0,)
    for _ in range(count - 1):
        candidate = current + (0,)
        if candidate in table:
            current = candidate
            continue
        codes.append(table[current])
        widths.append(width)
        table[candidate] = next_code
        next_code += 1
        if next_code > (1 << width) and width < 12:
            width += 1
        if next_code == 4096:
            codes.append(clear)
            widths.append(width)
            table = {(0,): 0}
            next_code, width = 6, 3
        current = (0,)
    codes.append(table[current])
    widths.append(width)
    codes.append(end)
    widths.append(width)
    bits, nbits, data = 0, 0, bytearray()
    for code, w in zip(codes, widths):
        bits |= code << nbits
        nbits += w
        while nbits >= 8:
            data.append(bits & 0xFF)
            bits >>= 8
            nbits -= 8
    if nbits:
        data.append(bits & 0xFF)
    return bytes(data)


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
    _, _, w, h = area
    colour, share = dominant_colour(app.grab(area), (0, 0, w, h), 0.1)
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
    data = solid_gif([numbered_colour(i) for i in range(5000)], 300, 20)
    app, area, baseline = open_in_viewer(make_app, tmp_path, data, "long.gif")
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


def webp_bytes(tmp_path, frames, size=240, delay=100):
    """An animated WebP made by libwebp's own img2webp from solid PNG frames, lossless."""
    paths = []
    for i in range(frames):
        path = tmp_path / ("frame%d.png" % i)
        Image.new("RGB", (size, size), COLOURS[i % len(COLOURS)]).save(path)
        paths.append(str(path))
    out = tmp_path / "made.webp"
    subprocess.run(["img2webp", "-loop", "0", "-lossless", "-d", str(delay)] + paths + ["-o", str(out)], check=True,
                   capture_output=True)
    return out.read_bytes()


def apng_bytes(frames, size=240, delay=100):
    """An APNG written by Pillow: the first frame is the default image, the others fdAT chunks."""
    images = [Image.new("RGB", (size, size), COLOURS[i % len(COLOURS)]) for i in range(frames)]
    out = io.BytesIO()
    images[0].save(out, "PNG", save_all=True, append_images=images[1:], duration=delay, loop=0)
    data = out.getvalue()
    assert b"acTL" in data and b"fdAT" in data
    return data


def test_an_animated_webp_plays_in_the_viewer(make_app, tmp_path):
    app, area, _ = open_in_viewer(make_app, tmp_path, webp_bytes(tmp_path, 4), "moving.webp")
    wait_header(app, "1 of 1 · Animated · 4 frames")
    wait_until(lambda: frame_shown(app, area) is not None, 10, 0.1, "a frame drawn in the viewer")
    seen = frames_seen(app, area, 1.0)
    assert len(seen) >= 2, "only the frames %r showed in a second" % seen


def test_an_apng_plays_in_the_viewer(make_app, tmp_path):
    app, area, _ = open_in_viewer(make_app, tmp_path, apng_bytes(4), "moving.png")
    wait_header(app, "1 of 1 · Animated · 4 frames")
    wait_until(lambda: frame_shown(app, area) is not None, 10, 0.1, "a frame drawn in the viewer")
    seen = frames_seen(app, area, 1.0)
    assert len(seen) >= 2, "only the frames %r showed in a second" % seen


def large_apng_bytes(frames, size, inner, delay_cs):
    """An APNG of `size`×`size` whose first frame fills the canvas and whose others fill an `inner`×`inner` square
    in its centre, in solid colours, written directly (zlib at its fastest level): Pillow takes seconds at this size."""
    def chunk(kind, payload):
        return struct.pack(">I", len(payload)) + kind + payload + struct.pack(">I", zlib.crc32(kind + payload))

    out = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", size, size, 8, 2, 0, 0, 0))
    out += chunk(b"acTL", struct.pack(">II", frames, 0))
    sequence = 0
    for i in range(frames):
        side, offset = (size, 0) if i == 0 else (inner, (size - inner) // 2)
        out += chunk(b"fcTL", struct.pack(">IIIIIHHBB", sequence, side, side, offset, offset, delay_cs, 100, 0, 0))
        sequence += 1
        data = zlib.compress((b"\0" + bytes(COLOURS[i % len(COLOURS)]) * side) * side, 1)
        if i == 0:
            out += chunk(b"IDAT", data)
        else:
            out += chunk(b"fdAT", struct.pack(">I", sequence) + data)
            sequence += 1
    return out + chunk(b"IEND", b"")


def test_a_4000_pixel_apng_plays_within_its_memory_budget(make_app, tmp_path):
    """Its frames are decoded already scaled to the view and composed at that size: the app's memory stays under what
    it held before the viewer opened plus the animation's budget (64 MiB) and a margin for the viewer's own picture."""
    margin = 40
    app, area, baseline = open_in_viewer(make_app, tmp_path, large_apng_bytes(3, 4000, 1600, 30), "large.png")
    wait_header(app, "1 of 1 · Animated · 3 frames")
    highest = baseline
    seen = set()
    end = time.monotonic() + 15
    while len(seen - {None}) < 3 and time.monotonic() < end:
        seen.add(frame_shown(app, area))
        highest = max(highest, process_memory_mib(app.proc.pid))
    assert len(seen - {None}) >= 2, "it did not play: %r" % seen
    assert highest < baseline + 64 + margin, "%.0f MiB at most while playing, %.0f MiB before" % (highest, baseline)


# ------------------------------------------------------------------------------------------------------------
# The gallery

STILL = (120, 120, 200)


def gallery_of(make_app, tmp_path, names, env=None):
    """A gallery of these files, written by a version that did not record animations: each moving*.gif is an
    animated GIF of 8 frames, any other name a still PNG. Returns the app once the survey has recorded which move,
    and the cells by file name."""
    images = []
    for i, name in enumerate(names):
        path = tmp_path / name
        if name.endswith(".gif"):
            path.write_bytes(gif_bytes(8, size=200))
        else:
            Image.new("RGB", (200, 200), STILL).save(path, "PNG")
        images.append({"id": "9b2f3c4e-0000-4000-8000-%012d" % (i + 1), "url": harness.file_url(str(path)),
                       "aspectRatio": 1})
    app = make_app({"version": 1, "sidebarVisible": False, "galleries": [{
        "id": "9b2f3c4e-0000-4000-8000-00000000f11e", "name": "Gallery", "images": images}]}, env)
    app.start()
    cells = app.wait_cells(lambda cs: len(cs) == len(names) and all(c.settled for c in cs), 30, what="the cells")
    cells = {c.url.rsplit("/", 1)[-1]: c for c in cells}
    # The survey reads each image's header in the background: an animated cell carries its badge once it is read.
    moving = [cell for name, cell in cells.items() if name.endswith(".gif")]
    wait_until(lambda: (lambda i: all(has_badge(i, c) for c in moving))(app.screenshot()), 20, 0.1,
               "the badges of the animated cells")
    return app, cells


def cell_frame(app, cell):
    """The index of the frame colour that fills the cell's centre, None for another colour."""
    colour, share = dominant_colour(app.grab(cell.box), (0, 0, cell.width, cell.height), 0.3)
    if share < 0.8:
        return None
    return next((i for i, c in enumerate(COLOURS) if colour_close(colour, c, 40)), None)


def cell_frames_seen(app, cell, seconds):
    seen = set()
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        seen.add(cell_frame(app, cell))
    return seen - {None}


def wait_cell_plays(app, cell, what):
    """Waits until the cell has shown two of the frames' colours: how soon is the benchmarks' business (on a loaded
    machine the first decode may wait its turn)."""
    seen = set()

    def two_frames():
        seen.add(cell_frame(app, cell))
        return len(seen - {None}) >= 2

    wait_until(two_frames, 10, 0.02, what, lambda: "only the frames %r showed" % (seen - {None}))


def has_badge(image, cell):
    """Whether the cell's lower left corner shows the badge: its white play sign on its dark pill."""
    x, y, _, h = cell.box
    sign = image.getpixel((x + 8 + 13, y + h - 8 - 9))[:3]
    pill = image.getpixel((x + 8 + 5, y + h - 8 - 9))[:3]
    return min(sign) > 200 and max(pill) < 110


def test_a_cell_plays_under_the_pointer_and_shows_its_first_frame_again_when_it_leaves(make_app, tmp_path):
    app, cells = gallery_of(make_app, tmp_path, ["moving.gif", "still.png"])
    moving, still = cells["moving.gif"], cells["still.png"]
    app.move(*still.center, steps=5)
    assert cell_frames_seen(app, moving, 0.5) == {0}, "the cell played with the pointer elsewhere"
    app.move(*moving.center, steps=5)
    wait_cell_plays(app, moving, "the cell to play under the pointer")
    app.move(*still.center, steps=5)
    wait_until(lambda: cell_frame(app, moving) == 0, 5, 0.05, "the first frame again once the pointer left",
               lambda: "frame %r shows" % cell_frame(app, moving))
    assert cell_frames_seen(app, moving, 0.5) == {0}, "the cell played on after the pointer left"


def test_the_badge_is_drawn_on_animated_cells_only_in_light_and_dark_themes(make_app, tmp_path):
    for theme, env in (("light", None), ("dark", {"GTK_THEME": "Adwaita:dark"})):
        app, cells = gallery_of(make_app, tmp_path, ["moving.gif", "still.png", "moving2.gif"], env)
        app.move(0, 0, steps=2)
        image = app.screenshot()
        shot(app, "gallery-animation-badges-%s.png" % theme)
        assert has_badge(image, cells["moving2.gif"])
        assert not has_badge(image, cells["still.png"])
        x, y, _, h = cells["still.png"].box
        assert colour_close(image.getpixel((x + 8 + 13, y + h - 8 - 9)), STILL, 12)
        app.stop()


def test_the_animated_filter_finds_only_the_animated_images(make_app, tmp_path, desktop):
    app, _ = gallery_of(make_app, tmp_path, ["moving.gif", "still.png", "moving2.gif", "still2.png"])
    app.key("ctrl+f")
    app.wait_for_object("Search", harness.ROLE.TEXT, timeout=10)
    showing_button(app, "Add a Filter").do_action(0)
    menu_item(app, "Animated").do_action(0)
    found = app.wait_cells(lambda cs: len(cs) == 2 and all(c.settled for c in cs), 15, what="the animated images")
    assert sorted(c.url.rsplit("/", 1)[-1] for c in found) == ["moving.gif", "moving2.gif"]
    showing_button(app, "Remove “Animated”")


def test_properties_give_the_frame_count_and_play_animations_plays_every_cell(make_app, tmp_path):
    app, cells = gallery_of(make_app, tmp_path, ["moving.gif", "moving2.gif"])
    app.focus()
    app.key("Home")
    app.key("alt+Return")
    dialog = pane(app)
    shown = wait_until(lambda: (lambda f: f if "Animation" in f else None)(fields(app, dialog)), 10, 0.2,
                       "the animation's field", lambda: repr(fields(app, dialog)))
    assert shown["Animation"].replace("\u202f", " ") in ("8 frames, 0.8 s",), shown["Animation"]
    app.key("Escape")

    # Play Animations: both cells play with the pointer away and the focus elsewhere, and the choice is saved.
    app.move(0, 0, steps=2)
    app.wait_for_object("Main Menu", "toggle button", timeout=10).do_action(0)
    app.wait_for_object("Play Animations", "check box", timeout=10).do_action(0)
    # Saved, and with it what the survey read of each image.
    saved = wait_state(app, lambda s: s.get("playAnimations") is True, "Play Animations saved")
    assert [i.get("animation") for i in saved["galleries"][0]["images"]] == [{"duration": 800, "frames": 8}] * 2
    app.key("Escape")
    for name in ("moving2.gif", "moving.gif"):
        wait_cell_plays(app, cells[name], "%s to play" % name)
