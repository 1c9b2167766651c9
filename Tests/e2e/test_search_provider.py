"""Issue 32, end to end: GNOME Shell's overview searches the galleries over D-Bus.

The app exports `org.gnome.Shell.SearchProvider2` on its session bus connection (a private bus per launch, see
README.md). The state file holds two galleries; the shown one is "Work", and the images searched for are in
"Travel": one found by a word of its note typed without accents, one by its page's domain. Activating a result
opens the viewer on it, in its own gallery."""
from gi.repository import Gio, GLib
from PIL import Image

import harness
from harness import wait_until

BUS_NAME = "io.github.imagegallery.ImageGallery"
OBJECT_PATH = "/io/github/imagegallery/ImageGallery/SearchProvider"
INTERFACE = "org.gnome.Shell.SearchProvider2"
NOTE_ID = "5ea7c400-0000-4000-8000-000000000001"
PAGE_ID = "5ea7c400-0000-4000-8000-000000000002"
WORK_ID = "5ea7c400-0000-4000-8000-000000000003"


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
    # The icon is the image's file itself until a thumbnail of it exists.
    assert by_id[PAGE_ID]["gicon"] == str(tmp_path / "harbour.png")

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
