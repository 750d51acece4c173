#!/usr/bin/env python3
"""Draws www/icon.svg's shape as the PNG icons the web app manifest names (192 and 512 px).

Run once when the icon changes; the PNGs are committed, the build does not need Python.
Only the standard library: each pixel is the coverage of a 4x4 grid of samples.
"""
import struct
import sys
import zlib
from pathlib import Path

BLUE = (0x3B, 0x5B, 0xDB)
WHITE = (0xFF, 0xFF, 0xFF)
SAMPLES = 4


def colour_at(x, y):
    """The icon's colour at a point of its 64x64 drawing, or None outside it (icon.svg)."""
    # The rounded square: 64x64 with corner radius 14.
    cx = min(max(x, 14), 50)
    cy = min(max(y, 14), 50)
    if (x - cx) ** 2 + (y - cy) ** 2 > 14 ** 2:
        return None
    d = abs(x - 32) + abs(y - 32)
    if d <= 10:
        return BLUE
    if d <= 20:
        return WHITE
    return BLUE


def pixels(size):
    scale = 64 / size
    rows = []
    for py in range(size):
        row = bytearray([0])  # filter type: none
        for px in range(size):
            r = g = b = n = 0
            for sy in range(SAMPLES):
                for sx in range(SAMPLES):
                    c = colour_at((px + (sx + 0.5) / SAMPLES) * scale, (py + (sy + 0.5) / SAMPLES) * scale)
                    if c:
                        r, g, b, n = r + c[0], g + c[1], b + c[2], n + 1
            if n:
                row += bytes((round(r / n), round(g / n), round(b / n), round(255 * n / SAMPLES ** 2)))
            else:
                row += bytes(4)
        rows.append(bytes(row))
    return b"".join(rows)


def png(size):
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    header = struct.pack(">IIBBBBB", size, size, 8, 6, 0, 0, 0)  # 8-bit RGBA
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(pixels(size), 9))
        + chunk(b"IEND", b"")
    )


if __name__ == "__main__":
    www = Path(sys.argv[1] if len(sys.argv) > 1 else Path(__file__).resolve().parent.parent / "www")
    for size in (192, 512):
        (www / f"icon-{size}.png").write_bytes(png(size))
        print(f"wrote {www / f'icon-{size}.png'}")
