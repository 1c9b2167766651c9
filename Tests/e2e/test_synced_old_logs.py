"""Issue 48, end to end with the real engine: a computer removes a log it left once every snapshot covers it, and
Syncthing deletes it on the other computer while that computer's app runs: the app there shows no error, keeps every
edit and goes on taking the first computer's edits in. The first computer's log is damaged by hand between two of its
runs (a record no reader can read after its last one): the quickest way to a log it leaves, since its next launch goes
on under a new id and, at the snapshot its first edit writes, removes the old log (no other snapshot covers it less:
the other computer launched on the first one's snapshot and has written none)."""
import json
import os

import harness
from drag_helpers import wait_order
from harness import wait_until
from syncthing_peers import Peers
from test_synced_library import SPECS, NAMES, approve, library, library_state, place_library, second_desktop


def journal(peer):
    return os.path.join(peer.folder, "journal")


def computer(app):
    with open(os.path.join(app.root, ".local", "state", "image-gallery", "journal-computer")) as f:
        return f.read().strip()


def snapshots(peer):
    return [n for n in os.listdir(journal(peer)) if n.startswith("snapshot-")] if os.path.isdir(journal(peer)) else []


def no_error(app):
    assert app.find_by_name("could not be saved", contains=True) is None


def test_an_old_log_deleted_under_the_other_computers_app_loses_nothing(desktop, http_server, app_binary, tmp_path):
    served = [http_server.add_image(*spec) for spec in SPECS]
    peers = Peers(str(tmp_path))
    with open(os.path.join(peers.a.folder, "state.json"), "w") as f:
        json.dump(library_state(served), f)
    other_desktop = None
    apps = []
    try:
        peers.start()
        peers.wait_in_sync()
        other_desktop = second_desktop()
        made = {}
        for peer, screen in ((peers.a, desktop), (peers.b, other_desktop)):
            root = str(tmp_path / ("computer-" + peer.name))
            place_library(root, peer.folder)
            approve(root, [image.url for image in served])
            made[peer.name] = harness.App(None, {"AT_SPI_BUS_ADDRESS": desktop.a11y_address}, desktop=screen,
                                          root=root, binary=app_binary)
        laptop, other = made["a"], made["b"]
        apps = [laptop, other]
        laptop.start()
        laptop.wait_settled(len(SPECS))
        laptop.focus()
        laptop.key("Home alt+Right")
        moved = [NAMES[1], NAMES[0]] + NAMES[2:]
        wait_order(laptop, moved, complete=True, what="the move")
        # The other computer launches on the laptop's snapshot: it owes none of its own.
        wait_until(lambda: snapshots(peers.b), 60, 0.2, "the laptop's snapshot on the other computer")
        other.start()
        other.wait_settled(len(SPECS))
        wait_order(other, moved, complete=True, what="the move on the other computer")
        laptop.stop()
        old = computer(laptop)
        old_log = old + ".log"
        with open(os.path.join(journal(peers.a), old_log), "ab") as f:
            f.write(b"zzzzzzzz zzzzzzzz {}\n")
        laptop.start()
        laptop.wait_settled(len(SPECS))
        laptop.focus()
        wait_order(laptop, moved, complete=True, what="the move after a launch on the damaged log")
        laptop.key("End alt+Left")
        again = [NAMES[1], NAMES[0], NAMES[2], NAMES[4], NAMES[3]]
        wait_order(laptop, again, complete=True, what="the second move")
        assert computer(laptop) != old
        wait_until(lambda: not os.path.exists(os.path.join(journal(peers.a), old_log)), 30, 0.2,
                   "the old log removed by the laptop's snapshot")
        wait_until(lambda: not os.path.exists(os.path.join(journal(peers.b), old_log)), 60, 0.2,
                   "Syncthing deleting the old log on the other computer")
        wait_order(other, again, timeout=60, complete=True, what="the second move on the other computer")
        # It goes on taking the laptop's edits in.
        laptop.key("Home alt+Right")
        third = [NAMES[0], NAMES[1], NAMES[2], NAMES[4], NAMES[3]]
        wait_order(laptop, third, complete=True, what="the third move")
        wait_order(other, third, timeout=60, complete=True, what="the third move on the other computer")
        for app in apps:
            no_error(app)
        wait_until(lambda: library(laptop) == library(other), 30, 0.2, "both folders printing the same library")
        other.stop()
        other.start()
        other.wait_settled(len(SPECS))
        wait_order(other, third, complete=True, what="the third move after the other computer's relaunch")
    finally:
        for app in apps:
            app.stop(check=False)
        peers.stop()
        if other_desktop is not None:
            other_desktop.stop()
