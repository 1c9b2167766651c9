"""Issue 48, end to end: the library on disk, whatever its layout, read back through `image-gallery --print-state`.

- An edit survives `kill -9` one second after it is made: a move (Alt+Right) and a note (the properties pane), each
  followed, a second after the window shows it, by SIGKILL; the app launched again shows it, and the library has it.
  The second is the issue's bound for an edit to reach the disk, so it is the scenario, not a wait for a condition.
- A library of the old format (one `state.json` as the app wrote it before the journal: lineage, origins, tags,
  notes, kept originals, several galleries, a saved search and fields a newer version added, numbers among them
  whose text a `Double` would change) opens and shows its images and galleries; launched again, `--print-state`
  gives that library field for field, less the lineage and the likeness the app measures of each image itself.
"""
import hashlib
import json
import os
import signal
import time

import harness
from drag_helpers import gallery_state, name_of, saved_names, wait_order
from harness import DISTINCT_IMAGES, wait_until
from test_galleries import rows

NAMES = [spec[0] for spec in DISTINCT_IMAGES[:5]]


def launched(make_app, http_server):
    app = make_app(gallery_state([http_server.add_image(*spec) for spec in DISTINCT_IMAGES[:5]]))
    app.start()
    app.wait_settled(5)
    app.focus()
    return app


def killed_a_second_after(app):
    """SIGKILL one second from now, then the app launched again on the same folders, every cell loaded."""
    time.sleep(1)
    app.proc.send_signal(signal.SIGKILL)
    app.proc.wait(10)
    app.stop(check=False)  # its session bus
    app.start()
    app.wait_settled(5)


def test_a_move_survives_kill_9_one_second_after_it(make_app, http_server):
    app = launched(make_app, http_server)
    app.key("Home alt+Right")
    moved = [NAMES[1], NAMES[0]] + NAMES[2:]
    wait_order(app, moved, complete=True, what="the window showing the move")
    killed_a_second_after(app)
    wait_order(app, moved, complete=True, what="the move shown after kill -9 and a relaunch")
    assert saved_names(app) == moved


def test_a_note_survives_kill_9_one_second_after_it(make_app, http_server):
    app = launched(make_app, http_server)
    app.key("Home alt+Return")
    pane = app.wait_for_object("Image Properties", timeout=15)
    wait_until(lambda: app.find_by_name("Note", harness.ROLE.TEXT, root=pane), 10, 0.1, "the note editor")
    app.key("alt+n")
    app.desktop.type_text("For the kitchen wall")
    app.key("Escape")  # closing the pane makes the edit
    wait_until(lambda: app.find_by_name("Image Properties") is None, 10, 0.1, "the properties pane to close")
    killed_a_second_after(app)
    images = app.state()["galleries"][0]["images"]
    assert [(name_of(i["url"]), i.get("note")) for i in images] == [(NAMES[0], "For the kitchen wall")] + [
        (name, None) for name in NAMES[1:]]


# ------------------------------------------------------------------------------------------------------------
# A library of the old format
# ------------------------------------------------------------------------------------------------------------

CATS, KITCHEN, EMPTY = ("0b6f3c4e-0000-4000-8000-0000000ca750", "77a03c4e-0000-4000-8000-00000000c1d5",
                        "e3f73c4e-0000-4000-8000-0000000e3f70")
# Numbers a newer version wrote that a Double would not give back as written.
EXACT_NUMBERS = '{"count":12345678901234567891,"ratio":0.1000000000000000055511151231257827,"big":1e400,"zero":-0}'


def image_record(n, served, **fields):
    """An image as the old format wrote it, kept already (its original's file is written by `keep_originals`) and
    its frames read."""
    aspect = round(served.aspect, 6)
    record = {"id": "%08x-0000-4000-8000-0000000%05x" % (n, n), "url": served.url,
              "aspectRatio": int(aspect) if aspect == int(aspect) else aspect, "animation": False,
              "original": {"bytes": len(served.data), "format": served.fmt, "height": served.height,
                           "sha256": hashlib.sha256(served.data).hexdigest(), "width": served.width}}
    record.update(fields)
    return record


def old_library(served):
    """A state.json of the old format, as text laid out as the app wrote it: its fields in name order, a whole
    number without a decimal point."""
    red, green, blue, yellow, magenta = served
    library = {
        "ancestors": ["5f1d3a0e-0000-4000-8000-000000000001"],
        "galleries": [
            {"id": CATS, "name": "Cats", "images": [
                image_record(1, red, note="For the kitchen wall\nblue frame", tags=["cats/grey", "sofa"],
                             origin={"added": "2026-11-26T22:40:00Z", "alt": "A grey cat", "arrival": "drop",
                                     "description": "A grey cat", "link": "https://example.org/posts/7",
                                     "page": "https://example.org/cats", "pageTitle": "Cats",
                                     "seenBy": "a newer version"},
                             rating=4, future="EXACT"),
                image_record(2, green, tags=["sofa"], origin={"added": "2026-11-27T08:00:00Z", "arrival": "paste"}),
                image_record(3, blue)]},
            {"id": KITCHEN, "name": "Kitchen ideas", "colour": "teal", "images": [
                image_record(4, yellow, note="Ask about the price",
                             origin={"added": "2026-11-28T10:15:30Z", "arrival": "file"}),
                image_record(5, magenta, tags=["kitchen"])]},
            {"id": EMPTY, "name": "To sort", "images": [], "pinned": True}],
        "layoutOfANewerVersion": {"columns": [3, 4], "dense": None},
        "playAnimations": True,
        "revision": "5f1d3a0e-0000-4000-8000-000000000002",
        "shownGalleryID": CATS,
        "sidebarVisible": True,
        "smartGalleries": [{"id": "9d0c3c4e-0000-4000-8000-000000005a7e", "name": "On the sofa",
                            "query": {"tag": "sofa"}}],
        "version": 1,
    }
    text = json.dumps(library, sort_keys=True, ensure_ascii=False, indent=2, separators=(",", " : "))
    return text.replace('"EXACT"', EXACT_NUMBERS).encode()


def keep_originals(app, served):
    for image in served:
        sha256 = hashlib.sha256(image.data).hexdigest()
        folder = os.path.join(app.state_dir, "originals", sha256[:2])
        os.makedirs(folder, exist_ok=True)
        with open(os.path.join(folder, sha256), "wb") as f:
            f.write(image.data)


def exactly(text):
    """JSON read with every number kept as its text: two libraries compared field for field, digit for digit."""
    return json.loads(text, parse_int=str, parse_float=str, parse_constant=str)


def without_what_the_app_measures(library):
    for gallery in library["galleries"]:
        for image in gallery["images"]:
            image.pop("likeness", None)
    return library


def shows_the_old_library(app, served):
    cells = app.wait_settled(3)
    assert [c.url for c in cells] == [image.url for image in served[:3]], harness.format_cells(cells)
    assert all(c.error is None for c in cells), harness.format_cells(cells)
    # The saved search finds the two images tagged "sofa".
    wait_until(lambda: [name for name, _ in rows(app)] == ["Cats, 3 images", "Kitchen ideas, 2 images",
                                                           "To sort, 0 images", "On the sofa, saved search, 2 images"],
               10, 0.1, "the galleries and the saved search", lambda: repr([name for name, _ in rows(app)]))


def test_a_library_of_the_old_format_opens_and_prints_the_same_field_for_field(make_app, http_server):
    served = [http_server.add_image(*spec) for spec in DISTINCT_IMAGES[:5]]
    written = old_library(served)
    app = make_app(state_raw=written)
    keep_originals(app, served)
    app.start()
    shows_the_old_library(app, served)
    app.stop()
    app.start()
    shows_the_old_library(app, served)
    expected = exactly(written)
    del expected["revision"], expected["ancestors"]
    assert without_what_the_app_measures(exactly(app.state_bytes())) == expected
