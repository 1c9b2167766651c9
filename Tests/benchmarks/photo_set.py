"""Photo-like JPEGs for the benchmarks, made with PIL only, cached under /tmp.

`photo_set(count)` returns the sorted paths of `count` JPEGs in /tmp/image-gallery-bench-photos-v2-<count>/ (made once;
a later call with the same count reuses them): every side between 1,067 and 2,000 px (3:2, 2:3, 4:3, 3:4, 16:9,
1:1), quality 90, with detail at every scale so that sharpness survives a downscale and can be measured: a few base
"photos" (multi-octave noise, gradients, hundreds of shapes from 4 px to 600 px, thin lines, text), and each file a
crop of one of them, turned by a multiple of 90 degrees, with its colours shifted. `linked_set(count, base)` gives a
larger set made of hard links to a smaller one (distinct paths and URLs, no extra disk or time): the 50,000-image
launch only decodes the first screen's files.
"""
import multiprocessing
import os
import random
import shutil

BASE_SIZE = 2400
BASES = 6
SHAPES = [(3, 2), (2, 3), (4, 3), (3, 4), (16, 9), (1, 1)]
QUALITY = 90


def _sizes(index):
    """(width, height) of the index-th photo: both sides in 1067..2000."""
    rng = random.Random(index * 7919 + 1)
    a, b = SHAPES[index % len(SHAPES)]
    if a >= b:
        height = rng.randint(1067, min(2000, int(2000 * b / a)))
        width = min(2000, round(height * a / b))
    else:
        width = rng.randint(1067, min(2000, int(2000 * a / b)))
        height = min(2000, round(width * b / a))
    return width, height


def _base(seed):
    from PIL import Image, ImageChops, ImageDraw, ImageFilter
    rng = random.Random(seed)
    size = BASE_SIZE
    # multi-octave noise: coarse blobs to fine grain, each channel its own
    channels = []
    for _ in range(3):
        acc = Image.new("L", (size, size), 128)
        for cells, weight in ((6, 0.5), (24, 0.35), (96, 0.3), (400, 0.25), (size, 0.12)):
            noise = Image.effect_noise((cells, cells), 64).resize((size, size), Image.BICUBIC)
            acc = ImageChops.add(ImageChops.multiply(acc, Image.new("L", (size, size), int(255 * (1 - weight)))),
                                 ImageChops.multiply(noise, Image.new("L", (size, size), int(255 * weight))))
        channels.append(acc)
    image = Image.merge("RGB", channels)
    gradient = Image.linear_gradient("L").resize((size, size)).rotate(rng.randint(0, 359))
    tint = Image.new("RGB", (size, size), tuple(rng.randint(0, 255) for _ in range(3)))
    image = Image.composite(tint, image, gradient.point(lambda v: v * 0.45))
    draw = ImageDraw.Draw(image)
    # biggest first, so the small ones stay on top: detail at every scale
    for r in sorted((int(4 * (100 ** rng.random())) for _ in range(2500)), reverse=True):  # 4..400 px
        x, y = rng.randint(-r, size), rng.randint(-r, size)
        colour = tuple(rng.randint(0, 255) for _ in range(3))
        kind = rng.random()
        if kind < 0.4:
            draw.ellipse((x, y, x + r, y + r * rng.uniform(0.4, 1.6)), fill=colour)
        elif kind < 0.7:
            draw.polygon([(x + rng.randint(0, r), y + rng.randint(0, r)) for _ in range(rng.randint(3, 6))],
                         fill=colour)
        elif kind < 0.9:
            draw.line((x, y, x + rng.randint(-r, r), y + rng.randint(-r, r)), fill=colour,
                      width=rng.randint(1, 4))
        else:
            draw.rectangle((x, y, x + r, y + r // 2), outline=colour, width=rng.randint(1, 3))
    for _ in range(150):
        draw.text((rng.randint(0, size), rng.randint(0, size)), "IMG %04d" % rng.randint(0, 9999),
                  fill=tuple(rng.randint(0, 255) for _ in range(3)))
    image = image.filter(ImageFilter.SMOOTH_MORE).filter(ImageFilter.UnsharpMask(2, 60, 2))
    # grain over everything, in blobs of a few pixels: no flat area survives a downscale (a flat block on screen
    # is then a placeholder, never a picture)
    grain = Image.merge("RGB", [Image.effect_noise((size // 5, size // 5), 30).resize((size, size), Image.BICUBIC)
                                for _ in range(3)])
    return ImageChops.add(image, grain, 1.0, -128)


_BASES = {}


def _make(job):
    folder, index = job
    from PIL import Image
    key = (folder, index % BASES)
    if key not in _BASES:  # each worker decodes each base once
        _BASES[key] = Image.open(os.path.join(folder, ".base%d.png" % (index % BASES))).convert("RGB")
    base = _BASES[key]
    width, height = _sizes(index)
    rng = random.Random(index)
    turn = rng.choice([None, Image.ROTATE_90, Image.ROTATE_180, Image.ROTATE_270])
    if turn in (Image.ROTATE_90, Image.ROTATE_270):
        cw, ch = height, width
    else:
        cw, ch = width, height
    x, y = rng.randint(0, BASE_SIZE - cw), rng.randint(0, BASE_SIZE - ch)
    image = base.crop((x, y, x + cw, y + ch))
    if turn is not None:
        image = image.transpose(turn)
    bands = list(image.split())
    rng.shuffle(bands)
    image = Image.merge("RGB", bands)
    shift = [rng.randint(0, 60) for _ in range(3)]
    image = image.point([min(255, v + shift[band]) for band in range(3) for v in range(256)])
    path = os.path.join(folder, "img%05d.jpg" % index)
    image.save(path + ".part", "JPEG", quality=QUALITY)
    os.replace(path + ".part", path)
    return path


def _make_base(job):
    folder, seed = job
    path = os.path.join(folder, ".base%d.png" % seed)
    if not os.path.exists(path):
        _base(seed).save(path + ".part.png", compress_level=1)
        os.replace(path + ".part.png", path)
    return path


def photo_set(count, root="/tmp", log=print):
    folder = os.path.join(root, "image-gallery-bench-photos-v2-%d" % count)
    done = os.path.join(folder, ".complete")
    paths = [os.path.join(folder, "img%05d.jpg" % i) for i in range(count)]
    if os.path.exists(done):
        return paths
    os.makedirs(folder, exist_ok=True)
    missing = [i for i, p in enumerate(paths) if not os.path.exists(p)]
    log("making %d photo-like JPEGs in %s (once; cached) ..." % (len(missing), folder))
    workers = max(1, os.cpu_count() or 1)
    with multiprocessing.Pool(workers) as pool:
        pool.map(_make_base, [(folder, s) for s in range(BASES)])
        for n, _ in enumerate(pool.imap_unordered(_make, [(folder, i) for i in missing], chunksize=16)):
            if n and n % 1000 == 0:
                log("  %d/%d" % (n, len(missing)))
    open(done, "w").close()
    return paths


GRAIN_SIZES = [(2000, 1333), (1333, 2000), (1600, 1200), (1200, 1600), (2000, 1125), (1500, 1500)]


def grain_set(count=40, root="/tmp", log=print):
    """(paths, sizes) of `count` JPEGs of fine grain and noise over a smooth picture (film grain one pixel wide,
    and sensor noise in each channel), made once in /tmp/image-gallery-bench-grain-v1-<count>/: the kind of photo
    whose detail a cell decoded from a thumbnail barely larger than itself loses to the second resampling."""
    import numpy
    from PIL import Image
    folder = os.path.join(root, "image-gallery-bench-grain-v1-%d" % count)
    done = os.path.join(folder, ".complete")
    sizes = [GRAIN_SIZES[i % len(GRAIN_SIZES)] for i in range(count)]
    paths = [os.path.join(folder, "grain%03d.jpg" % i) for i in range(count)]
    if os.path.exists(done):
        return paths, sizes
    log("making %d grainy JPEGs in %s (once; cached) ..." % (count, folder))
    os.makedirs(folder, exist_ok=True)
    for i, (path, (width, height)) in enumerate(zip(paths, sizes)):
        rng = numpy.random.default_rng(i)
        small = rng.uniform(40, 215, (6, 8, 3)).astype(numpy.uint8)
        smooth = numpy.asarray(Image.fromarray(small).resize((width, height), Image.BICUBIC), dtype=numpy.float32)
        grain = rng.normal(0, 18, (height, width, 1))
        noise = rng.normal(0, 10, (height, width, 3))
        pixels = numpy.clip(smooth + grain + noise, 0, 255).astype(numpy.uint8)
        Image.fromarray(pixels).save(path + ".part", "JPEG", quality=92)
        os.replace(path + ".part", path)
    open(done, "w").close()
    return paths, sizes


def linked_set(count, base_paths, root="/tmp"):
    """count paths that are hard links to base_paths in turn (the first len(base_paths) are those files' links)."""
    folder = os.path.join(root, "image-gallery-bench-photos-v2-%d-linked-%d" % (count, len(base_paths)))
    done = os.path.join(folder, ".complete")
    paths = [os.path.join(folder, "img%05d.jpg" % i) for i in range(count)]
    if os.path.exists(done):
        return paths
    shutil.rmtree(folder, ignore_errors=True)
    os.makedirs(folder)
    for i, path in enumerate(paths):
        source = base_paths[i % len(base_paths)]
        try:
            os.link(source, path)
        except OSError:
            os.symlink(source, path)
    open(done, "w").close()
    return paths


def size_of(index):
    return _sizes(index)
