#!/usr/bin/env bash
# Brings the catalogs up to date with the sources: extracts every message (Swift through tr(),
# trPlural() and N_(); the desktop file; the metainfo) into image-gallery.pot, then merges it into
# each language's .po for its translator. Run from anywhere; needs Debian's gettext.
set -euo pipefail
cd "$(dirname "$0")/../.."
pot=$(mktemp --suffix=.pot)
data=$(mktemp --suffix=.pot)
trap 'rm -f "$pot" "$data"' EXIT
files=$(grep -v '^#' data/po/POTFILES.in)
# xgettext has no Swift parser; its C lexer reads Swift's string literals and calls alike (it warns
# about Swift's multi-line literals, which hold no messages of their own).
xgettext --from-code=UTF-8 --language=C --keyword=tr:1 --keyword=trPlural:1,2 --keyword=N_ \
    --add-comments=Translators: --package-name=image-gallery --msgid-bugs-address=https://github.com/imagegallery/ImageGallery/issues \
    -o "$pot" $(echo "$files" | grep '\.swift$') 2>/dev/null
xgettext --from-code=UTF-8 --add-comments=Translators: -o "$data" $(echo "$files" | grep -v '\.swift$')
msgcat --use-first -o data/po/image-gallery.pot "$pot" "$data"
for language in $(grep -v '^#' data/po/LINGUAS); do
    [ -f "data/po/$language.po" ] || msginit --no-translator --locale="$language" -i data/po/image-gallery.pot -o "data/po/$language.po"
    msgmerge --quiet --update --backup=none --no-fuzzy-matching "data/po/$language.po" data/po/image-gallery.pot
done
