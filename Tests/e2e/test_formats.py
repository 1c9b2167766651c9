"""Every image format the web serves shows its picture: AVIF and HEIF (Debian's libavif-gdk-pixbuf and
heif-gdk-pixbuf), animated GIF and WebP (their first frame, without decoding the frames after it), SVG (drawn
at the cell's size, crisp), and a format this system cannot decode names the package that would show it.

The files are made here with Debian's tools (ImageMagick's convert, avifenc from libavif-bin, heif-enc from
libheif-examples, img2webp from webp), from solid-colour PNGs."""
import glob
import os
import subprocess

import pytest

import harness

RED, GREEN, BLUE, YELLOW = (220, 30, 30), (30, 170, 60), (40, 70, 220), (240, 200, 20)
LOADERS = "/usr/lib/x86_64-linux-gnu/gdk-pixbuf-2.0/2.10.0/loaders"
QUERY_LOADERS = "/usr/lib/x86_64-linux-gnu/gdk-pixbuf-2.0/gdk-pixbuf-query-loaders"


def run(*command):
    done = subprocess.run([str(c) for c in command], capture_output=True, text=True)
    assert done.returncode == 0, "%s failed: %s%s" % (command[0], done.stdout, done.stderr)


def png(folder, name, rgb, width=320, height=240, noise=False):
    """A solid-colour PNG (or, with noise, one that compresses badly: a large animation frame)."""
    path = os.path.join(folder, name + ".png")
    colour = "xc:rgb(%d,%d,%d)" % rgb
    run("convert", "-size", "%dx%d" % (width, height), colour, *(["+noise", "Random"] if noise else []), path)
    return path


def cell_colour(app, cell):
    colour, share = harness.dominant_colour(app.screenshot(), cell.box)
    return colour, share


def test_avif_heif_animations_and_svg_show_their_pictures(make_app, http_server, tmp_path):
    folder = str(tmp_path)
    red, green, blue = png(folder, "red", RED), png(folder, "green", GREEN), png(folder, "blue", BLUE)
    run("avifenc", "--speed", "10", red, os.path.join(folder, "photo.avif"))
    # From a JPEG: heif-enc 1.15 swaps green and blue when it reads an RGB PNG (heif-convert reads it back so).
    run("convert", green, os.path.join(folder, "green.jpg"))
    run("heif-enc", "-q", "90", "-o", os.path.join(folder, "photo.heic"), os.path.join(folder, "green.jpg"))
    # Animations whose first frame is yellow and whose later frames are not.
    yellow = png(folder, "yellow", YELLOW)
    run("convert", "-delay", "50", yellow, red, blue, os.path.join(folder, "anim.gif"))
    run("img2webp", "-loop", "0", "-lossless", "-d", "500", yellow, red, blue, "-o", os.path.join(folder, "anim.webp"))
    # 16×12, cut along its diagonal: drawn as pixels and enlarged, the edge would be a blur or a staircase.
    svg = ('<svg xmlns="http://www.w3.org/2000/svg" width="16" height="12">'
           '<rect width="16" height="12" fill="rgb(%d,%d,%d)"/><polygon points="0,0 16,0 0,12" fill="rgb(%d,%d,%d)"/>'
           '</svg>' % (BLUE + RED))
    files = [("photo.avif", "image/avif"), ("photo.heic", "image/heic"), ("anim.gif", "image/gif"),
             ("anim.webp", "image/webp")]
    urls = [http_server.add_file("/img/" + name, open(os.path.join(folder, name), "rb").read(), kind)
            for name, kind in files]
    urls.append(http_server.add_file("/img/vector.svg", svg.encode(), "image/svg+xml"))
    state = {"version": 1, "sidebarVisible": False, "galleries": [{"id": "g", "name": "Gallery", "images": [
        {"id": "i%d" % i, "url": url, "aspectRatio": 4 / 3} for i, url in enumerate(urls)]}]}
    app = make_app(state)
    app.start()
    app.resize(1200, 800)
    cells = app.wait_cells(lambda cs: len(cs) == 5 and all(c.settled and not c.error for c in cs), 45,
                           what="five pictures, none failed")
    by_name = {c.label: c for c in cells}
    expected = {"photo.avif": RED, "photo.heic": GREEN, "anim.gif": YELLOW, "anim.webp": YELLOW}
    for name, rgb in expected.items():
        colour, share = cell_colour(app, by_name[name])
        assert harness.colour_close(colour, rgb, tol=40) and share > 0.8, (name, colour, share)

    # The SVG at the cell's size: on every row the red part ends where the diagonal crosses it, to a pixel or
    # two, and from one row to the next the edge moves by the slope alone (no steps of enlarged pixels).
    vector = by_name["vector.svg"]
    assert vector.width >= 200, vector
    shot = app.screenshot().convert("RGB")
    edges = []
    for y in range(vector.y + vector.height // 10, vector.y + vector.height * 9 // 10):
        row = [shot.getpixel((x, y)) for x in range(vector.x, vector.x + vector.width)]
        red_end = next((i for i, p in enumerate(row) if not harness.colour_close(p, RED, tol=60)), len(row))
        ideal = vector.width * (1 - (y - vector.y + 0.5) / vector.height)
        assert abs(red_end - ideal) <= 2.5, (y, red_end, ideal, vector)
        edges.append(red_end)
    steps = [abs(b - a) for a, b in zip(edges, edges[1:])]
    assert max(steps) <= 3, steps


@pytest.mark.parametrize("kind", ["gif", "webp"])
def test_an_animation_shows_its_first_frame_without_reading_the_frames_after_it(make_app, http_server, tmp_path,
                                                                               kind):
    """The animation is broken in its third frame (a GIF cut short there, a WebP whose third frame is garbage):
    decoding every frame fails on it; a cell that takes the first frame and reads no further shows that frame."""
    folder = str(tmp_path)
    frames = [png(folder, "first", YELLOW, 600, 450), png(folder, "second", BLUE, 600, 450, noise=True),
              png(folder, "third", RED, 600, 450, noise=True)]
    animation = os.path.join(folder, "broken." + kind)
    if kind == "gif":
        run("convert", "-delay", "50", *frames, animation)
    else:
        run("img2webp", "-loop", "0", "-lossless", "-d", "500", *frames, "-o", animation)
    data = bytearray(open(animation, "rb").read())
    assert len(data) > 200_000, len(data)  # frames that compress badly: the third starts far into the file
    if kind == "gif":
        data = data[:len(data) - 40_000]
    else:
        third = data.rindex(b"ANMF")
        data[third + 60:third + 4060] = bytes(4000)
    url = http_server.add_file("/img/broken." + kind, bytes(data), "image/" + kind)
    app = make_app({"version": 1, "sidebarVisible": False, "galleries": [{"id": "g", "name": "Gallery", "images": [
        {"id": "i", "url": url, "aspectRatio": 4 / 3}]}]})
    app.start()
    cells = app.wait_cells(lambda cs: len(cs) == 1 and (cs[0].settled or cs[0].error), 30, what="the animation")
    assert cells[0].error is None, cells[0]
    colour, share = cell_colour(app, cells[0])
    assert harness.colour_close(colour, YELLOW) and share > 0.8, (colour, share)


def test_a_format_without_its_loader_names_the_package_that_shows_it(make_app, http_server, tmp_path):
    """gdk-pixbuf here without a loader for AVIF (a loaders cache that leaves out libavif's, and libheif's, which
    reads AVIF too): the cell says which Debian package would show the image, not that it is "not an image"."""
    folder = str(tmp_path)
    run("avifenc", "--speed", "10", png(folder, "red", RED), os.path.join(folder, "photo.avif"))
    url = http_server.add_file("/img/photo.avif", open(os.path.join(folder, "photo.avif"), "rb").read(), "image/avif")
    loaders = [path for path in glob.glob(LOADERS + "/*.so") if not any(name in os.path.basename(path) for name in ("avif", "heif"))]
    cache = subprocess.run([QUERY_LOADERS] + loaders, capture_output=True, text=True, check=True).stdout
    cache_path = tmp_path / "loaders.cache"
    cache_path.write_text(cache)
    app = make_app({"version": 1, "galleries": [{"id": "g", "name": "Gallery", "images": [
        {"id": "i", "url": url, "aspectRatio": 4 / 3}]}]}, env_overrides={"GDK_PIXBUF_MODULE_FILE": str(cache_path)})
    app.start()
    cells = app.wait_cells(lambda cs: len(cs) == 1 and cs[0].error, 30, what="the AVIF image's error")
    assert cells[0].error == "AVIF images need libavif-gdk-pixbuf", cells[0]
