"""Issue 11 (A), end to end: opening an image inside the window.

Local images made with PIL: a 1600×1200 picture of red and blue stripes 20 pixels wide (its drawn size is measured
from the stripes' width in screenshots: about 12 px when it fits the window, exactly 20 px at 1:1), and solid
colours after it. The viewer is found over AT-SPI as the showing image object named by the image's label; the
header bar's subtitle says which image of how many."""
import statistics
import time

from PIL import Image, ImageDraw

import harness
from actions_helpers import choose
from harness import colour_close, dominant_colour, wait_until

STRIPE = 20
RED = (230, 20, 20)
BLUE = (20, 40, 230)
GREEN = (20, 180, 40)
YELLOW = (250, 220, 0)


def stripes(path, width=1600, height=1200):
    image = Image.new("RGB", (width, height), BLUE)
    draw = ImageDraw.Draw(image)
    for x in range(0, width, 2 * STRIPE):
        draw.rectangle([x, 0, x + STRIPE - 1, height - 1], fill=RED)
    image.save(path)


def solid(path, width, height, rgb):
    Image.new("RGB", (width, height), rgb).save(path)


def state_of(images):
    """images: [(path, width, height)] -> a state of one gallery of those files, the sidebar shown."""
    return {"version": 1, "galleries": [{
        "id": "9b2f3c4e-0000-4000-8000-00000000f11e", "name": "Gallery",
        "images": [{"id": "9b2f3c4e-0000-4000-8000-%012d" % (i + 1), "url": harness.file_url(str(path)),
                    "aspectRatio": round(w / h, 6)} for i, (path, w, h) in enumerate(images)]}]}


def image_id(index):
    return "9b2f3c4e-0000-4000-8000-%012d" % (index + 1)


def viewer(app, label):
    """The viewer's image object, showing and named by the image's label (not a gallery cell: those are the
    gallery's children), or None."""
    found = app.find_all(lambda a: a.role_name == "image" and a.name == label and a.has_state("SHOWING")
                         and harness._safe(lambda: a.parent().role_name) != "layered pane")
    return found[0] if found else None


def wait_viewer(app, label, timeout=10):
    return wait_until(lambda: viewer(app, label), timeout, 0.1, "the viewer showing %r" % label, app.dump_tree)


def wait_header(app, text, timeout=10):
    return wait_until(lambda: app.find_all(lambda a: a.role_name == "label" and a.name == text
                                           and a.has_state("SHOWING")),
                      timeout, 0.1, "the header bar saying %r" % text, app.dump_tree)


def wait_gallery_back(app, timeout=5):
    wait_until(lambda: app.gallery() is not None and app.gallery().has_state("SHOWING"), timeout, 0.1,
               "the gallery to show again", app.dump_tree)


def red_run_length(shot, box):
    """The median width of the red stripes across the middle of box (the partial ones at the ends left out)."""
    x, y, w, h = box
    row = y + h // 2
    runs, run = [], 0
    for px in range(x, x + w):
        if colour_close(shot.getpixel((px, row))[:3], RED, 70):
            run += 1
        elif run:
            runs.append(run)
            run = 0
    runs = runs[1:-1]
    assert len(runs) >= 3, "fewer than 3 whole red stripes across %r: %r" % (box, runs)
    return statistics.median(runs)


def drawn_box(shot, box):
    """The bounding box of the striped picture inside box."""
    red = harness.colour_bbox(shot, box, RED, 60, margin=0)
    blue = harness.colour_bbox(shot, box, BLUE, 60, margin=0)
    assert red and blue, "no stripes drawn in %r" % (box,)
    left, top = min(red[0], blue[0]), min(red[1], blue[1])
    right = max(red[0] + red[2], blue[0] + blue[2])
    bottom = max(red[1] + red[3], blue[1] + blue[3])
    return (left, top, right - left, bottom - top)


def wait_stripe_width(app, box, expected, tolerance):
    got = []

    def check():
        got[:] = [red_run_length(app.screenshot(), box)]
        return abs(got[0] - expected) <= tolerance

    wait_until(check, 10, 0.2, "red stripes %s px wide" % expected, lambda: "they are %r px" % got)
    return got[0]


def launch(make_app, tmp_path, extra=()):
    folder = tmp_path / "pictures"
    folder.mkdir()
    images = [(folder / "stripes.png", 1600, 1200)]
    stripes(images[0][0])
    for name, w, h, rgb in [("green", 300, 200, GREEN), ("yellow", 240, 320, YELLOW)] + list(extra):
        path = folder / (name + ".png")
        solid(path, w, h, rgb)
        images.append((path, w, h))
    app = make_app(state_of(images))
    app.start()
    app.wait_cells(lambda cs: len(cs) == len(images) and all(c.settled for c in cs), 60, what="the cells to load")
    app.focus()
    return app


def test_double_click_opens_the_image_larger_and_1_shows_it_pixel_for_pixel(make_app, tmp_path):
    app = launch(make_app, tmp_path)
    cell = next(c for c in app.cells() if c.label == "stripes.png")
    x, y = cell.center
    app.desktop.move_to(x, y)
    app.desktop.xdotool("click", "--repeat", 2, "--delay", 80, 1)
    area = wait_viewer(app, "stripes.png").extents()
    wait_header(app, "1 of 3")
    # Drawn as large as the view allows: its height fills the view (the picture is 4:3, the view wider).
    scale = min(area[2] / 1600, area[3] / 1200)
    width = wait_stripe_width(app, area, STRIPE * scale, 1.5)
    drawn = drawn_box(app.screenshot(), area)
    assert drawn[2] > cell.width * 1.5 and drawn[3] > cell.height * 1.5, (
        "the viewer draws the image at %r, hardly larger than its cell %r" % (drawn, cell.box))
    assert abs(drawn[3] - 1200 * scale) <= 3, "the fitted picture is %r, expected %.0f px tall" % (drawn, 1200 * scale)

    # The pointer over the view's centre: 1 zooms around it, and the stripes are 20 px wide.
    app.desktop.move_to(area[0] + area[2] // 2, area[1] + area[3] // 2)
    app.key("1")
    wait_stripe_width(app, area, STRIPE, 0.6)
    drawn = drawn_box(app.screenshot(), area)
    assert drawn[2] >= area[2] - 2 and drawn[3] >= area[3] - 2, (
        "at 1:1 the 1600×1200 picture should cover the %r view, it covers %r (stripes %.1f px at fit)"
        % (area, drawn, width))
    # Ctrl+0 fits again.
    app.key("ctrl+0")
    wait_stripe_width(app, area, STRIPE * scale, 1.5)


def test_enter_opens_right_and_left_step_and_esc_returns(make_app, tmp_path):
    app = launch(make_app, tmp_path)
    app.key("Home")
    app.key("Return")
    area = wait_viewer(app, "stripes.png").extents()
    wait_header(app, "1 of 3")
    app.key("Right")
    wait_viewer(app, "green.png")
    wait_header(app, "2 of 3")
    wait_until(lambda: colour_close(dominant_colour(app.screenshot(), area, 0.2)[0], GREEN), 5, 0.1,
               "the green image drawn in the viewer")
    app.key("Page_Down")
    wait_header(app, "3 of 3")
    app.key("Left")
    wait_viewer(app, "green.png")
    app.key("Escape")
    wait_gallery_back(app)
    cells = app.wait_cells(lambda cs: any(c.label == "green.png" and c.selected for c in cs), 5,
                           what="the image last seen selected")
    assert [c.label for c in cells if c.selected] == ["green.png"]
    # It has the keyboard focus too: Enter opens it again.
    app.key("Return")
    wait_viewer(app, "green.png")


def test_delete_in_the_viewer_moves_to_trash_shows_the_next_and_undo_restores(make_app, tmp_path):
    app = launch(make_app, tmp_path)
    app.key("Home")
    app.key("Return")
    wait_viewer(app, "stripes.png")
    app.key("Delete")
    wait_viewer(app, "green.png")
    wait_header(app, "1 of 2")
    wait_until(lambda: image_id(0) not in [i["id"] for i in app.state()["galleries"][0]["images"]], 5, 0.2,
               "the library without the deleted image", app.state_text)
    wait_until(lambda: app.find_all(lambda a: a.role_name == "label" and a.has_state("SHOWING")
                                    and "Image moved to trash" in (a.name or "")), 5, 0.1,
               "the toast 'Image moved to trash'", app.dump_tree)
    app.key("ctrl+z")
    wait_until(lambda: [i["id"] for i in app.state()["galleries"][0]["images"]][:1] == [image_id(0)], 5, 0.2,
               "the library with the image back first", app.state_text)
    wait_header(app, "2 of 3")


def test_esc_returns_to_the_same_scroll_position_with_the_image_focused(make_app, tmp_path):
    extra = [("x%02d" % i, 240 + (i % 3) * 60, 200, (60 + i * 4, 90, 120)) for i in range(40)]
    app = launch_with(make_app, tmp_path, extra)
    gallery = app.gallery().extents()
    app.desktop.scroll(gallery[0] + gallery[2] // 2, gallery[1] + gallery[3] // 2, clicks=5)
    wait_until(lambda: app.scroll_offset() > 100, 5, 0.1, "the gallery scrolled down")
    time.sleep(0.3)
    offset = app.scroll_offset()
    cells = app.wait_settled()
    target = next(c for c in cells if c.y > gallery[1] + 20 and c.y + c.height < gallery[1] + gallery[3] - 20)
    app.click(*target.center)
    app.key("Return")
    wait_viewer(app, target.label)
    app.key("Escape")
    wait_gallery_back(app)
    assert app.scroll_offset() == offset, "the gallery was at %s before the viewer, at %s after" % (
        offset, app.scroll_offset())
    app.key("Return")
    wait_viewer(app, target.label)


def launch_with(make_app, tmp_path, extra):
    folder = tmp_path / "pictures"
    folder.mkdir()
    images = []
    for name, w, h, rgb in extra:
        path = folder / (name + ".png")
        solid(path, w, h, rgb)
        images.append((path, w, h))
    app = make_app(state_of(images))
    app.start()
    app.wait_settled(timeout=60)
    app.focus()
    return app


def huge_jpeg(path):
    """12000×8000, a few flat blocks: quick to encode, 96 megapixels to decode."""
    image = Image.new("RGB", (12000, 8000), (200, 120, 40))
    ImageDraw.Draw(image).rectangle([3000, 2000, 9000, 6000], fill=(40, 90, 200))
    image.save(path, quality=70)


def test_a_12000_by_8000_jpeg_opens_while_the_window_keeps_answering(make_app, tmp_path):
    folder = tmp_path / "pictures"
    folder.mkdir()
    big = folder / "huge.jpg"
    huge_jpeg(big)
    after = folder / "green.png"
    solid(after, 300, 200, GREEN)
    app = make_app(state_of([(big, 12000, 8000), (after, 300, 200)]))
    app.start()
    app.wait_settled(timeout=60)
    app.focus()
    app.key("Home")
    # Right follows Enter at once, while the 96 MP decode has only begun: it is handled, and the huge
    # picture, decoded later, never covers the image shown now.
    app.desktop.xdotool("key", "--delay", 0, "Return", "Right")
    area = wait_viewer(app, "green.png", timeout=5).extents()
    wait_header(app, "2 of 2")
    time.sleep(2)
    colour = dominant_colour(app.screenshot(), area, 0.2)[0]
    assert colour_close(colour, GREEN), "the viewer shows %r instead of the green image" % (colour,)
    app.key("Left")
    wait_viewer(app, "huge.jpg")
    wait_until(lambda: colour_close(dominant_colour(app.screenshot(), area, 0.2)[0], (40, 90, 200), 40), 20, 0.2,
               "the huge image's blue middle in the viewer")
    app.key("Escape")
    wait_gallery_back(app)


def test_a_failed_cell_retries_on_enter_and_double_click_instead_of_opening(make_app, tmp_path):
    folder = tmp_path / "pictures"
    folder.mkdir()
    late = [(folder / "late-a.png", 300, 200), (folder / "late-b.png", 300, 200)]
    app = make_app(state_of(late))
    app.start()
    app.wait_cells(lambda cs: len(cs) == 2 and all(c.error for c in cs), 30, what="two error cells")
    app.focus()
    for path, w, h in late:
        solid(path, w, h, GREEN)
    app.key("Home")
    app.key("Return")
    app.wait_cells(lambda cs: not cs[0].error and cs[0].settled and cs[1].error, 10,
                   what="Enter to retry the first cell, and only it")
    second = app.cells()[1]
    app.desktop.move_to(*second.center)
    app.desktop.xdotool("click", "--repeat", 2, "--delay", 80, 1)
    app.wait_cells(lambda cs: all(c.settled and not c.error for c in cs), 10, what="the double-click to retry it")
    time.sleep(0.5)
    assert viewer(app, "late-a.png") is None and viewer(app, "late-b.png") is None, (
        "retrying a failed cell opened the viewer")
    assert app.gallery().has_state("SHOWING")


def test_the_cell_menu_opens_the_image_it_was_asked_on(make_app, tmp_path):
    app = launch(make_app, tmp_path)
    cell = next(c for c in app.cells() if c.label == "yellow.png")
    choose(app, app.desktop, cell, "Open")
    wait_viewer(app, "yellow.png")
    wait_header(app, "3 of 3")


def test_a_click_then_at_once_a_drag_moves_the_cell_and_opens_nothing(make_app, tmp_path):
    app = launch(make_app, tmp_path)
    cells = {c.label: c for c in app.cells()}
    first, last = cells["stripes.png"], cells["yellow.png"]
    # The drag's press comes within the double-click time of the click, on the same spot.
    app.desktop.click(*first.center)
    app.desktop.drag(first.center, (last.x + last.width - 4, last.y + last.height // 2), steps=20, step_delay=0.02)
    wait_until(lambda: [i["id"] for i in app.state()["galleries"][0]["images"]] == [image_id(1), image_id(2), image_id(0)],
               10, 0.2, "the striped image moved to the end", app.state_text)
    assert viewer(app, "stripes.png") is None, "the click and the drag's press opened the viewer"
