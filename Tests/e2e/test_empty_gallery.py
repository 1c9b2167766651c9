"""The first thing a new user does: drop an image on the empty gallery, where the empty-state message
lies over the canvas. The drop must go through it, and the message must give way to the image. The session (the
drop downloaded, kept, thumbnailed and saved, then a quit) leaves nothing in the app's temporary folder."""
import harness
from drag_source import DragSource, target, uri_list


def test_first_drop_on_the_empty_state_lands(desktop, make_app, http_server, tmp_path):
    image = http_server.add_image("first", 300, 200, (220, 20, 20))
    temporary = tmp_path / "tmp"
    temporary.mkdir()
    app = make_app(env_overrides={"TMPDIR": str(temporary)})
    app.start()
    app.resize(900, 700)
    hint = app.wait_for_object("browser", contains=True, ignore_case=True, timeout=20)
    assert hint.has_state("SHOWING") and app.cells() == []
    x, y, width, height = app.gallery().extents()
    with DragSource(desktop, [target("text/uri-list", uri_list(image.url))], workdir=str(tmp_path)) as source:
        # Aim at the middle of the window, right on the empty-state message.
        source.drag_into((x + width // 2, y + height // 2))
        source.wait_for("drag-end", timeout=15)
    cells = app.wait_cells(lambda cells: len(cells) == 1 and cells[0].settled, timeout=30)
    assert cells[0].url == image.url
    assert abs(cells[0].aspect - 1.5) < 0.03
    shot = app.screenshot()
    colour, _ = harness.dominant_colour(shot, cells[0].box)
    assert harness.colour_close(colour, (220, 20, 20)), colour
    app.wait_state(lambda library: [i["url"] for g in library["galleries"][:1] for i in g["images"]] == [image.url], 10,
                   "the drop to be saved")
    # The message has given way to the image.
    assert not hint.has_state("SHOWING"), "the empty-state text still shows over the image"
    app.stop()
    assert sorted(p.name for p in temporary.iterdir()) == [], "the app left these in $TMPDIR"
