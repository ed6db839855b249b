#!/usr/bin/env python3
"""png_stats.py FILE.png — prints width, height, distinct colours, the share
of pixels that differ from the most common colour (the background) and the
standard deviation of luminance; exits 1 when the picture looks blank
(fewer than 8 colours, or under 1% of pixels off the background).
Decodes 8-bit RGB/RGBA PNGs with zlib only (no PIL)."""
import struct
import sys
import zlib


def decode(path):
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("not a PNG")
    pos, idat, ihdr = 8, [], None
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            ihdr = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat.append(body)
        pos += 12 + length
    w, h, depth, colour, _, _, interlace = ihdr
    if depth != 8 or colour not in (2, 6) or interlace:
        raise ValueError("only 8-bit RGB/RGBA, non-interlaced PNGs (got depth %d colour %d)" % (depth, colour))
    bpp = 3 if colour == 2 else 4
    raw = zlib.decompress(b"".join(idat))
    stride = w * bpp
    rows, prev = [], bytearray(stride)
    for y in range(h):
        f = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        if f == 1:
            for i in range(bpp, stride):
                line[i] = (line[i] + line[i - bpp]) & 255
        elif f == 2:
            for i in range(stride):
                line[i] = (line[i] + prev[i]) & 255
        elif f == 3:
            for i in range(stride):
                left = line[i - bpp] if i >= bpp else 0
                line[i] = (line[i] + ((left + prev[i]) >> 1)) & 255
        elif f == 4:
            for i in range(stride):
                a = line[i - bpp] if i >= bpp else 0
                b = prev[i]
                c = prev[i - bpp] if i >= bpp else 0
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                pred = a if pa <= pb and pa <= pc else (b if pb <= pc else c)
                line[i] = (line[i] + pred) & 255
        elif f != 0:
            raise ValueError("bad filter %d" % f)
        rows.append(line)
        prev = line
    return w, h, bpp, rows


def main():
    w, h, bpp, rows = decode(sys.argv[1])
    counts = {}
    total = lum = lum2 = 0
    for line in rows:
        for i in range(0, len(line), bpp):
            r, g, b = line[i], line[i + 1], line[i + 2]
            key = (r << 16) | (g << 8) | b
            counts[key] = counts.get(key, 0) + 1
            y = 0.299 * r + 0.587 * g + 0.114 * b
            lum += y
            lum2 += y * y
            total += 1
    background = max(counts.values())
    off = 1 - background / total
    mean = lum / total
    sd = max(lum2 / total - mean * mean, 0) ** 0.5
    print("%dx%d, %d colours, %.1f%% off the background, luminance sd %.1f" % (w, h, len(counts), 100 * off, sd))
    return 0 if len(counts) >= 8 and off >= 0.01 else 1


if __name__ == "__main__":
    sys.exit(main())
