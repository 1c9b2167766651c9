"""Issue 9 (3, 8), end to end: servers that stall, trickle, loop or hang up do not hold the gallery back, and
what went wrong is said in short human words.

A raw socket server on 127.0.0.1 (threaded: each connection its own thread) answers by path:
/trickle/N sends an image's headers and then 2 bytes a second; /loop redirects to itself; /hangup closes the
connection halfway through the headers; /short promises the whole image and sends a tenth of it; /busy answers 429 with Retry-After: 1 the first time, then the image;
/img is a normal image."""
import socket
import socketserver
import threading

from drag_helpers import image_id
from harness import png_bytes, wait_until

IMAGE = png_bytes(120, 80, (20, 120, 200))
TRICKLERS = 8


class HostileServer:
    def __init__(self):
        self.stopped = threading.Event()
        self.hung_up = threading.Event()  # the app closed a trickling connection
        self.busy_seen = 0
        server = self

        class Handler(socketserver.BaseRequestHandler):
            def handle(self):
                self.request.settimeout(30)
                request = b""
                while b"\r\n\r\n" not in request:
                    chunk = self.request.recv(4096)
                    if not chunk:
                        return
                    request += chunk
                path = request.split(b" ", 2)[1].decode()
                try:
                    server.answer(self.request, path)
                except OSError:
                    pass  # the app hung up: what a cancelled transfer does

        socketserver.ThreadingTCPServer.allow_reuse_address = True
        self.tcp = socketserver.ThreadingTCPServer(("127.0.0.1", 0), Handler)
        self.tcp.daemon_threads = True
        self.port = self.tcp.server_address[1]
        threading.Thread(target=self.tcp.serve_forever, daemon=True).start()

    def url(self, path):
        return "http://127.0.0.1:%d%s" % (self.port, path)

    def answer(self, sock, path):
        head = "HTTP/1.1 200 OK\r\nContent-Type: image/png\r\nContent-Length: %d\r\nConnection: close\r\n\r\n"
        if path.startswith("/trickle/"):
            sock.sendall((head % len(IMAGE)).encode())
            try:
                for offset in range(0, len(IMAGE), 2):
                    if self.stopped.wait(1):
                        return
                    sock.sendall(IMAGE[offset:offset + 2])
            except OSError:
                self.hung_up.set()
        elif path == "/loop":
            sock.sendall(b"HTTP/1.1 302 Found\r\nLocation: /loop\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
        elif path == "/short":
            # Promises the whole image, sends a tenth of it, hangs up.
            sock.sendall((head % len(IMAGE)).encode() + IMAGE[:len(IMAGE) // 10])
            sock.shutdown(socket.SHUT_RDWR)
        elif path == "/hangup":
            sock.sendall(b"HTTP/1.1 200 OK\r\nContent-Ty")
            sock.shutdown(socket.SHUT_RDWR)
        elif path == "/busy" and self.busy_seen == 0:
            self.busy_seen += 1
            sock.sendall(b"HTTP/1.1 429 Too Many Requests\r\nRetry-After: 1\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
        else:
            sock.sendall((head % len(IMAGE)).encode() + IMAGE)

    def stop(self):
        self.stopped.set()
        self.tcp.shutdown()
        self.tcp.server_close()


def state_of(urls):
    return {"version": 1, "sidebarVisible": False, "galleries": [{"id": "g", "name": "Hostile", "images": [
        {"id": image_id(i + 1), "url": url, "aspectRatio": 1.5} for i, url in enumerate(urls)]}]}


def test_trickling_servers_do_not_keep_other_images_waiting(make_app):
    server = HostileServer()
    try:
        urls = [server.url("/trickle/%d" % i) for i in range(TRICKLERS)] + [server.url("/img/after-the-tricklers")]
        app = make_app(state_of(urls))
        app.start()
        cells = app.wait_cells(lambda cs: len(cs) == len(urls) and cs[-1].settled and cs[-1].error is None, 30,
                               what="the normal image shown while %d servers trickle" % TRICKLERS)
        assert all(c.loading for c in cells[:TRICKLERS]), "the tricklers cannot have finished: %s" % cells
    finally:
        server.stop()


def test_loops_hangups_and_busy_servers_say_what_happened(make_app):
    server = HostileServer()
    try:
        urls = [server.url("/loop"), server.url("/hangup"), server.url("/short"), server.url("/busy")]
        app = make_app(state_of(urls))
        app.start()
        cells = app.wait_cells(lambda cs: len(cs) == 4 and all(c.error for c in cs[:3]) and cs[3].settled, 40,
                               what="three errors and the image that was busy at first")
        assert cells[0].error == "too many redirects", cells[0]
        assert cells[1].error == "the connection closed early", cells[1]
        assert cells[2].error == "the connection closed early", cells[2]
        assert cells[3].error is None and server.busy_seen == 1, cells[3]
    finally:
        server.stop()


def test_deleting_a_loading_image_stops_its_download(make_app, desktop):
    server = HostileServer()
    try:
        app = make_app(state_of([server.url("/trickle/doomed"), server.url("/img/stays")]))
        app.start()
        cells = app.wait_cells(lambda cs: len(cs) == 2 and cs[0].loading and cs[1].settled, 30,
                               what="the trickling image loading beside a shown one")
        app.focus()
        desktop.click(*cells[0].center)
        app.key("Delete")
        app.wait_cells(lambda cs: len(cs) == 1, 10, what="the loading image deleted")
        wait_until(server.hung_up.is_set, 15, 0.1, "the app to close the trickling connection")
    finally:
        server.stop()
