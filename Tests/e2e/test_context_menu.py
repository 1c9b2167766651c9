"""Issue 11, end to end: the cell menu (right-click, Menu key, Shift+F10) and each of its items.

The real app under Xvfb with served images; the menu and GTK's own file chooser read over AT-SPI, paths typed into
the chooser with real keys; what was saved is read from disk (PIL decodes it), what was launched is recorded by a
handler installed in the app's XDG_DATA_HOME and by a stand-in file manager on its session bus, what moved is read
from state.json. Screenshots of the menu (light, dark) go to $E2E_SAVE_SCREENSHOTS."""
import os
import time
import urllib.parse

from PIL import Image

import harness
from actions_helpers import (choose, dialog_text, file_chooser, install_handler, menu_item, recorded, right_click,
                             showing, start_file_manager, state_with, toast, type_into_chooser)
from drag_helpers import by_name, click, click_node, gallery_state, name_of, saved_names, wait_saved
from harness import wait_until

SHOTS = os.environ.get("E2E_SAVE_SCREENSHOTS")
SPECS = harness.DISTINCT_IMAGES[:6]
NAMES = [spec[0] for spec in SPECS]
CELL_ITEMS = ["Open", "Copy", "Cut", "Copy Image Address", "Open in Browser", "Save As…", "Move to Trash"]


def start(make_app, http_server, specs=SPECS, state=None, before_start=None):
    served = [http_server.add_image(*spec) for spec in specs]
    app = make_app(state or gallery_state(served))
    if before_start:
        before_start(app)
    app.start()
    return app, by_name(app.wait_settled(len(specs)))


def menu_gone(app, name="Copy"):
    wait_until(lambda: showing(app, name) is None, 5, 0.1, "the menu to close")


def selected(app):
    return sorted(name_of(c.url) for c in app.cells() if c.selected)


def test_a_right_click_selects_the_cell_first_and_the_keyboard_opens_the_menu_too(make_app, http_server, desktop):
    app, cells = start(make_app, http_server)
    click(desktop, cells["red"].center)
    click(desktop, cells["blue"].center, modifiers="ctrl")
    wait_until(lambda: selected(app) == ["blue", "red"], 5, 0.1, "red and blue selected")

    # On a cell outside the selection: that cell alone becomes the selection, as in Files.
    right_click(desktop, cells["green"])
    for name in CELL_ITEMS:
        assert menu_item(app, name).role == harness.ROLE.PUSH_BUTTON
    assert showing(app, "Save to Folder…") is None and showing(app, "Show in Files") is None
    assert showing(app, "Move to") is None, "Move to with a single gallery"
    assert selected(app) == ["green"]
    # Open is the viewer's action (win.open-image): the item is there, and usable once the action is.
    assert menu_item(app, "Open").has_state("SHOWING")
    if SHOTS:
        desktop.screenshot(os.path.join(SHOTS, "context-menu-light.png"))
    app.key("Escape")
    menu_gone(app)

    # On a cell of a selection: the menu is for all of it.
    click(desktop, cells["cyan"].center, modifiers="ctrl")
    right_click(desktop, cells["cyan"])
    menu_item(app, "Save to Folder…")
    assert showing(app, "Save As…") is None
    assert showing(app, "Copy Image Addresses") is not None
    assert selected(app) == ["cyan", "green"]
    app.key("Escape")
    menu_gone(app)

    # The keyboard: the Menu key and Shift+F10 open the same menu; Escape closes it and keeps the selection.
    for keys in ("Menu", "shift+F10"):
        app.key(keys)
        menu_item(app, "Save to Folder…")
        app.key("Escape")
        menu_gone(app)
    assert selected(app) == ["cyan", "green"]

    # With nothing selected, the keyboard's menu is for the focused cell, which it selects.
    app.key("Escape")
    wait_until(lambda: selected(app) == [], 5, 0.1, "the selection cleared")
    app.key("Menu")
    menu_item(app, "Save As…")
    assert selected(app) == ["cyan"]
    app.key("Escape")
    menu_gone(app)

    # Empty canvas space: the gallery's own small menu, no cell items.
    x, y, w, h = app.gallery().extents()
    desktop.click(x + w - 40, y + h - 40, button=3)
    menu_item(app, "Paste")
    menu_item(app, "Select All")
    assert showing(app, "Copy") is None
    click_node(desktop, menu_item(app, "Select All"))
    wait_until(lambda: selected(app) == sorted(NAMES), 5, 0.1, "all selected")


def test_the_menu_in_the_dark_theme_with_several_galleries(make_app, http_server, desktop):
    served = [http_server.add_image(*spec) for spec in SPECS]
    state = state_with({"Cats": [s.url for s in served], "Dogs": [], "Birds": []}, sidebar=True)
    app = make_app(state, env_overrides={"GTK_THEME": "Adwaita:dark"})
    app.start()
    cells = by_name(app.wait_settled(len(SPECS)))
    choose(app, desktop, cells["blue"], "Move to")
    menu_item(app, "Dogs")
    menu_item(app, "Birds")
    assert showing(app, "Cats") is None or showing(app, "Cats").role != harness.ROLE.PUSH_BUTTON
    if SHOTS:
        desktop.screenshot(os.path.join(SHOTS, "context-menu-move-to-dark.png"))
    app.key("Escape")
    app.key("Escape")
    right_click(desktop, cells["blue"])
    menu_item(app, "Move to")
    if SHOTS:
        desktop.screenshot(os.path.join(SHOTS, "context-menu-dark.png"))


def test_save_as_writes_the_image_under_its_name_with_its_real_extension(make_app, http_server, desktop, tmp_path):
    # A JPEG served as "photo.png": the file saved is a .jpg, whatever the address says.
    jpeg = harness.encoded_image(300, 200, (255, 130, 0), "jpeg")
    url = http_server.add_file("/img/photo.png", jpeg, "image/png")
    app = make_app(state_with({"Gallery": [url]}))
    app.start()
    cell = app.wait_settled(1)[0]
    choose(app, desktop, cell, "Save As…")
    dialog = file_chooser(app, "Save Image")
    assert dialog_text(dialog)[0] == "photo.jpg"
    folder = tmp_path / "saved"
    folder.mkdir()
    type_into_chooser(desktop, str(folder / "photo.jpg"))
    toast(app, "Saved “photo.jpg”")
    assert os.listdir(folder) == ["photo.jpg"], "a temporary file was left behind, or the name is wrong"
    assert (folder / "photo.jpg").read_bytes() == jpeg
    with Image.open(folder / "photo.jpg") as image:
        assert image.format == "JPEG" and image.size == (300, 200)
        assert harness.colour_close(image.convert("RGB").getpixel((150, 100)), (255, 130, 0), 12)


def test_save_to_folder_writes_every_selected_image_and_never_replaces_a_file(make_app, http_server, desktop,
                                                                              tmp_path):
    app, cells = start(make_app, http_server)
    folder = tmp_path / "chosen"
    folder.mkdir()
    for attempt in (1, 2):
        click(desktop, cells["red"].center)
        click(desktop, cells["yellow"].center, modifiers="ctrl")
        wait_until(lambda: selected(app) == ["red", "yellow"], 5, 0.1, "red and yellow selected")
        choose(app, desktop, cells["yellow"], "Save to Folder…")
        file_chooser(app, "Save to Folder")
        app.key("ctrl+l")
        type_into_chooser(desktop, str(folder))
        toast(app, "2 images saved to “chosen”")
        expected = ["red.png", "yellow.png"] + (["red (2).png", "yellow (2).png"] if attempt == 2 else [])
        wait_until(lambda: sorted(os.listdir(folder)) == sorted(expected), 10, 0.1, "the files of save %d" % attempt,
                   lambda: repr(sorted(os.listdir(folder))))
    colours = {spec[0]: spec[3] for spec in SPECS}
    for name in os.listdir(folder):
        with Image.open(folder / name) as image:
            assert image.format == "PNG"
            rgb = image.convert("RGB").getpixel((image.width // 2, image.height // 2))
            assert harness.colour_close(rgb, colours[name.split(".")[0].split(" ")[0]], 4), (name, rgb)


def test_open_in_browser_hands_the_address_to_the_default_browser(make_app, http_server, desktop, tmp_path):
    record = str(tmp_path / "browser.txt")
    app, cells = start(make_app, http_server, before_start=lambda app: install_handler(
        app, "stand-in-browser", ["x-scheme-handler/http", "x-scheme-handler/https"], record))
    choose(app, desktop, cells["magenta"], "Open in Browser")
    assert recorded(record) == [cells["magenta"].url]


def test_show_in_files_asks_the_file_manager_or_opens_the_folder(make_app, http_server, desktop, tmp_path):
    pictures = tmp_path / "pictures"
    pictures.mkdir()
    (pictures / "navy.png").write_bytes(harness.png_bytes(270, 300, (0, 0, 110)))
    file_url = harness.file_url(str(pictures / "navy.png"))
    served = http_server.add_image(*SPECS[0])
    folder_record = str(tmp_path / "folder.txt")
    app = make_app(state_with({"Gallery": [served.url, file_url]}))
    install_handler(app, "stand-in-files", ["inode/directory"], folder_record)
    app.start()
    cells = app.wait_settled(2)
    local = next(c for c in cells if c.url == file_url)
    web = next(c for c in cells if c.url == served.url)

    right_click(desktop, web)
    menu_item(app, "Copy")
    assert showing(app, "Show in Files") is None, "Show in Files for an image from the web"
    app.key("Escape")
    menu_gone(app)

    # No file manager on the bus: the folder opens in the folder handler.
    choose(app, desktop, local, "Show in Files")
    # GIO hands a local folder to the handler as a path or a file:// URI.
    opened = [urllib.parse.unquote(line.replace("file://", "", 1)).rstrip("/") for line in recorded(folder_record)]
    assert opened == [str(pictures)]

    # A file manager on the bus: it is asked to show the file itself.
    items_record = str(tmp_path / "items.txt")
    manager = start_file_manager(app, items_record)
    try:
        choose(app, desktop, local, "Show in Files")
        assert recorded(items_record) == [file_url]
    finally:
        manager.terminate()
        manager.wait(10)
    assert len(open(folder_record).read().split()) == 1, "the folder was opened as well"


def test_move_to_moves_the_selection_to_the_other_gallery_in_one_undo_step(make_app, http_server, desktop):
    served = [http_server.add_image(*spec) for spec in SPECS]
    app = make_app(state_with({"Cats": [s.url for s in served[:4]], "Dogs": [s.url for s in served[4:]]}))
    app.start()
    cells = by_name(app.wait_settled(4))
    click(desktop, cells["green"].center)
    click(desktop, cells["yellow"].center, modifiers="ctrl")
    wait_until(lambda: selected(app) == ["green", "yellow"], 5, 0.1, "green and yellow selected")
    choose(app, desktop, cells["green"], "Move to", "Dogs")

    def galleries():
        return {g["name"]: [name_of(i["url"]) for i in g["images"]] for g in app.state()["galleries"]}
    wait_until(lambda: galleries() == {"Cats": ["red", "blue"], "Dogs": ["magenta", "cyan", "green", "yellow"]},
               10, 0.1, "green and yellow moved to Dogs", lambda: repr(galleries()))
    toast(app, "2 images moved to “Dogs”")
    app.wait_cells(lambda cs: sorted(name_of(c.url) for c in cs) == ["blue", "red"], 10, what="two cells left")
    app.key("ctrl+z")
    wait_until(lambda: galleries() == {"Cats": ["red", "green", "blue", "yellow"], "Dogs": ["magenta", "cyan"]},
               10, 0.1, "one undo puts both back", lambda: repr(galleries()))


def test_move_to_trash_from_the_menu_is_the_delete_key(make_app, http_server, desktop):
    app, cells = start(make_app, http_server)
    choose(app, desktop, cells["blue"], "Move to Trash")
    wait_saved(app, [n for n in NAMES if n != "blue"])
    toast(app, "Image moved to trash")
    app.key("ctrl+z")
    wait_saved(app, NAMES)
