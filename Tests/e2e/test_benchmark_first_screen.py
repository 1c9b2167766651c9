"""Issue 48, the benchmarks' first screen painted (screen_watch.py's `wait_painted`, as million.py waits for it) in a
library that shows its sidebar: the window's content holds still and the gallery beside the sidebar, which the app's
accessible tree places, shows pictures everywhere. The window's content as a whole never would: the sidebar's
selected row is flat and of another colour than the gallery's background, which hung million.py at its first screen."""
import json
import os
import sys

import harness

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "benchmarks"))
from generated_library import write_library  # noqa: E402
from screen_watch import Screen, overlap, pictures_everywhere  # noqa: E402
from versus_gthumb import GALLERY_INSET, OUR_AREA, SIZE, gallery_area  # noqa: E402


def test_a_gallery_beside_the_sidebar_is_painted_once_it_shows_pictures_everywhere(make_app, desktop):
    app = make_app()
    library = os.path.dirname(app.state_path)
    write_library(library, 400, galleries=4)  # the sidebar hidden
    with open(app.state_path, encoding="utf-8") as f:
        state = json.load(f)
    state["sidebarVisible"] = True
    with open(app.state_path, "w", encoding="utf-8") as f:
        json.dump(state, f)
    app.start()
    app.resize(*SIZE)
    screen = Screen(desktop.display)
    try:
        painted = screen.wait_painted(OUR_AREA, 0, 60, what="the gallery beside the sidebar",
                                      pictures_in=lambda: gallery_area(app), inset=GALLERY_INSET)
    finally:
        screen.close()

    sidebar = app.wait_for_object("Galleries", "list box", timeout=10)
    x, _, width, _ = sidebar.extents()
    gallery = gallery_area(app)
    assert gallery == app.gallery().extents()
    assert gallery[0] >= x + width, "the gallery %r is not beside the sidebar %r" % (gallery, sidebar.extents())
    assert pictures_everywhere(painted["frame"], overlap(gallery, OUR_AREA), inset=GALLERY_INSET)[0]
    assert not pictures_everywhere(painted["frame"], OUR_AREA)[0]
