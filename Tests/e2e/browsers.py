"""Real web browsers (Firefox ESR, Chromium) on the e2e Desktop, as drag sources for the gallery.

  - `DragSourceServer`: the harness's `ImageServer` plus the routes the browser tests need: a page of our own
    making (`add_page`), and "hotlinked" images (`add_hotlink_image`) that answer the gallery with 403 (its
    User-Agent names ImageGallery) while serving browsers normally;
  - `Firefox`, `Chromium`: each started with a fresh temporary profile, in its own process group, on the
    Desktop's DISPLAY and D-Bus session bus, its window moved and sized with xdotool (Xvfb has no window
    manager), and killed (the whole group) by stop();
  - `find_colour_box`: where a solid-colour image is on a screenshot (how a test finds an `<img>` on the page:
    no browser accessibility needed);
  - `browser_drag`: a pointer drag with xdotool paced for browsers (press, several small motions with pauses
    so the page starts a drag, the way over, hovering at the target so the gallery answers XdndPosition,
    release).

Debian packages: firefox-esr, chromium (plus the harness's: xvfb, xdotool, imagemagick, python3-pil, ...).
"""

import os
import re
import shutil
import signal
import subprocess
import tempfile
import time

import harness
from harness import HarnessError, ImageServer, wait_until


# ------------------------------------------------------------------------------------------------------------
# HTTP: pages and hotlink-protected images
# ------------------------------------------------------------------------------------------------------------

class DragSourceServer(ImageServer):
    """ImageServer with:
      /hot/<name>.<ext>   a "hotlink-protected" image: 403 (text/html) when the request's User-Agent contains
                          `refuse_agent` (the gallery's libcurl sends "ImageGallery/..."), the image otherwise;
      add_page(path, html) a text/html page (add_file with the right content type)."""

    refuse_agent = "ImageGallery"

    def __init__(self):
        self.hotlinked = {}
        super().__init__()

    def add_hotlink_image(self, name, width, height, rgb, fmt="png"):
        image = self.make_image("hot", name, width, height, rgb, fmt)
        self.hotlinked[image.path] = image
        return image

    def add_page(self, path, html):
        return self.add_file(path, html.encode("utf-8"), "text/html; charset=utf-8")

    def app_requests(self, route):
        """Requests to route from the gallery (User-Agent has refuse_agent; on /hot/ routes: answered 403)."""
        return [r for r in self.requests(route) if self.refuse_agent in _header(r.headers, "User-Agent")]

    def browser_requests(self, route):
        """Requests to route from anything else (the browsers)."""
        return [r for r in self.requests(route) if self.refuse_agent not in _header(r.headers, "User-Agent")]

    def _route(self, h, split, head):
        image = self.hotlinked.get(split.path)
        if image is not None:
            if self.refuse_agent in (h.headers.get("User-Agent") or ""):
                return self._send(h, 403, "text/html; charset=utf-8",
                                  b"<!DOCTYPE html><html><body>Hotlinking forbidden</body></html>\n", head)
            return self._send(h, 200, image.content_type, image.data, head,
                              {"Cache-Control": "no-store"})
        return super()._route(h, split, head)


def _header(headers, name):
    for k, v in headers.items():
        if k.lower() == name.lower():
            return v or ""
    return ""


def image_page(title, items, background="#ffffff", extra_html=""):
    """An HTML page showing each item (a ServedImage, or (ServedImage, href) for an image inside a link) as a
    block at its natural size, with margins, on a plain background, then extra_html; nothing moves or animates."""
    blocks = []
    for item in items:
        image, href = item if isinstance(item, tuple) else (item, None)
        tag = '<img id="%s" src="%s" width="%d" height="%d" alt="%s">' % (image.name, image.url, image.width,
                                                                         image.height, image.name)
        if href:
            tag = '<a href="%s">%s</a>' % (href, tag)
        blocks.append('<div class="item">%s</div>' % tag)
    return ("<!DOCTYPE html><html><head><meta charset=utf-8><title>%s</title><style>"
            "html,body{margin:0;padding:0;background:%s}body{display:flex;flex-wrap:wrap;align-items:flex-start}"
            ".item{margin:16px 24px;line-height:0}img{display:block;border:0}"
            "</style></head><body>\n%s\n%s\n</body></html>\n" % (title, background, "\n".join(blocks), extra_html))


def text_link(href, text, rgb, width=200, height=60):
    """A text link drawn as a solid block of colour rgb (text the same colour), to be found on a screenshot."""
    colour = "rgb(%d,%d,%d)" % tuple(rgb)
    return ('<div class="item"><a id="text-link" href="%s" style="display:inline-block;width:%dpx;height:%dpx;'
            'line-height:%dpx;background:%s;color:%s;text-decoration:none;font:20px sans-serif">%s</a></div>'
            % (href, width, height, height, colour, colour, text))


# ------------------------------------------------------------------------------------------------------------
# Screenshots
# ------------------------------------------------------------------------------------------------------------

def find_colour_box(image, rgb, region=None, tol=6, min_pixels=100):
    """The bounding box (x, y, width, height) in screen coordinates of the pixels of `image` (a PIL RGB
    screenshot) within `tol` of rgb on every channel, inside region (x, y, w, h; the whole image if None);
    None when fewer than min_pixels match. Used to find a solid-colour <img> as the browser shows it."""
    x0, y0, w, h = region or (0, 0, image.width, image.height)
    x0, y0 = max(0, int(x0)), max(0, int(y0))
    x1, y1 = min(image.width, int(x0 + w)), min(image.height, int(y0 + h))
    if x1 <= x0 or y1 <= y0:
        return None
    crop = image.convert("RGB").crop((x0, y0, x1, y1))
    r, g, b = rgb
    bands = crop.split()
    masks = [band.point(lambda v, c=c: 255 if abs(v - c) <= tol else 0) for band, c in zip(bands, (r, g, b))]
    from PIL import ImageChops
    mask = ImageChops.multiply(ImageChops.multiply(masks[0], masks[1]), masks[2])
    count = mask.histogram()[255]
    if count < min_pixels:
        return None
    left, top, right, bottom = mask.getbbox()
    return (x0 + left, y0 + top, right - left, bottom - top)


# ------------------------------------------------------------------------------------------------------------
# Browsers
# ------------------------------------------------------------------------------------------------------------

FIREFOX_PREFS = {
    # no first-run, welcome, what's-new or privacy pages; no default-browser question
    "browser.shell.checkDefaultBrowser": False,
    "browser.startup.homepage_override.mstone": "ignore",
    "browser.startup.firstrunSkipsHomepage": True,
    "startup.homepage_welcome_url": "",
    "startup.homepage_welcome_url.additional": "",
    "startup.homepage_override_url": "",
    "browser.aboutwelcome.enabled": False,
    "browser.startup.upgradeDialog.enabled": False,
    "browser.messaging-system.whatsNewPanel.enabled": False,
    "trailhead.firstrun.didSeeAboutWelcome": True,
    "browser.newtabpage.enabled": False,
    "browser.newtabpage.activity-stream.feeds.telemetry": False,
    "browser.newtabpage.activity-stream.telemetry": False,
    "browser.tabs.warnOnClose": False,
    "browser.warnOnQuit": False,
    "browser.aboutConfig.showWarning": False,
    "browser.uitour.enabled": False,
    "browser.discovery.enabled": False,
    "browser.translations.enable": False,
    "browser.translations.automaticallyPopup": False,
    # telemetry and data reporting off, and no policy notification tab
    "datareporting.policy.dataSubmissionEnabled": False,
    "datareporting.policy.dataSubmissionPolicyBypassNotification": True,
    "datareporting.policy.firstRunURL": "",
    "datareporting.healthreport.uploadEnabled": False,
    "toolkit.telemetry.reportingpolicy.firstRun": False,
    "toolkit.telemetry.enabled": False,
    "toolkit.telemetry.unified": False,
    "toolkit.telemetry.archive.enabled": False,
    "toolkit.telemetry.server": "",
    "browser.ping-centre.telemetry": False,
    "app.normandy.enabled": False,
    "app.shield.optoutstudies.enabled": False,
    "browser.crashReports.unsubmittedCheck.autoSubmit2": False,
    # no updates of the browser, its add-ons or plugins
    "app.update.auto": False,
    "app.update.enabled": False,
    "app.update.checkInstallTime": False,
    "extensions.update.enabled": False,
    "extensions.getAddons.cache.enabled": False,
    "extensions.autoDisableScopes": 0,
    "media.gmp-manager.url": "",
    "media.gmp-gmpopenh264.enabled": False,
    # no session restore (a killed browser must not come back with old tabs or a crash page)
    "browser.sessionstore.resume_from_crash": False,
    "browser.sessionstore.max_resumed_crashes": 0,
    "browser.startup.page": 0,
    "toolkit.startup.max_resumed_crashes": -1,
    # nothing on the network but the page (there is no network besides loopback here)
    "browser.safebrowsing.malware.enabled": False,
    "browser.safebrowsing.phishing.enabled": False,
    "browser.safebrowsing.downloads.enabled": False,
    "browser.safebrowsing.blockedURIs.enabled": False,
    "browser.safebrowsing.provider.mozilla.updateURL": "",
    "network.captive-portal-service.enabled": False,
    "network.connectivity-service.enabled": False,
    "network.proxy.type": 0,
    "network.dns.disablePrefetch": True,
    "network.prefetch-next": False,
    "browser.region.network.url": "",
    "browser.region.update.enabled": False,
    "browser.search.geoSpecificDefaults": False,
    "browser.search.update": False,
    "services.settings.server": "http://127.0.0.1:9/",
    "browser.contentblocking.report.monitor.enabled": False,
    "signon.rememberSignons": False,
    # exact colours (untagged images are not colour-managed anyway), no animations, light page
    "gfx.color_management.mode": 0,
    "layers.acceleration.disabled": True,
    "toolkit.cosmeticAnimations.enabled": False,
    "ui.prefersReducedMotion": 1,
    "browser.fullscreen.animate": False,
    "ui.systemUsesDarkTheme": 0,
    "layout.css.prefers-color-scheme.content-override": 1,
    # light on two cores
    "dom.ipc.processCount": 1,
    "dom.ipc.processPrelaunch.enabled": False,
    "browser.tabs.remote.warmup.enabled": False,
}


def _pref_literal(value):
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    return '"%s"' % str(value).replace("\\", "\\\\").replace('"', '\\"')


class Browser:
    """A browser process (its own process group) showing one page on the Desktop; `window_id()` finds its
    top-level X window by the page title. Subclasses give the command line."""

    name = "browser"
    executable = None
    package = None

    def __init__(self, desktop, title, geometry):
        """geometry: (x, y, width, height) where the window is put."""
        self.desktop = desktop
        self.title = title
        self.geometry = tuple(int(v) for v in geometry)
        self.root = tempfile.mkdtemp(prefix="image-gallery-e2e-%s-" % self.name)
        self.profile = os.path.join(self.root, "profile")
        os.makedirs(self.profile)
        self.home = os.path.join(self.root, "home")
        os.makedirs(self.home)
        self.log_path = os.path.join(self.root, "browser.log")
        self.proc = None
        self._wid = None

    # --- lifecycle ---
    def command(self, url):
        raise NotImplementedError

    def env(self):
        env = self.desktop.base_env()
        env.update({"HOME": self.home, "XDG_CONFIG_HOME": os.path.join(self.home, ".config"),
                    "XDG_CACHE_HOME": os.path.join(self.home, ".cache"),
                    "XDG_DATA_HOME": os.path.join(self.home, ".local", "share"),
                    "GDK_BACKEND": "x11", "MOZ_ENABLE_WAYLAND": "0", "NO_AT_BRIDGE": "1"})
        for k in ("WAYLAND_DISPLAY", "GTK_MODULES", "SESSION_MANAGER"):
            env.pop(k, None)
        return env

    def start(self, url, timeout=90):
        exe = shutil.which(self.executable)
        if exe is None:
            raise HarnessError("%s not found: apt-get install -y %s" % (self.executable, self.package))
        with open(self.log_path, "ab") as log:
            self.proc = subprocess.Popen(self.command(url), env=self.env(), stdin=subprocess.DEVNULL,
                                         stdout=log, stderr=subprocess.STDOUT, cwd=self.root,
                                         start_new_session=True)
        self._wid = wait_until(self._find_window, timeout, 0.5,
                               "the %s window titled %r" % (self.name, self.title), self.describe)
        self.place()
        return self

    def _find_window(self):
        if self.proc.poll() is not None:
            raise HarnessError("%s exited with status %s; log:\n%s" % (self.name, self.proc.returncode,
                                                                      self.log()[-4000:]))
        out = subprocess.run(["xdotool", "search", "--onlyvisible", "--name", re.escape(self.title)],
                             env=self.desktop.base_env(), capture_output=True, text=True, timeout=30)
        ids = out.stdout.split()
        return ids[0] if ids else None

    def window_id(self):
        if self._wid is None:
            self._wid = self._find_window()
        if self._wid is None:
            raise HarnessError("no %s window titled %r" % (self.name, self.title))
        return self._wid

    def place(self, timeout=20):
        """Moves and sizes the window to self.geometry and waits until X reports it there."""
        x, y, w, h = self.geometry
        wid = self.window_id()

        def placed():
            self.desktop.xdotool("windowmove", wid, x, y)
            self.desktop.xdotool("windowsize", wid, w, h)
            time.sleep(0.3)
            gx, gy, gw, gh = self.window_geometry()
            return abs(gx - x) <= 2 and abs(gy - y) <= 40 and abs(gw - w) <= 2 and abs(gh - h) <= 40

        wait_until(placed, timeout, 0.5, "the %s window at %r" % (self.name, self.geometry),
                   lambda: repr(self.window_geometry()))

    def window_geometry(self):
        """(x, y, width, height) of the browser's top-level window on the screen."""
        out = self.desktop.xdotool("getwindowgeometry", "--shell", self.window_id())
        values = dict(line.split("=", 1) for line in out.split() if "=" in line)
        return (int(values["X"]), int(values["Y"]), int(values["WIDTH"]), int(values["HEIGHT"]))

    def raise_window(self):
        wid = self.window_id()
        self.desktop.xdotool("windowraise", wid)

    def log(self):
        try:
            with open(self.log_path, "rb") as f:
                return f.read().decode(errors="replace")
        except OSError:
            return ""

    def describe(self):
        return "windows: %r; %s log tail:\n%s" % (self.desktop.top_level_windows()[:40], self.name,
                                                 self.log()[-3000:])

    def stop(self):
        """Kills the browser's whole process group (it and every helper process it started)."""
        proc, self.proc = self.proc, None
        if proc is not None:
            for sig in (signal.SIGTERM, signal.SIGKILL):
                try:
                    os.killpg(proc.pid, sig)
                except ProcessLookupError:
                    break
                try:
                    proc.wait(8)
                    # the leader is gone; helpers of the group may still be exiting
                    deadline = time.monotonic() + 5
                    while time.monotonic() < deadline and _group_alive(proc.pid):
                        time.sleep(0.1)
                    if not _group_alive(proc.pid):
                        break
                except subprocess.TimeoutExpired:
                    continue
            try:
                os.killpg(proc.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        self._wid = None
        shutil.rmtree(self.root, ignore_errors=True)

    # --- the page ---
    def find_image(self, rgb, timeout=60, tol=6):
        """Screen box (x, y, w, h) of the solid-colour image rgb as the browser shows it (polls screenshots
        until the page has painted it)."""
        last = {}

        def attempt():
            shot = self.desktop.screenshot()
            last["shot"] = shot
            return find_colour_box(shot, rgb, self.window_geometry(), tol)

        return wait_until(attempt, timeout, 0.5, "the %s to show an image of colour %r" % (self.name, rgb),
                          self.describe)


def _group_alive(pgid):
    try:
        os.killpg(pgid, 0)
        return True
    except ProcessLookupError:
        return False
    except PermissionError:
        return True


class Firefox(Browser):
    name = "firefox"
    executable = "firefox-esr"
    package = "firefox-esr"

    def __init__(self, desktop, title, geometry, prefs=None):
        super().__init__(desktop, title, geometry)
        self.prefs = dict(FIREFOX_PREFS)
        self.prefs.update(prefs or {})
        with open(os.path.join(self.profile, "user.js"), "w") as f:
            for key, value in sorted(self.prefs.items()):
                f.write('user_pref("%s", %s);\n' % (key, _pref_literal(value)))

    def command(self, url):
        x, y, w, h = self.geometry
        return [shutil.which(self.executable), "-profile", self.profile, "-no-remote", "-new-instance", url]

    def env(self):
        env = super().env()
        env.update({"MOZ_ENABLE_WAYLAND": "0", "MOZ_CRASHREPORTER_DISABLE": "1", "MOZ_DISABLE_AUTO_SAFE_MODE": "1",
                    "MOZ_DBUS_REMOTE": "0"})
        return env


class Chromium(Browser):
    name = "chromium"
    executable = "chromium"
    package = "chromium"

    def command(self, url):
        x, y, w, h = self.geometry
        return [shutil.which(self.executable), "--no-sandbox", "--user-data-dir=" + self.profile,
                "--no-first-run", "--no-default-browser-check", "--disable-gpu", "--password-store=basic",
                "--ozone-platform=x11", "--window-position=%d,%d" % (x, y), "--window-size=%d,%d" % (w, h),
                "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--disable-default-apps", "--disable-extensions", "--disable-translate",
                "--disable-features=Translate,MediaRouter,OptimizationHints,AutofillServerCommunication",
                "--disable-session-crashed-bubble", "--hide-crash-restore-bubble", "--no-pings",
                "--force-color-profile=srgb", "--disable-dev-shm-usage", "--use-mock-keychain",
                "--new-window", url]


# ------------------------------------------------------------------------------------------------------------
# The drag
# ------------------------------------------------------------------------------------------------------------

def start_browser_drag(desktop, from_xy, towards, button=1):
    """Presses on a page element and moves the way a person does, slowly enough that the browser starts a drag
    (several small motions with pauses); `towards` gives the direction. The button stays pressed."""
    fx, fy = (int(v) for v in from_xy)
    desktop.move_to(fx, fy)
    time.sleep(0.3)
    desktop.xdotool("mousedown", button)
    time.sleep(0.3)
    desktop.nudge((fx, fy), towards, harness.Desktop.BROWSER_NUDGES, 0.06)
    time.sleep(0.4)


def browser_drag(desktop, from_xy, to_xy, steps=40, step_delay=0.04, hover=1.0, button=1):
    """Drags from from_xy (on the page) to to_xy (in the gallery) the way a person would, slowly enough for a
    browser: press, pause, a few small motions with pauses (the page decides on a drag after several motion
    events), the way over in `steps` motions, small motions at the target for `hover` seconds (so the target's
    XdndPosition answers arrive and the drop is accepted), release."""
    tx, ty = (int(v) for v in to_xy)
    start_browser_drag(desktop, from_xy, (tx, ty), button)
    desktop.move(tx, ty, steps=steps, step_delay=step_delay)
    end = time.monotonic() + hover
    wiggle = [(1, 0), (0, 1), (-1, 0), (0, -1)]
    i = 0
    while time.monotonic() < end:
        ox, oy = wiggle[i % 4]
        desktop.xdotool("mousemove", tx + ox, ty + oy, "sleep", 0.08)
        i += 1
    desktop.xdotool("mousemove", tx, ty, "sleep", 0.2)
    desktop.pointer = (tx, ty)
    desktop.xdotool("mouseup", button)
