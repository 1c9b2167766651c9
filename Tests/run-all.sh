#!/usr/bin/env bash
# Installs what the tests need (Debian packages) and runs every test: the core's unit tests
# (swift test) and the end-to-end tests that drive the real app under Xvfb (pytest).
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(
    # build (gettext: msgfmt compiles the translations)
    libgtk-3-dev libcurl4-openssl-dev libssl-dev libpng-dev libwebp-dev libexempi-dev libseccomp-dev gettext
    # runtime: XMP sidecars, the decoder's seccomp filter, WebP, AVIF, HEIF and SVG decoding, icons, fonts
    libexempi8 libseccomp2 webp-pixbuf-loader libavif-gdk-pixbuf heif-gdk-pixbuf librsvg2-common adwaita-icon-theme fonts-dejavu-core
    # the French and Russian locales the translation tests run in
    locales
    # encoders for the format tests' AVIF, HEIF and animated WebP files
    libavif-bin libheif-examples webp
    # end-to-end: X server, real pointer, screenshots, accessibility, D-Bus
    xvfb xauth xdotool x11-utils imagemagick at-spi2-core python3-pyatspi python3-gi gir1.2-gtk-3.0
    dbus dbus-x11 python3-pytest python3-pil
    # photographs for the near-duplicate benchmark (scikit-image's sample images)
    python3-skimage
    # the benchmarks' frame grabber (screen_watch.py), which an end-to-end test drives too
    python3-xlib python3-numpy
    # exiv2 reads an export's XMP sidecars back
    exiv2
    # the sync engine two libraries share a folder through
    syncthing
    # an HTTP/2 server the multiplexing tests download from, and the HTTP/2 library of the benchmarks' slow one
    nghttp2-server python3-h2
    # real browsers to drag images from
    firefox-esr chromium
    # desktop integration
    meson ninja-build desktop-file-utils appstream gtk-update-icon-cache
    # the user manual: Mallard pages checked by yelp-check, translated and installed with itstool
    yelp-tools itstool
)
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
missing=()
for package in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "ok installed" || missing+=("$package")
done
if [ ${#missing[@]} -gt 0 ]; then
    $sudo apt-get update
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y --no-install-recommends "${missing[@]}"
fi

# Locales the translation tests launch the app in (glibc's messages and numbers need them generated).
missing_locales=()
for locale in fr_FR.UTF-8 ru_RU.UTF-8; do
    locale -a | grep -qix "${locale/UTF-8/utf8}" || missing_locales+=("$locale")
done
if [ ${#missing_locales[@]} -gt 0 ]; then
    for locale in "${missing_locales[@]}"; do
        $sudo sed -i "s/^# *\($locale UTF-8\)/\1/" /etc/locale.gen
        grep -q "^$locale UTF-8" /etc/locale.gen || echo "$locale UTF-8" | $sudo tee -a /etc/locale.gen >/dev/null
    done
    $sudo locale-gen
fi

# Every catalog is valid (the build compiles them with --check too).
for catalog in data/po/*.po; do msgfmt --check --output-file=/dev/null "$catalog"; done
# Every message in the sources has its French and Russian translation.
bash data/po/update-translations.sh --check
# The user manual's pages are valid Mallard, and every word of them has its French and Russian translation.
yelp-check validate data/help/C/*.page
help_pot=$(mktemp --suffix=.pot)
itstool -o "$help_pot" data/help/C/*.page data/help/C/legal.xml
for language in $(grep -v '^#' data/help/LINGUAS); do
    msgfmt --check --output-file=/dev/null "data/help/$language/$language.po"
    msgcmp "data/help/$language/$language.po" "$help_pot"
done
rm -f "$help_pot"

export PATH="/opt/swift/usr/bin:$PATH"
# Each run of the Swift driver leaves a "TemporaryDirectory.*" folder in $TMPDIR (swift-driver keeps it on purpose), so
# Swift's tools, and the unit tests they run, get a temporary folder of their own, removed when this script ends.
swift_temporary=$(mktemp -d)
trap 'rm -rf "$swift_temporary"' EXIT
swift() { TMPDIR="$swift_temporary" command swift "$@"; }
# The code's style: `swift format` (.swift-format: 120 columns) has nothing to change or warn about.
swift format lint --strict --recursive --parallel Sources Tests Package.swift
# Warnings are errors here, not in Package.swift, where a newer compiler's new warning would stop a packager's
# build. The check builds in a folder of its own: in the folder of a plain `swift build`, its different flags would
# make SwiftPM compile everything again, each time one follows the other.
strict=(--scratch-path "$PWD/.build-strict" -Xswiftc -warnings-as-errors -Xcc -Werror)
swift build --build-tests "${strict[@]}"
# The unit tests run from the strict build, so the tests are compiled once.
swift test --skip-build "${strict[@]}"
# The end-to-end tests launch the strict build's app (the flags change no code, only stop at a warning), and Meson's
# install test builds with the same arguments, which find it up to date: the app is compiled once too.
export IMAGE_GALLERY_BIN="$PWD/.build-strict/debug/image-gallery" IMAGE_GALLERY_SWIFT_BUILD_ARGS="${strict[*]}"
# Debian's python: pyatspi exists only there. The slowest tests are named, to keep the run within its time.
/usr/bin/python3 -m pytest -p no:cacheprovider --durations=30 Tests/e2e "$@"
# The README's launch command builds for release, which links Swift's runtime in (Package.swift): that build is made
# too, and the tests of what a launch maps run on it.
swift build -c release --product image-gallery "${strict[@]}"
IMAGE_GALLERY_BIN="$PWD/.build-strict/release/image-gallery" \
    /usr/bin/python3 -m pytest -p no:cacheprovider Tests/e2e/test_launch_libraries.py
