"""Helpers for the tests of the cell menu and the clipboard (issue 11): the menu and GTK's file chooser over
AT-SPI, the clipboard read from another process, and stand-ins for the desktop's browser and file manager."""
import os
import subprocess
import sys
import textwrap
import time

import harness
from drag_helpers import click_node, image_id
from harness import wait_until


def showing(app, name):
    return next(iter(app.find_all(lambda a: a.name == name and a.has_state("SHOWING"))), None)


def menu_item(app, name, timeout=5):
    """The showing item of the open menu with that name (its mnemonic's underscore is not part of it)."""
    return wait_until(lambda: showing(app, name), timeout, 0.1, "the menu item %r" % name,
                      lambda: "showing buttons: %r" % sorted({harness._safe(lambda: a.name) for a in app.find_all(
                          lambda a: a.role == harness.ROLE.PUSH_BUTTON and a.has_state("SHOWING"))}))


def right_click(desktop, cell):
    x, y = cell.center
    desktop.click(int(x), int(y), button=3)


def choose(app, desktop, cell, *path):
    """Right-clicks `cell` and clicks the menu items `path` in turn (a submenu, then its item)."""
    right_click(desktop, cell)
    for name in path:
        item = menu_item(app, name)
        assert item.role == harness.ROLE.PUSH_BUTTON, "%r is a %s" % (name, item.role_name)
        click_node(desktop, item)


def toast(app, text, timeout=10):
    """Waits for a showing label containing `text` (the toast's message); returns its whole text."""
    def find():
        for label in app.find_all(lambda a: a.role == harness.ROLE.LABEL and a.has_state("SHOWING")):
            name = harness._safe(lambda: label.name) or ""
            if text in name:
                return name
        return None
    return wait_until(find, timeout, 0.1, "a toast saying %r" % text)


def file_chooser(app, title, timeout=10):
    """GTK's own file chooser (no portal: GtkFileChooserNative shows it in the app), given the keyboard."""
    dialog = app.wait_for_object(title, harness.ROLE.FILE_CHOOSER, timeout=timeout)
    window = wait_until(lambda: harness._safe(lambda: app.desktop.xdotool(
        "search", "--onlyvisible", "--pid", app.proc.pid, "--name", "^%s$" % title).split()), 10, 0.1,
        "the %r window" % title)
    app.desktop.xdotool("windowfocus", "--sync", window[0])
    return dialog


def dialog_text(dialog):
    """The texts of the chooser's entries (the first is the name of the file to save)."""
    return [harness._safe(lambda: a.text(), "") for a in harness.walk(dialog)
            if harness._safe(lambda: a.role) == harness.ROLE.TEXT]


def type_into_chooser(desktop, text):
    """Replaces the focused entry's text (the name, or Ctrl+L's location) and accepts."""
    desktop.key("ctrl+a")
    desktop.type_text(text)
    time.sleep(0.3)  # the entry's completion settles before Return accepts
    desktop.key("Return")


def state_with(urls_by_gallery, sidebar=False):
    """state.json with galleries {name: [url, ...]} (ids "g0", "g1", … and image ids in order)."""
    galleries, n = [], 0
    for index, (name, urls) in enumerate(urls_by_gallery.items()):
        images = []
        for url in urls:
            n += 1
            images.append({"id": image_id(n), "url": url, "aspectRatio": 1.5})
        galleries.append({"id": "g%d" % index, "name": name, "images": images})
    return {"version": 1, "sidebarVisible": sidebar, "galleries": galleries}


# --- the clipboard, read as another application reads it ----------------------------------------------------

_CLIPBOARD_READER = textwrap.dedent("""
    import sys
    import gi
    gi.require_version("Gtk", "3.0")
    from gi.repository import Gdk, Gtk
    clipboard = Gtk.Clipboard.get(Gdk.SELECTION_CLIPBOARD)
    if sys.argv[1] == "TARGETS":
        ok, atoms = clipboard.wait_for_targets()
        sys.stdout.write("\\n".join(a.name() for a in atoms) if ok else "")
    else:
        data = clipboard.wait_for_contents(Gdk.Atom.intern(sys.argv[1], False))
        sys.stdout.buffer.write(data.get_data() if data is not None and data.get_length() >= 0 else b"")
""")


def read_clipboard(desktop, target):
    """What the CLIPBOARD selection's owner gives for `target` ("TARGETS": the target names), from a separate
    GTK process on the same display."""
    env = desktop.base_env()
    env["NO_AT_BRIDGE"] = "1"
    result = subprocess.run([sys.executable, "-c", _CLIPBOARD_READER, target], env=env, capture_output=True,
                            timeout=30)
    if result.returncode != 0:
        raise harness.HarnessError("the clipboard reader failed: %s" % result.stderr.decode(errors="replace"))
    return result.stdout


def wait_clipboard(desktop, target, predicate=lambda data: bool(data), timeout=10):
    last = {}

    def attempt():
        last["data"] = read_clipboard(desktop, target)
        return predicate(last["data"]) and last["data"]
    return wait_until(attempt, timeout, 0.2, "the clipboard's %s" % target, lambda: repr(last.get("data", b"")[:300]))


# --- the desktop's default applications, observed ---------------------------------------------------------------

def install_handler(app, name, mime_types, record):
    """A .desktop application in the app's XDG_DATA_HOME, the default for `mime_types` (mimeapps.list in its
    XDG_CONFIG_HOME), which appends each URI it is given to the file `record`. Call before app.start()."""
    applications = os.path.join(app.data_home, "applications")
    os.makedirs(applications, exist_ok=True)
    script = os.path.join(app.root, name + ".sh")
    with open(script, "w") as f:
        f.write("#!/bin/sh\nfor uri in \"$@\"; do printf '%%s\\n' \"$uri\" >> '%s'; done\n" % record)
    os.chmod(script, 0o755)
    with open(os.path.join(applications, name + ".desktop"), "w") as f:
        f.write("[Desktop Entry]\nType=Application\nName=%s\nExec=%s %%U\nMimeType=%s;\n"
                % (name, script, ";".join(mime_types)))
    mimeapps = os.path.join(app.config_home, "mimeapps.list")
    lines = open(mimeapps).read() if os.path.exists(mimeapps) else "[Default Applications]\n"
    lines += "".join("%s=%s.desktop\n" % (mime, name) for mime in mime_types)
    with open(mimeapps, "w") as f:
        f.write(lines)


def recorded(path, timeout=10):
    """The lines a handler recorded, once there are some."""
    return wait_until(lambda: os.path.exists(path) and open(path).read().split(), timeout, 0.1,
                      "the handler to be launched (%s)" % path)


_FILE_MANAGER = textwrap.dedent("""
    import sys
    from gi.repository import Gio, GLib
    XML = ('<node><interface name="org.freedesktop.FileManager1"><method name="ShowItems">'
           '<arg type="as" direction="in"/><arg type="s" direction="in"/></method></interface></node>')
    record = sys.argv[1]

    def called(connection, sender, path, interface, method, parameters, invocation):
        with open(record, "a") as f:
            f.write("".join(uri + "\\n" for uri in parameters.unpack()[0]))
        invocation.return_value(None)

    def bus_acquired(connection, name):
        interface = Gio.DBusNodeInfo.new_for_xml(XML).interfaces[0]
        connection.register_object("/org/freedesktop/FileManager1", interface, called, None, None)

    def name_acquired(connection, name):
        open(record + ".ready", "w").close()

    Gio.bus_own_name(Gio.BusType.SESSION, "org.freedesktop.FileManager1", 0, bus_acquired, name_acquired, None)
    GLib.MainLoop().run()
""")


def start_file_manager(app, record):
    """A stand-in for Files on the app's own session bus, recording the URIs ShowItems is given."""
    env = dict(os.environ, DBUS_SESSION_BUS_ADDRESS=app.env()["DBUS_SESSION_BUS_ADDRESS"])
    proc = subprocess.Popen([sys.executable, "-c", _FILE_MANAGER, record], env=env)
    wait_until(lambda: os.path.exists(record + ".ready"), 10, 0.1, "the stand-in file manager on the bus")
    return proc
