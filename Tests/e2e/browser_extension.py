"""The browser extension (data/browser-extension) loaded from the source tree into real browsers, and its native
messaging host pointed at the app under test.

  - `ExtensionFirefox`: Firefox ESR with the extension as an unpacked proxy file in its profile
    (`extensions/<gecko id>` holding the folder's path; `xpinstall.signatures.required` false, as ESR allows),
    and the host manifest in `$HOME/.mozilla/native-messaging-hosts/`;
  - `ExtensionChromium`: Chromium with `--load-extension=<folder>` (its `key` gives the fixed id the host manifest
    allows), the host manifest in `<user-data-dir>/NativeMessagingHosts/`;
  - `point_host_at(browser, app)`: the host script both manifests name runs the app's binary in host mode on the
    app's own session bus, so each test's fresh app gets the messages.
"""

import json
import os
import shutil
import stat

from browsers import Chromium, Firefox

REPOSITORY = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
EXTENSION = os.path.join(REPOSITORY, "data", "browser-extension")
HOST_NAME = "io.github.imagegallery.image_gallery"
GECKO_ID = "image-gallery@imagegallery.github.io"
CHROMIUM_ID = "kjkijhlgflmnmcbcgmkkocendaghnljo"


class _WithExtension:
    def host_script(self):
        return os.path.join(self.root, "browser-host")

    def install_host(self, folder, allowed):
        os.makedirs(folder, exist_ok=True)
        with open(os.path.join(folder, HOST_NAME + ".json"), "w") as f:
            json.dump(dict({"name": HOST_NAME, "description": "Image Gallery (test)", "path": self.host_script(),
                            "type": "stdio"}, **allowed), f)
        self.point_host(None, None)

    def point_host(self, binary, bus_address):
        """The host script: the app's binary in host mode on the app's bus (or failing, before a test sets it)."""
        with open(self.host_script(), "w") as f:
            if binary is None:
                f.write("#!/bin/sh\nexit 1\n")
            else:
                f.write("#!/bin/sh\necho \"host $*\" >> '%s.log'\nDBUS_SESSION_BUS_ADDRESS='%s' exec '%s' --browser-host \"$@\" 2>> '%s.log'\n"
                        % (self.host_script(), bus_address, binary, self.host_script()))
        os.chmod(self.host_script(), stat.S_IRWXU)


class ExtensionFirefox(_WithExtension, Firefox):
    def __init__(self, desktop, title, geometry):
        super().__init__(desktop, title, geometry, prefs={"xpinstall.signatures.required": False,
                                                          "extensions.enabledScopes": 15,
                                                          "extensions.autoDisableScopes": 0,
                                                          "extensions.startupScanScopes": 15})
        extensions = os.path.join(self.profile, "extensions")
        os.makedirs(extensions)
        with open(os.path.join(extensions, GECKO_ID), "w") as f:
            f.write(EXTENSION)
        self.install_host(os.path.join(self.home, ".mozilla", "native-messaging-hosts"),
                          {"allowed_extensions": [GECKO_ID]})


class ExtensionChromium(_WithExtension, Chromium):
    def __init__(self, desktop, title, geometry):
        super().__init__(desktop, title, geometry)
        self.install_host(os.path.join(self.profile, "NativeMessagingHosts"),
                          {"allowed_origins": ["chrome-extension://%s/" % CHROMIUM_ID]})

    def command(self, url):
        command = [a for a in super().command(url) if a != "--disable-extensions"]
        command.insert(1, "--load-extension=" + EXTENSION)
        return command


def host_log(browser):
    try:
        with open(browser.host_script() + ".log") as f:
            return f.read()
    except OSError:
        return "(the host never started)"


def point_host_at(browser, app):
    browser.point_host(app.binary, app._bus_address)
