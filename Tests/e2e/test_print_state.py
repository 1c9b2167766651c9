"""Issue 48: `image-gallery --print-state`, the library as a whole for scripts and backups.

- Beside a running app whose library lives in a folder the user chose (settings.json's `libraryFolder`): after an edit
  in the window, and after a sync tool's conflict copy lands beside the file, it prints, with no display and no
  session bus, the library the app has (the file less its lineage, the copy's edit merged in), in the state file's
  format;
- a library that cannot be read (none yet, half written) gives a short message and a non-zero status, and leaves the
  folder as it was; the folder's lock, held by a save under way, does not hold it up.
"""
import fcntl
import json
import os
import subprocess

from drag_helpers import gallery_state, name_of
from harness import DEFAULT_BINARY, DISTINCT_IMAGES, document, wait_until

NAMES = [spec[0] for spec in DISTINCT_IMAGES[:4]]
COPY = "state.sync-conflict-20261129-010000-PEER7.json"


def binary():
    return os.environ.get("IMAGE_GALLERY_BIN") or DEFAULT_BINARY


def print_state(env):
    """Runs `image-gallery --print-state` with no display and no session bus: (status, stdout bytes, stderr text)."""
    env = {name: value for name, value in env.items()
           if name not in ("DISPLAY", "WAYLAND_DISPLAY", "DBUS_SESSION_BUS_ADDRESS", "AT_SPI_BUS_ADDRESS")}
    done = subprocess.run([binary(), "--print-state"], env=env, stdin=subprocess.DEVNULL, capture_output=True,
                          timeout=30)
    return done.returncode, done.stdout, done.stderr.decode(errors="replace")


def printed(env):
    status, out, err = print_state(env)
    assert status == 0, "--print-state exited with %d: %s" % (status, err)
    library = json.loads(out)
    assert "revision" not in library and "ancestors" not in library, "the lineage was printed"
    return library


def printed_beside(env, file):
    """The printout and the library the file held meanwhile: read again when the app wrote it during the printout."""
    for _ in range(10):
        with open(file, "rb") as f:
            before = f.read()
        library = printed(env)
        with open(file, "rb") as f:
            if f.read() == before:
                return library, document(before)
    raise AssertionError("the app kept writing %s" % file)


def in_folder(app, folder, state):
    """Makes `folder` the app's library, as Move Library… leaves it, holding `state`."""
    os.makedirs(folder)
    with open(os.path.join(folder, "state.json"), "w") as out:
        json.dump(state, out)
    settings = os.path.join(app.config_home, "image-gallery")
    os.makedirs(settings, exist_ok=True)
    with open(os.path.join(settings, "settings.json"), "w") as out:
        json.dump({"libraryFolder": folder}, out)


def test_print_state_beside_a_running_app_after_an_edit_and_a_conflict_copy(make_app, http_server, tmp_path):
    folder = str(tmp_path / "Sync" / "Gallery")
    file = os.path.join(folder, "state.json")
    app = make_app(None)
    in_folder(app, folder, gallery_state([http_server.add_image(*spec) for spec in DISTINCT_IMAGES[:4]]))
    app.start()
    app.wait_cells(lambda cs: len(cs) == 4 and all(c.settled for c in cs), 30, what="4 cells loaded")

    def on_disk():
        with open(file, "rb") as f:
            return json.loads(f.read())

    # An edit in the window: the first image one place to the right.
    app.focus()
    app.key("Home alt+Right")
    moved = [NAMES[1], NAMES[0]] + NAMES[2:]
    wait_until(lambda: [name_of(i["url"]) for i in on_disk()["galleries"][0]["images"]] == moved, 10, 0.05,
               "the move saved")
    library, held = printed_beside(app.env(), file)
    assert library == held

    # Another computer wrote a note on the third image; the sync tool kept its file beside this one's.
    theirs = on_disk()
    theirs["galleries"][0]["images"][2]["note"] = "From the other computer"
    theirs["ancestors"] = [theirs["revision"]] + theirs.get("ancestors", [])
    theirs["revision"] = "peer-1"
    landing = os.path.join(folder, ".syncthing.%s.tmp" % COPY)
    with open(landing, "w") as out:
        json.dump(theirs, out)
    os.rename(landing, os.path.join(folder, COPY))
    # Before the app takes it in or after: the same library.
    first = printed(app.env())
    wait_until(lambda: not os.path.exists(os.path.join(folder, COPY)), 10, 0.05, "the app to merge the copy")
    with open(file, "rb") as f:
        merged = document(f.read())
    assert merged["galleries"][0]["images"][2]["note"] == "From the other computer"
    assert first == merged
    library, held = printed_beside(app.env(), file)
    assert library == held == merged


def test_print_state_says_why_it_cannot_read_a_library_and_leaves_it_alone(make_app):
    app = make_app(None)
    status, out, err = print_state(app.env())
    assert (status, out) == (1, b"")
    assert err == "image-gallery: There is no library in %s yet.\n" % app.state_dir

    os.makedirs(app.state_dir)
    half = json.dumps(gallery_state([])).encode()[:30]
    with open(app.state_path, "wb") as f:
        f.write(half)
    # A save under way holds the folder's lock: a printout does not wait for it.
    with open(os.path.join(app.state_dir, ".state.json.lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        status, out, err = print_state(app.env())
    assert (status, out) == (1, b"")
    assert err == ("image-gallery: The library in %s could not be read: it is not a valid gallery file.\n"
                   % app.state_dir)
    assert sorted(os.listdir(app.state_dir)) == [".state.json.lock", "state.json"]
    with open(app.state_path, "rb") as f:
        assert f.read() == half
