"""End-to-end test harness for Image Gallery.

Pieces, each usable on its own:
  - pure image helpers: `png_bytes` (solid-colour PNG from zlib + struct), `decode_png_size`, `data_url`,
    `file_url`, `dominant_colour`, `colour_close`;
  - `ImageServer`: a loopback HTTP server with images that can be slow, fail or lie, and a request log;
  - `Desktop`: Xvfb on a free display + a D-Bus session bus + the AT-SPI bus, and xdotool input on it;
  - `App`: the built `image-gallery` binary launched with its own XDG directories, read over AT-SPI.

AT-SPI is read with a small client speaking the AT-SPI D-Bus protocol through GDBus (`A11yBus`, `Node`): always
fresh, never deadlocking (see the note above `A11yBus` on why not libatspi's own client). It needs python3-gi and
gir1.2-atspi-2.0 (both come with python3-pyatspi): run with Debian's /usr/bin/python3.
"""

import atexit
import base64
import collections
import dataclasses
import http.server
import io
import json
import os
import re
import select
import shutil
import signal
import socket
import struct
import subprocess
import tempfile
import threading
import time
import urllib.parse
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))
REPO_ROOT = os.path.dirname(os.path.dirname(HERE))
DEFAULT_BINARY = os.path.join(REPO_ROOT, ".build", "debug", "image-gallery")
APP_ID = "io.github.imagegallery.ImageGallery"
# Windows are titled "<gallery name> — Image Gallery": they are found by process, and this suffix.
WINDOW_TITLE = "Image Gallery"


class HarnessError(AssertionError):
    """A failure of the system under test or of its environment. An AssertionError so tests FAIL (never skip)."""


def wait_until(fn, timeout, interval=0.1, what="condition", describe=None):
    """Polls fn() until it returns a truthy value, which is returned. On timeout raises HarnessError naming
    `what`, with describe() (or the last value) appended."""
    deadline = time.monotonic() + timeout
    last = None
    while True:
        last = fn()
        if last:
            return last
        if time.monotonic() >= deadline:
            detail = describe() if describe else repr(last)
            raise HarnessError("timed out after %.1fs waiting for %s; last: %s" % (timeout, what, detail))
        time.sleep(interval)


# ------------------------------------------------------------------------------------------------------------
# Pure image helpers
# ------------------------------------------------------------------------------------------------------------

def _png_chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)


def png_bytes(width, height, rgb):
    """A solid-colour 8-bit RGB PNG, deterministic (same arguments, same bytes), made with zlib and struct."""
    if width < 1 or height < 1:
        raise ValueError("PNG size must be positive")
    r, g, b = (int(c) & 0xFF for c in rgb)
    row = b"\x00" + bytes((r, g, b)) * width  # filter type 0, then the pixels
    ihdr = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + _png_chunk(b"IHDR", ihdr)
            + _png_chunk(b"IDAT", zlib.compress(row * height, 9)) + _png_chunk(b"IEND", b""))


def palette_png_bytes(width, height, rgb):
    """A solid-colour PNG of any size that stays small to make and to send: 1 bit per pixel, one palette
    colour. Decoded naively it costs width x height x 4 bytes, which is what a pixel bomb relies on."""
    row = b"\x00" + bytes((width + 7) // 8)
    compressor = zlib.compressobj(9)
    body = b"".join(compressor.compress(row) for _ in range(height)) + compressor.flush()
    ihdr = struct.pack(">IIBBBBB", width, height, 1, 3, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + _png_chunk(b"IHDR", ihdr) + _png_chunk(b"PLTE", bytes(rgb))
            + _png_chunk(b"IDAT", body) + _png_chunk(b"IEND", b""))


def process_memory_mib(pid, field="VmRSS"):
    """A memory figure of a process from /proc/<pid>/status, in MiB: VmRSS now, VmHWM its peak."""
    with open("/proc/%d/status" % pid) as status:
        for line in status:
            if line.startswith(field + ":"):
                return int(line.split()[1]) / 1024
    raise HarnessError("no %s for pid %d" % (field, pid))


def decode_png_size(data):
    """(width, height) from a PNG's IHDR, without decoding it."""
    if data[:8] != b"\x89PNG\r\n\x1a\n" or data[12:16] != b"IHDR":
        raise ValueError("not a PNG")
    return struct.unpack(">II", data[16:24])


def encoded_image(width, height, rgb, fmt="png"):
    """The image in fmt ('png' pure Python; 'jpeg', 'webp', 'gif', 'bmp' through PIL)."""
    if fmt == "png":
        return png_bytes(width, height, rgb)
    from PIL import Image
    out = io.BytesIO()
    image = Image.new("RGB", (width, height), tuple(rgb))
    options = {"jpeg": {"quality": 95}, "webp": {"lossless": True}}.get(fmt, {})
    image.save(out, format=fmt.upper(), **options)
    return out.getvalue()


CONTENT_TYPES = {"png": "image/png", "jpeg": "image/jpeg", "jpg": "image/jpeg", "webp": "image/webp",
                 "gif": "image/gif", "bmp": "image/bmp"}


def data_url(data, mime="image/png"):
    return "data:%s;base64,%s" % (mime, base64.b64encode(data).decode("ascii"))


def file_url(path):
    return "file://" + urllib.parse.quote(os.path.abspath(path))


def colour_close(a, b, tol=30):
    """True when every channel of a and b (RGB tuples) differs by at most tol."""
    return a is not None and b is not None and all(abs(int(x) - int(y)) <= tol for x, y in zip(a[:3], b[:3]))


def dominant_colour(image, box, fraction=0.5):
    """The most common RGB colour, and its share (0..1), in the centre part of box (x, y, width, height) of a
    PIL image: the centred rectangle with `fraction` of the box's width and height."""
    x, y, w, h = box
    cw, ch = max(1, int(w * fraction)), max(1, int(h * fraction))
    left, top = int(x + (w - cw) / 2), int(y + (h - ch) / 2)
    left, top = max(0, left), max(0, top)
    right, bottom = min(image.width, left + cw), min(image.height, top + ch)
    if right <= left or bottom <= top:
        raise HarnessError("box %r is outside the %dx%d screenshot" % (box, image.width, image.height))
    region = image.convert("RGB").crop((left, top, right, bottom))
    counts = collections.Counter(region.getdata())
    colour, count = counts.most_common(1)[0]
    return colour, count / float(region.width * region.height)


def colour_bbox(image, box, colour, tol=30, margin=12):
    """The bounding box (x, y, width, height), in screen coordinates, of the pixels close to colour within box grown
    by margin on every side; None when there are none. Tells how big the drawn image really is."""
    x, y, w, h = box
    left, top = max(0, int(x - margin)), max(0, int(y - margin))
    right, bottom = min(image.width, int(x + w + margin)), min(image.height, int(y + h + margin))
    region = image.convert("RGB").crop((left, top, right, bottom))
    lo = tuple(max(0, c - tol) for c in colour[:3])
    hi = tuple(min(255, c + tol) for c in colour[:3])
    bands = [b.point(lambda v, a=a, z=z: 255 if a <= v <= z else 0) for b, a, z in zip(region.split(), lo, hi)]
    from PIL import ImageChops
    mask = ImageChops.multiply(ImageChops.multiply(bands[0], bands[1]), bands[2])
    found = mask.getbbox()
    if found is None:
        return None
    return (left + found[0], top + found[1], found[2] - found[0], found[3] - found[1])


def average_colour(image, box, fraction=0.5):
    """The mean RGB colour of the centre part of box (see dominant_colour)."""
    x, y, w, h = box
    cw, ch = max(1, int(w * fraction)), max(1, int(h * fraction))
    left, top = max(0, int(x + (w - cw) / 2)), max(0, int(y + (h - ch) / 2))
    region = image.convert("RGB").crop((left, top, min(image.width, left + cw), min(image.height, top + ch)))
    pixels = list(region.getdata())
    return tuple(round(sum(p[i] for p in pixels) / len(pixels)) for i in range(3))


# A dozen distinct saturated colours at distinct aspect ratios (name, width, height, rgb, format): every pair differs
# by more than 60 in some channel, and none is near Adwaita's greys, white, black or its accent blue, so the colour at
# a cell's centre names the image (test_harness_selftest checks this).
DISTINCT_IMAGES = [
    ("red", 300, 200, (220, 20, 20), "png"),         # 1.5
    ("green", 180, 240, (20, 180, 40), "png"),       # 0.75
    ("blue", 200, 200, (20, 30, 220), "png"),        # 1.0
    ("yellow", 400, 200, (250, 220, 0), "png"),      # 2.0
    ("magenta", 150, 300, (210, 0, 210), "png"),     # 0.5
    ("cyan", 320, 240, (0, 210, 220), "png"),        # 1.333
    ("orange", 320, 180, (255, 130, 0), "jpeg"),     # 1.778, a JPEG
    ("purple", 200, 300, (120, 0, 180), "png"),      # 0.667
    ("lime", 250, 200, (150, 255, 0), "png"),        # 1.25
    ("pink", 240, 300, (255, 120, 180), "png"),      # 0.8
    ("teal", 500, 200, (0, 120, 110), "png"),        # 2.5
    ("brown", 270, 480, (130, 70, 10), "png"),       # 0.5625
]
# Two more for the file:// and data: images, distinct from the above too.
FILE_IMAGE = ("navy", 270, 300, (0, 0, 110), "png")       # 0.9
DATA_IMAGE = ("olive", 160, 100, (110, 160, 0), "png")    # 1.6
# Colours of the desktop itself that an image colour must not resemble.
UI_COLOURS = [(255, 255, 255), (246, 245, 244), (222, 221, 218), (0, 0, 0), (36, 31, 49), (53, 132, 228),
              (192, 191, 188), (119, 118, 123)]


# ------------------------------------------------------------------------------------------------------------
# HTTP server
# ------------------------------------------------------------------------------------------------------------

@dataclasses.dataclass
class ServedImage:
    name: str
    width: int
    height: int
    rgb: tuple
    fmt: str
    data: bytes
    path: str          # "/img/<name>.<ext>"
    url: str           # absolute URL on the server

    @property
    def aspect(self):
        return self.width / self.height

    @property
    def content_type(self):
        return CONTENT_TYPES[self.fmt]

    def slow_url(self, delay):
        """The same bytes sent slowly, spread over `delay` seconds."""
        return self.url.replace("/img/", "/slow/", 1) + "?delay=%g" % delay


@dataclasses.dataclass
class LoggedRequest:
    method: str
    path: str        # as requested, with the query
    route: str       # path without the query
    headers: dict
    time: float


class ImageServer:
    """ThreadingHTTPServer on 127.0.0.1 (a free port). Routes:
      /img/<name>.<ext>          a registered image (add_image)
      /slow/<name>.<ext>?delay=S the same bytes in ~10 chunks a second over S seconds, with Content-Length
      /held/<path>               the file added at /<path>, answered once release_held() is called: every
                                 held request gets its whole answer at the same moment
      /missing.png               404 (so is every unknown path)
      /page.html                 text/html page with an <img> per registered image
      /lie.png                   HTML bytes served as image/png
      /huge.png                  declares 60 MB (Content-Length) and streams a PNG header then zeros
      /stall.png                 headers + the PNG signature, then nothing until the server stops (max 10 min)
      /redirect?to=<path or URL> 302 to it
      /imgres?imgurl=<URL>       a search-engine style wrapper page (HTML) around the image URL
      any path given to add_file serves those bytes.
    Every request is logged (requests(), hits(route)). stop() closes the port: the server is offline."""

    HUGE_SIZE = 60 * 1024 * 1024

    def __init__(self):
        self.images = {}
        self.files = {}
        self.log = []
        self._lock = threading.Lock()
        self._stopped = threading.Event()
        self._held = threading.Event()
        server = self

        class Handler(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.0"

            def log_message(self, *args):
                pass

            def do_HEAD(self):
                self._handle(head=True)

            def do_GET(self):
                self._handle(head=False)

            def _handle(self, head):
                split = urllib.parse.urlsplit(self.path)
                with server._lock:
                    server.log.append(LoggedRequest(self.command, self.path, split.path, dict(self.headers),
                                                    time.time()))
                try:
                    server._route(self, split, head)
                except (BrokenPipeError, ConnectionResetError, socket.timeout):
                    pass

        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.port = self.httpd.server_address[1]
        self._thread = threading.Thread(target=self.httpd.serve_forever, kwargs={"poll_interval": 0.1},
                                        daemon=True)
        self._thread.start()

    # --- registry ---
    def url(self, path):
        if not path.startswith("/"):
            path = "/" + path
        return "http://127.0.0.1:%d%s" % (self.port, path)

    def make_image(self, folder, name, width, height, rgb, fmt="png"):
        """A solid-colour ServedImage at /<folder>/<name>.<ext> on this server (not yet registered)."""
        ext = "jpg" if fmt == "jpeg" else fmt
        path = "/%s/%s.%s" % (folder, name, ext)
        return ServedImage(name, width, height, tuple(rgb), fmt, encoded_image(width, height, rgb, fmt), path,
                           self.url(path))

    def add_image(self, name, width, height, rgb, fmt="png"):
        """Registers a solid-colour image served at /img/<name>.<ext>; returns its ServedImage."""
        image = self.make_image("img", name, width, height, rgb, fmt)
        self.images[image.path] = image
        return image

    def add_file(self, path, data, content_type="application/octet-stream", status=200, headers=None):
        """Serves data at path (exact path, query ignored) with that status and content type."""
        self.files[path] = (status, content_type, data, dict(headers or {}))
        return self.url(path)

    def release_held(self):
        """Answers every /held/ request, those waiting and those to come."""
        self._held.set()

    # --- log ---
    def requests(self, route=None):
        with self._lock:
            return [r for r in self.log if route is None or r.route == route]

    def hits(self, route):
        return len(self.requests(route))

    def clear_log(self):
        with self._lock:
            self.log.clear()

    def stop(self):
        """Stops serving and closes the listening socket (connections are then refused); releases stalls."""
        if self._stopped.is_set():
            return
        self._stopped.set()
        self.httpd.shutdown()
        self.httpd.server_close()
        self._thread.join(10)

    @property
    def stopped(self):
        return self._stopped.is_set()

    # --- routes ---
    def _image_for(self, path):
        return self.images.get(path)

    def _route(self, h, split, head):
        path, query = split.path, urllib.parse.parse_qs(split.query)
        if path in self.files:
            status, ctype, data, headers = self.files[path]
            return self._send(h, status, ctype, data, head, headers)
        if path.startswith("/img/") and path in self.images:
            image = self.images[path]
            return self._send(h, 200, image.content_type, image.data, head)
        if path.startswith("/held/") and path[len("/held"):] in self.files:
            while not self._held.wait(0.1):
                if self._stopped.is_set():
                    return
            status, ctype, data, headers = self.files[path[len("/held"):]]
            return self._send(h, status, ctype, data, head, headers)
        if path.startswith("/slow/"):
            image = self.images.get("/img/" + path[len("/slow/"):])
            if image is None:
                return self._send(h, 404, "text/plain", b"no such image\n", head)
            delay = float(query.get("delay", ["3"])[0])
            return self._send_slowly(h, image, delay, head)
        if path == "/page.html":
            body = "".join('<p><img id="%s" src="%s" width="%d" height="%d" alt="%s"></p>\n'
                           % (i.name, i.url, i.width, i.height, i.name) for i in self.images.values())
            page = "<!DOCTYPE html><html><head><meta charset=utf-8><title>Images</title></head><body>\n%s</body>" \
                   "</html>\n" % body
            return self._send(h, 200, "text/html; charset=utf-8", page.encode(), head)
        if path == "/lie.png":
            return self._send(h, 200, "image/png", b"<!DOCTYPE html><html><body>not an image</body></html>\n",
                              head)
        if path == "/huge.png":
            return self._send_huge(h, head)
        if path == "/stall.png":
            return self._send_stall(h, head)
        if path == "/redirect":
            target = query.get("to", ["/"])[0]
            h.send_response(302)
            h.send_header("Location", target if "://" in target else self.url(target))
            h.send_header("Content-Length", "0")
            h.end_headers()
            return
        if path == "/imgres":
            target = query.get("imgurl", [""])[0]
            page = '<!DOCTYPE html><html><body><a href="%s"><img src="%s"></a></body></html>\n' % (target, target)
            return self._send(h, 200, "text/html; charset=utf-8", page.encode(), head)
        return self._send(h, 404, "text/plain", b"not found\n", head)

    @staticmethod
    def _send(h, status, ctype, data, head, headers=None):
        h.send_response(status)
        h.send_header("Content-Type", ctype)
        h.send_header("Content-Length", str(len(data)))
        for k, v in (headers or {}).items():
            h.send_header(k, v)
        h.end_headers()
        if not head:
            h.wfile.write(data)

    def _send_slowly(self, h, image, delay, head):
        h.send_response(200)
        h.send_header("Content-Type", image.content_type)
        h.send_header("Content-Length", str(len(image.data)))
        h.end_headers()
        if head:
            return
        data = image.data
        chunks = max(4, int(delay * 10))
        size = max(1, -(-len(data) // chunks))
        for start in range(0, len(data), size):
            h.wfile.write(data[start:start + size])
            h.wfile.flush()
            if start + size < len(data) and self._stopped.wait(delay / chunks):
                return

    def _send_huge(self, h, head):
        h.send_response(200)
        h.send_header("Content-Type", "image/png")
        h.send_header("Content-Length", str(self.HUGE_SIZE))
        h.end_headers()
        if head:
            return
        start = b"\x89PNG\r\n\x1a\n" + _png_chunk(b"IHDR", struct.pack(">IIBBBBB", 4000, 3000, 8, 2, 0, 0, 0))
        h.wfile.write(start)
        sent, block = len(start), b"\x00" * 65536
        while sent < self.HUGE_SIZE and not self._stopped.is_set():
            n = min(len(block), self.HUGE_SIZE - sent)
            h.wfile.write(block[:n])
            sent += n

    def _send_stall(self, h, head):
        h.send_response(200)
        h.send_header("Content-Type", "image/png")
        h.send_header("Content-Length", "100000")
        h.end_headers()
        if head:
            return
        h.wfile.write(b"\x89PNG\r\n\x1a\n")
        h.wfile.flush()
        self._stopped.wait(600)


# ------------------------------------------------------------------------------------------------------------
# X server, D-Bus, AT-SPI
# ------------------------------------------------------------------------------------------------------------

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
    afterwards would talk to this desktop too). One per process."""

    def __init__(self, width=1280, height=1024, depth=24):
        self.size = (width, height)
        self.depth = depth
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
        return self

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


def _terminate(proc, timeout=10):
    if proc.poll() is None:
        try:
            os.killpg(proc.pid, signal.SIGTERM) if _own_group(proc) else proc.terminate()
        except ProcessLookupError:
            pass
        try:
            proc.wait(timeout)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout)


def _own_group(proc):
    try:
        return os.getpgid(proc.pid) == proc.pid
    except ProcessLookupError:
        return False


# ------------------------------------------------------------------------------------------------------------
# AT-SPI, spoken directly over D-Bus
#
# Why not pyatspi/libatspi: libatspi caches what it has read and updates that cache from events, so a poll can
# see stale children; and switching its cache off (Atspi.Accessible.set_cache_mask(Atspi.Cache.NONE)) deadlocks
# in at-spi2-core 2.46: an event dispatched while a synchronous call waits for its reply runs a handler that makes
# a nested synchronous call, which blocks in dbus_connection_dispatch forever (seen with gdb). This client asks
# the application for every value, every time (GDBus, own worker thread, timeouts), and handles no events.
# Atspi (gir1.2-atspi-2.0, from python3-pyatspi) is imported for its enums only; it never connects.
# ------------------------------------------------------------------------------------------------------------

_ACCESSIBLE = "org.a11y.atspi.Accessible"
_NULL_PATH = "/org/a11y/atspi/null"
_ROOT_PATH = "/org/a11y/atspi/accessible/root"


class A11yError(HarnessError):
    pass


def _gi():
    import gi
    gi.require_version("Atspi", "2.0")
    from gi.repository import Atspi, Gio, GLib
    return Atspi, Gio, GLib


class Roles:
    """AT-SPI role numbers (AtspiRole), e.g. Roles.FRAME, Roles.IMAGE, Roles.LAYERED_PANE."""

    def __getattr__(self, name):
        Atspi, _, _ = _gi()
        return int(getattr(Atspi.Role, name))

    @staticmethod
    def name(role):
        Atspi, _, _ = _gi()
        return Atspi.role_get_name(Atspi.Role(role))


ROLE = Roles()


class A11yBus:
    """A GDBus connection to the AT-SPI bus."""

    def __init__(self, address, timeout_ms=10000):
        _, Gio, _ = _gi()
        self.address = address
        self.timeout_ms = timeout_ms
        flags = (Gio.DBusConnectionFlags.AUTHENTICATION_CLIENT
                 | Gio.DBusConnectionFlags.MESSAGE_BUS_CONNECTION)
        self.conn = Gio.DBusConnection.new_for_address_sync(address, flags, None, None)

    def call(self, bus_name, path, iface, method, args=None, reply_type=None):
        _, Gio, GLib = _gi()
        try:
            reply = self.conn.call_sync(bus_name, path, iface, method, args,
                                        GLib.VariantType.new(reply_type) if reply_type else None,
                                        Gio.DBusCallFlags.NO_AUTO_START, self.timeout_ms, None)
        except GLib.Error as e:
            raise A11yError("%s.%s on %s%s: %s" % (iface, method, bus_name, path, e.message)) from None
        return reply.unpack()

    def prop(self, bus_name, path, iface, name):
        _, _, GLib = _gi()
        return self.call(bus_name, path, "org.freedesktop.DBus.Properties", "Get",
                         GLib.Variant("(ss)", (iface, name)), "(v)")[0]

    def node(self, bus_name, path):
        return Node(self, bus_name, path)

    def desktop(self):
        return Node(self, "org.a11y.atspi.Registry", _ROOT_PATH)

    def applications(self):
        return self.desktop().children()

    def pid_of(self, bus_name):
        _, _, GLib = _gi()
        return self.call("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
                         "GetConnectionUnixProcessID", GLib.Variant("(s)", (bus_name,)), "(u)")[0]


class Node:
    """One accessible object. Every property access is a D-Bus call (no cache)."""

    def __init__(self, bus, bus_name, path):
        self.bus, self.bus_name, self.path = bus, bus_name, path

    def __eq__(self, other):
        return isinstance(other, Node) and (self.bus_name, self.path) == (other.bus_name, other.path)

    def __hash__(self):
        return hash((self.bus_name, self.path))

    def __repr__(self):
        return "<Node %s%s %s %r>" % (self.bus_name, self.path, _safe(lambda: self.role_name, "?"),
                                      _safe(lambda: self.name, "?"))

    def _call(self, method, args=None, reply_type=None, iface=_ACCESSIBLE):
        return self.bus.call(self.bus_name, self.path, iface, method, args, reply_type)

    @property
    def name(self):
        return self.bus.prop(self.bus_name, self.path, _ACCESSIBLE, "Name")

    @property
    def description(self):
        return self.bus.prop(self.bus_name, self.path, _ACCESSIBLE, "Description")

    @property
    def child_count(self):
        return self.bus.prop(self.bus_name, self.path, _ACCESSIBLE, "ChildCount")

    @property
    def role(self):
        return self._call("GetRole", None, "(u)")[0]

    @property
    def role_name(self):
        return Roles.name(self.role)

    def children(self):
        return [Node(self.bus, b, p) for b, p in self._call("GetChildren", None, "(a(so))")[0]
                if p != _NULL_PATH]

    def child(self, index):
        _, _, GLib = _gi()
        b, p = self._call("GetChildAtIndex", GLib.Variant("(i)", (index,)), "((so))")[0]
        return None if p == _NULL_PATH else Node(self.bus, b, p)

    def parent(self):
        b, p = self.bus.prop(self.bus_name, self.path, _ACCESSIBLE, "Parent")
        return None if p == _NULL_PATH else Node(self.bus, b, p)

    def states(self):
        """The set of AtspiStateType numbers."""
        words = self._call("GetState", None, "(au)")[0]
        return {i * 32 + bit for i, word in enumerate(words) for bit in range(32) if word & (1 << bit)}

    def has_state(self, name):
        Atspi, _, _ = _gi()
        return int(getattr(Atspi.StateType, name)) in self.states()

    def interfaces(self):
        return self._call("GetInterfaces", None, "(as)")[0]

    def attributes(self):
        return self._call("GetAttributes", None, "(a{ss})")[0]

    def extents(self):
        """(x, y, width, height) in screen coordinates (Xvfb has no WM: the same as the root window's)."""
        _, _, GLib = _gi()
        return tuple(self._call("GetExtents", GLib.Variant("(u)", (0,)), "((iiii))",
                                iface="org.a11y.atspi.Component")[0])

    def value(self, name="CurrentValue"):
        """A number of the Value interface (a scroll bar's position: CurrentValue, MaximumValue)."""
        return self.bus.prop(self.bus_name, self.path, "org.a11y.atspi.Value", name)

    def do_action(self, index=0):
        _, _, GLib = _gi()
        return self._call("DoAction", GLib.Variant("(i)", (index,)), "(b)", iface="org.a11y.atspi.Action")[0]

    def text(self):
        """The Text interface's whole text."""
        _, _, GLib = _gi()
        return self._call("GetText", GLib.Variant("(ii)", (0, -1)), "(s)", iface="org.a11y.atspi.Text")[0]

    def process_id(self):
        return self.bus.pid_of(self.bus_name)


_A11Y = None


def a11y():
    """The process's AT-SPI client, on the current Desktop's AT-SPI bus."""
    global _A11Y
    address = current_desktop().a11y_address
    if _A11Y is None or _A11Y.address != address:
        _A11Y = A11yBus(address)
    return _A11Y


def _safe(fn, default=None):
    try:
        return fn()
    except Exception:  # defunct objects, vanished applications, D-Bus timeouts
        return default


def walk(node, max_depth=40, max_children=5000):
    """node and its descendants, depth first; objects that vanish mid-walk are skipped."""
    stack = [(node, 0)]
    while stack:
        current, depth = stack.pop()
        yield current
        if depth >= max_depth:
            continue
        children = _safe(current.children, []) or []
        for child in reversed(children[:max_children]):
            stack.append((child, depth + 1))


@dataclasses.dataclass(frozen=True)
class Cell:
    index: int
    name: str
    description: str
    x: int
    y: int
    width: int
    height: int
    role: str = "image"

    @property
    def url(self):
        return self.description

    @property
    def box(self):
        return (self.x, self.y, self.width, self.height)

    @property
    def center(self):
        return (self.x + self.width // 2, self.y + self.height // 2)

    @property
    def aspect(self):
        return self.width / self.height if self.height else 0.0

    @property
    def label(self):
        return self.name.split(", ")[0]

    @property
    def states(self):
        """The status words after the label: e.g. ["loading"], ["selected"], ["error: HTTP 404"]."""
        return self.name.split(", ")[1:]

    @property
    def loading(self):
        return "loading" in self.states

    @property
    def selected(self):
        return "selected" in self.states

    @property
    def error(self):
        """The reason after ', error: ', or None."""
        for part in self.states:
            if part.startswith("error: "):
                return part[len("error: "):]
        return None

    @property
    def placeholder(self):
        return self.name.startswith("Downloading")

    @property
    def settled(self):
        """Neither loading nor a download placeholder, and laid out (a size on screen)."""
        return not self.loading and not self.placeholder and self.width > 0 and self.height > 0

    def __str__(self):
        return "#%d %r url=%s at (%d,%d %dx%d)" % (self.index, self.name, _short(self.description), self.x,
                                                    self.y, self.width, self.height)


def _short(text, n=80):
    return text if len(text) <= n else text[:n - 20] + "…" + text[-17:]


def format_cells(cells):
    return "%d cells:\n  " % len(cells) + "\n  ".join(str(c) for c in cells) if cells else "no cells"


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

    def start(self, timeout=60):
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
        try:
            wait_until(self._frame_ready, timeout, 0.2, "the %r window over AT-SPI (pid %d)"
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
    def state_bytes(self):
        with open(self.state_path, "rb") as f:
            return f.read()

    def state(self):
        return json.loads(self.state_bytes())

    def image_urls(self, gallery=0):
        """URLs of a gallery in state.json, in order."""
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
                if _safe(lambda: child.role) == ROLE.FRAME and (_safe(lambda: child.name) or "").endswith(self.app_name)]

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

        found = self.find_all(match, root)
        return found[0] if found else None

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

    def wait_cells(self, predicate, timeout=45, interval=0.25, what="cells"):
        """Polls cells() until predicate(cells) is true; returns those cells. Fails with the last cells."""
        last = []

        def attempt():
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
            ids = self.desktop.xdotool("search", "--onlyvisible", "--pid", self.proc.pid, "--name",
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
        """Moves and resizes the window (no WM on Xvfb: plain X requests)."""
        wid = self.window_id()
        self.desktop.xdotool("windowmove", wid, x, y)
        self.desktop.xdotool("windowsize", wid, width, height)
        want = (x, y, width, height)
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
