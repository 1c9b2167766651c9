"""Two Syncthing peers on 127.0.0.1 sharing one folder (issue 33), as /work/shared/notes/syncthing-loopback.md
describes: each with its own home and config, discovery, relays and NAT traversal off, the folder rescanned by
its file watcher. `in_sync()` asks both over their REST API whether anything is left to exchange."""
import json
import os
import re
import socket
import subprocess
import time
import urllib.request
import xml.etree.ElementTree as ET

from harness import HarnessError, wait_until

FOLDER_ID = "gallery"
# What the app writes beside its state and must not travel: the lock two local copies take turns with, and
# a save's temporary file (renamed over state.json within milliseconds).
STIGNORE = ".state.json.lock\n.state.json.*.tmp\n"


def _free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Peer:
    def __init__(self, root, name):
        self.name = name
        self.home = os.path.join(root, "syncthing-" + name)
        self.folder = os.path.join(root, "synced-" + name)
        os.makedirs(os.path.join(self.folder, ".stfolder"), exist_ok=True)
        with open(os.path.join(self.folder, ".stignore"), "w") as f:
            f.write(STIGNORE)
        self.port, self.gui_port = _free_port(), _free_port()
        self.api_key = "e2e-" + name
        self.env = dict(os.environ, STNODEFAULTFOLDER="1", STNOUPGRADE="1", HOME=self.home)
        out = subprocess.run(["syncthing", "generate", "--home=" + self.home], env=self.env, capture_output=True,
                             text=True, timeout=60)
        found = re.search(r"Device ID: (\S+)", out.stdout + out.stderr)
        if not found:
            raise HarnessError("syncthing generate gave no device id: %s" % (out.stdout + out.stderr))
        self.device_id = found.group(1)
        self.proc = None

    def configure(self, other):
        path = os.path.join(self.home, "config.xml")
        tree = ET.parse(path)
        root = tree.getroot()
        for folder in root.findall("folder"):
            root.remove(folder)
        options = root.find("options")
        for tag, value in [("globalAnnounceEnabled", "false"), ("localAnnounceEnabled", "false"),
                           ("relaysEnabled", "false"), ("natEnabled", "false"), ("startBrowser", "false"),
                           ("crashReportingEnabled", "false"), ("urAccepted", "-1"), ("autoUpgradeIntervalH", "0")]:
            node = options.find(tag)
            if node is None:
                node = ET.SubElement(options, tag)
            node.text = value
        for node in options.findall("listenAddress"):
            options.remove(node)
        ET.SubElement(options, "listenAddress").text = "tcp://127.0.0.1:%d" % self.port
        gui = root.find("gui")
        gui.find("address").text = "127.0.0.1:%d" % self.gui_port
        gui.find("apikey").text = self.api_key
        for device in root.findall("device"):
            device.find("address").text = "tcp://127.0.0.1:%d" % self.port
        theirs = ET.SubElement(root, "device", id=other.device_id, name=other.name, compression="metadata",
                               introducer="false")
        ET.SubElement(theirs, "address").text = "tcp://127.0.0.1:%d" % other.port
        folder = ET.Element("folder", id=FOLDER_ID, label=FOLDER_ID, path=self.folder, type="sendreceive",
                            rescanIntervalS="10", fsWatcherEnabled="true", fsWatcherDelayS="1")
        for device_id in (self.device_id, other.device_id):
            ET.SubElement(folder, "device", id=device_id)
        root.insert(0, folder)
        tree.write(path)

    def start(self):
        self.log = open(os.path.join(os.path.dirname(self.home), "syncthing-%s.log" % self.name), "ab")
        self.proc = subprocess.Popen(["syncthing", "serve", "--home=" + self.home, "--no-browser", "--no-restart"],
                                     env=self.env, stdin=subprocess.DEVNULL, stdout=self.log, stderr=self.log,
                                     start_new_session=True)
        wait_until(lambda: self.rest("/rest/system/ping") is not None, 60, 0.3, "syncthing %s's REST API" % self.name)

    def rest(self, path):
        request = urllib.request.Request("http://127.0.0.1:%d%s" % (self.gui_port, path),
                                         headers={"X-API-Key": self.api_key})
        try:
            with urllib.request.urlopen(request, timeout=5) as answer:
                return json.loads(answer.read())
        except OSError:
            return None

    def idle(self, other):
        status = self.rest("/rest/db/status?folder=" + FOLDER_ID)
        completion = self.rest("/rest/db/completion?folder=%s&device=%s" % (FOLDER_ID, other.device_id))
        return (status is not None and status.get("state") == "idle" and status.get("needFiles") == 0
                and completion is not None and completion.get("completion") == 100
                and completion.get("needItems", 0) == 0 and completion.get("needDeletes", 0) == 0)

    def stop(self):
        if self.proc is not None:
            self.proc.terminate()
            try:
                self.proc.wait(20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
            self.proc = None
            self.log.close()


class Peers:
    """Two peers, a and b, sharing the folder `gallery`; `a.folder` and `b.folder` are their copies of it."""

    def __init__(self, root):
        self.a, self.b = Peer(root, "a"), Peer(root, "b")
        self.a.configure(self.b)
        self.b.configure(self.a)

    def start(self):
        self.a.start()
        self.b.start()
        wait_until(lambda: (self.a.rest("/rest/system/connections") or {}).get("connections", {})
                   .get(self.b.device_id, {}).get("connected"), 60, 0.3, "the two syncthing peers connected")
        return self

    def in_sync(self):
        return self.a.idle(self.b) and self.b.idle(self.a)

    def wait_in_sync(self, timeout=120):
        """Waits until neither peer has anything left to exchange; returns when it saw that (time.monotonic())."""
        wait_until(lambda: self.in_sync() and self.in_sync(), timeout, 0.5, "the synced folder in sync on both peers",
                   lambda: "a: %s; b: %s" % (self.a.rest("/rest/db/status?folder=" + FOLDER_ID),
                                              self.b.rest("/rest/db/status?folder=" + FOLDER_ID)))
        return time.monotonic()

    def conflict_copies(self):
        return [os.path.join(folder, name) for folder in (self.a.folder, self.b.folder)
                for name in os.listdir(folder) if ".sync-conflict-" in name]

    def stop(self):
        self.a.stop()
        self.b.stop()
