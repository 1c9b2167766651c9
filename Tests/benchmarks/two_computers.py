#!/usr/bin/python3
"""Two computers through Syncthing (issue 48's goal: an edit on one shown on the other within 10 s, at most 1 MB sent
between them): `/usr/bin/python3 Tests/benchmarks/two_computers.py [--count 1000000] [--galleries 200] [--rounds 3]
[--watcher-delay 1]`.

Two apps ($IMAGE_GALLERY_BIN, else the release build, else debug), each on an Xvfb display of its own, on one library
folder that two Syncthing peers share on 127.0.0.1 (Tests/e2e/syncthing_peers.py, as test_synced_library.py runs
them: the file watcher on, `--watcher-delay` seconds, 1 as the tests have it; Syncthing's own default is 10). The
library is generated_library.py's (COUNT images in 200 galleries with origins, tags, notes and kept originals; made
once into million.py's folder and shared with it). Its journal is made once too, into
two-computers-COUNT-library/ beside it (by the binary of the first run): computer A's app carries the generated
state.json over and writes its first snapshot (at a first edit, a move there and back), is left until quiet and
stopped; the state.json is then taken out (the journal holds it all). Each run starts from it, not measured: both
peers' folders and A's own state folder are copies of it (the snapshot and originals linked, the logs copied, times
kept), so that a run carries nothing over and Syncthing sends no snapshot (each peer hashes its own copy, finds the
other's the same, and the two are in sync); then both apps are launched (A on its own state, B a new computer) and
left until each has read the whole library (the StallLog's `rest-adopted`, logged) and is quiet. A has the first image
selected; B shows the first gallery and the properties of its first image (opened with Alt+Return, the focus then
given back to the gallery's window, so that the note shown follows the library).

Then `--rounds` rounds of three edits made in A's window as a user makes them, each once the one before is shown on B
and the folder is in sync: a move (Alt+Right on the first image; Alt+Left back the next round), a tag (Ctrl+T, the tag
typed, Return) and a note (Alt+Return, Alt+N, the note typed, Escape). Each is timed from its last key until B's window
shows it, read over AT-SPI as the e2e tests read it (a move: the first two cells' addresses in B's gallery; a tag: the
Tags line of B's properties; a note: B's Note field), polled every 20 ms; on the way, when A's log had grown by the
edit (on A's disk) and when B's copy of A's log had reached that size (Syncthing's part). The bytes the two Syncthings
sent each other for it: /rest/system/connections' inBytesTotal + outBytesTotal of A's connection to B, from before
the key until the folder is in sync again and 2 s after; and the processor time B's GTK thread ran from the key until
B showed it (/proc/PID/task/PID/schedstat: taking the edit in, and answering the AT-SPI reads), with the threads of B
that ran most meanwhile and B's main-loop stalls over 8 ms (its StallLog, a build with the StallLog trait). Syncthing's
events on both peers for the edit (scans, index updates, the file fetched) are logged with their time from the key.
Printed: each edit, then the median (min-max) of each kind and of all. Not a test.
"""
import argparse
import filecmp
import glob
import json
import os
import shutil
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "e2e"))
sys.path.insert(0, HERE)
import harness  # noqa: E402
from harness import ROLE, wait_until  # noqa: E402
from generated_library import write_library  # noqa: E402
from syncthing_peers import Peers  # noqa: E402
from test_synced_library import second_desktop  # noqa: E402
from versus_gthumb import HOMES, log, run_alone  # noqa: E402


def generated(count, galleries):
    """The generated library's folder (state.json and originals/), made once and shared with million.py."""
    name = "million-%d" % count if galleries == 200 else "million-%d-in-%d" % (count, galleries)
    folder = os.path.join(HOMES, name, "library")
    marker = os.path.join(folder, "generated-%d" % count)
    if not os.path.exists(marker):
        log("generating %d images ..." % count)
        write_library(folder, count, galleries, log=log)
        open(marker, "w").close()
    return folder


def link_or_copy(source, target):
    """Files the app and Syncthing only ever replace by a rename (a snapshot, a copy of a state file) are linked;
    what either writes into (a log, a record, a lock) is copied, times kept, so that both peers' copies agree."""
    if os.path.getsize(source) > 1 << 20 and not source.endswith(".log"):
        os.link(source, target)
    else:
        shutil.copy2(source, target)


def copy_prepared(source, target):
    """`source`'s tree into `target` (made if need be), its big files linked."""
    os.makedirs(target, exist_ok=True)
    shutil.copytree(source, target, copy_function=link_or_copy, dirs_exist_ok=True, symlinks=True)


def place_library(root, folder):
    """What Move Library leaves in this computer's settings: the library lives in `folder`."""
    settings = os.path.join(root, "config", "image-gallery")
    os.makedirs(settings, exist_ok=True)
    with open(os.path.join(settings, "settings.json"), "w") as f:
        json.dump({"libraryFolder": folder}, f)


def cpu_seconds(pid):
    with open("/proc/%d/stat" % pid) as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def wait_quiet(app, share=0.05, still=2.0, limit=600):
    """Until the app's processor time grows by less than `share` of the time for `still` seconds."""
    window = [(time.monotonic(), cpu_seconds(app.proc.pid))]
    started = window[0][0]
    while time.monotonic() - started < limit:
        time.sleep(0.25)
        window.append((time.monotonic(), cpu_seconds(app.proc.pid)))
        while window[-1][0] - window[0][0] > still + 0.01:
            window.pop(0)
        span = window[-1][0] - window[0][0]
        if span >= still - 0.3 and window[-1][1] - window[0][1] <= share * span:
            return
    log("  (%s not quiet after %d s)" % (app.root, limit))


def main_thread_ms(app):
    """Processor time the app's GTK thread (its main thread) has run, in ms."""
    with open("/proc/%d/task/%d/schedstat" % (app.proc.pid, app.proc.pid)) as stat:
        return int(stat.read().split()[0]) / 1e6


def thread_times(pid):
    """{thread: (its name, its processor time in s)} of the process's threads."""
    times = {}
    for task in glob.glob("/proc/%d/task/*" % pid):
        try:
            with open(os.path.join(task, "stat")) as f:
                head, _, tail = f.read().rpartition(")")
            fields = tail.split()
            times[int(os.path.basename(task))] = (head.partition("(")[2],
                                                  (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK"))
        except (OSError, ValueError):
            pass
    return times


def busiest_threads(before, after, top=4):
    """The threads that ran most between two `thread_times`, by name: "name 1.23 s, ..."."""
    by_name = {}
    for tid, (name, seconds) in after.items():
        by_name[name] = by_name.get(name, 0) + seconds - before.get(tid, (name, 0))[1]
    ranked = sorted(((s, n) for n, s in by_name.items() if s > 0), reverse=True)[:top]
    return ", ".join("%s %.2f s" % (n, s) for s, n in ranked) or "none"


def stall_lines(app):
    """The StallLog's lines, its start on CLOCK_MONOTONIC (Python's time.monotonic()): (start, lines)."""
    try:
        with open(os.path.join(app.root, "stalls.log")) as f:
            lines = f.read().splitlines()
    except OSError:
        return None, []
    start = next((float(line.split()[1]) for line in lines if line.startswith("start ")), None)
    return start, lines


def stall_events(app, what):
    """When the app noted `what` in its StallLog (monotonic s)."""
    _, lines = stall_lines(app)
    return [float(line.split()[1]) for line in lines if line.startswith("event ") and line.split()[2:] == [what]]


def stalls_between(app, since, until):
    """The main loop's stalls over 8 ms between two monotonic times: [(at, ms)]."""
    start, lines = stall_lines(app)
    if start is None:
        return []
    found = []
    for line in lines:
        fields = line.split()
        if fields[0] == "stall":
            ended = start + float(fields[1])
            if since <= ended <= until + 0.01:
                found.append((ended - float(fields[2]) / 1000, float(fields[2])))
    return found


def size_of(path):
    try:
        return os.path.getsize(path)
    except OSError:
        return 0


def first_two(app):
    """The addresses of the first two cells of the app's gallery, read once."""
    gallery = app.gallery()
    if gallery is None:
        return None
    try:
        children = gallery.children()[:2]
        return [child.description for child in children]
    except harness.A11yError:
        app._gallery = None
        return None


# Syncthing's events that say where an edit's time goes: A's scan found it, B was told, B fetched it.
WATCHED_EVENTS = ("LocalChangeDetected", "LocalIndexUpdated", "RemoteIndexUpdated", "RemoteChangeDetected",
                  "ItemStarted", "ItemFinished", "StateChanged")


def last_event(peer):
    events = peer.rest("/rest/events?timeout=0&limit=1") or []
    return events[-1]["id"] if events else 0


def event_time(event):
    """Syncthing's event time (RFC 3339 with nanoseconds) as a Unix time."""
    import datetime
    stamp = event["time"]
    head, _, rest = stamp.partition(".")
    digits = "".join(ch for ch in rest if ch.isdigit())
    zone = rest[len(digits):]
    parsed = datetime.datetime.fromisoformat(head + ("+00:00" if zone == "Z" else zone))
    return parsed.timestamp() + float("0." + (digits or "0"))


def sent_between(peers):
    """Bytes A's Syncthing sent to and received from B's, so far."""
    connection = (peers.a.rest("/rest/system/connections") or {}).get("connections", {}).get(peers.b.device_id, {})
    return connection.get("inBytesTotal", 0) + connection.get("outBytesTotal", 0)


class Computers:
    def __init__(self, root, binary, library, watcher_delay):
        self.root = root
        self.binary = binary
        self.library = library
        self.peers = Peers(root)
        self._set_watcher_delay(watcher_delay)
        self.desktop_a = harness.start_desktop()
        self.desktop_b = second_desktop()
        self.a = self.b = None

    def _set_watcher_delay(self, delay):
        import xml.etree.ElementTree as ET
        for peer in (self.peers.a, self.peers.b):
            path = os.path.join(peer.home, "config.xml")
            tree = ET.parse(path)
            for folder in tree.getroot().findall("folder"):
                folder.set("fsWatcherDelayS", str(delay))
            tree.write(path)

    def app(self, name, folder, desktop):
        root = os.path.join(self.root, "computer-" + name)
        place_library(root, folder)
        # A StallLog build notes its main loop's stalls there, and when the rest of the library was taken in.
        return harness.App(None, {"AT_SPI_BUS_ADDRESS": self.desktop_a.a11y_address,
                                  "IMAGE_GALLERY_STALL_LOG": os.path.join(root, "stalls.log")},
                           desktop=desktop, root=root, binary=self.binary)

    def a_log(self):
        """A's own log in the folder, named after its computer id (kept in its own state folder)."""
        with open(os.path.join(self.a.root, ".local", "state", "image-gallery", "journal-computer")) as f:
            return os.path.join(self.peers.a.folder, "journal", f.read().strip() + ".log")

    def prepare(self, prepared):
        """The library both computers start from, made once into `prepared` by computer A's app: it carries the
        generated state.json over into its journal and writes its first snapshot (at a first edit, a move there and
        back), is left until quiet and stopped; the state.json is then taken out (the journal holds it all), and the
        copy of it A keeps in its own state folder linked to the generated file (the same bytes)."""
        if os.path.exists(os.path.join(prepared, "prepared")):
            return
        shutil.rmtree(prepared, ignore_errors=True)
        folder = os.path.join(prepared, "library")
        os.makedirs(folder)
        os.link(os.path.join(self.library, "state.json"), os.path.join(folder, "state.json"))
        subprocess.run(["cp", "-al", os.path.join(self.library, "originals"), folder], check=True)
        began = time.monotonic()
        root = os.path.join(prepared, "computer-a")
        place_library(root, folder)
        app = harness.App(None, {"AT_SPI_BUS_ADDRESS": self.desktop_a.a11y_address}, desktop=self.desktop_a,
                          root=root, binary=self.binary)
        try:
            app.start(timeout=1200)
            app.wait_cells(lambda cs: len(cs) > 2 and all(c.settled for c in cs), 1200, 1, "A's first screen")
            log("preparing: A carried the library over and shows it after %.0f s" % (time.monotonic() - began))
            # A first edit writes the first snapshot of a launch that read none.
            app.focus()
            app.key("Home")
            time.sleep(0.5)
            app.key("alt+Right")
            time.sleep(0.5)
            app.key("alt+Left")
            wait_until(lambda: glob.glob(os.path.join(folder, "journal", "snapshot-*.json")), 1200, 1,
                       "A's first snapshot")
            wait_quiet(app)
        finally:
            app.stop(check=False)
        os.unlink(os.path.join(folder, "state.json"))
        kept = os.path.join(root, ".local", "state", "image-gallery", "journal-state-file-copy.json")
        if os.path.exists(kept) and filecmp.cmp(kept, os.path.join(self.library, "state.json"), shallow=False):
            os.unlink(kept)
            os.link(os.path.join(self.library, "state.json"), kept)
        open(os.path.join(prepared, "prepared"), "w").close()
        log("preparing: the journal made (%.0f MB) after %.0f s"
            % (sum(size_of(p) for p in glob.glob(os.path.join(folder, "journal", "*"))) / 1e6,
               time.monotonic() - began))

    def set_up(self, prepared):
        """Both peers' folders and A's own state start as `prepared` left them (linked, logs copied); then the
        peers are started and left until in sync (each has hashed its copy, nothing to fetch), B's app launched,
        both apps left until they have read the whole library and are quiet."""
        began = time.monotonic()
        for folder in (self.peers.a.folder, self.peers.b.folder):
            copy_prepared(os.path.join(prepared, "library"), folder)
        copy_prepared(os.path.join(prepared, "computer-a"), os.path.join(self.root, "computer-a"))
        self.peers.start()
        self.peers.wait_in_sync(3600)
        conflicts = [name for folder in (self.peers.a.folder, self.peers.b.folder) for _, _, names in os.walk(folder)
                     for name in names if ".sync-conflict-" in name]
        if conflicts:
            raise RuntimeError("the two copies of the prepared library did not sync as the same: %s" % conflicts)
        log("the folder in sync on both peers after %.0f s, %.1f kB sent between them (load %.1f)"
            % (time.monotonic() - began, sent_between(self.peers) / 1e3, os.getloadavg()[0]))
        self.a = self.app("a", self.peers.a.folder, self.desktop_a)
        self.a.start(timeout=1200)
        self.b = self.app("b", self.peers.b.folder, self.desktop_b)
        self.b.start(timeout=1200)
        self.a.wait_cells(lambda cs: len(cs) > 2 and all(c.settled for c in cs), 1200, 1, "A's first screen")
        # A: the first image selected, which the edits are made to.
        self.a.focus()
        self.a.key("Home")
        self.a.wait_cells(lambda cs: cs[0].selected, 30, what="A's first image selected")
        self.b.wait_cells(lambda cs: len(cs) > 2 and all(c.settled for c in cs), 1200, 1, "B's first screen")
        wait_until(lambda: first_two(self.b) == first_two(self.a), 60, 0.2, "B showing A's order")
        # B: the first image's properties open, the focus back on the gallery's window.
        self.b.focus()
        self.b.key("Home")
        self.b.wait_cells(lambda cs: cs[0].selected, 30, what="B's first image selected")
        self.b.key("alt+Return")
        properties = wait_until(lambda: self.b.find_by_name("Image Properties"), 60, 0.2,
                                "B's properties")
        # Found once: a walk of B's whole tree (two hundred galleries in the sidebar) takes seconds a time.
        self.b_note_field = wait_until(lambda: self.b.find_by_name("Note", ROLE.TEXT, root=properties), 60, 0.2,
                                       "B's note field")
        self.b_tag_labels = self.b.find_all(lambda acc: acc.name == "Tags" and acc.role_name == "label",
                                            root=properties)
        self.b.focus()
        wait_quiet(self.a)
        wait_quiet(self.b)
        for app in (self.a, self.b):
            adopted = stall_events(app, "rest-adopted")
            log("%s: %s" % (os.path.basename(app.root), "the rest of the library taken in at %.0f s"
                            % (adopted[0] - began) if adopted else "no rest-adopted in its stall log (read whole at "
                            "launch, or a build without the StallLog trait)"))
        self.peers.wait_in_sync(600)
        log("set up after %.0f s" % (time.monotonic() - began))

    def b_tags(self):
        return " ".join(harness._safe(lambda: label.description, "") or "" for label in self.b_tag_labels)

    def b_note(self):
        return harness._safe(lambda: self.b_note_field.text(), "") or ""

    def measure(self, kind, keys_then, shown):
        """Makes the edit (`keys_then()` sends its keys and returns the time of the last), times it until `shown()`."""
        log_path = self.a_log()
        b_copy = os.path.join(self.peers.b.folder, "journal", os.path.basename(log_path))
        log_before = size_of(log_path)
        bytes_before = sent_between(self.peers)
        events = {peer.name: last_event(peer) for peer in (self.peers.a, self.peers.b)}
        pressed = keys_then()
        # From the last key: what B did while A's dialogs opened and the text was typed is not the edit's.
        b_main = main_thread_ms(self.b)
        b_threads = thread_times(self.b.proc.pid)
        wall = time.time() - (time.monotonic() - pressed)
        on_disk = synced = None
        deadline = pressed + 120
        while time.monotonic() < deadline:
            now = time.monotonic()
            if on_disk is None and size_of(log_path) > log_before:
                on_disk = now
            if on_disk is not None and synced is None and size_of(b_copy) >= size_of(log_path):
                synced = now
            if shown():
                seen = time.monotonic()
                break
            time.sleep(0.02)
        else:
            seen = None
        b_main = main_thread_ms(self.b) - b_main
        b_busiest = busiest_threads(b_threads, thread_times(self.b.proc.pid))
        b_stalls = stalls_between(self.b, pressed, seen if seen is not None else time.monotonic())
        time.sleep(2)
        self.peers.wait_in_sync(120)
        time.sleep(2)
        sent = sent_between(self.peers) - bytes_before
        for peer in (self.peers.a, self.peers.b):
            for event in peer.rest("/rest/events?timeout=0&since=%d" % events[peer.name]) or []:
                if event["type"] in WATCHED_EVENTS:
                    data = event.get("data") or {}
                    log("    %s %+.2f s %s %s" % (peer.name, event_time(event) - wall, event["type"],
                                                  data.get("item") or data.get("path") or data.get("to") or ""))
        figure = {"kind": kind, "shown": None if seen is None else seen - pressed,
                  "on_disk": None if on_disk is None else on_disk - pressed,
                  "synced": None if synced is None else synced - pressed,
                  "bytes": sent, "b_main_ms": b_main, "log_bytes": size_of(log_path) - log_before, "load": os.getloadavg()[0]}
        log("  %s: shown on B after %s (on A's disk %s, B's copy %s), %.1f kB sent between the Syncthings, "
            "A's log +%d B, B's GTK thread %.0f ms until shown (load %.1f)" % (
                kind, seconds(figure["shown"]), seconds(figure["on_disk"]), seconds(figure["synced"]),
                sent / 1e3, figure["log_bytes"], b_main, figure["load"]))
        log("    B's threads until shown: %s; B's stalls over 8 ms: %d, %.0f ms in all, the longest %s"
            % (b_busiest, len(b_stalls), sum(ms for _, ms in b_stalls),
               "%.0f ms at %+.2f s" % max(((ms, at - pressed) for at, ms in b_stalls)) if b_stalls else "–"))
        figure["b_stall_ms"] = max((ms for _, ms in b_stalls), default=0)
        return figure

    def round(self, number):
        a, b = self.a, self.b
        figures = []
        a.focus()
        before = first_two(a)
        key = "alt+Right" if number % 2 == 0 else "alt+Left"

        def move():
            a.focus()
            at = time.monotonic()
            a.key(key)
            return at
        figures.append(self.measure("move", move, lambda: first_two(b) == before[::-1]))

        tag = "benchtag%d" % number

        def add_tag():
            a.focus()
            a.key("ctrl+t")
            wait_until(lambda: a.find_by_name("Tags of 1 Image"), 60, 0.1, "A's tags dialog")
            a.desktop.type_text(tag)
            at = time.monotonic()
            a.key("Return")
            return at
        figures.append(self.measure("tag", add_tag, lambda: tag in self.b_tags()))
        if a.find_by_name("Tags of 1 Image"):
            a.key("Escape")

        note = "benchnote%d" % number

        def write_note():
            a.focus()
            a.key("alt+Return")
            wait_until(lambda: a.find_by_name("Note", ROLE.TEXT), 60, 0.1, "A's properties")
            a.key("alt+n")
            a.desktop.type_text(note)
            at = time.monotonic()
            a.key("Escape")
            return at
        figures.append(self.measure("note", write_note, lambda: note in self.b_note()))
        wait_until(lambda: a.find_by_name("Image Properties") is None, 30, 0.1, "A's properties to close")
        return figures

    def stop(self):
        for app in (self.a, self.b):
            if app is not None:
                app.stop(check=False)
        self.peers.stop()
        self.desktop_b.stop()
        harness.stop_desktop()


def seconds(value):
    return "–" if value is None else "%.2f s" % value


def cell(values, scale, unit, digits):
    values = [v / scale for v in values if v is not None]
    if not values:
        return "–"
    return "%.*f %s (%.*f–%.*f)" % (digits, statistics.median(values), unit, digits, min(values), digits, max(values))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--count", type=int, default=1000000)
    parser.add_argument("--galleries", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--watcher-delay", type=float, default=1)
    args = parser.parse_args()
    run_alone()
    binary = harness.benchmark_binary()
    library = generated(args.count, args.galleries)
    name = "two-computers-%d" % args.count if args.galleries == 200 else "two-computers-%d-in-%d" % (
        args.count, args.galleries)
    prepared = os.path.join(HOMES, name + "-library")
    root = os.path.join(HOMES, name)
    shutil.rmtree(root, ignore_errors=True)
    os.makedirs(root)
    computers = Computers(root, binary, library, args.watcher_delay)
    figures = []
    try:
        computers.prepare(prepared)
        computers.set_up(prepared)
        for number in range(args.rounds):
            log("round %d/%d (load %.1f)" % (number + 1, args.rounds, os.getloadavg()[0]))
            figures += computers.round(number)
    finally:
        computers.stop()
    print("binary: %s, %d images in %d galleries, Syncthing's watcher delay %g s, %d rounds"
          % (binary, args.count, args.galleries, args.watcher_delay, args.rounds))
    print("| edit | shown on B after | on A's disk after | on B's disk after | sent between the Syncthings | "
          "B's GTK thread until shown | B's longest stall until shown |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    for kind in ("move", "tag", "note", None):
        chosen = [f for f in figures if kind is None or f["kind"] == kind]
        print("| %s | %s | %s | %s | %s | %s | %s |" % (
            kind or "all", cell([f["shown"] for f in chosen], 1, "s", 2), cell([f["on_disk"] for f in chosen], 1, "s", 2),
            cell([f["synced"] for f in chosen], 1, "s", 2), cell([f["bytes"] for f in chosen], 1e3, "kB", 1),
            cell([f["b_main_ms"] for f in chosen], 1, "ms", 0), cell([f["b_stall_ms"] for f in chosen], 1, "ms", 0)))
    loads = [f["load"] for f in figures]
    if loads:
        print("load average during the edits: %.1f–%.1f" % (min(loads), max(loads)))


if __name__ == "__main__":
    main()
