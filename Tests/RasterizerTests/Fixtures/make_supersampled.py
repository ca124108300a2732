#!/usr/bin/env python3
"""Writes supersampled64_<icon>_mask@<s>x.png: each pixel's coverage from a 64 x 64 grid of point
samples (curves flattened into 400 pieces), for icons.json. Independent of the Swift rasterizer: a
second opinion on coverage, off the exact area by at most about 1/128 of a pixel on 45-degree edges.

    python3 make_supersampled.py   (numpy + Pillow; run from this folder)
"""
import json
import re

import numpy as np
from PIL import Image

SAMPLES = 64


def polygons(d):
    tokens = re.findall(r"[A-Za-z]|-?[\d.]+", d)
    index, current, result, polygon = 0, None, [], []

    def numbers(count):
        nonlocal index
        values = [float(x) for x in tokens[index:index + count]]
        index += count
        return values

    while index < len(tokens):
        command = tokens[index]
        index += 1
        if command == "M":
            if polygon:
                result.append(polygon)
            current = tuple(numbers(2))
            polygon = [current]
        elif command == "L":
            current = tuple(numbers(2))
            polygon.append(current)
        elif command == "Q":
            a, b, x, y = numbers(4)
            for t in np.linspace(0, 1, 400)[1:]:
                u = 1 - t
                polygon.append((u * u * current[0] + 2 * u * t * a + t * t * x, u * u * current[1] + 2 * u * t * b + t * t * y))
            current = (x, y)
        elif command == "C":
            a, b, e, f, x, y = numbers(6)
            for t in np.linspace(0, 1, 400)[1:]:
                u = 1 - t
                polygon.append((u ** 3 * current[0] + 3 * u * u * t * a + 3 * u * t * t * e + t ** 3 * x,
                                u ** 3 * current[1] + 3 * u * u * t * b + 3 * u * t * t * f + t ** 3 * y))
            current = (x, y)
    if polygon:
        result.append(polygon)
    return result


def mask(icon, scale):
    size = 80 * scale
    edges = []
    for polygon in polygons(icon["d"]):
        points = np.array(polygon) * scale + np.array([28 * scale, 13 * scale])
        edges.append(np.hstack([points, np.roll(points, -1, axis=0)]))
    edges = np.vstack(edges)
    coverage = np.zeros((size, size))
    xs = (np.arange(size * SAMPLES) + 0.5) / SAMPLES
    for row in range(size * SAMPLES):
        y = (row + 0.5) / SAMPLES
        crossing = (np.minimum(edges[:, 1], edges[:, 3]) <= y) & (np.maximum(edges[:, 1], edges[:, 3]) > y)
        e = edges[crossing]
        if len(e) == 0:
            continue
        x = e[:, 0] + (y - e[:, 1]) * (e[:, 2] - e[:, 0]) / (e[:, 3] - e[:, 1])
        winding = np.where(e[:, 3] > e[:, 1], 1, -1)
        order = np.argsort(x)
        cumulative = np.concatenate([[0], np.cumsum(winding[order])])[np.searchsorted(x[order], xs)]
        inside = cumulative != 0 if icon["fillRule"] == "nonzero" else cumulative % 2 != 0
        coverage[row // SAMPLES] += inside.reshape(size, SAMPLES).sum(axis=1)
    return coverage / (SAMPLES * SAMPLES)


icons = json.load(open("icons.json"))
for name, icon in icons.items():
    for scale in (1, 2, 3):
        alpha = np.round(mask(icon, scale) * 255).astype(np.uint8)
        rgba = np.zeros(alpha.shape + (4,), np.uint8)
        rgba[..., 3] = alpha
        Image.fromarray(rgba, "RGBA").save(f"supersampled64_{name}_mask@{scale}x.png")
