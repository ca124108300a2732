#!/usr/bin/env python3
"""Times Skia (skia-python) drawing GLOW.md's reference picture and sets it beside our rasterizer.

    python icons.py [--runs N] [--rounds R] [--bench PATH-TO-tabstage-bench] [--json]

Skia follows GLOW.md: an 80 x 80 pt surface at scale s, the icon in its 24 pt box at (28, 13) pt;
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
    samples = []
    for _ in range(runs):
        start = time.perf_counter_ns()
        body()
        samples.append((time.perf_counter_ns() - start) / 1000)
    samples.sort()
    return samples[len(samples) // 2]


def ours(bench, runs, icon, state, scale):
    """Our median render and render+encode times and PNG size for one picture, from tabstage-bench."""
    output = subprocess.run([bench, "--runs", str(runs), "--json", "--icon", icon, "--state", state,
                             "--scale", str(scale)], check=True, capture_output=True, text=True).stdout
    row = json.loads(output)["results"][0]
    return row["render_us"], row["render_encode_us"], row["png_bytes"]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=3, help="alternating rounds of ours and Skia (median)")
    parser.add_argument("--bench", default=os.path.join(HERE, "..", ".build", "release", "tabstage-bench"))
    parser.add_argument("--json", action="store_true", help="print the rows as JSON instead of a table")
    args = parser.parse_args()
    rows = []
    for name, icon in ICONS.items():
        path = make_path(icon)
        for state in ("selected", "unselected"):
            for scale in (1, 2, 3):
                # Rounds alternate between the two, so that both see the same machine; medians of rounds.
                skia, render, render_encode = [], [], []
                for _ in range(args.rounds):
                    ours_render, ours_total, size = ours(args.bench, args.runs, name, state, scale)
                    render.append(ours_render)
                    render_encode.append(ours_total)
                    skia.append(median_us(lambda: draw(path, state, scale), args.runs))
                skia_us, render_encode_us = statistics.median(skia), statistics.median(render_encode)
                rows.append({"icon": name, "state": state, "scale": scale, "skia_us": skia_us,
                             "render_us": statistics.median(render), "render_encode_us": render_encode_us,
                             "png_bytes": size, "ratio": skia_us / render_encode_us,
                             "ratio_min": min(s / o for s, o in zip(skia, render_encode)),
                             "ratio_max": max(s / o for s, o in zip(skia, render_encode))})
    if args.json:
        print(json.dumps({"runs": args.runs, "results": rows}, indent=1))
        return
    print(f"median of {args.rounds} alternating rounds of {args.runs} runs each, microseconds; "
          "ratio = Skia render / our render+encode (> 1: we are faster), with its range over the rounds")
    print(f"{'icon':10} {'state':10} {'scale':>5} {'skia':>9} {'ours':>9} {'ours+png':>9} {'png_B':>7} {'ratio':>6} "
          f"{'range':>11}")
    for row in rows:
        print(f"{row['icon']:10} {row['state']:10} {row['scale']:>4}x {row['skia_us']:9.1f} {row['render_us']:9.1f} "
              f"{row['render_encode_us']:9.1f} {row['png_bytes']:7d} {row['ratio']:6.2f} "
              f"{row['ratio_min']:5.2f}-{row['ratio_max']:<5.2f}")


if __name__ == "__main__":
    main()
