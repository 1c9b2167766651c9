"""Issue 31, end to end: an image's properties pane (Alt+Return, the cell menu, the viewer's button) shows who the
image is and where it came from, read over AT-SPI (each value is the accessible description of an object named
after its field), each address with Open; the note written there with real keys is saved with the image when the
pane closes and survives a relaunch; French labels. The browser tests drag an image inside a link out of real
Firefox and Chromium (the module fixtures of test_browser_drops.py) and read its link and alt text in the pane.

Run from the repository root with Debian's python (pyatspi):
    /usr/bin/python3 -m pytest -p no:cacheprovider Tests/e2e/test_properties.py -x -v
"""
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import harness  # noqa: E402
from actions_helpers import choose, install_handler, menu_item, recorded  # noqa: E402
from drag_helpers import by_name, click, click_node, gallery_state  # noqa: E402
from harness import wait_until  # noqa: E402
from test_browser_drops import browser, drop_from_browser, page, start_gallery, wait_landed  # noqa: E402,F401

SPECS = harness.DISTINCT_IMAGES[:3]
LINK = "https://cats.example/posts/7"
ORIGIN = {"arrival": "drop", "added": "2026-11-26T22:40:00Z", "link": LINK, "alt": "A red square",
          "description": "A red square", "title": "Red"}
ORIGINAL = {"sha256": "ab" * 32, "bytes": 1234567, "width": 640, "height": 480, "format": "png"}
FRENCH = {"LANG": "fr_FR.UTF-8", "LC_ALL": "fr_FR.UTF-8", "LANGUAGE": "fr"}


def start(make_app, http_server, env=None, before_start=None, **kw):
    served = [http_server.add_image(*spec) for spec in SPECS]
    state = gallery_state(served)
    state["galleries"][0]["images"][0].update({"origin": ORIGIN, "original": ORIGINAL})
    app = make_app(state, env, **kw)
    if before_start:
        before_start(app)
    app.start()
    cells = by_name(app.wait_settled(len(SPECS)))
    # The launch carries images of the older layout into the library: what the pane shows is known once it has.
    wait_until(lambda: all(image.get("original") for image in app.state()["galleries"][0]["images"]), 20, 0.2,
               "every image's original kept")
    return app, cells


def digits(text):
    """text without spaces or digit group separators (the locale's)."""
    return re.sub(r"[\s,.\u202f\xa0]", "", text)


def pane(app, title="Image Properties", timeout=15):
    return app.wait_for_object(title, timeout=timeout)


def fields(app, dialog):
    """{field: value} of the fields the pane shows (a hidden field's value is empty)."""
    return {harness._safe(lambda: n.name): n.description for n in app.find_all(
        lambda a: a.role == harness.ROLE.LABEL and a.description, dialog)}


def note_of(app, dialog, name="Note"):
    node = wait_until(lambda: app.find_by_name(name, harness.ROLE.TEXT, root=dialog), 10, 0.1, "the note editor")
    return node, node.text()


def gone(app, title="Image Properties"):
    wait_until(lambda: app.find_by_name(title) is None, 10, 0.1, "the properties pane to close")


def test_alt_return_shows_only_what_is_known_and_a_typed_note_survives_a_relaunch(make_app, http_server, desktop,
                                                                                   tmp_path):
    record = str(tmp_path / "browser.txt")
    app, cells = start(make_app, http_server, before_start=lambda app: install_handler(
        app, "stand-in-browser", ["x-scheme-handler/http", "x-scheme-handler/https"], record))
    red = cells[SPECS[0][0]]
    click(desktop, red.center)
    app.key("alt+Return")
    dialog = pane(app)
    shown = wait_until(lambda: (lambda f: f if "Link" in f else None)(fields(app, dialog)), 10, 0.2, "the fields")
    assert shown["Address"] == red.url
    assert shown["Link"] == LINK
    assert shown["Alternative text"] == "A red square"
    assert shown["Title"] == "Red"
    assert shown["Added by"] == "Dropped from another application"
    assert "2026" in shown["Date added"] and "November" in shown["Date added"]
    assert shown["Dimensions"] == "640 × 480 pixels"
    assert "1234567bytes" in digits(shown["File size"]) and "MB" in shown["File size"]
    assert shown["Format"] == "PNG"
    # Unknown fields are hidden, not "unknown"; the browser's description repeats the alt text.
    assert "Page" not in shown and "Browser’s description" not in shown, shown
    # The link opens in the desktop's browser.
    click_node(desktop, app.find_by_name("Open Link", harness.ROLE.PUSH_BUTTON, root=dialog))
    assert recorded(record) == [LINK]

    # The pane has the keyboard (GTK gives a new window the focus). Alt+N (its label's mnemonic) focuses the note: real keys write it, Escape closes the pane and saves it.
    app.key("alt+n")
    app.desktop.type_text("For the kitchen wall")
    app.key("Return")
    app.desktop.type_text("blue frame")
    app.key("Escape")
    gone(app)
    note = "For the kitchen wall\nblue frame"
    wait_until(lambda: app.state()["galleries"][0]["images"][0].get("note") == note, 10, 0.1, "the note saved")
    assert app.state()["galleries"][0]["images"][0]["origin"]["link"] == LINK

    app.stop()
    app.start()
    app.wait_settled(len(SPECS))
    # The cell menu opens it too, with the note as saved.
    choose(app, desktop, by_name(app.cells())[SPECS[0][0]], "Properties")
    dialog = pane(app)
    _, text = note_of(app, dialog)
    assert text == note


def test_the_viewer_opens_it_and_undo_takes_the_note_back(make_app, http_server, desktop):
    app, cells = start(make_app, http_server)
    green = cells[SPECS[1][0]]
    desktop.click(int(green.center[0]), int(green.center[1]))
    app.key("Return")
    button = app.wait_for_object("Properties", harness.ROLE.PUSH_BUTTON)
    click_node(desktop, button)
    dialog = pane(app)
    shown = wait_until(lambda: (lambda f: f if "Address" in f else None)(fields(app, dialog)), 10, 0.2, "fields")
    # An image without a recorded origin: its address, and what the library learnt keeping its bytes.
    assert set(shown) == {"Address", "Dimensions", "File size", "Format"}, shown
    assert shown["Address"] == green.url
    app.desktop.type_text("green")
    app.key("Escape")
    gone(app)
    wait_until(lambda: app.state()["galleries"][0]["images"][1].get("note") == "green", 10, 0.1, "the note saved")
    app.focus()
    app.key("ctrl+z")
    wait_until(lambda: "note" not in app.state()["galleries"][0]["images"][1], 10, 0.1, "the note undone")


def test_french_labels(make_app, http_server, desktop):
    app, cells = start(make_app, http_server, FRENCH, app_name="Galerie d’images", gallery_name="Galerie")
    click(desktop, cells[SPECS[0][0]].center)
    app.key("alt+Return")
    dialog = pane(app, "Propriétés de l’image")
    shown = wait_until(lambda: (lambda f: f if "Lien" in f else None)(fields(app, dialog)), 10, 0.2, "the fields")
    assert shown["Lien"] == LINK
    assert shown["Texte alternatif"] == "A red square"
    assert shown["Ajoutée par"] == "Déposée depuis une autre application"
    assert "novembre 2026" in shown["Date d’ajout"]
    assert "1234567octets" in digits(shown["Taille du fichier"]) and "Mo" in shown["Taille du fichier"]
    note_of(app, dialog, "Note")
    assert app.find_by_name("Ouvrir Lien", harness.ROLE.PUSH_BUTTON, root=dialog) is not None


def test_an_image_inside_a_link_from_a_real_browser_shows_its_link_and_alt_text(browser, page, make_app, desktop):
    image = page.linked
    app, _ = start_gallery(make_app, page)
    before, _ = drop_from_browser(browser, app, image, 1)
    wait_landed(app, image, 1, before)
    # The cell shows before the save that names it is on disk (the save first flushes the kept original).
    def saved_image():
        images = app.state()["galleries"][0]["images"]
        return images[1] if len(images) > 1 and images[1]["url"] == image.url else None
    saved = wait_until(saved_image, 15, 0.1, "the dropped image saved")
    assert saved["origin"]["arrival"] == "drop" and saved["origin"]["link"] == page.article_url, saved
    cell = [c for c in app.cells() if c.url == image.url][0]
    # Without a window manager the keyboard stays with the browser until the gallery is given it.
    app.focus()
    click(desktop, cell.center)
    app.key("alt+Return")
    dialog = pane(app)
    shown = wait_until(lambda: (lambda f: f if "Link" in f else None)(fields(app, dialog)), 10, 0.2, "the fields")
    assert shown["Address"] == image.url
    assert shown["Link"] == page.article_url
    assert shown["Alternative text"] == image.name
    assert shown["Added by"] == "Dropped from another application"
    assert app.find_by_name("Open Link", harness.ROLE.PUSH_BUTTON, root=dialog) is not None
