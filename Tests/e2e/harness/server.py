"""`ImageServer`: a loopback HTTP server with images that can be slow, fail or lie, and a request log."""

import dataclasses
import http.server
import socket
import struct
import threading
import time
import urllib.parse

from .images import CONTENT_TYPES, _png_chunk, encoded_image


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

    @property
    def stepped_url(self):
        """The same bytes sent only as far as the test lets them out (ImageServer.let_out): a download that waits at
        a known share for as long as the test looks, however slow the machine."""
        return self.url.replace("/img/", "/stepped/", 1)


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
      /stepped/<name>.<ext>      the same bytes with Content-Length, sent only up to the share let_out() allows
      /held/<path>               the file added at /<path>, answered once release_held() is called: every
                                 held request gets its whole answer at the same moment (or release_held(path)
                                 answers that path's alone)
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
        self._released = set()
        # The share of its bytes each /stepped/ image may send, by its /img/ path.
        self._shares = {}
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

    def release_held(self, path=None):
        """Answers every /held/ request, those waiting and those to come; with a path (as given to add_file),
        only that path's."""
        if path is None:
            self._held.set()
        else:
            with self._lock:
                self._released.add(path)

    def let_out(self, image, share):
        """Lets /stepped/ downloads of `image` send its bytes up to `share` of them (0 to 1): those waiting and those to
        come."""
        with self._lock:
            self._shares[image.path] = share

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

    def _is_released(self, path):
        with self._lock:
            return path in self._released

    def _route(self, h, split, head):
        path, query = split.path, urllib.parse.parse_qs(split.query)
        if path in self.files:
            status, ctype, data, headers = self.files[path]
            return self._send(h, status, ctype, data, head, headers)
        if path.startswith("/img/") and path in self.images:
            image = self.images[path]
            return self._send(h, 200, image.content_type, image.data, head)
        if path.startswith("/held/") and path[len("/held"):] in self.files:
            while not self._held.wait(0.1) and not self._is_released(path[len("/held"):]):
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
        if path.startswith("/stepped/"):
            image = self.images.get("/img/" + path[len("/stepped/"):])
            if image is None:
                return self._send(h, 404, "text/plain", b"no such image\n", head)
            return self._send_stepped(h, image, head)
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

    @staticmethod
    def _send_image_headers(h, image):
        h.send_response(200)
        h.send_header("Content-Type", image.content_type)
        h.send_header("Content-Length", str(len(image.data)))
        h.end_headers()

    def _send_slowly(self, h, image, delay, head):
        self._send_image_headers(h, image)
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

    def _send_stepped(self, h, image, head):
        self._send_image_headers(h, image)
        if head:
            return
        data, sent = image.data, 0
        while sent < len(data):
            with self._lock:
                allowed = int(len(data) * self._shares.get(image.path, 0))
            if allowed > sent:
                h.wfile.write(data[sent:allowed])
                h.wfile.flush()
                sent = allowed
            elif self._stopped.wait(0.02):
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
