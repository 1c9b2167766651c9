"""Image files built to make a decoder exhaust memory or time from a few kB (issue 30, class 3): each declares a
huge picture, or costs minutes to draw, in a different format. Shared by test_hostile_images.py and
Tests/benchmarks/hostile_decoders.py."""
import struct
import zlib

HUGE = 30000


def _png_chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)


def png_claiming(width, height):
    """A PNG header of `width`x`height` RGBA with one empty row of data."""
    return (b"\x89PNG\r\n\x1a\n" + _png_chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0))
            + _png_chunk(b"IDAT", zlib.compress(b"\0")) + _png_chunk(b"IEND", b""))


def tiff(width=HUGE, height=HUGE):
    """An uncompressed RGB TIFF declaring `width`x`height` in one strip, with 4 kB of pixels."""
    entries = [(256, 4, 1, width), (257, 4, 1, height), (258, 3, 1, 8), (259, 3, 1, 1), (262, 3, 1, 2),
               (273, 4, 1, 0), (277, 3, 1, 3), (278, 4, 1, height), (279, 4, 1, width * height * 3)]
    ifd_size = 2 + 12 * len(entries) + 4
    data_offset = 8 + ifd_size
    out = b"II*\0" + struct.pack("<I", 8) + struct.pack("<H", len(entries))
    for tag, kind, count, value in entries:
        if tag == 273:
            value = data_offset
        packed = struct.pack("<HH", value, 0) if kind == 3 else struct.pack("<I", value & 0xFFFFFFFF)
        out += struct.pack("<HHI", tag, kind, count) + packed
    return out + struct.pack("<I", 0) + bytes(4096)


def progressive_jpeg(width=HUGE, height=HUGE):
    """The headers of a progressive (SOF2) 4:2:0 JPEG of `width`x`height`, and a first scan cut short."""
    quant = b"\xff\xdb" + struct.pack(">H", 67) + b"\0" + bytes([1] * 64)
    sof = b"\xff\xc2" + struct.pack(">HBHHB", 17, 8, height, width, 3) + b"\x01\x22\x00\x02\x11\x00\x03\x11\x00"
    huffman = b"\xff\xc4" + struct.pack(">H", 2 + 17 + 1) + b"\x00" + bytes([1] + [0] * 15) + b"\x00"
    sos = b"\xff\xda" + struct.pack(">HB", 12, 3) + b"\x01\x00\x02\x00\x03\x00" + b"\x00\x00\x00"
    return b"\xff\xd8" + quant + sof + huffman + sos + bytes(2048) + b"\xff\xd9"


def _box(kind, payload):
    return struct.pack(">I", 8 + len(payload)) + kind + payload


def iso_media(brand, width=HUGE, height=HUGE):
    """An AVIF (`brand` b"avif") or HEIF (b"heic") whose item properties declare `width`x`height` (ispe)."""
    ispe = _box(b"ispe", b"\0\0\0\0" + struct.pack(">II", width, height))
    meta = _box(b"meta", b"\0\0\0\0" + _box(b"hdlr", b"\0" * 8 + b"pict" + b"\0" * 13)
                + _box(b"iprp", _box(b"ipco", ispe)))
    return _box(b"ftyp", brand + b"\0\0\0\0" + brand + b"mif1") + meta + _box(b"mdat", bytes(4096))


def xpm(width=HUGE, height=HUGE):
    return ('/* XPM */\nstatic char *bomb[] = {\n"%d %d 1 1",\n". c #ff0000",\n' % (width, height)
            + ",\n".join('"' + "." * 64 + '"' for _ in range(16)) + "\n};\n").encode()


def xbm(width=HUGE, height=HUGE):
    return ("#define bomb_width %d\n#define bomb_height %d\nstatic unsigned char bomb_bits[] = {\n" % (width, height)
            + ", ".join(["0xff"] * 2048) + "};\n").encode()


def gif_with_huge_frame(width=HUGE, height=HUGE):
    """A 16x16 GIF whose one frame declares `width`x`height`."""
    screen = b"GIF89a" + struct.pack("<HHBBB", 16, 16, 0x80, 0, 0) + b"\0\0\0\xff\xff\xff"
    frame = b"\x2c" + struct.pack("<HHHHB", 0, 0, width, height, 0) + b"\x02" + b"\xff" + bytes(255) * 1 + b"\0"
    return screen + frame + b"\x3b"


def ico_with_huge_png(width=HUGE, height=HUGE):
    """An icon whose one entry says 256x256 and holds a PNG of `width`x`height`."""
    png = png_claiming(width, height)
    return struct.pack("<HHH", 0, 1, 1) + struct.pack("<BBBBHHII", 0, 0, 0, 0, 1, 32, len(png), 22) + png


def tga(width=8000, height=8000):
    """A run-length encoded TGA of `width`x`height` in one grey: about 1 MB that decodes to 192 MB."""
    header = struct.pack("<BBBHHBHHHHBB", 0, 0, 10, 0, 0, 0, 0, 0, width, height, 24, 0x20)
    packets = (width * height + 127) // 128
    return header + b"\xff\x80\x80\x80" * packets


def svg_slow_filter():
    """An SVG whose every pixel runs a turbulence filter of thousands of octaves, a hundred times over."""
    uses = "".join('<use xlink:href="#r" x="%d"/>' % i for i in range(100))
    return ('<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="400" '
            'height="400"><defs><filter id="f" x="0" y="0" width="400" height="400" filterUnits="userSpaceOnUse">'
            '<feTurbulence baseFrequency="0.05" numOctaves="100000"/></filter>'
            '<rect id="r" width="400" height="400" filter="url(#f)"/></defs>%s</svg>' % uses).encode()


# Every case: a name, the file's bytes, its media type, and its extension.
def cases():
    return [
        ("TIFF %dx%d" % (HUGE, HUGE), tiff(), "image/tiff", "tif"),
        ("progressive JPEG %dx%d" % (HUGE, HUGE), progressive_jpeg(), "image/jpeg", "jpg"),
        ("progressive JPEG 8000x8000", progressive_jpeg(8000, 8000), "image/jpeg", "jpg"),
        ("AVIF ispe %dx%d" % (HUGE, HUGE), iso_media(b"avif"), "image/avif", "avif"),
        ("HEIF ispe %dx%d" % (HUGE, HUGE), iso_media(b"heic"), "image/heic", "heic"),
        ("XPM %dx%d" % (HUGE, HUGE), xpm(), "image/x-xpixmap", "xpm"),
        ("XBM %dx%d" % (HUGE, HUGE), xbm(), "image/x-xbitmap", "xbm"),
        ("GIF frame %dx%d" % (HUGE, HUGE), gif_with_huge_frame(), "image/gif", "gif"),
        ("ICO with a PNG %dx%d" % (HUGE, HUGE), ico_with_huge_png(), "image/x-icon", "ico"),
        ("TGA 8000x8000 (RLE)", tga(), "image/x-tga", "tga"),
        ("SVG turbulence filter", svg_slow_filter(), "image/svg+xml", "svg"),
    ]
