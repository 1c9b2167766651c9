"""Issue 32, end to end: the window's search. Typing in the gallery opens the search bar with those letters; a
query finds images of every gallery (one by its note, one by its page's domain), grouped under their galleries;
a result dragged onto a gallery's row moves it there; tags put on three selected images are found; Esc gives the
gallery back scrolled where it was; the bar speaks French and Russian. Cells are read over AT-SPI, keys are real
(xdotool), what is kept is read from the library (`--print-state`).

Run from the repository root with Debian's python (pyatspi):
    /usr/bin/python3 -m pytest -p no:cacheprovider Tests/e2e/test_search.py -x -v
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import harness  # noqa: E402
from actions_helpers import menu_item  # noqa: E402
from drag_helpers import click, click_node, image_id, name_of  # noqa: E402
from drag_source import DragSource, target, uri_list  # noqa: E402
from harness import DISTINCT_IMAGES, wait_until  # noqa: E402
from test_galleries import centre, drag_cells, row, saved, shot, wait_state  # noqa: E402

NOTE = "Sunset over the Kyōto harbour"
PAGE = "https://www.photos.example.net/albums/42"


def library(http_server, cats=6, dogs=3, sidebar=True, extra_cats=0, tags=None):
    """"Cats" (shown) and "Dogs"; Dogs' first image has a note with an accent, its second came from PAGE."""
    served = [http_server.add_image(*spec) for spec in DISTINCT_IMAGES[:cats + dogs]]
    # More Cats, the same pictures at other addresses, to scroll through.
    served[cats:cats] = [http_server.add_image("more%d" % i, 160, 120, DISTINCT_IMAGES[i % cats][3])
                         for i in range(extra_cats)]
    cats += extra_cats

    def images(part, offset):
        return [{"id": image_id(offset + i + 1), "url": s.url, "aspectRatio": round(s.aspect, 6)}
                for i, s in enumerate(part)]

    cat_images = images(served[:cats], 0)
    for image, image_tags in zip(cat_images, tags or []):
        if image_tags:
            image["tags"] = image_tags
    dog_images = images(served[cats:], cats)
    dog_images[0]["note"] = NOTE
    dog_images[1]["origin"] = {"page": PAGE, "added": "2026-01-02T03:04:05Z"}
    return {"version": 1, "sidebarVisible": sidebar, "galleries": [
        {"id": "cats", "name": "Cats", "images": cat_images},
        {"id": "dogs", "name": "Dogs", "images": dog_images}]}


def start(make_app, http_server, count=6, env=None, **kw):
    app = make_app(library(http_server, **kw), env)
    app.start()
    app.wait_cells(lambda cs: len(cs) >= min(count, 6) and all(c.settled for c in cs), 30, what="Cats loaded")
    return app


def search_entry(app, name="Search"):
    return app.wait_for_object(name, harness.ROLE.TEXT, timeout=10)


def results(app, names, what):
    """Waits until the canvas shows exactly the images `names`, in that order."""
    return app.wait_cells(lambda cs: [name_of(c.url) for c in cs] == names and all(c.settled for c in cs), 20,
                          what=what)


def test_typing_in_the_gallery_opens_the_bar_and_finds_other_galleries_by_note_and_domain(
        make_app, http_server, desktop):
    app = start(make_app, http_server)
    cats = [name_of(c.url) for c in app.cells()]
    dogs = [spec[0] for spec in DISTINCT_IMAGES[6:9]]
    click(desktop, app.cells()[0].center)
    desktop.type_text("kyoto")
    entry = search_entry(app)
    wait_until(lambda: entry.text() == "kyoto", 10, 0.1, "the bar to open with the letters typed",
               lambda: "entry: %r" % entry.text())
    assert entry.has_state("FOCUSED")
    # Without its accent, in another gallery, by its note; the cell says which gallery holds it.
    found = results(app, [dogs[0]], "the image with the note")
    assert found[0].name.endswith("in “Dogs”"), found[0].name
    shot(app, "search-note.png")

    app.key("ctrl+a")
    desktop.type_text("PHOTOS.example")
    results(app, [dogs[1]], "the image from the page's domain")
    # Regular-expression characters are only text: nothing has them.
    app.key("ctrl+a")
    desktop.type_text(".*")
    app.wait_for_object("No Images Match", harness.ROLE.LABEL, timeout=10)
    shot(app, "search-no-match.png")

    # Words from both galleries: each group under its gallery, in gallery order.
    app.key("ctrl+a")
    desktop.type_text("127.0.0.1")
    results(app, cats + dogs, "every image, Cats then Dogs")
    shot(app, "search-groups.png")

    app.key("Escape")
    results(app, cats, "the gallery back")
    wait_until(lambda: not entry.has_state("SHOWING"), 10, 0.1, "the bar to close")


def test_a_result_dragged_onto_a_galleries_row_moves_it_there(make_app, http_server, desktop):
    app = start(make_app, http_server)
    dogs = [spec[0] for spec in DISTINCT_IMAGES[6:9]]
    app.key("ctrl+f")
    search_entry(app)
    desktop.type_text("kyoto")
    found = results(app, [dogs[0]], "the image with the note")
    drag_cells(desktop, found[0].center, centre(row(app, "Cats")))
    state = wait_state(app, lambda s: dogs[0] in [name_of(i["url"]) for i in s["galleries"][0]["images"]],
                       "the result moved to Cats")
    assert [name for name, _ in saved(app)] == ["Cats", "Dogs"]
    assert dogs[0] not in [name_of(i["url"]) for i in state["galleries"][1]["images"]]
    # Still found, now in Cats.
    moved = results(app, [dogs[0]], "the result, now in Cats")
    wait_until(lambda: app.cells()[0].name.endswith("in “Cats”"), 10, 0.1, "the result under Cats",
               lambda: "cells: %r" % [c.name for c in app.cells()])
    assert moved


def test_tags_put_on_three_selected_images_are_found(make_app, http_server, desktop):
    app = start(make_app, http_server)
    cells = app.cells()
    click(desktop, cells[0].center)
    for cell in cells[2:4]:
        desktop.xdotool("keydown", "ctrl")
        try:
            click(desktop, cell.center)
        finally:
            desktop.xdotool("keyup", "ctrl")
    app.wait_cells(lambda cs: [c.selected for c in cs][:4] == [True, False, True, True], 10, what="three selected")
    app.key("ctrl+t")
    app.wait_for_object("Tags of 3 Images", timeout=15)
    entry = app.wait_for_object("New tag", harness.ROLE.TEXT, timeout=10)
    wait_until(lambda: entry.has_state("FOCUSED"), 10, 0.1, "the tag entry to have the keyboard")
    desktop.type_text("Lantern Festival")
    app.key("Return")
    wait_state(app, lambda s: sum("Lantern Festival" in i.get("tags", []) for i in s["galleries"][0]["images"]) == 3,
               "the tag on three images")
    app.key("Escape")
    wait_until(lambda: app.find_by_name("Tags of 3 Images") is None, 10, 0.1, "the dialog to close")
    click(desktop, app.cells()[1].center)
    desktop.type_text("lantern")
    results(app, [name_of(cells[i].url) for i in (0, 2, 3)], "the three tagged images")


def test_letters_typed_faster_than_the_bar_slides_in_all_reach_it(make_app, http_server, desktop):
    app = start(make_app, http_server)
    for attempt in range(3):
        click(desktop, app.cells()[0].center)
        # A millisecond a key: the bar opens at the first and slides in at the next frame, after the rest.
        desktop.xdotool("type", "--delay", 1, "kyoto")
        entry = search_entry(app)
        wait_until(lambda: entry.text() == "kyoto", 10, 0.1, "every letter in the entry (attempt %d)" % attempt,
                   lambda: "entry: %r" % entry.text())
        app.key("Escape")
        wait_until(lambda: not entry.has_state("SHOWING"), 10, 0.1, "the bar to close")


def test_results_follow_keys_typed_faster_than_a_frame(make_app, http_server, desktop):
    """Keys a millisecond apart: those that narrow the shown results refine them at once, the others (the first,
    an erased letter) search on a worker, whose results for an older key must never replace a newer key's."""
    app = start(make_app, http_server)
    dogs = [spec[0] for spec in DISTINCT_IMAGES[6:9]]
    app.key("ctrl+f")
    entry = search_entry(app)
    for attempt in range(3):
        desktop.xdotool("type", "--delay", 1, "sunset harb")
        wait_until(lambda: entry.text() == "sunset harb", 10, 0.1, "the letters (attempt %d)" % attempt,
                   lambda: "entry: %r" % entry.text())
        results(app, [dogs[0]], "the image whose note has both words (attempt %d)" % attempt)
        desktop.xdotool("type", "--delay", 1, "x")
        app.wait_cells(lambda cs: cs == [], 10, what="no image for “sunset harbx” (attempt %d)" % attempt)
        desktop.xdotool("key", "--delay", 1, "BackSpace", "BackSpace", "o")
        wait_until(lambda: entry.text() == "sunset haro", 10, 0.1, "the letter erased and another typed")
        app.wait_cells(lambda cs: cs == [], 10, what="no image for “sunset haro” (attempt %d)" % attempt)
        desktop.xdotool("key", "--delay", 1, "BackSpace", "b", "o", "u", "r")
        results(app, [dogs[0]], "the image again (attempt %d)" % attempt)
        app.key("ctrl+a")
        app.key("BackSpace")
        app.wait_cells(lambda cs: len(cs) == 6, 10, what="the gallery back once the entry is empty")


def test_esc_gives_the_gallery_back_scrolled_where_it_was(make_app, http_server, desktop):
    app = start(make_app, http_server, count=46, extra_cats=40, sidebar=False)
    click(desktop, app.cells()[0].center)
    for _ in range(3):
        app.key("Page_Down")
    offset = wait_until(lambda: app.scroll_offset() if app.scroll_offset() > 200 else None, 10, 0.1,
                        "the gallery scrolled down")
    before = [c.url for c in app.cells()]
    desktop.type_text("kyoto")
    results(app, [DISTINCT_IMAGES[6][0]], "the image with the note")
    assert app.scroll_offset() == 0
    app.key("Escape")
    wait_until(lambda: app.scroll_offset() == offset, 10, 0.1, "the offset back",
               lambda: "offset %r, wanted %r" % (app.scroll_offset(), offset))
    app.wait_cells(lambda cs: [c.url for c in cs] == before, 10, what="the same cells on screen")


def showing_button(app, name):
    return wait_until(lambda: next((b for b in app.find_all(
        lambda a: a.role == harness.ROLE.PUSH_BUTTON and a.name == name and a.has_state("SHOWING"))), None),
        10, 0.1, "the button %r" % name)


def test_tags_and_galleries_are_offered_as_chips_and_filters_narrow_the_results(make_app, http_server, desktop):
    app = start(make_app, http_server, tags=[["colour/red"], [], ["colour/blue", "sofa"]])
    cats = [spec[0] for spec in DISTINCT_IMAGES[:6]]
    dogs = [spec[0] for spec in DISTINCT_IMAGES[6:9]]
    app.key("ctrl+f")
    entry = search_entry(app)
    desktop.type_text("colo")
    # The tags whose name (or a part of it) begins so are offered; choosing one makes it a chip.
    for name in ("Tag: colour", "Tag: colour/blue", "Tag: colour/red"):
        showing_button(app, name)
    shot(app, "search-offers.png")
    click_node(desktop, showing_button(app, "Tag: colour/red"))
    results(app, [cats[0]], "the image with the tag")
    wait_until(lambda: entry.text() == "", 10, 0.1, "the words typed to become the chip")
    remove = showing_button(app, "Remove “Tag: colour/red”")
    # A parent tag takes the tags nested in it.
    click_node(desktop, remove)
    desktop.type_text("colo")
    click_node(desktop, showing_button(app, "Tag: colour"))
    results(app, [cats[0], cats[2]], "the images under the parent tag")
    shot(app, "search-chip.png")
    click_node(desktop, showing_button(app, "Remove “Tag: colour”"))

    # Filters from the menu, alone or with a gallery offered as a chip.
    click_node(desktop, showing_button(app, "Add a Filter"))
    click_node(desktop, menu_item(app, "Has a Note"))
    results(app, [dogs[0]], "the image with a note")
    click_node(desktop, showing_button(app, "Add a Filter"))
    click_node(desktop, menu_item(app, "Orientation"))
    click_node(desktop, menu_item(app, "Landscape"))
    # The note's image (orange) is landscape.
    results(app, [dogs[0]], "the landscape image with a note")
    shot(app, "search-filters.png")
    click_node(desktop, showing_button(app, "Remove “Has a Note”"))
    desktop.type_text("ca")
    click_node(desktop, showing_button(app, "Gallery: Cats"))
    found = app.wait_cells(lambda cs: cs and all(c.name.endswith("in “Cats”") and c.settled for c in cs), 20,
                           what="only Cats' landscape images")
    assert all(c.width > c.height for c in found), [(c.name, c.width, c.height) for c in found]
    app.key("Escape")
    results(app, cats, "the gallery back")


def test_a_saved_search_is_a_sidebar_row_whose_count_follows_a_drop_that_matches(
        make_app, http_server, desktop, tmp_path):
    app = start(make_app, http_server)
    app.key("ctrl+f")
    search_entry(app)
    desktop.type_text("kyoto")
    results(app, [DISTINCT_IMAGES[6][0]], "the image with the note")
    click_node(desktop, showing_button(app, "Save Search"))
    wait_until(lambda: row(app, "kyoto").name == "kyoto, saved search, 1 image", 15, 0.1, "the saved search's row counting 1")
    state = wait_state(app, lambda s: len(s.get("smartGalleries", [])) == 1, "the saved search in the library")
    assert state["smartGalleries"][0]["name"] == "kyoto"
    assert state["smartGalleries"][0]["query"] == {"text": "kyoto"}
    shot(app, "smart-gallery.png")
    app.key("Escape")
    results(app, [spec[0] for spec in DISTINCT_IMAGES[:6]], "the gallery back")

    # A drop whose address matches raises the count, in a gallery the window does not show.
    new = http_server.add_image("kyoto-night", 240, 160, (0, 150, 140))
    source = DragSource(desktop, [target("text/uri-list", uri_list(new.url))], workdir=str(tmp_path / "drag-source"))
    try:
        source.start()
        source.drag_into(centre(row(app, "Dogs")))
        assert source.wait_for("drag-end", timeout=15).startswith("drag-end succeeded=yes"), source.lines
        wait_until(lambda: row(app, "kyoto").name == "kyoto, saved search, 2 images", 20, 0.1, "the row counting the drop",
                   lambda: "row: %r" % row(app, "kyoto").name)
    finally:
        source.stop()

    # Choosing the row shows its search; renamed with F2, then deleted, each undone.
    click_node(desktop, row(app, "kyoto"))
    results(app, [DISTINCT_IMAGES[6][0], "kyoto-night"], "the saved search's images")
    entry = search_entry(app)
    assert entry.text() == "kyoto"
    click_node(desktop, row(app, "kyoto"))
    app.key("F2")
    name = app.wait_for_object("Saved search name", harness.ROLE.TEXT, timeout=10)
    wait_until(lambda: name.has_state("FOCUSED"), 10, 0.1, "the name entry")
    desktop.type_text("Harbour")
    app.key("Return")
    wait_state(app, lambda s: s["smartGalleries"][0]["name"] == "Harbour", "the rename saved")
    app.key("Delete")
    wait_state(app, lambda s: not s.get("smartGalleries"), "the saved search deleted")
    app.key("ctrl+z")
    wait_state(app, lambda s: [g["name"] for g in s.get("smartGalleries", [])] == ["Harbour"], "undo of the delete")
    wait_until(lambda: row(app, "Harbour").name == "Harbour, saved search, 2 images", 15, 0.1, "the row back with its count")


def test_gallery_headings_read_in_the_light_and_the_dark_theme(make_app, http_server, desktop):
    for theme, name in (("Adwaita", "light"), ("Adwaita:dark", "dark")):
        app = make_app(library(http_server), {"GTK_THEME": theme})
        app.start()
        app.wait_cells(lambda cs: len(cs) == 6 and all(c.settled for c in cs), 30, what="Cats loaded")
        app.key("ctrl+f")
        search_entry(app)
        desktop.type_text("kyoto")
        found = results(app, [DISTINCT_IMAGES[6][0]], "the image with the note")
        shot(app, "search-%s.png" % name)
        image = app.screenshot().convert("L")
        cell = found[0]
        # The heading "Dogs" above the cell, and the canvas's own background left of it.
        heading = image.crop((cell.x, cell.y - 30, cell.x + 80, cell.y - 6))
        background = image.getpixel((cell.x + 2, cell.y - 34))
        darkest, lightest = heading.getextrema()
        contrast = lightest - background if name == "dark" else background - darkest
        assert contrast > 100, "%s heading: background %d, heading %d–%d" % (name, background, darkest, lightest)
        app.stop()


LANGUAGES = {
    "fr": dict(env={"LANG": "fr_FR.UTF-8", "LC_ALL": "fr_FR.UTF-8", "LANGUAGE": "fr"}, app_name="Galerie d’images",
               gallery_name="Galerie", entry="Rechercher", scope="Cette galerie seulement",
               none="Aucune image ne correspond", located="dans « Dogs »"),
    "ru": dict(env={"LANG": "ru_RU.UTF-8", "LC_ALL": "ru_RU.UTF-8", "LANGUAGE": "ru"}, app_name="Галерея изображений",
               gallery_name="Коллекция", entry="Поиск", scope="Только эта коллекция",
               none="Нет подходящих изображений", located="в «Dogs»"),
}


def test_the_search_bar_in_french_and_russian(make_app, http_server, desktop):
    for language, words in LANGUAGES.items():
        app = make_app(library(http_server), words["env"], app_name=words["app_name"],
                       gallery_name=words["gallery_name"])
        app.start()
        app.wait_cells(lambda cs: len(cs) == 6 and all(c.settled for c in cs), 30, what="Cats loaded")
        app.key("ctrl+f")
        entry = search_entry(app, words["entry"])
        wait_until(lambda: entry.has_state("FOCUSED"), 10, 0.1, "the entry to have the keyboard")
        assert app.wait_for_object(words["scope"], harness.ROLE.TOGGLE_BUTTON, timeout=10)
        desktop.type_text("kyoto")
        found = results(app, [DISTINCT_IMAGES[6][0]], "the image with the note")
        assert found[0].name.endswith(words["located"]), found[0].name
        shot(app, "search-%s.png" % language)
        app.key("ctrl+a")
        desktop.type_text("zzzz")
        app.wait_for_object(words["none"], harness.ROLE.LABEL, timeout=10)
        shot(app, "search-none-%s.png" % language)
        app.stop()
