"""Issue 8, end to end: several galleries, a sidebar, drags between galleries and windows, one app-wide undo.

The sidebar is read over AT-SPI (a list named "Galleries", one list item per gallery named "<name>, N images"),
cells too; drags are real XDND drags moved with xdotool (a held Ctrl copies); what is saved is read from
the library (`--print-state`). Screenshots of the sidebar (light, dark, a long name, 30 galleries) go to $E2E_SAVE_SCREENSHOTS."""
import os
import time

import pytest

import harness
from drag_helpers import PointerDrag, click, image_id, name_of
from drag_source import DragSource, target, uri_list
from harness import DISTINCT_IMAGES, wait_until
from harness.xsettings import XSettings

SHOTS = os.environ.get("E2E_SAVE_SCREENSHOTS")


def two_galleries(http_server, first=6, second=3, **extra):
    """"Cats" with the first `first` DISTINCT_IMAGES, "Dogs" with the next `second`."""
    served = [http_server.add_image(*spec) for spec in DISTINCT_IMAGES[:first + second]]

    def images(part, offset):
        return [{"id": image_id(offset + i + 1), "url": s.url, "aspectRatio": round(s.aspect, 6)}
                for i, s in enumerate(part)]

    state = {"version": 1, "galleries": [
        {"id": "cats", "name": "Cats", "images": images(served[:first], 0)},
        {"id": "dogs", "name": "Dogs", "images": images(served[first:], first)}]}
    state.update(extra)
    return state


def saved(app):
    """{gallery name: [image names]} in the library, in sidebar order."""
    return [(g["name"], [name_of(i["url"]) for i in g["images"]]) for g in app.state()["galleries"]]


def wait_state(app, predicate, what, timeout=10):
    """Polls the library until predicate(library) holds; returns that library."""
    return app.wait_state(predicate, timeout, what)


def names_in(state):
    return [(g["name"], [name_of(i["url"]) for i in g["images"]]) for g in state["galleries"]]


def sidebar(app, frame=None):
    return app.wait_for_object("Galleries", "list box", timeout=10, root=frame) if frame else \
        app.wait_for_object("Galleries", "list box", timeout=10)


def rows(app, frame=None):
    """The sidebar's rows as (name, node), in order."""
    return [(n.name, n) for n in (sidebar(app, frame).children() or []) if n.role_name == "list item"]


def row(app, gallery, frame=None):
    """The row of `gallery` (its accessible name starts with the gallery's name and a comma)."""
    def find():
        for name, node in rows(app, frame):
            if (name or "").startswith(gallery + ","):
                return node
        return None
    return wait_until(find, 10, 0.1, "the sidebar row of %r" % gallery,
                      lambda: "rows: %r" % [n for n, _ in rows(app, frame)])


def centre(node):
    x, y, w, h = node.extents()
    return x + w // 2, y + h // 2


def settled(app, count):
    return app.wait_cells(lambda cs: len(cs) == count and all(c.settled for c in cs), 30,
                          what="%d cells loaded" % count)


def drag_cells(desktop, from_xy, to_xy, copy=False):
    """A drag of the selection from from_xy to to_xy; with copy, Ctrl is held from before the drop to after it."""
    with PointerDrag(desktop) as d:
        d.press(*from_xy, direction=(to_xy[0] - from_xy[0], to_xy[1] - from_xy[1]))
        d.move(*to_xy, rest=0.3)
        if copy:
            desktop.xdotool("keydown", "ctrl")
            d.move(to_xy[0], to_xy[1] + 1, steps=1, rest=0.3)
        try:
            d.release()
        finally:
            if copy:
                desktop.xdotool("keyup", "ctrl")


def window_cells(app, frame_name):
    """The visible cells of the window titled frame_name (each window has a gallery of its own)."""
    frame = next((f for f in app.frames() if f.name == frame_name), None)
    gallery = frame and app.find_by_name("Gallery", harness.ROLE.LAYERED_PANE, root=frame)
    if gallery is None:
        return []
    cells = []
    for i, child in enumerate(harness._safe(gallery.children, []) or []):
        extents = harness._safe(child.extents)
        if extents:
            cells.append(harness.Cell(i, child.name or "", child.description or "", *extents, child.role_name))
    return cells


def shot(app, name):
    if SHOTS:
        os.makedirs(SHOTS, exist_ok=True)
        app.screenshot(os.path.join(SHOTS, name))


# ------------------------------------------------------------------------------------------------------------

def test_create_rename_move_two_cells_onto_its_row_undo_and_copy_with_ctrl(make_app, http_server, desktop):
    state = two_galleries(http_server, first=6, second=0)
    del state["galleries"][1]  # Cats alone
    app = make_app(state)
    app.start()
    cells = settled(app, 6)
    app.focus()

    # Ctrl+N: "New Gallery", shown, its name selected in an entry: typing replaces it.
    app.key("ctrl+n")
    wait_until(lambda: app.frame() and app.frame().name == "New Gallery — Image Gallery", 10, 0.1, "the new gallery shown")
    app.wait_for_object("Gallery name", "text", timeout=10)
    desktop.type_text("Kitchen ideas")
    app.key("Return")
    state = wait_state(app, lambda s: [g["name"] for g in s["galleries"]] == ["Cats", "Kitchen ideas"],
                       "the new gallery saved with its name")
    assert state["galleries"][1]["images"] == []
    wait_until(lambda: app.frame().name == "Kitchen ideas — Image Gallery", 10, 0.1, "the title to follow the rename")

    # Back to Cats; select two cells (click, Ctrl+click) and drag them onto Kitchen ideas' row.
    click(desktop, centre(row(app, "Cats")))
    cells = settled(app, 6)
    names = [name_of(c.url) for c in cells]
    click(desktop, cells[1].center)
    click(desktop, cells[3].center, modifiers="ctrl")
    drag_cells(desktop, cells[3].center, centre(row(app, "Kitchen ideas")))
    moved = [names[1], names[3]]
    rest = [n for n in names if n not in moved]
    wait_state(app, lambda s: names_in(s) == [("Cats", rest), ("Kitchen ideas", moved)],
               "the two images moved to the end of Kitchen ideas")
    settled(app, 4)
    assert row(app, "Kitchen ideas").name == "Kitchen ideas, 2 images"
    assert row(app, "Cats").name.startswith("Cats, 4 images")

    # One Ctrl+Z puts them back, in both galleries.
    app.key("ctrl+z")
    wait_state(app, lambda s: names_in(s) == [("Cats", names), ("Kitchen ideas", [])], "Ctrl+Z to put them back")
    cells = settled(app, 6)
    assert [name_of(c.url) for c in cells] == names

    # With Ctrl held, the same drag copies: new ids, same URLs; Cats keeps them.
    click(desktop, cells[1].center)
    click(desktop, cells[3].center, modifiers="ctrl")
    drag_cells(desktop, cells[3].center, centre(row(app, "Kitchen ideas")), copy=True)
    state = wait_state(app, lambda s: names_in(s) == [("Cats", names), ("Kitchen ideas", moved)], "the copy")
    cats_ids = {i["id"] for i in state["galleries"][0]["images"]}
    assert not cats_ids & {i["id"] for i in state["galleries"][1]["images"]}, "a copy must have ids of its own"

    # Dropping on the shown gallery's own row does nothing.
    before = app.state_bytes()
    click(desktop, cells[0].center)
    drag_cells(desktop, cells[0].center, centre(row(app, "Cats")))
    time.sleep(0.5)
    assert app.state_bytes() == before


def test_a_cell_dragged_from_one_window_into_another_lands_between_two_cells(make_app, http_server, desktop):
    app = make_app(two_galleries(http_server, first=5, second=4, sidebarVisible=False))
    app.start()
    settled(app, 5)
    first = app.window_id()
    app.resize(620, 900, x=0, y=0)
    app.focus()
    app.key("ctrl+shift+n")
    second = wait_until(lambda: [w for w in app.window_ids() if w != first] or None, 10, 0.1, "a second window")[0]
    desktop.xdotool("windowmove", second, 640, 0)
    desktop.xdotool("windowsize", second, 620, 900)
    desktop.xdotool("windowfocus", "--sync", second)
    app.key("F9")  # its sidebar, to show Dogs there
    frames = wait_until(lambda: len(app.frames()) == 2 and app.frames(), 10, 0.1, "two frames over AT-SPI")
    second_frame = [f for f in frames if f.extents()[0] >= 600][0]
    click(desktop, centre(row(app, "Dogs", second_frame)))
    wait_until(lambda: "Dogs — Image Gallery" in [f.name for f in app.frames()], 10, 0.1, "the second window on Dogs")

    def cells_of(frame_name):
        return [c for c in window_cells(app, frame_name) if c.settled]

    dogs = wait_until(lambda: (lambda cs: cs if len(cs) == 4 else None)(cells_of("Dogs — Image Gallery")), 20, 0.1,
                      "Dogs' four cells")
    cats = wait_until(lambda: (lambda cs: cs if len(cs) == 5 else None)(cells_of("Cats — Image Gallery")), 20, 0.1,
                      "Cats' five cells")
    dog_names = [name_of(c.url) for c in dogs]
    moving = name_of(cats[2].url)
    desktop.xdotool("windowfocus", "--sync", first)
    click(desktop, cats[2].center)
    # Between the second and third dog: the left fifth of the third one.
    target_cell = dogs[2]
    drag_cells(desktop, cats[2].center, (target_cell.x + max(4, target_cell.width // 5), target_cell.y + target_cell.height // 2))
    expected = dog_names[:2] + [moving] + dog_names[2:]
    wait_state(app, lambda s: names_in(s)[1] == ("Dogs", expected) and moving not in names_in(s)[0][1],
               "the cat between the second and third dog")
    wait_until(lambda: [name_of(c.url) for c in cells_of("Dogs — Image Gallery")] == expected, 10, 0.1,
               "the second window showing it there")


def test_delete_a_gallery_undo_and_relaunch_shows_the_gallery_shown_last(make_app, http_server, desktop):
    app = make_app(two_galleries(http_server, first=3, second=2))
    app.start()
    settled(app, 3)
    # Delete on the focused row of Dogs: gone at once, a toast offers Undo.
    click(desktop, centre(row(app, "Dogs")))
    settled(app, 2)
    app.key("Delete")
    wait_state(app, lambda s: [g["name"] for g in s["galleries"]] == ["Cats"], "Dogs deleted")
    toast = app.wait_for_object("Gallery “Dogs” deleted", timeout=10)
    assert toast is not None
    wait_until(lambda: app.frame().name == "Cats — Image Gallery", 10, 0.1, "the window on Cats")
    # The last gallery cannot be deleted.
    app.key("Delete")
    time.sleep(0.5)
    assert [g["name"] for g in app.state()["galleries"]] == ["Cats"]
    # Undo brings it back with its images, and the window shows it.
    app.key("ctrl+z")
    state = wait_state(app, lambda s: [g["name"] for g in s["galleries"]] == ["Cats", "Dogs"], "Dogs restored")
    assert len(state["galleries"][1]["images"]) == 2
    wait_until(lambda: app.frame().name == "Dogs — Image Gallery", 10, 0.1, "the window on the restored gallery")
    wait_state(app, lambda s: s.get("shownGalleryID") == "dogs", "Dogs remembered as shown")
    app.stop()
    app.start()
    assert app.frame().name == "Dogs — Image Gallery"
    selected = [name for name, node in rows(app) if node.has_state("SELECTED")]
    assert selected and selected[0].startswith("Dogs,"), selected


def test_a_slow_download_lands_in_its_gallery_after_switching_to_another(make_app, http_server, desktop, tmp_path):
    state = two_galleries(http_server, first=3, second=2)
    app = make_app(state)
    app.start()
    app.resize(900, 1000)
    cells = settled(app, 3)
    new = http_server.add_image("slow-cyan", 300, 200, (0, 210, 220))
    # Held at no bytes until the window shows the other gallery (ImageServer.let_out), however slow the machine.
    source = DragSource(desktop, [target("text/uri-list", uri_list(new.stepped_url))],
                        workdir=str(tmp_path / "drag-source"))
    try:
        source.start()
        source.drag_into((cells[1].x + max(4, cells[1].width // 5), cells[1].y + cells[1].height // 2))
        source.wait_for("drag-end", timeout=15)
        app.wait_cells(lambda cs: len(cs) == 4 and cs[1].placeholder, 10, what="the placeholder at index 1")
        click(desktop, centre(row(app, "Dogs")))
        wait_until(lambda: app.frame().name == "Dogs — Image Gallery", 10, 0.1, "the window on Dogs")
        http_server.let_out(new, 1)
        names = [name_of(i["url"]) for i in state["galleries"][0]["images"]]
        wait_state(app, lambda s: names_in(s)[0] == ("Cats", [names[0], "slow-cyan"] + names[1:]), "the slow image "
                   "landed in Cats at its placeholder", timeout=30)
        assert names_in(app.state())[1][1] == [name_of(i["url"]) for i in state["galleries"][1]["images"]]
    finally:
        source.stop()


def test_the_sidebar_over_atspi_f9_and_screenshots(make_app, http_server, desktop):
    long_name = "References for the poster of the spring exhibition in the old town hall"
    state = two_galleries(http_server, first=4, second=2)
    state["galleries"].append({"id": "long", "name": long_name, "images": []})
    app = make_app(state)
    app.start()
    settled(app, 4)
    listed = rows(app)
    assert [n for n, _ in listed] == ["Cats, 4 images", "Dogs, 2 images", long_name + ", 0 images"]
    assert listed[0][1].has_state("SELECTED") and not listed[1][1].has_state("SELECTED")
    list_box = sidebar(app)
    lx, ly, lw, lh = list_box.extents()
    rx, ry, rw, rh = listed[2][1].extents()
    assert rw <= lw and lw < 400, "the long name widened the sidebar: list %r, row %r" % (list_box.extents(), (rx, ry, rw, rh))
    gallery = app.gallery().parent().extents()
    assert gallery[0] >= lx + lw, "the gallery starts under the sidebar"
    shot(app, "sidebar-light.png")
    # F9 hides it, remembered in the library; the gallery takes the room.
    app.focus()
    app.key("F9")
    wait_state(app, lambda s: s.get("sidebarVisible") is False, "sidebarVisible false")
    wait_until(lambda: not sidebar(app).has_state("SHOWING"), 10, 0.1, "the sidebar hidden")
    wait_until(lambda: app.gallery().parent().extents()[0] < lx + 20, 10, 0.1, "the gallery widened")
    app.stop()
    app.start()
    assert not app.find_by_name("Galleries", "list box").has_state("SHOWING")
    app.focus()
    app.key("F9")
    wait_until(lambda: sidebar(app).has_state("SHOWING"), 10, 0.1, "the sidebar back")


def test_thirty_galleries_and_the_dark_theme_look_right(make_app, http_server, desktop):
    state = two_galleries(http_server, first=4, second=2)
    state["galleries"] += [{"id": "g%02d" % i, "name": "Gallery number %d" % i, "images": []} for i in range(28)]
    app = make_app(state, env_overrides={"GTK_THEME": "Adwaita:dark"})
    app.start()
    settled(app, 4)
    listed = rows(app)
    assert len(listed) == 30
    # Rows keep their height in a scrolled list: the last ones are below the fold, not squeezed.
    heights = {node.extents()[3] for _, node in listed[:10]}
    assert min(heights) >= 30, heights
    shot(app, "sidebar-dark-30.png")
    image = app.screenshot()
    # The visible part of the list (the list itself is as tall as its thirty rows).
    lx, ly, lw, lh = sidebar(app).parent().extents()
    background = image.getpixel((lx + lw - 4, min(ly + lh, image.height) - 20))
    assert sum(background) < 3 * 110, "the dark theme's sidebar is not dark: %r" % (background,)

    # Ctrl+N with the list scrolled to its top: the new, 31st row and its name entry are scrolled into view.
    viewport = sidebar(app).parent().extents()

    def in_view(node):
        x, y, w, h = node.extents()
        return y >= viewport[1] and y + h <= viewport[1] + viewport[3]

    assert in_view(listed[0][1]) and not in_view(listed[-1][1]), "the list does not start at its top"
    app.focus()
    app.key("ctrl+n")
    entry = app.wait_for_object("Gallery name", "text", timeout=10)
    wait_until(lambda: entry.has_state("FOCUSED") and entry.text() == "New Gallery", 5, 0.1, "the focused entry")
    wait_until(lambda: in_view(row(app, "New Gallery")), 5, 0.1, "the new row scrolled into the list's view",
               lambda: "row %r, list %r" % (row(app, "New Gallery").extents(), viewport))
    shot(app, "sidebar-dark-30-new.png")


def test_an_image_dropped_from_another_app_onto_a_row_lands_at_the_end_of_that_gallery(make_app, http_server,
                                                                                        desktop, tmp_path):
    state = two_galleries(http_server, first=3, second=2)
    app = make_app(state)
    app.start()
    app.resize(900, 1000)
    settled(app, 3)
    new = http_server.add_image("dropped-teal", 240, 160, (0, 150, 140))
    source = DragSource(desktop, [target("text/uri-list", uri_list(new.url))], workdir=str(tmp_path / "drag-source"))
    try:
        source.start()
        source.drag_into(centre(row(app, "Dogs")))
        assert source.wait_for("drag-end", timeout=15).startswith("drag-end succeeded=yes"), source.lines
        dogs = [name_of(i["url"]) for i in state["galleries"][1]["images"]]
        wait_state(app, lambda s: names_in(s)[1] == ("Dogs", dogs + ["dropped-teal"]), "the image at the end of Dogs")
        # The window still shows Cats, untouched; Dogs' row counts the new image.
        assert app.frame().name == "Cats — Image Gallery"
        assert names_in(app.state())[0][1] == [name_of(i["url"]) for i in state["galleries"][0]["images"]]
        wait_until(lambda: row(app, "Dogs").name == "Dogs, 3 images", 10, 0.1, "Dogs counting 3 images")
    finally:
        source.stop()


def test_galleries_are_reordered_by_dragging_their_rows_and_undo_puts_them_back(make_app, http_server, desktop):
    state = two_galleries(http_server, first=2, second=2)
    state["galleries"].append({"id": "birds", "name": "Birds", "images": []})
    app = make_app(state)
    app.start()
    settled(app, 2)
    with PointerDrag(desktop) as d:
        bx, by = centre(row(app, "Birds"))
        cx, cy = centre(row(app, "Cats"))
        d.press(bx, by, direction=(0, -1))
        d.move(cx, cy, rest=0.3)
        d.release()
    wait_state(app, lambda s: [g["name"] for g in s["galleries"]] == ["Birds", "Cats", "Dogs"], "Birds first")
    wait_until(lambda: [n.split(",")[0] for n, _ in rows(app)] == ["Birds", "Cats", "Dogs"], 10, 0.1,
               "the rows in the new order")
    app.focus()
    app.key("ctrl+z")
    wait_state(app, lambda s: [g["name"] for g in s["galleries"]] == ["Cats", "Dogs", "Birds"], "the old order back")


def test_the_row_clicked_is_the_one_renamed_or_given_a_menu_and_the_last_gallery_stays(make_app, http_server,
                                                                                      desktop):
    # A click on a row's name lands in a child's own window: the list once took it for a click on its first row.
    state = two_galleries(http_server, first=2, second=2)
    app = make_app(state)
    app.start()
    settled(app, 2)

    # A double-click on the second row's name opens its entry, which keeps the focus; Esc gives the name back.
    x, y = centre(row(app, "Dogs"))
    desktop.move_to(x - 40, y)
    desktop.xdotool("click", "--repeat", 2, "--delay", 80, 1)
    entry = app.wait_for_object("Gallery name", "text", timeout=10)
    wait_until(lambda: entry.has_state("FOCUSED") and entry.text() == "Dogs", 5, 0.1, "a focused entry holding Dogs",
               lambda: "%r, focused: %s" % (entry.text(), entry.has_state("FOCUSED")))
    time.sleep(0.5)  # a rename that ends by itself ends right after the release
    assert entry.has_state("SHOWING") and entry.has_state("FOCUSED"), "the entry closed by itself"
    desktop.type_text("Wolves")
    app.key("Escape")
    wait_until(lambda: not harness._safe(lambda: entry.has_state("SHOWING"), False), 5, 0.1, "the entry to go")
    assert [g["name"] for g in app.state()["galleries"]] == ["Cats", "Dogs"]

    # A right-click on the second row's name gives that row's menu: Rename… renames Dogs, not Cats.
    click(desktop, centre(row(app, "Cats")))
    x, y = centre(row(app, "Dogs"))
    desktop.click(x - 40, y, button=3)
    rename = wait_until(lambda: next(iter(app.find_all(lambda a: a.name == "Rename\u2026" and a.has_state("SHOWING"))),
                                     None), 5, 0.1, "the row menu")
    click(desktop, centre(rename))
    entry = app.wait_for_object("Gallery name", "text", timeout=10)
    wait_until(lambda: entry.has_state("FOCUSED") and entry.text() == "Dogs", 5, 0.1, "the entry of the row clicked",
               lambda: repr(entry.text()))
    desktop.type_text("Wolves")
    app.key("Return")
    wait_state(app, lambda s: [g["name"] for g in s["galleries"]] == ["Cats", "Wolves"], "Dogs renamed Wolves")

    # Its menu's Delete deletes Wolves; then Delete on the last gallery's row does nothing.
    x, y = centre(row(app, "Wolves"))
    desktop.click(x - 40, y, button=3)
    delete = wait_until(lambda: next(iter(app.find_all(lambda a: a.name == "Delete" and a.has_state("SHOWING"))),
                                     None), 5, 0.1, "the row menu's Delete")
    click(desktop, centre(delete))
    wait_state(app, lambda s: [g["name"] for g in s["galleries"]] == ["Cats"], "Wolves deleted from its menu")
    assert app.frame().name == "Cats — Image Gallery"
    before = app.state_bytes()
    click(desktop, centre(row(app, "Cats")))
    app.key("Delete")
    time.sleep(1)
    assert app.state_bytes() == before, "Delete on the last gallery changed the library"
    assert [n for n, _ in rows(app)] == ["Cats, 2 images"]


def test_rows_take_the_height_of_a_font_chosen_while_the_app_runs(make_app, http_server, desktop, tmp_path):
    # A row keeps room for its name entry, measured when the rows are made: a font chosen later (the desktop's
    # settings daemon, XSETTINGS) re-measures it, and the rows are as tall as a launch at that font makes them.
    font = "DejaVu Sans 22"
    state = two_galleries(http_server, first=2, second=2,
                          smartGalleries=[{"id": "sofa", "name": "On the sofa", "query": {"tag": "sofa"}}])

    def heights(app):
        return [node.extents()[3] for _, node in rows(app)]

    (tmp_path / "gtk-3.0").mkdir()
    (tmp_path / "gtk-3.0" / "settings.ini").write_text("[Settings]\ngtk-font-name=%s\n" % font)
    launched = make_app(state, env_overrides={"XDG_CONFIG_DIRS": str(tmp_path)})
    launched.start()
    settled(launched, 2)
    at_launch = heights(launched)
    launched.stop()
    app = make_app(state)
    app.start()
    settled(app, 2)
    before = heights(app)
    assert len(before) == 3 and before[0] < at_launch[0], (before, at_launch)
    settings = XSettings(desktop.display, {"Gtk/FontName": font})
    try:
        wait_until(lambda: heights(app) == at_launch, 10, 0.1, "the rows as tall as a launch at %s makes them" % font,
                   lambda: "heights %r, at launch %r, before %r" % (heights(app), at_launch, before))
        shot(app, "sidebar-font-changed.png")
        # and a row renamed now is as tall with its entry as without it
        click(desktop, centre(row(app, "Dogs")))
        app.key("F2")
        entry = app.wait_for_object("Gallery name", "text", timeout=10)
        wait_until(lambda: entry.has_state("FOCUSED") and entry.text() == "Dogs", 5, 0.1, "the entry of Dogs")
        assert heights(app) == at_launch, "renaming Dogs: %r, at launch %r" % (heights(app), at_launch)
        app.key("Escape")
    finally:
        settings.close()


@pytest.mark.parametrize("font", [None, "DejaVu Sans 22"])
def test_a_row_keeps_its_height_before_during_and_after_a_rename(make_app, http_server, desktop, tmp_path, font):
    # A row makes its name entry when first renamed: it must be as tall with the entry as without it. At a large
    # font (GTK's settings.ini in XDG_CONFIG_DIRS) the entry is taller than the name and the row's minimum height.
    state = two_galleries(http_server, first=2, second=2,
                          smartGalleries=[{"id": "sofa", "name": "On the sofa", "query": {"tag": "sofa"}}])
    env = {}
    if font:
        (tmp_path / "gtk-3.0").mkdir()
        (tmp_path / "gtk-3.0" / "settings.ini").write_text("[Settings]\ngtk-font-name=%s\n" % font)
        env["XDG_CONFIG_DIRS"] = str(tmp_path)
    app = make_app(state, env_overrides=env)
    app.start()
    settled(app, 2)

    def heights():
        return [node.extents()[3] for _, node in rows(app)]

    before = heights()
    assert len(before) == 3 and before[1] == before[2], before
    for name, entry_name, end in [("Dogs", "Gallery name", "Escape"), ("Dogs", "Gallery name", "Return"),
                                  ("On the sofa", "Saved search name", "Return")]:
        click(desktop, centre(row(app, name)))
        app.key("F2")
        entry = app.wait_for_object(entry_name, "text", timeout=10)
        wait_until(lambda: entry.has_state("FOCUSED") and entry.text() == name, 5, 0.1, "the entry of %s" % name)
        assert heights() == before, "renaming %s: %r, before %r" % (name, heights(), before)
        shot(app, "sidebar-renaming-%s-%s.png" % (name.replace(" ", "-"), (font or "default").replace(" ", "-")))
        app.key(end)
        wait_until(lambda: not harness._safe(lambda: entry.has_state("SHOWING"), False), 5, 0.1, "the entry to go")
        assert heights() == before, "after renaming %s: %r, before %r" % (name, heights(), before)
    assert [n for n, _ in rows(app)][:2] == ["Cats, 2 images", "Dogs, 2 images"]
