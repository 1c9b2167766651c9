"""Issue 43 (transfers), end to end: a download nobody waits for closes its connection, a server that trickles
gives its connections to an image the user waits for, and a flood of gzip bombs stays within its memory bound.

The server is the hostile one of test_hostile_servers.py (one thread a connection, counting those open), whose
/trickle/N answers now notice at once when the app hangs up: a connection counts as open until the app closes it.
/bomb/N answers 49 MB of zeros gzipped to 48 kB with `Content-Encoding: gzip`, /large/N the 49 MB themselves. Addresses are pasted with Ctrl+V from a
clipboard owner in another process (`text/uri-list`, or plain text for one address)."""
import gzip
import select
import subprocess
import sys

import harness
from harness import wait_until
from test_hostile_servers import IMAGE, HostileServer, state_of

BOMB = gzip.compress(bytes(49_000_000), 9)
LARGE_BODY = bytes(49_000_000)

_CLIPBOARD_OWNER = """
import sys
import gi
gi.require_version("Gtk", "3.0")
gi.require_version("Gdk", "3.0")
from gi.repository import Gdk, Gtk
with open(sys.argv[1], "rb") as f:
    data = f.read()
target = Gdk.Atom.intern(sys.argv[2], False)
owner = Gtk.Invisible()
Gtk.selection_add_target(owner, Gdk.SELECTION_CLIPBOARD, target, 0)
owner.connect("selection-get", lambda widget, selection, info, time: selection.set(target, 8, data))
assert Gtk.selection_owner_set(owner, Gdk.SELECTION_CLIPBOARD, Gdk.CURRENT_TIME)
print("owned", flush=True)
Gtk.main()
"""


class TransferServer(HostileServer):
    """Trickling answers end when the app closes the connection, not at the next byte sent; bombs on /bomb/."""

    def __init__(self):
        super().__init__()
        self.accepted = 0  # connections the app opened, in all

    def count(self, change):
        super().count(change)
        if change > 0:
            with self.lock:
                self.accepted += 1

    def answer(self, sock, path, last_part):
        if path.startswith("/bomb/") or path.startswith("/large/"):
            last_part()
            body, encoding = (BOMB, "Content-Encoding: gzip\r\n") if path.startswith("/bomb/") else (LARGE_BODY, "")
            sock.sendall(("HTTP/1.1 200 OK\r\nContent-Type: image/png\r\n%sContent-Length: %d\r\n"
                          "Connection: close\r\n\r\n" % (encoding, len(body))).encode() + body)
            return
        if not path.startswith("/trickle/"):
            return super().answer(sock, path, last_part)
        sock.sendall(("HTTP/1.1 200 OK\r\nContent-Type: image/png\r\nContent-Length: %d\r\nConnection: close\r\n\r\n"
                      % len(IMAGE)).encode())
        for offset in range(0, len(IMAGE), 2):
            # The app sends nothing more: the socket turns readable only when it hangs up.
            readable, _, _ = select.select([sock], [], [], 1)
            if self.stopped.is_set() or (readable and not sock.recv(1)):
                return
            sock.sendall(IMAGE[offset:offset + 2])


def paste(app, desktop, tmp_path, text, target):
    """Ctrl+V in the app while another process owns the clipboard with `text` as `target`; returns that process."""
    path = tmp_path / "clipboard"
    path.write_bytes(text.encode())
    env = desktop.base_env()
    env["NO_AT_BRIDGE"] = "1"
    owner = subprocess.Popen([sys.executable, "-c", _CLIPBOARD_OWNER, str(path), target], env=env,
                             stdout=subprocess.PIPE)
    assert owner.stdout.readline().strip() == b"owned"
    app.focus()
    app.key("ctrl+v")
    return owner


def open_connections(server, count, what):
    wait_until(lambda: server.open == count, 30, 0.1, what, describe=lambda: "%d open" % server.open)


def test_deleting_trickling_images_closes_their_connections(make_app):
    server = TransferServer()
    try:
        # Eight images of one server: six connections trickle, two wait for one.
        app = make_app(state_of([server.url("/trickle/%d" % i) for i in range(8)]))
        app.start()
        app.wait_cells(lambda cs: len(cs) == 8 and all(c.loading for c in cs), 30, what="eight loading images")
        open_connections(server, 6, "six trickling connections")
        app.focus()
        app.key("ctrl+a")
        app.key("Delete")
        app.wait_cells(lambda cs: not cs, 10, what="the images deleted")
        # Left alone they trickle on for seconds, until the app's low-speed limit ends them.
        wait_until(lambda: server.open == 0, 3, 0.05, "every connection closed within 3 s of the delete",
                   describe=lambda: "%d open" % server.open)
        accepted = server.accepted
        wait_until(lambda: app.image_urls() == [], 20, 0.2, "the deletion saved")
        assert server.open == 0 and server.accepted == accepted, "a deleted image was fetched again"
    finally:
        server.stop()


def test_trickling_transfers_give_their_connections_to_a_pasted_image(make_app, desktop, tmp_path):
    server = TransferServer()
    owner = None
    try:
        app = make_app(state_of([server.url("/trickle/%d" % i) for i in range(6)]))
        app.start()
        app.resize(900, 700)
        app.wait_cells(lambda cs: len(cs) == 6 and all(c.loading for c in cs), 30, what="six loading images")
        # Every connection this server gets is taken by a trickling answer.
        open_connections(server, 6, "six trickling connections")
        normal = server.url("/img/pasted.png")
        owner = paste(app, desktop, tmp_path, normal, "UTF8_STRING")
        cells = app.wait_cells(lambda cs: any(c.url == normal and c.settled and c.error is None for c in cs), 30,
                               what="the pasted image shown")
        # The trickling ones stop as too slow only after 15 s of trickling: the pasted image did not wait for that.
        trickling = [c for c in cells if c.url != normal]
        assert len(trickling) == 6 and all(c.loading and c.error is None for c in trickling), cells
    finally:
        if owner:
            owner.kill()
            owner.wait(10)
        server.stop()


BOMBS = 300
LARGE = 30


def pasted_flood_peak(app, desktop, tmp_path, urls):
    """Pastes `urls` into the app and waits until each is refused as not an image, the window answering meanwhile;
    returns the app's peak memory above its baseline before the paste, in MiB, failing once it passes 256."""
    baseline = harness.process_memory_mib(app.proc.pid)
    with open("/proc/%d/clear_refs" % app.proc.pid, "w") as clear:
        clear.write("5")  # VmHWM starts again from VmRSS
    owner = paste(app, desktop, tmp_path, "".join(url + "\r\n" for url in urls), "text/uri-list")
    try:
        app.wait_cells(lambda cs: len(cs) > 0, 30, what="the paste's placeholders")
        # The window answers meanwhile: Ctrl+A selects the placeholders within 2 s.
        app.key("ctrl+a")
        app.wait_cells(lambda cs: cs and all(c.selected for c in cs), 2, what="the placeholders selected")

        def peak():
            above = harness.process_memory_mib(app.proc.pid, "VmHWM") - baseline
            assert above < 256, "peak %.0f MiB above the baseline" % above
            return above

        def settled():
            peak()
            # A single read first: a stable read of placeholders whose progress keeps changing takes seconds.
            return app.peek_cells() == [] and not app.cells() and app.find_by_name("not an image", contains=True)

        # Each answer is refused as what it is, and the paste says so; its placeholders go.
        wait_until(settled, 240, 0.5, "the pasted answers refused as not images", app.dump_tree)
        assert "Couldn’t add" in app.find_by_name("not an image", contains=True).name
        assert app.running
        return peak()
    finally:
        owner.kill()
        owner.wait(10)


def start_empty(make_app):
    app = make_app()
    app.start()
    app.resize(900, 700)
    app.wait_cells(lambda cs: cs == [], 10, what="the empty gallery")
    return app


def test_a_pasted_flood_of_gzip_bombs_stays_within_its_memory_bound(make_app, desktop, tmp_path):
    server = TransferServer()
    try:
        app = start_empty(make_app)
        pasted_flood_peak(app, desktop, tmp_path, [server.url("/bomb/%d.png" % i) for i in range(BOMBS)])
    finally:
        server.stop()


def test_a_pasted_flood_of_large_answers_stays_within_its_memory_bound(make_app, desktop, tmp_path):
    server = TransferServer()
    try:
        # The network outruns the decoder: answers wait to be decoded within the budget of bytes held.
        app = start_empty(make_app)
        pasted_flood_peak(app, desktop, tmp_path, [server.url("/large/%d.png" % i) for i in range(LARGE)])
    finally:
        server.stop()
