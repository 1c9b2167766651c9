"""Issue 11, end to end: Ctrl+C, Ctrl+X and Copy Image Address put on the clipboard what other applications read
(the image as image/png, the files as text/uri-list and x-special/gnome-copied-files, the addresses as text), read
back from a separate GTK process on the same display; Ctrl+Z undoes a cut; pasting the app's own copy adds the
images again by address."""
import io
import os
import urllib.parse

from PIL import Image

import harness
from actions_helpers import choose, read_clipboard, toast, wait_clipboard
from drag_helpers import by_name, click, gallery_state, name_of, saved_names, wait_saved
from harness import wait_until

SPECS = harness.DISTINCT_IMAGES[:8]  # orange, the seventh, is a JPEG
NAMES = [spec[0] for spec in SPECS]
COLOURS = {spec[0]: spec[3] for spec in SPECS}


def start(make_app, http_server):
    served = [http_server.add_image(*spec) for spec in SPECS]
    app = make_app(gallery_state(served))
    app.start()
    return app, by_name(app.wait_settled(len(SPECS)))


def select(app, desktop, cells, names):
    click(desktop, cells[names[0]].center)
    for name in names[1:]:
        click(desktop, cells[name].center, modifiers="ctrl")
    wait_until(lambda: sorted(name_of(c.url) for c in app.cells() if c.selected) == sorted(names), 5, 0.1,
               "%s selected" % names)


def test_copy_image_address_gives_the_address_as_text(make_app, http_server, desktop):
    app, cells = start(make_app, http_server)
    choose(app, desktop, cells["blue"], "Copy Image Address")
    assert wait_clipboard(desktop, "UTF8_STRING").decode() == cells["blue"].url
    assert read_clipboard(desktop, "text/plain").decode() == cells["blue"].url
    assert b"image/png" not in read_clipboard(desktop, "TARGETS")


def test_ctrl_c_gives_the_image_as_png_its_file_and_its_address(make_app, http_server, desktop):
    app, cells = start(make_app, http_server)
    # A JPEG: the clipboard's PNG is made from it.
    select(app, desktop, cells, ["orange"])
    app.key("ctrl+c")
    png = wait_clipboard(desktop, "image/png")
    with Image.open(io.BytesIO(png)) as image:
        assert image.format == "PNG" and image.size == (320, 180)
        assert harness.colour_close(image.convert("RGB").getpixel((160, 90)), COLOURS["orange"], 12)
    targets = read_clipboard(desktop, "TARGETS").decode().split()
    for target in ("image/png", "text/uri-list", "x-special/gnome-copied-files", "UTF8_STRING", "text/plain"):
        assert target in targets, targets
    uris = read_clipboard(desktop, "text/uri-list").decode().split()
    assert len(uris) == 1 and uris[0].startswith("file:///")
    path = urllib.parse.unquote(uris[0][len("file://"):])
    assert os.path.basename(path) == "orange.jpg"
    with Image.open(path) as image:
        assert image.format == "JPEG"
    assert read_clipboard(desktop, "x-special/gnome-copied-files").decode().split("\n") == ["copy", uris[0]]
    assert read_clipboard(desktop, "UTF8_STRING").decode() == cells["orange"].url

    # Several: every file and address, in the gallery's order; the image is the first one's.
    select(app, desktop, cells, ["cyan", "green"])
    app.key("ctrl+c")
    wait_clipboard(desktop, "UTF8_STRING", lambda data: data.decode() == "\n".join([cells["green"].url,
                                                                                  cells["cyan"].url]))
    files = [os.path.basename(urllib.parse.unquote(u)) for u in read_clipboard(desktop, "text/uri-list").decode().split()]
    assert files == ["green.png", "cyan.png"]
    with Image.open(io.BytesIO(read_clipboard(desktop, "image/png"))) as image:
        assert harness.colour_close(image.convert("RGB").getpixel((5, 5)), COLOURS["green"], 4)


def test_ctrl_x_cuts_and_ctrl_z_puts_the_images_back_where_they_were(make_app, http_server, desktop):
    app, cells = start(make_app, http_server)
    select(app, desktop, cells, ["green", "magenta"])
    app.key("ctrl+x")
    left = [n for n in NAMES if n not in ("green", "magenta")]
    wait_saved(app, left)
    app.wait_cells(lambda cs: [name_of(c.url) for c in cs] == left, 10, what="the cut cells gone")
    toast(app, "2 images cut")
    wait_clipboard(desktop, "UTF8_STRING", lambda data: data.decode() == "\n".join([cells["green"].url,
                                                                                  cells["magenta"].url]))
    assert read_clipboard(desktop, "image/png"), "the cut image is not on the clipboard"
    app.key("ctrl+z")
    wait_saved(app, NAMES)
    app.wait_cells(lambda cs: [name_of(c.url) for c in cs] == NAMES, 10, what="the cells back in their places")


def test_pasting_what_the_app_copied_adds_the_images_again_by_address(make_app, http_server, desktop):
    app, cells = start(make_app, http_server)
    select(app, desktop, cells, ["red", "orange"])
    app.key("ctrl+c")
    wait_clipboard(desktop, "text/uri-list")
    app.key("ctrl+v")
    wait_saved(app, NAMES + ["red", "orange"], timeout=15)
    urls = app.image_urls()
    assert urls[-2:] == [cells["red"].url, cells["orange"].url], "pasted by file, not by address: %r" % urls[-2:]
