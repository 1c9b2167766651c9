"""Issue 45, end to end: an image that looks like one already in the library says so at the drop ("Looks like
“cat.png” in Gallery", with Show, Keep Both and Keep Better), and Keep Better leaves one image holding both
addresses; a library from before likenesses were kept gets them at launch, in the background, while the window
answers. The pictures are photo-like, made with PIL; the copy is resized and recompressed as the web does.
Screenshots of the toast (light, dark, Russian) go to $E2E_SAVE_SCREENSHOTS as looks-like-*.png."""
import hashlib
import io
import os
import random

from PIL import Image, ImageDraw, ImageFilter

import harness
from actions_helpers import toast
from drag_helpers import gallery_state
from drag_source import target, uri_list
from harness import wait_until
from harness.dialogs import press
from test_drops import before, drop, sources  # noqa: F401 (sources is a fixture)
from test_originals import kept_file

APP_SIZE = (900, 1000)


def photo(seed, width=640, height=480):
    """A photo-like picture: a sky-to-ground gradient and soft shapes of many colours, drawn small and enlarged."""
    rng = random.Random(seed)
    small = (width // 4, height // 4)
    image = Image.new("RGB", small)
    top, bottom = [tuple(rng.randrange(256) for _ in range(3)) for _ in range(2)]
    draw = ImageDraw.Draw(image)
    for y in range(small[1]):
        t = y / small[1]
        draw.line([(0, y), (small[0], y)], fill=tuple(int(a + (b - a) * t) for a, b in zip(top, bottom)))
    for _ in range(14):
        x, y = rng.randrange(small[0]), rng.randrange(small[1])
        r = rng.randrange(small[0] // 12, small[0] // 3)
        draw.ellipse([x - r, y - r, x + r, y + r], fill=tuple(rng.randrange(256) for _ in range(3)))
    return image.filter(ImageFilter.GaussianBlur(1)).resize((width, height), Image.BICUBIC)


def encoded(image, fmt, **options):
    out = io.BytesIO()
    image.save(out, fmt, **options)
    return out.getvalue()


class Served:
    """Bytes served at a path, with what `kept_state` and the tests read of them."""
    def __init__(self, server, path, data, width, height, fmt):
        self.url = server.add_file(path, data, "image/" + fmt)
        self.data, self.width, self.height, self.aspect, self.format = data, width, height, width / height, fmt


def app_with(make_app, images=(), env=None):
    app = make_app(gallery_state(images), env_overrides=env)
    app.start()
    app.resize(*APP_SIZE)
    app.wait_cells(lambda cs: len(cs) == len(images) and all(c.settled and c.error is None for c in cs), timeout=30,
                   what="the library's images loaded")
    return app


def saved_images(app):
    try:
        return app.state()["galleries"][0]["images"]
    except (OSError, ValueError):
        return None


def drop_and_wait(app, desktop, tmp_path, sources, urls, count):  # noqa: F811 (sources is a fixture)
    src = sources(desktop, tmp_path, target("text/uri-list", uri_list(*urls)))
    cells = app.cells()
    drop(app, src, before(cells[0]) if cells else (300, 300))
    src.stop()
    return app.wait_cells(lambda cs: len(cs) == count and all(c.settled and c.error is None for c in cs),
                          timeout=20, what="%d images loaded" % count)


def screenshot(app, name):
    folder = os.environ.get("E2E_SAVE_SCREENSHOTS")
    if folder:
        os.makedirs(folder, exist_ok=True)
        app.screenshot().save(os.path.join(folder, name))


def test_a_resized_recompressed_copy_dropped_from_elsewhere_looks_like_the_first_and_keep_better_merges_them(
        make_app, http_server, desktop, tmp_path, sources):  # noqa: F811
    picture = photo(45)
    first = Served(http_server, "/site-a/cat.png", encoded(picture, "PNG"), 640, 480, "png")
    copy = Served(http_server, "/site-b/cat-small.jpg", encoded(picture.resize((320, 240)), "JPEG", quality=40),
                  320, 240, "jpeg")
    unrelated = Served(http_server, "/other.png", encoded(photo(7), "PNG"), 640, 480, "png")
    app = app_with(make_app, [unrelated])

    drop_and_wait(app, desktop, tmp_path, sources, [first.url], 2)
    drop_and_wait(app, desktop, tmp_path, sources, [copy.url], 3)
    message = toast(app, "Looks like")
    assert message == "Looks like “cat.png” in Gallery", message
    for button in ("Show", "Keep Both", "Keep Better"):
        wait_until(lambda: app.find_by_name(button, harness.ROLE.PUSH_BUTTON), 5, 0.1, "a %s button" % button)
    screenshot(app, "looks-like-light.png")
    # The copy was added, as a drop adds it; nothing is merged until the user says so.
    assert sorted(i["url"] for i in saved_images(app)) == sorted([unrelated.url, first.url, copy.url])

    press(app, app.frame(), "Keep Better")
    images = wait_until(lambda: (lambda s: s if s and len(s) == 2 else None)(saved_images(app)), 10, 0.1,
                        "the copies merged in the library")
    kept = next(i for i in images if i["url"] != unrelated.url)
    # The better copy (more pixels, lossless) stays, holding the other's address.
    assert kept["url"] == first.url, kept
    assert [c["url"] for c in kept["mergedCopies"]] == [copy.url], kept
    assert kept["mergedCopies"][0]["origin"]["arrival"] == "drop", kept
    app.wait_cells(lambda cs: len(cs) == 2, timeout=5, what="two cells left")

    # One undo step brings both back.
    app.focus()
    app.key("ctrl+z")
    wait_until(lambda: (lambda s: s and len(s) == 3 and not any("mergedCopies" in i for i in s))(saved_images(app)),
               10, 0.1, "both copies back in the library")


def test_a_drop_of_several_images_adds_them_all_and_says_how_many_look_like_images_already_there(
        make_app, http_server, desktop, tmp_path, sources):  # noqa: F811
    known = Served(http_server, "/known.png", encoded(photo(3), "PNG"), 640, 480, "png")
    copy = Served(http_server, "/elsewhere/known.webp", encoded(photo(3).resize((480, 360)), "WEBP", quality=50),
                  480, 360, "webp")
    new = Served(http_server, "/new.png", encoded(photo(4), "PNG"), 640, 480, "png")
    app = app_with(make_app, [known])
    drop_and_wait(app, desktop, tmp_path, sources, [copy.url, new.url], 3)
    message = toast(app, "already in the library")
    assert message == "1 of 2 images looks like an image already in the library", message
    assert sorted(i["url"] for i in saved_images(app)) == sorted([known.url, copy.url, new.url])


def test_a_library_from_before_gets_its_likenesses_at_launch_and_the_window_answers_meanwhile(
        make_app, http_server, tmp_path):
    served = [Served(http_server, "/old/%d.jpg" % n, encoded(photo(n, 1024, 768), "JPEG", quality=85),
                     1024, 768, "jpeg") for n in range(24)]
    state = gallery_state(served)
    for image, entry in zip(served, state["galleries"][0]["images"]):
        entry["original"] = {"sha256": hashlib.sha256(image.data).hexdigest(), "bytes": len(image.data),
                             "width": image.width, "height": image.height, "format": "jpeg"}
    app = make_app(state)
    for image in served:
        path = kept_file(app, hashlib.sha256(image.data).hexdigest())
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as f:
            f.write(image.data)
    app.start()
    # The window answers while the pass runs: Select All selects every shown cell.
    app.focus()
    app.key("ctrl+a")
    app.wait_cells(lambda cs: cs and all(c.selected for c in cs), timeout=10, what="every shown cell selected")
    images = wait_until(lambda: (lambda s: s if s and all("likeness" in i for i in s) else None)(saved_images(app)),
                        60, 0.2, "every image's likeness in the library",
                        lambda: "%d of %d measured" % (sum("likeness" in i for i in saved_images(app) or []),
                                                       len(served)))
    assert len(images) == len(served)
    assert all(len(i["likeness"]) == 33 for i in images), images[0]
