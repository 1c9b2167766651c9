#!/usr/bin/python3
"""Image Gallery side by side with gThumb 3.12 (issue 10): `/usr/bin/python3 Tests/benchmarks/versus_gthumb.py`.

Options: `--runs 5` (measured runs per app), `--count 10000` (images), `--quick` (2 runs, 2,000 images, for
development), `--json out.json` (the table as JSON too), `--only launch,keys,sharpness,scale2,50k,curve,callgrind,grain,drop`
(a subset),
`--window-manager none` (no window manager, as every run before session 42; default `metacity`),
`--fresh` (forget both apps' caches: the next warm-up makes them again), `--artifacts DIR` (last frames of timeouts),
`--trace-stalls` (the drop part traces the scheduler, `stall_trace.py`: root only).
The app is $IMAGE_GALLERY_BIN, else `.build/release/image-gallery` if present, else `.build/debug/image-gallery`;
the drop part reads its stall log, which only a build with the StallLog trait writes
(`swift build -c release --traits StallLog`).

Setup (`setup()`): installs what is missing with apt-get (sudo when not root): gthumb, xvfb, xdotool, x11-utils,
imagemagick, dbus, at-spi2-core, python3-gi, gir1.2-atspi-2.0, gir1.2-gtk-3.0, python3-pil, python3-numpy,
python3-xlib, metacity. The photos: `photo_set.py` makes `--count` photo-like JPEGs (every side 1,067-2,000 px,
detail at every scale) once, in /tmp/image-gallery-bench-photos-<count>/ (10,000 take about 2 minutes on 2 cores);
the 50,000-image gallery is hard links to those.

How long: a default run takes about 6 minutes once the photos and gThumb's thumbnails exist; the first run on a
machine adds about 2 minutes of photos and 4 of gThumb's thumbnails (its warm-up waits until gThumb has thumbnailed
the whole folder, so its measured runs are warm everywhere); `--quick` takes about 2 minutes.

What it does
------------
Every run is a fresh Xvfb (1280x1024x24, a D-Bus session bus, the AT-SPI bus: the e2e harness's Desktop) with one
app, the apps alternating, `--runs` runs each after one unmeasured warm-up run each. Each app has its own HOME and
XDG directories, kept across its runs and across invocations (/tmp/image-gallery-bench-homes/), so its thumbnail
cache is warm: gThumb's is $XDG_CACHE_HOME/thumbnails. The desktop runs Metacity, GNOME's window manager, without
compositing, as a desktop runs a window manager: with none at all, GTK 3 asks the X server after every frame whether
one has appeared, and that round trip waits while the server draws, up to 13 ms on the window's thread during Page
Up. The window is put at (0, 0) and sized 1280x1024 through X the moment it is mapped.
- Image Gallery: a state.json with one gallery of the photos' file:// URLs, the sidebar hidden; the env var
  IMAGE_GALLERY_STALL_LOG=<file> asks it to log its main-loop stalls over 8 ms ("stall <s since start> <ms> <ran>
  <waited>", after "start <CLOCK_MONOTONIC seconds>"): of a stall, the ms its window thread ran, and the ms it was
  ready but waited for a core (from /proc/thread-self/schedstat).
- gThumb: `gthumb <folder>` (browser view), with GSETTINGS_BACKEND=keyfile and this keyfile in its own
  XDG_CONFIG_HOME (glib-2.0/settings/keyfile): org.gnome.gthumb.browser thumbnail-size=256 (the freedesktop "large"
  size, the nearest to our 220 px rows: gThumb fits each picture in 256x256), sidebar-visible=false,
  window-width=1280, window-height=1024, sort-type='file::name' (so the grid's order is the files' order; the
  default is by mtime). A user-dirs.dirs gives it an XDG_PICTURES_DIR: without one gThumb 3.12 crashes at start.

"Painted" (screen_watch.py): frames of the whole screen are grabbed every 50 ms (PIL's XCB grab, ~3 ms); the app is
painted at the first frame of a run of frames whose content area (the gallery, or gThumb's grid) stays identical for
0.5 s and shows pictures everywhere (only that area is compared: both apps' overlay scrollbars, beside it, fade
for about 0.85 s after each scroll, which had made End take 0.85 s in both): no flat 16x16 block other than the background's colour (a placeholder, a grey
cell, an empty window; the photos have grain everywhere) and at least a quarter of the blocks detailed. After keys,
the still run must also last 0.5 s past the last key. A spinner turning is a change, so a loading screen never
holds still. The time is the middle of that frame's grab: resolution 50 ms.

Figures (median and min-max of the runs):
1. warm launch -> first screen painted: from the Popen of the app.
2. CPU until then: utime+stime (/proc/PID/stat, with child processes) read at each frame, the value at that frame;
   peak RSS (VmHWM) once painted; peak RSS after Page Down held through all images (last run of each app only:
   Page Down every 15 ms, count/10 + 20 times, then painted).
3. End -> bottom painted, Home -> top painted: from the key press (XTEST) to the painted frame. One Home before,
   unmeasured: gThumb's first key only puts its cursor on the first thumbnail.
4. 20 x Page Up 40 ms apart, from the end: painted, from the first key and from the last; CPU from the first key to
   the painted frame.
5. Sharpness (first measured run of each app, first screen): the mean colour step between neighbouring pixels, i.e.
   the mean of |a - b| over R, G and B for every horizontally and every vertically adjacent pair of pixels inside a
   cell's picture, 8 px in from each edge (rounded corners, gThumb's frame and the edges' anti-aliasing left out),
   averaged over the fully visible cells (at most 12). Our cells: box and photo from AT-SPI (extents, description
   = URL). gThumb's: boxes found on screen (its grid, in name order), each checked against its photo's aspect ratio.
   The same measure on PIL's bilinear and Lanczos downscales of the same photo to the same on-screen size (cropped
   alike) is the reference; "cells / bilinear" is the goal's figure. At GDK_SCALE=2 (Xvfb 2560x2048, the window
   2560x2048 px) for our app too, one run after a warm-up.
6. 50,000 images (hard links to the photos): our app's warm launch -> first screen painted, `--runs` runs after a
   warm-up.
7. The launch curve (our app): warm launch -> first screen painted at 1,000, 10,000, 50,000 and 200,000 images
   (the photos, then hard links to them), a warm-up each, then `--runs` rounds launching each size once, the
   order alternating. Callgrind: the instructions of every thread of our app from its exec to the first screen
   painted, and of End and 20 x Page Up until painted (counters zeroed before), at 10,000 and 200,000 images,
   one run each under `valgrind --tool=callgrind` (`callgrind_control` dumps them): a figure the machine's load
   does not move, and of it the workers' (what the job lanes ran). The GTK thread's part includes the frames it
   draws while pictures arrive (spinners turn at the frame clock after 0.3 s), which valgrind's slowdown
   multiplies: compare the workers' figure, and the GTK thread's only between runs of similar length. Grain: sharpness (as in 5.) on `photo_set.grain_set()`, photos whose fine grain and noise a
   second resampling loses, at scale 1 and 2, each measured on a warm launch after a warm-up one.
8. Drops (our app; gThumb does not take URL drops): a loopback HTTP server (127.0.0.1) answers each image after 1 s;
   `drag_source.py` drags 100 image URLs (text/uri-list) into a 900x1000 window showing 3 photos, in front of the
   first one (real XDND, the button released through XTEST at a known time). `--runs` pairs of drops, each in a
   fresh session: a watched one, then a quiet one. The server is one asyncio thread. `--drop-servers N` spreads
   the 100 addresses over N ports of it (default 1): the app opens at most 6 connections a server, as browsers do,
   so from one server 100 answers take at least 17 s; from 17 or more the pipeline's own pace shows. `--drop-http2`
   serves them over TLS HTTP/2 instead (`slow_http2_server.py`, its test authority trusted through
   IMAGE_GALLERY_TEST_CA_FILE), where one connection carries every transfer.
   - Watched: the first frame after the release with placeholder tiles (flat grey blocks in the row the drop lands
     in, grabbed alone every 5 ms), and the time until the library lists all 103 images and the screen is painted
     with pictures. The library is read as `--print-state` prints it, once every address is in its folder's files
     and again each time one changes (each drop starts from a library of its own).
   - Quiet: no screen grab until the library lists all 103 images (looked at every 50 ms), then the same painted
     check. The main-loop stalls (IMAGE_GALLERY_STALL_LOG) from the release until the library lists them all are
     the goal's figure, over all quiet runs together. Each 5 MB grab keeps Xvfb and this script busy for several
     ms on one of the two cores, and the app's window thread then waits for a core behind them, so the stalls of
     the watched runs (reported too, without a goal) measure the benchmark as much as the app. The stalls in which
     the window's thread mostly waited for a core are counted apart too. Each run's log line
     also says how much CPU time the hypervisor took meanwhile (/proc/stat's steal), which no process can avoid.
One run at a time (memory_breakdown.py counts too): a second exits at once, naming the first, whose apps' homes and
cores it would share. Every process started is ended (its process group), Xvfb and the buses too, also on errors
and Ctrl+C; timeouts fail with what was on screen.
"""
import argparse
import asyncio
import collections
import fcntl
import glob
import json
import os
import random
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "e2e"))

PACKAGES = {  # what to check -> Debian package
    "cmd:gthumb": "gthumb", "cmd:Xvfb": "xvfb", "cmd:xdotool": "xdotool", "cmd:xwininfo": "x11-utils",
    "cmd:import": "imagemagick", "cmd:dbus-daemon": "dbus", "file:/usr/libexec/at-spi-bus-launcher": "at-spi2-core",
    "py:gi": "python3-gi", "file:/usr/lib/x86_64-linux-gnu/girepository-1.0/Atspi-2.0.typelib": "gir1.2-atspi-2.0",
    "file:/usr/lib/x86_64-linux-gnu/girepository-1.0/Gtk-3.0.typelib": "gir1.2-gtk-3.0", "py:PIL": "python3-pil",
    "py:numpy": "python3-numpy", "py:Xlib": "python3-xlib", "cmd:metacity": "metacity", "cmd:xprop": "x11-utils",
}

HOMES = "/tmp/image-gallery-bench-homes"
LOCK = "/tmp/image-gallery-bench.lock"  # outside HOMES, which --fresh deletes
SIZE = (1280, 1024)
WINDOW_MANAGER = ["metacity"]  # --window-manager: "metacity" or None
CURVE = (1000, 10000, 50000, 200000)  # the launch curve's library sizes
CALLGRIND_SIZES = (10000, 200000)
OUR_AREA = (0, 56, 1264, 860)       # the gallery canvas at 1280x1024 (below the header bar, above the trash zone)
GTHUMB_AREA = (0, 96, 1264, 832)    # gThumb's grid (below its location bar, above its filter bar)
INSET = 8
GALLERY_INSET = 4  # px from the gallery canvas's left edge to the middle of its 8 px margin (`pictures_everywhere`)


_held_lock = []  # the open lock file: the lock lasts while it stays open


def run_alone():
    """Holds LOCK while this process lives, or exits naming the run that holds it. Two runs at once share the
    apps' homes (each app merges the other's state file) and each measures the other's load on the two cores."""
    lock = open(LOCK, "a+")
    try:
        fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        lock.seek(0)
        sys.exit("another benchmark run (pid %s) is under way: its figures and this run's would be each "
                 "other's load; wait for it to end" % (lock.read().strip() or "?"))
    lock.truncate(0)
    lock.write(str(os.getpid()))
    lock.flush()
    _held_lock.append(lock)


def log(*words):
    sys.stderr.write(" ".join(str(w) for w in words) + "\n")
    sys.stderr.flush()


# ------------------------------------------------------------------------------------------------------------
# Setup
# ------------------------------------------------------------------------------------------------------------

def _present(check):
    kind, _, name = check.partition(":")
    if kind == "cmd":
        return shutil.which(name) is not None
    if kind == "file":
        return os.path.exists(name)
    try:
        __import__(name)
        return True
    except ImportError:
        return False


def setup():
    missing = sorted({package for check, package in PACKAGES.items() if not _present(check)})
    if not missing:
        return
    sudo = [] if os.geteuid() == 0 else ["sudo"]
    log("installing:", " ".join(missing))
    subprocess.run(sudo + ["apt-get", "update", "-qq"], check=False)
    result = subprocess.run(sudo + ["apt-get", "install", "-y", "--no-install-recommends"] + missing)
    if result.returncode != 0:
        sys.exit("apt-get install failed for: %s" % " ".join(missing))


# ------------------------------------------------------------------------------------------------------------
# Processes
# ------------------------------------------------------------------------------------------------------------

def cpu_seconds(pid):
    """utime+stime of pid and its descendants, in seconds (0 once it has gone)."""
    tick = os.sysconf("SC_CLK_TCK")
    total, stack, seen = 0, [pid], set()
    while stack:
        p = stack.pop()
        if p in seen:
            continue
        seen.add(p)
        try:
            with open("/proc/%d/stat" % p) as f:
                fields = f.read().rsplit(")", 1)[1].split()
            total += int(fields[11]) + int(fields[12])
            for task in os.listdir("/proc/%d/task" % p):
                with open("/proc/%d/task/%s/children" % (p, task)) as f:
                    stack += [int(c) for c in f.read().split()]
        except (OSError, IndexError, ValueError):
            continue
    return total / tick


def thread_cpu_seconds(pid):
    """utime+stime of each of pid's threads, in seconds, summed by thread name without its number ("decode-1")."""
    tick = os.sysconf("SC_CLK_TCK")
    totals = collections.Counter()
    for task in os.listdir("/proc/%d/task" % pid) if os.path.isdir("/proc/%d/task" % pid) else []:
        try:
            with open("/proc/%d/task/%s/stat" % (pid, task)) as f:
                stat = f.read()
        except OSError:
            continue
        name = stat[stat.index("(") + 1:stat.rindex(")")].rstrip("0123456789").rstrip("-")
        fields = stat.rsplit(")", 1)[1].split()
        totals[name] += (int(fields[11]) + int(fields[12])) / tick
    return totals


def memory_mb(pid, field="VmHWM"):
    with open("/proc/%d/status" % pid) as status:
        for line in status:
            if line.startswith(field + ":"):
                return int(line.split()[1]) / 1024
    return float("nan")


def end_process(proc, timeout=10):
    """SIGTERM to the process group it leads, then SIGKILL."""
    if proc is None:
        return
    for sig in (signal.SIGTERM, signal.SIGKILL):
        if proc.poll() is not None:
            break
        try:
            os.killpg(proc.pid, sig)
        except ProcessLookupError:
            break
        try:
            proc.wait(timeout)
        except subprocess.TimeoutExpired:
            continue
    try:  # leftovers of the group (helpers) after the leader exited
        os.killpg(proc.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


# ------------------------------------------------------------------------------------------------------------
# The two apps
# ------------------------------------------------------------------------------------------------------------

class Contender:
    name = "?"
    area = None
    place_within = 60  # seconds the window may take to be mapped

    def __init__(self, home):
        self.home = home
        self.proc = None
        self.bus = None
        self.window = None
        self.started = None

    def dirs(self):
        return {"HOME": self.home, "XDG_DATA_HOME": os.path.join(self.home, ".local", "share"),
                "XDG_CACHE_HOME": os.path.join(self.home, ".cache"),
                "XDG_CONFIG_HOME": os.path.join(self.home, ".config")}

    def launch(self, desktop, screen, size, extra_env=None):
        """Starts the app and puts its window at (0, 0) in `size` as soon as it is mapped. Returns the start time."""
        for d in self.dirs().values():
            os.makedirs(d, exist_ok=True)
        self.bus, address = desktop.new_session_bus()
        env = desktop.base_env()
        env.update(self.dirs())
        env["DBUS_SESSION_BUS_ADDRESS"] = address
        env.update(self.env())
        env.update(extra_env or {})
        env.pop("NO_AT_BRIDGE", None)
        self.out = open(os.path.join(self.home, "%s.log" % self.name.split()[0].lower()), "ab")
        self.started = time.monotonic()
        self.proc = subprocess.Popen(self.command(), env=env, stdin=subprocess.DEVNULL, stdout=self.out,
                                     stderr=self.out, cwd=self.home, start_new_session=True)
        threading.Thread(target=self._place, args=(screen.name, size), daemon=True).start()
        return self.started

    def _place(self, display, size):
        from screen_watch import Screen
        own = Screen(display)  # its own X connection: the main thread grabs frames meanwhile
        try:
            deadline = time.monotonic() + self.place_within
            while time.monotonic() < deadline and self.proc.poll() is None:
                windows = own.windows_of(self.proc.pid)
                if windows:
                    window = max(windows, key=lambda w: w.get_geometry().width * w.get_geometry().height)
                    own.place(window, 0, 0, *size)
                    self.window = window.id
                    return
                time.sleep(0.005)
        finally:
            own.close()

    def focus(self, screen):
        deadline = time.monotonic() + 10
        while self.window is None and time.monotonic() < deadline:
            time.sleep(0.05)
        if self.window is None:
            raise RuntimeError("%s: no window to focus" % self.name)
        screen.focus(screen.d.create_resource_object("window", self.window))

    def check_alive(self):
        if self.proc is not None and self.proc.poll() is not None:
            raise RuntimeError("%s exited with status %s; see %s" % (self.name, self.proc.returncode, self.out.name))

    def cpu(self):
        return cpu_seconds(self.proc.pid)

    def peak_mb(self):
        return memory_mb(self.proc.pid, "VmHWM")

    def stop(self):
        end_process(self.proc)
        self.proc = None
        if self.bus is not None:
            end_process(self.bus)
            self.bus = None
        self.window = None


class Stall(collections.namedtuple("Stall", "t ms ran waited")):
    """A main-loop stall: when it ended (monotonic s), how long (ms), and of that the ms the window's thread ran and
    the ms it was ready but waited for a core (None where the log does not say)."""

    @property
    def waiting_for_a_core(self):
        return self.waited is not None and self.waited >= self.ran

    def __str__(self):
        split = "" if self.waited is None else " (ran %.1f, waited for a core %.1f)" % (self.ran, self.waited)
        return "%.1f ms%s" % (self.ms, split)


class ImageGallery(Contender):
    name = "Image Gallery"
    area = OUR_AREA

    def __init__(self, home, binary, urls, aspects):
        super().__init__(home)
        self.binary = binary
        self.wrapper = []  # a command the app runs under (valgrind), none by default
        self.stall_log = os.path.join(home, "stalls.log")
        self.printed = None  # (the library folder's files, the images printed from them)
        state_dir = os.path.join(self.dirs()["XDG_DATA_HOME"], "image-gallery")
        os.makedirs(state_dir, exist_ok=True)
        self.state_path = os.path.join(state_dir, "state.json")
        # Each image measured (a likeness and a still), as in a library the app has looked at: the launch's
        # likeness pass would otherwise run at every start, its toast keeping the screen from holding still.
        from generated_library import PALETTES
        rng = random.Random(1)
        self.state = {"version": 1, "sidebarVisible": False, "shownGalleryID": "g", "galleries": [
            {"id": "g", "name": "Photos", "images": [
                {"id": "i%06d" % i, "url": url, "aspectRatio": round(aspect, 6), "animation": False,
                 "likeness": "%016x.%s" % (rng.getrandbits(64), PALETTES[i % len(PALETTES)])}
                for i, (url, aspect) in enumerate(zip(urls, aspects))]}]}
        self.write_state()

    def write_state(self):
        """The state as the run starts from, as a new library: the app's own record of its last write and reads
        goes too, or the app would take the file for one put over its own while it was down and merge its last
        write back in (a synced library's rule)."""
        with open(self.state_path, "w") as out:
            json.dump(self.state, out)
        local = os.path.join(self.home, ".local", "state", "image-gallery")  # $XDG_STATE_HOME unset: its default
        for name in glob.glob(os.path.join(local, "last-*-state*.json")):
            os.unlink(name)

    def fresh_library(self):
        """The state as the run starts from, in a library of its own: the journal, the kept originals and this
        computer's record of the state file taken in go, so the state file is taken in again."""
        shutil.rmtree(os.path.dirname(self.state_path), ignore_errors=True)
        shutil.rmtree(os.path.join(self.home, ".local", "state", "image-gallery"), ignore_errors=True)
        os.makedirs(os.path.dirname(self.state_path))
        self.write_state()
        self.printed = None

    def library_images(self, awaited=()):
        """The first gallery's images as `--print-state` prints the library (the journal, whatever its layout), or []
        while it cannot be read. Printed again only once every address in `awaited` is somewhere in the library
        folder's files (the kept originals left out) and one of them has changed since: each printout is a process
        that would take a core from the app it measures."""
        folder = os.path.dirname(self.state_path)
        files, contents = [], []
        for parent, _, names in os.walk(folder):
            if "/originals/" in parent + "/":
                continue
            for name in names:
                path = os.path.join(parent, name)
                try:
                    stat = os.stat(path)
                    with open(path, "rb") as f:
                        contents.append(f.read())
                except OSError:
                    continue
                files.append((parent, name, stat.st_size, stat.st_mtime_ns))
        files.sort()
        if self.printed and self.printed[0] == files:
            return self.printed[1]
        everything = b"".join(contents)
        if not all(address.encode() in everything for address in awaited):
            return []
        env = dict(os.environ)
        env.update(self.dirs())
        for name in ("DISPLAY", "WAYLAND_DISPLAY", "DBUS_SESSION_BUS_ADDRESS"):
            env.pop(name, None)
        done = subprocess.run([self.binary, "--print-state"], env=env, stdin=subprocess.DEVNULL,
                              capture_output=True, timeout=30)
        try:
            images = json.loads(done.stdout)["galleries"][0]["images"] if done.returncode == 0 else []
        except (ValueError, KeyError, IndexError):
            images = []
        self.printed = (files, images)
        return images

    def command(self):
        return self.wrapper + [self.binary]

    def env(self):
        return {"IMAGE_GALLERY_STALL_LOG": self.stall_log}

    def harness_app(self, desktop):
        """An e2e harness App bound to the running process: its AT-SPI readers (cells(), gallery())."""
        import harness
        app = harness.App(None, desktop=desktop, root=os.path.join(self.home, "harness"), binary=self.binary)
        app.proc = self.proc
        return app

    def gallery_area(self, desktop):
        """The gallery's canvas on screen (`gallery_area`)."""
        return gallery_area(self.harness_app(desktop))

    def stalls(self, since=None, until=None):
        """[Stall] of the stall log, monotonic times, within [since, until]; None without a log."""
        if not os.path.exists(self.stall_log):
            return None
        out = []
        start = self.started  # the Popen, unless the log says when its clock started
        with open(self.stall_log) as f:
            for line in f:
                parts = line.split()
                if len(parts) == 2 and parts[0] == "start":
                    start = float(parts[1])
                elif len(parts) in (3, 5) and parts[0] == "stall":
                    try:
                        t, ms = start + float(parts[1]), float(parts[2])
                        ran, waited = (float(parts[3]), float(parts[4])) if len(parts) == 5 else (None, None)
                    except ValueError:
                        continue
                    if (since is None or t >= since) and (until is None or t <= until):
                        out.append(Stall(t, ms, ran, waited))
        return out

    def launch(self, desktop, screen, size, extra_env=None):
        if os.path.exists(self.stall_log):
            os.remove(self.stall_log)
        return super().launch(desktop, screen, size, extra_env)


class GThumb(Contender):
    name = "gThumb"
    area = GTHUMB_AREA
    THUMBNAIL_SIZE = 256

    def __init__(self, home, folder):
        super().__init__(home)
        self.folder = folder
        config = self.dirs()["XDG_CONFIG_HOME"]
        os.makedirs(os.path.join(config, "glib-2.0", "settings"), exist_ok=True)
        os.makedirs(os.path.join(self.home, "Pictures"), exist_ok=True)
        with open(os.path.join(config, "user-dirs.dirs"), "w") as f:
            f.write('XDG_PICTURES_DIR="$HOME/Pictures"\nXDG_DESKTOP_DIR="$HOME"\nXDG_DOWNLOAD_DIR="$HOME"\n')
        keyfile = os.path.join(config, "glib-2.0", "settings", "keyfile")
        settings = {"thumbnail-size": str(self.THUMBNAIL_SIZE), "sidebar-visible": "false",
                    "window-width": str(SIZE[0]), "window-height": str(SIZE[1]), "sort-type": "'file::name'",
                    "sort-inverse": "false", "maximized": "false"}
        _set_keyfile(keyfile, "org/gnome/gthumb/browser", settings)

    def command(self):
        return ["gthumb", self.folder]

    def env(self):
        return {"GSETTINGS_BACKEND": "keyfile"}

    def thumbnails(self):
        folder = os.path.join(self.dirs()["XDG_CACHE_HOME"], "thumbnails", "large")
        try:
            return len(os.listdir(folder))
        except OSError:
            return 0


def _set_keyfile(path, group, values):
    """Sets keys of one group in a GLib keyfile, keeping what gThumb wrote there."""
    lines = open(path).read().splitlines() if os.path.exists(path) else []
    out, current, done = [], None, set()
    for line in lines:
        if line.startswith("["):
            if current == group:
                out += ["%s=%s" % (k, v) for k, v in values.items() if k not in done]
                done.update(values)
            current = line.strip("[]")
        elif current == group and "=" in line and line.split("=", 1)[0] in values:
            key = line.split("=", 1)[0]
            out.append("%s=%s" % (key, values[key]))
            done.add(key)
            continue
        out.append(line)
    if current == group:
        out += ["%s=%s" % (k, v) for k, v in values.items() if k not in done]
        done.update(values)
    if len(done) < len(values):
        out += ["", "[%s]" % group] + ["%s=%s" % (k, v) for k, v in values.items()]
    with open(path, "w") as f:
        f.write("\n".join(out) + "\n")


# ------------------------------------------------------------------------------------------------------------
# Sharpness
# ------------------------------------------------------------------------------------------------------------

def _reference_steps(path, width, height, inset):
    from PIL import Image
    from screen_watch import neighbour_step
    import numpy
    source = Image.open(path).convert("RGB")
    out = []
    for method in (Image.BILINEAR, Image.LANCZOS):
        small = numpy.asarray(source.resize((width, height), method))
        out.append(neighbour_step(small[inset:height - inset, inset:width - inset]))
    return out


def sharpness_of_boxes(frame, boxes, inset):
    """boxes: [(x, y, w, h, path)] in device px. Returns {cells, bilinear, lanczos, n, ratio} (means over the boxes),
    worst (the lowest cell's own cells / bilinear: the goal holds for every cell) and cells ([(w, h, ratio)])."""
    from screen_watch import neighbour_step
    rows, kept = [], []
    for x, y, w, h, path in boxes:
        if w <= 2 * inset + 4 or h <= 2 * inset + 4:
            continue
        kept.append((x, y, w, h))
        cell = neighbour_step(frame[y + inset:y + h - inset, x + inset:x + w - inset])
        bilinear, lanczos = _reference_steps(path, w, h, inset)
        rows.append((cell, bilinear, lanczos))
    if not rows:
        return None
    n = len(rows)
    return {"cells": sum(r[0] for r in rows) / n, "bilinear": sum(r[1] for r in rows) / n,
            "lanczos": sum(r[2] for r in rows) / n, "n": n,
            "ratio": sum(r[0] / r[1] for r in rows) / n, "worst": min(r[0] / r[1] for r in rows),
            "cells_ratios": [(box[2], box[3], r[0] / r[1]) for box, r in zip(kept, rows)]}


def gallery_area(gui):
    """The gallery's canvas on screen (x, y, w, h) as the app (a harness App) tells assistive technologies, or None
    while its window has none: what is painted beside a sidebar. Looked for down the window's tree without going into
    list boxes, whose rows (a sidebar's 200 galleries) would each be a round trip to the GTK thread."""
    import harness
    frame = harness._safe(gui.frame)
    pending = [frame] if frame is not None else []
    while pending:
        node = pending.pop(0)
        role = harness._safe(lambda: node.role)
        if role == harness.ROLE.LAYERED_PANE and harness._safe(lambda: node.name) == gui.gallery_name:
            extents = harness._safe(node.extents)
            return tuple(extents) if extents and extents[2] > 0 and extents[3] > 0 else None
        if role not in (harness.ROLE.LIST_BOX, harness.ROLE.LAYERED_PANE):
            pending.extend(harness._safe(node.children, []) or [])
    return None


def our_boxes(app, area, scale, limit=12):
    x0, y0, w0, h0 = area
    boxes = []
    for cell in app.cells():
        x, y, w, h = (v * scale for v in (cell.x, cell.y, cell.width, cell.height))
        if cell.settled and x >= x0 and y >= y0 and x + w <= x0 + w0 and y + h <= y0 + h0 \
                and cell.url.startswith("file://"):
            boxes.append((x, y, w, h, urllib.parse.unquote(cell.url[len("file://"):])))
    return boxes[:limit]


def _runs(flags, min_length):
    out, start = [], None
    for i, on in enumerate(list(flags) + [False]):
        if on and start is None:
            start = i
        elif not on and start is not None:
            if i - start >= min_length:
                out.append((start, i))
            start = None
    return out


def gthumb_boxes(frame, area, paths, sizes, limit=12):
    """gThumb's thumbnails on the first screen: [(x, y, w, h, path)] of the pictures (frame left out), found as
    the non-background rectangles of its grid, in grid order = name order, kept when their aspect matches."""
    import numpy
    x0, y0, w0, h0 = area
    region = frame[y0:y0 + h0, x0:x0 + w0].astype(numpy.int16)
    background = region[h0 // 2, 6]
    mask = numpy.abs(region - background).max(axis=2) > 12
    columns = _runs(mask.any(axis=0), 40)
    found = []
    for ci, (cx0, cx1) in enumerate(columns):
        for ry0, ry1 in _runs(mask[:, cx0:cx1].any(axis=1), 40):
            xs = _runs(mask[ry0:ry1, cx0:cx1].any(axis=0), 40)
            if not xs or ry0 == 0 or ry1 >= h0:
                continue
            bx0, bx1 = max(xs, key=lambda r: r[1] - r[0])
            found.append((ci, x0 + cx0 + bx0, y0 + ry0, bx1 - bx0, ry1 - ry0))
    # rows: thumbnails of one grid row share their bottom edge
    found.sort(key=lambda b: b[2] + b[4])
    rows, boxes = [], []
    for box in found:
        if rows and abs(rows[-1][0][2] + rows[-1][0][4] - (box[2] + box[4])) <= 4:
            rows[-1].append(box)
        else:
            rows.append([box])
    per_row = len(columns)
    mismatched = 0
    for r, row in enumerate(rows):
        for ci, x, y, w, h in row:
            index = r * per_row + ci
            if index >= len(paths):
                continue
            sw, sh = sizes[index]
            tw, th = (GThumb.THUMBNAIL_SIZE, round(GThumb.THUMBNAIL_SIZE * sh / sw)) if sw >= sh else \
                (round(GThumb.THUMBNAIL_SIZE * sw / sh), GThumb.THUMBNAIL_SIZE)
            if abs(w - tw) > 8 or abs(h - th) > 8:
                mismatched += 1
                continue
            # the picture, centred in its frame
            boxes.append((x + (w - tw) // 2, y + (h - th) // 2, tw, th, paths[index]))
    return boxes[:limit], mismatched


# ------------------------------------------------------------------------------------------------------------
# Runs
# ------------------------------------------------------------------------------------------------------------

class Session:
    """One fresh Xvfb desktop and its frame grabber, stopped on exit whatever happens."""

    def __init__(self, size=SIZE):
        self.size = size

    def __enter__(self):
        import harness
        from screen_watch import Screen
        self.desktop = harness.start_desktop(width=self.size[0], height=self.size[1],
                                             window_manager=WINDOW_MANAGER[0])
        self.screen = Screen(self.desktop.display)
        return self

    def __exit__(self, *exc):
        import harness
        self.screen.close()
        harness.stop_desktop()


class Bench:
    def __init__(self, args):
        self.args = args
        self.results = {}     # figure -> {"ours": [...], "gthumb": [...]}
        self.notes = []
        self.artifacts = args.artifacts
        self.recorder = None  # --trace-stalls: the scheduler's flight recorder while the drops run
        self.waits = {True: [], False: []}  # quiet? -> [(released, {"window": [Wait], "Xvfb": [Wait]})]

    def record(self, figure, who, value, measured=True):
        self._last = getattr(self, "_last", {})
        self._last[(figure, who)] = value
        if value is None or not measured:
            return
        self.results.setdefault(figure, {}).setdefault(who, []).append(value)

    def last(self, figure, who):
        return self._last.get((figure, who), float("nan"))

    def painted(self, session, app, since, what, timeout=60, quiet_after=None, area=None, scale=1, min_detail=0.25):
        area = area or tuple(v * scale for v in app.area)

        def cpu():
            return app.cpu()

        try:
            return session.screen.wait_painted(area, since, timeout, cpu=cpu, what="%s: %s" % (app.name, what),
                                               artifacts=self.artifacts, quiet_after=quiet_after,
                                               min_detail=min_detail)
        finally:
            app.check_alive()

    def run_app(self, app, who, measured, first, sweep, sharpness):
        """One run of one app in a fresh Xvfb: launch, End, 20 x Page Up, Home (and a sweep, sharpness)."""
        with Session() as session:
            try:
                started = app.launch(session.desktop, session.screen, SIZE)
                result = self.painted(session, app, started, "first screen after launch", timeout=120)
                peak = app.peak_mb()
                if measured:
                    self.record("launch", who, result["t"])
                    self.record("launch_cpu", who, result["cpu"])
                    self.record("rss_first", who, peak)
                log("  %s: first screen painted %.2f s, CPU %.2f s, peak RSS %.0f MB"
                    % (app.name, result["t"], result["cpu"], peak))
                if sharpness:
                    self.sharpness(session, app, who, result["frame"])
                app.focus(session.screen)
                # a first key, unmeasured: gThumb's first key only puts its cursor on the first thumbnail, and
                # both apps then show the keyboard focus the same way for the rest of the run
                pressed = session.screen.key("Home")
                self.painted(session, app, 0, "the first Home", quiet_after=lambda: pressed)

                pressed = session.screen.key("End")
                end = self.painted(session, app, 0, "End", quiet_after=lambda: pressed)
                self.record("end", who, end["t"] - pressed, measured)

                cpu_before = app.cpu()
                times, ups = self.press_until_painted(session, app, "Prior", 20, 0.04, "20 x Page Up")
                stalls = app.stalls(times[0], ups["t"]) if isinstance(app, ImageGallery) else None
                if measured:
                    self.record("pgup_first", who, ups["t"] - times[0])
                    self.record("pgup_last", who, ups["t"] - times[-1])
                    self.record("pgup_cpu", who, ups["cpu"] - cpu_before)
                    if stalls is not None:
                        self.record("pgup_stall", who, max([stall.ms for stall in stalls] or [0]))
                if stalls:
                    log("  %s: Page Up's stalls over 8 ms: %s" % (app.name, ", ".join(map(str, stalls))))

                pressed = session.screen.key("Home")
                home = self.painted(session, app, 0, "Home", quiet_after=lambda: pressed)
                if measured:
                    self.record("home", who, home["t"] - pressed)
                log("  %s: End %.2f s; 20 x Page Up: %.2f s from the first key, %.2f from the last, CPU %.2f s; "
                    "Home %.2f s" % (app.name, self.last("end", who), ups["t"] - times[0], ups["t"] - times[-1],
                                     ups["cpu"] - cpu_before, home["t"] - pressed))

                if sweep:
                    self.sweep(session, app)
                    peak = app.peak_mb()
                    if measured:
                        self.record("rss_scrolled", who, peak)
                    log("  %s: peak RSS after Page Down through all: %.0f MB" % (app.name, peak))
            finally:
                app.stop()

    def press_until_painted(self, session, app, key, count, interval, what, timeout=60):
        """Presses `key` `count` times, `interval` s apart, from another thread while frames are grabbed.
        Returns the presses' times and painted()'s result (the screen still past the last press)."""
        times = []
        quiet = [float("inf")]

        def press():
            times.extend(session.screen.keys(key, count, interval))
            quiet[0] = times[-1]

        sender = threading.Thread(target=press)
        sender.start()
        try:
            result = self.painted(session, app, 0, what, timeout=timeout, quiet_after=lambda: quiet[0])
        finally:
            sender.join()
        return times, result

    def sweep(self, session, app):
        """Page Down held through every image (every 15 ms), until the last screen is painted."""
        pages = self.args.count // 10 + 20
        self.press_until_painted(session, app, "Next", pages, 0.015, "Page Down through all images",
                                 timeout=180 + pages * 0.05)

    def sharpness(self, session, app, who, frame, scale=1, figure="sharp"):
        if isinstance(app, ImageGallery):
            boxes = our_boxes(app.harness_app(session.desktop), tuple(v * scale for v in app.area), scale)
            mismatched = 0
        else:
            boxes, mismatched = gthumb_boxes(frame, app.area, self.paths, self.sizes)
        measured = sharpness_of_boxes(frame, boxes, INSET * scale)
        if measured is None:
            self.notes.append("%s: no cell to measure sharpness on (%d boxes)" % (app.name, len(boxes)))
            return
        if mismatched:
            self.notes.append("%s: %d thumbnails left out of the sharpness (size not as expected)"
                              % (app.name, mismatched))
        for key in ("cells", "bilinear", "lanczos", "ratio", "worst"):
            self.record("%s_%s" % (figure, key), who, measured[key])
        log("  %s%s sharpness over %d cells: %.1f (bilinear %.1f, Lanczos %.1f; cells/bilinear %.2f, lowest cell %.2f; "
            "each cell %s)"
            % (app.name, " at scale %d" % scale if scale > 1 else "", measured["n"], measured["cells"],
               measured["bilinear"], measured["lanczos"], measured["ratio"], measured["worst"],
               ", ".join("%dx%d %.2f" % cell for cell in measured["cells_ratios"])))

    # --- the parts ---
    def prepare(self):
        from photo_set import linked_set, photo_set, size_of
        import harness
        count = self.args.count
        self.paths = photo_set(count, log=log)
        self.sizes = [size_of(i) for i in range(count)]
        self.urls = [harness.file_url(p) for p in self.paths]
        self.aspects = [w / h for w, h in self.sizes]
        self.folder = os.path.dirname(self.paths[0])
        if self.args.fresh:
            shutil.rmtree(HOMES, ignore_errors=True)
        os.makedirs(HOMES, exist_ok=True)
        self.ours = ImageGallery(os.path.join(HOMES, "ours-%d" % count), self.args.binary, self.urls, self.aspects)
        self.gthumb = GThumb(os.path.join(HOMES, "gthumb-%d" % count), self.folder)
        self.linked = lambda n: linked_set(n, self.paths)

    def part_launch_keys(self):
        runs = self.args.runs
        log("warm-up runs (unmeasured)")
        self.run_app(self.ours, "ours", False, True, False, False)
        self.run_app(self.gthumb, "gthumb", False, True, False, False)
        self.warm_ours()
        self.warm_gthumb()
        for i in range(runs):
            order = [(self.ours, "ours"), (self.gthumb, "gthumb")]
            if i % 2:
                order.reverse()
            for app, who in order:
                log("run %d/%d: %s" % (i + 1, runs, app.name))
                self.run_app(app, who, True, False, sweep=(i == runs - 1) and "sweep" in self.parts,
                             sharpness=(i == 0) and "sharpness" in self.parts)

    def warm_ours(self):
        """Our app thumbnails what it shows, at the size it shows it: let it show every photo once (a slow Page
        Down through the gallery, each screen painted before the next key), as a user who has looked through
        their collection has, so that no measured run pays for thumbnails, as gThumb's warm-up below does for
        gThumb. Done once per home (a marker file records it)."""
        marker = os.path.join(self.ours.home, "shown-every-photo")
        if os.path.exists(marker):
            return
        log("Image Gallery: showing each of the %d photos once, so that it has their thumbnails ..." % self.args.count)
        with Session() as session:
            try:
                started = self.ours.launch(session.desktop, session.screen, SIZE)
                self.painted(session, self.ours, started, "first screen (warm-up)", timeout=120)
                self.ours.focus(session.screen)
                harness_app = self.ours.harness_app(session.desktop)
                last = None
                while True:
                    pressed = session.screen.key("Next")
                    session.screen.wait_painted(self.ours.area, 0, 60, hold=0.1, what="warm-up screen",
                                                quiet_after=lambda: pressed)
                    cells = harness_app.cells()
                    ids = [c.url for c in cells]
                    if ids == last:
                        break
                    last = ids
                with open(marker, "w") as out:
                    out.write("%d\n" % self.args.count)
            finally:
                self.ours.stop()

    def warm_gthumb(self):
        """gThumb thumbnails the whole folder in the background: let it finish once, so that no measured run
        pays for thumbnails (a later invocation finds them on disk)."""
        count = self.args.count
        if self.gthumb.thumbnails() >= count:
            return
        log("gThumb: letting it thumbnail all %d photos once (%d done) ..." % (count, self.gthumb.thumbnails()))
        with Session() as session:
            try:
                self.gthumb.launch(session.desktop, session.screen, SIZE)
                last, still_since = -1, time.monotonic()
                deadline = time.monotonic() + max(600, count * 0.1)
                while time.monotonic() < deadline:
                    self.gthumb.check_alive()
                    n = self.gthumb.thumbnails()
                    if n >= count:
                        break
                    if n != last:
                        last, still_since = n, time.monotonic()
                    elif time.monotonic() - still_since > 30:
                        # gThumb only thumbnails what it shows past some point: show it everything
                        session.screen.focus(session.screen.d.create_resource_object("window", self.gthumb.window))
                        session.screen.keys("Next", 40, 0.1)
                        still_since = time.monotonic()
                    time.sleep(2)
                log("gThumb: %d thumbnails" % self.gthumb.thumbnails())
            finally:
                self.gthumb.stop()

    def part_scale2(self):
        log("GDK_SCALE=2 (Xvfb 2560x2048)")
        size = (SIZE[0] * 2, SIZE[1] * 2)
        for measured in (False, True):
            with Session(size) as session:
                try:
                    started = self.ours.launch(session.desktop, session.screen, size, {"GDK_SCALE": "2"})
                    try:
                        result = self.painted(session, self.ours, started, "first screen at scale 2", timeout=60,
                                              scale=2)
                    except TimeoutError as error:
                        # measured all the same, on the cells that did load
                        cells = self.ours.harness_app(session.desktop).cells()
                        stuck = [c for c in cells if not c.settled]
                        self.notes.append("GDK_SCALE=2 (%s run): not painted within 60 s, %d of %d visible cells "
                                          "still loading (%s)" % ("measured" if measured else "warm-up", len(stuck),
                                                                  len(cells), error))
                        log("  " + self.notes[-1])
                        result = {"t": None, "frame": session.screen.grab()[1]}
                    if measured:
                        self.record("launch_scale2", "ours", result["t"])
                        self.sharpness(session, self.ours, "ours", result["frame"], scale=2, figure="sharp2")
                finally:
                    self.ours.stop()

    def part_50k(self):
        n = 50000
        paths = self.linked(n)
        from photo_set import size_of
        import harness
        sizes = [size_of(i % len(self.paths)) for i in range(n)]
        app = ImageGallery(os.path.join(HOMES, "ours-%d-linked-%d" % (n, len(self.paths))), self.args.binary,
                           [harness.file_url(p) for p in paths], [w / h for w, h in sizes])
        log("50,000 images: our app's launch")
        for i in range(self.args.runs + 1):
            with Session() as session:
                try:
                    started = app.launch(session.desktop, session.screen, SIZE)
                    result = self.painted(session, app, started, "first screen of 50,000", timeout=120)
                    if i:
                        self.record("launch_50k", "ours", result["t"])
                        self.record("launch_50k_cpu", "ours", result["cpu"])
                    log("  %s: %.2f s" % ("measured" if i else "warm-up", result["t"]))
                finally:
                    app.stop()

    def library_of(self, n):
        """Our app on one gallery of n images: the photos, then hard links to them (their first screen is the
        photos' first screen), in a home of its own warmed by its first run."""
        import harness
        base = len(self.paths)
        paths = self.paths[:n] if n <= base else self.paths + self.linked(n)[base:]
        return ImageGallery(os.path.join(HOMES, "ours-curve-%d-of-%d" % (n, base)), self.args.binary,
                            [harness.file_url(p) for p in paths], [self.aspects[i % base] for i in range(n)])

    def part_curve(self):
        """Warm launch -> first screen painted at each of CURVE's sizes: one warm-up each, then `--runs` rounds,
        each launching every size once, in an order that alternates between rounds."""
        apps = {n: self.library_of(n) for n in CURVE}
        log("launch curve: %s images" % ", ".join("{:,}".format(n) for n in CURVE))
        for i in range(self.args.runs + 1):
            order = list(CURVE) if i % 2 == 0 else list(reversed(CURVE))
            for n in order:
                with Session() as session:
                    try:
                        started = apps[n].launch(session.desktop, session.screen, SIZE)
                        result = self.painted(session, apps[n], started, "first screen of %d" % n, timeout=120)
                        if i:
                            self.record("curve_%d" % n, "ours", result["t"])
                            self.record("curve_%d_cpu" % n, "ours", result["cpu"])
                        log("  %d images, %s: %.2f s, CPU %.2f s" % (n, "measured" if i else "warm-up", result["t"],
                                                                     result["cpu"]))
                    finally:
                        apps[n].stop()

    def part_callgrind(self):
        """Instructions (valgrind --tool=callgrind, every thread of the app) from the exec to the first screen
        painted, and of End then 20 x Page Up until painted, counters zeroed just before (callgrind_control -z,
        -d): figures that the load of the machine does not move. `--runs` is not used: one run per size after the
        curve's (or a plain) warm-up."""
        for n in CALLGRIND_SIZES:
            app = self.library_of(n)
            self.warm_scroll(app, n)
            out = os.path.join(app.home, "callgrind.out")
            for old in glob.glob(out + "*"):
                os.remove(old)
            # valgrind gives up on the DWARF Swift writes ("possibly corrupted debuginfo"): a copy without it,
            # beside the binary so that it finds the same data folder; the symbols stay, for callgrind_annotate
            stripped = self.args.binary + ".nodebug"
            subprocess.run(["strip", "--strip-debug", "-o", stripped, self.args.binary], check=True)
            app.binary = stripped
            app.wrapper = ["valgrind", "--tool=callgrind", "--callgrind-out-file=" + out]
            # Valgrind reads the whole executable first: a statically linked release build maps its window after
            # more than a minute.
            app.place_within = 600
            log("callgrind: %d images" % n)
            with Session() as session:
                try:
                    started = app.launch(session.desktop, session.screen, SIZE)
                    self.painted(session, app, started, "first screen of %d under callgrind" % n, timeout=600)
                    launch = callgrind_dump(app.proc.pid, out)
                    app.focus(session.screen)
                    subprocess.run(["callgrind_control", "-z", str(app.proc.pid)], check=True,
                                   stdout=subprocess.DEVNULL)
                    pressed = session.screen.key("End")
                    self.painted(session, app, 0, "End under callgrind", timeout=300, quiet_after=lambda: pressed)
                    times, _ = self.press_until_painted(session, app, "Prior", 20, 0.04, "20 x Page Up",
                                                        timeout=300)
                    scroll = callgrind_dump(app.proc.pid, out)
                    self.record("cg_launch_%d" % n, "ours", launch[0] / 1e9)
                    self.record("cg_launch_workers_%d" % n, "ours", launch[1] / 1e9)
                    self.record("cg_scroll_%d" % n, "ours", scroll[0] / 1e9)
                    self.record("cg_scroll_workers_%d" % n, "ours", scroll[1] / 1e9)
                    log("  launch %.3f G instructions (workers %.3f G); End and 20 x Page Up %.3f G (workers %.3f G)"
                        % (launch[0] / 1e9, launch[1] / 1e9, scroll[0] / 1e9, scroll[1] / 1e9))
                finally:
                    app.stop()
                    app.wrapper = []
                    app.binary = self.args.binary

    def warm_scroll(self, app, n):
        """The measured run's launch and keys once without valgrind, so that their screens' thumbnails exist:
        the counts are those of a warm launch and a warm scroll."""
        with Session() as session:
            try:
                started = app.launch(session.desktop, session.screen, SIZE)
                self.painted(session, app, started, "first screen of %d (warm-up)" % n, timeout=120)
                app.focus(session.screen)
                pressed = session.screen.key("End")
                self.painted(session, app, 0, "End (warm-up)", quiet_after=lambda: pressed)
                for _ in range(20):
                    pressed = session.screen.key("Prior")
                    self.painted(session, app, 0, "Page Up (warm-up)", quiet_after=lambda: pressed)
            finally:
                app.stop()

    def part_grain(self):
        """Sharpness on photos of fine grain and noise (photo_set.grain_set), at scale 1 and 2: a warm-up run
        that makes the thumbnails, then the measured run, which shows what a warm launch reads."""
        from photo_set import grain_set
        import harness
        paths, sizes = grain_set()
        app = ImageGallery(os.path.join(HOMES, "ours-grain-%d" % len(paths)), self.args.binary,
                           [harness.file_url(p) for p in paths], [w / h for w, h in sizes])
        for scale in (1, 2):
            size = (SIZE[0] * scale, SIZE[1] * scale)
            log("grain and noise at scale %d" % scale)
            for measured in (False, True):
                with Session(size) as session:
                    try:
                        started = app.launch(session.desktop, session.screen, size, {"GDK_SCALE": str(scale)})
                        result = self.painted(session, app, started, "grain photos at scale %d" % scale,
                                              timeout=120, scale=scale)
                        if measured:
                            self.sharpness(session, app, "ours", result["frame"], scale=scale,
                                           figure="grain" if scale == 1 else "grain2")
                    finally:
                        app.stop()

    def part_drop(self):
        servers = self.args.drop_servers
        log("drop of 100 URLs from %s answering in 1 s%s" % ("a loopback server" if servers == 1 else
                                                            "%d loopback servers" % servers,
                                                            " over TLS HTTP/2" if self.args.drop_http2 else ""))
        if self.args.drop_http2:
            from slow_http2_server import SlowHTTP2Server
            server = SlowHTTP2Server({"photo/%d.jpg" % i: path for i, path in enumerate(self.paths[:100])},
                                     delay=1.0, ports=servers)
        else:
            server = SlowServer(self.paths[:100], delay=1.0, ports=servers)
        import harness
        # written again before each drop (a drop adds to it)
        app = ImageGallery(os.path.join(HOMES, "ours-drop"), self.args.binary,
                           [harness.file_url(p) for p in self.paths[-3:]], self.aspects[-3:])
        quiet_stalls, watched_stalls = [], []
        if self.args.trace_stalls:
            import stall_trace
            try:
                self.recorder = stall_trace.FlightRecorder().start()
            except stall_trace.Unavailable as error:
                self.notes.append("--trace-stalls: %s; the drops were measured without it" % error)
        try:
            for run in range(self.args.runs):
                # Watched: the screen grabbed for the placeholder and the painted pictures. Quiet: nothing
                # grabbed until the library lists every image. A 5 MB grab keeps Xvfb and this script
                # busy for several ms on one of the two cores, and the window's thread waits for a core
                # behind them: the stalls are counted in the quiet runs.
                for quiet in (False, True):
                    result = self.drop_once(app, server, quiet)
                    (quiet_stalls if quiet else watched_stalls).extend(result["stalls"])
                    if not quiet:
                        self.record("drop_placeholder", "ours", result["placeholder"])
                        self.record("drop_landed", "ours", result["landed"])
                    else:
                        self.record("drop_landed_quiet", "ours", result["landed"])
        finally:
            server.stop()
            if self.recorder:
                self.recorder.stop()
                self.report_waits()
        self.record("drop_stall_max", "ours", max([stall.ms for stall in quiet_stalls] or [0]))
        self.record("drop_stalls", "ours", len(quiet_stalls))
        self.record("drop_stalls_waiting", "ours", sum(1 for stall in quiet_stalls if stall.waiting_for_a_core))
        self.record("drop_stalls_watched", "ours", len(watched_stalls))

    def drop_once(self, app, server, quiet):
        """One drop of the server's 100 URLs into `app` showing 3 photos, in a fresh session: {"placeholder" ms
        (None when quiet), "landed" s (the library lists all and the screen is painted), "stalls" [Stall]}."""
        from drag_source import DragSource, target, uri_list
        from screen_watch import flat_grey_blocks
        window = (900, 1000)
        area = (0, 56, 880, 830)
        server.reset()
        app.fresh_library()
        with Session() as session:
            source = None
            try:
                started = app.launch(session.desktop, session.screen, window,
                                     server.env() if hasattr(server, "env") else None)
                self.painted(session, app, started, "the 3 photos before the drop", area=area, min_detail=0.05)
                cells = app.harness_app(session.desktop).wait_cells(lambda cs: len(cs) == 3, 20)
                source = DragSource(session.desktop, [target("text/uri-list", uri_list(*server.urls))],
                                    x=960, y=120, workdir=os.path.join(app.home, "drag-source")).start()
                point = (cells[0].x + max(4, cells[0].width // 5), cells[0].y + cells[0].height // 2)
                session.desktop.drag(source.center, point, hold_at_end=0.6, release=False)
                if self.recorder:
                    self.recorder.clear()
                released = session.screen.button(False)
                stolen = steal_ms()
                cpu_before = (cpu_seconds(app.proc.pid), cpu_seconds(session.desktop.xvfb.pid),
                              thread_cpu_seconds(app.proc.pid))
                placeholder = None
                deadline = released + (0 if quiet else 5)
                # Only the row the drop lands in, every 5 ms: a grab of the whole screen took Xvfb and this
                # script 20 ms, and looking at it 40 ms more, so they had measured themselves.
                row = (0, cells[0].y, area[2], cells[0].height)
                next_grab = released
                while time.monotonic() < deadline:
                    time.sleep(max(0.0, next_grab - time.monotonic()))
                    next_grab = time.monotonic() + 0.005
                    t, frame = session.screen.grab(row)
                    if flat_grey_blocks(frame, (0, 0, row[2], row[3])) >= 4:
                        placeholder = t - released
                        break
                source.wait_for("drag-end", 15)
                if not source.find("drag-end").startswith("drag-end succeeded=yes"):
                    raise RuntimeError("the drop was refused: %s" % source.lines)
                landed_state = None
                images = []
                deadline = released + 120
                while time.monotonic() < deadline:
                    images = app.library_images(server.urls)
                    if len(images) >= 103:
                        landed_state = time.monotonic()
                        break
                    time.sleep(0.05)
                if landed_state is None:
                    cells = app.harness_app(session.desktop).cells()
                    raise TimeoutError("the library lists %d of the 103 images 120 s after the drop (server "
                                       "answered %d requests); visible cells: %s"
                                       % (len(images), server.hits, [c.name for c in cells][:8]))
                # Quiet: the stalls up to here, before the grabs of the painted check begin.
                stalls = app.stalls(released, landed_state) if quiet else None
                stolen = steal_ms() - stolen
                threads = thread_cpu_seconds(app.proc.pid)
                threads.subtract(cpu_before[2])
                cpu = (cpu_seconds(app.proc.pid) - cpu_before[0],
                       cpu_seconds(session.desktop.xvfb.pid) - cpu_before[1],
                       ", ".join("%s %.2f" % (name, seconds) for name, seconds in threads.most_common(4)))
                painted = self.painted(session, app, 0, "the dropped images", area=area, timeout=60)
                landed = max(landed_state, painted["t"]) - released
                if not quiet:
                    stalls = app.stalls(released, released + landed)
                visible = app.harness_app(session.desktop).cells()
                if any(c.placeholder or c.loading for c in visible):
                    self.notes.append("drop: cells still loading after it was painted: %s"
                                      % [c.name for c in visible if not c.settled][:5])
                if stalls is None:
                    raise RuntimeError("the app wrote no IMAGE_GALLERY_STALL_LOG: build it with `--traits StallLog`")
                log("  %s: placeholder %s after the release, all landed %.2f s (the library %.2f s, painted %.2f s), "
                    "%d stalls over 8 ms %s, %.0f ms of CPU time taken by the hypervisor until the library "
                    "listed them (steal), CPU meanwhile: the app %.2f s (%s), Xvfb %.2f s; server answered %d "
                    "requests (the first came %.2f s after the release, the last %.2f s)"
                    % ("quiet  " if quiet else "watched", "%.3f s" % placeholder if placeholder is not None
                       else ("not looked for" if quiet else "never seen"), landed, landed_state - released,
                       painted["t"] - released, len(stalls), ["%.2f s: %s" % (stall.t - released, stall)
                                                              for stall in stalls],
                       stolen, cpu[0], cpu[2], cpu[1], server.hits, min(server.requested) - released,
                       max(server.requested) - released))
                if self.recorder:
                    # The trace of a drop with a stall is kept, to be read again.
                    keep = os.path.join(self.artifacts, "sched-trace-%.3f.txt.gz" % released) if stalls else None
                    if keep:
                        os.makedirs(self.artifacts, exist_ok=True)
                        log("    scheduler trace kept: %s" % keep)
                    waits = self.recorder.waits({"window": app.proc.pid, "Xvfb": session.desktop.xvfb.pid},
                                                released, released + landed, keep=keep)
                    self.waits[quiet].append((released, waits))
                    for stall in stalls:  # the waits within each stall, and who ran meanwhile
                        log("    stall %.3f s: %s" % (stall.t - released, "; ".join(
                            wait.describe(released) for wait in waits["window"]
                            if wait.start < stall.t and wait.start + wait.ms / 1000 > stall.t - stall.ms / 1000)))
                return {"placeholder": placeholder * 1000 if placeholder is not None else None,
                        "landed": landed, "stalls": stalls}
            finally:
                if source is not None:
                    source.stop()
                app.stop()

    def report_waits(self):
        """--trace-stalls: the window thread's waits for a core, counted by length and by when in the drop. At about
        one stall over 8 ms in 60 quiet drops, stall counts cannot tell two builds apart; these counts can. Xvfb's
        too: a window thread that waits for an X reply waits as long as the X server waits for a core, and the
        desktop's other windows wait with it."""
        spans = [("first 0.1 s", 0.0, 0.1), ("+1.0-1.3 s (the answers)", 1.0, 1.3), ("whole drop", 0.0, 1e9)]
        limits = (2, 3, 4, 6)
        for quiet in (True, False):
            drops = self.waits[quiet]
            for thread, spans_shown in (("window", spans), ("Xvfb", spans[2:])):
                log("%s thread's waits for a core over %s ms, %d %s drops:"
                    % (thread, " / ".join(map(str, limits)), len(drops), "quiet" if quiet else "watched"))
                for label, since, until in spans_shown:
                    counts = [sum(1 for released, waits in drops for wait in waits[thread]
                                  if wait.ms > limit and since <= wait.start - released < until) for limit in limits]
                    log("  %-26s %s" % (label, " / ".join(map(str, counts))))
                    self.notes.append("--trace-stalls, %s drops (%d), %s's waits for a core over %s ms, %s: %s"
                                      % ("quiet" if quiet else "watched", len(drops), thread,
                                         "/".join(map(str, limits)), label, "/".join(map(str, counts))))
                holders = collections.Counter()
                for _, waits in drops:
                    for wait in waits[thread]:
                        if wait.ms > limits[0]:
                            holders.update(wait.holders)
                log("  who ran during the waits over %d ms (ms): %s" % (limits[0], ", ".join(
                    "%s %.0f" % (name, ms) for name, ms in holders.most_common(8))))

    def run(self):
        self.parts = set(self.args.only.split(",")) if self.args.only else \
            {"launch", "keys", "sweep", "sharpness", "scale2", "50k", "curve", "callgrind", "grain", "drop"}
        self.prepare()
        if self.parts & {"launch", "keys", "sweep", "sharpness"}:
            self.part_launch_keys()
        if "scale2" in self.parts:
            self.part_scale2()
        if "50k" in self.parts:
            self.part_50k()
        if "curve" in self.parts:
            self.part_curve()
        if "callgrind" in self.parts:
            self.part_callgrind()
        if "grain" in self.parts:
            self.part_grain()
        if "drop" in self.parts:
            self.part_drop()


def callgrind_dump(pid, out):
    """Asks callgrind in `pid` to write its counters (then zeroed) and returns the instructions of that dump:
    (all threads, the app's workers alone: what the job lanes ran, from callgrind_annotate)."""
    before = set(glob.glob(out + ".*"))
    subprocess.run(["callgrind_control", "-d", str(pid)], check=True, stdout=subprocess.DEVNULL)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        for path in set(glob.glob(out + ".*")) - before:
            with open(path) as f:
                total = next((int(line.split()[1]) for line in f if line.startswith(("totals:", "summary:"))), None)
            if total is None:
                continue
            annotated = subprocess.run(["callgrind_annotate", "--inclusive=yes", "--threshold=100", path],
                                       capture_output=True, text=True).stdout
            workers = max([int(line.split()[0].replace(",", "")) for line in annotated.splitlines()
                           if "GalleryIO7JobLaneC" in line and line.strip()[:1].isdigit()] or [0])
            return total, workers
        time.sleep(0.2)
    raise TimeoutError("callgrind wrote no dump of %d into %s.*" % (pid, out))


def steal_ms():
    """CPU time the hypervisor took from this machine's CPUs so far (/proc/stat's steal column, all CPUs), in ms:
    a stall while it grows may be no process's doing."""
    with open("/proc/stat") as f:
        fields = f.readline().split()
    return int(fields[8]) * 1000 / os.sysconf("SC_CLK_TCK") if len(fields) > 8 else 0.0


class SlowServer:
    """127.0.0.1 only: /photo/<i>.jpg answers with the i-th file after `delay` seconds. One thread serves every
    connection (asyncio): a thread per request had a hundred threads waking together after the delay and passing
    Python's interpreter lock around, which took the cores from the app just as its images arrived."""

    def __init__(self, files, delay, ports=1):
        self.files, self.delay = files, delay
        self.reset()
        self.loop = asyncio.new_event_loop()
        started = threading.Event()

        async def serve():
            # a listen backlog like a real server's, so no connection is refused when 100 come at once
            self.servers = [await asyncio.start_server(self.answer, "127.0.0.1", 0, backlog=128)
                            for _ in range(ports)]
            started.set()
            await asyncio.gather(*(server.serve_forever() for server in self.servers))

        self.thread = threading.Thread(target=lambda: self.loop.run_until_complete(self.quietly(serve())),
                                       daemon=True)
        self.thread.start()
        started.wait(10)
        ports = [server.sockets[0].getsockname()[1] for server in self.servers]
        self.urls = ["http://127.0.0.1:%d/photo/%d.jpg" % (ports[i % len(ports)], i) for i in range(len(files))]

    @staticmethod
    async def quietly(coroutine):
        try:
            await coroutine
        except asyncio.CancelledError:
            pass

    async def answer(self, reader, writer):
        try:
            request = await reader.readline()
            while (await reader.readline()).strip():  # the headers
                pass
            self.hits += 1
            self.requested.append(time.monotonic())
            try:
                index = int(request.split()[1].rsplit(b"/", 1)[1].split(b".")[0])
                with open(self.files[index], "rb") as f:
                    data = f.read()
                head = b"HTTP/1.0 200 OK\r\nContent-Type: image/jpeg\r\nContent-Length: %d\r\n\r\n" % len(data)
            except (ValueError, IndexError, OSError):
                data, head = b"", b"HTTP/1.0 404 Not Found\r\nContent-Length: 0\r\n\r\n"
            await asyncio.sleep(self.delay)
            writer.write(head + data)
            await writer.drain()
        except (ConnectionError, asyncio.IncompleteReadError):
            pass
        finally:
            writer.close()

    def reset(self):
        self.hits = 0
        self.requested = []  # monotonic times the requests came in

    def stop(self):
        from asyncio_servers import stop_servers
        stop_servers(self.loop, self.thread, self.servers)


# ------------------------------------------------------------------------------------------------------------
# The table
# ------------------------------------------------------------------------------------------------------------

FIGURES = [  # key, label, unit, goal (text), goal check (ours, gthumb) -> bool or None
    ("launch", "warm launch -> first screen painted (%(count)s images)", "s", "<= gThumb / 5",
     lambda o, g: o <= g / 5),
    ("launch_cpu", "CPU until then", "s", "", None),
    ("rss_first", "peak RSS after first screen", "MB", "<= 0.4 x gThumb", lambda o, g: o <= 0.4 * g),
    ("rss_scrolled", "peak RSS after Page Down through all (last run)", "MB", "< gThumb", lambda o, g: o < g),
    ("end", "End -> bottom painted", "s", "< 0.1 s", lambda o, g: o < 0.1),
    ("home", "Home -> top painted", "s", "< 0.1 s", lambda o, g: o < 0.1),
    ("pgup_first", "20 x Page Up, 40 ms apart -> painted, from first key", "s", "", None),
    ("pgup_last", "  the same, from the last key", "s", "<= 0.1 s", lambda o, g: o <= 0.1),
    ("pgup_cpu", "CPU during those Page Ups", "s", "<= gThumb", lambda o, g: o <= g),
    ("pgup_stall", "longest main-loop stall during them", "ms", "<= 8 ms", lambda o, g: o <= 8),
    ("sharp_cells", "sharpness: mean neighbour step in cells", "", "", None),
    ("sharp_bilinear", "  bilinear downscale, same size", "", "", None),
    ("sharp_lanczos", "  Lanczos downscale, same size", "", "", None),
    ("sharp_ratio", "  cells / bilinear (mean of the cells' ratios)", "", "", None),
    ("sharp_worst", "  cells / bilinear, the lowest cell", "", ">= 0.95", lambda o, g: o >= 0.95),
    ("sharp2_cells", "at GDK_SCALE=2: neighbour step in cells", "", "", None),
    ("sharp2_bilinear", "  bilinear downscale, same size", "", "", None),
    ("sharp2_lanczos", "  Lanczos downscale, same size", "", "", None),
    ("sharp2_ratio", "  cells / bilinear (mean)", "", "", None),
    ("sharp2_worst", "  cells / bilinear, the lowest cell", "", ">= 0.95", lambda o, g: o >= 0.95),
    ("launch_scale2", "launch -> painted at GDK_SCALE=2", "s", "", None),
    ("launch_50k", "warm launch -> first screen painted (50,000 images)", "s", "< 0.5 s", lambda o, g: o < 0.5),
    ("launch_50k_cpu", "  CPU until then", "s", "", None),
    ("curve_1000", "launch curve: warm launch -> painted, 1,000 images", "s", "", None),
    ("curve_1000_cpu", "  CPU until then", "s", "", None),
    ("curve_10000", "  10,000 images", "s", "<= 0.35 s", lambda o, g: o <= 0.35),
    ("curve_10000_cpu", "  CPU until then", "s", "", None),
    ("curve_50000", "  50,000 images", "s", "<= 0.45 s", lambda o, g: o <= 0.45),
    ("curve_50000_cpu", "  CPU until then", "s", "", None),
    ("curve_200000", "  200,000 images", "s", "<= 0.6 s", lambda o, g: o <= 0.6),
    ("curve_200000_cpu", "  CPU until then", "s", "", None),
    ("cg_launch_10000", "instructions (callgrind): launch -> painted, 10,000 images", "G", "", None),
    ("cg_launch_workers_10000", "  of them on the workers (decoding, the state's reading)", "G", "", None),
    ("cg_launch_200000", "  launch -> painted, 200,000 images", "G", "", None),
    ("cg_launch_workers_200000", "  of them on the workers", "G", "", None),
    ("cg_scroll_10000", "  End, 20 x Page Up -> painted, 10,000 images", "G", "", None),
    ("cg_scroll_workers_10000", "  of them on the workers", "G", "", None),
    ("cg_scroll_200000", "  the same, 200,000 images", "G", "", None),
    ("cg_scroll_workers_200000", "  of them on the workers", "G", "", None),
    ("grain_cells", "grain and noise: neighbour step in cells", "", "", None),
    ("grain_bilinear", "  bilinear downscale, same size", "", "", None),
    ("grain_ratio", "  cells / bilinear (mean)", "", "", None),
    ("grain_worst", "  cells / bilinear, the lowest cell", "", ">= 0.95", lambda o, g: o >= 0.95),
    ("grain2_cells", "grain and noise at GDK_SCALE=2: neighbour step in cells", "", "", None),
    ("grain2_bilinear", "  bilinear downscale, same size", "", "", None),
    ("grain2_ratio", "  cells / bilinear (mean)", "", "", None),
    ("grain2_worst", "  cells / bilinear, the lowest cell", "", ">= 0.95", lambda o, g: o >= 0.95),
    ("drop_placeholder", "drop of 100 URLs: placeholder painted after release", "ms", "first frame", None),
    ("drop_landed", "  all 100 landed (1 s each server-side)", "s", "<= 3 s", lambda o, g: o <= 3),
    ("drop_landed_quiet", "  the same, quiet runs (the library lists all)", "s", "<= 3 s", lambda o, g: o <= 3),
    ("drop_stall_max", "  longest main-loop stall, all quiet runs", "ms", "<= 8 ms", lambda o, g: o <= 8),
    ("drop_stalls", "  stalls over 8 ms, all quiet runs together", "count", "0", lambda o, g: o == 0),
    ("drop_stalls_waiting", "    of them, mostly waiting for a core", "count", "", None),
    ("drop_stalls_watched", "  stalls over 8 ms, all watched runs together", "count", "", None),
]


def summarise(values):
    if not values:
        return None
    return {"median": statistics.median(values), "min": min(values), "max": max(values), "runs": values}


def fmt(summary, unit):
    if summary is None:
        return "n/a"
    m = summary["median"]
    digits = 0 if unit in ("MB", "count") or (unit == "ms" and m >= 10) else (
        3 if unit == "G" else 2 if unit in ("s", "") else 1)
    text = "%.*f%s" % (digits, m, " " + unit if unit and unit != "count" else "")
    if len(summary["runs"]) > 1:
        text += " (%.*f-%.*f)" % (digits, summary["min"], digits, summary["max"])
    return text


def table(bench, args, binary):
    rows, data = [], {"binary": binary, "count": args.count, "runs": args.runs, "figures": {}, "notes": bench.notes,
                      "time": time.strftime("%Y-%m-%d %H:%M:%S")}
    for key, label, unit, goal, check in FIGURES:
        entry = bench.results.get(key)
        if entry is None and key not in ("pgup_stall", "drop_stall_max", "drop_stalls", "drop_stalls_waiting",
                                         "drop_stalls_watched"):
            continue
        entry = entry or {}
        ours, theirs = summarise(entry.get("ours", [])), summarise(entry.get("gthumb", []))
        ratio = None
        if ours and theirs and theirs["median"]:
            ratio = ours["median"] / theirs["median"]
        met = None
        if check and ours and (theirs or "gThumb" not in goal):
            try:
                met = bool(check(ours["median"], theirs["median"] if theirs else None))
            except TypeError:
                met = None
        name = label % {"count": "{:,}".format(args.count)}
        rows.append((name, fmt(ours, unit), fmt(theirs, unit) if theirs else "-",
                     "%.2f" % ratio if ratio is not None else "", goal + (" (met)" if met else " (not met)"
                                                                         if met is False else "")))
        data["figures"][key] = {"label": name, "unit": unit, "image_gallery": ours, "gthumb": theirs,
                                "ratio": ratio, "goal": goal, "goal_met": met}
    widths = [max(len(r[i]) for r in rows + [("figure", "Image Gallery", "gThumb 3.12", "ratio", "goal")])
              for i in range(5)]
    lines = ["| " + " | ".join(h.ljust(w) for h, w in zip(("figure", "Image Gallery", "gThumb 3.12", "ratio",
                                                           "goal"), widths)) + " |",
             "|" + "|".join("-" * (w + 2) for w in widths) + "|"]
    lines += ["| " + " | ".join(c.ljust(w) for c, w in zip(r, widths)) + " |" for r in rows]
    return "\n".join(lines), data


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=None, help="measured runs per app (default 5; --quick: 2)")
    parser.add_argument("--count", type=int, default=None, help="images (default 10000; --quick: 2000)")
    parser.add_argument("--quick", action="store_true", help="2 runs, 2,000 images")
    parser.add_argument("--json", help="also write the table as JSON there")
    parser.add_argument("--only", help="comma-separated parts: launch,keys,sweep,sharpness,scale2,50k,curve,callgrind,grain,drop")
    parser.add_argument("--drop-servers", type=int, default=1,
                        help="the drop's 100 addresses spread over this many loopback servers (ports)")
    parser.add_argument("--drop-http2", action="store_true",
                        help="the drop's servers speak HTTP/2 over TLS (slow_http2_server.py), trusted through "
                             "IMAGE_GALLERY_TEST_CA_FILE")
    parser.add_argument("--window-manager", choices=("metacity", "none"), default="metacity",
                        help="the desktop's window manager (default metacity, without compositing)")
    parser.add_argument("--fresh", action="store_true", help="forget both apps' caches first")
    parser.add_argument("--trace-stalls", action="store_true",
                        help="drops: trace the scheduler (root) and count the window thread's waits for a core")
    parser.add_argument("--artifacts", default="/tmp/image-gallery-bench-artifacts",
                        help="where the last frame of a timeout goes")
    args = parser.parse_args()
    args.runs = args.runs or (2 if args.quick else 5)
    args.count = args.count or (2000 if args.quick else 10000)
    WINDOW_MANAGER[0] = None if args.window_manager == "none" else args.window_manager
    run_alone()
    setup()
    import harness
    release = os.path.join(harness.REPO_ROOT, ".build", "release", "image-gallery")
    # absolute: the apps start in their own homes
    args.binary = os.path.abspath(os.environ.get("IMAGE_GALLERY_BIN") or (release if os.path.exists(release)
                                                                          else harness.DEFAULT_BINARY))
    if not os.access(args.binary, os.X_OK):
        sys.exit("no app binary at %s: build it (swift build -c release) or set IMAGE_GALLERY_BIN" % args.binary)
    log("binary: %s; %d images, %d runs each" % (args.binary, args.count, args.runs))

    def interrupted(signum, _frame):
        raise KeyboardInterrupt("signal %d" % signum)

    signal.signal(signal.SIGTERM, interrupted)
    bench = Bench(args)
    started = time.monotonic()
    failure = None
    try:
        bench.run()
    except (Exception, KeyboardInterrupt) as error:  # the figures so far are still printed
        failure = "%s: %s" % (type(error).__name__, error)
        bench.notes.append("stopped early: " + failure)
        import traceback
        traceback.print_exc()
    text, data = table(bench, args, binary=os.path.relpath(args.binary, harness.REPO_ROOT))
    data["seconds"] = round(time.monotonic() - started)
    print("binary: %s; %s images; %d runs each; %d s" % (data["binary"], "{:,}".format(args.count), args.runs,
                                                          data["seconds"]))
    print(text)
    for note in bench.notes:
        print("note: " + note)
    if args.json:
        with open(args.json, "w") as out:
            json.dump(data, out, indent=2)
    sys.exit(1 if failure else 0)


if __name__ == "__main__":
    main()
