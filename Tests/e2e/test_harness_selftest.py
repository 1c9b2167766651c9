"""Tests of the harness itself: none needs the app. The last ones start the session's Xvfb/D-Bus/AT-SPI desktop
and drive tools/standin_gallery.py (a tiny python3-gi window following the app's AT-SPI contract) to prove the
plumbing: the window found over AT-SPI, cells read fresh, pixels in screenshots, xdotool input."""
import io
import itertools
import json
import os
import socket
import struct
import time
import urllib.error
import urllib.request
import zlib

import pytest
from PIL import Image

import harness
from harness import colour_close, dominant_colour, png_bytes

STANDIN = os.path.join(os.path.dirname(os.path.abspath(__file__)), "tools", "standin_gallery.py")


def fetch(url, timeout=10):
    with urllib.request.urlopen(url, timeout=timeout) as r:
        return r.status, dict(r.headers), r.read()


# ---- pure helpers ----

def test_png_generator_makes_a_decodable_png_of_the_right_size_and_colour():
    data = png_bytes(37, 23, (12, 200, 99))
    image = Image.open(io.BytesIO(data))
    image.load()
    assert image.format == "PNG"
    assert image.size == (37, 23)
    assert image.mode == "RGB"
    assert set(image.getdata()) == {(12, 200, 99)}
    assert harness.decode_png_size(data) == (37, 23)


def test_png_generator_is_deterministic_and_checksummed():
    a, b = png_bytes(10, 5, (1, 2, 3)), png_bytes(10, 5, (1, 2, 3))
    assert a == b
    assert a != png_bytes(10, 5, (1, 2, 4))
    # walk the chunks: every CRC is right, IDAT inflates to height rows of (filter byte + 3 * width)
    pos, chunks = 8, []
    while pos < len(a):
        length, kind = struct.unpack(">I4s", a[pos:pos + 8])
        body = a[pos + 8:pos + 8 + length]
        crc, = struct.unpack(">I", a[pos + 8 + length:pos + 12 + length])
        assert crc == zlib.crc32(kind + body) & 0xFFFFFFFF
        chunks.append((kind, body))
        pos += 12 + length
    assert [k for k, _ in chunks] == [b"IHDR", b"IDAT", b"IEND"]
    assert len(zlib.decompress(chunks[1][1])) == 5 * (1 + 3 * 10)


def test_png_generator_refuses_empty_sizes():
    with pytest.raises(ValueError):
        png_bytes(0, 5, (0, 0, 0))


@pytest.mark.parametrize("fmt", ["jpeg", "webp"])
def test_pil_variants_decode_to_the_colour(fmt):
    data = harness.encoded_image(64, 32, (200, 30, 40), fmt)
    image = Image.open(io.BytesIO(data)).convert("RGB")
    assert image.size == (64, 32)
    assert colour_close(image.getpixel((32, 16)), (200, 30, 40), 6)


def test_dominant_colour_reads_the_centre_of_a_box():
    image = Image.new("RGB", (200, 100), (255, 255, 255))
    image.paste((10, 20, 30), (50, 20, 150, 80))     # a 100x60 box
    image.paste((250, 0, 0), (55, 25, 60, 30))       # a speck near its corner, outside the centre half
    colour, share = dominant_colour(image, (50, 20, 100, 60))
    assert colour == (10, 20, 30) and share == 1.0
    colour, share = dominant_colour(image, (0, 0, 200, 100), fraction=1.0)
    assert colour == (255, 255, 255) and 0.6 < share < 0.75


def test_colour_bbox_finds_the_drawn_extent():
    image = Image.new("RGB", (200, 100), (255, 255, 255))
    image.paste((10, 200, 30), (40, 10, 100, 50))     # 60x40 at (40, 10)
    assert harness.colour_bbox(image, (45, 15, 10, 10), (12, 198, 33), tol=5, margin=100) == (40, 10, 60, 40)
    assert harness.colour_bbox(image, (45, 15, 10, 10), (12, 198, 33), tol=5, margin=0) == (45, 15, 10, 10)
    assert harness.colour_bbox(image, (150, 60, 20, 20), (12, 198, 33), margin=5) is None


def test_cell_name_parsing():
    cell = harness.Cell(0, "cat.png, error: HTTP 404, selected", "http://x/cat.png", 1, 2, 30, 20)
    assert (cell.label, cell.error, cell.selected, cell.loading, cell.url) == ("cat.png", "HTTP 404", True, False,
                                                                                "http://x/cat.png")
    assert cell.center == (16, 12) and cell.aspect == 1.5 and cell.settled
    assert harness.Cell(0, "cat.png, loading", "u", 0, 0, 10, 10).loading
    assert not harness.Cell(0, "Downloading cat.png", "u", 0, 0, 10, 10).settled
    assert not harness.Cell(0, "cat.png", "u", -1, -1, -1, -1).settled


def test_colour_close():
    assert colour_close((10, 10, 10), (40, 40, 40), 30)
    assert not colour_close((10, 10, 10), (41, 10, 10), 30)
    assert not colour_close(None, (1, 2, 3))


def test_the_palette_is_distinct_and_unlike_the_ui():
    images = harness.DISTINCT_IMAGES + [harness.FILE_IMAGE, harness.DATA_IMAGE]
    for (n1, _, _, c1, _), (n2, _, _, c2, _) in itertools.combinations(images, 2):
        assert not colour_close(c1, c2, 60), (n1, n2)
    for name, _, _, colour, _ in images:
        for ui in harness.UI_COLOURS:
            assert not colour_close(colour, ui, 60), (name, ui)
    aspects = [round(w / h, 3) for _, w, h, _, _ in images]
    assert len(set(aspects)) >= 12


# ---- HTTP server ----

def test_image_route_serves_registered_bytes_with_content_type(http_server):
    red = http_server.add_image("red", 30, 20, (255, 0, 0))
    jpeg = http_server.add_image("j", 40, 10, (0, 0, 255), fmt="jpeg")
    status, headers, body = fetch(red.url)
    assert status == 200 and headers["Content-Type"] == "image/png" and body == red.data
    assert int(headers["Content-Length"]) == len(body)
    assert red.url == http_server.url("/img/red.png") and abs(red.aspect - 1.5) < 1e-9
    status, headers, body = fetch(jpeg.url)
    assert headers["Content-Type"] == "image/jpeg" and Image.open(io.BytesIO(body)).size == (40, 10)


def test_missing_and_unknown_paths_are_404(http_server):
    for path in ("/missing.png", "/img/nothing.png", "/slow/nothing.png?delay=1", "/stepped/nothing.png"):
        with pytest.raises(urllib.error.HTTPError) as e:
            fetch(http_server.url(path))
        assert e.value.code == 404, path


def test_page_lie_redirect_imgres_and_add_file(http_server):
    red = http_server.add_image("red", 30, 20, (255, 0, 0))
    status, headers, body = fetch(http_server.url("/page.html"))
    assert headers["Content-Type"].startswith("text/html") and red.url.encode() in body
    status, headers, body = fetch(http_server.url("/lie.png"))
    assert headers["Content-Type"] == "image/png" and body.startswith(b"<!DOCTYPE html>")
    status, headers, body = fetch(http_server.url("/redirect?to=/img/red.png"))
    assert body == red.data and http_server.hits("/redirect") == 1
    status, headers, body = fetch(http_server.url("/imgres?imgurl=" + red.url))
    assert headers["Content-Type"].startswith("text/html") and red.url.encode() in body
    url = http_server.add_file("/x/y.bin", b"hello", "application/octet-stream", 403)
    with pytest.raises(urllib.error.HTTPError) as e:
        fetch(url)
    assert e.value.code == 403 and e.value.read() == b"hello"


def test_request_log_counts_per_route(http_server):
    red = http_server.add_image("red", 3, 2, (255, 0, 0))
    for _ in range(3):
        fetch(red.url + "?n=1")
    assert http_server.hits("/img/red.png") == 3
    assert [r.path for r in http_server.requests("/img/red.png")][0] == "/img/red.png?n=1"
    assert http_server.hits("/img/blue.png") == 0
    http_server.clear_log()
    assert http_server.requests() == []


def test_slow_route_spreads_the_bytes_over_the_delay(http_server):
    image = http_server.add_image("big", 200, 100, (1, 2, 3))
    start = time.monotonic()
    with urllib.request.urlopen(image.slow_url(1.5), timeout=10) as r:
        assert int(r.headers["Content-Length"]) == len(image.data)
        first = r.read(1)
        first_at = time.monotonic() - start
        rest = r.read()
    elapsed = time.monotonic() - start
    assert first + rest == image.data
    assert first_at < 1.0 and 1.2 < elapsed < 6, (first_at, elapsed)


def test_stepped_route_sends_only_the_share_let_out(http_server):
    image = http_server.add_image("big", 200, 100, (1, 2, 3))
    half = int(len(image.data) * 0.5)
    http_server.let_out(image, 0.5)
    with socket.create_connection(("127.0.0.1", http_server.port), timeout=10) as sock:
        sock.sendall(b"GET /stepped/big.png HTTP/1.0\r\n\r\n")
        received = b""
        while b"\r\n\r\n" not in received or len(received.split(b"\r\n\r\n", 1)[1]) < half:
            received += sock.recv(65536)
        head, body = received.split(b"\r\n\r\n", 1)
        assert b"Content-Length: %d" % len(image.data) in head and body == image.data[:half]
        sock.settimeout(0.3)
        with pytest.raises(socket.timeout):
            sock.recv(65536)  # nothing past the share let out
        sock.settimeout(10)
        http_server.let_out(image, 1)
        while chunk := sock.recv(65536):
            body += chunk
    assert body == image.data


def test_huge_route_declares_60_mb_and_streams(http_server):
    with urllib.request.urlopen(http_server.url("/huge.png"), timeout=10) as r:
        assert int(r.headers["Content-Length"]) == 60 * 1024 * 1024
        head = r.read(1024 * 1024)
    assert head[:8] == b"\x89PNG\r\n\x1a\n" and len(head) == 1024 * 1024


def test_stall_route_sends_a_few_bytes_then_nothing_until_stop(http_server):
    sock = socket.create_connection(("127.0.0.1", http_server.port), timeout=5)
    sock.sendall(b"GET /stall.png HTTP/1.0\r\nHost: x\r\n\r\n")
    sock.settimeout(1.0)
    received = b""
    while b"\x89PNG" not in received:
        received += sock.recv(4096)
    assert b"Content-Length: 100000" in received
    with pytest.raises(socket.timeout):
        sock.recv(4096)  # stalled
    http_server.stop()
    sock.settimeout(5)
    assert sock.recv(4096) == b""  # released and closed by stop()
    sock.close()


def test_stop_makes_the_server_unreachable(http_server):
    red = http_server.add_image("red", 3, 2, (255, 0, 0))
    fetch(red.url)
    http_server.stop()
    with pytest.raises(urllib.error.URLError):
        fetch(red.url, timeout=3)
    assert http_server.hits("/img/red.png") == 1


def test_data_and_file_urls(tmp_path):
    data = png_bytes(2, 2, (1, 1, 1))
    assert harness.data_url(data).startswith("data:image/png;base64,iVBOR")
    path = tmp_path / "a b.png"
    assert harness.file_url(str(path)) == "file://" + str(tmp_path) + "/a%20b.png"


# ---- desktop plumbing, with the stand-in window (not the app) ----

def test_missing_binary_fails_clearly(make_app, tmp_path):
    app = make_app(None, binary=str(tmp_path / "no-such-binary"))
    with pytest.raises(AssertionError, match="missing or not executable"):
        app.start()


def test_desktop_atspi_screenshot_and_input_with_the_standin(make_app, http_server, desktop):
    red = http_server.add_image("red", 300, 200, (220, 20, 20))
    blue = http_server.add_image("blue", 150, 300, (20, 30, 220))
    missing = http_server.url("/missing.png")
    state = {"version": 1, "galleries": [{"id": "g", "name": "G", "images": [
        {"id": "1", "url": red.url, "aspectRatio": 1.5},
        {"id": "2", "url": blue.url, "aspectRatio": 0.5},
        {"id": "3", "url": missing, "aspectRatio": 1.0}]}]}
    app = make_app(state, binary=STANDIN)
    app.start()
    assert app.state() == state
    assert (app.frame().name, app.frame().role_name) == ("Image Gallery", "frame")
    assert any(title == "Image Gallery" for _, title in desktop.top_level_windows())
    assert app.find_by_name("Trash") is not None
    assert app.find_by_name("trash", contains=True, ignore_case=True) is not None
    assert app.find_by_name("Trash", role="layered pane") is None

    cells = app.wait_settled(3)
    assert [c.url for c in cells] == [red.url, blue.url, missing]
    assert [c.role for c in cells] == ["image"] * 3
    assert cells[2].error == "HTTP 404" and cells[2].label == "missing.png" and cells[0].error is None
    assert abs(cells[0].aspect - 1.5) < 0.03 and abs(cells[1].aspect - 0.5) < 0.03
    shot = app.screenshot()
    assert dominant_colour(shot, cells[0].box)[0] == (220, 20, 20)
    assert app.pixel(*cells[1].center, image=shot) == (20, 30, 220)
    assert http_server.hits("/img/red.png") == 1

    with pytest.raises(AssertionError, match="timed out.*never.*3 cells"):
        app.wait_cells(lambda cs: False, timeout=0.5, what="never")

    desktop.move_to(5, 5)
    desktop.move(cells[1].center[0], cells[1].center[1], steps=5, step_delay=0.01)
    loc = desktop.xdotool("getmouselocation", "--shell")
    assert "X=%d\n" % cells[1].center[0] in loc and "Y=%d\n" % cells[1].center[1] in loc

    before = app.state_bytes()
    app.stop()
    assert not app.running
    http_server.stop()
    app.start()  # relaunch: same directories, the stand-in's cache serves the images
    cells = app.wait_settled(3)
    assert [c.error is None for c in cells] == [True, True, False]
    assert app.state_bytes() == before
    assert json.loads(before) == state
