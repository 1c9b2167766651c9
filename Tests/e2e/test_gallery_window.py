"""Issue 2, end to end: the gallery window shows, lays out, caches and keeps images, on the real app.

A state of 12 images served on 127.0.0.1 (distinct colours and aspect ratios, one a JPEG), one file:// image, one
data: image and one URL that 404s. The cells are found over AT-SPI; a screenshot proves what each one shows."""
import glob
import json
import os

import harness
from harness import DISTINCT_IMAGES, colour_close, dominant_colour

ASPECT_TOLERANCE = 0.03
COLOUR_TOLERANCE = 30


def build_gallery(http_server, tmp_path):
    """Serves the images and returns (state, expected) with expected: url -> (colour or None, aspect, kind)."""
    expected = {}
    images = []
    for name, w, h, rgb, fmt in DISTINCT_IMAGES:
        served = http_server.add_image(name, w, h, rgb, fmt)
        expected[served.url] = (rgb, w / h, "http")
        images.append(served.url)
    name, w, h, rgb, fmt = harness.FILE_IMAGE
    path = tmp_path / "local images" / (name + ".png")
    path.parent.mkdir()
    path.write_bytes(harness.png_bytes(w, h, rgb))
    file_url = harness.file_url(str(path))
    expected[file_url] = (rgb, w / h, "file")
    images.insert(3, file_url)
    name, w, h, rgb, fmt = harness.DATA_IMAGE
    data_url = harness.data_url(harness.png_bytes(w, h, rgb))
    expected[data_url] = (rgb, w / h, "data")
    images.insert(8, data_url)
    missing = http_server.url("/missing.png")
    expected[missing] = (None, 1.0, "404")
    images.insert(6, missing)
    state = {"version": 1, "galleries": [{
        "id": "9b2f3c4e-0000-4000-8000-000000000001", "name": "Gallery",
        "images": [{"id": "9b2f3c4e-0000-4000-8000-%012d" % (i + 100), "url": url,
                    # the 404 one says 1.5: what it was when it loaded; its error cell must be square anyway
                    "aspectRatio": 1.5 if expected[url][2] == "404" else round(expected[url][1], 6)}
                   for i, url in enumerate(images)]}]}
    return state, expected


def inside(box, outer):
    x, y, w, h = box
    ox, oy, ow, oh = outer
    return x >= ox and y >= oy and x + w <= ox + ow and y + h <= oy + oh


def survey(app, urls, expectations, max_scrolls=25):
    """Every cell of the gallery, scrolling down when they do not all fit:
    {url: (Cell, dominant colour of its centre, that colour's share, bounding box of the expected colour)}, with
    expectations: {url: colour}. Checks on the way that every visible cell is one of `urls`. Only cells wholly
    inside the gallery's extents are measured."""
    seen = {}
    gallery_box = app.gallery().extents()
    assert gallery_box[2] > 0 and gallery_box[3] > 0, "the Gallery has no on-screen extents: %r" % (gallery_box,)
    for _ in range(max_scrolls):
        cells = app.wait_settled(timeout=60)
        strangers = [c for c in cells if c.url not in urls]
        assert not strangers, "cells whose description is not a URL of the state:\n" + harness.format_cells(strangers)
        shot = app.screenshot()
        for cell in cells:
            if cell.url not in seen and cell.width > 0 and cell.height > 0 and inside(cell.box, gallery_box):
                colour, share = dominant_colour(shot, cell.box)
                expected_colour = expectations.get(cell.url)
                drawn = harness.colour_bbox(shot, cell.box, expected_colour, COLOUR_TOLERANCE) \
                    if expected_colour else None
                seen[cell.url] = (cell, colour, share, drawn)
        if set(urls) <= set(seen):
            break
        before = [c.box for c in cells]
        app.desktop.scroll(gallery_box[0] + gallery_box[2] // 2, gallery_box[1] + gallery_box[3] // 2, clicks=3)
        moved = harness._safe(lambda: app.wait_cells(lambda cs: [c.box for c in cs] != before, timeout=5))
        if moved is None:
            break  # the end of the gallery
    missing = [u for u in urls if u not in seen]
    assert not missing, "these images never appeared as a cell wholly inside the gallery:\n  %s\nlast cells: %s" % (
        "\n  ".join(harness._short(u) for u in missing), harness.format_cells(app.cells()))
    return seen


def check_cells(seen, expected, when):
    """Each loaded cell has its image's aspect ratio and colour; the 404 one is a square error cell."""
    problems = []
    image_colours = [c for c, _, _ in expected.values() if c is not None]
    for url, (colour, aspect, kind) in expected.items():
        cell, centre, share, drawn = seen[url]
        if kind == "404":
            if "error" not in cell.name.lower():
                problems.append("the 404 cell's name does not say error: %s" % cell)
            if any(colour_close(centre, c, COLOUR_TOLERANCE) for c in image_colours):
                problems.append("the 404 cell's centre shows an image colour %r: %s" % (centre, cell))
            if abs(cell.aspect - 1.0) > ASPECT_TOLERANCE:
                problems.append("the 404 error cell is not square (%.3f): %s" % (cell.aspect, cell))
            continue
        if cell.error is not None or not cell.settled:
            problems.append("%s image not loaded: %s" % (kind, cell))
            continue
        if abs(cell.aspect / aspect - 1) > ASPECT_TOLERANCE:
            problems.append("%s image at aspect %.3f instead of %.3f: %s" % (kind, cell.aspect, aspect, cell))
        if not colour_close(centre, colour, COLOUR_TOLERANCE) or share < 0.8:
            problems.append("%s image shows %r (%.0f%% of its centre) instead of %r: %s"
                            % (kind, centre, share * 100, colour, cell))
            continue
        # the drawn image fills its cell (not letterboxed or drawn small), and so has the image's aspect ratio
        if drawn is None or drawn[2] < 0.9 * cell.width or drawn[3] < 0.9 * cell.height \
                or drawn[2] > cell.width + 4 or drawn[3] > cell.height + 4:
            problems.append("%s image drawn over %r, not filling its cell: %s" % (kind, drawn, cell))
        elif abs((drawn[2] / drawn[3]) / aspect - 1) > ASPECT_TOLERANCE:
            problems.append("%s image drawn at aspect %.3f (%r) instead of %.3f: %s"
                            % (kind, drawn[2] / drawn[3], drawn, aspect, cell))
    assert not problems, "%s:\n  %s" % (when, "\n  ".join(problems))


def image_routes(http_server):
    return [image.path for image in http_server.images.values()]


def test_gallery_shows_each_image_at_its_aspect_ratio_and_keeps_them_cached(make_app, http_server, tmp_path,
                                                                             desktop):
    state, expected = build_gallery(http_server, tmp_path)
    urls = [i["url"] for i in state["galleries"][0]["images"]]
    colours = {url: colour for url, (colour, _, _) in expected.items() if colour}
    app = make_app(state)
    app.start()
    original = app.state_bytes()

    # the window, its title, and the trash zone
    assert app.frame().name == "Gallery — Image Gallery"
    titles = [title for _, title in desktop.top_level_windows()]
    assert "Gallery — Image Gallery" in titles, "no X window titled 'Gallery — Image Gallery' among %r" % titles
    trash = app.find_by_name("Trash")
    assert trash is not None, "no accessible object named 'Trash':\n" + app.dump_tree()
    assert trash.has_state("SHOWING"), "the Trash zone is not showing"
    tx, ty, tw, th = trash.extents()
    assert tw > 0 and th > 0, "the Trash zone has no size"

    # first launch: everything downloaded, decoded, laid out
    app.resize(1260, 1000)
    seen = survey(app, urls, colours)
    check_cells(seen, expected, "first launch")
    for route in image_routes(http_server):
        assert http_server.hits(route) >= 1, "%s was never requested" % route
    # Viewing changes nothing but what the library records of each image (its `original`, carried over at launch, and
    # its `animation`, read from its header).
    assert without_originals(app.state_bytes()) == without_originals(original), \
        "viewing the gallery changed the library"
    app.stop()
    assert without_originals(app.state_bytes()) == without_originals(original), "quitting changed the library"
    assert app.cache_files(), "nothing was cached in %s" % app.cache_dir

    # second launch, the server still up: the served images come from the cache, not the network
    http_server.clear_log()
    app.start()
    app.resize(1260, 1000)
    check_cells(survey(app, urls, colours), expected, "second launch (server up)")
    fetched = [r.path for r in http_server.requests() if r.route in image_routes(http_server)]
    assert not fetched, "cached images were downloaded again: %r" % fetched
    app.stop()

    # third launch, the server gone: still every image
    http_server.stop()
    app.start()
    app.resize(1260, 1000)
    check_cells(survey(app, urls, colours), expected, "third launch (server stopped)")
    app.stop()
    assert without_originals(app.state_bytes()) == without_originals(original), \
        "the library changed across launches"
    assert without_originals(app.state_bytes()) == state


def without_originals(state_bytes):
    """The state as read, less what the library records of each image itself, once: its `original`, its `animation`
    and its `likeness` (measured in the background at the first launch of a library from before)."""
    state = harness.document(state_bytes)
    for gallery in state["galleries"]:
        for image in gallery["images"]:
            image.pop("original", None)
            image.pop("animation", None)
            image.pop("likeness", None)
    return state


def test_empty_gallery_invites_dragging_from_a_browser(make_app):
    app = make_app(None)
    app.start()
    hint = app.wait_for_object("browser", contains=True, ignore_case=True, timeout=30)
    assert hint.has_state("SHOWING"), "the empty-state text is not showing: %r" % hint
    assert app.gallery() is not None, "no Gallery:\n" + app.dump_tree()
    cells = app.wait_cells(lambda cs: True, timeout=10)
    assert cells == [], "an empty gallery has cells:\n" + harness.format_cells(cells)


def test_corrupt_state_is_kept_aside_and_reported(make_app):
    original = b'{not json'
    app = make_app(state_raw=original)
    app.start()
    message = app.wait_for_object("could not be read", contains=True, ignore_case=True, timeout=30)
    assert message.has_state("SHOWING"), "the message is not showing: %r" % message
    aside = glob.glob(os.path.join(app.state_dir, "state.json.corrupt-*"))
    assert len(aside) == 1, "expected one state.json.corrupt-* in %s: %r" % (app.state_dir, os.listdir(app.state_dir))
    with open(aside[0], "rb") as f:
        assert f.read() == original, "the corrupt file was not kept byte for byte"
    assert app.running
    assert app.cells() == [], "a gallery read from a corrupt file shows cells"


def simple_state(urls_and_aspects):
    return {"version": 1, "galleries": [{"id": "g1", "name": "Gallery", "images": [
        {"id": "i%d" % i, "url": url, "aspectRatio": aspect} for i, (url, aspect) in enumerate(urls_and_aspects)]}]}


def test_a_loading_cell_keeps_its_place_and_shape_until_the_image_arrives(make_app, http_server):
    slow = http_server.add_image("slow", 400, 200, (220, 20, 20))
    quick = http_server.add_image("quick", 200, 200, (20, 30, 220))
    slow_url = slow.slow_url(6)
    app = make_app(simple_state([(slow_url, 2.0), (quick.url, 1.0)]))
    app.start()
    cells = app.wait_cells(lambda cs: len(cs) == 2 and cs[0].loading, timeout=20,
                           what="the slow image's cell to say it is loading")
    assert [c.url for c in cells] == [slow_url, quick.url]
    assert abs(cells[0].aspect / 2.0 - 1) <= ASPECT_TOLERANCE, "a loading cell not at the recorded aspect: %s" % cells[0]
    shot = app.screenshot()
    centre, _ = dominant_colour(shot, cells[0].box)
    assert not colour_close(centre, slow.rgb, COLOUR_TOLERANCE), "the image shows before it has arrived"
    assert http_server.hits(slow.path.replace("/img/", "/slow/")) >= 1
    cells = app.wait_cells(lambda cs: len(cs) == 2 and all(c.settled and c.error is None for c in cs), timeout=40,
                           what="the slow image to arrive")

    def painted():
        # The accessible name changes as the image arrives; the frame that paints it follows a moment later.
        shot = app.screenshot()
        return colour_close(dominant_colour(shot, cells[0].box)[0], slow.rgb, COLOUR_TOLERANCE) and \
            colour_close(dominant_colour(shot, cells[1].box)[0], quick.rgb, COLOUR_TOLERANCE)

    harness.wait_until(painted, 5, 0.1, "both images painted in their cells")


def rows_of(cells):
    rows = {}
    for cell in cells:
        rows.setdefault(cell.y, []).append(cell)
    return [sorted(r, key=lambda c: c.x) for _, r in sorted(rows.items())]


def test_rows_fill_the_width_and_reflow_on_resize(make_app, http_server):
    served = [http_server.add_image(name, w, h, rgb, fmt) for name, w, h, rgb, fmt in DISTINCT_IMAGES]
    app = make_app(simple_state([(s.url, round(s.aspect, 6)) for s in served]))
    app.start()
    aspects = {s.url: s.aspect for s in served}

    def check_layout(width):
        app.resize(width, 1000)
        box = []

        def laid_out(cs):
            box[:] = app.gallery().extents()
            return cs and all(c.settled for c in cs) and box[2] < width \
                and max(c.x + c.width for c in cs) <= box[0] + box[2]

        cells = app.wait_cells(laid_out, timeout=30, what="cells inside a gallery narrower than %d px" % width)
        gallery = box
        right = gallery[0] + gallery[2]
        for cell in cells:
            assert abs(cell.aspect / aspects[cell.url] - 1) <= ASPECT_TOLERANCE, "aspect lost at width %d: %s" % (
                width, cell)
            assert gallery[0] <= cell.x and cell.x + cell.width <= right, "cell outside the gallery: %s" % cell
        rows = rows_of(cells)
        for row in rows[:-1]:  # every full row reaches the right edge (the last one may be short)
            end = row[-1].x + row[-1].width
            assert end >= right - 48, "a row ends at %d, far from the gallery's right edge %d:\n%s" % (
                end, right, harness.format_cells(row))
        return rows

    wide = check_layout(1260)
    narrow = check_layout(640)
    assert len(narrow) > len(wide), "no reflow: %d rows at 1260 px, %d at 640 px" % (len(wide), len(narrow))


def test_two_hundred_thousand_images_show_from_top_to_bottom(make_app, tmp_path):
    """Issue 9 (8): past ~180,000 images the content is taller than cairo's coordinates reach (8,388,607 px);
    the canvas stays the size of its view and scrolls its content, so the first and the last screens both show."""
    count = 200_000
    files = []
    for name, w, h, rgb, _ in harness.DISTINCT_IMAGES[:6]:
        path = tmp_path / ("%s.png" % name)
        path.write_bytes(harness.png_bytes(w, h, rgb))
        files.append((harness.file_url(str(path)), w / h, rgb))
    images = [{"id": "i%06d" % i, "url": files[i % 6][0], "aspectRatio": files[i % 6][1]} for i in range(count)]
    app = make_app({"version": 1, "sidebarVisible": False, "galleries": [{"id": "g", "name": "Big", "images": images}]})
    app.start(timeout=120)
    assert app.gallery_scrollbar().value("MaximumValue") > 8_388_607

    def shown(cells):
        shot = app.screenshot()
        colours = {url: rgb for url, _, rgb in files}
        gx, gy, gw, gh = app.gallery().extents()
        inside = [c for c in cells if c.y >= gy and c.y + c.height <= gy + gh]
        return inside and all(c.settled and colour_close(dominant_colour(shot, c.box)[0], colours[c.url])
                              for c in inside)

    cells = app.wait_cells(lambda cs: len(cs) > 3 and shown(cs), 60, what="the first screen painted")
    assert cells[0].url == images[0]["url"]
    app.focus()
    app.key("End")
    app.wait_cells(lambda cs: cs and cs[-1].url == images[-1]["url"] and "selected" in cs[-1].name and shown(cs), 60,
                   what="the last screen painted, the last image selected")


def test_the_window_opens_at_the_size_it_was_closed_at_and_the_galleries_file_stays_as_it_was(make_app):
    app = make_app({"version": 1, "galleries": [{"id": "g", "name": "Gallery", "images": []}]})
    app.start()
    original = app.state_bytes()
    first = app.window_extents()[2:]
    assert first[0] > 1000, "the first launch's size: %r" % (first,)
    app.resize(900, 640)
    app.stop()
    app.start()
    harness.wait_until(lambda: app.window_extents()[2:] == (900, 640), 10, 0.1, "the window at 900x640",
                       lambda: repr(app.window_extents()))
    saved = json.load(open(os.path.join(app.root, ".local", "state", "image-gallery", "window.json")))
    # GTK's own size: the window without the shadows its client-side decorations draw around it.
    assert 800 < saved["width"] <= 900 and 540 < saved["height"] <= 640 and saved["maximized"] is False, saved
    app.stop()
    assert app.state_bytes() == original, "resizing the window changed the library"


def test_the_undo_button_names_the_step_it_undoes_to_screen_readers_and_in_its_tooltip(make_app, http_server,
                                                                                       desktop):
    from drag_helpers import gallery_state
    images = [http_server.add_image(name, 300, 200, rgb) for name, rgb in (("a-red", (220, 20, 20)),
                                                                           ("b-green", (20, 180, 40)))]
    app = make_app(gallery_state(images))
    app.start()
    app.resize(900, 700)
    cells = app.wait_cells(lambda cs: len(cs) == 2 and all(c.settled for c in cs), 20, what="the two images")

    def header_button(name):
        found = [b for b in app.find_all(lambda a: a.role_name == "push button" and a.name == name)
                 if harness._safe(b.extents, (0, 999, 0, 0))[1] < 60]
        assert len(found) == 1, app.dump_tree()
        return found[0]

    undo, redo = header_button("Undo"), header_button("Redo")
    assert (undo.description, redo.description) == ("Undo", "Redo")
    app.click(*cells[0].center)
    app.key("Delete")
    harness.wait_until(lambda: undo.description == "Undo Delete Image", 5, 0.1, "the undo button's description",
                       lambda: undo.description)
    # The tooltip says the same when the pointer rests on the button: a dark box appears below it.
    x, y, w, h = undo.extents()
    below = (x, y + h, 160, 40)

    def dark_share():
        shot = app.screenshot()
        region = [shot.getpixel((px, py)) for px in range(below[0], below[0] + below[2], 4)
                  for py in range(below[1], below[1] + below[3], 4)]
        return sum(1 for p in region if max(p[:3]) < 60) / len(region)

    assert dark_share() < 0.1
    desktop.move_to(x + w // 2, y + h // 2)
    harness.wait_until(lambda: dark_share() > 0.3, 5, 0.2, "the undo button's tooltip", lambda: dark_share())
    app.key("ctrl+z")
    harness.wait_until(lambda: (undo.description, redo.description) == ("Undo", "Redo Delete Image"), 5, 0.1,
                       "the descriptions after Undo", lambda: (undo.description, redo.description))
