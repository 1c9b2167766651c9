#!/usr/bin/python3
"""A tiny python3-gi GTK 3 stand-in for the real app, used only to test the e2e harness itself.

It follows the app's contract closely enough for the harness plumbing (Xvfb, D-Bus, AT-SPI, screenshots,
xdotool) to be exercised without the Swift binary:
  - window titled "Image Gallery"; an object of role LAYERED_PANE named "Gallery" whose children are
    role IMAGE cells (name = file name [+ ", loading" / ", error: <reason>"], description = URL);
  - a widget named "Trash";
  - state from $XDG_DATA_HOME/image-gallery/state.json, a cache in $XDG_CACHE_HOME/image-gallery/;
  - empty state text mentions a browser; a corrupt file is moved aside and the window says so.
  - `--print-state` prints the library (state.json less its lineage) without opening a window, as the app does.
It is deliberately simple (a Gtk.Fixed with one Gtk.Image per cell). It never writes state.json.
Run it with:  /usr/bin/python3 Tests/e2e/tools/standin_gallery.py
"""
import base64
import hashlib
import json
import os
import sys
import threading
import time
import urllib.error
import urllib.parse
import urllib.request

import gi

gi.require_version("Gtk", "3.0")
gi.require_version("Gdk", "3.0")
gi.require_version("GdkPixbuf", "2.0")
gi.require_version("Atk", "1.0")
from gi.repository import Atk, Gdk, GdkPixbuf, GLib, Gtk  # noqa: E402

ROW_HEIGHT = 140
GAP = 6
WIDTH = 900


def xdg(name, default):
    return os.environ.get(name) or os.path.expanduser(default)


DATA_DIR = os.path.join(xdg("XDG_DATA_HOME", "~/.local/share"), "image-gallery")
CACHE_DIR = os.path.join(xdg("XDG_CACHE_HOME", "~/.cache"), "image-gallery")


def load_state():
    path = os.path.join(DATA_DIR, "state.json")
    if not os.path.exists(path):
        return [], None
    try:
        with open(path, "rb") as f:
            state = json.loads(f.read().decode("utf-8"))
        return state["galleries"][0]["images"], None
    except (ValueError, KeyError, IndexError, TypeError):
        aside = path + ".corrupt-" + time.strftime("%Y%m%d-%H%M%S")
        os.rename(path, aside)
        return [], "Your gallery could not be read. It was kept as " + os.path.basename(aside)


def fetch(url):
    """Returns the image bytes of url, from the cache when the network fails. Raises RuntimeError(reason)."""
    if url.startswith("data:"):
        header, _, payload = url.partition(",")
        return base64.b64decode(payload) if header.endswith(";base64") else urllib.parse.unquote_to_bytes(payload)
    if url.startswith("file://"):
        with open(urllib.parse.unquote(urllib.parse.urlparse(url).path), "rb") as f:
            return f.read()
    cache = os.path.join(CACHE_DIR, hashlib.sha256(url.encode()).hexdigest())
    if os.path.exists(cache):
        with open(cache, "rb") as f:
            return f.read()
    try:
        with urllib.request.urlopen(url, timeout=20) as response:
            data = response.read()
    except urllib.error.HTTPError as e:
        raise RuntimeError("HTTP %d" % e.code)
    except OSError as e:
        raise RuntimeError("network error: %s" % e)
    os.makedirs(CACHE_DIR, exist_ok=True)
    with open(cache + ".tmp", "wb") as f:
        f.write(data)
    os.rename(cache + ".tmp", cache)
    return data


class Cell:
    def __init__(self, image):
        self.url = image["url"]
        self.aspect = float(image.get("aspectRatio") or 1.0)
        self.label = os.path.basename(urllib.parse.urlparse(self.url).path) or "image"
        if self.url.startswith("data:"):
            self.label = "data image"
        self.widget = Gtk.Image()
        self.error = None
        self.pixbuf = None
        self.accessible = self.widget.get_accessible()
        self.accessible.set_role(Atk.Role.IMAGE)
        self.accessible.set_description(self.url)
        self.update_name()

    def update_name(self):
        if self.error:
            name = "%s, error: %s" % (self.label, self.error)
        elif self.pixbuf is None:
            name = "%s, loading" % self.label
        else:
            name = self.label
        self.accessible.set_name(name)

    def size(self):
        if self.error:
            return ROW_HEIGHT, ROW_HEIGHT
        return max(1, round(ROW_HEIGHT * self.aspect)), ROW_HEIGHT


class Window(Gtk.ApplicationWindow):
    def __init__(self, app):
        super().__init__(application=app, title="Image Gallery")
        self.set_default_size(WIDTH + 40, 760)
        box = Gtk.Box(orientation=Gtk.Orientation.VERTICAL)
        self.add(box)
        images, problem = load_state()
        if problem:
            box.pack_start(Gtk.Label(label=problem), False, False, 6)
        scroller = Gtk.ScrolledWindow()
        scroller.set_policy(Gtk.PolicyType.NEVER, Gtk.PolicyType.AUTOMATIC)
        box.pack_start(scroller, True, True, 0)
        self.fixed = Gtk.Fixed()
        acc = self.fixed.get_accessible()
        acc.set_role(Atk.Role.LAYERED_PANE)
        acc.set_name("Gallery")
        scroller.add(self.fixed)
        if not images and not problem:
            box.pack_start(Gtk.Label(label="Drag images here from your web browser"), False, False, 6)
        trash = Gtk.Button(label="Trash")
        trash.get_accessible().set_name("Trash")
        box.pack_end(trash, False, False, 6)
        self.cells = [Cell(image) for image in images]
        for cell in self.cells:
            self.fixed.put(cell.widget, 0, 0)
            threading.Thread(target=self.load, args=(cell,), daemon=True).start()
        self.relayout()

    def relayout(self):
        x, y = GAP, GAP
        for cell in self.cells:
            w, h = cell.size()
            if x + w > WIDTH and x > GAP:
                x, y = GAP, y + ROW_HEIGHT + GAP
            self.fixed.move(cell.widget, x, y)
            cell.widget.set_size_request(w, h)
            x += w + GAP

    def load(self, cell):
        try:
            data = fetch(cell.url)
            loader = GdkPixbuf.PixbufLoader()
            loader.write(data)
            loader.close()
            pixbuf = loader.get_pixbuf()
            w, h = cell.size()
            pixbuf = pixbuf.scale_simple(w, h, GdkPixbuf.InterpType.BILINEAR)
            GLib.idle_add(self.loaded, cell, pixbuf, None)
        except (RuntimeError, GLib.Error, OSError, ValueError) as e:
            GLib.idle_add(self.loaded, cell, None, str(e) or type(e).__name__)

    def loaded(self, cell, pixbuf, error):
        cell.pixbuf, cell.error = pixbuf, error
        if pixbuf is not None:
            cell.widget.set_from_pixbuf(pixbuf)
        else:
            cell.widget.set_from_icon_name("image-missing", Gtk.IconSize.DIALOG)
        cell.update_name()
        self.relayout()
        return False


class App(Gtk.Application):
    def __init__(self):
        super().__init__(application_id="io.github.imagegallery.StandIn")
        self.window = None

    def do_activate(self):
        if self.window is None:
            self.window = Window(self)
            self.window.show_all()
        self.window.present()


def print_state():
    try:
        with open(os.path.join(DATA_DIR, "state.json"), "rb") as f:
            state = json.loads(f.read().decode("utf-8"))
    except (OSError, ValueError) as e:
        sys.stderr.write("standin: %s\n" % e)
        return 1
    state.pop("revision", None)
    state.pop("ancestors", None)
    sys.stdout.write(json.dumps(state))
    return 0


if __name__ == "__main__":
    if sys.argv[1:] == ["--print-state"]:
        sys.exit(print_state())
    Gdk.set_allowed_backends("x11")
    sys.exit(App().run(sys.argv))
