"""Images dragged out of real web browsers (Firefox ESR and Chromium) into the gallery, under Xvfb.

Each browser runs once per module (a fresh temporary profile), its window at the right of the screen showing a page
served on 127.0.0.1 with solid-colour <img> elements of distinct sizes and colours; the gallery runs at the left
(a fresh app per test, three images already in it). The pointer is moved with xdotool (XTEST): a real XDND drag
from the browser's page into the gallery, dropped between its first two cells. Then:
  - the library has the dropped image at index 1 (between the two cells it was dropped between), with the image's
    own URL and aspect ratio (within 1%);
  - the cell at index 1 shows the image's colour on a screenshot;
  - while it downloads, any placeholder is at index 1 too.
What the browsers hand over differs (DropPayloadTests.swift replays their bytes): Chromium offers no text/uri-list; an
image inside a link arrives as the link's URL, the image only in text/html; the bytes come as image/png
(Firefox, re-encoded) or application/octet-stream (Chromium, the original file).

Run from the repository root with Debian's python (pyatspi):
    /usr/bin/python3 -m pytest -p no:cacheprovider Tests/e2e/test_browser_drops.py -x -v
Debian packages: firefox-esr, chromium, and the harness's (xvfb, xauth, xdotool, x11-utils, imagemagick,
at-spi2-core, python3-pyatspi, python3-gi, dbus, python3-pytest, python3-pil).
"""

import os
import sys
import time

import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import harness  # noqa: E402
from browsers import Chromium, DragSourceServer, Firefox, browser_drag, image_page, text_link  # noqa: E402
from harness import HarnessError, colour_close, dominant_colour, format_cells, wait_until  # noqa: E402

# The gallery at the left of the 1280x1024 screen, the browser at the right; they do not overlap.
GALLERY_GEOMETRY = (0, 0, 620, 720)
BROWSER_GEOMETRY = (640, 0, 640, 720)
PAGE_TITLE = "Image Gallery drag source"

# Already in the gallery (one row at the gallery's width).
EXISTING = [("red", 300, 200, (220, 40, 40)), ("green", 200, 200, (40, 180, 60)), ("blue", 240, 180, (40, 70, 220))]


class Page:
    """What the module's page shows: the images to drag, each a different colour, size and aspect ratio."""

    def __init__(self, server):
        self.server = server
        self.existing = [server.add_image(*spec) for spec in EXISTING]
        self.plain = {
            "firefox": server.add_image("orange", 210, 120, (250, 150, 20)),     # 1.75
            "chromium": server.add_image("violet", 120, 160, (130, 60, 210)),    # 0.75
        }
        self.linked = server.add_image("magenta", 160, 128, (230, 60, 170))      # 1.25, inside a link
        self.article_url = server.add_page("/article.html", "<!DOCTYPE html><html><head><meta charset=utf-8>"
                                           "<title>Article</title></head><body><p>An article.</p></body></html>")
        self.hotlinked = server.add_hotlink_image("teal", 200, 80, (20, 160, 160))  # 2.5, 403 for the gallery
        self.link_rgb = (200, 0, 200)  # a text link to the article, drawn as a block of this colour
        self.url = server.add_page("/drag.html", image_page(PAGE_TITLE, [
            self.plain["firefox"], self.plain["chromium"], (self.linked, self.article_url), self.hotlinked],
            extra_html=text_link(self.article_url, "Article", self.link_rgb)))


@pytest.fixture(scope="module")
def page():
    server = DragSourceServer()
    yield Page(server)
    server.stop()


@pytest.fixture(scope="module", params=["firefox", "chromium"])
def browser(request, desktop, page):
    """The browser (fresh profile for this module) showing the page; the whole process group is killed after
    the module's tests with this browser."""
    kind = {"firefox": Firefox, "chromium": Chromium}[request.param]
    b = kind(desktop, PAGE_TITLE, BROWSER_GEOMETRY)
    started = time.monotonic()
    try:
        b.start(page.url, timeout=90)
        # The page is there when its first image is painted.
        b.find_image(page.plain["firefox"].rgb, timeout=60)
        b.startup_seconds = time.monotonic() - started
        yield b
    finally:
        b.stop()


def gallery_state(page):
    return {"version": 1, "galleries": [{"id": "g-main", "name": "Main", "images": [
        {"id": "existing-%s" % image.name, "url": image.url, "aspectRatio": image.aspect}
        for image in page.existing]}]}


def start_gallery(make_app, page):
    """A fresh app with the three existing images, at the left of the screen, every cell loaded and still."""
    app = make_app(gallery_state(page))
    app.start()
    x, y, w, h = GALLERY_GEOMETRY
    app.resize(w, h, x, y)
    urls = [i.url for i in page.existing]
    app.wait_cells(lambda cs: [c.url for c in cs] == urls and all(c.settled for c in cs), timeout=60,
                   what="the three existing images, loaded")
    return app, wait_still(app)


def wait_still(app, timeout=20):
    """The cells once two reads 0.3 s apart give the same boxes (layout animations over)."""
    previous = []

    def still():
        cells = app.cells()
        same = previous and [c.box for c in cells] == [c.box for c in previous[-1]]
        previous.append(cells)
        time.sleep(0.3)
        return cells if same else None

    return wait_until(still, timeout, 0.05, "the gallery's layout to settle",
                      lambda: format_cells(previous[-1] if previous else []))


def point_between(left, right):
    """The screen point between two cells of one row, halfway up the right one."""
    if abs(left.y - right.y) > 4:
        raise HarnessError("cells %s and %s are not on one row" % (left, right))
    return ((left.x + left.width + right.x) // 2, right.y + right.height // 2)


def drop_from_browser(browser, app, image, index):
    """Drags `image` (a ServedImage on the browser's page, or an RGB colour of a block on it) into the gallery
    between cells index-1 and index. Returns the cells before the drag and the drop point."""
    cells = wait_still(app)
    target = point_between(cells[index - 1], cells[index])
    box = browser.find_image(getattr(image, "rgb", image), timeout=30)
    source = (box[0] + box[2] // 2, box[1] + box[3] // 2)
    browser_drag(browser.desktop, source, target)
    return cells, target


def wait_landed(app, image, index, before, timeout=60):
    """Polls the cells until the dropped image has settled; checks on the way that any placeholder was at index.
    Returns the settled cells."""
    count = len(before) + 1
    seen = []

    def landed():
        cells = app.cells()
        seen.append(cells)
        for c in cells:
            if c.placeholder and c.index != index:
                raise HarnessError("a download placeholder at index %d, not %d where the image was dropped:\n%s"
                                   % (c.index, index, format_cells(cells)))
        return len(cells) == count and all(c.settled for c in cells) and any(c.url == image.url for c in cells)

    try:
        wait_until(landed, timeout, 0.1, "%s to land in the gallery" % image.url,
                   lambda: "%s\nerrors shown: %s" % (format_cells(seen[-1] if seen else []), toast_text(app)))
    except HarnessError as e:
        raise HarnessError("%s\napp stderr:\n%s" % (e, app.stderr()[-3000:]))
    return seen[-1]


def toast_text(app):
    """Texts of the app's showing labels (a failed drop names its reason in one: for failure messages)."""
    labels = app.find_all(lambda a: a.role == harness.ROLE.LABEL and a.has_state("SHOWING"))
    return [t for t in (harness._safe(lambda: a.name) for a in labels) if t and t.strip()]


def assert_landed(app, page, image, index=1):
    """The library: the existing images with `image` at `index`, its URL and aspect ratio; the cell at index
    shows its colour."""
    expected = [i.url for i in page.existing]
    expected.insert(index, image.url)
    state = wait_until(lambda: _state_with(app, len(expected)), 15, 0.2, "the library with %d images"
                       % len(expected), app.state_text)
    images = state["galleries"][0]["images"]
    assert [i["url"] for i in images] == expected, \
        "dropped between cells %d and %d; the library has: %s" % (index - 1, index, [i["url"] for i in images])
    ratio = images[index]["aspectRatio"]
    assert abs(ratio - image.aspect) <= 0.01 * image.aspect, \
        "aspect ratio %r recorded for a %dx%d image (%.4f)" % (ratio, image.width, image.height, image.aspect)
    for old, recorded in zip(page.existing, [i for i in images if i["url"] != image.url]):
        assert recorded["id"] == "existing-%s" % old.name and abs(recorded["aspectRatio"] - old.aspect) < 1e-6

    # On screen: the cell at index is the image (its colour), the right shape.
    last = {}

    def shows_colour():
        cells = wait_still(app)
        cell = cells[index]
        colour, share = dominant_colour(app.screenshot(), cell.box)
        last.update(cell=cell, colour=colour, share=share)
        return cell.url == image.url and colour_close(colour, image.rgb, 20) and share > 0.9

    wait_until(shows_colour, 20, 0.3, "the cell at index %d to show %r" % (index, image.rgb), lambda: repr(last))
    cell = last["cell"]
    assert abs(cell.aspect - image.aspect) <= 0.05 * image.aspect, \
        "the cell is %dx%d for a %dx%d image" % (cell.width, cell.height, image.width, image.height)


def _state_with(app, count):
    try:
        state = app.state()
    except (OSError, ValueError):
        return None
    return state if len(state["galleries"][0]["images"]) == count else None


# ------------------------------------------------------------------------------------------------------------

def test_image_lands_between_cells(browser, page, make_app):
    """A plain <img> dragged from the browser lands between the two cells it was dropped between, downloaded from
    its URL (Chromium: with no text/uri-list offered)."""
    image = page.plain[browser.name]
    app, _ = start_gallery(make_app, page)
    before, _ = drop_from_browser(browser, app, image, 1)
    wait_landed(app, image, 1, before)
    assert_landed(app, page, image, 1)
    assert page.server.app_requests(image.path), "the app never asked the server for %s" % image.url


def test_image_inside_link_records_image_url(browser, page, make_app):
    """<a href="/article.html"><img src="/img/magenta.png"></a>: the drag names the link's page, the HTML the
    image; the image's URL is what lands, not the page's."""
    image = page.linked
    app, _ = start_gallery(make_app, page)
    before, _ = drop_from_browser(browser, app, image, 1)
    wait_landed(app, image, 1, before)
    assert_landed(app, page, image, 1)
    urls = [i["url"] for i in app.state()["galleries"][0]["images"]]
    assert page.article_url not in urls


def test_bytes_carried_by_drag_used_when_url_refused(browser, page, make_app):
    """The image's URL answers the gallery with 403 (hotlink protection: the browser is served, the gallery's
    User-Agent refused). The drag carried the image (Firefox: image/png, Chromium: application/octet-stream):
    it still lands, recorded with its URL."""
    image = page.hotlinked
    app, _ = start_gallery(make_app, page)
    before, _ = drop_from_browser(browser, app, image, 1)
    wait_landed(app, image, 1, before)
    assert_landed(app, page, image, 1)
    assert page.server.app_requests(image.path), \
        "the app never tried %s (so the 403 path was not exercised)" % image.url
    assert page.server.browser_requests(image.path), "the browser was never served %s" % image.url


def test_link_to_a_page_is_not_added(browser, page, make_app):
    """A text link to an HTML page without images dragged in: it may be an image as far as the drag can tell (a URL),
    so the drop is taken, but the page is no image and offers none to pick: the placeholder goes, a message in the
    window says why, and neither the library nor the cells change (a page with images opens the picker:
    test_page_picker.py)."""
    app, before = start_gallery(make_app, page)
    saved = app.state_bytes()
    drop_from_browser(browser, app, page.link_rgb, 1)
    message = wait_until(lambda: [t for t in toast_text(app) if "web page without images" in t], 30, 0.2,
                         "a message saying the dropped page has no image",
                         lambda: "labels: %r\n%s" % (toast_text(app), format_cells(app.cells())))
    assert "article" in message[0], "the message does not name what was dropped: %r" % message[0]
    cells = app.wait_cells(lambda cs: all(c.settled for c in cs) and len(cs) == len(before), timeout=20,
                           what="the placeholder gone")
    assert [(c.name, c.url) for c in cells] == [(c.name, c.url) for c in before]
    assert app.state_bytes() == saved, "the library changed after a refused drop"
    assert page.server.app_requests("/article.html"), "the app never looked at the dropped page"
