"""Issue 44, end to end: what a GNOME desktop expects of the window. Its WM_CLASS is the application id (the
desktop file's StartupWMClass is checked in test_desktop_integration.py), so docks find its icon and name; F1 and
the main menu's Help hand the user manual to the desktop's help viewer (a stand-in recording what it is given): its
`help:` address when the pages are installed where Yelp looks, the source tree's pages otherwise, and a message
when no help viewer exists; the header bar's magnifier opens and closes the search bar, and follows it when Ctrl+F
or Esc does.

Run from the repository root with Debian's python (pyatspi):
    /usr/bin/python3 -m pytest -p no:cacheprovider Tests/e2e/test_gnome_conventions.py -x -v
"""
import os
import shutil
import subprocess
import sys
import urllib.parse

import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import harness  # noqa: E402
from actions_helpers import install_handler, menu_item, recorded, toast  # noqa: E402
from drag_helpers import click_node  # noqa: E402
from harness import REPO_ROOT, wait_until  # noqa: E402

APP_ID = "io.github.imagegallery.ImageGallery"
HELP_PAGES = os.path.join(REPO_ROOT, "data", "help", "C")


def start(make_app, help_viewer=None, installed_help=False, env=None):
    """The app on an empty gallery; `help_viewer`, a file, makes a stand-in the desktop's help viewer, recording
    there each address it is given; `installed_help` puts the manual where Yelp looks (the user's data folder)."""
    app = make_app(None, env)
    if help_viewer:
        install_handler(app, "stand-in-help", ["x-scheme-handler/help"], help_viewer)
    else:
        # A help viewer the system may have (Yelp) is not this test's: the user's settings drop it.
        with open(os.path.join(app.config_home, "mimeapps.list"), "w") as f:
            f.write("[Removed Associations]\nx-scheme-handler/help=yelp.desktop;\n")
    if installed_help:
        shutil.copytree(HELP_PAGES, os.path.join(app.data_home, "help", "C", APP_ID))
    app.start()
    app.focus()
    return app


def test_the_window_class_is_the_application_id(make_app):
    app = start(make_app)
    out = subprocess.run(["xprop", "-display", app.desktop.display, "-id", app.window_id(), "WM_CLASS"],
                         capture_output=True, text=True, timeout=30).stdout
    # WM_CLASS(STRING) = "instance", "Class": GTK writes the class with a capital, docks match either.
    instance, klass = [part.strip().strip('"') for part in out.split("=", 1)[1].split(",")]
    assert instance == APP_ID, out
    assert klass.lower() == APP_ID.lower(), out


def test_the_window_icon_is_the_apps_pngs_and_no_svg_is_read(make_app, tmp_path):
    """The window icon comes from the app icon's PNGs (16, 32 and 48 px, the sizes GTK hands the window manager):
    an SVG would bring librsvg's library pages into every window's memory."""
    path = tmp_path / "red.png"
    path.write_bytes(harness.png_bytes(64, 48, (220, 20, 20)))
    app = make_app({"version": 1, "galleries": [{"id": "g", "name": "Gallery", "images": [
        {"id": "i", "url": harness.file_url(str(path)), "aspectRatio": 64 / 48}]}]})
    app.start()
    app.wait_cells(lambda cells: len(cells) == 1 and not cells[0].loading, what="the image's cell")
    out = subprocess.run(["xprop", "-display", app.desktop.display, "-id", app.window_id(), "-notype",
                          "32c", "_NET_WM_ICON"], capture_output=True, text=True, timeout=30).stdout
    values = [int(v) for v in out.split("=", 1)[1].replace("\n", " ").split(",")]
    sizes = set()
    while values:
        width, height = values[0], values[1]
        sizes.add((width, height))
        values = values[2 + width * height:]
    assert sizes == {(16, 16), (32, 32), (48, 48)}, out[:200]
    with open("/proc/%d/maps" % app.proc.pid) as maps:
        libraries = {line.split()[-1] for line in maps if ".so" in line}
    assert not [name for name in libraries if "rsvg" in name], sorted(libraries)


def test_f1_opens_the_installed_help_by_its_help_address(make_app, tmp_path):
    record = str(tmp_path / "help.txt")
    app = start(make_app, help_viewer=record, installed_help=True)
    app.key("F1")
    assert recorded(record) == ["help:" + APP_ID]


def test_the_main_menu_help_item_opens_the_source_trees_help_pages(make_app, desktop, tmp_path):
    record = str(tmp_path / "help.txt")
    app = start(make_app, help_viewer=record)
    menu = app.wait_for_object("Main Menu", harness.ROLE.TOGGLE_BUTTON, timeout=10)
    click_node(desktop, menu)
    items = [harness._safe(lambda: a.name) for a in app.find_all(
        lambda a: a.role == harness.ROLE.PUSH_BUTTON and a.has_state("SHOWING"))]
    help_item = menu_item(app, "Help")
    # As in GNOME's apps: Help just above About.
    assert items.index("Help") + 1 == items.index("About Image Gallery"), items
    click_node(desktop, help_item)
    # Not installed: the viewer is given the folder of Mallard pages in data/help.
    opened = [urllib.parse.unquote(line.replace("file://", "", 1)) for line in recorded(record)]
    assert [path.rstrip("/") for path in opened] == [HELP_PAGES]
    assert os.path.exists(os.path.join(HELP_PAGES, "index.page"))


@pytest.mark.parametrize("installed_help", [False, True], ids=["source-tree", "installed"])
def test_without_a_help_viewer_f1_says_so_and_the_window_goes_on(make_app, desktop, installed_help):
    app = start(make_app, installed_help=installed_help)
    app.key("F1")
    assert toast(app, "no help viewer is installed") == "Could not open the help: no help viewer is installed"
    app.key("ctrl+f")
    app.wait_for_object("Search", harness.ROLE.TEXT, timeout=10)


def search_showing(app):
    entry = app.find_by_name("Search", harness.ROLE.TEXT)
    return entry is not None and entry.has_state("SHOWING")


def wait_search(app, button, open_, what):
    wait_until(lambda: search_showing(app) == open_ and button.has_state("CHECKED") == open_, 10, 0.1, what,
               lambda: "bar showing: %r, button pressed: %r" % (search_showing(app), button.has_state("CHECKED")))


def test_the_search_button_opens_and_closes_the_search_bar_and_follows_it(make_app, desktop):
    app = start(make_app)
    button = app.wait_for_object("Search", harness.ROLE.TOGGLE_BUTTON, timeout=10)
    # The tooltip names the shortcut, as GNOME's apps do; screen readers hear it as the description.
    assert button.description == "Search (Ctrl+F)"
    assert not search_showing(app)
    click_node(desktop, button)
    wait_search(app, button, True, "the button to open the search bar")
    entry = app.find_by_name("Search", harness.ROLE.TEXT)
    wait_until(lambda: entry.has_state("FOCUSED"), 10, 0.1, "the entry to have the keyboard")
    click_node(desktop, button)
    wait_search(app, button, False, "the button to close the search bar")
    # The keyboard's ways move the button too.
    app.key("ctrl+f")
    wait_search(app, button, True, "Ctrl+F to open the bar and press the button")
    app.key("Escape")
    wait_search(app, button, False, "Esc to close the bar and release the button")
