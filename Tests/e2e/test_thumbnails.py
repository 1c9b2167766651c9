"""Issue 10: crisp cells and thumbnails on disk.

Cells are decoded at exactly their size in device pixels and painted pixel for pixel: their pictures are at least as
sharp as a bilinear downscale of the same photo (the mean step between neighbouring pixels, as the issue measures
it), also after the window grew. Pictures come from freedesktop.org thumbnails when there are current ones
($XDG_CACHE_HOME/thumbnails/<size>/<md5 of the URI>.png with Thumb::URI and Thumb::MTime): the app writes them, reads
them at the next launch (a thumbnail another app wrote too), and ignores them once the file changed."""
import glob
import hashlib
import os
import random
import re
import urllib.parse

from PIL import Image, ImageChops, ImageDraw, ImageFilter, ImageStat, PngImagePlugin

import harness
from harness import wait_until

SIZES = {128: "normal", 256: "large", 512: "x-large", 1024: "xx-large"}


def photo(path, width, height, seed):
    """A JPEG with detail at every scale (shapes, edges, fine noise), like a photo; returns it decoded."""
    rnd = random.Random(seed)
    image = Image.new("RGB", (width, height), (rnd.randrange(256), rnd.randrange(256), rnd.randrange(256)))
    draw = ImageDraw.Draw(image)
    for i in range(500):
        x, y, r = rnd.randrange(width), rnd.randrange(height), rnd.randrange(4, width // 8)
        colour = tuple(rnd.randrange(256) for _ in range(3))
        (draw.ellipse if i % 2 else draw.rectangle)((x, y, x + r, y + r * 0.6), fill=colour)
    image = image.filter(ImageFilter.GaussianBlur(0.6))
    image = Image.blend(image, Image.effect_noise((width, height), 40).convert("RGB"), 0.1)
    image.save(path, quality=92)
    return Image.open(path).convert("RGB")


def neighbour_step(image):
    """The mean colour step between horizontal and vertical neighbours (0-255), the issue's sharpness measure."""
    image = image.convert("RGB")
    w, h = image.size
    right = ImageChops.difference(image.crop((0, 0, w - 1, h - 1)), image.crop((1, 0, w, h - 1)))
    down = ImageChops.difference(image.crop((0, 0, w - 1, h - 1)), image.crop((0, 1, w - 1, h)))
    return (sum(ImageStat.Stat(right).mean) + sum(ImageStat.Stat(down).mean)) / 6


def inner(box, inset=8):
    x, y, w, h = box
    return (x + inset, y + inset, x + w - inset, y + h - inset)


def sharpness(app, sources, scale=1):
    """[(cell, step on screen, step of a bilinear downscale of its photo to the cell's size)]. At a device scale,
    AT-SPI gives cells in points and the screenshot is in pixels."""
    shot = app.screenshot()
    vx, vy, vw, vh = app.gallery().parent().extents()
    measured = []
    for cell in app.cells():
        if cell.y < vy or cell.y + cell.height > vy + vh:
            continue  # partly scrolled out of view, or under the trash zone
        box = tuple(v * scale for v in cell.box)
        reference = sources[cell.url].resize(box[2:], Image.BILINEAR)
        measured.append((cell, neighbour_step(shot.crop(inner(box, 8 * scale))),
                         neighbour_step(reference.crop(inner((0, 0) + box[2:], 8 * scale)))))
    return measured


def photos_state(tmp_path, count=4, make=None, name="photo"):
    """A gallery of `count` pictures `make` draws (`photo` unless told) in files named after `name`, and the pictures
    by address."""
    sizes = [(1600, 1200), (2000, 1333), (1067, 1600), (1920, 1080)][:count]
    sources, images = {}, []
    for index, (width, height) in enumerate(sizes):
        path = str(tmp_path / ("%s%d.jpg" % (name, index)))
        url = harness.file_url(path)
        sources[url] = (make or photo)(path, width, height, index)
        images.append({"id": "%s%d" % (name[0], index), "url": url, "aspectRatio": width / height})
    state = {"version": 1, "sidebarVisible": False, "galleries": [{"id": "g", "name": "Photos", "images": images}]}
    return state, sources


def wait_sharp(app, sources, what, scale=1):
    last = {}

    def sharp():
        last["m"] = sharpness(app, sources, scale)
        return last["m"] and all(step >= 0.95 * reference for _, step, reference in last["m"])

    wait_until(sharp, 15, 0.3, what, lambda: "\n".join("%s: %.1f on screen, %.1f bilinear" % (c, s, r)
                                                       for c, s, r in last["m"]))


def test_cells_are_as_sharp_as_a_bilinear_downscale_also_after_the_window_grew(make_app, desktop, tmp_path):
    state, sources = photos_state(tmp_path)
    app = make_app(state)
    app.start()
    app.resize(900, 700)
    app.wait_settled(4)
    wait_sharp(app, sources, "every cell as sharp as a bilinear downscale")
    before = {c.url: c.height for c in app.cells()}
    # A wider window: every cell grows by about a third; the pictures decoded for the old size must not be blown up.
    app.resize(1240, 960)
    app.wait_cells(lambda cells: len(cells) == 4 and all(c.height > before[c.url] * 1.15 for c in cells), 10,
                   what="cells grown with the window")
    wait_sharp(app, sources, "every grown cell as sharp as a bilinear downscale")


def small_squares(path, width, height, seed):
    """A JPEG of squares 6 px wide in every colour: detail about a pixel wide in its thumbnail, which a second
    resampling to nearly the thumbnail's size blurs. Returns it decoded."""
    rnd = random.Random(seed)
    image = Image.new("RGB", (width, height), (128, 128, 128))
    draw = ImageDraw.Draw(image)
    for _ in range(width * height // 36):
        x, y = rnd.randrange(width), rnd.randrange(height)
        draw.rectangle((x, y, x + 6, y + 6), fill=tuple(rnd.randrange(256) for _ in range(3)))
    image.save(path, quality=92)
    return Image.open(path).convert("RGB")


def test_cells_a_little_smaller_than_their_thumbnail_keep_its_detail(make_app, desktop, tmp_path):
    # At 900x700 two of the four cells are between three quarters of their thumbnail's size and all of it.
    state, sources = photos_state(tmp_path, make=small_squares, name="squares")
    app = make_app(state)
    for launch in ("decoded from the photos", "read from the thumbnails they left"):
        app.start()
        app.resize(900, 700)
        app.wait_settled(4)
        wait_sharp(app, sources, "every cell as sharp as a bilinear downscale, " + launch)
        app.stop()


def threads(pid):
    """[(thread id, name, nice value, wait channel, time slice in ns)] of a running process's threads, from /proc; the
    slice is None where the kernel does not tell it (before Linux 6.6)."""
    found = []
    for task in os.listdir("/proc/%d/task" % pid):
        def read(entry):
            with open("/proc/%d/task/%s/%s" % (pid, task, entry)) as f:
                return f.read()
        fields = read("stat").rsplit(")", 1)[1].split()  # after the name, which may hold spaces
        slices = re.findall(r"^se\.slice\s*:\s*(\d+)", read("sched"), re.M)
        # the nice value is stat's field 19; the split starts at field 3
        found.append((int(task), read("comm").strip(), int(fields[19 - 3]), read("wchan"),
                      int(slices[0]) if slices else None))
    return found


def test_background_work_runs_on_the_schedulers_few_named_threads_at_the_default_priority(make_app, desktop,
                                                                                         tmp_path):
    state, _ = photos_state(tmp_path)
    app = make_app(state)
    app.start()
    cells = app.wait_settled(4)
    # A move, so the state file is saved too.
    desktop.click(cells[0].center[0], cells[0].center[1])
    desktop.key("alt+Right")
    wait_until(lambda: [image["id"] for image in app.state()["galleries"][0]["images"]][:2] == ["p1", "p0"], 5,
               what="the move saved")
    found = threads(app.proc.pid)

    def lane(prefix):
        return [name for _, name, _, _, _ in found if re.fullmatch(prefix + r"-\d+", name)]

    # Named as top and perf show them: decoding on every core but one, disk work on the io lane's one thread
    # (JobScheduler), every download on one thread.
    assert 1 <= len(lane("decode")) <= max(os.cpu_count() - 1, 1), found
    assert len(lane("io")) == 1, found
    assert [name for _, name, _, _, _ in found].count("transfers") <= 1, found
    # The app leaves the system's scheduling alone: every thread keeps the nice value and the time slice it started
    # with.
    assert {nice for _, _, nice, _, _ in found} == {0}, found
    assert len({time_slice for *_, time_slice in found}) == 1, found


def test_cells_are_as_sharp_on_a_hidpi_screen(make_app, desktop, tmp_path):
    state, sources = photos_state(tmp_path)
    app = make_app(state, env_overrides={"GDK_SCALE": "2"})
    app.start()
    app.resize(1270, 1000)  # X pixels: 635x500 points
    app.wait_settled(4)
    wait_sharp(app, sources, "every cell on screen as sharp as a bilinear downscale, at scale 2", scale=2)


def thumbnails(app):
    """{Thumb::URI: (path, Thumb::MTime, (width, height), size folder)} of every thumbnail the app's cache has."""
    found = {}
    for path in glob.glob(os.path.join(app.cache_home, "thumbnails", "*", "*.png")):
        with Image.open(path) as image:
            found[image.text["Thumb::URI"]] = (path, image.text["Thumb::MTime"], image.size,
                                               os.path.basename(os.path.dirname(path)))
    return found


def test_thumbnails_are_written_read_at_the_next_launch_and_ignored_once_the_file_changed(make_app, desktop,
                                                                                          tmp_path):
    state, sources = photos_state(tmp_path, count=3)
    app = make_app(state)
    app.start()
    app.resize(1000, 800)
    app.wait_settled(3)
    urls = [image["url"] for image in state["galleries"][0]["images"]]
    written = wait_until(lambda: (lambda t: t if set(t) == set(urls) else None)(thumbnails(app)), 10, 0.2,
                         "a thumbnail for each photo", lambda: repr(thumbnails(app)))
    for cell in app.cells():
        path, mtime, size, folder = written[cell.url]
        assert os.path.basename(path) == hashlib.md5(cell.url.encode()).hexdigest() + ".png"
        assert mtime == str(int(os.stat(urllib.parse.unquote(cell.url[len("file://"):])).st_mtime))
        # The smallest standard size that covers the cell, so the cell is never an enlarged thumbnail.
        pixels = next(p for p in sorted(SIZES) if p >= max(cell.width, cell.height))
        assert folder == SIZES[pixels] and max(size) == pixels, (cell, written[cell.url])
        assert os.stat(path).st_mode & 0o777 == 0o600
    app.stop()

    # Another application's thumbnail of the first photo (same URI and time, other pixels): the next launch shows it.
    first = urls[0]
    path, mtime, size, _ = written[first]
    info = PngImagePlugin.PngInfo()
    info.add_text("Thumb::URI", first)
    info.add_text("Thumb::MTime", mtime)
    Image.new("RGB", size, (230, 0, 200)).save(path, pnginfo=info)
    app.start()
    app.wait_settled(3)
    cell = next(c for c in app.cells() if c.url == first)
    colour, share = harness.dominant_colour(app.screenshot(), cell.box)
    assert harness.colour_close(colour, (230, 0, 200)) and share > 0.9, (cell, colour, share)
    app.stop()

    # The photo changed since: its thumbnail is stale, the photo itself shows, and a current thumbnail replaces it.
    photo_path = urllib.parse.unquote(first[len("file://"):])
    os.utime(photo_path, (os.stat(photo_path).st_atime, os.stat(photo_path).st_mtime + 60))
    app.start()
    app.wait_settled(3)
    cell = next(c for c in app.cells() if c.url == first)
    colour, share = harness.dominant_colour(app.screenshot(), cell.box)
    assert not harness.colour_close(colour, (230, 0, 200)), (cell, colour, share)
    wait_until(lambda: thumbnails(app)[first][1] == str(int(os.stat(photo_path).st_mtime)), 10, 0.2,
               "the stale thumbnail replaced", lambda: repr(thumbnails(app)[first]))
