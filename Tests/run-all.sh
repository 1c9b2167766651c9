#!/usr/bin/env bash
# Installs what the tests need (Debian packages) and runs every test: the core's unit tests
# (swift test) and the end-to-end tests that drive the real app under Xvfb (pytest).
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(
    # build
    libgtk-3-dev libcurl4-openssl-dev libpng-dev
    # runtime: WebP decoding, icons, fonts
    webp-pixbuf-loader librsvg2-common adwaita-icon-theme fonts-dejavu-core
    # end-to-end: X server, real pointer, screenshots, accessibility, D-Bus
    xvfb xauth xdotool x11-utils imagemagick at-spi2-core python3-pyatspi python3-gi gir1.2-gtk-3.0
    dbus dbus-x11 python3-pytest python3-pil
    # real browsers to drag images from
    firefox-esr chromium
    # desktop integration
    meson ninja-build desktop-file-utils appstream gtk-update-icon-cache
)
missing=()
for package in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "ok installed" || missing+=("$package")
done
if [ ${#missing[@]} -gt 0 ]; then
    sudo=""
    [ "$(id -u)" -eq 0 ] || sudo="sudo"
    $sudo apt-get update
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y --no-install-recommends "${missing[@]}"
fi

export PATH="/opt/swift/usr/bin:$PATH"
swift build
swift test
# Debian's python: pyatspi exists only there.
/usr/bin/python3 -m pytest -p no:cacheprovider Tests/e2e "$@"
