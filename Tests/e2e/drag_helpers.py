"""Helpers for the drag-to-reorder (issue 3) and trash (issue 5) end-to-end tests.

  - `gallery_state`, `name_of`, `saved_names`, `wait_saved`, `rows_of`: states made of served images, and what
    the library (`--print-state`) and the accessible cells say about the order;
  - `PointerDrag`: a real pointer drag with xdotool, in pieces (press and pass GTK's drag threshold, move, hover,
    release or press Escape), so a test can look at the screen and the accessible tree mid-drag; as a context
    manager it never leaves the button held or a drag running when a test fails;
  - `cursor_name`: the name of the X pointer's current cursor (XFixes, through ctypes: "dnd-move", "dnd-none"...);
  - `FrameRecorder`: the screen (or a part of it) captured every ~40 ms by a child python3-gi process
    (gdk_pixbuf_get_from_window: XGetImage on the root window, ~5 ms a frame), for animations;
  - `blend_blob`: where a solid-colour image, drawn at any opacity over a neutral background, is in a frame.

Debian packages: python3-gi, gir1.2-gtk-3.0 (Gdk, for the frame recorder), libxfixes3 (cursor names), plus the
harness's.
"""

import ctypes
import json
import os
import subprocess
import time
import uuid

import harness
from harness import HarnessError, wait_until


# ------------------------------------------------------------------------------------------------------------
# States and orders
# ------------------------------------------------------------------------------------------------------------

def image_id(n):
    return str(uuid.UUID(int=0x9B2F3C4E_0000_4000_8000_000000000000 + n))


def gallery_state(images):
    """A state.json document with one gallery holding `images` (ServedImage) in that order, the galleries sidebar
    hidden (as after F9) so the canvas has the whole window, as these tests' geometry expects."""
    return {"version": 1, "sidebarVisible": False, "galleries": [{
        "id": "9b2f3c4e-0000-4000-8000-00000000a11e", "name": "Gallery",
        "images": [{"id": image_id(i + 1), "url": image.url, "aspectRatio": round(image.aspect, 6)}
                   for i, image in enumerate(images)]}]}


def name_of(url):
    """The image's name: 'red' for http://127.0.0.1:1234/img/red.png."""
    return url.rsplit("/", 1)[-1].rsplit(".", 1)[0]


def saved_names(app, library=None):
    """The order the library holds (`app.state()`, or `library` read earlier), as image names."""
    library = library if library is not None else app.state()
    return [name_of(image["url"]) for image in library["galleries"][0]["images"]]


def cell_names(cells):
    return [name_of(c.url) for c in cells]


def wait_saved(app, expected, timeout=5, what=None):
    """Polls the library until it lists exactly `expected` (image names, in order); returns its bytes (as
    `app.state_bytes()` gives them)."""
    last = {}

    def attempt():
        try:
            last["bytes"] = app.state_bytes()
        except harness.LibraryUnreadable as e:  # before the first save
            last["names"] = repr(e)
            return False
        last["names"] = saved_names(app, harness.document(last["bytes"]))
        return last["names"] == list(expected)

    wait_until(attempt, timeout, 0.05, what or "the library to list %s" % list(expected),
               lambda: "the library lists %s" % (last.get("names"),))
    return last["bytes"]


def wait_order(app, expected, timeout=10, what=None, complete=False):
    """Polls the accessible cells until the visible ones, each settled, are a run of `expected` (names, in
    order): all of it with complete=True, else at least 8 in a row of it (the rest may be scrolled out of
    view). Returns the cells."""
    expected = list(expected)

    def matches(cells):
        names = cell_names(cells)
        if not names or not all(c.settled for c in cells) or names[0] not in expected:
            return False
        if complete:
            return names == expected
        start = expected.index(names[0])
        return len(names) >= min(8, len(expected)) and names == expected[start:start + len(names)]

    return app.wait_cells(matches, timeout, what=what or "the cells to show %s" % expected)


def by_name(cells):
    return {name_of(c.url): c for c in cells}


def rows_of(cells):
    """Cells grouped in rows (same top y), top to bottom."""
    rows = []
    for cell in sorted(cells, key=lambda c: (c.y, c.x)):
        if rows and abs(rows[-1][0].y - cell.y) <= 1:
            rows[-1].append(cell)
        else:
            rows.append([cell])
    return rows


def moved(order, names, index):
    """`order` with `names` taken out and put back together, in their relative order, at `index` of the rest."""
    rest = [n for n in order if n not in names]
    block = [n for n in order if n in names]
    return rest[:index] + block + rest[index:]


def selected_names(cells):
    return [name_of(c.url) for c in cells if c.name.endswith(", selected")]


def wait_selected(app, expected, timeout=5):
    return app.wait_cells(lambda cs: sorted(selected_names(cs)) == sorted(expected), timeout,
                          what="the selection to be %s" % sorted(expected))


def check_colours(shot, cells, colours, tol=30, min_share=0.8):
    """Each cell's centre (half its width and height) shows its image's colour; returns the problems."""
    problems = []
    for cell in cells:
        want = colours[name_of(cell.url)]
        got, share = harness.dominant_colour(shot, cell.box)
        if not harness.colour_close(got, want, tol) or share < min_share:
            problems.append("%s shows %r (%.0f%% of its centre) instead of %r" % (cell, got, share * 100, want))
    return problems


def visible_parts(cells, view):
    """The cells cut to the gallery's visible area (cells half scrolled out keep their visible part); cells
    with less than 40 px showing are left out."""
    vx, vy, vw, vh = view
    out = []
    for c in cells:
        top, bottom = max(c.y, vy), min(c.y + c.height, vy + vh)
        if bottom - top >= 40:
            out.append(harness.Cell(c.index, c.name, c.description, c.x, top, c.width, bottom - top, c.role))
    return out


def screen_problems(app, colours, cells=None):
    """What is wrong with the colours the visible cells show on a screenshot (see check_colours)."""
    cells = app.cells() if cells is None else cells
    return check_colours(app.screenshot(), visible_parts(cells, app.gallery().parent().extents()), colours)


# ------------------------------------------------------------------------------------------------------------
# A pointer drag in pieces
# ------------------------------------------------------------------------------------------------------------

class PointerDrag:
    """press(x, y) presses and passes GTK's drag threshold in small steps; move(x, y) goes somewhere in small
    steps and rests there (with a 1 px wiggle so the target answers XdndPosition at that very point); release()
    drops; escape() cancels with Esc then lets go of the button. As a context manager, a drag still running at
    the end (a failed test) is cancelled with Escape and the button released."""

    def __init__(self, desktop, step_delay=0.025):
        self.desktop = desktop
        self.step_delay = step_delay
        self.pressed = False

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        if self.pressed:
            try:
                self.desktop.key("Escape")
            finally:
                self.desktop.release()
                self.pressed = False
        return False

    def press(self, x, y, direction=(0, 1), distance=24):
        """Presses at (x, y), then moves `distance` px along direction in 2 px steps (past the 8 px threshold)."""
        x, y = int(x), int(y)
        self.desktop.press(x, y)
        self.pressed = True
        time.sleep(0.1)
        dx, dy = direction
        length = max((dx * dx + dy * dy) ** 0.5, 1e-9)
        ux, uy = dx / length, dy / length
        chain = []
        for d in range(2, distance + 1, 2):
            chain += ["mousemove", round(x + ux * d), round(y + uy * d), "sleep", self.step_delay]
        self.desktop.xdotool(*chain)
        self.desktop.pointer = (round(x + ux * distance), round(y + uy * distance))
        time.sleep(0.1)
        return self

    def move(self, x, y, steps=None, rest=0.15):
        """Moves to (x, y) in steps of at most ~25 px (at least 10), wiggles 1 px there and rests."""
        x, y = int(x), int(y)
        x0, y0 = self.desktop.pointer
        if steps is None:
            steps = max(10, int(((x - x0) ** 2 + (y - y0) ** 2) ** 0.5 / 25))
        self.desktop.move(x, y, steps=steps, step_delay=self.step_delay)
        self.desktop.xdotool("mousemove", x + 1, y, "sleep", 0.04, "mousemove", x, y + 1, "sleep", 0.04,
                             "mousemove", x, y)
        self.desktop.pointer = (x, y)
        if rest:
            time.sleep(rest)
        return self

    def release(self):
        self.desktop.release()
        self.pressed = False

    def escape(self):
        try:
            self.desktop.key("Escape")
            time.sleep(0.2)
        finally:
            self.release()


def drag(desktop, from_xy, to_xy, direction=None, rest=0.3):
    """One whole drag from from_xy to to_xy, dropped there."""
    fx, fy = from_xy
    if direction is None:
        direction = (to_xy[0] - fx, to_xy[1] - fy)
        if direction == (0, 0):
            direction = (0, 1)
    with PointerDrag(desktop) as d:
        d.press(fx, fy, direction)
        d.move(*to_xy, rest=rest)
        d.release()


def click(desktop, xy, modifiers=None):
    desktop.click(int(xy[0]), int(xy[1]), modifiers=modifiers)


# ------------------------------------------------------------------------------------------------------------
# The pointer's cursor, by name (XFixes)
# ------------------------------------------------------------------------------------------------------------

class _XFixesCursorImage(ctypes.Structure):
    _fields_ = [("x", ctypes.c_short), ("y", ctypes.c_short), ("width", ctypes.c_ushort),
                ("height", ctypes.c_ushort), ("xhot", ctypes.c_ushort), ("yhot", ctypes.c_ushort),
                ("cursor_serial", ctypes.c_ulong), ("pixels", ctypes.POINTER(ctypes.c_ulong)),
                ("atom", ctypes.c_ulong), ("name", ctypes.c_char_p)]


_X = None


def _xlibs():
    global _X
    if _X is None:
        x11 = ctypes.CDLL("libX11.so.6")
        xfixes = ctypes.CDLL("libXfixes.so.3")
        x11.XOpenDisplay.restype = ctypes.c_void_p
        x11.XOpenDisplay.argtypes = [ctypes.c_char_p]
        x11.XCloseDisplay.argtypes = [ctypes.c_void_p]
        x11.XFree.argtypes = [ctypes.c_void_p]
        xfixes.XFixesGetCursorImage.restype = ctypes.POINTER(_XFixesCursorImage)
        xfixes.XFixesGetCursorImage.argtypes = [ctypes.c_void_p]
        _X = (x11, xfixes)
    return _X


def cursor_name(desktop):
    """The name the current cursor was loaded by ("dnd-move", "dnd-copy", "dnd-none", ...; "" when unnamed)."""
    x11, xfixes = _xlibs()
    dpy = x11.XOpenDisplay(desktop.display.encode())
    if not dpy:
        raise HarnessError("cannot open display %s" % desktop.display)
    try:
        image = xfixes.XFixesGetCursorImage(dpy)
        if not image:
            raise HarnessError("XFixesGetCursorImage failed")
        name = (image.contents.name or b"").decode(errors="replace")
        x11.XFree(image)
        return name
    finally:
        x11.XCloseDisplay(dpy)


def wait_cursor(desktop, names, timeout=3):
    """Polls until the cursor's name is one of `names`; returns it."""
    last = {}

    def attempt():
        last["name"] = cursor_name(desktop)
        return last["name"] if last["name"] in names else None

    return wait_until(attempt, timeout, 0.05, "the cursor to be one of %r" % (names,),
                      lambda: repr(last.get("name")))


# ------------------------------------------------------------------------------------------------------------
# Frames of an animation
# ------------------------------------------------------------------------------------------------------------

_RECORDER = r"""
import json, os, sys, time
import gi
gi.require_version("Gdk", "3.0")
from gi.repository import Gdk
folder, x, y, w, h, interval, duration = sys.argv[1], *map(int, sys.argv[2:6]), *map(float, sys.argv[6:8])
root = Gdk.get_default_root_window()
Gdk.pixbuf_get_from_window(root, x, y, w, h)  # warm up
print("ready", flush=True)
sys.stdin.readline()
frames = []
start = time.monotonic()
next_time = start
while True:
    now = time.monotonic()
    if now - start > duration:
        break
    pb = Gdk.pixbuf_get_from_window(root, x, y, w, h)
    taken = time.monotonic()
    frames.append(((now + taken) / 2, pb.get_pixels(), pb.get_rowstride(), pb.get_n_channels()))
    next_time += interval
    delay = next_time - time.monotonic()
    if delay > 0:
        time.sleep(delay)
index = []
for i, (t, pixels, stride, channels) in enumerate(frames):
    path = os.path.join(folder, "f_%03d.raw" % i)
    with open(path, "wb") as f:
        f.write(pixels)
    index.append({"time": t, "path": path, "stride": stride, "channels": channels})
with open(os.path.join(folder, "index.json"), "w") as f:
    json.dump({"x": x, "y": y, "width": w, "height": h, "frames": index}, f)
print("done %d" % len(frames), flush=True)
"""


class Frame:
    def __init__(self, time_, image, origin):
        self.time = time_
        self.image = image      # PIL RGB image of the recorded box
        self.origin = origin    # screen position of its top left corner

    def to_screen(self, box):
        x, y, w, h = box
        return (x + self.origin[0], y + self.origin[1], w, h)


class FrameRecorder:
    """Captures box (x, y, w, h of the screen) every `interval` seconds for `duration` seconds after go(), in a
    child process (so the tests' process needs no X connection of its own). start() waits until it is ready;
    go() starts the clock and returns its time (time.monotonic(), the same clock as the frames'); frames()
    waits for the end and returns [Frame]."""

    def __init__(self, desktop, box, folder, interval=0.04, duration=1.0):
        self.desktop = desktop
        self.box = tuple(int(v) for v in box)
        self.folder = str(folder)
        os.makedirs(self.folder, exist_ok=True)
        self.interval = interval
        self.duration = duration
        self.proc = None

    def start(self):
        x, y, w, h = self.box
        env = self.desktop.base_env()
        self.proc = subprocess.Popen(["/usr/bin/python3", "-c", _RECORDER, self.folder, str(x), str(y), str(w),
                                      str(h), str(self.interval), str(self.duration)],
                                     env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, text=True)
        line = self.proc.stdout.readline()
        if line.strip() != "ready":
            raise HarnessError("the frame recorder did not start: %r %s" % (line, self.proc.stderr.read()))
        return self

    def go(self):
        self.proc.stdin.write("go\n")
        self.proc.stdin.flush()
        return time.monotonic()

    def frames(self):
        try:
            out, err = self.proc.communicate(timeout=self.duration + 60)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.communicate()
            raise HarnessError("the frame recorder hung")
        if self.proc.returncode != 0:
            raise HarnessError("the frame recorder failed (%s): %s" % (self.proc.returncode, err))
        from PIL import Image
        with open(os.path.join(self.folder, "index.json")) as f:
            index = json.load(f)
        frames = []
        for entry in index["frames"]:
            with open(entry["path"], "rb") as f:
                data = f.read()
            mode = "RGBA" if entry["channels"] == 4 else "RGB"
            image = Image.frombuffer(mode, (index["width"], index["height"]), data, "raw", mode, entry["stride"], 1)
            frames.append(Frame(entry["time"], image.convert("RGB"), (index["x"], index["y"])))
        return frames

    def stop(self):
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(10)


def blend_blob(image, dominant, others, region=None, min_lead=40, max_spread=14, min_pixels=20):
    """Where an image of a solid colour is drawn, at any opacity, over a neutral (grey) background: the pixels
    whose channel `dominant` ("R", "G" or "B") exceeds both `others` channels by more than min_lead while those
    two differ by at most max_spread. Returns (bbox in image coordinates (x, y, w, h), pixel count), or
    (None, count) when fewer than min_pixels match. region (x, y, w, h in image coordinates) limits the search."""
    from PIL import ImageChops
    if region is not None:
        rx, ry, rw, rh = (int(v) for v in region)
        rx, ry = max(rx, 0), max(ry, 0)
        image = image.crop((rx, ry, min(rx + rw, image.width), min(ry + rh, image.height)))
    else:
        rx = ry = 0
    bands = dict(zip("RGB", image.split()))
    lead_a = ImageChops.subtract(bands[dominant], bands[others[0]]).point(lambda v: 255 if v > min_lead else 0)
    lead_b = ImageChops.subtract(bands[dominant], bands[others[1]]).point(lambda v: 255 if v > min_lead else 0)
    even = ImageChops.difference(bands[others[0]], bands[others[1]]).point(lambda v: 255 if v <= max_spread else 0)
    mask = ImageChops.multiply(ImageChops.multiply(lead_a, lead_b), even)
    count = mask.histogram()[255]
    if count < min_pixels:
        return None, count
    left, top, right, bottom = mask.getbbox()
    return (rx + left, ry + top, right - left, bottom - top), count


# ------------------------------------------------------------------------------------------------------------
# A gallery of served images, launched
# ------------------------------------------------------------------------------------------------------------

def extra_images(count):
    """`count` more (name, width, height, rgb, fmt) specs: muted colours at assorted aspect ratios, named x00,
    x01... (they fill a long gallery; the tests do not tell them apart by colour)."""
    shapes = [(300, 200), (200, 260), (240, 240), (360, 200), (180, 300), (320, 240)]
    specs = []
    for i in range(count):
        w, h = shapes[i % len(shapes)]
        rgb = (70 + (i * 53) % 120, 90 + (i * 29) % 90, 80 + (i * 71) % 110)
        specs.append(("x%02d" % i, w, h, rgb, "png"))
    return specs


def launch_long_gallery(make_app, http_server):
    """A gallery of 40 images, much taller than its window. Returns (app, {name: rgb}, names in order)."""
    specs = list(harness.DISTINCT_IMAGES) + extra_images(28)
    app, colours = launch_gallery(make_app, http_server, specs)
    return app, colours, [s[0] for s in specs]


def launch_gallery(make_app, http_server, specs=None, settle=True):
    """Serves specs (default: harness.DISTINCT_IMAGES), starts the app on a state listing them in that order and
    waits until the visible cells are loaded. Returns (app, {name: rgb})."""
    specs = list(specs if specs is not None else harness.DISTINCT_IMAGES)
    served = [http_server.add_image(*spec) for spec in specs]
    app = make_app(gallery_state(served))
    app.start()
    if settle:
        app.wait_cells(lambda cs: len(cs) > 0 and all(c.settled for c in cs), 60,
                       what="the visible cells to load")
        # The served images have no original yet: the library keeps them in the background after the first
        # frame (the carry-over), each a save; done before a test compares the library.
        app.wait_every_image_kept()
    return app, {s.name: s.rgb for s in served}


def trash_parts(app):
    """(the Trash zone's extents, its icon's extents), from AT-SPI."""
    trash = app.find_by_name("Trash")
    if trash is None:
        raise HarnessError("no accessible object named 'Trash':\n" + app.dump_tree())
    icons = app.find_all(lambda a: a.role == harness.ROLE.ICON, trash)
    if not icons:
        raise HarnessError("the Trash zone has no icon:\n" + app.dump_tree(trash))
    return trash.extents(), icons[0].extents()


def toast_text(app):
    """The text of the toast's label when it is showing, else None."""
    for acc in app.find_all(lambda a: a.role == harness.ROLE.LABEL and a.has_state("SHOWING")):
        name = harness._safe(lambda: acc.name) or ""
        if "moved" in name or "trash" in name:
            return name
    return None


def wait_toast(app, text, timeout=5):
    return wait_until(lambda: (toast_text(app) or "") if text in (toast_text(app) or "") else None, timeout, 0.1,
                      "a toast saying %r" % text, lambda: repr(toast_text(app)))


def hover(desktop, x, y, seconds, step=0.08):
    """Keeps the pointer at (x, y) for `seconds`, moving 1 px around it (a drag's target answers each move)."""
    wiggle = [(1, 0), (0, 1), (-1, 0), (0, -1)]
    end = time.monotonic() + seconds
    i = 0
    while time.monotonic() < end:
        ox, oy = wiggle[i % 4]
        desktop.xdotool("mousemove", int(x) + ox, int(y) + oy, "sleep", step)
        i += 1
    desktop.xdotool("mousemove", int(x), int(y))
    desktop.pointer = (int(x), int(y))


def toast_undo_button(app):
    """The toast's showing Undo button (not the header bar's), or None."""
    frame_top = app.gallery().parent().extents()[1]
    for button in app.find_all(lambda a: a.role == harness.ROLE.PUSH_BUTTON and a.name == "Undo"
                               and a.has_state("SHOWING")):
        if button.extents()[1] > frame_top:
            return button
    return None


def click_node(desktop, node):
    x, y, w, h = node.extents()
    desktop.click(x + w // 2, y + h // 2)


def assert_toast_undo_spent(app, desktop, expected, action):
    """After Ctrl+Z undid the step a toast announced: the toast is gone, or its Undo does nothing, so the
    state stays `expected` (a toast's Undo must never take back another, earlier step)."""
    time.sleep(0.5)
    undo = toast_undo_button(app)
    if undo is None:
        return
    shown = toast_text(app)
    click_node(desktop, undo)
    time.sleep(0.8)
    assert saved_names(app) == expected, (
        "the toast %r still offered Undo after %s, and clicking it undid an earlier step: the library went "
        "from %s to %s" % (shown, action, expected, saved_names(app)))
