"""Issue 46, end to end: a page's address pasted or dropped opens a picker of the page's images (lazy, srcset and
<picture> ones at their largest, og:image, small ones hidden); Add puts the chosen ones in the gallery where the page
landed, each with the page's address and title in its origin, and once they are in the toast says so with Show,
which shows that gallery with them selected; Escape adds nothing.

The page and its images are served from 127.0.0.1. Screenshots of the picker are kept as page-picker-*.png in
$E2E_SAVE_SCREENSHOTS."""
import os
import subprocess
import sys
import textwrap
import time

import pytest

import harness
from actions_helpers import showing, toast
from drag_helpers import click_node, gallery_state, image_id, name_of, wait_saved
from drag_source import DragSource, target, uri_list
from harness import wait_until
from test_galleries import row

TITLE = "Cats & Kittens"
PICKER = "Add Images from Page"

PAGE = """<!DOCTYPE html><html><head><meta charset=utf-8><title>Cats &amp; Kittens</title>
<meta property="og:image" content="/img/og.png"></head><body>
<a href="/cats/tabby.html"><img src="data:image/gif;base64,R0lGODlhAQABAAAAACw=" data-src="/img/lazy.png"
   alt="Lazy cat"></a>
<img src="/img/srcset-small.png" srcset="/img/srcset-small.png 200w, /img/srcset-large.png 800w" alt="Srcset cat">
<picture><source srcset="/img/picture-large.png 1000w, /img/picture-small.png 250w">
  <img src="/img/picture-small.png" alt="Picture cat"></picture>
<img src="/img/icon.png" alt="Icon">
</body></html>"""

# name, width, height, colour: the ones the page lists first, then the smaller candidates it must not list.
IMAGES = [("og", 600, 315, (230, 60, 60)), ("lazy", 400, 300, (60, 160, 60)), ("srcset-large", 800, 600, (60, 60, 220)),
          ("picture-large", 1000, 750, (220, 160, 40)), ("icon", 32, 32, (140, 60, 180)),
          ("srcset-small", 200, 150, (20, 20, 20)), ("picture-small", 250, 180, (20, 20, 20))]

_CLIPBOARD_OWNER = textwrap.dedent("""
    import sys
    import gi
    gi.require_version("Gdk", "3.0")
    gi.require_version("Gtk", "3.0")
    from gi.repository import Gdk, Gtk
    Gtk.Clipboard.get(Gdk.SELECTION_CLIPBOARD).set_text(sys.argv[1], -1)
    print("owned", flush=True)
    Gtk.main()
""")


def serve_page(http_server):
    served = {name: http_server.add_image(name, w, h, rgb) for name, w, h, rgb in IMAGES}
    http_server.add_file("/cats/index.html", PAGE.encode(), "text/html; charset=utf-8")
    return http_server.url("/cats/index.html"), served


def paste(app, desktop, text, title=PICKER):
    env = desktop.base_env()
    env["NO_AT_BRIDGE"] = "1"
    owner = subprocess.Popen([sys.executable, "-c", _CLIPBOARD_OWNER, text], env=env, stdout=subprocess.PIPE)
    try:
        assert owner.stdout.readline().strip() == b"owned"
        app.focus()
        app.key("ctrl+v")
        return picker(app, title)
    finally:
        owner.kill()
        owner.wait(10)


def picker(app, title=PICKER):
    return app.wait_for_object(title, timeout=15)


def tiles(app, dialog, switch="Show small images"):
    """The picker's showing tiles by name, with whether each is chosen (the switch is a toggle button too)."""
    found = app.find_all(lambda a: a.role == harness.ROLE.TOGGLE_BUTTON and a.has_state("SHOWING")
                         and a.name != switch, root=dialog)
    return {t.name: t.has_state("CHECKED") for t in found}


def wait_loaded(app, dialog, expected, switch="Show small images", hidden="hidden"):
    """Waits for the showing tiles to be `expected` ({name: chosen}) and every thumbnail loaded."""
    last = {}

    def ready():
        last["tiles"] = tiles(app, dialog, switch)
        summary = app.find_by_name(hidden, harness.ROLE.LABEL, contains=True, root=dialog)
        return last["tiles"] == expected and summary is not None

    wait_until(ready, 15, 0.1, "the picker's tiles %r" % expected, lambda: "tiles: %r" % last.get("tiles"))


def button(app, dialog, name):
    return app.wait_for_object(name, harness.ROLE.PUSH_BUTTON, timeout=5, root=dialog)


def screenshot(app, name):
    folder = os.environ.get("E2E_SAVE_SCREENSHOTS")
    if folder:
        os.makedirs(folder, exist_ok=True)
        app.screenshot(os.path.join(folder, "page-picker-%s.png" % name))


def test_a_pasted_page_address_opens_the_picker_and_add_brings_the_chosen_images(make_app, http_server, desktop):
    page, served = serve_page(http_server)
    app = make_app(gallery_state([]))
    app.start()
    dialog = paste(app, desktop, page)
    # Every image at its largest; the icon, smaller than 200 pixels, hidden; all chosen.
    wait_loaded(app, dialog, {"og.png": True, "Lazy cat": True, "Srcset cat": True, "Picture cat": True})
    assert app.find_by_name("4 of 5 images chosen · 1 small image hidden", harness.ROLE.LABEL, root=dialog)
    screenshot(app, "light")
    assert not any(r.path.endswith("-small.png") for r in http_server.requests()), "a smaller candidate was fetched"

    srcset = app.find_by_name("Srcset cat", harness.ROLE.TOGGLE_BUTTON, root=dialog)
    click_node(desktop, srcset)
    wait_until(lambda: not srcset.has_state("CHECKED"), 5, 0.05, "Srcset cat left out")
    click_node(desktop, button(app, dialog, "Add 3 Images"))

    wait_saved(app, ["og", "lazy", "picture-large"], timeout=15)
    images = app.state()["galleries"][0]["images"]
    for image in images:
        origin = image["origin"]
        assert origin["page"] == page and origin["pageTitle"] == TITLE and origin["arrival"] == "paste", origin
    assert images[1]["origin"]["alt"] == "Lazy cat"
    assert images[1]["origin"]["link"] == http_server.url("/cats/tabby.html")
    assert [i["url"] for i in images] == [served[n].url for n in ("og", "lazy", "picture-large")]
    assert app.find_by_name(PICKER) is None


def test_small_images_show_with_the_switch_and_escape_adds_nothing(make_app, http_server, desktop):
    page, _ = serve_page(http_server)
    app = make_app(gallery_state([]))
    app.start()
    before = app.state_bytes()
    dialog = paste(app, desktop, page)
    wait_loaded(app, dialog, {"og.png": True, "Lazy cat": True, "Srcset cat": True, "Picture cat": True})
    # The switch shows the small icon, chosen as every other.
    click_node(desktop, app.find_by_name("Show small images", harness.ROLE.TOGGLE_BUTTON, root=dialog))
    wait_until(lambda: tiles(app, dialog).get("Icon") is True, 5, 0.1, "the icon shown")
    assert button(app, dialog, "Add 5 Images")
    app.key("Escape")
    wait_until(lambda: app.find_by_name(PICKER) is None, 5, 0.1, "the picker closed")
    app.wait_cells(lambda cs: cs == [], 5, what="the page's placeholder gone")
    assert app.state_bytes() == before
    assert app.running


def test_a_dropped_link_to_a_page_opens_the_picker_and_its_images_land_where_it_was_dropped(
        make_app, http_server, desktop, tmp_path):
    page, served = serve_page(http_server)
    first = http_server.add_image("first", 300, 200, (200, 200, 200))
    last = http_server.add_image("last", 300, 200, (100, 100, 100))
    app = make_app(gallery_state([first, last]))
    app.start()
    app.resize(900, 1000)
    cells = app.wait_cells(lambda cs: len(cs) == 2 and all(c.settled for c in cs), 20, what="the two images")
    src = DragSource(desktop, [target("text/uri-list", uri_list(page))], workdir=str(tmp_path / "drag-source"))
    src.start()
    try:
        src.drag_into((cells[1].x + 8, cells[1].y + cells[1].height // 2))
        src.wait_for("drag-end", timeout=15)
    finally:
        src.stop()
    dialog = picker(app)
    wait_loaded(app, dialog, {"og.png": True, "Lazy cat": True, "Srcset cat": True, "Picture cat": True})
    app.key("ctrl+Return")
    wait_saved(app, ["first", "og", "lazy", "srcset-large", "picture-large", "last"], timeout=15)
    images = app.state()["galleries"][0]["images"]
    assert all(i["origin"]["page"] == page and i["origin"]["arrival"] == "drop" for i in images[1:5])
    assert name_of(images[3]["url"]) == "srcset-large"



def test_a_page_reached_by_a_redirect_resolves_its_relative_images_against_where_it_ended(
        make_app, http_server, desktop):
    # /cats answers with a redirect to /cats/, whose relative image is /cats/a.png, not /a.png.
    image = http_server.make_image("cats", "a", 300, 240, (200, 120, 40))
    http_server.add_file(image.path, image.data, image.content_type)
    http_server.add_file("/cats/", b'<!DOCTYPE html><html><head><title>Redirected</title></head><body>'
                         b'<img src="a.png"></body></html>', "text/html; charset=utf-8")
    http_server.add_file("/cats", b"", "text/html", status=301, headers={"Location": http_server.url("/cats/")})
    app = make_app(gallery_state([]))
    app.start()
    dialog = paste(app, desktop, http_server.url("/cats"))
    wait_until(lambda: tiles(app, dialog) == {"a.png": True}, 15, 0.1, "the page's one image listed")
    app.key("ctrl+Return")
    wait_saved(app, ["a"], timeout=15)
    images = app.state()["galleries"][0]["images"]
    assert images[0]["url"] == image.url
    # The page recorded is where the images were found.
    assert images[0]["origin"]["page"] == http_server.url("/cats/")


def test_an_image_the_library_has_is_marked_and_left_out(make_app, http_server, desktop):
    page, served = serve_page(http_server)
    app = make_app(gallery_state([served["lazy"]]))
    app.start()
    app.wait_every_image_kept(timeout=20)
    dialog = paste(app, desktop, page)
    wait_loaded(app, dialog, {"og.png": True, "Lazy cat": False, "Srcset cat": True, "Picture cat": True})
    lazy = app.find_by_name("Lazy cat", harness.ROLE.TOGGLE_BUTTON, root=dialog)
    assert "already in the library" in lazy.description
    app.key("Escape")
    wait_until(lambda: app.find_by_name(PICKER) is None, 5, 0.1, "the picker closed")


LOOKS = {
    "dark": dict(env={"GTK_THEME": "Adwaita:dark"}),
    "russian": dict(env={"LANG": "ru_RU.UTF-8", "LC_ALL": "ru_RU.UTF-8", "LANGUAGE": "ru"},
                    app_name="Галерея изображений", gallery_name="Коллекция",
                    title="Добавить изображения со страницы", switch="Показывать маленькие изображения",
                    summary="Выбрано 4 из 5 изображений · 1 маленькое изображение скрыто",
                    add="Добавить 4 изображения"),
}


@pytest.mark.parametrize("look", sorted(LOOKS))
def test_the_picker_in_the_dark_theme_and_in_russian(make_app, http_server, desktop, look):
    words = LOOKS[look]
    page, _ = serve_page(http_server)
    names = {k: words[k] for k in ("app_name", "gallery_name") if k in words}
    app = make_app(gallery_state([]), env_overrides=words["env"], **names)
    app.start()
    dialog = paste(app, desktop, page, words.get("title", PICKER))
    switch = words.get("switch", "Show small images")
    wait_loaded(app, dialog, {"og.png": True, "Lazy cat": True, "Srcset cat": True, "Picture cat": True}, switch,
                words.get("summary", "hidden"))
    screenshot(app, look)
    if look == "dark":
        x, y, w, h = dialog.extents()
        assert sum(app.pixel(x + w // 2, y + h - 120)) < 3 * 90, "the picker is not dark"
    else:
        assert app.find_by_name(words["add"], harness.ROLE.PUSH_BUTTON, root=dialog)
    app.key("Escape")
    app.wait_cells(lambda cs: cs == [], 5, what="nothing added")


def test_a_page_of_a_hundred_thousand_images_lists_the_first_500_and_the_window_answers(
        make_app, http_server, desktop):
    http_server.add_image("tile", 300, 300, (60, 120, 200))
    html = "<title>Flood</title>" + "".join('<img src="/img/tile.png?n=%d">' % n for n in range(100_000))
    http_server.add_file("/flood.html", html.encode(), "text/html; charset=utf-8")
    app = make_app(gallery_state([]))
    app.start()
    env = desktop.base_env()
    env["NO_AT_BRIDGE"] = "1"
    owner = subprocess.Popen([sys.executable, "-c", _CLIPBOARD_OWNER, http_server.url("/flood.html")], env=env,
                             stdout=subprocess.PIPE)
    try:
        assert owner.stdout.readline().strip() == b"owned"
        app.focus()
        app.key("ctrl+v")

        # The dialog is read from the app's top-level windows: walking its 500 tiles over AT-SPI would take long.
        def dialog():
            return next((w for w in app.accessible_app().children() if harness._safe(lambda: w.name) == PICKER),
                        None)

        window = wait_until(dialog, 20, 0.2, "the picker")
        wait_until(lambda: "of 500 images chosen" in (harness._safe(lambda: window.description) or ""), 10, 0.2,
                   "the picker listing 500 images", lambda: window.description)
        app.key("Escape")
        wait_until(lambda: dialog() is None, 10, 0.1, "the picker closed")
        app.wait_cells(lambda cs: cs == [], 5, what="nothing added")
        assert app.running
    finally:
        owner.kill()
        owner.wait(10)


def two_galleries(existing):
    """Cats, shown, holding `existing`; Dogs, holding it too; the sidebar showing."""
    return {"version": 1, "sidebarVisible": True, "galleries": [
        {"id": "g-cats", "name": "Cats", "images": [{"id": image_id(1), "url": existing.url, "aspectRatio": 1.0}]},
        {"id": "g-dogs", "name": "Dogs", "images": [{"id": image_id(2), "url": existing.url, "aspectRatio": 1.0}]}]}


def show_added(app, desktop, message, gallery, added_urls):
    """The toast says `message`; with Dogs shown meanwhile, its Show brings `gallery` back with exactly the added
    images (by address) selected."""
    toast(app, message)
    click_node(desktop, row(app, "Dogs"))
    wait_until(lambda: (app.frame().name or "").startswith("Dogs "), 5, 0.05, "Dogs shown")
    click_node(desktop, showing(app, "Show"))
    wait_until(lambda: (app.frame().name or "").startswith(gallery + " "), 5, 0.05, "%s shown again" % gallery)
    cells = app.wait_cells(lambda cs: sorted(c.url for c in cs if c.selected) == sorted(added_urls), timeout=5,
                           what="the added images selected")
    assert all(not c.selected for c in cells if c.url not in added_urls)


def test_after_add_the_toast_says_how_many_landed_and_show_selects_them(make_app, http_server, desktop):
    page, served = serve_page(http_server)
    app = make_app(two_galleries(served["icon"]))
    app.start()
    dialog = paste(app, desktop, page)
    wait_loaded(app, dialog, {"og.png": True, "Lazy cat": True, "Srcset cat": True, "Picture cat": True})
    started = time.monotonic()
    click_node(desktop, button(app, dialog, "Add 4 Images"))
    show_added(app, desktop, "4 images added to “Cats”", "Cats",
               [served[n].url for n in ("og", "lazy", "srcset-large", "picture-large")])
    print("added, told and shown in %.1f s" % (time.monotonic() - started))
