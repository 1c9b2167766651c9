"""Issue 31, end to end: the library keeps every image's original bytes in $XDG_DATA_HOME, so that clearing the
whole cache with the source server gone loses no image; a library of the previous layout (no `original` in the
state, bytes in the cache) is carried over at launch, and a kill -9 in the middle of that loses nothing; the same
image pasted twice says "Already in"; Check Library writes back from its source an original cut short, and names
one whose server is gone; a cell that finds its original damaged fetches it again; Keep a Copy in Library keeps an
image on disk, which then outlives its file; a disk that fills while keeping fails those images alone, and the state
names only originals that were written."""
import hashlib
import os
import shutil
import subprocess
import sys
import textwrap

import harness
from actions_helpers import choose, menu_item, right_click, showing, toast
from drag_helpers import gallery_state
from drag_source import target, uri_list
from harness import wait_until
from test_add_and_export import noise_png, open_main_menu_item, small_mount  # noqa: F401 (small_mount is a fixture)
from test_drops import before, drop, sources  # noqa: F401 (sources is a fixture)

SPECS = [("red", 300, 200, (220, 30, 30)), ("green", 200, 300, (30, 180, 60)), ("blue", 240, 240, (30, 60, 220)),
         ("yellow", 320, 160, (240, 210, 20)), ("magenta", 180, 240, (200, 20, 200)),
         ("cyan", 260, 200, (20, 200, 210))]


def originals_dir(app):
    return os.path.join(app.data_home, "image-gallery", "originals")


def kept_file(app, sha256):
    return os.path.join(originals_dir(app), sha256[:2], sha256)


def saved_images(app):
    try:
        return [image for gallery in app.state()["galleries"] for image in gallery["images"]]
    except (OSError, ValueError):
        return None


def wait_kept(app, urls, timeout=20, what="the images kept"):
    """Waits until the library gives every url in `urls` an original whose file holds its bytes' SHA-256."""
    def kept():
        images = saved_images(app) or []
        originals = {image["url"]: image.get("original") for image in images}
        if any(not originals.get(url) for url in urls):
            return None
        return {url: originals[url] for url in urls}
    return wait_until(kept, timeout, 0.2, what, lambda: repr(saved_images(app)))


def all_shown(app, count, timeout=30):
    return app.wait_cells(lambda cs: len(cs) == count and all(c.settled and c.error is None for c in cs), timeout,
                          what="%d images shown, none failed" % count)


def test_dropped_images_outlive_the_cache_and_their_server(make_app, http_server, desktop, tmp_path, sources):
    first = http_server.add_image(*SPECS[0])
    app = make_app(gallery_state([first]))
    app.start()
    cells = all_shown(app, 1)
    dropped = [http_server.add_image(*spec) for spec in SPECS[1:]]
    src = sources(desktop, tmp_path, target("text/uri-list", uri_list(*[image.url for image in dropped])))
    drop(app, src, before(cells[0]))
    all_shown(app, 6)
    originals = wait_kept(app, [image.url for image in [first] + dropped])
    for image in [first] + dropped:
        original = originals[image.url]
        assert original["sha256"] == hashlib.sha256(image.data).hexdigest(), original
        assert original["bytes"] == len(image.data)
        assert (original["width"], original["height"]) == (image.width, image.height), original
        assert original["format"] == "png"
        path = kept_file(app, original["sha256"])
        with open(path, "rb") as f:
            assert f.read() == image.data, "%s does not hold %s's bytes" % (path, image.url)
        assert os.stat(path).st_mode & 0o777 == 0o600
    app.stop()

    http_server.stop()
    shutil.rmtree(app.cache_home)
    os.makedirs(app.cache_home)
    app.start()
    all_shown(app, 6)
    app.stop()
    # Nothing was downloaded again into the cache either: the originals were read where they are kept.
    assert app.cache_files() == [], app.cache_files()


def test_a_disk_that_fills_while_keeping_fails_those_images_alone_and_the_state_names_only_what_was_written(
        make_app, http_server, desktop, tmp_path, sources, small_mount):
    first = http_server.add_image(*SPECS[0])
    app = make_app(gallery_state([first]))
    # The originals on a 1 MB disk (the state beside them is not): six photos of 300 KB do not all fit. Mounted
    # on the folder itself: a link inside the library is not followed.
    os.makedirs(os.path.dirname(originals_dir(app)), exist_ok=True)
    small_mount(os.path.relpath(originals_dir(app), str(tmp_path)))
    app.start()
    cells = all_shown(app, 1)
    photos = [(http_server.add_file("/photo%d.png" % i, noise_png(320, 320, i), "image/png"), noise_png(320, 320, i))
              for i in range(6)]
    src = sources(desktop, tmp_path, target("text/uri-list", uri_list(*[url for url, _ in photos])))
    drop(app, src, before(cells[0]))
    said = toast(app, "could not be kept", timeout=60)
    assert "No space left on device" in said, said
    settled = app.wait_cells(lambda cs: len(cs) < 7 and all(c.settled and c.error is None for c in cs), 60,
                             what="the drop settled: the photos kept shown, the others gone")
    kept = len(settled) - 1
    assert 1 <= kept < 6, harness.format_cells(settled)
    served = {url: data for url, data in photos}

    def state_settled():
        images = saved_images(app) or []
        return images if len(images) == 1 + kept and all(image.get("original") for image in images) else None
    images = wait_until(state_settled, 20, 0.2, "the state naming every image shown",
                        lambda: repr(saved_images(app)))
    for image in images:
        with open(kept_file(app, image["original"]["sha256"]), "rb") as f:
            data = f.read()
        assert hashlib.sha256(data).hexdigest() == image["original"]["sha256"], image["url"]
        if image["url"] != first.url:
            assert data == served[image["url"]], image["url"]
    app.stop()

    http_server.stop()
    app.start()
    all_shown(app, 1 + kept)
    app.stop()


def test_a_library_of_the_previous_layout_is_carried_over_and_a_kill_midway_loses_nothing(
        make_app, http_server, desktop):
    served = [http_server.add_image(*spec) for spec in SPECS]
    cached, fetched = served[:3], served[3:]
    state = gallery_state(served)
    # The uncached half is served slowly: the kill comes while it is still on its way.
    for image, entry in zip(served, state["galleries"][0]["images"]):
        if image in fetched:
            entry["url"] = image.slow_url(6)
    urls = [entry["url"] for entry in state["galleries"][0]["images"]]
    app = make_app(state)
    os.makedirs(app.cache_dir, exist_ok=True)
    for image, url in zip(cached, urls):
        with open(os.path.join(app.cache_dir, hashlib.sha256(url.encode()).hexdigest()), "wb") as f:
            f.write(image.data)
    app.start()
    wait_kept(app, urls[:3], what="the cached images carried over")
    images = saved_images(app)
    assert all(not image.get("original") for image in images[3:]), "the slow images were kept already: %r" % images
    app.proc.kill()
    app.proc.wait(10)
    app.stop(check=False)
    for image, url in zip(cached, urls):
        original = next(i["original"] for i in saved_images(app) if i["url"] == url)
        with open(kept_file(app, original["sha256"]), "rb") as f:
            assert f.read() == image.data

    # The next launch carries on: the rest is fetched again; the window shows every image meanwhile.
    app.start()
    wait_kept(app, urls, timeout=40, what="every image carried over after the kill")
    all_shown(app, 6, timeout=40)
    app.stop()

    # And the library needs neither the cache nor the server any more.
    http_server.stop()
    shutil.rmtree(app.cache_home)
    os.makedirs(app.cache_home)
    app.start()
    all_shown(app, 6)


_CLIPBOARD_OWNER = textwrap.dedent("""
    import sys
    import gi
    gi.require_version("Gdk", "3.0")
    gi.require_version("Gtk", "3.0")
    from gi.repository import Gdk, GdkPixbuf, Gtk
    clipboard = Gtk.Clipboard.get(Gdk.SELECTION_CLIPBOARD)
    # GTK offers the picture as image/png (and other formats), encoded the same way each time it is asked.
    clipboard.set_image(GdkPixbuf.Pixbuf.new_from_file(sys.argv[1]))
    print("owned", flush=True)
    Gtk.main()
""")


def test_the_same_image_pasted_twice_says_already_in(make_app, http_server, desktop, tmp_path):
    first = http_server.add_image(*SPECS[0])
    app = make_app(gallery_state([first]))
    app.start()
    all_shown(app, 1)
    pasted = http_server.add_image(*SPECS[1])
    picture = tmp_path / "pasted.png"
    picture.write_bytes(pasted.data)
    env = desktop.base_env()
    env["NO_AT_BRIDGE"] = "1"
    owner = subprocess.Popen([sys.executable, "-c", _CLIPBOARD_OWNER, str(picture)], env=env,
                             stdout=subprocess.PIPE)
    try:
        assert owner.stdout.readline().strip() == b"owned"
        app.focus()
        app.key("ctrl+v")
        all_shown(app, 2)
        kept = wait_kept(app, [u["url"] for u in saved_images(app)])
        assert len({o["sha256"] for o in kept.values()}) == 2, kept
        before_second = app.state_bytes()

        app.key("ctrl+v")
        message = toast(app, "Already in")
        assert message == "Already in “Gallery”", message
        wait_until(lambda: app.find_by_name("Add Anyway", harness.ROLE.PUSH_BUTTON), 5, 0.1, "an Add Anyway button")
        assert len(app.cells()) == 2, harness.format_cells(app.cells())
        assert app.state_bytes() == before_second, "the second paste changed the library"
        files = [name for _, _, names in os.walk(originals_dir(app)) for name in names]
        assert len(files) == 2, "stored twice: %r" % files
    finally:
        owner.kill()
        owner.wait(10)


def kept_state(served):
    """A state whose images are kept already, as the library writes it, with each original's file written."""
    state = gallery_state(served)
    for image, entry in zip(served, state["galleries"][0]["images"]):
        entry["original"] = {"sha256": hashlib.sha256(image.data).hexdigest(), "bytes": len(image.data),
                             "width": image.width, "height": image.height, "format": "png"}
    return state


def write_originals(app, served, cut=()):
    for image in served:
        path = kept_file(app, hashlib.sha256(image.data).hexdigest())
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as f:
            f.write(image.data[:100] if image in cut else image.data)


def kept_bytes(app, image):
    try:
        with open(kept_file(app, hashlib.sha256(image.data).hexdigest()), "rb") as f:
            return f.read()
    except FileNotFoundError:
        return None


def test_check_library_refetches_a_cut_original_and_names_one_whose_server_is_gone(make_app, http_server):
    red, green = http_server.add_image(*SPECS[0]), http_server.add_image(*SPECS[1])
    elsewhere = harness.ImageServer()
    try:
        blue = elsewhere.add_image(*SPECS[2])
        served = [red, green, blue]
        app = make_app(kept_state(served))
        os.makedirs(originals_dir(app), exist_ok=True)
        # Green's original is cut short before the launch: the cell finds it damaged and fetches it again.
        write_originals(app, served, cut=[green])
        app.start()
        all_shown(app, 3)
        wait_until(lambda: kept_bytes(app, green) == green.data, 20, 0.2, "green's original written back")

        # Then red's is cut short and blue's deleted while its server goes away.
        with open(kept_file(app, hashlib.sha256(red.data).hexdigest()), "wb") as f:
            f.write(red.data[:100])
        os.unlink(kept_file(app, hashlib.sha256(blue.data).hexdigest()))
        elsewhere.stop()
        red_hits = http_server.hits(red.path)
        open_main_menu_item(app, "Check Library")
        message = toast(app, "could not be repaired", timeout=30)
        assert "1 image was missing or damaged and was fetched again from its source: “red.png”" in message, message
        assert "1 image could not be repaired: “blue.png”" in message, message
        assert kept_bytes(app, red) == red.data
        assert http_server.hits(red.path) == red_hits + 1
        assert kept_bytes(app, blue) is None
        # The window stays usable, and every cell still shows.
        all_shown(app, 3)
        app.stop()
    finally:
        elsewhere.stop()


def test_check_library_says_all_is_intact(make_app, http_server):
    served = [http_server.add_image(*spec) for spec in SPECS[:2]]
    app = make_app(kept_state(served))
    os.makedirs(originals_dir(app), exist_ok=True)
    write_originals(app, served)
    app.start()
    all_shown(app, 2)
    http_server.clear_log()
    open_main_menu_item(app, "Check Library")
    assert toast(app, "intact", timeout=30) == "All 2 images in the library are intact"
    # Intact originals need no network.
    assert all(http_server.hits(image.path) == 0 for image in served)
    app.stop()


def test_keep_a_copy_in_library_keeps_an_image_on_disk_which_then_outlives_its_file(make_app, desktop, tmp_path):
    # Two images on disk: the library reads them where they are until asked to keep a copy, of the first through
    # the cell menu, of the second through its properties pane.
    folder = tmp_path / "pictures"
    folder.mkdir()
    urls, contents = [], []
    for index, (name, width, height, colour) in enumerate(SPECS[:2]):
        path = folder / ("%s.png" % name)
        path.write_bytes(harness.png_bytes(width, height, colour))
        urls.append(harness.file_url(str(path)))
        contents.append(path.read_bytes())
    state = {"version": 1, "sidebarVisible": False, "galleries": [{
        "id": "9b2f3c4e-0000-4000-8000-00000000a11e", "name": "Gallery",
        "images": [{"id": "img-%d" % i, "url": url, "aspectRatio": 1} for i, url in enumerate(urls)]}]}
    app = make_app(state)
    app.start()
    app.focus()
    cells = {c.url: c for c in all_shown(app, 2)}
    assert not any(image.get("original") for image in saved_images(app))
    assert not os.path.exists(originals_dir(app)) or not any(files for _, _, files in os.walk(originals_dir(app)))

    choose(app, desktop, cells[urls[0]], "Keep a Copy in Library")
    toast(app, "Kept a copy of the image in the library")
    first = wait_kept(app, urls[:1])[urls[0]]
    assert first["sha256"] == hashlib.sha256(contents[0]).hexdigest() and first["bytes"] == len(contents[0])
    with open(kept_file(app, first["sha256"]), "rb") as f:
        assert f.read() == contents[0]
    assert [image["url"] for image in saved_images(app)] == urls  # still recorded where it is

    # A kept image's menu no longer offers it.
    right_click(desktop, cells[urls[0]])
    menu_item(app, "Properties")
    assert showing(app, "Keep a Copy in Library") is None
    app.key("Escape")

    choose(app, desktop, cells[urls[1]], "Properties")
    pane = app.wait_for_object("Image Properties", timeout=15)
    button = wait_until(lambda: app.find_by_name("Keep a Copy in Library", harness.ROLE.PUSH_BUTTON, root=pane), 10,
                        0.1, "the pane's Keep a Copy in Library")
    button.do_action(0)
    second = wait_kept(app, urls[1:])[urls[1]]
    assert second["sha256"] == hashlib.sha256(contents[1]).hexdigest()
    wait_until(lambda: not button.has_state("SHOWING"), 10, 0.1, "the button to go once the copy is kept")
    app.key("Escape")

    app.stop()
    shutil.rmtree(folder)
    app.start()
    all_shown(app, 2)
