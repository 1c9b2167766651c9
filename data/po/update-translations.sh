#!/usr/bin/env bash
# Brings the catalogs up to date with the sources: extracts every message (Swift through tr(),
# trPlural() and N_(); the desktop file; the metainfo) into image-gallery.pot, then merges it into
# each language's .po for its translator. With --check it changes nothing and fails if a source file
# with messages is missing from POTFILES.in or a message has no translation. Run from anywhere; needs
# Debian's gettext.
set -euo pipefail
cd "$(dirname "$0")/../.."
check=false
[ "${1:-}" = "--check" ] && check=true
pot=$(mktemp --suffix=.pot)
data=$(mktemp --suffix=.pot)
trap 'rm -f "$pot" "$data"' EXIT
files=$(grep -v '^#' data/po/POTFILES.in)
# xgettext's own messages are silenced below, so a file listed but gone is said here.
for file in $files; do [ -e "$file" ] || { echo "data/po/POTFILES.in names $file, which does not exist" >&2; exit 1; }; done
# xgettext has no Swift parser; its C lexer reads Swift's string literals and calls alike (it warns
# about Swift's multi-line literals, which hold no messages of their own).
xgettext --from-code=UTF-8 --language=C --keyword=tr:1 --keyword=trPlural:1,2 --keyword=N_ \
    --add-comments=Translators: --package-name=image-gallery --msgid-bugs-address=https://github.com/imagegallery/ImageGallery/issues \
    -o "$pot" $(echo "$files" | grep '\.swift$') 2>/dev/null
xgettext --from-code=UTF-8 --add-comments=Translators: -o "$data" $(echo "$files" | grep -v '\.swift$')
if $check; then
    unlisted=$(grep -rlE '\b(tr|trPlural|N_)\(' Sources --include='*.swift' | grep -v '/Localization.swift$' \
        | grep -vxF -f <(echo "$files") || true)
    [ -z "$unlisted" ] || { echo "not in data/po/POTFILES.in:" $unlisted >&2; exit 1; }
    msgcat --use-first -o "$pot" "$pot" "$data"
    for language in $(grep -v '^#' data/po/LINGUAS); do
        msgcmp "data/po/$language.po" "$pot"
    done
    exit 0
fi
msgcat --use-first -o data/po/image-gallery.pot "$pot" "$data"
for language in $(grep -v '^#' data/po/LINGUAS); do
    [ -f "data/po/$language.po" ] || msginit --no-translator --locale="$language" -i data/po/image-gallery.pot -o "data/po/$language.po"
    msgmerge --quiet --update --backup=none --no-fuzzy-matching "data/po/$language.po" data/po/image-gallery.pot
done
