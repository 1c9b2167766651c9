#!/usr/bin/python3
"""A library of any size, as a user who keeps what they find for years has one:
`/usr/bin/python3 Tests/benchmarks/generated_library.py COUNT FOLDER [--galleries 200] [--no-likeness]`.

Writes FOLDER/state.json and FOLDER/originals/ (a library folder, as the app keeps one in its data folder): COUNT
images in `--galleries` galleries (200 by default), in today's state-file format laid out as the app writes it (its
own `--print-state` prints the file back byte for byte). Each image has its address (`url`, on 127.0.0.1:9, where
nothing listens: the app shows what it keeps), its `origin` (when and how it was added, the page it was on, its alt
text), a note and one to three tags (search_typing.py's words and tags, some accented, Cyrillic or nested), its kept
`original`, its measured `likeness` and `animation` (a still): a library the app has nothing left to do for in the
background (with `--no-likeness`, none has its likeness, which the launch then measures). The originals are `POOL`
small photo-like JPEGs (a gradient, a tint and grain, 240-400 px a side, every one distinct), which the images share
in turn, so that every first screen paints real thumbnails.

A million images take about 40 s on this machine and 480 MB. `write_library` is what the benchmarks call.
"""
import argparse
import hashlib
import io
import os
import random
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from search_typing import TAGS, WORDS  # noqa: E402

POOL = 256
GALLERIES = 200
SITES = 400


def pool_photos(count=POOL):
    """[(JPEG bytes, width, height)]: distinct small photos with grain everywhere (no flat block on screen)."""
    from PIL import Image
    rng = random.Random(48)
    photos = []
    for index in range(count):
        width, height = 240 + (index * 37) % 161, 200 + (index * 53) % 101
        base = Image.linear_gradient("L").resize((width, height)).convert("RGB")
        if index % 2:
            base = base.transpose(Image.Transpose.ROTATE_180)
        tint = Image.new("RGB", (width, height), tuple(rng.randrange(256) for _ in range(3)))
        noise = Image.effect_noise((width, height), 48).convert("RGB")
        picture = Image.blend(Image.blend(base, tint, 0.55), noise, 0.3)
        buffer = io.BytesIO()
        picture.save(buffer, "JPEG", quality=85)
        photos.append((buffer.getvalue(), width, height))
    return photos


def write_originals(folder, photos):
    """Each photo under originals/ by its SHA-256, as the library keeps it; returns their `original` texts' parts."""
    kept = []
    for data, width, height in photos:
        sha256 = hashlib.sha256(data).hexdigest()
        directory = os.path.join(folder, "originals", sha256[:2])
        os.makedirs(directory, exist_ok=True)
        with open(os.path.join(directory, sha256), "wb") as out:
            out.write(data)
        kept.append((sha256, len(data), width, height))
    return kept


def quoted(text):
    """A JSON string as the app writes it: `"` and `\\` escaped, everything else as UTF-8."""
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def aspect_text(width, height):
    """The ratio as the app writes a Double: the shortest text that reads back, without a trailing ".0"."""
    text = repr(width / height)
    return text[:-2] if text.endswith(".0") else text


# One image as the app lays it out at depth 4: fields in name order, two spaces an indent, `"name" : value`.
IMAGE = """
        {
          "animation" : false,
          "aspectRatio" : %s,
          "id" : "%s",
          "likeness" : "%016x.%s",
          "note" : %s,
          "origin" : {
            "added" : "%s",
            "alt" : %s,
            "arrival" : "drop",
            "page" : "https://www.site%d.example/post/%d"
          },
          "original" : %s,
          "tags" : [%s
          ],
          "url" : "http://127.0.0.1:9/site%d/%d.jpg"
        }"""

PALETTES = ["8a5c4a2b3d1c1e2f", "9c4b5a3c2e2d1f1a", "7d6b6c4a3b2c2a1b", "a35e4c2d1b3c1a4d"]


# The same without its likeness: a library from before the app measured how images look.
UNMEASURED = IMAGE.replace('          "likeness" : "%016x.%s",\n', "")


def write_library(folder, count, galleries=GALLERIES, log=lambda *words: None, likeness=True):
    """Writes the library (state.json and originals/) into `folder`; returns the state file's size in bytes.
    likeness=False leaves every image's likeness out, for the app to measure at launch."""
    started = time.monotonic()
    os.makedirs(folder, exist_ok=True)
    kept = write_originals(folder, pool_photos())
    originals = ["""{
            "bytes" : %d,
            "format" : "jpeg",
            "height" : %d,
            "sha256" : "%s",
            "width" : %d
          }""" % (size, height, sha256, width) for sha256, size, width, height in kept]
    aspects = [aspect_text(width, height) for _, _, width, height in kept]
    rng = random.Random(1000)
    notes = [quoted(" ".join(rng.choice(WORDS) for _ in range(rng.randint(2, 6)))) for _ in range(4096)]
    alts = [quoted("A %s by the %s" % (rng.choice(WORDS), rng.choice(WORDS))) for _ in range(1024)]
    tag_lists = ["".join("\n            %s," % quoted(tag) for tag in rng.sample(TAGS, rng.randint(1, 3)))[:-1]
                 for _ in range(512)]
    days = ["20%02d-%02d-%02dT%02d:%02d:00Z" % (16 + d % 10, 1 + d % 12, 1 + d % 28, d % 24, d % 60)
            for d in range(3650)]
    path = os.path.join(folder, "state.json")
    per_gallery, extra = divmod(count, galleries)
    index = 0
    with open(path, "w", encoding="utf-8") as out:
        out.write('{\n  "galleries" : [')
        for g in range(galleries):
            size = per_gallery + (1 if g < extra else 0)
            parts = ['%s\n    {\n      "id" : "g%03d",\n      "images" : [' % ("," if g else "", g)]
            for i in range(size):
                mix = (index * 2654435761) & 0xffffffff
                photo = index % POOL
                measured = ((mix << 32 | index) & 0xffffffffffffffff, PALETTES[mix % 4]) if likeness else ()
                parts.append((IMAGE if likeness else UNMEASURED) % (
                    (aspects[photo], "g%03di%07d" % (g, i)) + measured + (
                        notes[mix % 4096][:-1] + ' %d"' % i, days[mix % 3650], alts[mix % 1024],
                        mix % SITES, index, originals[photo], tag_lists[(mix >> 12) % 512], mix % SITES, index)))
                parts.append(",")
                index += 1
            if size:
                parts.pop()
            else:
                parts.append("\n")  # an empty list spans a blank line, as the app writes it
            parts.append('\n      ],\n      "name" : "Gallery %d"\n    }' % (g + 1))
            out.write("".join(parts))
        out.write('\n  ],\n  "shownGalleryID" : "g000",\n  "sidebarVisible" : false,\n  "version" : 1\n}')
    size = os.path.getsize(path)
    log("%d images in %d galleries: %.0f MB in %.1f s" % (count, galleries, size / 1e6, time.monotonic() - started))
    return size


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("count", type=int)
    parser.add_argument("folder")
    parser.add_argument("--galleries", type=int, default=GALLERIES)
    parser.add_argument("--no-likeness", action="store_true", help="leave every image's likeness out")
    args = parser.parse_args()
    write_library(args.folder, args.count, args.galleries, log=print, likeness=not args.no_likeness)


if __name__ == "__main__":
    main()
