"""Issue 32, end to end: GNOME Shell's overview searches the galleries over D-Bus.

The app exports `org.gnome.Shell.SearchProvider2` on its session bus connection (a private bus per launch, see
README.md). The state file holds two galleries; the shown one is "Work", and the images searched for are in
"Travel": one found by a word of its note typed without accents, one by its page's domain. Activating a result
opens the viewer on it, in its own gallery."""
import glob
import hashlib
import os

from gi.repository import Gio, GLib
from PIL import Image, PngImagePlugin

import harness
from harness import wait_until

BUS_NAME = "io.github.imagegallery.ImageGallery"
OBJECT_PATH = "/io/github/imagegallery/ImageGallery/SearchProvider"
INTERFACE = "org.gnome.Shell.SearchProvider2"
NOTE_ID = "5ea7c400-0000-4000-8000-000000000001"
PAGE_ID = "5ea7c400-0000-4000-8000-000000000002"
WORK_ID = "5ea7c400-0000-4000-8000-000000000003"
APP_ICON = "io.github.imagegallery.ImageGallery"


def state_of(tmp_path):
    files = {}
    for name, rgb in (("terrace", (200, 40, 40)), ("harbour", (40, 60, 200)), ("desk", (40, 160, 60))):
        path = tmp_path / (name + ".png")
        Image.new("RGB", (160, 120), rgb).save(path)
        files[name] = harness.file_url(str(path))
    return {"version": 1, "galleries": [
        {"id": "5ea7c400-0000-4000-8000-0000000000a1", "name": "Work", "images": [
            {"id": WORK_ID, "url": files["desk"], "aspectRatio": 1.333333, "note": "Quarterly report"}]},
        {"id": "5ea7c400-0000-4000-8000-0000000000a2", "name": "Travel", "images": [
            {"id": NOTE_ID, "url": files["terrace"], "aspectRatio": 1.333333,
             "note": "Café crème sur la terrasse, Élysée"},
            {"id": PAGE_ID, "url": files["harbour"], "aspectRatio": 1.333333,
             "origin": {"arrival": "drop", "page": "https://www.photos.example.net/harbour/view",
                        "title": "Harbour at dawn"}}]}],
        "shownGalleryID": "5ea7c400-0000-4000-8000-0000000000a1"}


def provider(app):
    """A caller of the provider's methods on the app's bus; a call made before the app owns its name is made
    again until it does (once it does, the provider is there: it is exported before the name is taken)."""
    connection = Gio.DBusConnection.new_for_address_sync(
        app.env()["DBUS_SESSION_BUS_ADDRESS"],
        Gio.DBusConnectionFlags.AUTHENTICATION_CLIENT | Gio.DBusConnectionFlags.MESSAGE_BUS_CONNECTION, None, None)

    def call(method, parameters, reply_type):
        def attempt():
            try:
                # In a list: the empty reply of ActivateResult is false.
                return [connection.call_sync(BUS_NAME, OBJECT_PATH, INTERFACE, method, parameters,
                                            GLib.VariantType(reply_type) if reply_type else None,
                                            Gio.DBusCallFlags.NONE, 20_000, None)]
            except GLib.Error as error:
                if "ServiceUnknown" in str(error):
                    return None
                raise
        return wait_until(attempt, 30, 0.2, "the search provider on the bus")[0].unpack()
    return call


def test_overview_finds_images_of_another_gallery_and_opens_the_viewer(make_app, tmp_path):
    app = make_app(state=state_of(tmp_path))
    app.start()
    app.wait_settled(1)
    call = provider(app)

    assert call("GetInitialResultSet", GLib.Variant("(as)", (["creme", "elysee"],)), "(as)") == ([NOTE_ID],)
    assert call("GetInitialResultSet", GLib.Variant("(as)", (["example.net"],)), "(as)") == ([PAGE_ID],)
    assert call("GetInitialResultSet", GLib.Variant("(as)", (["TERRASSE", "harbour"],)), "(as)") == ([],)
    assert call("GetInitialResultSet", GLib.Variant("(as)", (["(.*)"],)), "(as)") == ([],)
    both = call("GetInitialResultSet", GLib.Variant("(as)", (["png"],)), "(as)")[0]
    assert both == [WORK_ID, NOTE_ID, PAGE_ID], "sidebar order, then gallery order"
    assert call("GetSubsearchResultSet", GLib.Variant("(asas)", ([NOTE_ID, PAGE_ID], ["dawn"])), "(as)") == (
        [PAGE_ID],)

    (metas,) = call("GetResultMetas", GLib.Variant("(as)", ([NOTE_ID, PAGE_ID],)), "(aa{sv})")
    by_id = {meta["id"]: meta for meta in metas}
    assert by_id[NOTE_ID]["name"] == "terrace.png"
    assert by_id[NOTE_ID]["description"] == "Travel — Café crème sur la terrasse, Élysée"
    assert by_id[PAGE_ID]["name"] == "Harbour at dawn"
    assert by_id[PAGE_ID]["description"] == "Travel"
    # Not shown yet, so no thumbnail: the app's icon, never the image's file, which the shell would decode itself.
    assert by_id[PAGE_ID]["gicon"] == APP_ICON

    call("ActivateResult", GLib.Variant("(sasu)", (PAGE_ID, ["dawn"], 0)), None)
    wait_until(lambda: app.find_all(lambda a: a.role_name == "image" and a.name == "harbour.png"
                                    and a.has_state("SHOWING")
                                    and harness._safe(lambda: a.parent().role_name) != "layered pane"),
               15, 0.1, "the viewer showing harbour.png", app.dump_tree)
    wait_until(lambda: any(title.startswith("Travel") for title in [f.name for f in app.frames()]), 10, 0.1,
               "the window showing the gallery Travel", app.dump_tree)
    app.stop()


def test_started_as_a_dbus_service_it_answers_without_a_window_and_opens_one_on_activation(make_app, tmp_path):
    """GNOME Shell starts the app through its D-Bus service file (`--gapplication-service`) when it is not running:
    it answers with no window, and a chosen result opens one on the image."""
    app = make_app(state=state_of(tmp_path), args=("--gapplication-service",))
    app.start(window=False)
    call = provider(app)
    assert call("GetInitialResultSet", GLib.Variant("(as)", (["report"],)), "(as)") == ([WORK_ID],)
    assert app.frames() == []
    call("ActivateResult", GLib.Variant("(sasu)", (NOTE_ID, ["creme"], 0)), None)
    wait_until(lambda: app.find_all(lambda a: a.role_name == "image" and a.name == "terrace.png"
                                    and a.has_state("SHOWING")
                                    and harness._safe(lambda: a.parent().role_name) != "layered pane"),
               30, 0.1, "the viewer showing terrace.png", app.dump_tree)
    app.stop()


def test_the_shell_is_given_only_thumbnails_the_app_wrote_and_one_short_line_of_text(make_app, tmp_path):
    """Issue 43: gnome-shell decodes the file a result names as its icon itself, outside the app's limits, and shows
    its text as given. A library's state may come from another computer: an image there can name any file of this
    one (here a key, no thumbnail of it anywhere) and carry a note of megabytes. The shell gets the thumbnail the app
    wrote after decoding an image itself, else the app's icon (also where another program left a thumbnail), and a
    name and description of one line, cut with an ellipsis."""
    shown, hidden = tmp_path / "shown.png", tmp_path / "hidden.png"
    # Larger than a thumbnail, so the app writes one when it shows it.
    Image.new("RGB", (1600, 1200), (200, 40, 40)).save(shown)
    Image.new("RGB", (160, 120), (40, 60, 200)).save(hidden)
    secret = tmp_path / "elsewhere" / "id_rsa"
    secret.parent.mkdir()
    secret.write_text("-----BEGIN OPENSSH PRIVATE KEY-----\n")
    shown_id, hidden_id, peer_id = ("5ea7c400-0000-4000-8000-00000000001%d" % n for n in range(3))
    note = "A first line\n" + "and more words, " * 330_000
    assert len(note) > 5_000_000
    state = {"version": 1, "galleries": [
        {"id": "5ea7c400-0000-4000-8000-0000000000b1", "name": "Shown", "images": [
            {"id": shown_id, "url": harness.file_url(str(shown)), "aspectRatio": 1.333333}]},
        {"id": "5ea7c400-0000-4000-8000-0000000000b2", "name": "Peer", "images": [
            {"id": hidden_id, "url": harness.file_url(str(hidden)), "aspectRatio": 1.333333},
            {"id": peer_id, "url": harness.file_url(str(secret)), "aspectRatio": 1.333333, "note": note,
             "origin": {"arrival": "drop", "title": "Title\nwith a break, " * 100}}]}],
        "shownGalleryID": "5ea7c400-0000-4000-8000-0000000000b1"}
    app = make_app(state=state)
    # Another program's current thumbnail of the image never shown: the app did not decode it.
    hidden_uri = harness.file_url(str(hidden))
    other = os.path.join(app.cache_home, "thumbnails", "large", hashlib.md5(hidden_uri.encode()).hexdigest() + ".png")
    os.makedirs(os.path.dirname(other), exist_ok=True)
    text = PngImagePlugin.PngInfo()
    for key, value in (("Thumb::URI", hidden_uri), ("Thumb::MTime", str(int(os.stat(hidden).st_mtime))),
                       ("Software", "GNOME::ThumbnailFactory")):
        text.add_text(key, value)
    Image.new("RGB", (256, 192), (40, 60, 200)).save(other, pnginfo=text)
    app.start()
    app.wait_settled(1)
    shown_uri = harness.file_url(str(shown))
    written = os.path.join(app.cache_home, "thumbnails", "*", hashlib.md5(shown_uri.encode()).hexdigest() + ".png")
    wait_until(lambda: glob.glob(written), 15, 0.1, "the shown image's thumbnail")
    call = provider(app)

    (metas,) = call("GetResultMetas", GLib.Variant("(as)", ([shown_id, hidden_id, peer_id],)), "(aa{sv})")
    by_id = {meta["id"]: meta for meta in metas}
    assert by_id[shown_id]["gicon"] in glob.glob(written), by_id[shown_id]["gicon"]
    with Image.open(by_id[shown_id]["gicon"]) as thumbnail:
        assert thumbnail.text["Software"] == "Image Gallery"
    assert by_id[hidden_id]["gicon"] == APP_ICON, "another program's thumbnail"
    peer = by_id[peer_id]
    assert peer["gicon"] == APP_ICON, "the file a peer named, which has no thumbnail"
    assert len(peer["name"]) <= 100 and "\n" not in peer["name"] and peer["name"].endswith("…"), peer["name"]
    assert peer["name"].startswith("Title with a break, Title with a break,")
    description = peer["description"]
    assert len(description) <= 200 and "\n" not in description and description.endswith("…"), description
    assert description.startswith("Peer — A first line and more words, and more words,")
    app.stop()
