"""Writes the decompression bombs and lies of the hostile-input tests into a folder.

Every file is built here byte by byte (struct + zlib), independently of StickerKit's encoder.
Usage: make_bombs.py OUT_DIR
"""
import struct
import sys
import zlib
from pathlib import Path


def chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def png(width, height, idat, extra=b"", color_type=6):
    header = struct.pack(">IIBBBBB", width, height, 8, color_type, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + extra + idat + chunk(b"IEND", b"")


def rows(width, height, channels=4):
    return b"".join(b"\x00" + bytes(width * channels) for _ in range(height))


def gif_header(width, height):
    # Global colour table of 2 entries (black, white).
    return b"GIF89a" + struct.pack("<HHBBB", width, height, 0x80, 0, 0) + b"\x00\x00\x00\xff\xff\xff"


def gif_image(width, height, lzw_blocks, x=0, y=0):
    return b"\x2c" + struct.pack("<HHHHB", x, y, width, height, 0) + b"\x02" + lzw_blocks


def sub_blocks(data):
    out = bytearray()
    for i in range(0, len(data), 255):
        piece = data[i:i + 255]
        out += bytes([len(piece)]) + piece
    return bytes(out) + b"\x00"


def lzw_stream(codes, width=3):
    """Packs codes of a fixed bit width, LSB first (GIF's order)."""
    bits, count, out = 0, 0, bytearray()
    for code in codes:
        bits |= code << count
        count += width
        while count >= 8:
            out.append(bits & 0xFF)
            bits >>= 8
            count -= 8
    if count:
        out.append(bits & 0xFF)
    return bytes(out)


def main(out):
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    files = {}
    # A tiny file declaring a 65535x65535 canvas (16 GiB of RGBA).
    files["huge-canvas.png"] = png(65535, 65535, chunk(b"IDAT", zlib.compress(b"\x00" * 64)))
    # A one-pixel-wide canvas as tall as PNG allows (2^31 - 1): within the side limit, not the area.
    files["tallest-canvas.png"] = png(1, 0x7FFFFFFF, chunk(b"IDAT", zlib.compress(b"\x00" * 64)))
    # A real 8192x8192 image of zeros: 256 KiB of zlib that inflates to 256 MiB (1000x).
    files["zeros-8192.png"] = png(8192, 8192, chunk(b"IDAT", zlib.compress(rows(8192, 8192), 9)))
    # A 16x16 image whose zlib stream goes on to 64 MiB (4000x its 16 KiB of pixels).
    files["overlong-zlib.png"] = png(16, 16, chunk(b"IDAT", zlib.compress(rows(16, 16) + bytes(64 << 20), 9)))
    # An APNG declaring four billion frames.
    actl = chunk(b"acTL", struct.pack(">II", 0xFFFFFFFF, 0))
    fctl = chunk(b"fcTL", struct.pack(">IIIIIHHBB", 0, 16, 16, 0, 0, 1, 10, 0, 0))
    files["many-frames-declared.png"] = png(16, 16, fctl + chunk(b"IDAT", zlib.compress(rows(16, 16))), extra=actl)
    # An APNG frame rectangle reaching past the canvas.
    outside = chunk(b"fcTL", struct.pack(">IIIIIHHBB", 1, 16, 16, 60000, 60000, 1, 10, 0, 0))
    files["frame-outside.png"] = png(16, 16, fctl + chunk(b"IDAT", zlib.compress(rows(16, 16))) + outside
                                     + chunk(b"fdAT", struct.pack(">I", 2) + zlib.compress(rows(16, 16))),
                                     extra=chunk(b"acTL", struct.pack(">II", 2, 0)))
    # A chunk length far past the end of the file.
    files["chunk-past-end.png"] = png(16, 16, struct.pack(">I", 0x7FFFFFF0) + b"IDAT" + b"\x78\x9c")
    # A GIF of 20,000 real 1x1 frames (10,000 is the default frame limit).
    one_pixel = gif_image(1, 1, sub_blocks(lzw_stream([4, 0, 5])))  # clear, index 0, end: 3-bit codes
    files["many-frames.gif"] = gif_header(1, 1) + one_pixel * 20000 + b"\x3b"
    # A 1x1 GIF frame whose LZW data runs on for 16 MiB: clear codes forever (3-bit codes).
    clears = lzw_stream([4] * 8)  # eight 3-bit clear codes fill exactly 3 bytes
    files["endless-lzw.gif"] = gif_header(1, 1) + gif_image(1, 1, sub_blocks(clears * ((16 << 20) // 3))) + b"\x3b"
    # The same kind of stream with no block terminator and no trailer: it runs into the end.
    files["unterminated-lzw.gif"] = gif_header(1, 1) + gif_image(1, 1, sub_blocks(clears * 100000)[:-1])
    # A GIF frame larger than the screen and the limits.
    files["huge-frame.gif"] = gif_header(16, 16) + gif_image(65535, 65535, sub_blocks(lzw_stream([4, 0, 5]))) + b"\x3b"
    # Within the tests' budget: the largest image 4 Mpx allows, and the process's own baseline.
    files["zeros-2048.png"] = png(2048, 2048, chunk(b"IDAT", zlib.compress(rows(2048, 2048), 9)))
    files["tiny.png"] = png(16, 16, chunk(b"IDAT", zlib.compress(rows(16, 16), 9)))
    for name, data in files.items():
        (out / name).write_bytes(data)


if __name__ == "__main__":
    main(sys.argv[1])
