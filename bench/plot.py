#!/usr/bin/env python3
"""Bar and line charts as PNG, with nothing but the standard library.

    plot.py DATA.csv OUT.png [--title T] [--kind bar|line] [--ylabel L] [--log]
                             [--series NAME,...] [--hline VALUE[:LABEL]]...
                             [--width W] [--height H]

DATA.csv: a header row, then one row per category (bar) or x value (line);
the first column names it, every further column is a series. Empty or
non-numeric cells are left out. --hline draws a dashed reference line (a
target, a bound) across the plot.

The benchmarks call it for their PNGs (bench/meson.build passes its path);
there is no matplotlib on the machines they run on.
"""
import argparse
import csv
import math
import struct
import zlib

# 5x7 bitmap font: each glyph is 7 rows of 5 bits (bit 4 = leftmost column),
# as 14 hex digits after "c=". Characters missing here draw as a box.
_GLYPHS = """
0=0e11131519110e 1=040c040404040e 2=0e11010204081f 3=1f02040201110e 4=02060a121f0202
5=1f101e0101110e 6=0608101e11110e 7=1f010204080808 8=0e11110e11110e 9=0e11110f01020c
A=0e1111111f1111 B=1e11111e11111e C=0e11101010110e D=1c12111111121c E=1f10101e10101f
F=1f10101e101010 G=0e11101711110f H=1111111f111111 I=0e04040404040e J=0702020202120c
K=11121418141211 L=1010101010101f M=111b1515111111 N=11111915131111 O=0e11111111110e
P=1e11111e101010 Q=0e11111115120d R=1e11111e141211 S=0f10100e01011e T=1f040404040404
U=1111111111110e V=11111111110a04 W=1111111515150a X=11110a040a1111 Y=1111110a040404
Z=1f01020408101f a=00000e010f110f b=1010161911111e c=00000e1010110e d=01010d1311110f
e=00000e111f100e f=0609081c080808 g=000f11110f010e h=10101619111111 i=04000c0404040e
j=0200060202120c k=10101214181412 l=0c04040404040e m=00001a15151111 n=00001619111111
o=00000e1111110e p=00001e111e1010 q=00000d130f0101 r=00001619101010 s=00000e100e011e
t=08081c08080906 u=0000111111130d v=00001111110a04 w=0000111115150a x=0000110a040a11
y=000011110f010e z=00001f0204081f .=00000000000c0c ,=000000000c0408 -=0000001f000000
+=0004041f040400 :=000c0c000c0c00 /=00010204081000 (=02040808080402 )=08040202020408
%=18190204081303 _=0000000000001f ==00001f001f0000 <=02040810080402 >=08040201020408
#=0a0a1f0a1f0a0a *=0004150e150400 '=0c040800000000 ?=0e110102040004 !=04040404000004
[=0e08080808080e ]=0e02020202020e |=04040404040404 ~=00000815020000 &=0c12140815120d
"""
FONT = {e[0]: [int(e[k:k + 2], 16) for k in range(2, 16, 2)] for e in _GLYPHS.split()}
FONT[" "] = [0] * 7

PALETTE = [(31, 119, 180), (255, 127, 14), (44, 160, 44), (214, 39, 40), (148, 103, 189),
           (140, 86, 75), (227, 119, 194), (127, 127, 127), (188, 189, 34), (23, 190, 207)]
WHITE, BLACK, GREY, LIGHT = (255, 255, 255), (0, 0, 0), (110, 110, 110), (225, 225, 225)


class Canvas:
    def __init__(self, width, height, background=WHITE):
        self.w, self.h = width, height
        self.px = bytearray(bytes(background) * (width * height))

    def dot(self, x, y, color):
        if 0 <= x < self.w and 0 <= y < self.h:
            i = 3 * (y * self.w + x)
            self.px[i:i + 3] = bytes(color)

    def rect(self, x0, y0, x1, y1, color):
        """Fills [x0, x1] x [y0, y1] (inclusive, any order)."""
        x0, x1 = sorted((max(0, int(x0)), min(self.w - 1, int(x1))))
        y0, y1 = sorted((max(0, int(y0)), min(self.h - 1, int(y1))))
        row = bytes(color) * (x1 - x0 + 1)
        for y in range(y0, y1 + 1):
            i = 3 * (y * self.w + x0)
            self.px[i:i + len(row)] = row

    def line(self, x0, y0, x1, y1, color, width=1, dash=0):
        """Bresenham; `width` pixels thick, `dash` > 0 draws dash-pixel on/off."""
        x0, y0, x1, y1 = int(round(x0)), int(round(y0)), int(round(x1)), int(round(y1))
        dx, dy = abs(x1 - x0), -abs(y1 - y0)
        sx, sy = (1 if x0 < x1 else -1), (1 if y0 < y1 else -1)
        err, n, half = dx + dy, 0, width // 2
        while True:
            if not dash or (n // dash) % 2 == 0:
                self.rect(x0 - half, y0 - half, x0 - half + width - 1, y0 - half + width - 1, color)
            if x0 == x1 and y0 == y1:
                return
            n += 1
            e2 = 2 * err
            if e2 >= dy:
                err, x0 = err + dy, x0 + sx
            if e2 <= dx:
                err, y0 = err + dx, y0 + sy

    def text(self, x, y, s, color=BLACK, scale=1, vertical=False):
        """Draws `s` with its top-left corner at (x, y); vertical text reads
        bottom to top, starting at (x, y) as its bottom-left corner."""
        for n, ch in enumerate(s):
            rows = FONT.get(ch, [0x1f, 0x11, 0x11, 0x11, 0x11, 0x11, 0x1f])
            for gy, bits in enumerate(rows):
                for gx in range(5):
                    if bits & (0x10 >> gx):
                        cx, cy = 6 * n + gx, gy
                        px, py = (x + cy * scale, y - (cx + 1) * scale + 1) if vertical else (x + cx * scale, y + cy * scale)
                        self.rect(px, py, px + scale - 1, py + scale - 1, color)

    def png(self, path):
        raw = b"".join(b"\x00" + bytes(self.px[3 * y * self.w:3 * (y + 1) * self.w]) for y in range(self.h))

        def chunk(kind, data):
            return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xffffffff)

        with open(path, "wb") as f:
            f.write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", self.w, self.h, 8, 2, 0, 0, 0)) +
                    chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b""))


def text_width(s, scale=1):
    return max(0, 6 * len(s) - 1) * scale


def number(v):
    """Short tick/value label: 0.25, 1.5, 120, 1.2e+06."""
    if v == 0:
        return "0"
    if abs(v) >= 1e5 or abs(v) < 1e-3:
        return "%.1e" % v
    return ("%.3f" % v).rstrip("0").rstrip(".") if abs(v) < 10 else "%.4g" % v


def nice_ticks(lo, hi, count=6):
    """Round tick values covering [lo, hi]."""
    if hi <= lo:
        hi = lo + 1
    raw = (hi - lo) / count
    mag = 10 ** math.floor(math.log10(raw))
    step = next(m * mag for m in (1, 2, 2.5, 5, 10) if m * mag >= raw)
    first = math.floor(lo / step) * step
    ticks, t = [], first
    while t < hi + step * 0.999:
        ticks.append(round(t, 12))
        t += step
    return ticks


def read_csv(path):
    with open(path, newline="") as f:
        rows = [r for r in csv.reader(f) if r and any(c.strip() for c in r)]
    header, body = rows[0], rows[1:]

    def num(c):
        try:
            return float(c)
        except ValueError:
            return None

    categories = [r[0] for r in body]
    series = [(header[j], [num(r[j]) if j < len(r) else None for r in body]) for j in range(1, len(header))]
    return header[0], categories, series


def log_ticks(lo, hi):
    """1-2-5 ticks (powers of ten only over a wide range) covering [lo, hi] > 0."""
    e0, e1 = math.floor(math.log10(lo)), math.ceil(math.log10(hi))
    steps = (1,) if e1 - e0 > 3 else (1, 2, 5)
    ticks = [m * 10.0 ** e for e in range(e0, e1 + 1) for m in steps]
    first = max(t for t in ticks if t <= lo)
    last = min(t for t in ticks if t >= hi)
    return [t for t in ticks if first <= t <= last]


def chart(categories, series, title, kind="bar", xlabel="", ylabel="", hlines=(), width=800, height=480, log=False):
    c = Canvas(width, height)
    values = [v for _, vs in series for v in vs if v is not None] + [v for v, _ in hlines]
    if log:  # non-positive values cannot be shown
        series = [(n, [v if v is not None and v > 0 else None for v in vs]) for n, vs in series]
        values = [v for v in values if v > 0] or [1]
        ticks = log_ticks(min(values), max(values) * 1.15)
    else:
        lo, hi = min(values + [0]), max(values + [0])
        ticks = nice_ticks(lo, hi + (hi - lo) * 0.08)
    f = math.log10 if log else float
    lo, hi = f(ticks[0]), f(ticks[-1])
    # Plot area: room for the title, the y tick labels and label, the x labels.
    left = 20 + max(text_width(number(t)) for t in ticks) + (14 if ylabel else 0)
    top, right, bottom = 40, width - 20, height - (46 if xlabel else 32)
    scale = 2 if text_width(title, 2) <= width - 20 else 1  # a long title in small print
    c.text((width - text_width(title, scale)) // 2, 12, title, BLACK, scale)
    if ylabel:
        c.text(8, (top + bottom + text_width(ylabel)) // 2, ylabel, GREY, vertical=True)
    if xlabel:
        c.text((left + right - text_width(xlabel)) // 2, height - 14, xlabel, GREY)

    def y_of(v):
        return bottom - (f(v) - lo) / (hi - lo) * (bottom - top)

    for t in ticks:
        y = int(round(y_of(t)))
        c.line(left, y, right, y, LIGHT)
        c.line(left - 4, y, left, y, BLACK)
        label = number(t)
        c.text(left - 7 - text_width(label), y - 3, label)
    c.line(left, top, left, bottom, BLACK)
    zero = bottom if log or lo >= 0 else y_of(0)  # where bars start
    c.line(left, int(round(zero)), right, int(round(zero)), BLACK)

    n = max(1, len(categories))
    slot = (right - left) / n
    every = max(1, math.ceil(max([text_width(s) + 8 for s in categories] + [1]) / slot))
    for i, name in enumerate(categories):
        x = left + slot * (i + 0.5)
        if i % every == 0:
            max_chars = max(1, int(slot * every) // 6)
            label = name if len(name) <= max_chars else name[:max(1, max_chars - 1)] + "."
            c.text(int(x - text_width(label) / 2), bottom + 8, label)
            c.line(x, bottom, x, bottom + 3, BLACK)
    for s, (name, vs) in enumerate(series):
        color = PALETTE[s % len(PALETTE)]
        if kind == "bar":
            bar = slot * 0.8 / len(series)
            for i, v in enumerate(vs):
                if v is None:
                    continue
                x0 = left + slot * i + slot * 0.1 + bar * s
                c.rect(x0 + 1, y_of(v), x0 + max(1, bar - 1), zero, color)
                if bar >= text_width(number(v)) + 2:  # value above the bar when it fits
                    c.text(int(x0 + (bar - text_width(number(v))) / 2), int(min(y_of(v), zero)) - 10, number(v), GREY)
        else:
            points = [(left + slot * (i + 0.5), y_of(v)) for i, v in enumerate(vs) if v is not None]
            for (x0, y0), (x1, y1) in zip(points, points[1:]):
                c.line(x0, y0, x1, y1, color, width=2)
            for x, y in points:
                c.rect(x - 2, y - 2, x + 2, y + 2, color)
    for i, (v, label) in enumerate(hlines):  # labels right, left, right...: close lines stay readable
        y = y_of(v)
        c.line(left, y, right, y, BLACK, dash=5)
        if label:
            c.text(right - text_width(label) - 2 if i % 2 == 0 else left + 4, int(y) - 10, label)
    # Legend: top right inside the plot, on white.
    legend_w = 24 + max([text_width(name) for name, _ in series] + [0])
    lx, ly = right - legend_w - 8, top + 6
    c.rect(lx - 6, ly - 5, right - 4, ly + 12 * len(series) + 1, WHITE)
    for s, (name, _) in enumerate(series):
        c.rect(lx, ly + 12 * s, lx + 13, ly + 12 * s + 6, PALETTE[s % len(PALETTE)])
        c.text(lx + 19, ly + 12 * s, name)
    return c


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("csv")
    p.add_argument("png")
    p.add_argument("--title", default="")
    p.add_argument("--kind", choices=("bar", "line"), default="bar")
    p.add_argument("--ylabel", default="")
    p.add_argument("--xlabel", default=None, help="default: the first column's header")
    p.add_argument("--hline", action="append", default=[], help="VALUE[:LABEL], a dashed reference line")
    p.add_argument("--series", help="NAME,NAME...: only these columns (default: all)")
    p.add_argument("--log", action="store_true", help="logarithmic y axis")
    p.add_argument("--width", type=int, default=800)
    p.add_argument("--height", type=int, default=480)
    a = p.parse_args(argv)
    xname, categories, series = read_csv(a.csv)
    if a.series:
        wanted = a.series.split(",")
        series = [s for s in series if s[0] in wanted]
    hlines = [(float(h.split(":", 1)[0]), h.split(":", 1)[1] if ":" in h else "") for h in a.hline]
    c = chart(categories, series, a.title or a.csv, a.kind, xname if a.xlabel is None else a.xlabel, a.ylabel, hlines,
              a.width, a.height, a.log)
    c.png(a.png)


if __name__ == "__main__":
    main()
