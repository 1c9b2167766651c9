"""Zoom changes how many images fit in a row (MISSION.md M14): Ctrl+scroll and Ctrl+plus/minus, with every
image keeping its aspect ratio and rows still filling the width. Zooming is a view setting: never saved."""
import harness


def start(make_app, http_server, count=12):
    images = []
    for index, (name, width, height, rgb, fmt) in enumerate(harness.DISTINCT_IMAGES[:count]):
        served = http_server.add_image(name, width, height, rgb, fmt)
        images.append({"id": name, "url": served.url, "aspectRatio": width / height})
    app = make_app({"version": 1, "sidebarVisible": False, "galleries": [{"id": "g", "name": "Gallery", "images": images}]})
    app.start()
    app.resize(1000, 800)
    app.wait_settled(expected_count=None)
    return app, images


def without_what_the_library_records(state_bytes):
    """The state less what the first launch of a library from before records of each image in the background,
    whatever the user does meanwhile: its kept `original` and its `likeness`."""
    state = harness.document(state_bytes)
    for gallery in state["galleries"]:
        for image in gallery["images"]:
            image.pop("original", None)
            image.pop("likeness", None)
    return state


def first_row(cells):
    top = min(c.y for c in cells)
    return [c for c in cells if abs(c.y - top) <= 2]


def wait_first_row(app, predicate, what):
    return app.wait_cells(lambda cells: bool(cells) and predicate(first_row(cells)), timeout=15, what=what)


def check_shapes(cells, images):
    by_url = {image["url"]: image["aspectRatio"] for image in images}
    for cell in cells:
        assert abs(cell.aspect / by_url[cell.url] - 1) < 0.03, (cell, by_url[cell.url])


def test_ctrl_scroll_and_ctrl_plus_minus_change_images_per_row(desktop, make_app, http_server):
    app, images = start(make_app, http_server)
    before = without_what_the_library_records(app.state_bytes())
    start_row = first_row(app.cells())
    start_count, start_height = len(start_row), start_row[0].height

    app.focus()
    middle = app.cells()[0].center
    desktop.move_to(*middle)
    desktop.xdotool("keydown", "ctrl")
    try:
        desktop.xdotool("click", "--repeat", "4", "--delay", "60", "4")  # wheel up: larger
    finally:
        desktop.xdotool("keyup", "ctrl")
    larger = wait_first_row(app, lambda row: row[0].height > start_height * 1.3, "larger rows after Ctrl+scroll up")
    assert len(first_row(larger)) < start_count, "zooming in should fit fewer images in a row"
    check_shapes(larger, images)

    desktop.key("ctrl+minus")
    desktop.key("ctrl+minus")
    desktop.key("ctrl+minus")
    desktop.key("ctrl+minus")
    desktop.key("ctrl+minus")
    smaller = wait_first_row(app, lambda row: row[0].height < start_height * 0.8, "smaller rows after Ctrl+minus")
    assert len(first_row(smaller)) > start_count, "zooming out should fit more images in a row"
    check_shapes(smaller, images)
    # Rows still span the window's width.
    row = first_row(smaller)
    gallery_x, _, gallery_width, _ = app.gallery().extents()
    assert abs((row[-1].x + row[-1].width) - (gallery_x + gallery_width - 8)) <= 3, row

    assert without_what_the_library_records(app.state_bytes()) == before, "zooming must not change the library"
