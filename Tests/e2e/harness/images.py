"""Encoded images made in pure Python (PNG from zlib and struct; other formats through PIL), and the URLs that
carry them (`data_url`, `file_url`)."""

import base64
import io
import os
import struct
import urllib.parse
import zlib


def _png_chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)


def png_bytes(width, height, rgb):
    """A solid-colour 8-bit RGB PNG, deterministic (same arguments, same bytes), made with zlib and struct."""
    if width < 1 or height < 1:
        raise ValueError("PNG size must be positive")
    r, g, b = (int(c) & 0xFF for c in rgb)
    row = b"\x00" + bytes((r, g, b)) * width  # filter type 0, then the pixels
    ihdr = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + _png_chunk(b"IHDR", ihdr)
            + _png_chunk(b"IDAT", zlib.compress(row * height, 9)) + _png_chunk(b"IEND", b""))


def palette_png_bytes(width, height, rgb):
    """A solid-colour PNG of any size that stays small to make and to send: 1 bit per pixel, one palette
    colour. Decoded naively it costs width x height x 4 bytes, which is what a pixel bomb relies on."""
    row = b"\x00" + bytes((width + 7) // 8)
    compressor = zlib.compressobj(9)
    body = b"".join(compressor.compress(row) for _ in range(height)) + compressor.flush()
    ihdr = struct.pack(">IIBBBBB", width, height, 1, 3, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + _png_chunk(b"IHDR", ihdr) + _png_chunk(b"PLTE", bytes(rgb))
            + _png_chunk(b"IDAT", body) + _png_chunk(b"IEND", b""))


def decode_png_size(data):
    """(width, height) from a PNG's IHDR, without decoding it."""
    if data[:8] != b"\x89PNG\r\n\x1a\n" or data[12:16] != b"IHDR":
        raise ValueError("not a PNG")
    return struct.unpack(">II", data[16:24])


def encoded_image(width, height, rgb, fmt="png"):
    """The image in fmt ('png' pure Python; 'jpeg', 'webp', 'gif', 'bmp' through PIL)."""
    if fmt == "png":
        return png_bytes(width, height, rgb)
    from PIL import Image
    out = io.BytesIO()
    image = Image.new("RGB", (width, height), tuple(rgb))
    options = {"jpeg": {"quality": 95}, "webp": {"lossless": True}}.get(fmt, {})
    image.save(out, format=fmt.upper(), **options)
    return out.getvalue()


CONTENT_TYPES = {"png": "image/png", "jpeg": "image/jpeg", "jpg": "image/jpeg", "webp": "image/webp",
                 "gif": "image/gif", "bmp": "image/bmp"}


def data_url(data, mime="image/png"):
    return "data:%s;base64,%s" % (mime, base64.b64encode(data).decode("ascii"))


def file_url(path):
    return "file://" + urllib.parse.quote(os.path.abspath(path))
