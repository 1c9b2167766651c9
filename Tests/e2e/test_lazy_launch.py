"""Issue 48, end to end: a launch of a large library reads the shown gallery first and the rest after its first screen.

The library (generated_library.py's images, a few thousand in twelve galleries, and a gallery "Stalled" whose pictures
come from the server's /stall.png) is carried over by a first launch, which shows "Stalled" and so saves, writing the
journal's snapshot. The second launch shows "Stalled": its first screen never finishes loading while the server
stalls, so the rest of the library is not read until the test stops the server. Meanwhile the sidebar lists every
gallery with its count, and a move made at once is held; once the rest is in, the library holds every image and the
move."""
import glob
import json
import os
import re
import sys

import harness
from harness import wait_until

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "benchmarks"))
from generated_library import write_library  # noqa: E402

# Above the app's bound for reading the rest later (some ten thousand images' worth of snapshot).
COUNT = 8000
GALLERIES = 8
STALLED = 3


def sidebar_rows(app):
    box = app.wait_for_object("Galleries", "list box", timeout=10)
    return [n.name for n in (box.children() or []) if n.role_name == "list item"]


def counted(rows):
    """{gallery name: count} from the rows' accessible names ("Gallery 1, 1,000 images")."""
    listed = {}
    for name in rows:
        gallery, _, count = (name or "").rpartition(", ")
        listed[gallery] = int(re.sub(r"\D", "", count) or -1)
    return listed


def test_a_large_library_shows_its_gallery_first_with_every_gallery_listed_and_an_edit_made_at_once_kept(
        make_app, http_server):
    app = make_app()  # its state.json is the generated one
    library = os.path.dirname(app.state_path)
    write_library(library, COUNT, GALLERIES)
    with open(app.state_path, encoding="utf-8") as f:
        state = json.load(f)
    stalled = [{"id": "stalled-%d" % i, "url": http_server.url("/stall.png?n=%d" % i), "aspectRatio": 1.5}
               for i in range(STALLED)]
    state["galleries"].append({"id": "stalled", "name": "Stalled", "images": stalled})
    state["sidebarVisible"] = True
    with open(app.state_path, "w", encoding="utf-8") as f:
        json.dump(state, f)
    expected = {g["name"]: len(g["images"]) for g in state["galleries"]}

    # The first launch carries the file over; showing "Stalled" is saved, and the snapshot written after it.
    app.start()
    rows = wait_until(lambda: (lambda r: r if len(r) == len(expected) else None)(sidebar_rows(app)), 10, 0.1,
                      "every gallery in the sidebar", lambda: repr(sidebar_rows(app)))
    row = app.find_by_name(next(name for name in rows if name.startswith("Stalled,")), "list item")
    x, y, w, h = row.extents()
    app.click(x + w // 2, y + h // 2)
    snapshots = os.path.join(library, "journal", "snapshot-*.json")
    wait_until(lambda: glob.glob(snapshots), 30, 0.1, "the journal's snapshot")
    app.stop()  # a quit writes what is not in the log yet

    app.start()
    # The first screen: "Stalled", still loading, so the rest of the library is not read yet.
    app.wait_cells(lambda cs: len(cs) == STALLED, 10, what="the stalled gallery's cells")
    assert counted(sidebar_rows(app)) == expected, "every gallery listed, with its count, before the rest is read"
    app.focus()
    app.key("Home")
    app.key("alt+Right")
    app.wait_cells(lambda cs: [c.description for c in cs][:2] == [stalled[1]["url"], stalled[0]["url"]], 10,
                   what="the first image moved one step")

    # The server stops: the first screen's pictures fail, and the rest is read.
    http_server.stop()
    moved = [stalled[1]["url"], stalled[0]["url"], stalled[2]["url"]]

    def whole(s):
        got = {g["name"]: [i["url"] for i in g["images"]] for g in s["galleries"]}
        return {name: len(urls) for name, urls in got.items()} == expected and got["Stalled"] == moved

    app.wait_state(whole, 30, "every image and the move on disk")
    assert counted(sidebar_rows(app)) == expected
    app.stop()


def test_a_hidden_sidebar_makes_its_rows_as_it_shows_with_every_gallery_counted(make_app):
    """A launch with the sidebar hidden makes none of its rows (each holds an entry for renaming: a library of hundreds
    of galleries made hundreds before its first screen); F9 shows every gallery with its count, those the launch left
    for later counted from the snapshot's table of contents."""
    app = make_app()
    library = os.path.dirname(app.state_path)
    write_library(library, COUNT, GALLERIES)  # the sidebar hidden
    with open(app.state_path, encoding="utf-8") as f:
        state = json.load(f)
    assert state["sidebarVisible"] is False
    expected = {g["name"]: len(g["images"]) for g in state["galleries"]}

    # The first launch carries the file over; showing the sidebar and hiding it again is saved, and the snapshot
    # written after it.
    app.start()
    app.focus()
    app.key("F9")
    wait_until(lambda: len(sidebar_rows(app)) == len(expected), 10, 0.1, "every gallery in the sidebar",
               lambda: repr(sidebar_rows(app)))
    app.key("F9")
    snapshots = os.path.join(library, "journal", "snapshot-*.json")
    wait_until(lambda: glob.glob(snapshots), 30, 0.1, "the journal's snapshot")
    app.wait_state(lambda s: s.get("sidebarVisible") is False, 10, "the sidebar hidden, on disk")
    app.stop()

    app.start()
    app.wait_cells(lambda cs: len(cs) > 0, 10, what="the shown gallery's cells")
    assert sidebar_rows(app) == [], "a hidden sidebar has no rows"
    app.focus()
    app.key("F9")
    rows = wait_until(lambda: (lambda r: r if len(r) == len(expected) else None)(sidebar_rows(app)), 10, 0.1,
                      "every gallery in the sidebar once it shows", lambda: repr(sidebar_rows(app)))
    assert counted(rows) == expected
    app.stop()
