"""The browser extension's native messaging host (`image-gallery --browser-host`) on its own, no browser: what it
answers, that it starts the app when none is running, and that the running app tells where a sent image landed.

Run from the repository root with Debian's python:
    /usr/bin/python3 -m pytest -p no:cacheprovider Tests/e2e/test_browser_host.py -x -v
"""

import json
import os
import signal
import struct
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import harness  # noqa: E402
from harness import wait_until  # noqa: E402
from test_page_picker import show_added, two_galleries  # noqa: E402

APP_ID = "io.github.imagegallery.ImageGallery"


def framed(message):
    data = json.dumps(message).encode()
    return struct.pack("=I", len(data)) + data


def answers(output):
    found = []
    while len(output) >= 4:
        (length,) = struct.unpack("=I", output[:4])
        found.append(json.loads(output[4:4 + length]))
        output = output[4 + length:]
    return found


def bus_owner_pid(env):
    out = subprocess.run(["dbus-send", "--session", "--print-reply=literal", "--dest=org.freedesktop.DBus",
                          "/org/freedesktop/DBus", "org.freedesktop.DBus.GetConnectionUnixProcessID",
                          "string:" + APP_ID], env=env, capture_output=True, text=True, timeout=10)
    words = out.stdout.split()
    return int(words[-1]) if out.returncode == 0 and words else None


def test_the_host_starts_the_app_when_it_is_not_running(desktop, make_app, http_server):
    image = http_server.add_image("lime", 160, 120, (120, 200, 40))
    app = make_app({"version": 1, "galleries": [{"id": "g-dogs", "name": "Dogs", "images": []}]})
    app.write_state()
    app._bus_proc, app._bus_address = desktop.new_session_bus()
    env = app.env()
    started = time.monotonic()
    host = subprocess.run([app.binary, "--browser-host"], env=env, timeout=60, capture_output=True, input=framed({
        "kind": "image", "page": {"address": "http://127.0.0.1/dogs.html", "title": "Dogs"},
        "image": {"address": image.url, "altText": "a lime dog"}}))
    pid = bus_owner_pid(env)
    try:
        assert answers(host.stdout) == [{"ok": True}], host.stderr.decode(errors="replace")
        assert pid is not None, "no process owns %s after the host answered" % APP_ID

        def landed():
            try:
                images = app.state()["galleries"][0]["images"]
            except (OSError, ValueError, KeyError, IndexError):
                return None
            return images[0] if len(images) == 1 and images[0].get("url") == image.url else None

        record = wait_until(landed, 30, 0.2, "the image in “Dogs”",
                            lambda: app.state_text()[-2000:])
        assert record["origin"]["page"] == "http://127.0.0.1/dogs.html"
        print("started, handed and saved in %.1f s" % (time.monotonic() - started))
    finally:
        if pid is not None:
            os.kill(pid, signal.SIGTERM)
            wait_until(lambda: not os.path.exists("/proc/%d" % pid) or
                       open("/proc/%d/stat" % pid).read().split()[2] == "Z", 20, 0.1, "the started app to quit")


def test_a_malformed_message_is_answered_with_an_error_and_starts_nothing(desktop, make_app):
    app = make_app()
    app._bus_proc, app._bus_address = desktop.new_session_bus()
    env = app.env()
    stream = framed({"kind": "image", "page": {"address": "javascript:alert(1)"}, "image": {}})
    stream += struct.pack("=I", 64 << 20)
    host = subprocess.run([app.binary, "--browser-host"], env=env, timeout=30, capture_output=True, input=stream)
    assert answers(host.stdout) == [
        {"ok": False, "error": "“page.address” must be an http or https address"},
        {"ok": False, "error": "the message is 67108864 bytes, over the limit of 1048576"},
    ]
    assert host.returncode == 1
    assert bus_owner_pid(env) is None
    assert app.library_files() == {}, "the library folder was written"


def test_an_image_sent_through_the_host_is_told_once_it_landed_and_show_selects_it(desktop, make_app, http_server):
    image = http_server.add_image("plum", 160, 120, (140, 40, 110))
    existing = http_server.add_image("sand", 120, 120, (210, 190, 140))
    app = make_app(two_galleries(existing))
    app.start()
    app.wait_cells(lambda cs: len(cs) == 1 and cs[0].settled, timeout=30, what="the existing image, loaded")
    started = time.monotonic()
    host = subprocess.run([app.binary, "--browser-host"], env=app.env(), timeout=60, capture_output=True,
                          input=framed({"kind": "image", "page": {"address": "http://127.0.0.1/cats.html"},
                                        "image": {"address": image.url}}))
    assert answers(host.stdout) == [{"ok": True}], host.stderr.decode(errors="replace")
    show_added(app, desktop, "1 image added to “Cats”", "Cats", [image.url])
    print("sent, told and shown in %.1f s" % (time.monotonic() - started))
