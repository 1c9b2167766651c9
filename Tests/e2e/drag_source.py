#!/usr/bin/python3
"""A stand-in for "another application" that images are dragged from: a tiny python3-gi GTK 3 window whose one
widget is an XDND drag source offering exactly the targets and bytes a test asks for.

As a program (run by `DragSource`, with the test desktop's DISPLAY and D-Bus environment):

    drag_source.py SPEC.json

SPEC is either a list of targets, or an object:

    {"targets": [{"target": "text/uri-list", "data_b64": "..."}, ...],   # or "text": "...", or "file": PATH
                                                                          # (data too large for the spec)
     "x": 960, "y": 120, "width": 280, "height": 200,                    # where the window goes (root coords)
     "label": "Drag me", "actions": ["copy", "move", "link"],
     "withhold_first": false}                                            # true: each target's first answer is empty,
                                                                          # like a source that gives data only on drop

It prints one line per event on stdout (flushed):
    ready X Y W H            the widget is mapped and drawn; its extents in root coordinates
    drag-begin
    data-get TARGET          the destination asked for TARGET (once per request)
    failed RESULT            drag-failed (RESULT: no-target, user-cancelled, timeout-expired, grab-broken, error)
    drag-end succeeded=yes|no action=ACTION
                             the drag is over; succeeded is gdk_drag_drop_succeeded (the drop site's
                             XdndFinished said it accepted the drop), ACTION the action it chose ("none" if it
                             refused)

As a module: `DragSource(desktop, targets, ...)` starts the program and reads those lines; `drag_into` drags from
it to a point with real pointer input (xdotool), optionally looking at the screen before releasing.

Debian packages: python3-gi, gir1.2-gtk-3.0 (and the harness's).
"""

import base64
import json
import os
import subprocess
import sys
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))


# ------------------------------------------------------------------------------------------------------------
# The program
# ------------------------------------------------------------------------------------------------------------

def _say(*words):
    sys.stdout.write(" ".join(str(w) for w in words) + "\n")
    sys.stdout.flush()


def _main(spec_path):
    import gi
    gi.require_version("Gtk", "3.0")
    gi.require_version("Gdk", "3.0")
    from gi.repository import Gdk, GLib, Gtk

    with open(spec_path) as f:
        spec = json.load(f)
    if isinstance(spec, list):
        spec = {"targets": spec}
    targets = []
    for entry in spec["targets"]:
        if "data_b64" in entry:
            data = base64.b64decode(entry["data_b64"])
        elif "file" in entry:
            with open(entry["file"], "rb") as f:
                data = f.read()
        else:
            data = entry.get("text", "").encode("utf-8")
        targets.append((entry["target"], data))
    x, y = int(spec.get("x", 960)), int(spec.get("y", 120))
    width, height = int(spec.get("width", 280)), int(spec.get("height", 200))
    actions = 0
    for name in spec.get("actions", ["copy", "move", "link"]):
        actions |= {"copy": Gdk.DragAction.COPY, "move": Gdk.DragAction.MOVE, "link": Gdk.DragAction.LINK}[name]

    window = Gtk.Window(title=spec.get("title", "Drag source"))
    window.set_default_size(width, height)
    window.move(x, y)
    window.set_resizable(False)
    box = Gtk.EventBox()
    box.set_visible_window(True)
    label = Gtk.Label(label=spec.get("label", "Drag me\n" + "\n".join(t for t, _ in targets)))
    label.set_line_wrap(True)
    box.add(label)
    window.add(box)
    css = Gtk.CssProvider()
    css.load_from_data(b"eventbox { background-color: #9a9996; } label { color: #000000; }")
    Gtk.StyleContext.add_provider_for_screen(Gdk.Screen.get_default(), css,
                                             Gtk.STYLE_PROVIDER_PRIORITY_APPLICATION)

    entries = [Gtk.TargetEntry.new(name, 0, i) for i, (name, _) in enumerate(targets)]
    box.drag_source_set(Gdk.ModifierType.BUTTON1_MASK, entries, Gdk.DragAction(actions))

    def on_begin(_widget, _context):
        _say("drag-begin")

    answered = set()

    def on_data_get(_widget, _context, selection, info, _time):
        name, data = targets[info]
        _say("data-get", name)
        if spec.get("withhold_first") and name not in answered:
            data = b""
        answered.add(name)
        selection.set(Gdk.Atom.intern(name, False), 8, data)

    results = {Gtk.DragResult.SUCCESS: "success", Gtk.DragResult.NO_TARGET: "no-target",
               Gtk.DragResult.USER_CANCELLED: "user-cancelled", Gtk.DragResult.TIMEOUT_EXPIRED: "timeout-expired",
               Gtk.DragResult.GRAB_BROKEN: "grab-broken", Gtk.DragResult.ERROR: "error"}

    def on_failed(_widget, _context, result):
        _say("failed", results.get(result, str(int(result))))
        return True  # no "snap back" animation: the drag ends at once

    def action_name(action):
        for name, flag in (("copy", Gdk.DragAction.COPY), ("move", Gdk.DragAction.MOVE),
                           ("link", Gdk.DragAction.LINK), ("ask", Gdk.DragAction.ASK)):
            if action & flag:
                return name
        return "none"

    def on_end(_widget, context):
        succeeded = Gdk.drag_drop_succeeded(context)
        _say("drag-end", "succeeded=%s" % ("yes" if succeeded else "no"),
             "action=%s" % action_name(context.get_selected_action()))

    box.connect("drag-begin", on_begin)
    box.connect("drag-data-get", on_data_get)
    box.connect("drag-failed", on_failed)
    box.connect("drag-end", on_end)
    window.connect("destroy", Gtk.main_quit)

    def report_ready(*_args):
        def later():
            gdk_window = box.get_window()
            if gdk_window is None:
                return True
            _, ox, oy = gdk_window.get_origin()
            alloc = box.get_allocation()
            _say("ready", ox, oy, alloc.width, alloc.height)
            return False
        # after the first frame is drawn, so the window is really on screen
        GLib.timeout_add(150, later)
        return False

    window.connect("map-event", report_ready)
    window.show_all()
    Gtk.main()


# ------------------------------------------------------------------------------------------------------------
# The test side
# ------------------------------------------------------------------------------------------------------------

def target(name, data):
    """One target of a drag: name and bytes (str is encoded as UTF-8)."""
    if isinstance(data, str):
        data = data.encode("utf-8")
    return {"target": name, "data_b64": base64.b64encode(data).decode("ascii")}


def target_from_file(name, path):
    """One target of a drag whose bytes are read from the file at `path` (megabytes, kept out of the spec)."""
    return {"target": name, "file": str(path)}


def uri_list(*uris):
    """text/uri-list data as RFC 2483 says: CRLF after each URI."""
    return "".join(u + "\r\n" for u in uris)


class DragSource:
    """The drag-source program on the test desktop. `targets`: [target(name, data)] (or (name, data) pairs).
    start() waits for "ready"; `box`/`center` are the widget's extents; `lines` everything it printed."""

    def __init__(self, desktop, targets, x=960, y=120, width=280, height=200, label=None, workdir=None,
                 withhold_first=False):
        self.desktop = desktop
        self.spec = {"targets": [t if isinstance(t, dict) else target(*t) for t in targets],
                     "x": x, "y": y, "width": width, "height": height, "withhold_first": withhold_first}
        if label:
            self.spec["label"] = label
        self.workdir = workdir
        self.proc = None
        self.lines = []
        self.box = None
        self._eof = False
        self._cond = threading.Condition()

    def start(self, timeout=20):
        import tempfile
        folder = self.workdir or tempfile.mkdtemp(prefix="drag-source-")
        os.makedirs(folder, exist_ok=True)
        spec_path = os.path.join(folder, "drag-source-%d.json" % id(self))
        with open(spec_path, "w") as f:
            json.dump(self.spec, f)
        self.stderr_path = spec_path[:-5] + ".stderr"
        env = self.desktop.base_env()
        env["NO_AT_BRIDGE"] = "1"  # not an app under test: keep it off the AT-SPI bus
        self._stderr = open(self.stderr_path, "wb")
        self.proc = subprocess.Popen(["/usr/bin/python3", os.path.abspath(__file__), spec_path], env=env,
                                     stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=self._stderr)
        threading.Thread(target=self._read, daemon=True).start()
        line = self.wait_for("ready", timeout)
        x, y, w, h = (int(v) for v in line.split()[1:5])
        self.box = (x, y, w, h)
        return self

    def _read(self):
        for raw in self.proc.stdout:
            with self._cond:
                self.lines.append(raw.decode(errors="replace").strip())
                self._cond.notify_all()
        with self._cond:
            self._eof = True
            self._cond.notify_all()

    @property
    def center(self):
        x, y, w, h = self.box
        return (x + w // 2, y + h // 2)

    def stderr(self):
        try:
            with open(self.stderr_path, "rb") as f:
                return f.read().decode(errors="replace")
        except OSError:
            return ""

    def find(self, prefix):
        """The first line printed that starts with prefix, or None."""
        with self._cond:
            return next((line for line in self.lines if line.startswith(prefix)), None)

    def wait_for(self, prefix, timeout=10):
        """The first line starting with prefix; fails (AssertionError) after timeout with what was printed."""
        deadline = time.monotonic() + timeout
        with self._cond:
            while True:
                found = next((line for line in self.lines if line.startswith(prefix)), None)
                if found is not None:
                    return found
                left = deadline - time.monotonic()
                exited = self.proc.poll() if self._eof else None
                if left <= 0 or self._eof:
                    raise AssertionError("the drag source never printed %r within %.0fs; it printed %r%s; stderr: %s"
                                         % (prefix, timeout, self.lines,
                                            "" if exited is None else " and exited (%s)" % exited,
                                            self.stderr()[-2000:]))
                self._cond.wait(min(left, 0.2))

    def data_requests(self):
        """The targets the drop site asked for, in order."""
        with self._cond:
            return [line.split(" ", 1)[1] for line in self.lines if line.startswith("data-get ")]

    def stop(self):
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)
        if getattr(self, "_stderr", None):
            self._stderr.close()

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.stop()

    def drag_into(self, to_xy, steps=30, step_delay=0.03, hover=0.6, while_hovering=None, release=True):
        """A real XDND drag from the widget's centre to to_xy (like Desktop.drag: press, small moves past GTK's
        drag threshold, `steps` moves, a wiggle at the end), then `hover` seconds there. while_hovering(), if
        given, runs before the release (the drag still on); its result is returned. The button is always
        released, also when while_hovering fails."""
        return self.desktop.drag(self.center, to_xy, steps=steps, step_delay=step_delay, hold_at_end=hover,
                                 while_hovering=while_hovering, release=release)


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.stderr.write("usage: drag_source.py SPEC.json\n")
        sys.exit(2)
    _main(sys.argv[1])
