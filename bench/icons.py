#!/usr/bin/env python3
"""Times Skia (skia-python) drawing docs/glow.md's reference picture and sets it beside our rasterizer.

    python icons.py [--runs N] [--rounds R] [--bench PATH-TO-tabstage-bench] [--json]

Ours run in one tabstage-bench --stdin process; short batches of ours and Skia's alternate, and
each pair gives a ratio, so that a busy spell of the machine slows both sides of a pair alike; both
run on the same core.

Skia follows docs/glow.md: an 80 x 80 pt surface at scale s, the icon in its 24 pt box at (28, 13) pt;
unselected = a black anti-aliased fill; selected = a layer with a drop shadow (0, 1 pt, sigma 1.5 pt,
black), clipped to the path, filled with the tint, then the white gloss gradient. Each run makes a
new surface, as our renderer allocates a new raster.
"""
import argparse
import json
import os
import re
import statistics
import subprocess
import time

import skia

HERE = os.path.dirname(os.path.abspath(__file__))
ICONS = json.load(open(os.path.join(HERE, "..", "Tests", "RasterizerTests", "Fixtures", "icons.json")))
TINT = skia.Color(0xFF, 0x95, 0x00)


def make_path(icon):
    # skia-python has no SVG path parser; the reference icons use only absolute M, L, Q, C and Z.
    path = skia.Path()
    tokens = re.findall(r"[MLQCZ]|-?[\d.]+", icon["d"])
    index = 0
    while index < len(tokens):
        command = tokens[index]
        count = {"M": 2, "L": 2, "Q": 4, "C": 6, "Z": 0}[command]
        values = [float(x) for x in tokens[index + 1:index + 1 + count]]
        index += 1 + count
        {"M": path.moveTo, "L": path.lineTo, "Q": path.quadTo, "C": path.cubicTo, "Z": path.close}[command](*values)
    path.setFillType(skia.PathFillType.kEvenOdd if icon["fillRule"] == "evenodd" else skia.PathFillType.kWinding)
    return path


def draw(path, state, scale):
    surface = skia.Surface(80 * scale, 80 * scale)
    canvas = surface.getCanvas()
    canvas.scale(scale, scale)
    canvas.translate(28, 13)
    if state == "unselected":
        canvas.drawPath(path, skia.Paint(AntiAlias=True, Color=skia.ColorBLACK))
    else:
        shadow = skia.ImageFilters.DropShadow(0, 1, 1.5, 1.5, skia.ColorBLACK)
        canvas.saveLayer(None, skia.Paint(ImageFilter=shadow))
        canvas.clipPath(path, skia.ClipOp.kIntersect, True)
        canvas.drawPaint(skia.Paint(Color=TINT))
        white = [skia.Color4f(1, 1, 1, a).toColor() for a in (0.8, 0.6, 0.0, 0.1, 0.5)]
        gloss = skia.GradientShader.MakeLinear([skia.Point(6, 0), skia.Point(12, 24)], white, [0, 0.55, 0.55, 0.7, 1])
        canvas.drawPaint(skia.Paint(Shader=gloss, AntiAlias=True))
        canvas.restore()
    surface.flushAndSubmit()
    return surface


def median_us(body, runs):
    """Median microseconds of `runs` calls, after 20 ms of untimed calls (as tabstage-bench does)."""
    warm_up_end = time.perf_counter() + 0.02
    while time.perf_counter() < warm_up_end:
        body()
    samples = []
    for _ in range(runs):
        start = time.perf_counter_ns()
        body()
        samples.append((time.perf_counter_ns() - start) / 1000)
    samples.sort()
    return samples[len(samples) // 2]


class Ours:
    """tabstage-bench --stdin: measures one picture per request, in one warm process."""

    def __init__(self, bench):
        self.process = subprocess.Popen([bench, "--stdin"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)

    def measure(self, icon, state, scale, runs):
        """Our median render and render+encode times and PNG size for one picture."""
        self.process.stdin.write(f"{icon} {state} {scale} {runs}\n")
        self.process.stdin.flush()
        row = json.loads(self.process.stdout.readline())
        return row["render_us"], row["render_encode_us"], row["png_bytes"]

    def close(self):
        self.process.stdin.close()
        self.process.wait(timeout=10)


def quartiles(values):
    low, _, high = statistics.quantiles(values, n=4, method="inclusive")
    return low, high


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=100, help="runs per batch, each side")
    parser.add_argument("--rounds", type=int, default=15, help="alternating batches of ours and Skia")
    parser.add_argument("--bench", default=os.path.join(HERE, "..", ".build", "release", "tabstage-bench"))
    parser.add_argument("--json", action="store_true", help="print the rows as JSON instead of a table")
    args = parser.parse_args()
    # Both sides on one core (the child inherits it): a busy neighbour of a core slows whatever runs
    # there, and each side would otherwise settle on a core of its own.
    os.sched_setaffinity(0, {max(os.sched_getaffinity(0))})
    rows = []
    ours = Ours(args.bench)
    for name, icon in ICONS.items():
        path = make_path(icon)
        for state in ("selected", "unselected"):
            for scale in (1, 2, 3):
                # Short batches alternate between the two, so that both see the same machine; each
                # round gives one ratio, and the row reports their median and middle half.
                skia, render, render_encode = [], [], []
                for _ in range(args.rounds):
                    ours_render, ours_total, size = ours.measure(name, state, scale, args.runs)
                    render.append(ours_render)
                    render_encode.append(ours_total)
                    skia.append(median_us(lambda: draw(path, state, scale), args.runs))
                ratios = [s / o for s, o in zip(skia, render_encode)]
                low, high = quartiles(ratios)
                rows.append({"icon": name, "state": state, "scale": scale, "skia_us": statistics.median(skia),
                             "render_us": statistics.median(render),
                             "render_encode_us": statistics.median(render_encode), "png_bytes": size,
                             "ratio": statistics.median(ratios), "ratio_q1": low, "ratio_q3": high,
                             "ratio_min": min(ratios), "rounds": args.rounds})
    ours.close()
    if args.json:
        print(json.dumps({"runs": args.runs, "results": rows}, indent=1))
        return
    print(f"{args.rounds} alternating rounds of {args.runs} runs each side, microseconds (medians); "
          "ratio = Skia render / our render+encode per round (> 1: we are faster): median, middle half, lowest")
    print(f"{'icon':10} {'state':10} {'scale':>5} {'skia':>9} {'ours':>9} {'ours+png':>9} {'png_B':>7} {'ratio':>6} "
          f"{'middle half':>12} {'lowest':>6}")
    for row in rows:
        print(f"{row['icon']:10} {row['state']:10} {row['scale']:>4}x {row['skia_us']:9.1f} {row['render_us']:9.1f} "
              f"{row['render_encode_us']:9.1f} {row['png_bytes']:7d} {row['ratio']:6.2f} "
              f"{row['ratio_q1']:5.2f}-{row['ratio_q3']:<5.2f} {row['ratio_min']:6.2f}")


if __name__ == "__main__":
    main()
