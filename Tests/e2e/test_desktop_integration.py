"""Desktop integration of Image Gallery: data/ files and the Meson install.

Run with Debian's Python (it has the gi bindings):

    /usr/bin/python3 -m pytest Tests/e2e/test_desktop_integration.py

Precondition: the test runner has already run `swift build` (debug) in the
repository, so `.build/debug/image-gallery` exists; or it built the app with
other arguments, named in $IMAGE_GALLERY_SWIFT_BUILD_ARGS (e.g. `--scratch-path
DIR -Xswiftc -warnings-as-errors`), and $IMAGE_GALLERY_BIN is what that built.
The install test runs `meson setup … -Dswiftpm_configuration=debug` (with
`-Dswiftpm_build_args=` those arguments) + `meson install` into a temporary
prefix; Meson's custom target then runs
`swift build -c debug --product image-gallery`, which finds everything up to
date. If the executable was not built, the tests that need it FAIL; nothing
here is skipped.

Debian packages used: meson, ninja-build, desktop-file-utils, appstream,
gtk-update-icon-cache, python3-gi, gir1.2-gtk-3.0,
librsvg2-common (the SVG loader of gdk-pixbuf), xvfb, xauth, python3-pytest.
"""

import base64
import configparser
import filecmp
import hashlib
import json
import os
import re
import shutil
import stat
import struct
import subprocess
import sys
import textwrap
import xml.etree.ElementTree as ElementTree
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parents[2]
DATA_DIR = REPO_ROOT / "data"
MESON_ROOT = REPO_ROOT / "meson_helpers"
DEBUG_BINARY = Path(os.environ.get("IMAGE_GALLERY_BIN") or REPO_ROOT / ".build" / "debug" / "image-gallery")
# The arguments the build of DEBUG_BINARY was made with, so that Meson's swift build finds it up to date.
SWIFT_BUILD_ARGS = os.environ.get("IMAGE_GALLERY_SWIFT_BUILD_ARGS", "").split()

APP_ID = "io.github.imagegallery.ImageGallery"
EXECUTABLE = "image-gallery"
DESKTOP_NAME = APP_ID + ".desktop"
METAINFO_NAME = APP_ID + ".metainfo.xml"
APP_ICON = DATA_DIR / "icons/hicolor/scalable/apps" / (APP_ID + ".svg")
SYMBOLIC_ICON = DATA_DIR / "icons/hicolor/symbolic/apps" / (APP_ID + "-symbolic.svg")
# The app icon rendered at the sizes a window's icon takes, so a window reads no SVG.
ICON_PNG_SIZES = (16, 32, 48)
ICON_PNGS = {size: DATA_DIR / ("icons/hicolor/%dx%d/apps" % (size, size)) / (APP_ID + ".png")
             for size in ICON_PNG_SIZES}
STYLESHEET = DATA_DIR / "style.css"
HELP_PAGES = DATA_DIR / "help" / "C"

# Everything `meson install` must put under the prefix.
INSTALLED_FILES = [
    "bin/" + EXECUTABLE,
    "share/applications/" + DESKTOP_NAME,
    "share/metainfo/" + METAINFO_NAME,
    "share/icons/hicolor/scalable/apps/" + APP_ID + ".svg",
    "share/icons/hicolor/symbolic/apps/" + APP_ID + "-symbolic.svg",
] + ["share/icons/hicolor/%dx%d/apps/%s.png" % (size, size, APP_ID) for size in ICON_PNG_SIZES] + [
    "share/image-gallery/style.css",
    "share/gnome-shell/search-providers/" + APP_ID + ".search-provider.ini",
    "share/dbus-1/services/" + APP_ID + ".service",
    "share/locale/fr/LC_MESSAGES/image-gallery.mo",
    "share/locale/ru/LC_MESSAGES/image-gallery.mo",
    "share/image-gallery/browser-extension/manifest.json",
    "share/image-gallery/browser-extension/background.js",
    "libexec/image-gallery/browser-host",
    "lib/mozilla/native-messaging-hosts/io.github.imagegallery.image_gallery.json",
    "etc/chromium/native-messaging-hosts/io.github.imagegallery.image_gallery.json",
] + ["share/help/%s/%s/%s" % (language, APP_ID, page.name)
      for language in ("C", "fr", "ru") for page in sorted(HELP_PAGES.iterdir())]

XML_LANG = "{http://www.w3.org/XML/1998/namespace}lang"

# The style classes the Swift code adds; renaming one in style.css would
# silently unstyle the app.
REQUIRED_SELECTORS = [
    ".gallery-canvas",
    ".trash-zone",
    ".trash-zone.drop-target",
    ".empty-state",
    ".empty-state .title",
    ".empty-state .description",
    ".toast",
    ".toast button",
]

SVG_NS = "{http://www.w3.org/2000/svg}"


def run(command, timeout=120, **kwargs):
    """Runs command, returning the CompletedProcess with stdout and stderr merged into .stdout."""
    return subprocess.run(
        [str(part) for part in command],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        timeout=timeout,
        **kwargs,
    )


def run_checked(command, timeout=120, **kwargs):
    result = run(command, timeout=timeout, **kwargs)
    assert result.returncode == 0, "%s exited with %d:\n%s" % (
        " ".join(map(str, command)), result.returncode, result.stdout)
    return result


def headless_env():
    """The environment without any display, so GTK never talks to a desktop session by accident."""
    env = dict(os.environ)
    for name in ("DISPLAY", "WAYLAND_DISPLAY", "DBUS_SESSION_BUS_ADDRESS", "AT_SPI_BUS_ADDRESS"):
        env.pop(name, None)
    env["NO_AT_BRIDGE"] = "1"
    return env


def run_python(code, under_x=False, timeout=120):
    """Runs a snippet with this (Debian) Python in a child process, so GTK is never loaded into pytest.
    With under_x, the child gets a private Xvfb through xvfb-run."""
    command = [sys.executable, "-c", textwrap.dedent(code)]
    if under_x:
        xvfb_run = shutil.which("xvfb-run")
        assert xvfb_run, "xvfb-run not found: install the xvfb and xauth packages"
        command = [xvfb_run, "-a", "-s", "-screen 0 640x480x24"] + command
    return run_checked(command, timeout=timeout, env=headless_env())


def validate_desktop_file(path):
    tool = shutil.which("desktop-file-validate")
    assert tool, "desktop-file-validate not found: install desktop-file-utils"
    result = run([tool, path])
    problems = [line for line in result.stdout.splitlines() if re.search(r"\b(error|warning):", line)]
    assert result.returncode == 0 and not problems, "desktop-file-validate %s:\n%s" % (path, result.stdout)


def validate_metainfo(path):
    tool = shutil.which("appstreamcli")
    assert tool, "appstreamcli not found: install appstream"
    result = run([tool, "validate", "--no-net", "--explain", path])
    # Errors fail validation; warnings are refused here too. Infos and
    # pedantic hints are allowed: e.g. AppStream 0.16 reports <developer>
    # (AppStream 1.0) as unknown, and 1.0 reports <developer_name> as old.
    problems = [line for line in result.stdout.splitlines() if re.match(r"\s*[EW]: ", line)]
    assert result.returncode == 0 and not problems, "appstreamcli validate %s:\n%s" % (path, result.stdout)


def read_desktop_entry(path):
    """The [Desktop Entry] group as a dict (translated keys as they are written: "Name[fr]")."""
    entry, group = {}, None
    for line in Path(path).read_text(encoding="utf-8").splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("["):
            group = line
            continue
        if group == "[Desktop Entry]" and "=" in line:
            key, value = line.split("=", 1)
            entry[key.strip()] = value.strip()
    return entry


# --------------------------------------------------------------------------
# Meson install into a temporary prefix


@pytest.fixture(scope="module")
def install(tmp_path_factory):
    """Runs `meson setup` + `meson install` once and returns (prefix, build_dir, install log)."""
    assert DEBUG_BINARY.is_file(), (
        "%s is missing: run `swift build` in %s before these tests (the test runner script does)"
        % (DEBUG_BINARY, REPO_ROOT))
    for tool in ("meson", "ninja", "swift"):
        assert shutil.which(tool), "%s not found on PATH" % tool

    base = tmp_path_factory.mktemp("meson")
    build_dir, prefix, temporary = base / "build", base / "prefix", base / "tmp"
    temporary.mkdir()
    # Each run of the Swift driver leaves a "TemporaryDirectory.*" folder in $TMPDIR: here, in the test's own.
    env = dict(os.environ, TMPDIR=str(temporary))
    setup = run_checked(
        ["meson", "setup", build_dir, MESON_ROOT, "--prefix=%s" % prefix,
         "-Dswiftpm_configuration=debug", "-Dswiftpm_build_args=%s" % ",".join(SWIFT_BUILD_ARGS)],
        cwd=REPO_ROOT, env=env)
    # `meson install` builds first, which runs swift build (a no-op when up to date).
    installed = run_checked(["meson", "install", "-C", build_dir], timeout=1800, cwd=REPO_ROOT, env=env)
    return prefix, build_dir, setup.stdout + installed.stdout


def test_swift_debug_build_exists():
    """Reported on its own, so a missing build shows as one plain failure besides the fixture errors."""
    assert DEBUG_BINARY.is_file(), (
        "%s is missing: run `swift build` in %s before these tests" % (DEBUG_BINARY, REPO_ROOT))


def test_meson_installs_every_file(install):
    prefix, _, log = install
    missing = [name for name in INSTALLED_FILES if not (prefix / name).is_file()]
    assert not missing, "not installed: %s\n%s" % (missing, log)


def test_installed_executable_is_the_swift_debug_build(install):
    prefix, _, _ = install
    executable = prefix / "bin" / EXECUTABLE
    assert executable.stat().st_mode & stat.S_IXUSR, "%s is not executable" % executable
    assert filecmp.cmp(executable, DEBUG_BINARY.resolve(), shallow=False), \
        "installed %s differs from %s" % (executable, DEBUG_BINARY)


def test_installed_data_files_match_the_sources(install):
    prefix, _, _ = install
    pairs = [
        (STYLESHEET, prefix / "share/image-gallery/style.css"),
        (APP_ICON, prefix / "share/icons/hicolor/scalable/apps" / APP_ICON.name),
        (SYMBOLIC_ICON, prefix / "share/icons/hicolor/symbolic/apps" / SYMBOLIC_ICON.name),
    ] + [(png, prefix / "share" / png.relative_to(DATA_DIR)) for png in ICON_PNGS.values()]
    for source, installed in pairs:
        assert filecmp.cmp(source, installed, shallow=False), "%s is not a copy of %s" % (installed, source)


def test_post_install_built_the_icon_cache_and_desktop_database(install):
    prefix, _, log = install
    cache = prefix / "share/icons/hicolor/icon-theme.cache"
    assert cache.is_file(), "gnome.post_install did not run gtk-update-icon-cache:\n" + log
    # The cache stores icon names as plain strings.
    assert APP_ID.encode() in cache.read_bytes(), "%s does not list %s" % (cache, APP_ID)
    assert (APP_ID + "-symbolic").encode() in cache.read_bytes()
    assert (prefix / "share/applications/mimeinfo.cache").is_file(), \
        "gnome.post_install did not run update-desktop-database:\n" + log


def test_installed_desktop_file_is_valid(install):
    prefix, _, _ = install
    path = prefix / "share/applications" / DESKTOP_NAME
    assert "@" not in path.read_text(encoding="utf-8"), "unsubstituted @VAR@ left in " + str(path)
    validate_desktop_file(path)
    entry = read_desktop_entry(path)
    assert entry.get("Type") == "Application"
    assert entry.get("Name") == "Image Gallery"
    assert entry.get("Comment")
    assert entry.get("Exec", "").split()[0] == EXECUTABLE
    assert (prefix / "bin" / entry["Exec"].split()[0]).is_file()
    assert entry.get("Icon") == APP_ID
    assert entry.get("StartupNotify") == "true"
    # The window's WM_CLASS is the app id (g_set_prgname): docks match the window to this file by it.
    assert entry.get("StartupWMClass") == APP_ID
    assert entry.get("Categories", "").split(";")[:3] == ["Graphics", "Viewer", "GTK"]
    assert entry.get("Keywords", "").endswith(";")


def test_installed_metainfo_is_valid(install):
    prefix, _, _ = install
    path = prefix / "share/metainfo" / METAINFO_NAME
    assert "@" not in path.read_text(encoding="utf-8"), "unsubstituted @VAR@ left in " + str(path)
    validate_metainfo(path)

    component = ElementTree.parse(path).getroot()
    assert component.tag == "component" and component.get("type") == "desktop-application"
    assert component.findtext("id") == APP_ID
    assert component.findtext("metadata_license") == "CC0-1.0"
    assert component.findtext("project_license") == "MIT"
    assert component.findtext("name") == "Image Gallery"
    launchable = component.find("launchable")
    assert launchable is not None and launchable.get("type") == "desktop-id"
    assert launchable.text == DESKTOP_NAME
    assert (prefix / "share/applications" / launchable.text).is_file()
    assert [b.text for b in component.findall("provides/binary")] == [EXECUTABLE]
    homepage = component.find("url[@type='homepage']")
    assert homepage is not None and homepage.text == "https://github.com/imagegallery/ImageGallery"
    developer = component.find("developer")
    assert developer is not None and developer.get("id") and developer.findtext("name")
    assert component.find("content_rating").get("type") == "oars-1.1"
    releases = component.findall("releases/release")
    assert [(r.get("version"), r.get("date")) for r in releases] == [("0.1.0", "2026-11-22")]
    screenshot = component.find("screenshots/screenshot[@type='default']")
    assert screenshot is not None and screenshot.findtext("image").startswith("https://")
    assert screenshot.findtext("caption")
    features = [li.text for li in component.findall("description/ul/li")]
    assert len(features) >= 5, features
    assert {c.text for c in component.findall("supports/control")} >= {"pointing", "keyboard"}
    assert component.find("requires/display_length") is not None


def test_installed_desktop_file_speaks_french_and_russian(install):
    """What GNOME Shell and Software show a French or Russian user: the catalogs merged into the file."""
    prefix, _, _ = install
    entry = read_desktop_entry(prefix / "share/applications" / DESKTOP_NAME)
    assert entry.get("Name[fr]") == "Galerie d’images", entry
    assert entry.get("Name[ru]") == "Галерея изображений", entry
    for key in ("Comment", "GenericName", "Keywords"):
        assert entry.get(key + "[fr]") and entry.get(key + "[ru]"), (key, entry)
    # The search terms keep their separators, and end with one, in every language.
    assert entry["Keywords[fr]"].endswith(";") and entry["Keywords[ru]"].endswith(";")


def test_installed_metainfo_speaks_french_and_russian(install):
    prefix, _, _ = install
    component = ElementTree.parse(prefix / "share/metainfo" / METAINFO_NAME).getroot()
    names = {n.get(XML_LANG): n.text for n in component.findall("name")}
    assert names == {None: "Image Gallery", "fr": "Galerie d’images", "ru": "Галерея изображений"}, names
    summaries = {n.get(XML_LANG) for n in component.findall("summary")}
    assert summaries == {None, "fr", "ru"}, summaries
    french_features = [li.text for li in component.findall("description/ul/li") if li.get(XML_LANG) == "fr"]
    assert len(french_features) == 5 and all(french_features), french_features


def test_installed_help_speaks_french_and_russian(install):
    prefix, _, _ = install
    titles = {}
    for language in ("C", "fr", "ru"):
        page = ElementTree.parse(prefix / "share/help" / language / APP_ID / "index.page")
        titles[language] = page.getroot().find("{http://projectmallard.org/1.0/}title").text
    assert titles == {"C": "Image Gallery Help", "fr": "Aide de Galerie d’images",
                      "ru": "Справка по Галерее изображений"}


def test_meson_test_suite_passes(install):
    _, build_dir, _ = install
    result = run(["meson", "test", "-C", build_dir, "--no-rebuild", "--print-errorlogs"], timeout=300)
    assert result.returncode == 0, result.stdout
    assert re.search(r"^Ok:\s+3\s*$", result.stdout, re.M), \
        "expected the desktop-file, metainfo and help validations to run:\n" + result.stdout


# --------------------------------------------------------------------------
# Source files, on their own


def test_installed_search_provider_names_the_app_and_its_dbus_service(install):
    """The overview finds the provider by its .ini and starts the app through the D-Bus service file."""
    prefix, _, _ = install
    provider = configparser.ConfigParser()
    provider.read(prefix / "share/gnome-shell/search-providers" / (APP_ID + ".search-provider.ini"))
    section = provider["Shell Search Provider"]
    assert section["DesktopId"] == DESKTOP_NAME
    assert section["BusName"] == APP_ID
    assert section["ObjectPath"] == "/io/github/imagegallery/ImageGallery/SearchProvider"
    assert section["Version"] == "2"
    service = configparser.ConfigParser()
    service.read(prefix / "share/dbus-1/services" / (APP_ID + ".service"))
    assert service["D-BUS Service"]["Name"] == APP_ID
    assert service["D-BUS Service"]["Exec"] == str(prefix / "bin" / EXECUTABLE) + " --gapplication-service"


def test_desktop_file_template_uses_the_app_id_placeholder():
    template = DATA_DIR / (DESKTOP_NAME + ".in")
    entry = read_desktop_entry(template)
    assert entry.get("Icon") == "@APP_ID@"
    metainfo = (DATA_DIR / (METAINFO_NAME + ".in")).read_text(encoding="utf-8")
    assert "<id>@APP_ID@</id>" in metainfo
    assert '<launchable type="desktop-id">@APP_ID@.desktop</launchable>' in metainfo


def test_stylesheet_parses_as_gtk3_css():
    # GtkCssProvider raises on unknown properties and bad values (e.g. the
    # GTK 4-only border-spacing); no display is needed to parse.
    run_python("""
        import gi
        gi.require_version("Gtk", "3.0")
        from gi.repository import Gtk
        Gtk.CssProvider().load_from_path(%r)
    """ % str(STYLESHEET))


def test_stylesheet_styles_the_classes_the_app_uses():
    css = re.sub(r"/\*.*?\*/", "", STYLESHEET.read_text(encoding="utf-8"), flags=re.S)
    selectors = set()
    for group in re.findall(r"([^{}]+)\{", css):
        selectors.update(" ".join(s.split()) for s in group.split(","))
    missing = [s for s in REQUIRED_SELECTORS if s not in selectors]
    assert not missing, "style.css has no rule for %s" % missing


def test_stylesheet_only_uses_colours_that_adwaita_defines():
    """Every @name must be defined by both Adwaita and Adwaita-dark (or by style.css itself): an undefined
    name is not a parse error in GTK 3, it just paints nothing."""
    css = re.sub(r"/\*.*?\*/", "", STYLESHEET.read_text(encoding="utf-8"), flags=re.S)
    used = set(re.findall(r"@([A-Za-z_][\w-]*)", css)) - {"define-color", "import", "keyframes"}
    own = set(re.findall(r"@define-color\s+([\w-]+)", css))
    assert used, "style.css uses no theme colours"
    output = run_python("""
        import re
        import gi
        gi.require_version("Gtk", "3.0")
        from gi.repository import Gtk
        for variant in (None, "dark"):
            css = Gtk.CssProvider.get_named("Adwaita", variant).to_string()
            print(variant or "light", " ".join(sorted(set(re.findall(r"@define-color\\s+([\\w-]+)", css)))))
    """, under_x=True).stdout
    defined = {}
    for line in output.splitlines():
        variant, _, names = line.partition(" ")
        if variant in ("light", "dark"):
            defined[variant] = set(names.split())
    assert set(defined) == {"light", "dark"}, output
    for variant, names in defined.items():
        assert "theme_bg_color" in names, output
        undefined = sorted(used - own - names)
        assert not undefined, "Adwaita (%s) does not define %s" % (variant, undefined)


@pytest.mark.parametrize("icon, sizes", [(APP_ICON, (16, 32, 64, 128, 256)), (SYMBOLIC_ICON, (16, 32))])
def test_icons_load_through_gdk_pixbuf(icon, sizes):
    """GTK and GNOME Shell load the icons through gdk-pixbuf's librsvg loader; each must render non-empty."""
    output = run_python("""
        import sys
        import gi
        gi.require_version("GdkPixbuf", "2.0")
        from gi.repository import GdkPixbuf
        path, sizes = %r, %r
        for size in sizes:
            pixbuf = GdkPixbuf.Pixbuf.new_from_file_at_size(path, size, size)
            assert (pixbuf.get_width(), pixbuf.get_height()) == (size, size), (size, pixbuf.get_width())
            assert pixbuf.get_has_alpha()
            data = pixbuf.get_pixels()
            n, stride = pixbuf.get_n_channels(), pixbuf.get_rowstride()
            opaque = sum(1 for y in range(size) for x in range(size) if data[y * stride + x * n + 3] > 128)
            print(size, opaque / (size * size))
    """ % (str(icon), sizes)).stdout
    coverage = {int(s): float(c) for s, c in (line.split() for line in output.splitlines())}
    assert set(coverage) == set(sizes), output
    for size, fraction in coverage.items():
        # Neither blank nor a full square: a real icon shape with transparent margins.
        assert 0.1 < fraction < 0.95, "%s at %dpx covers %.0f%%" % (icon.name, size, fraction * 100)


def test_app_icon_pngs_are_the_svg_rendered_at_their_sizes():
    """Each PNG is what gdk-pixbuf's librsvg loader makes of the SVG at its size (to regenerate one:
    `GdkPixbuf.Pixbuf.new_from_file_at_size(svg, size, size).savev(png, "png", [], [])`), so they cannot drift
    from the SVG."""
    output = run_python("""
        import gi
        gi.require_version("GdkPixbuf", "2.0")
        from gi.repository import GdkPixbuf
        svg, pngs = %r, %r
        for size, png in pngs.items():
            drawn = GdkPixbuf.Pixbuf.new_from_file_at_size(svg, size, size)
            kept = GdkPixbuf.Pixbuf.new_from_file(png)
            assert (kept.get_width(), kept.get_height(), kept.get_n_channels()) == (size, size, 4), png
            a, b = drawn.get_pixels(), kept.get_pixels()
            print(size, max(abs(a[y * drawn.get_rowstride() + x] - b[y * kept.get_rowstride() + x])
                            for y in range(size) for x in range(size * 4)))
    """ % (str(APP_ICON), {size: str(path) for size, path in ICON_PNGS.items()})).stdout
    differences = {int(s): int(d) for s, d in (line.split() for line in output.splitlines())}
    assert set(differences) == set(ICON_PNG_SIZES), output
    assert max(differences.values()) <= 2, "a PNG differs from the SVG rendered at its size: %s" % differences


def test_app_icon_is_a_128px_full_colour_svg():
    root = ElementTree.parse(APP_ICON).getroot()
    assert root.tag == SVG_NS + "svg"
    assert root.get("viewBox") == "0 0 128 128"
    colours = {c.lower() for c in re.findall(r"#[0-9a-fA-F]{6}\b", APP_ICON.read_text(encoding="utf-8"))}
    assert len(colours) >= 6, "a full-colour icon, not %s" % sorted(colours)


def test_symbolic_icon_is_a_16px_single_colour_fill_only_svg():
    """GTK 3 recolours symbolic icons by overriding fill: strokes, other colours or raster images would stay
    as drawn and break in dark themes."""
    text = SYMBOLIC_ICON.read_text(encoding="utf-8")
    root = ElementTree.fromstring(text)
    assert root.tag == SVG_NS + "svg"
    assert root.get("viewBox") == "0 0 16 16"
    assert (root.get("width"), root.get("height")) == ("16", "16")
    colours = {c.lower() for c in re.findall(r"#[0-9a-fA-F]{3,6}\b", text)}
    assert colours == {"#2e3436"}, colours
    for element in root.iter():
        assert element.tag not in (SVG_NS + "image", SVG_NS + "text"), element.tag
        assert element.get("stroke") in (None, "none"), "stroke on %s" % element.tag
        assert "stroke" not in (element.get("style") or ""), "stroke on %s" % element.tag


def test_installed_browser_host_manifests_start_the_installed_host_for_the_extension_alone(install):
    """Both browsers' manifests name the installed host script and allow only the extension's fixed ids (the gecko
    id, and the id Chromium derives from the manifest's key); the script answers a native message."""
    prefix, _, _ = install
    extension = json.loads((prefix / "share/image-gallery/browser-extension/manifest.json").read_text())
    gecko_id = extension["browser_specific_settings"]["gecko"]["id"]
    digest = hashlib.sha256(base64.b64decode(extension["key"])).hexdigest()[:32]
    chromium_id = "".join(chr(ord("a") + int(c, 16)) for c in digest)
    host = prefix / "libexec/image-gallery/browser-host"
    name = "io.github.imagegallery.image_gallery"
    firefox = json.loads((prefix / "lib/mozilla/native-messaging-hosts" / (name + ".json")).read_text())
    chromium = json.loads((prefix / "etc/chromium/native-messaging-hosts" / (name + ".json")).read_text())
    assert (firefox["name"], firefox["path"], firefox["allowed_extensions"]) == (name, str(host), [gecko_id])
    assert (chromium["name"], chromium["path"], chromium["allowed_origins"]) == (
        name, str(host), ["chrome-extension://%s/" % chromium_id])
    message = b'{"kind": "page"}'
    answer = subprocess.run([str(host)], input=struct.pack("=I", len(message)) + message, capture_output=True,
                            timeout=30)
    assert json.loads(answer.stdout[4:]) == {"ok": False, "error": "“page” must be an object"}
