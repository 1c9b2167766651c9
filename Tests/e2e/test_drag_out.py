"""Dragging images out of the gallery into another application (MISSION.md M12): a file manager or a
chat app gets local files with readable names (text/uri-list), a browser the web address (text/x-moz-url).
A drag of the user's own files (file://) offers other applications copy alone, never move (issue 30), and
still moves between the app's own galleries.

The other application is a small GTK 3 drop target in its own process that writes what it received."""
import base64
import json
import os
import subprocess
import sys
import time
from urllib.parse import unquote, urlparse

import harness
from drag_helpers import click, name_of
from test_galleries import centre, drag_cells, row, wait_state

GDK_ACTION_COPY, GDK_ACTION_MOVE = 2, 4

TARGET_PROGRAM = r'''
import base64, json, sys
import gi
gi.require_version("Gtk", "3.0")
from gi.repository import Gtk, Gdk
out_path, wanted = sys.argv[1], sys.argv[2]
window = Gtk.Window(title="Drop Target")
window.set_default_size(300, 300)
window.move(960, 100)
area = Gtk.EventBox()
area.add(Gtk.Label(label="DROP HERE"))
window.add(area)
area.drag_dest_set(Gtk.DestDefaults.ALL, [Gtk.TargetEntry.new(wanted, 0, 0)], Gdk.DragAction.COPY)
def received(_widget, _context, _x, _y, data, _info, _time):
    with open(out_path, "w") as out:
        json.dump({"target": data.get_target().name(), "bytes": base64.b64encode(data.get_data() or b"").decode(),
                   "actions": int(_context.get_actions())}, out)
area.connect("drag-data-received", received)
window.connect("map-event", lambda *a: print("ready", flush=True))
window.connect("destroy", Gtk.main_quit)
window.show_all()
Gtk.main()
'''


class DropTarget:
    def __init__(self, desktop, tmp_path, wanted):
        self.out = str(tmp_path / "received.json")
        program = tmp_path / "drop_target.py"
        program.write_text(TARGET_PROGRAM)
        env = desktop.base_env()
        env["NO_AT_BRIDGE"] = "1"
        self.proc = subprocess.Popen(["/usr/bin/python3", str(program), self.out, wanted], env=env,
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        line = self.proc.stdout.readline()
        assert line.strip() == "ready", "the drop target did not start: %s" % self.proc.stderr.read()

    def received(self, timeout=15):
        def read():
            if os.path.exists(self.out):
                with open(self.out) as source:
                    return json.load(source)
            return None
        result = harness.wait_until(read, timeout, 0.1, "the drop target to receive data")
        self.actions = result["actions"]
        return result["target"], base64.b64decode(result["bytes"])

    def stop(self):
        self.proc.terminate()
        self.proc.wait(10)


def start_gallery(make_app, http_server):
    images, served = [], []
    for name, width, height, rgb, fmt in harness.DISTINCT_IMAGES[:3]:
        image = http_server.add_image(name, width, height, rgb, fmt)
        served.append(image)
        images.append({"id": name, "url": image.url, "aspectRatio": width / height})
    app = make_app({"version": 1, "galleries": [{"id": "g", "name": "Gallery", "images": images}]})
    app.start()
    app.resize(900, 700)
    app.wait_settled(expected_count=3)
    return app, images, served


def drag_first_cell_to(app, desktop, x, y):
    cell = app.cells()[0]
    desktop.drag(cell.center, (x, y), steps=40, hold_at_end=0.8)


def test_file_manager_gets_a_named_file_with_the_image_bytes(desktop, make_app, http_server, tmp_path):
    app, images, served = start_gallery(make_app, http_server)
    before = app.state_bytes()
    target = DropTarget(desktop, tmp_path, "text/uri-list")
    try:
        drag_first_cell_to(app, desktop, 1100, 250)
        kind, data = target.received()
    finally:
        target.stop()
    assert kind == "text/uri-list"
    # An image from the web may be moved out: the gallery only gives it up when it is the destination.
    assert target.actions & GDK_ACTION_MOVE, target.actions
    uris = [line for line in data.decode().split("\r\n") if line]
    assert len(uris) == 1, uris
    parsed = urlparse(uris[0])
    assert parsed.scheme == "file", "a file manager needs a local file, got %r" % uris[0]
    path = unquote(parsed.path)
    assert os.path.basename(path) == "red.png", path
    with open(path, "rb") as local:
        assert local.read() == served[0].data
    # A copy out is not a move: the gallery keeps its image, and nothing is saved.
    time.sleep(0.5)
    assert [c.url for c in app.cells()] == [image["url"] for image in images]
    assert app.state_bytes() == before


def test_browser_gets_the_web_address(desktop, make_app, http_server, tmp_path):
    app, images, _ = start_gallery(make_app, http_server)
    target = DropTarget(desktop, tmp_path, "text/x-moz-url")
    try:
        drag_first_cell_to(app, desktop, 1100, 250)
        kind, data = target.received()
    finally:
        target.stop()
    assert kind == "text/x-moz-url"
    url, title = data.decode("utf-16-le").split("\n")
    assert url == images[0]["url"]
    assert title == "red.png"


def test_the_users_own_files_are_offered_as_a_copy_and_still_move_between_galleries(desktop, make_app, tmp_path):
    pictures = tmp_path / "Pictures"
    pictures.mkdir()
    files = []
    for name, width, height, rgb, fmt in harness.DISTINCT_IMAGES[:3]:
        path = pictures / ("%s.%s" % (name, fmt))
        path.write_bytes(harness.encoded_image(width, height, rgb, fmt))
        files.append({"id": name, "url": harness.file_url(str(path)), "aspectRatio": width / height, "path": str(path)})
    app = make_app({"version": 1, "galleries": [
        {"id": "g", "name": "Gallery", "images": [{k: f[k] for k in ("id", "url", "aspectRatio")} for f in files]},
        {"id": "o", "name": "Other", "images": []}]})
    app.start()
    app.resize(900, 700)
    app.wait_settled(expected_count=3)
    before = app.state_bytes()
    target = DropTarget(desktop, tmp_path, "text/uri-list")
    try:
        drag_first_cell_to(app, desktop, 1100, 250)
        kind, data = target.received()
    finally:
        target.stop()
    assert kind == "text/uri-list"
    assert target.actions & GDK_ACTION_COPY, target.actions
    assert not target.actions & GDK_ACTION_MOVE, "a file manager was offered to move the user's file away"
    assert [line for line in data.decode().split("\r\n") if line] == [files[0]["url"]]
    assert os.path.exists(files[0]["path"])
    time.sleep(0.5)
    assert app.state_bytes() == before

    # Between the app's own galleries the same drag moves, and copies with Ctrl held.
    app.focus()
    cells = app.wait_settled(expected_count=3)
    click(desktop, cells[0].center)
    drag_cells(desktop, cells[0].center, centre(row(app, "Other")))
    names = [name_of(f["url"]) for f in files]
    wait_state(app, lambda s: [[name_of(i["url"]) for i in g["images"]] for g in s["galleries"]]
               == [names[1:], names[:1]], "the file's image moved to Other")
    cells = app.wait_settled(expected_count=2)
    click(desktop, cells[0].center)
    drag_cells(desktop, cells[0].center, centre(row(app, "Other")), copy=True)
    wait_state(app, lambda s: [[name_of(i["url"]) for i in g["images"]] for g in s["galleries"]]
               == [names[1:], names[:2]], "the file's image copied to Other with Ctrl")
    assert all(os.path.exists(f["path"]) for f in files)
