"""Issue 43, end to end: a library in a folder the user chose (one a sync tool may share with another person) whose
state.json another computer wrote. A `file://` address naming a key or a text file on this computer never leaves the
app as a file: Ctrl+A Ctrl+C offers its address as text alone, Save to Folder, Export and a drag out leave it out, and
its measured shape is not written back. An address on this computer or its network (here the test server on
127.0.0.1) is not asked for until the user loads it (Enter, a double-click or the cell's menu); then it loads and is
kept like any other image, and the approval stays in this computer's own state folder."""
import json
import os
import subprocess
import sys
import textwrap
import urllib.parse

import harness
from actions_helpers import choose, file_chooser, read_clipboard, right_click, menu_item, toast, type_into_chooser, \
    wait_clipboard
from drag_helpers import click, click_node
from harness import wait_until
from test_add_and_export import choose_folder, chooser, keep_shot, open_main_menu_item
from test_drag_out import DropTarget
from test_synced_library import place_library

SECRET = b"-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQ-the-bystanders-key\n" \
         b"-----END OPENSSH PRIVATE KEY-----\n"
NOTES = b"<?xml version=\"1.0\"?>\n<notes><svg>not an image: an svg element inside a document of notes</svg></notes>\n"
GALLERY = "6c1e0d2a-0000-4000-8000-0000000fee43"


def bystander_files(tmp_path):
    """A private key and a text file of this computer's user, and one of their pictures."""
    home = tmp_path / "bystander"
    (home / ".ssh").mkdir(parents=True)
    (home / ".ssh" / "id_rsa").write_bytes(SECRET)
    (home / "notes.xml").write_bytes(NOTES)
    (home / "Pictures").mkdir()
    (home / "Pictures" / "teal.png").write_bytes(harness.png_bytes(120, 80, (0, 128, 128)))
    return {name: harness.file_url(str(path)) for name, path in (
        ("key", home / ".ssh" / "id_rsa"), ("notes", home / "notes.xml"), ("teal", home / "Pictures" / "teal.png"))}


def peer_library(make_app, tmp_path, urls):
    """An app whose library is in a folder the user chose, with the state another computer wrote: every ratio 0,
    so that the app measures them."""
    folder = tmp_path / "Sync" / "Gallery"
    folder.mkdir(parents=True)
    images = [{"id": "peer-%02d" % i, "url": url, "aspectRatio": 0} for i, url in enumerate(urls)]
    (folder / "state.json").write_text(json.dumps(
        {"version": 1, "galleries": [{"id": GALLERY, "name": "Gallery", "images": images}]}))
    app = make_app(None)
    place_library(app.root, str(folder))
    return app, folder


def by_url(cells):
    return {c.url: c for c in cells}


def test_files_another_computer_names_leave_only_as_their_address(make_app, desktop, tmp_path):
    files = bystander_files(tmp_path)
    urls = [files["key"], files["teal"], files["notes"]]
    app, folder = peer_library(make_app, tmp_path, urls)
    app.start()
    app.resize(900, 700)  # room beside the window for the drop target
    cells = by_url(app.wait_cells(lambda cs: len(cs) == 3 and all(c.settled for c in cs)
                                  and by_url(cs)[files["key"]].error and by_url(cs)[files["notes"]].error, 30,
                                  what="the key and the notes as errors, the picture shown"))
    assert cells[files["teal"]].error is None, cells[files["teal"]]

    # Everything copied: the picture as a file, the key and the notes as their addresses alone.
    app.focus()
    app.key("ctrl+a ctrl+c")
    wait_clipboard(desktop, "UTF8_STRING", lambda data: data.decode() == "\n".join(urls))
    targets = read_clipboard(desktop, "TARGETS").decode().split()
    assert "text/uri-list" in targets and "x-special/gnome-copied-files" in targets, targets
    assert read_clipboard(desktop, "text/uri-list").decode().split() == [files["teal"]]
    assert read_clipboard(desktop, "x-special/gnome-copied-files").decode().split("\n") == ["copy", files["teal"]]
    for target in targets:
        if target not in ("TARGETS", "TIMESTAMP", "MULTIPLE", "SAVE_TARGETS"):
            offered = read_clipboard(desktop, target)
            assert SECRET not in offered and NOTES not in offered, target

    # The key alone: its address as text, no file, no picture.
    click(desktop, cells[files["key"]].center)
    app.key("ctrl+c")
    wait_clipboard(desktop, "UTF8_STRING", lambda data: data.decode() == files["key"])
    targets = read_clipboard(desktop, "TARGETS").decode().split()
    for target in ("text/uri-list", "x-special/gnome-copied-files", "image/png"):
        assert target not in targets, targets

    # Dragged out to a file manager: no file of the key.
    target = DropTarget(desktop, tmp_path, "text/uri-list")
    try:
        desktop.drag(cells[files["key"]].center, (1100, 250), steps=40, hold_at_end=0.8)
        _, data = target.received()
    finally:
        target.stop()
    assert data.decode().split() == [], data

    # Save to Folder: the picture is saved, the other two are not.
    saved = tmp_path / "saved"
    saved.mkdir()
    app.key("ctrl+a")
    choose(app, desktop, cells[files["teal"]], "Save to Folder…")
    file_chooser(app, "Save to Folder")
    app.key("ctrl+l")
    type_into_chooser(desktop, str(saved))
    message = toast(app, "could not be saved")
    assert "not an image" in message, message
    assert os.listdir(saved) == ["teal.png"]

    # Export: the picture alone, and the summary says two were left out.
    exported = tmp_path / "exported"
    exported.mkdir()
    app.focus()
    open_main_menu_item(app, "Export Gallery…")
    choose_folder(app, chooser(app, "Export “Gallery”"), exported, "Export")
    message = toast(app, "exported to", timeout=60)
    assert "without 2 images" in message and "not an image" in message, message
    out = exported / "Gallery"
    written = sorted(os.listdir(out))
    assert [name for name in written if not name.endswith((".xmp", ".json"))] == ["002 teal.png"], written
    for name in written:
        content = (out / name).read_bytes()
        assert SECRET not in content and b"not an image: an svg" not in content, name

    # No measured ratio of a file here went into the shared state (an edit makes sure the app has saved).
    app.key("ctrl+n")
    wait_until(lambda: len(app.state()["galleries"]) == 2, 20, 0.2, "the new gallery saved")
    assert [image["aspectRatio"] for image in app.state()["galleries"][0]["images"]] == [0, 0, 0]
    app.stop()


_TEXT_OWNER = textwrap.dedent("""
    import sys
    import gi
    gi.require_version("Gtk", "3.0")
    from gi.repository import Gdk, Gtk
    Gtk.Clipboard.get(Gdk.SELECTION_CLIPBOARD).set_text(sys.argv[1], -1)
    print("owned", flush=True)
    Gtk.main()
""")


def shown(cell):
    return cell.settled and cell.error is None and set(cell.states) <= {"selected"}


def journal_payloads(content):
    """Every record's payload in a journal file (a log or a snapshot): a line each, its JSON after an 18-character
    header."""
    lines = content.split(b"\n")
    assert lines[-1] == b"", "a record cut short"
    return [json.loads(line[18:]) for line in lines[:-1]]


def elsewhere_than_an_image_address(value, addresses, key=None, holder=None):
    """Where one of `addresses` appears in `value` other than as an image's own `url` (an object with an `id`)."""
    if isinstance(value, dict):
        return [found for name, item in value.items()
                for found in elsewhere_than_an_image_address(item, addresses, name, value)]
    if isinstance(value, list):
        return [found for item in value for found in elsewhere_than_an_image_address(item, addresses, key, holder)]
    if isinstance(value, str) and any(url in value for url in addresses):
        if not (key == "url" and value in addresses and "id" in holder):
            return [(key, value)]
    return []


def approvals(app):
    path = os.path.join(app.root, ".local", "state", "image-gallery", "local-addresses.json")
    try:
        with open(path) as f:
            return json.load(f)["approved"]
    except (OSError, ValueError):
        return []


def test_an_address_on_this_computer_from_another_one_loads_only_once_the_user_says_so(make_app, http_server, desktop,
                                                                                       tmp_path):
    red, green, blue = (http_server.add_image(*spec) for spec in harness.DISTINCT_IMAGES[:3])
    app, folder = peer_library(make_app, tmp_path, [red.url, green.url])
    written = (folder / "state.json").read_bytes()
    app.start()
    cells = by_url(app.wait_cells(lambda cs: len(cs) == 2 and all("on your local network" in c.name for c in cs), 30,
                                  what="both cells waiting for the user's word"))
    keep_shot(app, "on-your-local-network.png")
    assert http_server.requests() == [], http_server.requests()
    # Started again: still nothing asked, nothing kept.
    app.stop()
    app.start()
    cells = by_url(app.wait_cells(lambda cs: len(cs) == 2 and all("on your local network" in c.name for c in cs), 30,
                                  what="both cells still waiting"))
    assert http_server.requests() == [], http_server.requests()
    assert not any(image.get("original") for image in app.state()["galleries"][0]["images"])

    # A double-click loads it, and it is kept in the library like any other image.
    desktop.move_to(*cells[red.url].center)
    desktop.xdotool("click", "--repeat", 2, "--delay", 80, 1)
    app.wait_cells(lambda cs: shown(by_url(cs)[red.url]), 30, what="the red image shown")
    assert http_server.hits(red.path) >= 1
    wait_until(lambda: app.state()["galleries"][0]["images"][0].get("original"), 20, 0.2,
               "the red image kept in the library")
    assert http_server.hits(green.path) == 0

    # The cell's menu loads the other.
    right_click(desktop, cells[green.url])
    click_node(desktop, menu_item(app, "Load From Local Network"))
    app.wait_cells(lambda cs: shown(by_url(cs)[green.url]), 30, what="the green image shown")
    wait_until(lambda: app.state()["galleries"][0]["images"][1].get("original"), 20, 0.2,
               "the green image kept in the library")

    # An address the user pastes here is theirs: it loads at once.
    env = desktop.base_env()
    env["NO_AT_BRIDGE"] = "1"
    owner = subprocess.Popen([sys.executable, "-c", _TEXT_OWNER, blue.url], env=env, stdout=subprocess.PIPE)
    try:
        assert owner.stdout.readline().strip() == b"owned"
        app.focus()
        app.key("ctrl+v")
        app.wait_cells(lambda cs: len(cs) == 3 and all(shown(c) for c in cs), 30, what="the pasted image shown")
    finally:
        owner.terminate()
    # The approvals are this computer's own, never in the shared folder: the addresses are there only as the
    # images' own, in the state file the other computer wrote and in the journal's records of those images.
    assert sorted(approvals(app)) == sorted([red.url, green.url, blue.url])
    app.stop()
    addresses = [red.url, green.url, blue.url]
    for root, _, names in os.walk(folder):
        for name in names:
            path = os.path.join(root, name)
            with open(path, "rb") as f:
                content = f.read()
            if path == os.path.join(folder, "state.json"):
                assert content == written, path
            elif os.path.dirname(path) == os.path.join(folder, "journal"):
                assert not elsewhere_than_an_image_address(journal_payloads(content), addresses), path
            else:
                assert not any(url.encode() in content for url in addresses), path
