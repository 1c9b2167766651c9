"""Issue 45, end to end: an image dropped gets its likeness (fingerprint and palette), measured on a worker from the
pixels the drop decodes, saved with its record in the state file."""
import re

from drag_helpers import gallery_state
from drag_source import target, uri_list
from harness import wait_until
from test_drops import before, drop, sources  # noqa: F401 (sources is a fixture)
from test_originals import SPECS, all_shown, saved_images


def test_dropped_images_are_saved_with_their_likeness(make_app, http_server, desktop, tmp_path, sources):
    first = http_server.add_image(*SPECS[3])
    dropped = [http_server.add_image(*spec) for spec in SPECS[:3]]
    app = make_app(gallery_state([first]))
    app.start()
    cells = all_shown(app, 1)
    src = sources(desktop, tmp_path, target("text/uri-list", uri_list(*[image.url for image in dropped])))
    drop(app, src, before(cells[0]))
    all_shown(app, 4)
    urls = [image.url for image in dropped]

    def saved():
        images = {image["url"]: image.get("likeness") for image in saved_images(app) or []}
        return all(images.get(url) for url in urls) and {url: images[url] for url in urls}
    likenesses = wait_until(saved, 20, 0.2, "every dropped image saved with its likeness",
                            lambda: repr(saved_images(app)))
    app.stop()
    for likeness in likenesses.values():
        assert re.fullmatch(r"[0-9a-f]{16}\.[0-9a-f]{16}", likeness), likeness
    # One colour each: the palette's first swatch covers the whole picture, and the three colours differ.
    palettes = [int(likeness.split(".")[1], 16) for likeness in likenesses.values()]
    assert all(palette >> 60 == 15 for palette in palettes), likenesses
    assert len({palette >> 48 for palette in palettes}) == 3, likenesses
