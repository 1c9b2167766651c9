"""`Desktop`: Xvfb on a free display, a D-Bus session bus and the AT-SPI bus, and xdotool input on it; and the
process's one current Desktop (`start_desktop`, `current_desktop`, `stop_desktop`)."""

import atexit
import io
import os
import re
import select
import shutil
import subprocess
import tempfile
import time

from .processes import _terminate
from .waiting import HarnessError, wait_until


def _read_line(fd, timeout, what):
    """Reads one line from a pipe fd within timeout."""
    deadline = time.monotonic() + timeout
    buf = b""
    while b"\n" not in buf:
        left = deadline - time.monotonic()
        if left <= 0:
            raise HarnessError("timed out waiting for %s (got %r)" % (what, buf))
        ready, _, _ = select.select([fd], [], [], left)
        if ready:
            chunk = os.read(fd, 4096)
            if not chunk:
                raise HarnessError("%s: pipe closed before a line (got %r)" % (what, buf))
            buf += chunk
    return buf.split(b"\n", 1)[0].decode().strip()


def _require_tool(name, package):
    if shutil.which(name) is None:
        raise HarnessError("%s not found: apt-get install -y %s (see Tests/e2e/README.md)" % (name, package))


class Desktop:
    """Xvfb (1280x1024x24 by default, display number picked by -displayfd), a D-Bus session bus, and the AT-SPI
    bus it activates (org.a11y.Bus → at-spi-bus-launcher). start() also exports DISPLAY,
    DBUS_SESSION_BUS_ADDRESS, AT_SPI_BUS_ADDRESS and XDG_RUNTIME_DIR into os.environ (so that a pyatspi imported
    afterwards would talk to this desktop too). One per process.
    window_manager="metacity" also runs GNOME's Metacity without compositing, for benchmarks that measure the
    window's thread as a desktop runs it: with no window manager at all, GTK 3 asks the X server after every
    frame whether one has appeared, a round trip that waits for the server to draw the frame."""

    def __init__(self, width=1280, height=1024, depth=24, window_manager=None):
        self.size = (width, height)
        self.depth = depth
        self.window_manager = window_manager
        self.display = None
        self.bus_address = None
        self.a11y_address = None
        self.root = tempfile.mkdtemp(prefix="image-gallery-e2e-desktop-")
        self.runtime_dir = os.path.join(self.root, "runtime")
        os.mkdir(self.runtime_dir, 0o700)
        self._procs = []
        self._private_buses = []
        self.pointer = (0, 0)

    # --- lifecycle ---
    def start(self):
        for tool, package in (("Xvfb", "xvfb"), ("dbus-daemon", "dbus"), ("xdotool", "xdotool"),
                              ("import", "imagemagick"), ("xwininfo", "x11-utils"), ("dbus-send", "dbus")):
            _require_tool(tool, package)
        read_fd, write_fd = os.pipe()
        xvfb_log = open(os.path.join(self.root, "xvfb.log"), "wb")
        self.xvfb = subprocess.Popen(
            ["Xvfb", "-displayfd", str(write_fd), "-screen", "0", "%dx%dx%d" % (self.size + (self.depth,)),
             "-nolisten", "tcp", "-noreset", "+extension", "RANDR"],
            pass_fds=(write_fd,), stdin=subprocess.DEVNULL, stdout=xvfb_log, stderr=subprocess.STDOUT,
            start_new_session=True)
        os.close(write_fd)
        self._procs.append(self.xvfb)
        try:
            number = _read_line(read_fd, 30, "Xvfb's display number")
        finally:
            os.close(read_fd)
        self.display = ":" + number

        self.dbus, self.bus_address = self._start_bus("session-bus")
        self._procs.append(self.dbus)

        os.environ.update(self.base_env())
        os.environ.pop("NO_AT_BRIDGE", None)
        self.a11y_address = wait_until(self._ask_a11y_address, 30, 0.2, "the AT-SPI bus (org.a11y.Bus)",
                                       lambda: open(os.path.join(self.root, "session-bus.log")).read())
        os.environ["AT_SPI_BUS_ADDRESS"] = self.a11y_address
        if self.window_manager:
            self._start_window_manager()
        return self

    def _start_window_manager(self):
        if self.window_manager != "metacity":
            raise HarnessError("unknown window manager %r (metacity, or none)" % self.window_manager)
        _require_tool("metacity", "metacity")
        _require_tool("xprop", "x11-utils")
        log = open(os.path.join(self.root, "window-manager.log"), "ab")
        # Not fullscreen: Metacity makes a window without decorations fullscreen when it is as large as the screen.
        proc = subprocess.Popen(["metacity", "--compositor=none", "--no-force-fullscreen", "--sm-disable",
                                 "--replace"],
                                env=self.base_env(), stdin=subprocess.DEVNULL, stdout=log, stderr=log,
                                start_new_session=True)
        self._procs.append(proc)

        def managing():
            if proc.poll() is not None:
                raise HarnessError("metacity exited: %s" % open(log.name).read()[-2000:])
            out = subprocess.run(["xprop", "-display", self.display, "-root", "_NET_SUPPORTING_WM_CHECK"],
                                 capture_output=True, text=True, timeout=30).stdout
            return "window id" in out

        wait_until(managing, 30, 0.1, "metacity to manage the screen", lambda: open(log.name).read())

    def _start_bus(self, name):
        log = open(os.path.join(self.root, name + ".log"), "ab")
        env = dict(self.base_env())
        env.pop("DBUS_SESSION_BUS_ADDRESS", None)
        env.pop("AT_SPI_BUS_ADDRESS", None)
        proc = subprocess.Popen(["dbus-daemon", "--session", "--nofork", "--nopidfile", "--print-address=1"],
                                stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=log, env=env,
                                start_new_session=True)
        address = _read_line(proc.stdout.fileno(), 30, "dbus-daemon's address")
        return proc, address

    def new_session_bus(self):
        """A fresh D-Bus session bus (for one app instance); returns (process, address). Stopped by stop()."""
        proc, address = self._start_bus("app-bus-%d" % len(self._private_buses))
        self._private_buses.append(proc)
        return proc, address

    def _ask_a11y_address(self):
        out = subprocess.run(["dbus-send", "--session", "--print-reply=literal", "--dest=org.a11y.Bus",
                              "/org/a11y/bus", "org.a11y.Bus.GetAddress"], env=self.base_env(),
                             capture_output=True, text=True, timeout=30)
        address = out.stdout.strip()
        return address if out.returncode == 0 and address.startswith("unix:") else None

    def base_env(self):
        """Environment for processes on this desktop (no DBUS_SESSION_BUS_ADDRESS before the bus is up)."""
        env = {k: v for k, v in os.environ.items()
               if k not in ("NO_AT_BRIDGE", "WAYLAND_DISPLAY", "GTK_MODULES", "SESSION_MANAGER")}
        env.update({"DISPLAY": self.display, "XDG_RUNTIME_DIR": self.runtime_dir, "GDK_BACKEND": "x11",
                    "GTK_THEME": "Adwaita", "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8",
                    "GSETTINGS_BACKEND": "memory"})
        # English, whatever the runner's language: LANGUAGE would override LANG for gettext.
        env.pop("LANGUAGE", None)
        if self.bus_address:
            env["DBUS_SESSION_BUS_ADDRESS"] = self.bus_address
        if self.a11y_address:
            env["AT_SPI_BUS_ADDRESS"] = self.a11y_address
        return env

    def stop(self):
        for proc in reversed(self._private_buses + self._procs):
            _terminate(proc)
        self._private_buses, self._procs = [], []
        shutil.rmtree(self.root, ignore_errors=True)

    # --- screen ---
    def screenshot(self, path=None):
        """The whole screen as an RGB PIL image (ImageMagick `import -window root`); saved to path if given."""
        from PIL import Image
        out = subprocess.run(["import", "-display", self.display, "-window", "root", "png:-"],
                             capture_output=True, timeout=60)
        if out.returncode != 0:
            raise HarnessError("import failed: %s" % out.stderr.decode(errors="replace"))
        image = Image.open(io.BytesIO(out.stdout)).convert("RGB")
        if path:
            image.save(path)
        keep = os.environ.get("E2E_SAVE_SCREENSHOTS")  # a folder: every screenshot is kept there, numbered
        if keep:
            os.makedirs(keep, exist_ok=True)
            self._shots = getattr(self, "_shots", 0) + 1
            image.save(os.path.join(keep, "shot-%04d.png" % self._shots))
        return image

    def grab(self, box):
        """The screen's rectangle box (x, y, width, height) as an RGB PIL image, read straight from the X server: a few
        milliseconds where `screenshot` takes half a second on a loaded machine, so that sampling an animation many
        times per frame cannot keep landing on the same frame of its loop."""
        from PIL import ImageGrab
        x, y, w, h = (int(v) for v in box)
        return ImageGrab.grab(bbox=(x, y, x + w, y + h), xdisplay=self.display).convert("RGB")

    def pixel(self, x, y, image=None):
        image = image or self.screenshot()
        return image.getpixel((int(x), int(y)))

    def top_level_windows(self):
        """[(window id, title)] of the root window's named children (from xwininfo)."""
        out = subprocess.run(["xwininfo", "-display", self.display, "-root", "-children"],
                             capture_output=True, text=True, timeout=30).stdout
        return [(m.group(1), m.group(2)) for m in re.finditer(r'^\s+(0x[0-9a-f]+) "((?:[^"\\]|\\.)*)":', out, re.M)]

    # --- input (xdotool: XTEST, real pointer and key events) ---
    def xdotool(self, *args):
        out = subprocess.run(["xdotool"] + [str(a) for a in args], env=self.base_env(), capture_output=True,
                             text=True, timeout=120)
        if out.returncode != 0:
            raise HarnessError("xdotool %s failed: %s" % (" ".join(map(str, args)), out.stderr))
        return out.stdout

    def move_to(self, x, y):
        self.xdotool("mousemove", int(x), int(y))
        self.pointer = (int(x), int(y))

    def press(self, x=None, y=None, button=1):
        if x is not None:
            self.move_to(x, y)
        self.xdotool("mousedown", button)

    def move(self, x, y, steps=20, step_delay=0.02):
        """Moves the pointer from where it is to (x, y) in `steps` motion events, step_delay seconds apart."""
        x0, y0 = self.pointer
        chain = []
        for i in range(1, steps + 1):
            chain += ["mousemove", round(x0 + (x - x0) * i / steps), round(y0 + (y - y0) * i / steps),
                      "sleep", step_delay]
        self.xdotool(*chain)
        self.pointer = (int(x), int(y))

    def release(self, button=1):
        self.xdotool("mouseup", button)

    # The first small moves of a drag, in px from the press: GTK starts a drag past its threshold (8 px by
    # default); browsers decide only after several slower motions.
    GTK_NUDGES = (2, 4, 6, 9, 12, 16, 20)
    BROWSER_NUDGES = (1, 2, 3, 5, 7, 10, 13, 16, 20, 25, 30)

    def nudge(self, from_xy, towards, distances=GTK_NUDGES, pause=0.03):
        """With the button held at from_xy: small moves in the direction of `towards`, past the drag threshold."""
        fx, fy = from_xy
        dx, dy = towards[0] - fx, towards[1] - fy
        length = max(1.0, (dx * dx + dy * dy) ** 0.5)
        ux, uy = dx / length, dy / length
        chain = []
        for d in distances:
            chain += ["mousemove", round(fx + ux * d), round(fy + uy * d), "sleep", pause]
        self.xdotool(*chain)
        self.pointer = (round(fx + ux * distances[-1]), round(fy + uy * distances[-1]))

    def drag(self, from_xy, to_xy, steps=30, step_delay=0.03, hold_at_end=0.3, button=1, while_hovering=None,
             release=True):
        """A real XDND drag: press at from_xy, a few small moves past GTK's drag threshold, then `steps` moves to
        to_xy, a short wiggle there (so the target gets XdndPosition and answers), hold, release.
        while_hovering(), if given, runs before the release (the drag still on); its result is returned. The
        button is released (unless release=False), also when while_hovering fails."""
        fx, fy = from_xy
        tx, ty = to_xy
        self.press(fx, fy, button)
        result = None
        try:
            time.sleep(0.1)
            self.nudge((fx, fy), (tx, ty))
            time.sleep(0.15)
            self.move(tx, ty, steps=steps, step_delay=step_delay)
            self.xdotool("mousemove", tx + 1, ty, "sleep", 0.05, "mousemove", tx, ty + 1, "sleep", 0.05,
                         "mousemove", tx, ty)
            self.pointer = (tx, ty)
            if hold_at_end:
                time.sleep(hold_at_end)
            if while_hovering is not None:
                result = while_hovering()
        finally:
            if release:
                self.release(button)
        return result

    def click(self, x, y, button=1, modifiers=None):
        self.move_to(x, y)
        if modifiers:
            self.xdotool("keydown", modifiers)
        self.xdotool("click", button)
        if modifiers:
            self.xdotool("keyup", modifiers)

    def scroll(self, x, y, clicks=1, down=True):
        self.move_to(x, y)
        self.xdotool("click", "--repeat", abs(clicks), "--delay", 60, 5 if down else 4)

    def key(self, combo):
        """Key combination(s) in xdotool syntax, e.g. 'ctrl+z', 'Escape', 'ctrl+shift+Right'."""
        self.xdotool("key", "--delay", 40, *combo.split())

    def type_text(self, text):
        self.xdotool("type", "--delay", 30, text)


_CURRENT_DESKTOP = None


def current_desktop():
    if _CURRENT_DESKTOP is None:
        raise HarnessError("no Desktop started (use the `desktop` fixture)")
    return _CURRENT_DESKTOP


def start_desktop(**kw):
    """Starts the process's one Desktop (idempotent)."""
    global _CURRENT_DESKTOP
    if _CURRENT_DESKTOP is None:
        desktop = Desktop(**kw)
        atexit.register(desktop.stop)  # also when the run ends without the fixture's teardown
        _CURRENT_DESKTOP = desktop.start()
    return _CURRENT_DESKTOP


def stop_desktop():
    global _CURRENT_DESKTOP
    if _CURRENT_DESKTOP is not None:
        _CURRENT_DESKTOP.stop()
        _CURRENT_DESKTOP = None
