"""How well the app's fingerprints find copies of an image and keep distinct images apart.

Real photographs (scikit-image's sample images, matplotlib's Grace Hopper; each large one also cut into its four
quarters, distinct pictures of their own) and photo-like generated ones (multi-octave noise, a tinted gradient,
shapes of every size), each with transformed copies made with Pillow: 50% and 25% size, JPEG quality 40, WebP, a 4%
crop (all of it from the right and the bottom, and 2% from each side), a 3-px white border, +25% brightness, +25%
contrast. The fingerprints come from the app's own code, decoded as a drop decodes them
(`gallery-benchmark likeness FILE…`, built with `swift build -c release --product gallery-benchmark`). Reports, for
each distance up to 16, the share of copies within it of their original (goal: at least 95% at the app's distance)
and the share of pairs of distinct originals within it (goal: at most 0.5%). The pictures are the same on every
run, so the figures are too. Not a test.

    /usr/bin/python3 Tests/benchmarks/likeness_quality.py [--generated N]
"""
import argparse
import glob
import itertools
import os
import random
import subprocess
import sys

from PIL import Image, ImageChops, ImageDraw, ImageEnhance

REPO_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BENCHMARK = os.environ.get("GALLERY_BENCHMARK_BIN") or os.path.join(REPO_ROOT, ".build", "release", "gallery-benchmark")
WORK = "/tmp/image-gallery-bench-likeness"
# The near-duplicate distance the app uses (Likeness.nearDuplicateDistance).
APP_DISTANCE = 10
# Pictures too alike to count as distinct: a stereo pair, and images of one colour.
SKIPPED = {"motorcycle_right", "checker_bilevel", "chessboard_GRAY", "chessboard_RGB", "foo3x5x4indexed",
           "palette_color", "palette_gray", "green_palette", "no_time_for_that_tiny", "bw_text", "text",
           "phantom", "block", "page", "logo", "horse", "color", "microaneurysms"}


def real_photographs():
    """(name, RGB image) of the photographs on this machine, and the quarters of the large ones."""
    import skimage.data
    folder = os.path.dirname(skimage.data.__file__)
    paths = sorted(glob.glob(os.path.join(folder, "*.png")) + glob.glob(os.path.join(folder, "*.jpg")))
    paths.append("/usr/share/matplotlib/mpl-data/sample_data/grace_hopper.jpg")
    photos = []
    for path in paths:
        name = os.path.splitext(os.path.basename(path))[0]
        if name in SKIPPED or not os.path.exists(path):
            continue
        try:
            image = Image.open(path)
            image.load()
        except OSError:
            continue
        if min(image.size) < 200:
            continue
        image = image.convert("RGB")
        photos.append((name, image))
        width, height = image.size
        if min(width, height) >= 400:
            for column, row in itertools.product((0, 1), (0, 1)):
                box = (column * width // 2, row * height // 2, (column + 1) * width // 2, (row + 1) * height // 2)
                photos.append((f"{name}-q{column}{row}", image.crop(box)))
    return photos


def generated_photo(seed):
    """A photo-like picture, 640×480: noise at several scales, a tinted gradient, shapes of every size."""
    rng = random.Random(seed)
    width, height = 640, 480
    channels = []
    for _ in range(3):
        acc = Image.new("L", (width, height), 128)
        for cells, weight in ((4, 0.6), (16, 0.35), (64, 0.25), (width, 0.1)):
            noise = Image.effect_noise((cells, cells * 3 // 4 + 1), 64).resize((width, height), Image.BICUBIC)
            acc = Image.blend(acc, noise, weight)
        channels.append(acc)
    image = Image.merge("RGB", channels)
    gradient = Image.linear_gradient("L").resize((width, height)).rotate(rng.randint(0, 359))
    tint = Image.new("RGB", (width, height), tuple(rng.randint(0, 255) for _ in range(3)))
    image = Image.composite(tint, image, gradient.point(lambda v: v * 0.6))
    draw = ImageDraw.Draw(image)
    for r in sorted((int(4 * (60 ** rng.random())) for _ in range(150)), reverse=True):
        x, y = rng.randint(-r, width), rng.randint(-r, height)
        colour = tuple(rng.randint(0, 255) for _ in range(3))
        if rng.random() < 0.5:
            draw.ellipse((x, y, x + r, y + r * rng.uniform(0.4, 1.6)), fill=colour)
        else:
            draw.rectangle((x, y, x + r * rng.uniform(0.4, 1.6), y + r), fill=colour)
    return image


def copies(image):
    """(transform, image, format) of each copy the web might make of `image`."""
    width, height = image.size
    bordered = Image.new("RGB", (width + 6, height + 6), (255, 255, 255))
    bordered.paste(image, (3, 3))
    return [
        ("50% size", image.resize((width // 2, height // 2), Image.LANCZOS), "PNG"),
        ("25% size", image.resize((width // 4, height // 4), Image.LANCZOS), "PNG"),
        ("JPEG q40", image, "JPEG"),
        ("WebP", image, "WEBP"),
        ("4% crop, one corner", image.crop((0, 0, round(width * 0.96), round(height * 0.96))), "PNG"),
        ("4% crop, centred", image.crop((round(width * 0.02), round(height * 0.02), round(width * 0.98),
                                        round(height * 0.98))), "PNG"),
        ("3-px border", bordered, "PNG"),
        ("+25% brightness", ImageEnhance.Brightness(image).enhance(1.25), "PNG"),
        ("+25% contrast", ImageEnhance.Contrast(image).enhance(1.25), "PNG"),
    ]


def save(image, path, kind):
    options = {"JPEG": {"quality": 40}, "WEBP": {"quality": 80}}.get(kind, {})
    image.save(path, kind, **options)


def fingerprints(paths):
    """{path: fingerprint as an int} from the app's own code."""
    result = {}
    for start in range(0, len(paths), 200):
        output = subprocess.run([BENCHMARK, "likeness", *paths[start:start + 200]], check=True,
                                capture_output=True, text=True).stdout
        for line in output.splitlines():
            fingerprint, _, path = line.split(" ", 2)
            if fingerprint != "-":
                result[path] = int(fingerprint, 16)
    return result


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--generated", type=int, default=150, help="photo-like pictures made (default 150)")
    args = parser.parse_args()
    if not os.path.exists(BENCHMARK):
        sys.exit(f"{BENCHMARK} is missing: swift build -c release --product gallery-benchmark")
    os.makedirs(WORK, exist_ok=True)
    originals = real_photographs() + [(f"generated-{seed}", generated_photo(seed)) for seed in range(args.generated)]
    pairs = []  # (original path, copy path, transform)
    original_paths = []
    for name, image in originals:
        path = os.path.join(WORK, f"{name}.png")
        if not os.path.exists(path):
            save(image, path, "PNG")
        original_paths.append(path)
        for number, (transform, copy, kind) in enumerate(copies(image)):
            copy_path = os.path.join(WORK, f"{name}-copy{number}.{kind.lower()}")
            if not os.path.exists(copy_path):
                save(copy, copy_path, kind)
            pairs.append((path, copy_path, transform))
    found = fingerprints(original_paths + [copy for _, copy, _ in pairs])
    missing = [path for path in original_paths + [copy for _, copy, _ in pairs] if path not in found]
    if missing:
        sys.exit(f"no fingerprint for {missing[:5]}")
    real = sum(1 for name, _ in originals if not name.startswith("generated-"))
    print(f"{len(originals)} originals ({real} real photographs and quarters, {args.generated} generated), "
          f"{len(pairs)} copies, {len(originals) * (len(originals) - 1) // 2} pairs of distinct originals")
    distances = [bin(found[a] ^ found[b]).count("1") for a, b, _ in pairs]
    distinct = [bin(found[a] ^ found[b]).count("1") for a, b in itertools.combinations(original_paths, 2)]
    print("distance  copies found  distinct pairs taken")
    for distance in range(4, 17):
        copies_found = sum(d <= distance for d in distances) / len(distances)
        false = sum(d <= distance for d in distinct) / len(distinct)
        mark = "  ← the app's" if distance == APP_DISTANCE else ""
        print(f"{distance:8}  {copies_found:11.1%}  {false:19.2%}{mark}")
    print(f"at the app's distance {APP_DISTANCE}, copies found by transform:")
    for transform in dict.fromkeys(t for _, _, t in pairs):
        chosen = [d for d, (_, _, t) in zip(distances, pairs) if t == transform]
        share = sum(d <= APP_DISTANCE for d in chosen) / len(chosen)
        print(f"  {transform:22} {share:6.1%}  (median distance {sorted(chosen)[len(chosen) // 2]})")
    worst = sorted((bin(found[a] ^ found[b]).count("1"), a, b) for a, b in itertools.combinations(original_paths, 2))
    print("closest distinct originals:", ", ".join(
        f"{os.path.basename(a)}~{os.path.basename(b)} {d}" for d, a, b in worst[:5]))


if __name__ == "__main__":
    main()
