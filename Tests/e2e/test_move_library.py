"""Issue 33: Move Library… (the main menu) moves the library (its state and the kept originals) into a folder the
user picks, such as a folder Syncthing shares, and the app starts again on it in the same process: the settings
name the folder, the old copies are gone from the data folder, every image shows from its original there with
its server gone, and an edit afterwards is saved there."""
import hashlib
import json
import os

import harness
from drag_helpers import gallery_state
from harness import wait_until
from test_add_and_export import chooser, choose_folder, open_main_menu_item
from test_originals import SPECS, all_shown, originals_dir, wait_kept


def kept_names(folder):
    originals = os.path.join(folder, "originals")
    if not os.path.isdir(originals):
        return set()
    return {name for sub in os.listdir(originals) for name in os.listdir(os.path.join(originals, sub))
            if not name.startswith(".")}


def settings(app):
    try:
        with open(os.path.join(app.config_home, "image-gallery", "settings.json")) as f:
            return json.load(f)
    except (OSError, ValueError):
        return {}


def test_move_library_moves_the_state_and_every_original_and_the_app_opens_it_there(make_app, desktop, tmp_path):
    server = harness.ImageServer()
    try:
        images = [server.add_image(*spec) for spec in SPECS[:3]]
        app = make_app(gallery_state(images))
        app.start()
        all_shown(app, 3)
        wait_kept(app, [image.url for image in images])
        before = app.state()
        pid = app.proc.pid
    finally:
        server.stop()  # from now on the images can only come from their originals
    shas = {hashlib.sha256(image.data).hexdigest() for image in images}
    assert kept_names(os.path.dirname(originals_dir(app))) == shas

    target = tmp_path / "Sync" / "Gallery"
    target.mkdir(parents=True)
    app.focus()
    open_main_menu_item(app, "Move Library…")
    choose_folder(app, chooser(app, "Move Library"), target, "Move")

    wait_until(lambda: settings(app).get("libraryFolder") == str(target), 60, 0.2, "the settings naming the folder",
               lambda: repr(settings(app)))
    # The library the settings now name, the new folder's, is the one the app had.
    app.wait_state(lambda library: library == before, 10, "the library in the new folder")
    assert kept_names(str(target)) == shas
    # The same process, started again on the new folder: its window comes back and shows every image.
    assert app.proc.pid == pid and app.running
    wait_until(lambda: app._frame_ready(), 60, 0.3, "the window of the app started again")
    all_shown(app, 3, timeout=60)
    # The data folder's copies go once the new folder is named, and the settings stop naming it.
    wait_until(lambda: not os.path.exists(app.state_path) and not kept_names(app.state_dir), 20, 0.2,
               "the data folder's copies removed", lambda: repr(os.listdir(app.state_dir)))
    wait_until(lambda: "movedFrom" not in settings(app), 10, 0.2, "the settings forgetting the old folder")

    # An edit now is saved in the new folder.
    app.key("ctrl+n")
    app.wait_state(lambda library: len(library["galleries"]) == 2, 20, "the new gallery saved in the new folder")
    assert not os.path.exists(app.state_path)
    app.stop()


def test_the_first_runs_empty_state_offers_another_folder_and_a_library_with_images_does_not(make_app, tmp_path):
    app = make_app(None)
    app.start()
    offer = app.wait_for_object("Keep the Library in Another Folder…", "push button", timeout=20)
    assert offer.has_state("SHOWING"), "the offer is not showing"
    target = tmp_path / "Sync"
    target.mkdir()
    offer.do_action(0)
    choose_folder(app, chooser(app, "Move Library"), target, "Move")
    wait_until(lambda: settings(app).get("libraryFolder") == str(target), 60, 0.2, "the settings naming the folder",
               lambda: repr(settings(app)))
    wait_until(lambda: app._frame_ready(), 60, 0.3, "the window of the app started again")
    app.stop()

    with_images = make_app({"version": 1, "galleries": [
        {"id": "g1", "name": "Gallery", "images": []},
        {"id": "g2", "name": "Other", "images": [{"id": "i1", "url": "http://127.0.0.1:9/a.png", "aspectRatio": 1}]}]})
    with_images.start()
    hint = with_images.wait_for_object("No Images Yet", timeout=20)
    assert hint.has_state("SHOWING"), "the empty state of the empty gallery is not showing"
    offer = with_images.find_by_name("Keep the Library in Another Folder…", "push button")
    assert offer is None or not offer.has_state("SHOWING"), "a library with images still offers another folder"
    with_images.stop()
