"""Issue 48, end to end: this computer's journal log past the largest a launch reads (1 GiB: an older version's, or
one written by hand) does not stop the app saving. Its log is made 1 GiB and a byte long (a sparse file: its records,
then nothing); the app launched again shows the library the log holds, saves the next edit in a log of its own under a
new id, removes the old log once its snapshot covers all that reads of it (its records: the rest is no record), and
the launch after shows that edit too.
"""
import os

from drag_helpers import saved_names, wait_order
from test_library_storage import NAMES, launched

LIMIT = 1 << 30


def computer(app):
    with open(os.path.join(app.root, ".local", "state", "image-gallery", "journal-computer")) as f:
        return f.read().strip()


def log(app, computer_id):
    return os.path.join(app.state_dir, "journal", computer_id + ".log")


def test_a_log_over_the_limit_does_not_stop_saving(make_app, http_server):
    app = launched(make_app, http_server)
    app.key("Home alt+Right")
    moved = [NAMES[1], NAMES[0]] + NAMES[2:]
    wait_order(app, moved, complete=True, what="the window showing the move")
    app.stop()
    old = computer(app)
    os.truncate(log(app, old), LIMIT + 1)
    app.start()
    app.wait_settled(5)
    app.focus()
    wait_order(app, moved, complete=True, what="the move the old log holds, after a launch on it")
    app.key("End alt+Left")
    again = [NAMES[1], NAMES[0], NAMES[2], NAMES[4], NAMES[3]]
    wait_order(app, again, complete=True, what="the window showing the second move")
    app.stop()
    new = computer(app)
    assert new != old
    # No other computer's snapshot holds it back, and past its records nothing reads.
    assert not os.path.exists(log(app, old))
    assert os.path.getsize(log(app, new)) > 0
    app.start()
    app.wait_settled(5)
    wait_order(app, again, complete=True, what="the second move after a relaunch")
    assert saved_names(app) == again
