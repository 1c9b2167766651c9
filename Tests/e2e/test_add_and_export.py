"""Adding images from the disk (Ctrl+O, Add Folder…, a folder dropped from Files) and exporting a gallery as a
folder a person can use without the app (Export Gallery…). The file chooser is GTK's own dialog here (no portal
runs on the test desktop), driven over AT-SPI and with real keys and clicks: Ctrl+L, a typed path, the accept
button."""
import json
import os
import random
import subprocess
import time
import zlib

import pytest

import harness
from drag_source import DragSource, target, uri_list

SHOTS = os.environ.get("E2E_SAVE_SCREENSHOTS")

RED, GREEN, BLUE, YELLOW = (210, 30, 30), (30, 180, 40), (30, 40, 210), (220, 200, 20)


def write_png(path, width, height, rgb):
    with open(path, "wb") as f:
        f.write(harness.png_bytes(width, height, rgb))


def noise_png(width, height, seed):
    """A PNG that does not compress: random pixels, about width × height × 3 bytes."""
    rng = random.Random(seed)
    raw = b"".join(b"\x00" + bytes(rng.getrandbits(8) for _ in range(width * 3)) for _ in range(height))
    return (b"\x89PNG\r\n\x1a\n" + harness._png_chunk(b"IHDR", width.to_bytes(4, "big") + height.to_bytes(4, "big")
                                                      + b"\x08\x02\x00\x00\x00")
            + harness._png_chunk(b"IDAT", zlib.compress(raw, 0)) + harness._png_chunk(b"IEND", b""))


def state_of(images, name="Gallery"):
    return {"version": 1, "sidebarVisible": False,
            "galleries": [{"id": "g", "name": name, "images": images}]}


def image_entry(i, url, aspect=1.5):
    return {"id": "img-%03d" % i, "url": url, "aspectRatio": aspect}


THEMES = {"light": None, "dark": {"GTK_THEME": "Adwaita:dark"}}


def keep_shot(app, name):
    if SHOTS:
        os.makedirs(SHOTS, exist_ok=True)
        app.screenshot(os.path.join(SHOTS, name))


def open_main_menu_item(app, item):
    """The primary menu's `item`, activated over AT-SPI as a screen reader would."""
    app.wait_for_object("Main Menu", "toggle button", timeout=10).do_action(0)
    time.sleep(0.4)
    app.wait_for_object(item, "push button", timeout=10).do_action(0)


def chooser(app, title):
    return app.wait_for_object(title, "file chooser", timeout=20)


def type_location(app, path):
    """Ctrl+L opens the chooser's location entry, where a path is typed as a person would."""
    time.sleep(0.6)
    app.key("ctrl+l")
    time.sleep(0.3)
    app.desktop.type_text(str(path))
    time.sleep(0.5)


def choose_folder(app, dialog, path, label):
    """In a folder chooser: the folder's path typed, then the accept button."""
    type_location(app, path)
    accept(app, dialog, label)


def accept(app, dialog, label):
    button = app.find_by_name(label, "push button", root=dialog)
    assert button is not None, app.dump_tree(dialog)
    button.do_action(0)


def toast_text(app, contains, timeout=20):
    return app.wait_for_object(contains, "label", timeout=timeout, contains=True).name


def row_cells(app, dialog):
    """The chooser's file rows as (name cell extents) in order, from the type column's cells ("Image")."""
    table = app.find_by_name("Files", "table", root=dialog)
    return [c.extents() for c in table.children() if c.role_name == "table cell" and c.name == "Image"]


def add_row_to_selection(table, row):
    from gi.repository import GLib
    return table._call("AddRowSelection", GLib.Variant("(i)", (row,)), "(b)", iface="org.a11y.atspi.Table")[0]


@pytest.mark.parametrize("theme", THEMES)
def test_ctrl_o_adds_the_files_chosen_as_one_undo_step(desktop, make_app, tmp_path, theme):
    folder = tmp_path / "pics"
    folder.mkdir()
    for name, rgb in [("a.png", RED), ("b.png", GREEN), ("c.png", BLUE)]:
        write_png(folder / name, 150, 100, rgb)
    (folder / "notes.txt").write_text("the Images filter hides me")
    app = make_app(env_overrides=THEMES[theme])
    app.start()
    app.focus()
    app.key("ctrl+o")
    dialog = chooser(app, "Add Images")
    type_location(app, str(folder) + "/")
    app.key("Return")  # goes into the folder
    rows = harness.wait_until(lambda: (lambda r: r if len(r) == 3 else None)(row_cells(app, dialog)), 10, 0.2,
                              "the folder's three images listed (the text file filtered out)")
    # a.png and c.png, not b.png: a click on a.png, then c.png added to the selection over AT-SPI (as a screen
    # reader does; Xvfb has no window manager to give the dialog the keyboard for Ctrl+click).
    (x, y, w, h) = rows[0]
    app.click(x - 400, y + h // 2)
    time.sleep(0.3)
    table = app.find_by_name("Files", "table", root=dialog)
    assert add_row_to_selection(table, 2)
    time.sleep(0.3)
    keep_shot(app, "file-chooser-%s.png" % theme)
    accept(app, dialog, "Add")
    cells = app.wait_cells(lambda cs: len(cs) == 2 and all(c.settled for c in cs), timeout=30)
    assert [c.url for c in cells] == [harness.file_url(str(folder / "a.png")), harness.file_url(str(folder / "c.png"))]
    assert all(abs(c.aspect - 1.5) < 0.05 for c in cells)
    shot = app.screenshot()
    assert harness.colour_close(harness.dominant_colour(shot, cells[0].box)[0], RED)
    assert harness.colour_close(harness.dominant_colour(shot, cells[1].box)[0], BLUE)
    harness.wait_until(lambda: len(app.image_urls()) == 2, 10, 0.1, "the two images saved")
    # One step undoes both.
    app.focus()
    app.key("ctrl+z")
    app.wait_cells(lambda cs: cs == [], timeout=10)
    harness.wait_until(lambda: app.image_urls() == [], 10, 0.1, "the undo saved")
    app.key("ctrl+shift+z")
    app.wait_cells(lambda cs: len(cs) == 2, timeout=10)


def make_mixed_folder(folder):
    """img1, img2, img10 and photo.JPG (a JPEG whose extension is in capitals) in an order no plain sort gives, plus a text
    file, a hidden image and a subfolder that are not added."""
    folder.mkdir()
    write_png(folder / "img10.png", 100, 100, BLUE)
    write_png(folder / "img2.png", 200, 100, GREEN)
    write_png(folder / "img1.png", 100, 200, RED)
    (folder / "photo.JPG").write_bytes(harness.encoded_image(160, 90, YELLOW, "jpeg"))
    (folder / "readme.txt").write_text("not an image")
    write_png(folder / ".hidden.png", 50, 50, RED)
    (folder / "sub").mkdir()
    write_png(folder / "sub" / "inner.png", 50, 50, RED)
    return [folder / "img1.png", folder / "img2.png", folder / "img10.png", folder / "photo.JPG"]


def check_folder_added(app, expected):
    cells = app.wait_cells(lambda cs: len(cs) == len(expected) and all(c.settled for c in cs), timeout=30)
    assert [c.url for c in cells] == [harness.file_url(str(p)) for p in expected]
    assert [round(c.aspect, 1) for c in cells] == [0.5, 2.0, 1.0, 1.8]
    message = toast_text(app, "skipped")
    assert "readme.txt" in message, message
    harness.wait_until(lambda: len(app.image_urls()) == len(expected), 10, 0.1, "the folder's images saved")
    app.focus()
    app.key("ctrl+z")
    app.wait_cells(lambda cs: cs == [], timeout=10)
    harness.wait_until(lambda: app.image_urls() == [], 10, 0.1, "one undo to remove them all")


def test_add_folder_adds_its_images_in_name_order_and_skips_the_rest(desktop, make_app, tmp_path):
    expected = make_mixed_folder(tmp_path / "holiday")
    app = make_app()
    app.start()
    app.focus()
    open_main_menu_item(app, "Add Folder…")
    dialog = chooser(app, "Add Folder")
    choose_folder(app, dialog, tmp_path / "holiday", "Add")
    check_folder_added(app, expected)


def test_a_folder_dropped_from_a_file_manager_adds_its_images(desktop, make_app, tmp_path):
    expected = make_mixed_folder(tmp_path / "dropped")
    app = make_app()
    app.start()
    app.resize(900, 700)
    x, y, width, height = app.gallery().extents()
    uri = harness.file_url(str(tmp_path / "dropped"))
    with DragSource(desktop, [target("text/uri-list", uri_list(uri))], workdir=str(tmp_path / "source")) as source:
        source.drag_into((x + width // 2, y + height // 3))
        source.wait_for("drag-end", timeout=15)
    check_folder_added(app, expected)


@pytest.mark.parametrize("theme", THEMES)
def test_the_empty_state_button_opens_the_chooser(desktop, make_app, tmp_path, theme):
    app = make_app(env_overrides=THEMES[theme])
    app.start()
    button = app.wait_for_object("Add Images…", "push button", timeout=20)
    harness.wait_until(lambda: button.has_state("SHOWING"), 5, 0.1, "the empty state's button")
    keep_shot(app, "empty-state-%s.png" % theme)
    x, y, w, h = button.extents()
    app.click(x + w // 2, y + h // 2)
    dialog = chooser(app, "Add Images")
    accept(app, dialog, "Cancel")
    harness.wait_until(lambda: app.find_by_name("Add Images", "file chooser") is None, 10, 0.2, "the chooser to close")
    assert app.cells() == []


def export_through_menu(app, parent):
    open_main_menu_item(app, "Export Gallery…")
    dialog = chooser(app, "Export “%s”" % app.state()["galleries"][0]["name"])
    choose_folder(app, dialog, parent, "Export")


SIGNATURES = {b"\x89PNG": "png", b"\xff\xd8\xff": "jpg", b"RIFF": "webp", b"GIF8": "gif"}


def kind_of(path):
    with open(path, "rb") as f:
        head = f.read(4)
    return next((ext for sig, ext in SIGNATURES.items() if head.startswith(sig)), None)


def test_export_of_200_images_writes_numbered_files_in_order_and_a_manifest(desktop, make_app, http_server, tmp_path):
    local = tmp_path / "local"
    local.mkdir()
    images = []
    for i in range(200):
        rgb = ((i * 37) % 256, (i * 91) % 256, (i * 53) % 256)
        if i % 50 == 7:  # a file on the disk, a JPEG whose name says .png
            path = local / ("disk%d.png" % i)
            path.write_bytes(harness.encoded_image(90, 60, rgb, "jpeg"))
            images.append(image_entry(i, harness.file_url(str(path))))
        elif i % 50 == 8:
            images.append(image_entry(i, http_server.add_image("web%d" % i, 90, 60, rgb, fmt="webp").url))
        else:
            images.append(image_entry(i, http_server.add_image("p%d" % i, 90, 60, rgb).url))
    # An address whose name no file system takes as it is.
    images[3]["url"] = http_server.add_file("/files/we%3Aird%2A%7Cname%3F.png", harness.png_bytes(90, 60, (1, 2, 3)))
    app = make_app(state_of(images, name="Trip: day 1/2"))
    app.start()
    app.focus()
    target_dir = tmp_path / "out"
    target_dir.mkdir()
    export_through_menu(app, target_dir)
    message = toast_text(app, "exported to", timeout=60)
    assert str(target_dir / "Trip_ day 1_2") in message, message
    assert os.listdir(target_dir) == ["Trip_ day 1_2"], "a temporary folder was left behind"
    out = target_dir / "Trip_ day 1_2"
    names = sorted(os.listdir(out))
    assert len(names) == 401 and "gallery.json" in names
    files = [n for n in names if n != "gallery.json" and not n.endswith(".xmp")]
    # Each image has its XMP sidecar: its name with .xmp for its extension.
    assert sorted(n for n in names if n.endswith(".xmp")) == sorted(f.rsplit(".", 1)[0] + ".xmp" for f in files)
    assert [f.split(" ")[0] for f in files] == ["%03d" % (i + 1) for i in range(200)]
    state = app.state()
    saved = state["galleries"][0]["images"]
    for name, image in zip(files, saved):
        label = image["url"].rsplit("/", 1)[1]
        ext = kind_of(out / name)
        assert name.endswith("." + ext), (name, ext)
        assert ext == ("jpg" if label.startswith("disk") else "webp" if label.startswith("web") else "png"), name
        if label.startswith("p") and not label.startswith("we"):
            assert name == "%s %s.png" % (name[:3], label[:-4])
    assert files[3] == "004 we_ird__name_.png", files[3]
    manifest = json.loads((out / "gallery.json").read_text())
    assert manifest["name"] == "Trip: day 1/2" == state["galleries"][0]["name"]
    assert [m["url"] for m in manifest["images"]] == [i["url"] for i in saved]
    assert [m["aspectRatio"] for m in manifest["images"]] == [i["aspectRatio"] for i in saved]
    assert [m["file"] for m in manifest["images"]] == files
    # The exported bytes are the images' own.
    assert (out / files[7]).read_bytes() == (local / "disk7.png").read_bytes()


def slow_gallery(http_server, count):
    """Images that take 1, 2, 3… seconds each to download."""
    return [image_entry(i, http_server.add_image("slow%d" % i, 80, 60, (i * 40 % 256, 90, 160)).slow_url(1 + i))
            for i in range(count)]


@pytest.mark.parametrize("theme", THEMES)
def test_a_cancelled_export_leaves_nothing_behind(desktop, make_app, tmp_path, theme, request):
    # Each slow image on a server of its own: the export's pace is the images', not the turn they wait for a
    # server's six connections.
    servers = [harness.ImageServer() for _ in range(40)]
    for server in servers:
        request.addfinalizer(server.stop)
    images = [slow_gallery(server, 1)[0] for server in servers]
    images = [dict(image, id="img-%03d" % i, url=image["url"].replace("delay=1", "delay=%d" % (1 + i)))
              for i, image in enumerate(images)]
    app = make_app(state_of(images), env_overrides=THEMES[theme])
    app.start()
    app.focus()
    target_dir = tmp_path / "out"
    target_dir.mkdir()
    export_through_menu(app, target_dir)
    banner = app.wait_for_object("Exporting “Gallery”…", "label", timeout=20)
    harness.wait_until(lambda: banner.has_state("SHOWING"), 5, 0.1, "the progress banner to show")
    harness.wait_until(lambda: any(n.startswith(".") for n in os.listdir(target_dir)), 10, 0.1,
                       "the export writing into a hidden folder")
    harness.wait_until(lambda: app.find_by_name(" of 40", "label", contains=True).name not in ("0 of 40", "1 of 40"),
                       20, 0.2, "a few images exported")
    hidden = [n for n in os.listdir(target_dir) if n.startswith(".")][0]
    assert any(f.endswith(".png") for f in os.listdir(target_dir / hidden))
    keep_shot(app, "export-banner-%s.png" % theme)
    # The window answers while the export runs: the sidebar comes and goes with F9.
    app.key("F9")
    app.wait_for_object("Galleries", "list box", timeout=5)
    app.key("F9")
    app.wait_for_object("Cancel", "push button", timeout=5).do_action(0)
    toast_text(app, "cancelled", timeout=20)
    harness.wait_until(lambda: os.listdir(target_dir) == [], 10, 0.1, "the hidden folder removed")
    harness.wait_until(lambda: not banner.has_state("SHOWING"), 5, 0.1, "the progress banner to go")


@pytest.fixture
def small_mount(tmp_path):
    """A 1 MB tmpfs (the tests run as root); read-only when asked."""
    mounts = []

    def make(name, read_only=False):
        path = tmp_path / name
        path.mkdir()
        subprocess.run(["mount", "-t", "tmpfs", "-o", "size=1m" + (",ro" if read_only else ""), "tmpfs", str(path)],
                       check=True)
        mounts.append(path)
        return path

    yield make
    for path in mounts:
        subprocess.run(["umount", str(path)], check=False)


@pytest.mark.parametrize("read_only", [False, True], ids=["full", "read-only"])
def test_an_export_to_a_full_or_read_only_disk_says_why_and_leaves_nothing(desktop, make_app, small_mount, tmp_path,
                                                                           read_only):
    local = tmp_path / "local"
    local.mkdir()
    images = []
    for i in range(6):  # 6 × 300 KB: more than the 1 MB the disk holds
        path = local / ("noise%d.png" % i)
        path.write_bytes(noise_png(320, 320, i))
        images.append(image_entry(i, harness.file_url(str(path)), 1.0))
    app = make_app(state_of(images))
    app.start()
    app.focus()
    disk = small_mount("disk", read_only=read_only)
    export_through_menu(app, disk)
    message = toast_text(app, "Couldn’t export", timeout=30)
    reason = "Read-only file system" if read_only else "No space left on device"
    assert reason in message, message
    assert os.listdir(disk) == []


def test_a_sidebar_rows_menu_exports_that_gallery_beside_a_folder_of_its_name(desktop, make_app, http_server, tmp_path):
    cats = [image_entry(i, http_server.add_image("cat%d" % i, 90, 60, RED).url) for i in range(3)]
    dogs = [image_entry(10 + i, http_server.add_image("dog%d" % i, 60, 90, BLUE).url, 2 / 3) for i in range(2)]
    app = make_app({"version": 1, "sidebarVisible": True, "galleries": [
        {"id": "c", "name": "Cats", "images": cats}, {"id": "d", "name": "Dogs", "images": dogs}]})
    app.start()
    app.focus()
    target_dir = tmp_path / "out"
    (target_dir / "dogs").mkdir(parents=True)  # taken, whatever its case: FAT and NTFS would mix them up
    (target_dir / "dogs" / "mine.txt").write_text("not to be touched")
    dogs_row = harness.wait_until(
        lambda: next(iter(app.find_all(lambda a: a.role_name == "list item" and (a.name or "").startswith("Dogs,"))),
                     None), 10, 0.1, "the Dogs row")
    x, y, w, h = dogs_row.extents()
    app.click(x + w // 2 - 40, y + h // 2, button=3)
    item = harness.wait_until(lambda: next(iter(app.find_all(lambda a: a.name == "Export…" and a.has_state("SHOWING"))),
                                           None), 5, 0.1, "the row menu's Export…")
    ix, iy, iw, ih = item.extents()
    app.click(ix + iw // 2, iy + ih // 2)
    dialog = chooser(app, "Export “Dogs”")
    choose_folder(app, dialog, target_dir, "Export")
    toast_text(app, "exported to", timeout=30)
    assert sorted(os.listdir(target_dir)) == ["Dogs 2", "dogs"]
    assert os.listdir(target_dir / "dogs") == ["mine.txt"]
    assert sorted(os.listdir(target_dir / "Dogs 2")) == ["001 dog0.png", "001 dog0.xmp", "002 dog1.png",
                                                          "002 dog1.xmp", "gallery.json"]
    manifest = json.loads((target_dir / "Dogs 2" / "gallery.json").read_text())
    assert manifest["name"] == "Dogs" and [m["url"] for m in manifest["images"]] == [d["url"] for d in dogs]


def with_jpeg_comment(jpeg, text):
    """The JPEG with a comment segment after its start marker: bytes a decoder drops and an encoder does not
    write back, so only the bytes as they came keep it."""
    segment = b"\xff\xfe" + (len(text) + 2).to_bytes(2, "big") + text
    return jpeg[:2] + segment + jpeg[2:]


def with_png_text(png, key, text):
    """The PNG with a tEXt chunk before its end (IEND is the last 12 bytes)."""
    return png[:-12] + harness._png_chunk(b"tEXt", key + b"\x00" + text) + png[-12:]


def xmp_values(path):
    """What exiv2 reads from an XMP sidecar, key by key (`exiv2 -PXkv`: `Xmp.dc.title  lang="x-default" Tom`)."""
    out = subprocess.run(["exiv2", "-PXkv", str(path)], check=True, capture_output=True, text=True).stdout
    values = {}
    for line in out.splitlines():
        key, _, value = line.partition(" ")
        values.setdefault(key, []).append(value.strip())
    return values


def test_an_export_keeps_the_bytes_as_sent_and_what_the_library_knows_in_gallery_json_and_xmp_sidecars(
        desktop, make_app, http_server, tmp_path):
    jpeg = with_jpeg_comment(harness.encoded_image(120, 80, RED, "jpeg"), b"kept by the export, dropped by a re-encode")
    png = with_png_text(harness.png_bytes(90, 60, BLUE), b"Comment", b"only in the original")
    cat_url = http_server.add_file("/files/cat.jpg", jpeg, content_type="image/jpeg")
    sunset_url = http_server.add_file("/files/sunset.png", png, content_type="image/png")
    origin = {"arrival": "drop", "added": "2026-11-26T22:40:00Z", "link": "https://example.org/cats/tom",
              "page": "https://example.org/cats", "alt": "A grey cat", "title": "Tom on the sofa",
              "description": "Tom, a cat"}
    note = "Kept for the <light> & the \"colours\" — ça"
    copies = [{"url": "https://example.net/cat-small.webp",
               "origin": {"arrival": "paste", "page": "https://example.net/"}}]
    cat = dict(image_entry(0, cat_url), origin=origin, note=note, mergedCopies=copies)
    app = make_app(state_of([cat, image_entry(1, sunset_url)], name="Cats"))
    app.start()
    app.focus()
    target_dir = tmp_path / "out"
    target_dir.mkdir()
    export_through_menu(app, target_dir)
    toast_text(app, "exported to", timeout=60)
    out = target_dir / "Cats"
    assert sorted(os.listdir(out)) == ["001 cat.jpg", "001 cat.xmp", "002 sunset.png", "002 sunset.xmp",
                                       "gallery.json"]
    assert http_server.hits("/files/cat.jpg") >= 1 and http_server.hits("/files/sunset.png") >= 1
    # Byte for byte what the server sent, comment segment and text chunk included.
    assert (out / "001 cat.jpg").read_bytes() == jpeg
    assert (out / "002 sunset.png").read_bytes() == png

    manifest = json.loads((out / "gallery.json").read_text())
    first, second = manifest["images"]
    assert first["origin"] == origin and first["note"] == note
    assert first["file"] == "001 cat.jpg" and first["url"] == cat_url
    # What it looks like, as the library saved it (`Likeness.savedText`), and the copies merged into it travel with it.
    saved = app.state()["galleries"][0]["images"][0]
    assert first["fingerprint"] == saved["likeness"][:16] and first["mergedCopies"] == copies
    palette = int(saved["likeness"][17:], 16)
    shares = [(palette >> (60 - 16 * n)) & 15 for n in range(4)]
    assert [swatch["share"] for swatch in first["palette"]] == [round(s / 15, 3) for s in shares if s], first
    # A red picture: its first colour is red.
    red, green, blue = (int(first["palette"][0]["srgb"][i:i + 2], 16) for i in (1, 3, 5))
    assert red > 150 and green < 100 and blue < 100, first["palette"]
    # An image the library knows nothing more of has the first version's fields only, and its look once measured.
    assert {"file", "url", "aspectRatio"} <= set(second) <= {"file", "url", "aspectRatio", "fingerprint", "palette"}

    cat_xmp = xmp_values(out / "001 cat.xmp")
    assert cat_xmp["Xmp.dc.source"] == [cat_url]
    assert cat_xmp["Xmp.dc.title"] == ['lang="x-default" Tom on the sofa']
    assert cat_xmp["Xmp.dc.description"] == ['lang="x-default" ' + note]
    assert cat_xmp["Xmp.dc.relation"] == ["https://example.org/cats, https://example.org/cats/tom"]
    assert cat_xmp["Xmp.dc.format"] == ["image/jpeg"]
    assert cat_xmp["Xmp.xmp.CreateDate"] == ["2026-11-26T22:40:00Z"]
    sunset_xmp = xmp_values(out / "002 sunset.xmp")
    assert sunset_xmp["Xmp.dc.source"] == [sunset_url] and "Xmp.dc.title" not in sunset_xmp
