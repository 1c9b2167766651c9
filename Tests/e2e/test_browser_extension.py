"""The browser extension (data/browser-extension) in real Firefox ESR and Chromium, with its native messaging host
(the app's binary in host mode), under Xvfb.

Each browser starts once per module with the extension loaded from the source tree (browser_extension.py), showing
a page served on 127.0.0.1 titled PAGE_TITLE: a plain image inside a link, an image the app is refused (403 for
its User-Agent, as behind a login), a large image, and two images drawn from `blob:` addresses, one of them a PNG over
1 MiB that the extension sends in chunks. Each test starts a fresh app whose
shown gallery is "Cats", points the host at it, right-clicks an image and chooses "Send Image to Image Gallery"
with the keyboard (the extension's item is the menu's last in Firefox, the last but one, above Inspect, in
Chromium), then reads the library: the image is in "Cats" with the page's address and title in its origin; the
toast says "1 image added to “Cats”". "Send All Images on This Page" (the page's context menu, and the toolbar
button through its key, Alt+Shift+Y) opens the app's page picker with the page's images (the large one shown, the two
small ones hidden; the blob: ones have no address to list), and Escape closes it with nothing added.

Run from the repository root with Debian's python:
    /usr/bin/python3 -m pytest -p no:cacheprovider Tests/e2e/test_browser_extension.py -x -v
Debian packages: firefox-esr, chromium, and the harness's.
"""

import hashlib
import io
import os
import sys
import time

import pytest
from PIL import Image, ImageChops

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import harness  # noqa: E402
from browser_extension import ExtensionChromium, ExtensionFirefox, host_log, point_host_at  # noqa: E402
from browsers import DragSourceServer, find_colour_box, image_page  # noqa: E402
from harness import HarnessError, colour_close, wait_until  # noqa: E402

GALLERY_GEOMETRY = (0, 0, 620, 720)
BROWSER_GEOMETRY = (640, 0, 640, 720)
PAGE_TITLE = "Cats of the week"
# The extension's toolbar button's key (its manifest's `_execute_action` command).
ACTION_KEY = "alt+shift+y"
# Keys that choose the extension's item once an image's context menu shows, and once the page's does.
MENU_KEYS = {"firefox": ["Up", "Return"], "chromium": ["Up", "Up", "Return"]}
PAGE_MENU_KEYS = {"firefox": ["Up", "Return"], "chromium": ["Up", "Up", "Up", "Return"]}


class Page:
    def __init__(self, server):
        self.server = server
        self.existing = server.add_image("grey", 200, 200, (120, 120, 120))
        self.plain = server.add_image("orange", 210, 120, (250, 150, 20))
        self.article = server.add_page("/tom.html", "<!DOCTYPE html><title>Tom</title><p>Tom.</p>")
        self.hotlinked = server.add_hotlink_image("teal", 200, 80, (20, 160, 160))
        self.blob_source = server.add_image("violet", 120, 160, (130, 60, 210))
        # Large enough for the picker to show it by default (it hides images under 200 pixels).
        self.large = server.add_image("navy", 320, 240, (30, 40, 120))
        # A PNG of stored (uncompressed) blocks, over 1 MiB: the extension sends its bytes in chunks.
        big = io.BytesIO()
        Image.new("RGB", (800, 600), (60, 200, 90)).save(big, "PNG", compress_level=0)
        self.big_rgb, self.big_bytes = (60, 200, 90), big.getvalue()
        self.big_source = server.add_file("/big/green.png", self.big_bytes, "image/png")
        # The violet and the green images are shown from blob: addresses the page makes of their bytes.
        blob = "".join(
            '<div class="item"><img id="%s" width="%d" height="%d" alt="%s"></div>'
            '<script>fetch("%s").then(r => r.blob()).then(b => '
            'document.getElementById("%s").src = URL.createObjectURL(b));</script>' % (
                name, width, height, alt, source, name)
            for name, width, height, alt, source in [
                ("blob", 120, 160, "violet from a blob", self.blob_source.url),
                ("big-blob", 200, 150, "green from a blob", self.big_source)])
        self.url = server.add_page("/cats.html", image_page(
            PAGE_TITLE, [(self.plain, self.article), self.hotlinked, self.large], extra_html=blob))


@pytest.fixture(scope="module")
def page():
    server = DragSourceServer()
    yield Page(server)
    server.stop()


@pytest.fixture(scope="module", params=["firefox", "chromium"])
def browser(request, desktop, page):
    kind = {"firefox": ExtensionFirefox, "chromium": ExtensionChromium}[request.param]
    b = kind(desktop, PAGE_TITLE, BROWSER_GEOMETRY)
    b.kind = request.param
    started = time.monotonic()
    try:
        b.start(page.url, timeout=90)
        for rgb in (page.plain.rgb, page.hotlinked.rgb, page.blob_source.rgb, page.big_rgb):
            b.find_image(rgb, timeout=60)
        wait_extension_menu(b)
        b.startup_seconds = time.monotonic() - started
        yield b
    finally:
        b.stop()


def start_app(make_app, page, browser):
    """A fresh app showing the gallery "Cats" (one image in it), at the left; the host now hands to it."""
    state = {"version": 1, "galleries": [{"id": "g-cats", "name": "Cats", "images": [
        {"id": "existing", "url": page.existing.url, "aspectRatio": 1.0}]}]}
    app = make_app(state)
    app.start()
    x, y, w, h = GALLERY_GEOMETRY
    app.resize(w, h, x, y)
    app.wait_cells(lambda cs: len(cs) == 1 and cs[0].settled, timeout=60, what="the existing image, loaded")
    point_host_at(browser, app)
    return app


def open_context_menu(browser, at):
    """Right-clicks at `at` on the page and waits until a menu shows near it (a browser may open it to either
    side of the pointer)."""
    desktop = browser.desktop
    x, y = at
    # Without a window manager, keys go to the window given the focus: the menu's keys are for the browser.
    desktop.xdotool("windowfocus", "--sync", browser.window_id())
    region = (max(0, x - 250), max(0, y - 100), x + 250, y + 250)
    before = desktop.screenshot().convert("RGB").crop(region)
    desktop.xdotool("mousemove", x, y)
    desktop.xdotool("click", 3)

    def shown():
        after = desktop.screenshot().convert("RGB").crop(region)
        changed = ImageChops.difference(before, after).convert("L").point(lambda v: 255 if v > 30 else 0)
        # Its text and borders, over a page that does not move.
        return changed.histogram()[255] > 1500

    wait_until(shown, 10, 0.1, "the %s context menu" % browser.kind, browser.describe)


def empty_point(browser):
    """A point of the page with nothing on it, low and to the right."""
    x, y, w, h = browser.window_geometry()
    return (x + w - 150, y + h - 150)


def wait_extension_menu(browser, timeout=30):
    """Waits until the page's context menu holds the extension's item: its icon is the only colour in a menu of
    black and grey on white (the browser registers the extension's items a moment after the page shows)."""
    desktop = browser.desktop
    x, y = empty_point(browser)

    def has_icon():
        open_context_menu(browser, (x, y))
        shot = desktop.screenshot().convert("HSV").crop((browser.geometry[0], y - 20) + desktop.size)
        desktop.xdotool("key", "Escape")
        saturated = shot.split()[1].point(lambda v: 255 if v > 120 else 0).histogram()[255]
        wait_until(lambda: find_colour_box(desktop.screenshot(), (255, 255, 255), (x - 5, y + 20, 10, 60)), 10,
                   0.1, "the menu to close")
        return saturated > 30

    wait_until(has_icon, timeout, 0.5, "the extension's item in the %s context menu" % browser.kind, browser.describe)
    # A left click, as a person's next one would be: the menu dismissed with Escape leaves the page as it was.
    desktop.xdotool("mousemove", x, y)
    desktop.xdotool("click", 1)


def send_image(browser, rgb):
    box = browser.find_image(rgb, timeout=30)
    open_context_menu(browser, (box[0] + 10, box[1] + 10))
    for key in MENU_KEYS[browser.kind]:
        browser.desktop.xdotool("key", key)


def wait_sent(browser, app, image_url, timeout=30):
    """The library once "Cats" holds a second image; returns that image's record."""
    def sent():
        try:
            images = app.state()["galleries"][0]["images"]
        except (OSError, ValueError, KeyError, IndexError):
            return None
        if len(images) != 2 or images[1].get("url", "").startswith("placeholder"):
            return None
        return images[1] if image_url is None or images[1].get("url") == image_url else None

    return wait_until(sent, timeout, 0.2, "%s in “Cats” in the library" % image_url,
                      lambda: "%s\nstderr: %s\nhost: %s\nbrowser: %s" % (
                          app.state_text()[-2000:], app.stderr()[-2000:],
                          host_log(browser)[-2000:], browser.log()[-2000:]))


def toast_says(app, text, timeout=10):
    def showing():
        labels = app.find_all(lambda a: a.role == harness.ROLE.LABEL and a.has_state("SHOWING"))
        return any(harness._safe(lambda: a.name) == text for a in labels)

    wait_until(showing, timeout, 0.2, "the toast to say %r" % text)


def assert_picker_lists_the_page(app, started, how):
    """The picker shows the page's large image (the two small ones hidden); Escape closes it, adding nothing."""
    dialog = app.wait_for_object("Add Images from Page", timeout=30)
    print("%s: picker open in %.1f s" % (how, time.monotonic() - started))
    tiles = [harness._safe(lambda: t.name) for t in
             app.find_all(lambda a: a.role == harness.ROLE.TOGGLE_BUTTON and a.has_state("SHOWING"), root=dialog)]
    assert sorted(tiles) == ["Show small images", "navy"], tiles
    assert app.find_by_name("2 small images hidden", harness.ROLE.LABEL, contains=True, root=dialog)
    app.focus()
    app.key("Escape")
    wait_until(lambda: app.find_by_name("Add Images from Page") is None, 10, 0.1, "the picker closed")
    assert len(app.state()["galleries"][0]["images"]) == 1


# First in the module: the first use of the page's activeTab grant, which Chromium may refuse once (background.js).
def test_the_toolbar_buttons_key_opens_the_picker_with_the_pages_images(browser, page, make_app):
    app = start_app(make_app, page, browser)
    started = time.monotonic()
    browser.desktop.xdotool("windowfocus", "--sync", browser.window_id())
    browser.desktop.xdotool("key", ACTION_KEY)
    assert_picker_lists_the_page(app, started, "%s, from the toolbar button's key" % browser.kind)


def test_an_image_sent_from_the_context_menu_lands_with_its_page(browser, page, make_app):
    app = start_app(make_app, page, browser)
    started = time.monotonic()
    send_image(browser, page.plain.rgb)
    record = wait_sent(browser, app, page.plain.url)
    origin = record.get("origin", {})
    assert origin.get("page") == page.url, record
    assert origin.get("pageTitle") == PAGE_TITLE, record
    assert origin.get("link") == page.article, record
    assert origin.get("alt") == "orange", record
    toast_says(app, "1 image added to “Cats”")
    print("%s: started in %.1f s, sent and saved in %.1f s" % (browser.kind, browser.startup_seconds,
                                                              time.monotonic() - started))


def test_an_image_the_app_may_not_fetch_lands_from_the_pages_bytes(browser, page, make_app):
    app = start_app(make_app, page, browser)
    send_image(browser, page.hotlinked.rgb)
    record = wait_sent(browser, app, page.hotlinked.url)
    assert record.get("origin", {}).get("page") == page.url, record
    assert page.server.app_requests(page.hotlinked.path), "the app did not try the address first"
    assert record.get("original"), "no original kept from the page's bytes: %r" % record


def test_a_blob_image_lands_from_the_bytes_the_page_holds(browser, page, make_app):
    app = start_app(make_app, page, browser)
    page.server.clear_log()
    send_image(browser, page.blob_source.rgb)
    record = wait_sent(browser, app, None)
    assert record.get("origin", {}).get("page") == page.url, record
    assert record.get("origin", {}).get("alt") == "violet from a blob", record
    assert record.get("original", {}).get("width") == page.blob_source.width, record
    assert not page.server.app_requests(page.blob_source.path), "the app fetched what the page sent it"


def test_a_blob_image_over_a_mebibyte_lands_whole_from_its_chunks(browser, page, make_app):
    app = start_app(make_app, page, browser)
    started = time.monotonic()
    send_image(browser, page.big_rgb)
    record = wait_sent(browser, app, None)
    served = hashlib.sha256(page.big_bytes).hexdigest()
    assert len(page.big_bytes) > 1 << 20
    assert record.get("origin", {}).get("alt") == "green from a blob", record
    assert record.get("original", {}).get("sha256") == served, record
    assert record["original"].get("bytes") == len(page.big_bytes), record
    kept = [os.path.join(folder, name) for folder, _, names in os.walk(os.path.join(app.state_dir, "originals"))
            for name in names if name.startswith(served)]
    assert kept and all(hashlib.sha256(open(f, "rb").read()).hexdigest() == served for f in kept), kept
    print("%s: %d bytes sent in chunks and saved in %.1f s" % (browser.kind, len(page.big_bytes),
                                                             time.monotonic() - started))


def test_send_all_images_on_this_page_opens_the_picker_with_them(browser, page, make_app):
    app = start_app(make_app, page, browser)
    started = time.monotonic()
    open_context_menu(browser, empty_point(browser))
    for key in PAGE_MENU_KEYS[browser.kind]:
        browser.desktop.xdotool("key", key)
    assert_picker_lists_the_page(app, started, "%s, from the page's menu" % browser.kind)
