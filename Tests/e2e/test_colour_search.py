"""Issue 45, end to end: search by colour. Pictures generated with Pillow (a red of some share beside other colours,
and others of no red or a speck of it) are dropped from the test server; the search bar's Colour filter finds the
red ones and only them, those with most red first, shows a chip and is kept in a saved search; the properties pane
shows an image's palette as swatches named for screen readers ("Red, 60%"), and choosing one runs that colour's
search. The pane and the filter in the dark theme and in Russian.

Run from the repository root with Debian's python (pyatspi):
    /usr/bin/python3 -m pytest -p no:cacheprovider Tests/e2e/test_colour_search.py -x -v
"""
import io
import os
import random
import sys

from PIL import Image, ImageDraw

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import harness  # noqa: E402
from actions_helpers import menu_item  # noqa: E402
from drag_helpers import by_name, click, click_node, gallery_state, name_of  # noqa: E402
from drag_source import target, uri_list  # noqa: E402
from harness import wait_until  # noqa: E402
from test_drops import before, drop, sources  # noqa: E402,F401 (sources is a fixture)
from test_galleries import shot  # noqa: E402
from test_originals import all_shown, saved_images  # noqa: E402
from test_search import results, showing_button  # noqa: E402

# (name, colours from the top down, each with the share of the rows it fills)
PICTURES = [
    ("scarlet", [((210, 25, 35), 1.0)]),
    ("poppies", [((40, 140, 50), 0.7), ((220, 30, 30), 0.3)]),
    ("wine", [((250, 250, 250), 0.4), ((130, 10, 20), 0.6)]),
    ("tangerine", [((255, 130, 0), 1.0)]),
    ("rose", [((240, 140, 185), 1.0)]),
    ("chestnut", [((135, 70, 30), 1.0)]),
    ("sea", [((30, 90, 200), 0.97), ((220, 30, 30), 0.03)]),
]
# The red ones, most red first.
RED = ["scarlet", "wine", "poppies"]
RUSSIAN = {"LANG": "ru_RU.UTF-8", "LC_ALL": "ru_RU.UTF-8", "LANGUAGE": "ru"}


def picture(name, bands):
    """A 200×150 PNG of the bands, with noise and a few small shapes, as a photo's colours are never flat."""
    rng = random.Random(name)
    image = Image.new("RGB", (200, 150))
    draw = ImageDraw.Draw(image)
    top = 0
    for colour, share in bands:
        bottom = top + round(150 * share)
        draw.rectangle((0, top, 199, bottom - 1), fill=colour)
        top = bottom
    noise = Image.effect_noise((200, 150), 12).convert("RGB")
    image = Image.blend(image, noise, 0.08)
    pixels = image.load()
    for _ in range(30):
        x, y = rng.randrange(200), rng.randrange(150)
        r, g, b = pixels[x, y]
        pixels[x, y] = (min(r + 40, 255), min(g + 40, 255), min(b + 40, 255))
    data = io.BytesIO()
    image.save(data, "PNG")
    return data.getvalue()


def start_with_dropped_pictures(make_app, http_server, desktop, tmp_path, sources, env=None, **kw):
    """The app on a gallery of one image, the pictures dropped before it, each saved with its likeness."""
    first = http_server.add_image("slate", 160, 120, (90, 90, 100))
    urls = [http_server.add_file("/img/%s.png" % name, picture(name, bands), "image/png") for name, bands in PICTURES]
    app = make_app(gallery_state([first]), env, **kw)
    app.start()
    cells = all_shown(app, 1)
    src = sources(desktop, tmp_path, target("text/uri-list", uri_list(*urls)))
    drop(app, src, before(cells[0]))
    all_shown(app, len(PICTURES) + 1)
    wait_until(lambda: all(image.get("likeness") for image in saved_images(app) or []
                           if name_of(image["url"]) != "slate") and len(saved_images(app)) == len(PICTURES) + 1,
               20, 0.2, "every dropped picture saved with its likeness", lambda: repr(saved_images(app)))
    return app


def test_a_colour_filter_finds_the_red_images_and_only_them(make_app, http_server, desktop, tmp_path, sources):
    app = start_with_dropped_pictures(make_app, http_server, desktop, tmp_path, sources)
    app.key("ctrl+f")
    click_node(desktop, showing_button(app, "Add a Filter"))
    click_node(desktop, menu_item(app, "Colour"))
    click_node(desktop, menu_item(app, "Red"))
    results(app, RED, "the red pictures, most red first")
    showing_button(app, "Remove “Colour: Red”")
    shot(app, "colour-filter.png")
    # Kept in a saved search.
    click_node(desktop, showing_button(app, "Save Search"))
    smart = wait_until(lambda: (app.state().get("smartGalleries") or [None])[0], 10, 0.2, "the saved search")
    assert smart["query"] == {"colour": "red"}, smart
    # Another colour replaces it.
    click_node(desktop, showing_button(app, "Add a Filter"))
    click_node(desktop, menu_item(app, "Colour"))
    click_node(desktop, menu_item(app, "Orange"))
    results(app, ["tangerine"], "the orange picture")
    app.stop()


def swatches(app, dialog):
    """The pane's swatch buttons' names, in order."""
    return [harness._safe(lambda: b.name) for b in app.find_all(
        lambda a: a.role == harness.ROLE.PUSH_BUTTON and (a.name or "").endswith("%"), dialog)]


def test_a_swatch_in_the_properties_searches_for_its_colour(make_app, http_server, desktop, tmp_path, sources):
    app = start_with_dropped_pictures(make_app, http_server, desktop, tmp_path, sources)
    cells = by_name(app.wait_settled(len(PICTURES) + 1))
    click(desktop, cells["wine"].center)
    app.key("alt+Return")
    dialog = app.wait_for_object("Image Properties", timeout=15)
    names = wait_until(lambda: swatches(app, dialog) or None, 10, 0.2, "the palette's swatches")
    # Red over most of it, white over the rest: each named with its share for screen readers.
    assert names[0] == "Red, 60%" and names[1] == "White, 40%", names
    shot(app, "colour-properties.png")
    click_node(desktop, app.find_by_name("Red, 60%", harness.ROLE.PUSH_BUTTON, root=dialog))
    results(app, RED, "the red pictures, from the swatch")
    showing_button(app, "Remove “Colour: Red”")
    app.stop()


def test_the_palette_and_the_colour_filter_in_the_dark_theme_in_russian(make_app, http_server, desktop, tmp_path,
                                                                       sources):
    app = start_with_dropped_pictures(make_app, http_server, desktop, tmp_path, sources,
                                      env=dict(RUSSIAN, GTK_THEME="Adwaita:dark"),
                                      app_name="Галерея изображений", gallery_name="Коллекция")
    cells = by_name(app.wait_settled(len(PICTURES) + 1))
    click(desktop, cells["wine"].center)
    app.key("alt+Return")
    dialog = app.wait_for_object("Свойства изображения", timeout=15)
    names = wait_until(lambda: swatches(app, dialog) or None, 10, 0.2, "the palette's swatches")
    assert names[:2] == ["Красный, 60\u00a0%", "Белый, 40\u00a0%"], names
    # The white swatch stands out of the dark pane by its own colour, the red one by its outline.
    shot(app, "colour-properties-dark-ru.png")
    click_node(desktop, app.find_by_name(names[0], harness.ROLE.PUSH_BUTTON, root=dialog))
    results(app, RED, "the red pictures, from the swatch")
    showing_button(app, "Убрать «Цвет: Красный»")
    click_node(desktop, showing_button(app, "Добавить фильтр"))
    click_node(desktop, menu_item(app, "Цвет"))
    menu_item(app, "Другой цвет…")
    shot(app, "colour-menu-dark-ru.png")
    click_node(desktop, menu_item(app, "Коричневый"))
    results(app, ["chestnut"], "the brown picture")
    app.stop()
