"""Issue 30 (class 1), end to end: local paths that are not plain files.

A folder dropped from a file manager may hold a FIFO, a socket or a link to one next to its images; a state file
(synced from elsewhere, or written by hand) may name a FIFO, a device, /proc/self/mem, a folder, a missing file or
garbage. None of them is opened blocking or read without end: the images are added, the drop finishes, each bad
address is an error cell with a short reason, and the window answers a key within 2 s all along."""
import os
import socket

import harness
from drag_source import DragSource, target, uri_list

RED, GREEN, BLUE = (210, 30, 30), (30, 180, 40), (30, 40, 210)


def write_png(path, width, height, rgb):
    with open(path, "wb") as f:
        f.write(harness.png_bytes(width, height, rgb))


def answers_a_key(app, count):
    """Ctrl+A selects all `count` cells within 2 s: the main loop is not held up."""
    app.focus()
    app.key("ctrl+a")
    app.wait_cells(lambda cs: len(cs) == count and all(c.selected for c in cs), timeout=2,
                   what="all %d cells selected within 2 s of Ctrl+A" % count)


def unix_socket(path):
    """A listening Unix socket at `path`; the caller closes it."""
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(str(path))
    listener.listen(1)
    return listener


def test_a_dropped_folder_with_a_fifo_and_a_socket_adds_its_images_and_skips_them(desktop, make_app, tmp_path):
    folder = tmp_path / "mixed"
    folder.mkdir()
    write_png(folder / "a.png", 200, 100, RED)
    write_png(folder / "b.png", 100, 100, GREEN)
    write_png(folder / "c.png", 100, 200, BLUE)
    os.mkfifo(folder / "pipe.png")  # an image's name, no writer: opening it for reading would wait for good
    os.mkfifo(folder / "pipe")
    os.symlink(folder / "pipe", folder / "link.jpg")
    listener = unix_socket(folder / "socket.png")
    try:
        app = make_app()
        app.start()
        app.resize(900, 700)
        x, y, width, height = app.gallery().extents()
        uri = harness.file_url(str(folder))
        with DragSource(desktop, [target("text/uri-list", uri_list(uri))], workdir=str(tmp_path / "source")) as src:
            src.drag_into((x + width // 2, y + height // 3))
            src.wait_for("drag-end", timeout=15)
        expected = [harness.file_url(str(folder / name)) for name in ("a.png", "b.png", "c.png")]
        cells = app.wait_cells(lambda cs: len(cs) == 3 and all(c.settled for c in cs), timeout=30,
                               what="the folder's three images")
        assert [c.url for c in cells] == expected, harness.format_cells(cells)
        assert all(c.error is None for c in cells), harness.format_cells(cells)
        message = app.wait_for_object("skipped", "label", timeout=20, contains=True).name
        assert "4 files were skipped: they are not regular files" in message, message
        harness.wait_until(lambda: app.image_urls() == expected, 10, 0.1, "the three images saved")
        answers_a_key(app, 3)
        assert app.running
    finally:
        listener.close()


def test_a_dropped_fifo_or_device_is_refused_with_a_reason(desktop, make_app, tmp_path):
    pipe = tmp_path / "drop.png"
    os.mkfifo(pipe)
    app = make_app()
    app.start()
    app.resize(900, 700)
    x, y, width, height = app.gallery().extents()
    uris = [harness.file_url(str(pipe)), "file:///dev/zero"]
    with DragSource(desktop, [target("text/uri-list", uri_list(*uris))], workdir=str(tmp_path / "source")) as src:
        src.drag_into((x + width // 2, y + height // 3))
        src.wait_for("drag-end", timeout=15)
    message = app.wait_for_object("not a regular file", "label", timeout=20, contains=True).name
    assert "Couldn’t add" in message, message
    harness.wait_until(lambda: app.cells() == [], 20, 0.2, "both placeholders gone")
    assert app.running


def test_a_state_file_naming_devices_fifos_and_folders_launches_with_error_cells(make_app, tmp_path):
    good = tmp_path / "good.png"
    write_png(good, 120, 80, GREEN)
    pipe = tmp_path / "pipe.png"
    os.mkfifo(pipe)
    listener = unix_socket(tmp_path / "socket.png")
    reasons = {
        harness.file_url(str(pipe)): "not a regular file",
        "file:///dev/zero": "not a regular file",
        "file:///proc/self/mem": "could not be read",
        harness.file_url(str(tmp_path)): "not a regular file",
        harness.file_url(str(tmp_path / "socket.png")): "not a regular file",
        harness.file_url(str(tmp_path / "gone.png")): "file not found",
        "file:///proc/self/status": "not an image",
        "file:///tmp/%00.png": "file not found",
        "file:": None,
    }
    urls = list(reasons) + [harness.file_url(str(good))]
    state = {"version": 1, "sidebarVisible": False, "galleries": [{
        "id": "g", "name": "Gallery",
        "images": [{"id": "img-%02d" % i, "url": url, "aspectRatio": 1.0} for i, url in enumerate(urls)]}]}
    try:
        app = make_app(state)
        app.start()
        cells = app.wait_cells(lambda cs: len(cs) == len(urls) and all(c.settled for c in cs), timeout=30,
                               what="every cell loaded or failed")
        by_url = {c.url: c for c in cells}
        assert by_url[harness.file_url(str(good))].error is None, harness.format_cells(cells)
        for url, reason in reasons.items():
            cell = by_url.get(url)
            assert cell is not None and cell.error is not None, "%s: %s" % (url, harness.format_cells(cells))
            assert reason is None or reason in cell.error, "%s: %s" % (url, cell)
        answers_a_key(app, len(urls))
        assert app.running
    finally:
        listener.close()
