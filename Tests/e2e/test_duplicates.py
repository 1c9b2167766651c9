"""Issue 45, end to end: Find Duplicates (the main menu) groups a gallery's planted copies (resized and recompressed
with PIL, dropped with their originals) and Merge All leaves one of each; More Like This from a cell's menu lists
the copy first."""
import io
import random

from PIL import Image, ImageDraw

import harness
from actions_helpers import choose, menu_item
from drag_helpers import click_node, gallery_state
from drag_source import target, uri_list
from harness import wait_until
from test_drops import before, drop, sources  # noqa: F401 (sources is a fixture)
from test_originals import SPECS, all_shown, saved_images


def photo(seed, width=480, height=360):
    """A photo-like picture: a gradient under soft blobs of colour, different for each seed."""
    rng = random.Random(seed)
    picture = Image.linear_gradient("L").resize((width, height)).convert("RGB")
    tint = Image.new("RGB", (width, height), tuple(rng.randrange(40, 200) for _ in range(3)))
    picture = Image.blend(picture, tint, 0.6)
    draw = ImageDraw.Draw(picture)
    for _ in range(10):
        x, y, r = rng.randrange(width), rng.randrange(height), rng.randrange(30, 140)
        draw.ellipse((x - r, y - r, x + r, y + r), fill=tuple(rng.randrange(256) for _ in range(3)))
    return picture


def encoded(picture, fmt, **options):
    data = io.BytesIO()
    picture.save(data, fmt, **options)
    return data.getvalue()


def plant(http_server):
    """Two originals (PNG) with a resized, recompressed copy of each (JPEG at quality 40, WebP), and a picture
    of its own; returns their URLs by name."""
    cat, dog, owl = photo(1), photo(2), photo(3)
    files = {
        "cat.png": (encoded(cat, "PNG"), "image/png"),
        "cat-small.jpg": (encoded(cat.resize((240, 180)), "JPEG", quality=40), "image/jpeg"),
        "dog.png": (encoded(dog, "PNG"), "image/png"),
        "dog-small.webp": (encoded(dog.resize((300, 225)), "WEBP", quality=60), "image/webp"),
        "owl.png": (encoded(owl, "PNG"), "image/png"),
    }
    return {name: http_server.add_file("/planted/" + name, data, kind) for name, (data, kind) in files.items()}


def start_with_planted(make_app, http_server, desktop, tmp_path, sources, **launch):
    """The app with one image, then the planted ones dropped on it; waits until each is saved with its likeness."""
    urls = plant(http_server)
    app = make_app(gallery_state([http_server.add_image(*SPECS[0])]), **launch)
    app.start()
    cells = all_shown(app, 1)
    src = sources(desktop, tmp_path, target("text/uri-list", uri_list(*urls.values())))
    drop(app, src, before(cells[0]))
    all_shown(app, 6)

    def measured():
        images = {image["url"]: image for image in saved_images(app) or []}
        return all(images.get(url, {}).get("likeness") for url in urls.values())
    wait_until(measured, 20, 0.1, "every planted image saved with its likeness", lambda: repr(saved_images(app)))
    return app, urls


def open_find_duplicates(app, menu="Main Menu", item="Find Duplicates", title="Find Duplicates"):
    app.wait_for_object(menu, "toggle button", timeout=10).do_action(0)
    menu_item(app, item).do_action(0)
    return app.wait_for_object(title, "frame", timeout=10)


def group_rows(app, window):
    return sorted(row.name for row in app.find_all(lambda a: a.role_name == "list item", window))


def test_find_duplicates_groups_the_planted_copies_and_merge_all_leaves_one_of_each(
        make_app, http_server, desktop, tmp_path, sources):
    app, urls = start_with_planted(make_app, http_server, desktop, tmp_path, sources)
    window = open_find_duplicates(app)
    rows = wait_until(lambda: group_rows(app, window) or None, 10, 0.1, "the groups of duplicates")
    # Each original is the best copy: more pixels, and lossless.
    assert rows == ["“cat.png” and 1 copy", "“dog.png” and 1 copy"], rows
    best = app.find_by_name("cat.png, the best copy", root=window)
    assert best is not None
    app.find_by_name("Merge All", harness.ROLE.PUSH_BUTTON, root=window).do_action(0)
    app.wait_for_object("No Duplicates", timeout=10, root=window)

    def kept():
        images = saved_images(app) or []
        return len(images) == 4 and images
    images = wait_until(kept, 10, 0.1, "one image of each picture", lambda: repr(saved_images(app)))
    assert {image["url"] for image in images} >= {urls["cat.png"], urls["dog.png"], urls["owl.png"]}
    # The copies' addresses live on in the images kept.
    text = repr(images)
    assert urls["cat-small.jpg"] in text and urls["dog-small.webp"] in text, text
    app.key("Escape")
    wait_until(lambda: app.find_by_name("Find Duplicates", "frame") is None, 10, 0.1, "Find Duplicates to close")
    app.stop()


def test_more_like_this_lists_the_copy_first(make_app, http_server, desktop, tmp_path, sources):
    app, urls = start_with_planted(make_app, http_server, desktop, tmp_path, sources)
    cat = next(cell for cell in app.cells() if cell.description == urls["cat.png"])
    choose(app, desktop, cat, "More Like This")
    app.wait_for_object("Images that look like “cat.png”", harness.ROLE.LABEL, timeout=10)
    cells = app.wait_cells(lambda cs: cs and cs[0].description == urls["cat-small.jpg"], 10,
                           what="the copy first among the look-alikes")
    assert urls["cat.png"] not in [cell.description for cell in cells]
    app.key("Escape")
    app.wait_cells(lambda cs: len(cs) == 6, 10, what="the gallery again")
    app.stop()
