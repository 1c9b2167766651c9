"""Issue 9 (2, 8), end to end: images that try to exhaust the app, or are not what they claim.

- a 30000x30000 PNG of a few MB (a pixel bomb: 3.6 GB once decoded) is refused from its header, as an error cell,
  and the app's peak memory stays far below what decoding it would take;
- a 12000x12000 PNG, just under the cap, shows its colour in its cell at the cost of the cell's pixels;
- a PNG cut short shows as an error cell ("incomplete"), and its bytes are not kept in the cache;
- a 1x1 image fills its cell with its one colour, not a blurred dot;
- files whose decoders ignore gdk-pixbuf's size refusal (issue 30, class 3; harness.hostile: a few-kB TIFF, XPM,
  XBM, GIF frame, icon and AVIF/HEIF declaring 30000x30000, a progressive JPEG too large for its coefficients, a
  TGA that decodes to 192 MB, an SVG filter that would draw for minutes) are each an error cell with a reason,
  next to an image that shows; the app stays alive, answers a key within 2 s, and its peak memory stays within
  the 64 MiB decode budget above the same app's on an empty gallery.
Peak memory per case is printed by Tests/benchmarks/pixel_bombs.py and Tests/benchmarks/hostile_decoders.py."""

import harness
from drag_helpers import image_id
from test_local_files import answers_a_key
from harness import colour_close, dominant_colour, palette_png_bytes, png_bytes, wait_until

BOMB_SIDE = 30000
LARGE_SIDE = 12000


def state_of(urls, ratios):
    return {"version": 1, "sidebarVisible": False, "galleries": [{"id": "g", "name": "Hostile", "images": [
        {"id": image_id(i + 1), "url": url, "aspectRatio": ratio} for i, (url, ratio) in enumerate(zip(urls, ratios))]}]}


def test_a_pixel_bomb_is_refused_before_decoding_and_a_large_image_shows(make_app, http_server):
    bomb = http_server.add_file("/bomb.png", palette_png_bytes(BOMB_SIDE, BOMB_SIDE, (200, 30, 30)), "image/png")
    large = http_server.add_file("/large.png", palette_png_bytes(LARGE_SIDE, LARGE_SIDE, (30, 160, 60)), "image/png")
    app = make_app(state_of([bomb, large], [1, 1]))
    app.start()
    cells = app.wait_cells(lambda cs: len(cs) == 2 and cs[0].error is not None and cs[1].settled, 60,
                           what="the bomb refused and the large image shown")
    assert "too large" in cells[0].error and "30000" in cells[0].error, cells[0]
    assert cells[1].error is None, cells[1]
    shot = app.screenshot()
    colour, share = dominant_colour(shot, cells[1].box)
    assert colour_close(colour, (30, 160, 60)) and share > 0.8, (colour, share)
    peak = harness.process_memory_mib(app.proc.pid, "VmHWM")
    # Decoding either would take 3.4 GiB and 549 MiB; the app with both on screen stays near its baseline.
    assert peak < 400, "peak memory %.0f MiB" % peak


def test_a_truncated_png_is_an_error_and_its_bytes_are_not_kept(make_app, http_server):
    whole = png_bytes(300, 200, (40, 40, 200))
    cut = http_server.add_file("/cut.png", whole[:len(whole) // 2], "image/png")
    app = make_app(state_of([cut], [1.5]))
    app.start()
    cells = app.wait_cells(lambda cs: len(cs) == 1 and cs[0].error is not None, 30, what="the cut image as an error")
    assert "incomplete" in cells[0].error, cells[0]
    wait_until(lambda: not app.cache_files(), 10, 0.1, "the cut bytes gone from the cache", lambda: app.cache_files())


def test_a_one_pixel_image_fills_its_cell_with_its_colour(make_app, http_server):
    dot = http_server.add_file("/dot.png", png_bytes(1, 1, (250, 150, 20)), "image/png")
    app = make_app(state_of([dot], [1]))
    app.start()
    cell = app.wait_cells(lambda cs: len(cs) == 1 and cs[0].settled, 30, what="the dot shown")[0]
    shot = app.screenshot()
    inset = 6  # the rounded corners
    for x, y in [(cell.x + inset, cell.y + cell.height // 2), (cell.x + cell.width - inset, cell.y + cell.height // 2),
                 (cell.x + cell.width // 2, cell.y + inset), (cell.x + cell.width // 2, cell.y + cell.height - inset),
                 cell.center]:
        assert colour_close(shot.getpixel((x, y)), (250, 150, 20), 12), "at %r: %r (cell %s)" % ((x, y), shot.getpixel((x, y)), cell)


def test_decoders_that_ignore_the_size_refusal_are_bounded(make_app, http_server):
    empty = make_app(state_of([], []))
    empty.start()
    empty.wait_cells(lambda cs: True, 10)
    baseline = harness.process_memory_mib(empty.proc.pid, "VmHWM")
    empty.stop()
    cases = harness.hostile.cases()
    urls = [http_server.add_file("/hostile%d.%s" % (i, ext), data, mime) for i, (_, data, mime, ext) in enumerate(cases)]
    shown = http_server.add_file("/shown.png", png_bytes(300, 200, (30, 160, 60)), "image/png")
    app = make_app(state_of(urls + [shown], [1] * len(urls) + [1.5]))
    app.start()
    app.wait_cells(lambda cs: len(cs) == len(cases) + 1, 30, what="every cell")
    # While the SVG's filter runs in the decoder process, the window answers.
    answers_a_key(app, len(cases) + 1)
    cells = app.wait_cells(lambda cs: len(cs) == len(cases) + 1 and all(c.error for c in cs[:-1]) and cs[-1].settled,
                           60, what="each hostile file an error cell, and the image shown")
    reasons = {name: cell.error for (name, _, _, _), cell in zip(cases, cells)}
    for name, reason in reasons.items():
        expected = "took too long" if name.startswith("SVG") else "too large"
        assert expected in reason, reasons
    assert cells[-1].error is None, cells[-1]
    assert app.running
    answers_a_key(app, len(cases) + 1)
    above = harness.process_memory_mib(app.proc.pid, "VmHWM") - baseline
    assert above < 64, "peak %.0f MiB above the empty app's" % above
