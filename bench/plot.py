#!/usr/bin/env python3
"""Bar and line charts as PNG, drawn with matplotlib (Debian: python3-matplotlib).

    plot.py DATA.csv OUT.png [--title T] [--kind bar|line] [--ylabel L] [--log]
                             [--series NAME,...] [--hline VALUE[:LABEL]]...
                             [--width W] [--height H]

DATA.csv: a header row, then one row per category (bar) or x value (line);
the first column names it, every further column is a series. Empty or
non-numeric cells are left out. --hline draws a dashed reference line (a
target, a bound) across the plot. --width and --height are in pixels.

The benchmarks call it for their PNGs (bench/meson.build passes its path).
"""
import argparse
import csv
import math
import sys

try:
    import matplotlib

    matplotlib.use("Agg")  # files only: the benchmarks run without a display
    from matplotlib.figure import Figure
    from matplotlib.ticker import FuncFormatter, LogLocator, NullFormatter
except ImportError:
    sys.exit("plot.py: %s has no matplotlib (Debian: apt-get install python3-matplotlib)" % sys.executable)

DPI = 100
CHAR_PX = 6  # rough width of one character of the small labels, to decide what fits


def number(v, _pos=None):
    """Short tick/value label: 0.25, 1.5, 120, 1.2e+06."""
    if v == 0:
        return "0"
    if abs(v) >= 1e5 or abs(v) < 1e-3:
        return "%.1e" % v
    return ("%.3f" % v).rstrip("0").rstrip(".") if abs(v) < 10 else "%.4g" % v


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


def present(values, log):
    """(index, value) of the cells that can be drawn: numeric, and positive on a log axis."""
    return [(i, v) for i, v in enumerate(values) if v is not None and (v > 0 or not log)]


def chart(categories, series, title, kind="bar", xlabel="", ylabel="", hlines=(), width=800, height=480, log=False):
    fig = Figure(figsize=(width / DPI, height / DPI), dpi=DPI, layout="constrained")
    ax = fig.add_subplot()
    plot_px = 0.85 * width  # the axes' share of the figure, before layout
    title_size = 12 if len(title) * 8 <= width - 20 else 9  # a long title in small print
    ax.set_title(title, fontsize=title_size)
    ax.set_xlabel(xlabel, color="dimgrey")
    ax.set_ylabel(ylabel, color="dimgrey")
    ax.grid(axis="y", color="#e1e1e1")
    ax.set_axisbelow(True)

    n = max(1, len(categories))
    drawn = [v for _, vs in series for _, v in present(vs, log)] + [v for v, _ in hlines if v > 0 or not log]
    if kind == "bar":
        bar = 0.8 / max(1, len(series))
        bar_px = plot_px / n * bar
        # On a log axis bars rise from the power of ten below the smallest value.
        bottom = 10.0 ** math.floor(math.log10(min(drawn))) if log and drawn else 0
        for s, (name, vs) in enumerate(series):
            cells = present(vs, log)
            xs = [i - 0.4 + bar * (s + 0.5) for i, _ in cells]
            heights = [v - bottom for _, v in cells]
            bars = ax.bar(xs, heights, bar * 0.95, bottom=bottom, label=name, color="C%d" % (s % 10))
            labels = [number(v) for _, v in cells]
            if labels and bar_px >= CHAR_PX * max(len(l) for l in labels) + 2:  # values above the bars when they fit
                ax.bar_label(bars, labels, fontsize=7, color="dimgrey", padding=2)
        if log and drawn:
            ax.set_ylim(bottom, max(drawn) * 1.5)  # room for the tallest bar's value
    else:
        for s, (name, vs) in enumerate(series):
            cells = present(vs, log)
            ax.plot([i for i, _ in cells], [v for _, v in cells], marker="s", markersize=4, linewidth=2,
                    label=name, color="C%d" % (s % 10))

    if log:
        ax.set_yscale("log")
        wide = len(drawn) > 0 and math.log10(max(drawn)) - math.log10(min(drawn)) > 3
        ax.yaxis.set_major_locator(LogLocator(subs=(1.0,) if wide else (1.0, 2.0, 5.0)))
        ax.yaxis.set_minor_formatter(NullFormatter())
    else:
        ax.axhline(0, color="black", linewidth=0.8)
        if drawn and min(drawn) >= 0:
            ax.set_ylim(bottom=0)
    ax.yaxis.set_major_formatter(FuncFormatter(number))

    for i, (v, label) in enumerate(hlines):  # labels right, left, right...: close lines stay readable
        if log and v <= 0:
            continue
        ax.axhline(v, color="black", linestyle="--", linewidth=1)
        if label:
            right = i % 2 == 0
            ax.text(0.99 if right else 0.01, v, label, transform=ax.get_yaxis_transform(),
                    ha="right" if right else "left", va="bottom", fontsize=8,
                    bbox=dict(facecolor="white", edgecolor="none", alpha=0.8, pad=1))

    # Category labels: level when they fit, else slanted (long ones shortened) and thinned to every `every`-th.
    longest = max([len(c) for c in categories] + [1]) * CHAR_PX
    slanted = n * (longest + 8) > plot_px
    every = max(1, math.ceil(n * 24 / plot_px)) if slanted else 1
    shown = [c if len(c) <= 24 or not slanted else c[:23] + "." for c in categories[::every]]
    ax.set_xticks(range(0, len(categories), every), shown)
    if slanted:
        ax.tick_params(axis="x", labelrotation=30)
        for t in ax.get_xticklabels():
            t.set_horizontalalignment("right")
    ax.set_xlim(-0.5, n - 0.5)
    if series:
        ax.legend(loc="best", fontsize=8)
    return fig


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
    fig = chart(categories, series, a.title or a.csv, a.kind, xname if a.xlabel is None else a.xlabel, a.ylabel, hlines,
                a.width, a.height, a.log)
    fig.savefig(a.png, dpi=DPI)


if __name__ == "__main__":
    main()
