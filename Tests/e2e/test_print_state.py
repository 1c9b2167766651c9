"""Issue 48: `image-gallery --print-state`, the library as a whole for scripts and backups.

- Beside a running app whose library lives in a folder the user chose (settings.json's `libraryFolder`): after an edit
  in the window (in the library's journal: the state file is left as it was), and after another computer's
  `state.json` lands in the folder, it prints, with no display and no session bus, the library the app has (the
  file's edit merged in with the window's, before the app takes the file in and after), in the state file's format;
- a library that cannot be read (none yet, half written) gives a short message and a non-zero status, and leaves the
  folder as it was; the folder's lock, held by a save under way, does not hold it up.
"""
import fcntl
import json
import os
import subprocess
import zlib

from drag_helpers import gallery_state, name_of
from harness import DEFAULT_BINARY, DISTINCT_IMAGES, wait_until

NAMES = [spec[0] for spec in DISTINCT_IMAGES[:4]]


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


def in_folder(app, folder, state):
    """Makes `folder` the app's library, as Move Library… leaves it, holding `state`."""
    os.makedirs(folder)
    with open(os.path.join(folder, "state.json"), "w") as out:
        json.dump(state, out)
    settings = os.path.join(app.config_home, "image-gallery")
    os.makedirs(settings, exist_ok=True)
    with open(os.path.join(settings, "settings.json"), "w") as out:
        json.dump({"libraryFolder": folder}, out)


def test_print_state_beside_a_running_app_after_an_edit_and_a_state_file_put_in_the_folder(make_app, http_server,
                                                                                           tmp_path):
    folder = str(tmp_path / "Sync" / "Gallery")
    file = os.path.join(folder, "state.json")
    app = make_app(None)
    in_folder(app, folder, gallery_state([http_server.add_image(*spec) for spec in DISTINCT_IMAGES[:4]]))
    with open(file, "rb") as f:
        carried_over = f.read()
    app.start()
    app.wait_cells(lambda cs: len(cs) == 4 and all(c.settled for c in cs), 30, what="4 cells loaded")

    def images(library):
        return [(name_of(i["url"]), i.get("note")) for i in library["galleries"][0]["images"]]

    # An edit in the window, the first image one place to the right: in the journal, never in the state file.
    app.focus()
    app.key("Home alt+Right")
    moved = [NAMES[1], NAMES[0]] + NAMES[2:]
    edited = app.wait_state(lambda s: [name for name, _ in images(s)] == moved, 10, "the move saved")
    assert printed(app.env()) == edited
    with open(file, "rb") as f:
        assert f.read() == carried_over

    # Another computer (an older version) wrote a note on the third image into the file it last saw; the sync tool
    # put it in place. The window's move, which that file never saw, stays.
    theirs = json.loads(carried_over)
    theirs["galleries"][0]["images"][2]["note"] = "From the other computer"
    landing = os.path.join(folder, ".syncthing.state.json.tmp")
    with open(landing, "w") as out:
        json.dump(theirs, out)
    with open(landing, "rb") as f:
        landed = f.read()
    os.rename(landing, file)
    expected = [(NAMES[1], None), (NAMES[0], None), (NAMES[2], "From the other computer"), (NAMES[3], None)]
    # Before the app takes it in or after: the same library.
    first = printed(app.env())
    assert images(first) == expected
    wait_until(lambda: taken_in(app) == (len(landed), zlib.crc32(landed)), 10, 0.05, "the app to take the file in")
    after = printed(app.env())
    assert after == first
    assert images(app.state()) == expected
    with open(file, "rb") as f:
        assert f.read() == landed


def taken_in(app):
    """The length and CRC-32 of the last state.json the app took in, from this computer's record of it."""
    try:
        with open(os.path.join(app.root, ".local", "state", "image-gallery", "journal-state-file.json")) as f:
            record = json.load(f)
    except (OSError, ValueError):
        return None
    return record.get("size"), record.get("checksum")


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
