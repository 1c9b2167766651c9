"""Issue 4, end to end: images dropped into the gallery from another application.

The other application is `drag_source.py`: a python3-gi window at the right of the screen whose one widget offers
exactly the drag targets and bytes a test chooses (what a file manager, or a browser, would offer). The drag is real
X input (xdotool), from that window to a point between two cells of the gallery (the left part of a cell = before
it). The app's cells are read over AT-SPI, the screen with screenshots, the saved order from the library
(`--print-state`).

What is checked: a placeholder at the drop point at once, with progress; the image replacing its placeholder
wherever that placeholder is by then (also after a reorder, and with several images in one drop); failures (404,
a page without images, too large, stalled, a redirect to file:) removing the placeholder with a message and changing nothing else;
the bytes a drag carried, used when the URL fails or when they are all it carries; file:// URIs, WebP and
search-engine wrapper links; a drag of plain text refused while hovering, HTML without an image refused on drop;
the drag's data asked for once, while it hovers, and asked again on the drop only when that first answer was empty;
a drop's images, all answered at once, decoded in drop order, the first (where the drop landed) first.

Screenshots of the slow drop (placeholder, progress, landed) are kept as drop-*.png in $E2E_SAVE_SCREENSHOTS."""
import io
import os
import re
import time
import urllib.parse

import pytest

import harness
from drag_source import DragSource, target, uri_list
from harness import DISTINCT_IMAGES, colour_close, dominant_colour, wait_until

ASPECT_TOLERANCE = 0.03      # a cell's on-screen aspect against the image's (rounding of small cells)
SAVED_ASPECT_TOLERANCE = 0.005
COLOUR_TOLERANCE = 30
APP_SIZE = (900, 1000)       # the app at the left; the drag source lives at x >= 960
IMAGES = {name: (w, h, rgb, fmt) for name, w, h, rgb, fmt in DISTINCT_IMAGES}


# ------------------------------------------------------------------------------------------------------------
# Helpers
# ------------------------------------------------------------------------------------------------------------

def serve(http_server, *names, fmt=None):
    """Registers DISTINCT_IMAGES entries by name; returns their ServedImages."""
    out = []
    for name in names:
        w, h, rgb, own_fmt = IMAGES[name]
        out.append(http_server.add_image(name, w, h, rgb, fmt or own_fmt))
    return out


def state_of(images):
    """One gallery of `images`, the sidebar hidden: the canvas has the whole window."""
    return {"version": 1, "sidebarVisible": False, "galleries": [{
        "id": "9b2f3c4e-0000-4000-8000-00000000d209", "name": "Gallery",
        "images": [{"id": "9b2f3c4e-0000-4000-8000-%012d" % (i + 1), "url": image.url,
                    "aspectRatio": round(image.aspect, 6)} for i, image in enumerate(images)]}]}


def launch(make_app, images):
    """The app with `images` in its gallery, at the left of the screen, every cell loaded."""
    app = make_app(state_of(images))
    app.start()
    app.resize(*APP_SIZE)
    cells = app.wait_cells(lambda cs: len(cs) == len(images) and all(c.settled and c.error is None for c in cs)
                           and max(c.x + c.width for c in cs) <= APP_SIZE[0],
                           timeout=30, what="the %d images loaded, laid out in the resized window" % len(images))
    assert [c.url for c in cells] == [i.url for i in images], harness.format_cells(cells)
    # The carry-over's saves land before a test takes the library as it stands.
    app.wait_every_image_kept()
    return app, cells


def before(cell):
    """A drop point that inserts before `cell`: in its left fifth, halfway down."""
    return (cell.x + max(4, cell.width // 5), cell.y + cell.height // 2)


def drop(app, src, point, **kw):
    """Drags from the source into the gallery at point; returns what while_hovering returned."""
    result = src.drag_into(point, **kw)
    src.wait_for("drag-end", timeout=15)
    return result


def saved_urls(app):
    """The library's URLs, or None while it cannot be read (before the first save)."""
    try:
        return app.image_urls()
    except (OSError, ValueError):
        return None


def wait_saved(app, urls, timeout=10, what=None):
    last = []

    def attempt():
        last[:] = [saved_urls(app)]
        return last[0] == list(urls)

    wait_until(attempt, timeout, 0.1, what or "the library to list %s" % [short(u) for u in urls],
               lambda: "the library lists %s" % ([short(u) for u in last[0]] if last and last[0] else last))
    return app.state()


def short(url):
    return harness._short(url, 60)


def saved_entry(app, url):
    entries = [i for i in app.state()["galleries"][0]["images"] if i["url"] == url]
    assert len(entries) == 1, "the library has %d entries for %s: %s" % (len(entries), url, app.state_bytes()[-2000:])
    return entries[0]


def label_texts(app):
    """(text, showing) of every label of the app that has text."""
    out = []
    for node in app.find_all(lambda a: a.role_name == "label" and a.name):
        name = harness._safe(lambda: node.name, "")
        out.append((name, harness._safe(lambda: node.has_state("SHOWING"), False)))
    return out


def wait_message(app, *parts, timeout=30):
    """Waits for a label on screen whose text contains every part (case-insensitive); returns its text."""
    wanted = [p.lower() for p in parts]
    seen = []

    def attempt():
        seen[:] = label_texts(app)
        return next((text for text, showing in seen if showing and all(p in text.lower() for p in wanted)), None)

    return wait_until(attempt, timeout, 0.2, "a message on screen containing %r" % (parts,),
                      lambda: "labels: %r" % seen)


def room_before(cells, wide=50):
    """The indices of the cells that have a wide space (an opened room) just before them in their row."""
    return [i for i in range(1, len(cells)) if cells[i].y == cells[i - 1].y
            and cells[i].x - (cells[i - 1].x + cells[i - 1].width) >= wide]


def cell_named(cells, prefix):
    return next((c for c in cells if c.name.startswith(prefix)), None)


def percent(cell):
    m = re.search(r", (\d+)%", cell.name) if cell else None
    return int(m.group(1)) if m else None


def centre_colour(shot, cell):
    return dominant_colour(shot, cell.box)


def image_cell_problems(shot, cell, image_url, rgb, aspect, what):
    """What is wrong with a cell that should show that image (url, loaded, aspect, colour on screen): [str]."""
    if cell.url != image_url:
        return ["%s: the cell shows %s, not %s: %s" % (what, short(cell.url), short(image_url), cell)]
    if not cell.settled or cell.error is not None:
        return ["%s: not loaded: %s" % (what, cell)]
    if abs(cell.aspect / aspect - 1) > ASPECT_TOLERANCE:
        return ["%s: laid out at aspect %.3f instead of %.3f: %s" % (what, cell.aspect, aspect, cell)]
    colour, share = centre_colour(shot, cell)
    if not (colour_close(colour, rgb, COLOUR_TOLERANCE) and share > 0.8):
        return ["%s: the cell's centre is %r (%.0f%%), not the image's %r: %s" % (what, colour, share * 100, rgb,
                                                                                 cell)]
    return []


def check_on_screen(app, expected, what, timeout=3):
    """expected: [(url, rgb, aspect)] for the cells in order. Polls cells + screenshot (cells slide for ~0.2 s after
    a change) until each cell shows its image; fails with the last problems. Returns the cells."""
    last = {}

    def attempt():
        cells = app.cells()
        shot = app.screenshot()
        problems = [] if len(cells) == len(expected) else ["%d cells, not %d" % (len(cells), len(expected))]
        for cell, (url, rgb, aspect) in zip(cells, expected):
            problems += image_cell_problems(shot, cell, url, rgb, aspect, what)
        last.update(cells=cells, problems=problems)
        return cells if not problems else None

    return wait_until(attempt, timeout, 0.2, "the cells on screen (%s)" % what,
                      lambda: "\n  ".join(last["problems"]) + "\n" + harness.format_cells(last["cells"]))


def wait_screen(app, check, timeout, what):
    """Polls (cells, screenshot) until check(cells, shot) returns no problems; returns (cells, shot)."""
    last = {}

    def attempt():
        cells = app.cells()
        shot = app.screenshot()
        last.update(cells=cells, problems=check(cells, shot))
        return (cells, shot) if not last["problems"] else None

    return wait_until(attempt, timeout, 0.1, what,
                      lambda: "\n  ".join(last["problems"]) + "\n" + harness.format_cells(last["cells"]))


def expect(images):
    """[(url, rgb, aspect)] of ServedImages."""
    return [(i.url, i.rgb, i.aspect) for i in images]


def save_sequence(shot, name):
    """Keeps a named screenshot when E2E_SAVE_SCREENSHOTS names a folder (the harness also numbers every shot)."""
    folder = os.environ.get("E2E_SAVE_SCREENSHOTS")
    if folder:
        os.makedirs(folder, exist_ok=True)
        shot.save(os.path.join(folder, name))


def settle_order(app, urls, timeout=30, what=None):
    return app.wait_cells(lambda cs: [c.url for c in cs] == list(urls) and all(c.settled and c.error is None
                                                                                 for c in cs),
                          timeout=timeout, what=what or "the cells %s, loaded" % [short(u) for u in urls])


@pytest.fixture
def sources():
    """Drag sources started by a test; all stopped after it."""
    started = []

    def start(desktop, tmp_path, *targets, **options):
        src = DragSource(desktop, list(targets), workdir=str(tmp_path / "drag-source"), **options)
        started.append(src)
        return src.start()

    yield start
    for src in started:
        src.stop()


# ------------------------------------------------------------------------------------------------------------
# 1. A slow image: placeholder at the drop point, progress, then the image there
# ------------------------------------------------------------------------------------------------------------

def test_slow_image_shows_a_placeholder_with_progress_at_the_drop_point_then_lands_there(
        make_app, http_server, desktop, tmp_path, sources):
    gallery = serve(http_server, "red", "green", "blue", "yellow", "magenta")
    app, cells = launch(make_app, gallery)
    original = app.state_bytes()
    new = http_server.add_image("wide-cyan", 360, 160, (0, 210, 220))
    # The download waits at each share of the bytes the test lets out, for as long as the test looks: spread over a
    # fixed 4 s, it had landed on a loaded machine before the test saw the placeholder or its progress.
    url = new.stepped_url
    src = sources(desktop, tmp_path, target("text/uri-list", uri_list(url)))

    def hovering():
        # the room opens where the image will land: a wide space between cells 1 and 2, and nowhere else
        return app.wait_cells(lambda cs: len(cs) == 5 and room_before(cs) == [2], timeout=5,
                              what="the room to open between cells 1 and 2 while hovering")

    drop(app, src, before(cells[2]), while_hovering=hovering)
    assert src.find("drag-end").startswith("drag-end succeeded=yes"), src.lines

    # at once: a placeholder at index 2, between green and blue (shown in their colours), not the image yet
    def placeholder_shown(cells, shot):
        if len(cells) != 6 or not cells[2].placeholder:
            return ["no placeholder at index 2"]
        problems = []
        for cell, image in zip(cells[:2] + cells[3:], gallery):
            problems += image_cell_problems(shot, cell, image.url, image.rgb, image.aspect, "a neighbour")
        colour, _ = centre_colour(shot, cells[2])
        if any(colour_close(colour, c, COLOUR_TOLERANCE) for c in [new.rgb] + [g.rgb for g in gallery]):
            problems.append("the placeholder shows an image's colour %r: %s" % (colour, cells[2]))
        return problems

    placeholder_cells, shot = wait_screen(app, placeholder_shown, 10, "the placeholder at the drop point")
    save_sequence(shot, "drop-1-placeholder.png")
    assert placeholder_cells[2].name.startswith("Downloading"), placeholder_cells[2]
    assert app.state_bytes() == original, "the library changed while the image was still downloading"

    # progress: a percentage in the placeholder's name, rising with the bytes let out; the ring drawn, not the image
    seen = []

    def showing(low, high):
        def shown():
            value = percent(cell_named(app.cells(stable=False), "Downloading"))
            if value is not None:
                seen.append(value)
            return value is not None and low <= value <= high
        return shown

    for share, low, high in ((0.4, 30, 50), (0.7, 60, 80)):
        http_server.let_out(new, share)
        wait_until(showing(low, high), 10, 0.1, "a placeholder name with a percentage between %d and %d" % (low, high),
                   lambda: "percentages seen: %r; cells: %s" % (seen, harness.format_cells(app.cells())))
    progress_cells = app.cells()
    shot = app.screenshot()
    save_sequence(shot, "drop-2-progress.png")
    assert seen == sorted(seen), "the progress went backwards: %r" % seen
    in_progress = progress_cells[2]
    assert in_progress.placeholder and in_progress.name.startswith("Downloading wide-cyan.png"), \
        "the placeholder does not name the file: %s" % in_progress
    colour, _ = centre_colour(shot, in_progress)
    assert not colour_close(colour, new.rgb, COLOUR_TOLERANCE), in_progress
    assert app.state_bytes() == original, "the library changed while the image was still downloading"
    http_server.let_out(new, 1)

    # landed: the image at index 2, in the library too, with its own aspect ratio
    urls = [g.url for g in gallery]
    urls.insert(2, url)
    settle_order(app, urls, timeout=20, what="the image to land at index 2")
    wanted = expect(gallery)
    wanted.insert(2, (url, new.rgb, new.aspect))
    check_on_screen(app, wanted, "after the image landed")
    save_sequence(app.screenshot(), "drop-3-landed.png")
    wait_saved(app, urls)
    entry = saved_entry(app, url)
    assert abs(entry["aspectRatio"] - new.aspect) <= SAVED_ASPECT_TOLERANCE, entry
    assert http_server.hits("/stepped/wide-cyan.png") == 1, [r.path for r in http_server.requests()]


# ------------------------------------------------------------------------------------------------------------
# 2. Two slow drops finishing in reverse order, with a reorder while they load
# ------------------------------------------------------------------------------------------------------------

def test_two_slow_drops_land_at_their_placeholders_after_a_reorder(make_app, http_server, desktop, tmp_path, sources):
    red, green, blue, yellow, magenta = serve(http_server, "red", "green", "blue", "yellow", "magenta")
    app, cells = launch(make_app, [red, green, blue, yellow, magenta])
    first = http_server.add_image("first-teal", 500, 200, (0, 120, 110))      # dropped first, arrives last
    second = http_server.add_image("second-pink", 240, 300, (255, 120, 180))  # dropped second, arrives first
    # Each answer waits for the test to release it, so the order holds however slow the machine is.
    for image in (first, second):
        http_server.add_file("/%s.png" % image.name, image.data, image.content_type)
    first_url, second_url = (http_server.url("/held/%s.png" % image.name) for image in (first, second))

    # first drop: between green and blue
    src = sources(desktop, tmp_path, target("text/uri-list", uri_list(first_url)))
    drop(app, src, before(cells[2]))
    cells = app.wait_cells(lambda cs: len(cs) == 6 and cs[2].placeholder and cs[5].settled, timeout=5,
                           what="the first placeholder at index 2")
    src.stop()

    # second drop: between blue and yellow (blue is now at index 3)
    src = sources(desktop, tmp_path, target("text/uri-list", uri_list(second_url)))
    drop(app, src, before(cells[4]))
    cells = app.wait_cells(lambda cs: len(cs) == 7 and cs[2].placeholder and cs[4].placeholder, timeout=5,
                           what="the second placeholder at index 4")
    assert [c.url for c in cells if not c.placeholder] == [red.url, green.url, blue.url, yellow.url, magenta.url]

    # while both load: yellow moves four steps left with the keyboard, past both placeholders
    app.click(*cells[5].center)
    app.focus()
    app.key("alt+Left alt+Left alt+Left alt+Left")
    moved = app.wait_cells(lambda cs: len(cs) == 7 and [c.url for c in cs][:3] == [red.url, yellow.url, green.url],
                           timeout=5, what="yellow moved to index 1")
    assert moved[3].placeholder and moved[5].placeholder, \
        "the placeholders did not move with the cells:\n" + harness.format_cells(moved)
    assert "first-teal" in moved[3].name and "second-pink" in moved[5].name, harness.format_cells(moved)
    assert [moved[i].url for i in (0, 1, 2, 4, 6)] == [red.url, yellow.url, green.url, blue.url, magenta.url]
    wait_saved(app, [red.url, yellow.url, green.url, blue.url, magenta.url], timeout=5,
               what="the move saved (without placeholders)")

    # the second lands first, at its placeholder's place (index 5), the first still loading at index 3
    http_server.release_held("/%s.png" % second.name)
    after_second = [red.url, yellow.url, green.url, blue.url, second_url, magenta.url]
    wait_saved(app, after_second, timeout=15, what="the second image saved where its placeholder was")
    cells = app.cells()
    assert len(cells) == 7 and cells[3].placeholder, \
        "the first image is no longer loading when the second has landed:\n" + harness.format_cells(cells)
    assert cells[5].url == second_url, harness.format_cells(cells)

    # then the first, at its placeholder's place (index 3)
    http_server.release_held("/%s.png" % first.name)
    final = [red.url, yellow.url, green.url, first_url, blue.url, second_url, magenta.url]
    settle_order(app, final, timeout=20, what="the first image to land at index 3")
    wait_saved(app, final)
    check_on_screen(app, [(url, image.rgb, image.aspect) for image, url in
                          zip([red, yellow, green, first, blue, second, magenta], final)], "final order")
    for image, url in ((first, first_url), (second, second_url)):
        assert abs(saved_entry(app, url)["aspectRatio"] - image.aspect) <= SAVED_ASPECT_TOLERANCE


# ------------------------------------------------------------------------------------------------------------
# 3. Failures: 404, HTML, too large, stalled (and HTML sent as a PNG, a redirect to file:)
# ------------------------------------------------------------------------------------------------------------

def test_failed_downloads_remove_their_placeholder_with_a_message_and_change_nothing(
        make_app, http_server, desktop, tmp_path, sources):
    gallery = serve(http_server, "red", "green", "blue")
    app, cells = launch(make_app, gallery)
    original = app.state_bytes()
    urls = [g.url for g in gallery]

    # the stall first (it takes 15 s to be given up); one other fails while it waits, the rest after it ends
    # (five drops in a row can take longer than 15 s on a loaded machine)
    stall = http_server.url("/stall.png")
    src = sources(desktop, tmp_path, target("text/uri-list", uri_list(stall)))
    drop(app, src, before(cells[1]))
    stalled_at = time.monotonic()
    src.stop()
    app.wait_cells(lambda cs: len(cs) == 4 and cs[1].placeholder and "stall.png" in cs[1].name, timeout=5,
                   what="the stalled download's placeholder at index 1")
    wait_until(lambda: http_server.hits("/stall.png") >= 1, 5, 0.1, "the app to request /stall.png")

    failures = [("/missing.png", ["missing.png", "HTTP 404"]),
                ("/huge.png", ["huge.png", "larger than 50 MB"]),
                ("/lie.png", ["lie.png", "web page without images"]),  # HTML sent as image/png
                ("/redirect?to=file:///etc/hostname", ["redirect", "only http and https"])]
    def fails(route, words, stalled_placeholder):
        src = sources(desktop, tmp_path, target("text/uri-list", uri_list(http_server.url(route))))
        now = app.cells()
        assert [c.url for c in now if not c.placeholder] == urls, harness.format_cells(now)
        drop(app, src, before(now[-1]))  # before blue
        src.stop()
        message = wait_message(app, "Couldn\u2019t add", *words, timeout=15)
        assert http_server.hits(route.split("?")[0]) >= 1, "%s was never requested" % route
        count = 4 if stalled_placeholder else 3
        after = app.wait_cells(lambda cs: len(cs) == count and (cs[1].placeholder or not stalled_placeholder)
                               and [c.url for c in cs if not c.placeholder] == urls,
                               timeout=5, what="the failed placeholder gone after the %s failure" % route)
        assert not any(words[0] in c.name for c in after), "the failed placeholder is still there: %s (%s)" % (
            harness.format_cells(after), message)
        assert app.state_bytes() == original, "the library changed after the %s failure" % route

    fails(*failures[0], stalled_placeholder=True)

    # the stall is given up after 15 s without data
    assert app.cells()[1].placeholder, "the stalled download ended early:\n" + harness.format_cells(app.cells())
    wait_message(app, "Couldn\u2019t add", "stall.png", "timed out", timeout=40)
    waited = time.monotonic() - stalled_at
    assert waited >= 14, "the stalled download was given up after %.1fs, before the 15 s stall timeout" % waited
    settle_order(app, urls, timeout=5, what="the stalled placeholder gone, the gallery as it was")
    for route, words in failures[1:]:
        fails(route, words, stalled_placeholder=False)
    check_on_screen(app, expect(gallery), "after the failures")
    assert app.state_bytes() == original, "the library changed"
    assert app.running


# ------------------------------------------------------------------------------------------------------------
# 4. The URL fails, but the drag carried the image bytes
# ------------------------------------------------------------------------------------------------------------

def test_bytes_carried_by_the_drag_are_used_when_the_url_fails(make_app, http_server, desktop, tmp_path, sources):
    gallery = serve(http_server, "red", "green", "blue")
    app, cells = launch(make_app, gallery)
    gone = http_server.url("/img/gone-teal.png")  # never registered: 404
    w, h, rgb = 500, 200, (0, 120, 110)
    png = harness.png_bytes(w, h, rgb)
    src = sources(desktop, tmp_path, target("text/uri-list", uri_list(gone)), target("image/png", png))
    drop(app, src, before(cells[1]))
    assert "image/png" in src.data_requests(), "the app never asked for the image bytes: %r" % src.lines
    urls = [gallery[0].url, gone, gallery[1].url, gallery[2].url]
    settle_order(app, urls, timeout=20, what="the carried image at index 1")
    assert http_server.hits("/img/gone-teal.png") >= 1, "the URL was never tried"
    wanted = expect(gallery)
    wanted.insert(1, (gone, rgb, w / h))
    check_on_screen(app, wanted, "the image from the drag's bytes")
    wait_saved(app, urls)
    assert abs(saved_entry(app, gone)["aspectRatio"] - w / h) <= SAVED_ASPECT_TOLERANCE

    # kept as the library's original: a relaunch shows it although its URL still 404s
    originals = os.path.join(app.state_dir, "originals")
    kept = [os.path.join(folder, name) for folder, _, names in os.walk(originals) for name in names]
    assert [f for f in kept if open(f, "rb").read() == png], "the carried bytes were not kept in %s: %r" % (
        originals, kept)
    app.stop()
    http_server.clear_log()
    app.start()
    app.resize(*APP_SIZE)
    settle_order(app, urls, timeout=20, what="the carried image after a relaunch")
    check_on_screen(app, wanted, "the carried image after a relaunch")
    assert http_server.hits("/img/gone-teal.png") == 0, "the cached image was downloaded again"


def test_image_bytes_alone_are_kept_as_a_file(make_app, http_server, desktop, tmp_path, sources):
    """A drag that carries only the image (an image editor, a screenshot tool): the bytes are kept in the app's data
    folder and recorded by that file's URL."""
    gallery = serve(http_server, "red", "green", "blue")
    app, cells = launch(make_app, gallery)
    w, h, rgb = 240, 300, (255, 120, 180)
    png = harness.png_bytes(w, h, rgb)
    src = sources(desktop, tmp_path, target("image/png", png))
    drop(app, src, before(cells[2]))
    cells = app.wait_cells(lambda cs: len(cs) == 4 and cs[2].settled and cs[2].url.startswith("file://"),
                           timeout=15, what="the carried image at index 2, recorded by a file URL")
    kept = cells[2].url
    path = urllib.parse.unquote(urllib.parse.urlsplit(kept).path)
    assert os.path.dirname(path).startswith(app.state_dir), \
        "the bytes were kept outside the app's data folder: %s" % kept
    with open(path, "rb") as f:
        assert f.read() == png, "the kept file is not the dragged bytes: %s" % path
    wanted = expect(gallery)
    wanted.insert(2, (kept, rgb, w / h))
    check_on_screen(app, wanted, "the carried image")
    wait_saved(app, [gallery[0].url, gallery[1].url, kept, gallery[2].url])
    assert abs(saved_entry(app, kept)["aspectRatio"] - w / h) <= SAVED_ASPECT_TOLERANCE


# ------------------------------------------------------------------------------------------------------------
# 5. A file manager's drop: text/uri-list with a file:// URI
# ------------------------------------------------------------------------------------------------------------

def test_file_manager_drop_of_a_file_uri(make_app, http_server, desktop, tmp_path, sources):
    gallery = serve(http_server, "red", "green", "blue")
    app, cells = launch(make_app, gallery)
    name, w, h, rgb, _ = harness.FILE_IMAGE
    path = tmp_path / "Camera Roll" / ("%s photo.png" % name)
    path.parent.mkdir()
    path.write_bytes(harness.png_bytes(w, h, rgb))
    uri = harness.file_url(str(path))  # percent-encoded, as file managers send it
    assert "%20" in uri
    src = sources(desktop, tmp_path, target("text/uri-list", uri_list(uri)))
    drop(app, src, before(cells[2]))
    urls = [gallery[0].url, gallery[1].url, uri, gallery[2].url]
    settle_order(app, urls, timeout=15, what="the file's image at index 2")
    wanted = expect(gallery)
    wanted.insert(2, (uri, rgb, w / h))
    check_on_screen(app, wanted, "the dropped file")
    wait_saved(app, urls)
    assert abs(saved_entry(app, uri)["aspectRatio"] - w / h) <= SAVED_ASPECT_TOLERANCE


# ------------------------------------------------------------------------------------------------------------
# 6. WebP
# ------------------------------------------------------------------------------------------------------------

def test_webp_image_dropped_by_url_lands_at_its_aspect_ratio(make_app, http_server, desktop, tmp_path, sources):
    gallery = serve(http_server, "red", "green", "blue")
    app, cells = launch(make_app, gallery)
    webp = http_server.add_image("tall-purple", 200, 300, (120, 0, 180), fmt="webp")
    assert webp.data[:4] == b"RIFF" and webp.data[8:12] == b"WEBP"
    src = sources(desktop, tmp_path, target("text/uri-list", uri_list(webp.url)))
    drop(app, src, before(cells[1]))
    urls = [gallery[0].url, webp.url, gallery[1].url, gallery[2].url]
    settle_order(app, urls, timeout=15, what="the WebP image at index 1")
    wanted = expect(gallery)
    wanted.insert(1, (webp.url, webp.rgb, webp.aspect))
    check_on_screen(app, wanted, "the WebP image")
    wait_saved(app, urls)
    assert abs(saved_entry(app, webp.url)["aspectRatio"] - webp.aspect) <= SAVED_ASPECT_TOLERANCE


# ------------------------------------------------------------------------------------------------------------
# 7. A search engine's wrapper link: the real image URL is recorded
# ------------------------------------------------------------------------------------------------------------

def test_search_engine_wrapper_link_records_the_real_image_url(make_app, http_server, desktop, tmp_path, sources):
    gallery = serve(http_server, "red", "green", "blue")
    app, cells = launch(make_app, gallery)
    real = http_server.add_image("found-brown", 270, 480, (130, 70, 10))
    wrapper = http_server.url("/imgres?imgurl=%s&imgrefurl=%s" % (
        urllib.parse.quote(real.url, safe=""), urllib.parse.quote(http_server.url("/page.html"), safe="")))
    src = sources(desktop, tmp_path, target("text/uri-list", uri_list(wrapper)))
    drop(app, src, before(cells[2]))
    urls = [gallery[0].url, gallery[1].url, real.url, gallery[2].url]
    settle_order(app, urls, timeout=15, what="the real image at index 2, recorded by its own URL")
    wanted = expect(gallery)
    wanted.insert(2, (real.url, real.rgb, real.aspect))
    check_on_screen(app, wanted, "the unwrapped image")
    wait_saved(app, urls)
    assert http_server.hits(real.path) == 1, [r.path for r in http_server.requests()]
    assert abs(saved_entry(app, real.url)["aspectRatio"] - real.aspect) <= SAVED_ASPECT_TOLERANCE


# ------------------------------------------------------------------------------------------------------------
# 8. Not an image: refused while hovering; HTML without an image: removed with a message
# ------------------------------------------------------------------------------------------------------------

def test_plain_text_drag_is_refused_while_hovering(make_app, http_server, desktop, tmp_path, sources):
    gallery = serve(http_server, "red", "green", "blue")
    app, cells = launch(make_app, gallery)
    original = app.state_bytes()
    resting = [c.box for c in cells]
    src = sources(desktop, tmp_path, target("text/plain", "hello world"))

    def hovering():
        # a while over the gallery: no room opens (the cells stay put)
        samples = []
        deadline = time.monotonic() + 1.0
        while time.monotonic() < deadline:
            samples.append([c.box for c in app.cells(stable=False)])
            time.sleep(0.1)
        return samples

    samples = drop(app, src, before(cells[1]), while_hovering=hovering)
    moved = [s for s in samples if s != resting]
    assert not moved, "the cells moved while plain text hovered over them (room opened): %r, resting %r" % (
        moved[0], resting)
    # refused: nothing accepted the drop where it was released (GTK's drag-failed, "no target")
    assert src.find("failed") == "failed no-target", "the drop was not refused: %r" % src.lines
    assert src.find("drag-end").endswith("action=none"), src.lines
    assert src.data_requests() == [], "the app asked for the text: %r" % src.lines

    def no_placeholder_for_a_while():
        deadline = time.monotonic() + 2.0
        while time.monotonic() < deadline:
            now = app.cells(stable=False)
            assert not any(c.placeholder for c in now), "a placeholder appeared:\n" + harness.format_cells(now)
            time.sleep(0.1)

    no_placeholder_for_a_while()
    settle_order(app, [g.url for g in gallery], timeout=5)
    assert app.state_bytes() == original


def test_html_without_an_image_is_removed_with_a_message(make_app, http_server, desktop, tmp_path, sources):
    gallery = serve(http_server, "red", "green", "blue")
    app, cells = launch(make_app, gallery)
    original = app.state_bytes()
    src = sources(desktop, tmp_path, target("text/html", "<p>hello world</p>"))
    drop(app, src, before(cells[1]))
    assert "text/html" in src.data_requests(), src.lines
    message = wait_message(app, "hello world", "not an image", timeout=10)
    assert "\u201c" in message, message
    settle_order(app, [g.url for g in gallery], timeout=5, what="no placeholder left")
    # XdndFinished said the drop was not taken
    assert src.find("drag-end").startswith("drag-end succeeded=no"), \
        "the drop site told the source it took the drop: %r" % src.lines
    check_on_screen(app, expect(gallery), "after the refused drop")
    assert app.state_bytes() == original


# ------------------------------------------------------------------------------------------------------------
# 9. Several images in one drop, finishing in another order
# ------------------------------------------------------------------------------------------------------------

def test_several_images_in_one_drop_land_in_order_whatever_order_they_arrive_in(
        make_app, http_server, desktop, tmp_path, sources):
    gallery = serve(http_server, "red", "green", "blue")
    app, cells = launch(make_app, gallery)
    slow = http_server.add_image("one-yellow", 400, 200, (250, 220, 0))
    quick = http_server.add_image("two-magenta", 150, 300, (210, 0, 210))
    middle = http_server.add_image("three-cyan", 320, 240, (0, 210, 220))
    # The slow one is answered only once the other two are saved: however busy the machine, it arrives last.
    http_server.add_file("/one-yellow.png", slow.data, slow.content_type)
    dropped = [(slow, http_server.url("/held/one-yellow.png")), (quick, quick.url), (middle, middle.slow_url(1.5))]
    src = sources(desktop, tmp_path, target("text/uri-list", uri_list(*[u for _, u in dropped])))
    drop(app, src, before(cells[1]))

    def in_place(cs):
        # red, then each dropped image (or its placeholder, named after it) in drop order, then green and blue
        if len(cs) != 6 or [c.url for c in (cs[0], cs[4], cs[5])] != [gallery[0].url, gallery[1].url, gallery[2].url]:
            return False
        return all(c.url == url or (c.placeholder and image.name in c.name)
                   for c, (image, url) in zip(cs[1:4], dropped))

    early = app.wait_cells(in_place, timeout=10, what="three cells (placeholders or images) at the drop point")
    assert early[1].placeholder, "the slow image was not downloading:\n" + harness.format_cells(early)
    # the 1.5 s one arrives while the held one still loads: saved after the quick one, with a gap where the slow one
    # will go
    wait_saved(app, [gallery[0].url, dropped[1][1], dropped[2][1], gallery[1].url, gallery[2].url], timeout=10,
               what="the quick and the middle image saved while the slow one loads")
    assert app.cells()[1].placeholder, harness.format_cells(app.cells())
    http_server.release_held("/one-yellow.png")
    final = [gallery[0].url] + [u for _, u in dropped] + [gallery[1].url, gallery[2].url]
    settle_order(app, final, timeout=15, what="all three images in drop order")
    wait_saved(app, final)
    check_on_screen(app, [(gallery[0].url, gallery[0].rgb, gallery[0].aspect)]
                    + [(u, i.rgb, i.aspect) for i, u in dropped]
                    + [(g.url, g.rgb, g.aspect) for g in gallery[1:]], "the three dropped images")


def detailed_jpeg(width, height):
    """A JPEG of noise in every channel: slow to decode (tens of ms), like a large detailed photo."""
    from PIL import Image
    noise = [Image.effect_noise((width, height), 80) for _ in range(3)]
    out = io.BytesIO()
    Image.merge("RGB", noise).save(out, "JPEG", quality=92)
    return out.getvalue()


def test_a_drops_images_decode_in_drop_order_the_first_where_it_landed_first(
        make_app, http_server, desktop, tmp_path, sources):
    gallery = serve(http_server, "red", "green", "blue")
    app, cells = launch(make_app, gallery)
    photo = detailed_jpeg(2000, 1500)
    count = 24
    for i in range(count):
        http_server.add_file("/photo-%02d.jpg" % i, photo, "image/jpeg")
    held = [http_server.url("/held/photo-%02d.jpg" % i) for i in range(count)]
    src = sources(desktop, tmp_path, target("text/uri-list", uri_list(*held)))
    drop(app, src, before(cells[0]))
    # One server gets 6 connections at once (issue 30): the first 6 are asked for, the others wait for a place.
    asked = lambda: [r.route for r in http_server.requests() if r.route.startswith("/held/")]  # noqa: E731
    wait_until(lambda: len(asked()) == 6, 15, 0.1, "the first 6 downloads asked for")
    assert sorted(asked()) == ["/held/photo-%02d.jpg" % i for i in range(6)], asked()
    # Every answer at once from now on: the order they decode in is the app's choice alone.
    http_server.release_held()
    # The library is saved as images arrive: read again and again, it tells the order they land in.
    order = []
    deadline = time.monotonic() + 60
    while len(order) < count and time.monotonic() < deadline:
        saved = saved_urls(app) or []
        order += [i for i, url in enumerate(held) if url in saved and i not in order]
        time.sleep(0.01)
    assert len(order) == count, "%d of %d landed in 60 s, in this order: %s" % (len(order), count, order)
    # The images land in drop order, the first (where the drop landed, on screen) first. A few decodes begin while
    # the answers still come in, each with the first image there then; the newest-first order that suits scrolling
    # had landed them in any order, often the first ones last.
    ahead = [i for n, i in enumerate(order) if any(j < i for j in order[n + 1:])]
    assert len(ahead) <= count // 4, "landed before images dropped ahead of them: %s (order %s)" % (ahead, order)
    wait_saved(app, held + [g.url for g in gallery], timeout=60, what="the %d dropped photos saved in drop order" % count)


# ------------------------------------------------------------------------------------------------------------
# 10. The drag is read while it hovers, so the drop needs no transfer
# ------------------------------------------------------------------------------------------------------------

def test_the_drag_is_read_once_while_it_hovers_and_the_drop_uses_that(make_app, http_server, desktop, tmp_path,
                                                                        sources):
    gallery = serve(http_server, "red", "green", "blue")
    app, cells = launch(make_app, gallery)
    new = http_server.add_image("hover-teal", 500, 200, (0, 120, 110))
    html = '<img src="%s" alt="teal">' % new.url
    src = sources(desktop, tmp_path, target("text/uri-list", uri_list(new.url)), target("text/html", html))

    def asked_while_hovering():
        wait_until(lambda: len(src.data_requests()) == 2, 5, 0.05, "both targets asked for before the release",
                   lambda: src.lines)
        return src.data_requests()

    hovering = drop(app, src, before(cells[1]), while_hovering=asked_while_hovering)
    assert sorted(hovering) == ["text/html", "text/uri-list"], src.lines
    assert src.find("drag-end").startswith("drag-end succeeded=yes"), src.lines
    urls = [gallery[0].url, new.url, gallery[1].url, gallery[2].url]
    settle_order(app, urls, timeout=15, what="the hovered image at index 1")
    assert src.data_requests() == hovering, "the drop asked again: %r" % src.lines
    check_on_screen(app, expect(gallery[:1]) + [(new.url, new.rgb, new.aspect)] + expect(gallery[1:]),
                    "the image read while hovering")
    wait_saved(app, urls)


def test_a_source_that_answers_only_on_drop_is_asked_again(make_app, http_server, desktop, tmp_path, sources):
    gallery = serve(http_server, "red", "green", "blue")
    app, cells = launch(make_app, gallery)
    new = http_server.add_image("late-teal", 500, 200, (0, 120, 110))
    src = sources(desktop, tmp_path, target("text/uri-list", uri_list(new.url)), withhold_first=True)
    drop(app, src, before(cells[1]))
    assert src.data_requests() == ["text/uri-list", "text/uri-list"], src.lines
    assert src.find("drag-end").startswith("drag-end succeeded=yes"), src.lines
    urls = [gallery[0].url, new.url, gallery[1].url, gallery[2].url]
    settle_order(app, urls, timeout=15, what="the image given on the drop at index 1")
    wait_saved(app, urls)
