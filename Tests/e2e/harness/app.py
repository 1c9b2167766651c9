"""`App`: the built image-gallery binary launched with its own XDG directories, read over AT-SPI and driven
through its X window."""

import json
import os
import re
import signal
import subprocess
import tempfile
import time

from .atspi import ROLE, A11yError, _safe, a11y, walk
from .cells import Cell, format_cells
from .desktop import current_desktop
from .processes import _terminate
from .waiting import HarnessError, wait_until

# This file sits four folders below the repository root: Tests/e2e/harness/app.py.
REPO_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
DEFAULT_BINARY = os.path.join(REPO_ROOT, ".build", "debug", "image-gallery")


def benchmark_binary():
    """The binary a benchmark measures: $IMAGE_GALLERY_BIN, else the release build if there is one, else the debug
    one."""
    release = os.path.join(REPO_ROOT, ".build", "release", "image-gallery")
    return os.environ.get("IMAGE_GALLERY_BIN") or (release if os.path.exists(release) else DEFAULT_BINARY)
# `--print-state` needs no display and no session bus: it runs without them, as a script would.
PRINTOUT_NEEDS_NOT = ("DISPLAY", "WAYLAND_DISPLAY", "DBUS_SESSION_BUS_ADDRESS", "AT_SPI_BUS_ADDRESS")
# Windows are titled "<gallery name> — Image Gallery": they are found by process, and this suffix.
WINDOW_TITLE = "Image Gallery"


class App:
    """The built image-gallery binary on a Desktop, with its own XDG data/cache/config directories.

    App(state=dict|None, env_overrides=None, desktop=..., root=..., binary=..., state_raw=bytes|None,
        bus="private"|"shared", args=[], app_name="Image Gallery", gallery_name="Gallery")
    app_name and gallery_name are the window title's suffix and the gallery pane's accessible name: translated
    when env_overrides sets another language.
    start() writes state.json (first start only), launches, and waits for the "Image Gallery" frame over AT-SPI;
    stop() ends it (SIGTERM) and raises with its stderr if it crashed or hung. start() again relaunches with the
    same directories (cache and state kept). bus="private" gives each launch its own D-Bus session bus (the app is
    a single-instance GtkApplication); the AT-SPI bus is shared through AT_SPI_BUS_ADDRESS."""

    def __init__(self, state=None, env_overrides=None, *, desktop=None, root=None, binary=None, state_raw=None,
                 bus="private", args=(), app_name=WINDOW_TITLE, gallery_name="Gallery"):
        self.desktop = desktop or current_desktop()
        self.binary = binary or os.environ.get("IMAGE_GALLERY_BIN") or DEFAULT_BINARY
        self.root = root or tempfile.mkdtemp(prefix="image-gallery-e2e-app-")
        self.data_home = os.path.join(self.root, "data")
        self.cache_home = os.path.join(self.root, "cache")
        self.config_home = os.path.join(self.root, "config")
        for d in (self.data_home, self.cache_home, self.config_home):
            os.makedirs(d, exist_ok=True)
        self.state_dir = os.path.join(self.data_home, "image-gallery")
        self.state_path = os.path.join(self.state_dir, "state.json")
        self.cache_dir = os.path.join(self.cache_home, "image-gallery")
        self.initial_state = state
        self.initial_state_raw = state_raw
        self._state_written = False
        self.env_overrides = dict(env_overrides or {})
        self.bus = bus
        self.args = list(args)
        self.app_name = app_name
        self.gallery_name = gallery_name
        self.proc = None
        self._bus_proc = None
        self.launches = 0
        self._app_acc = None
        self._gallery = None
        self.stdout_path = self.stderr_path = None
        # The last printout and the files it was read from (`_printout_sources`): read again only once they change.
        self._printout = None

    # --- lifecycle ---
    def env(self):
        env = self.desktop.base_env()
        env.update({"XDG_DATA_HOME": self.data_home, "XDG_CACHE_HOME": self.cache_home,
                    "XDG_CONFIG_HOME": self.config_home, "HOME": self.root})
        if self._bus_proc is not None:
            env["DBUS_SESSION_BUS_ADDRESS"] = self._bus_address
        env.update(self.env_overrides)
        env.pop("NO_AT_BRIDGE", None)
        return env

    def write_state(self):
        if self.initial_state is None and self.initial_state_raw is None:
            return
        os.makedirs(self.state_dir, exist_ok=True)
        data = self.initial_state_raw
        if data is None:
            data = json.dumps(self.initial_state, indent=2).encode() + b"\n"
        with open(self.state_path, "wb") as f:
            f.write(data)
        self._state_written = True

    def start(self, timeout=60, window=True):
        """window=False: the app is started without waiting for a window (a D-Bus service opens none)."""
        if self.proc is not None and self.proc.poll() is None:
            raise HarnessError("App.start(): already running (pid %d)" % self.proc.pid)
        if not os.path.isfile(self.binary) or not os.access(self.binary, os.X_OK):
            raise HarnessError("the app binary %s is missing or not executable: build it first (swift build), "
                               "or set IMAGE_GALLERY_BIN" % self.binary)
        if not self._state_written:
            self.write_state()
        if self.bus == "private":
            self._bus_proc, self._bus_address = self.desktop.new_session_bus()
        self.launches += 1
        self.stdout_path = os.path.join(self.root, "stdout-%d.log" % self.launches)
        self.stderr_path = os.path.join(self.root, "stderr-%d.log" % self.launches)
        with open(self.stdout_path, "wb") as out, open(self.stderr_path, "wb") as err:
            self.proc = subprocess.Popen([self.binary] + self.args, env=self.env(), stdin=subprocess.DEVNULL,
                                         stdout=out, stderr=err, cwd=self.root)
        self._app_acc = None
        self._gallery = None
        if not window:
            return self
        try:
            wait_until(self._frame_ready, timeout, 0.05, "the %r window over AT-SPI (pid %d)"
                       % (self.app_name, self.proc.pid), self._describe_for_timeout)
        except HarnessError:
            self._check_alive()
            raise
        return self

    def _describe_for_timeout(self):
        self._check_alive()
        apps = ["%s(pid %s)" % (_safe(lambda: a.name), _safe(a.process_id)) for a in _safe(a11y().applications, [])]
        return "apps on the AT-SPI bus: %s; stderr: %s" % (", ".join(apps) or "none", self.stderr()[-2000:])

    def _check_alive(self):
        if self.proc is not None and self.proc.poll() is not None:
            raise HarnessError("the app exited with status %s; stderr:\n%s" % (self.proc.returncode,
                                                                               self.stderr()[-6000:]))

    def stop(self, timeout=20, check=True):
        """SIGTERM, wait. With check: raises (with stderr) if it had crashed, or had to be killed."""
        if self.proc is None:
            return
        proc, self.proc = self.proc, None
        problem = None
        if proc.poll() is not None:
            if proc.returncode not in (0, -signal.SIGTERM):
                problem = "the app had exited on its own with status %s" % proc.returncode
        else:
            proc.send_signal(signal.SIGTERM)
            try:
                proc.wait(timeout)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(10)
                problem = "the app did not exit within %ss of SIGTERM (killed)" % timeout
            else:
                if proc.returncode not in (0, -signal.SIGTERM, 128 + signal.SIGTERM):
                    problem = "the app exited with status %s after SIGTERM" % proc.returncode
        if self._bus_proc is not None:
            _terminate(self._bus_proc)
            self._bus_proc = None
        self._app_acc = self._gallery = None
        if problem and check:
            raise HarnessError("%s; stderr:\n%s" % (problem, self.stderr()[-6000:]))

    @property
    def running(self):
        return self.proc is not None and self.proc.poll() is None

    def stderr(self):
        if not self.stderr_path or not os.path.exists(self.stderr_path):
            return ""
        with open(self.stderr_path, "rb") as f:
            return f.read().decode(errors="replace")

    # --- files ---
    def print_state(self, timeout=30):
        """Runs `image-gallery --print-state` as the app runs (its HOME, XDG folders and settings, so the same library)
        but with no display and no session bus, which it needs neither of: (status, stdout bytes, stderr text)."""
        env = {name: value for name, value in self.env().items() if name not in PRINTOUT_NEEDS_NOT}
        try:
            done = subprocess.run([self.binary, "--print-state"], env=env, stdin=subprocess.DEVNULL,
                                  capture_output=True, timeout=timeout, cwd=self.root)
        except subprocess.TimeoutExpired:
            raise HarnessError("`%s --print-state` did not finish within %ss" % (self.binary, timeout))
        return done.returncode, done.stdout, done.stderr.decode(errors="replace")

    def _printout_sources(self):
        """What `--print-state` reads, as each file's path, identity, size and times: the library folder (the data
        folder, and the one the settings name, less the kept originals' bytes, which it never reads), the settings, and
        this computer's own state folder. A save (a rename or an append) changes it; while it stays the same, the
        library printed last is still the library."""
        env = self.env()
        config = os.path.join(env.get("XDG_CONFIG_HOME") or os.path.join(env["HOME"], ".config"), "image-gallery")
        own = os.path.join(env.get("XDG_STATE_HOME") or os.path.join(env["HOME"], ".local", "state"), "image-gallery")
        folders = [self.state_dir, config, own]
        try:
            with open(os.path.join(config, "settings.json")) as f:
                named = json.load(f).get("libraryFolder")
            if isinstance(named, str):
                folders.append(named)
        except (OSError, ValueError, AttributeError):
            pass
        sources = []
        for top in folders:
            for folder, subfolders, names in os.walk(top):
                if folder == top and "originals" in subfolders:
                    subfolders.remove("originals")
                for name in names:
                    path = os.path.join(folder, name)
                    try:
                        info = os.stat(path)  # through a link: a save through it renames its target
                    except OSError:
                        continue  # a link to nothing, or gone meanwhile
                    sources.append((path, info.st_ino, info.st_size, info.st_mtime_ns, info.st_ctime_ns))
        return sorted(sources)

    def _printed(self):
        """`print_state()`'s answer, printed again only when a file it reads has changed since the last time."""
        sources = self._printout_sources()
        if self._printout is None or self._printout[0] != sources:
            self._printout = (sources, self.print_state())
        return self._printout[1]

    def state_bytes(self):
        """The library as `image-gallery --print-state` prints it: today's state file format, every computer's edits
        merged, without the lineage. Raises LibraryUnreadable (a ValueError) when there is no library yet or it
        cannot be read. Printed again only when a file it reads has changed since the last time."""
        status, out, err = self._printed()
        if status != 0:
            raise LibraryUnreadable("--print-state exited with %d: %s" % (status, err.strip()))
        return out

    def state(self):
        """The library (`state_bytes()` read as JSON): what the app has saved, whatever its layout on disk."""
        return document(self.state_bytes())

    def state_text(self):
        """The library as printed, or why it cannot be had: for a failure's message."""
        status, out, err = self._printed()
        return out.decode(errors="replace") if status == 0 else "(no library: %s)" % err.strip()

    def state_file_bytes(self):
        """The bytes of the state file itself (`state_path`), for a test about the file rather than the library."""
        with open(self.state_path, "rb") as f:
            return f.read()

    def library_files(self):
        """Every file in the library folder (`state_dir`), by its path there: (size, modification time in ns). The same
        before and after an action: the action wrote nothing, whatever the library's layout on disk."""
        files = {}
        for folder, _, names in os.walk(self.state_dir):
            for name in names:
                path = os.path.join(folder, name)
                info = os.lstat(path)
                files[os.path.relpath(path, self.state_dir)] = (info.st_size, info.st_mtime_ns)
        return files

    def wait_state(self, predicate, timeout=10, what="the library", interval=0.05):
        """Polls the library (`state()`, none while it cannot be read) until predicate(library) is true; returns
        that library. Fails with the last library read."""
        last = {}

        def attempt():
            try:
                last["state"] = self.state()
            except LibraryUnreadable as e:
                last["state"] = str(e)
                return False
            return predicate(last["state"])

        wait_until(attempt, timeout, interval, what, lambda: repr(last.get("state"))[-3000:])
        return last["state"]

    def wait_every_image_kept(self, timeout=60):
        """Waits until the library records an original for every image (the carry-over keeps a library's web images
        after the first frame, each a save, written at the saver's pace): before a test takes the library as
        settled. Returns the library then."""
        return self.wait_state(lambda state: all("original" in image for gallery in state["galleries"]
                                                 for image in gallery["images"]), timeout, "every image kept")

    def image_urls(self, gallery=0):
        """URLs of a gallery in the library, in order."""
        return [i["url"] for i in self.state()["galleries"][gallery]["images"]]

    def cache_files(self):
        out = []
        for d, _, files in os.walk(self.cache_dir):
            out += [os.path.join(d, f) for f in files]
        return out

    # --- AT-SPI ---
    def accessible_app(self):
        """This process's application object on the AT-SPI bus (matched by pid), or None."""
        if self.proc is None:
            return None
        if self._app_acc is not None and _safe(self._app_acc.process_id) == self.proc.pid:
            return self._app_acc
        for app in _safe(a11y().applications, []) or []:
            if _safe(app.process_id) == self.proc.pid:
                self._app_acc = app
                return app
        return None

    def frames(self):
        """This process's top-level frames whose title ends with "Image Gallery", oldest first."""
        app = self.accessible_app()
        return [child for child in ((_safe(app.children, []) or []) if app else [])
                if _safe(lambda: child.role) == ROLE.FRAME
                and (_safe(lambda: child.name) or "").endswith(self.app_name)]

    def frame(self):
        """The app's first window frame ("<gallery> — Image Gallery"), or None."""
        frames = self.frames()
        return frames[0] if frames else None

    def _frame_ready(self):
        self._check_alive()
        frame = self.frame()
        if frame is None:
            return None
        showing = _safe(lambda: frame.has_state("SHOWING"), False)
        ext = _safe(frame.extents)
        return frame if showing and ext and ext[2] > 0 and ext[3] > 0 else None

    def find_all(self, predicate, root=None):
        """Every object under the app (or root) for which predicate(acc) is true."""
        root = root or self.accessible_app()
        if root is None:
            return []
        return [acc for acc in walk(root) if _safe(lambda: predicate(acc), False)]

    def find_by_name(self, name, role=None, *, contains=False, ignore_case=False, root=None):
        """The first object with that name (exact, or substring with contains=True), and role if given (a role
        number like ROLE.FRAME, or a role name like "layered pane"), or None."""
        want = name.lower() if ignore_case else name

        def match(acc):
            n = acc.name or ""
            n = n.lower() if ignore_case else n
            if not (want in n if contains else want == n):
                return False
            if role is None:
                return True
            return acc.role_name == role if isinstance(role, str) else acc.role == role

        root = root or self.accessible_app()
        # The first match in the walk's order, without asking the rest of the tree (a walk asks each node for its
        # name and children over D-Bus, and a dialog of hundreds of rows takes seconds).
        return next((acc for acc in walk(root) if _safe(lambda: match(acc), False)), None) if root else None

    def wait_for_object(self, name, role=None, timeout=30, **kw):
        return wait_until(lambda: self._alive_then(lambda: self.find_by_name(name, role, **kw)), timeout, 0.25,
                          "an accessible object named %r%s" % (name, " (role %s)" % role if role else ""),
                          self.dump_tree)

    def _alive_then(self, fn):
        self._check_alive()
        return fn()

    def gallery(self):
        """The LAYERED_PANE named "Gallery" (looked up again when the cached one has gone away)."""
        if self._gallery is not None and _safe(lambda: self._gallery.name) == self.gallery_name:
            return self._gallery
        self._gallery = self.find_by_name(self.gallery_name, ROLE.LAYERED_PANE)
        return self._gallery

    def gallery_scrollbar(self):
        """The gallery's vertical scroll bar: its value is how far the gallery is scrolled, its maximum how
        much taller the content is than the view (the canvas itself is only as tall as the view)."""
        gallery = self.gallery()
        bars = [n for n in (_safe(gallery.parent().children, []) or []) if n.role_name == "scroll bar"
                and n.has_state("VERTICAL")] if gallery else []
        if not bars:
            raise HarnessError("no vertical scroll bar beside the gallery; tree:\n%s" % self.dump_tree())
        return bars[0]

    def scroll_offset(self):
        return self.gallery_scrollbar().value()

    def _read_cells(self):
        gallery = self.gallery()
        if gallery is None:
            raise HarnessError("no LAYERED_PANE named 'Gallery' in the app; tree:\n%s" % self.dump_tree())
        cells = []
        for i, child in enumerate(gallery.children()):
            x, y, w, h = child.extents()
            cells.append(Cell(i, child.name or "", child.description or "", x, y, w, h, child.role_name))
        return cells

    def cells(self, stable=True, attempts=10):
        """The visible cells, fresh from the app: [Cell] in child order.

        The app's cell objects stand for "the i-th visible cell", so a relayout between reading a cell's name and
        its extents can mix two cells, or give -1 extents. With stable=True (default) the cells are read twice in a
        row until both reads agree and every cell has a size (at most `attempts` times; then the last read is
        returned as it is). stable=False reads once (for sampling during an animation or a drag)."""
        self._check_alive()
        last, last_error = None, None
        for _ in range(attempts if stable else 1):
            try:
                first = self._read_cells()
                if not stable:
                    return first
                second = self._read_cells()
            except A11yError as e:  # an object went away while reading: read again
                last_error = e
                self._gallery = None
                time.sleep(0.05)
                continue
            last = second
            if first == second and all(c.width > 0 and c.height > 0 for c in second):
                return second
            time.sleep(0.05)
        if last is None:
            raise HarnessError("could not read the gallery's cells: %s" % last_error)
        return last

    def peek_cells(self):
        """The visible cells read once (`cells(stable=False)`), or None when an object went away while reading: a
        quick look before a stable read, for a poll."""
        self._check_alive()
        try:
            return self._read_cells()
        except A11yError:
            self._gallery = None
            return None

    def wait_cells(self, predicate, timeout=45, interval=0.25, what="cells"):
        """Polls cells() until predicate(cells) is true; returns those cells. Fails with the last cells."""
        last = []

        def attempt():
            # One read first: while the cells keep changing (a download's progress in its name), a stable read takes
            # up to `attempts` pairs of reads, which a poll whose answer is still no need not pay.
            first = self.peek_cells()
            if first is not None:
                last[:] = first
                if not predicate(last):
                    return False
            last[:] = self.cells()
            return predicate(last)

        wait_until(attempt, timeout, interval, what, lambda: format_cells(last))
        return list(last)

    def wait_settled(self, expected_count=None, timeout=60):
        """Cells neither loading nor placeholders (and, if given, exactly expected_count of them)."""
        return self.wait_cells(lambda cs: all(c.settled for c in cs)
                               and (expected_count is None or len(cs) == expected_count),
                               timeout, what="every cell to finish loading (%s cells)" % (expected_count or "any"))

    def dump_tree(self, root=None, max_items=400):
        lines = []
        root = root or self.accessible_app()
        if root is None:
            return "(the app is not on the AT-SPI bus)"

        def visit(acc, depth):
            if len(lines) >= max_items or depth > 30:
                return
            lines.append("%s[%s] %r %s" % ("  " * depth, _safe(lambda: acc.role_name, "?"),
                                           _safe(lambda: acc.name), _safe(acc.extents, "")))
            for child in _safe(acc.children, []) or []:
                visit(child, depth + 1)

        visit(root, 0)
        return "\n".join(lines)

    def window_extents(self):
        frame = self.frame()
        if frame is None:
            raise HarnessError("no %r frame" % self.app_name)
        return frame.extents()

    # --- X window ---
    def window_ids(self):
        """The app's visible X windows titled "… Image Gallery", in the order X lists them (tooltips and menus,
        which xdotool's name search lets through, are left out)."""
        try:
            ids = self.desktop.xdotool("search", "--all", "--onlyvisible", "--pid", self.proc.pid, "--name",
                                       "%s$" % re.escape(self.app_name)).split()
        except HarnessError:
            return []  # xdotool exits 1 when it finds nothing
        return [i for i in ids if _safe(lambda: self.desktop.xdotool("getwindowname", i).strip(), "")
                .endswith(self.app_name)]

    def window_id(self):
        ids = self.window_ids()
        if not ids:
            raise HarnessError("no visible X window titled '… %s' for pid %d" % (self.app_name, self.proc.pid))
        return ids[0]

    def focus(self):
        self.desktop.xdotool("windowfocus", "--sync", self.window_id())

    def resize(self, width, height, x=0, y=0):
        """Moves and resizes the window (no WM on Xvfb: plain X requests), in X pixels; waits until the frame's
        extents, which AT-SPI gives in GTK's points (X pixels over GDK_SCALE), say so."""
        wid = self.window_id()
        self.desktop.xdotool("windowmove", wid, x, y)
        self.desktop.xdotool("windowsize", wid, width, height)
        scale = int(self.env().get("GDK_SCALE") or 1)
        want = tuple(value // scale for value in (x, y, width, height))
        got = []

        def done():
            got[:] = [_safe(self.window_extents)]
            return got[0] == want

        try:
            wait_until(done, 10, 0.1, "the window at %r" % (want,))
        except HarnessError:
            pass  # the app may refuse a size (a minimum, say); the caller sees the result
        return got[0] if got else None

    # --- screen and input, delegated to the desktop ---
    def screenshot(self, path=None):
        return self.desktop.screenshot(path)

    def grab(self, box):
        return self.desktop.grab(box)

    def pixel(self, x, y, image=None):
        return self.desktop.pixel(x, y, image)

    def drag(self, from_xy, to_xy, steps=30, hold_at_end=0.3, **kw):
        self.desktop.drag(from_xy, to_xy, steps=steps, hold_at_end=hold_at_end, **kw)

    def press(self, x, y, button=1):
        self.desktop.press(x, y, button)

    def move(self, x, y, steps=20, step_delay=0.02):
        self.desktop.move(x, y, steps, step_delay)

    def release(self, button=1):
        self.desktop.release(button)

    def click(self, x, y, button=1, modifiers=None):
        self.desktop.click(x, y, button, modifiers)

    def key(self, combo):
        self.desktop.key(combo)


class LibraryUnreadable(ValueError):
    """`--print-state` gave no library: there is none yet, or it cannot be read (its message says which)."""


def document(state_bytes):
    """A library's bytes (`App.state_bytes()`, or a state file's) read as the library they hold, less the lineage
    fields every write of the file renews."""
    state = json.loads(state_bytes)
    state.pop("revision", None)
    state.pop("ancestors", None)
    return state
