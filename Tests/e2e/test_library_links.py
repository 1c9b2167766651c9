"""Issue 43, end to end: a library in a folder the user chose (Move Library…), written as another computer sharing it
would write it: links inside it to folders and files outside. Nothing outside is written, deleted or read into the
library through them:
- every `originals/<xx>` a link to an outside folder holding a bystander's `*.part` and a file named like an
  original and unreferenced for a month: an image carried over at launch and another dropped are not written there,
  the launch's pruning deletes nothing there, both images show, and the drop says why it could not keep its image;
- `state.json`, `.state.json.lock` and a conflict copy links to outside files: the app says the state file was a
  link and starts a new gallery, whose save goes into the library's journal and writes no byte and makes no file
  outside; the lock and the conflict copy are left alone, and the conflict copy's gallery is not taken in;
- a kept original in the data folder replaced by a link to another file is not handed out by a drag-out."""
import hashlib
import json
import os
import time
from urllib.parse import unquote, urlparse

from actions_helpers import toast
from drag_helpers import gallery_state
from drag_source import target, uri_list
from test_drag_out import DropTarget
from test_drops import before, drop, sources  # noqa: F401 (sources is a fixture)
from test_originals import kept_file, wait_kept
from test_synced_library import place_library

SPECS = [("red", 300, 200, (220, 30, 30)), ("green", 200, 300, (30, 180, 60))]
MONTH = 30 * 24 * 3600


def listing(folder):
    """Every name under `folder` with its bytes' SHA-256 (a link: where it points), and its mtime."""
    found = {}
    for base, folders, files in os.walk(folder):
        for name in folders + files:
            path = os.path.join(base, name)
            if os.path.islink(path):
                found[path] = ("link", os.readlink(path))
            elif os.path.isfile(path):
                with open(path, "rb") as f:
                    found[path] = (hashlib.sha256(f.read()).hexdigest(), os.stat(path).st_mtime)
            else:
                found[path] = ("folder",)
    return found


def outside_folder(tmp_path):
    """A folder of someone's, outside the library, with files that look like the library's own."""
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / ".cat.jpg.1A2B3C4D.part").write_bytes(b"someone's half-written file")
    old = outside / ("ab" * 32)
    old.write_bytes(b"someone's file named like an original")
    os.utime(old, (time.time() - MONTH, time.time() - MONTH))
    (outside / "notes.txt").write_text("someone's notes\n")
    return outside


def library_folder(app, tmp_path):
    folder = tmp_path / "Sync" / "Gallery"
    folder.mkdir(parents=True)
    place_library(app.root, str(folder))
    return folder


def test_linked_originals_folders_lead_no_write_or_delete_outside(make_app, http_server, desktop, tmp_path,
                                                                  sources):
    carried, dropped = [http_server.add_image(*spec) for spec in SPECS]
    outside = outside_folder(tmp_path)
    app = make_app()
    library = library_folder(app, tmp_path)
    # Every prefix a link to the outside folder: whatever the images' SHA-256, it falls under one.
    (library / "originals").mkdir()
    for prefix in range(256):
        os.symlink(str(outside), str(library / "originals" / ("%02x" % prefix)))
    # A state of the previous layout (no original): carried over at launch.
    (library / "state.json").write_text(json.dumps(gallery_state([carried])))
    # This computer's record says the file named like an original has been unreferenced for a month: pruned now.
    record = os.path.join(app.root, ".local", "state", "image-gallery")
    os.makedirs(record)
    with open(os.path.join(record, "unreferenced-originals.json"), "w") as f:
        json.dump({"ab" * 32: time.time() - MONTH}, f)
    before_listing = listing(outside)

    app.start()
    cells = app.wait_cells(lambda cs: len(cs) == 1 and cs[0].settled and cs[0].error is None, 30,
                           what="the carried-over image shown")
    src = sources(desktop, tmp_path, target("text/uri-list", uri_list(dropped.url)))
    drop(app, src, before(cells[0]))
    said = toast(app, "could not be kept", timeout=30)
    assert "a link in the library’s folder leads out of it" in said, said
    app.wait_cells(lambda cs: len(cs) == 1 and cs[0].settled and cs[0].error is None, 30,
                   what="the carried-over image still shown, the dropped one gone")
    # The launch's upkeep (pruning, the carry-over's attempt) has run: the library names no original outside.
    assert not any(image.get("original") for g in app.state()["galleries"] for image in g["images"])
    app.stop()
    assert listing(outside) == before_listing
    assert all(os.path.islink(str(library / "originals" / ("%02x" % p))) for p in range(256))


def test_a_linked_state_file_lock_and_conflict_copy_lead_nowhere(make_app, http_server, tmp_path):
    outside = outside_folder(tmp_path)
    theirs = gallery_state([http_server.add_image(*SPECS[1])])
    theirs["galleries"][0]["name"] = "Read through a link"
    (outside / "other.json").write_text(json.dumps(theirs))
    app = make_app()
    library = library_folder(app, tmp_path)
    os.symlink(str(outside / "notes.txt"), str(library / "state.json"))
    os.symlink(str(outside / "made-by-the-lock"), str(library / ".state.json.lock"))
    os.symlink(str(outside / "other.json"), str(library / "state.sync-conflict-20260101-000000-PEER7.json"))
    before_listing = listing(outside)

    app.start()
    said = toast(app, "link to another file", timeout=30)
    assert "state.json.corrupt-" in said, said
    # A change is saved: into the library's own journal, beside the link set aside (nothing outside is written).
    app.focus()
    app.key("ctrl+n")
    state = app.wait_state(lambda s: len(s["galleries"]) >= 2, 30, "the new gallery saved in the library")
    assert "Read through a link" not in [g["name"] for g in state["galleries"]], state
    journal = library / "journal"
    assert os.path.isdir(str(journal)) and not os.path.islink(str(journal))
    assert [n for n in os.listdir(str(journal)) if n.endswith(".log") and os.path.isfile(str(journal / n))
            and not os.path.islink(str(journal / n))], os.listdir(str(journal))
    app.stop()
    assert listing(outside) == before_listing
    corrupt = [n for n in os.listdir(str(library)) if n.startswith("state.json.corrupt-")]
    assert len(corrupt) == 1 and os.readlink(str(library / corrupt[0])) == str(outside / "notes.txt")
    # The lock and the conflict copy are left as they were: the journal locks nothing in the folder and takes in no
    # conflict copy.
    assert os.readlink(str(library / ".state.json.lock")) == str(outside / "made-by-the-lock")
    copy = library / "state.sync-conflict-20260101-000000-PEER7.json"
    assert os.readlink(str(copy)) == str(outside / "other.json")


def test_a_drag_out_never_hands_out_what_replaced_a_kept_original(desktop, make_app, http_server, tmp_path):
    served = [http_server.add_image(*spec) for spec in SPECS]
    app = make_app(gallery_state(served))
    app.start()
    app.wait_settled(expected_count=2)
    originals = wait_kept(app, [image.url for image in served])
    app.stop()
    # The first original replaced by a link to someone's file, with its server gone: nothing else holds its bytes.
    secret = tmp_path / "id_rsa"
    secret.write_bytes(b"-----BEGIN OPENSSH PRIVATE KEY-----\n")
    path = kept_file(app, originals[served[0].url]["sha256"])
    os.unlink(path)
    os.symlink(str(secret), path)
    http_server.stop()
    app.start()
    app.resize(900, 700)
    app.wait_cells(lambda cs: len(cs) == 2 and all(c.settled for c in cs), 30, what="both cells settled")
    target = DropTarget(desktop, tmp_path, "text/uri-list")
    try:
        desktop.drag(app.cells()[0].center, (1100, 250), steps=40, hold_at_end=0.8)
        kind, data = target.received()
    finally:
        target.stop()
    assert kind == "text/uri-list"
    for uri in [line for line in data.decode().split("\r\n") if line]:
        parsed = urlparse(uri)
        if parsed.scheme == "file":
            with open(unquote(parsed.path), "rb") as f:
                assert f.read() != secret.read_bytes(), "the drag-out handed out %s, the link's target" % uri
    assert os.path.islink(path) and os.readlink(path) == str(secret)
