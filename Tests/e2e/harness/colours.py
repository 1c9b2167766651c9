"""Colours read off screenshots (`dominant_colour`, `average_colour`, `colour_bbox`, `colour_close`) and the
palette of test images whose colour names them (`DISTINCT_IMAGES`)."""

import collections

from .waiting import HarnessError


def colour_close(a, b, tol=30):
    """True when every channel of a and b (RGB tuples) differs by at most tol."""
    return a is not None and b is not None and all(abs(int(x) - int(y)) <= tol for x, y in zip(a[:3], b[:3]))


def dominant_colour(image, box, fraction=0.5):
    """The most common RGB colour, and its share (0..1), in the centre part of box (x, y, width, height) of a
    PIL image: the centred rectangle with `fraction` of the box's width and height."""
    x, y, w, h = box
    cw, ch = max(1, int(w * fraction)), max(1, int(h * fraction))
    left, top = int(x + (w - cw) / 2), int(y + (h - ch) / 2)
    left, top = max(0, left), max(0, top)
    right, bottom = min(image.width, left + cw), min(image.height, top + ch)
    if right <= left or bottom <= top:
        raise HarnessError("box %r is outside the %dx%d screenshot" % (box, image.width, image.height))
    region = image.convert("RGB").crop((left, top, right, bottom))
    counts = collections.Counter(region.getdata())
    colour, count = counts.most_common(1)[0]
    return colour, count / float(region.width * region.height)


def colour_bbox(image, box, colour, tol=30, margin=12):
    """The bounding box (x, y, width, height), in screen coordinates, of the pixels close to colour within box grown
    by margin on every side; None when there are none. Tells how big the drawn image really is."""
    x, y, w, h = box
    left, top = max(0, int(x - margin)), max(0, int(y - margin))
    right, bottom = min(image.width, int(x + w + margin)), min(image.height, int(y + h + margin))
    region = image.convert("RGB").crop((left, top, right, bottom))
    lo = tuple(max(0, c - tol) for c in colour[:3])
    hi = tuple(min(255, c + tol) for c in colour[:3])
    bands = [b.point(lambda v, a=a, z=z: 255 if a <= v <= z else 0) for b, a, z in zip(region.split(), lo, hi)]
    from PIL import ImageChops
    mask = ImageChops.multiply(ImageChops.multiply(bands[0], bands[1]), bands[2])
    found = mask.getbbox()
    if found is None:
        return None
    return (left + found[0], top + found[1], found[2] - found[0], found[3] - found[1])


def average_colour(image, box, fraction=0.5):
    """The mean RGB colour of the centre part of box (see dominant_colour)."""
    x, y, w, h = box
    cw, ch = max(1, int(w * fraction)), max(1, int(h * fraction))
    left, top = max(0, int(x + (w - cw) / 2)), max(0, int(y + (h - ch) / 2))
    region = image.convert("RGB").crop((left, top, min(image.width, left + cw), min(image.height, top + ch)))
    pixels = list(region.getdata())
    return tuple(round(sum(p[i] for p in pixels) / len(pixels)) for i in range(3))


# A dozen distinct saturated colours at distinct aspect ratios (name, width, height, rgb, format): every pair differs
# by more than 60 in some channel, and none is near Adwaita's greys, white, black or its accent blue, so the colour at
# a cell's centre names the image (test_harness_selftest checks this).
DISTINCT_IMAGES = [
    ("red", 300, 200, (220, 20, 20), "png"),         # 1.5
    ("green", 180, 240, (20, 180, 40), "png"),       # 0.75
    ("blue", 200, 200, (20, 30, 220), "png"),        # 1.0
    ("yellow", 400, 200, (250, 220, 0), "png"),      # 2.0
    ("magenta", 150, 300, (210, 0, 210), "png"),     # 0.5
    ("cyan", 320, 240, (0, 210, 220), "png"),        # 1.333
    ("orange", 320, 180, (255, 130, 0), "jpeg"),     # 1.778, a JPEG
    ("purple", 200, 300, (120, 0, 180), "png"),      # 0.667
    ("lime", 250, 200, (150, 255, 0), "png"),        # 1.25
    ("pink", 240, 300, (255, 120, 180), "png"),      # 0.8
    ("teal", 500, 200, (0, 120, 110), "png"),        # 2.5
    ("brown", 270, 480, (130, 70, 10), "png"),       # 0.5625
]
# Two more for the file:// and data: images, distinct from the above too.
FILE_IMAGE = ("navy", 270, 300, (0, 0, 110), "png")       # 0.9
DATA_IMAGE = ("olive", 160, 100, (110, 160, 0), "png")    # 1.6
# Colours of the desktop itself that an image colour must not resemble.
UI_COLOURS = [(255, 255, 255), (246, 245, 244), (222, 221, 218), (0, 0, 0), (36, 31, 49), (53, 132, 228),
              (192, 191, 188), (119, 118, 123)]
