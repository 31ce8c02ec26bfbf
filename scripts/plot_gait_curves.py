#!/usr/bin/env python3
"""Plots the gait curves that bench_walk_gait writes: for each shared optical-mocap walk, its
left hip, knee and ankle angles over the mean gait cycle (contact start to contact start) against
footfix walk's at the same speed. Writes one self-contained SVG (no plotting library needed).

Usage:
  build/bench/bench_walk_gait 10 build/gait_curves.csv
  scripts/plot_gait_curves.py build/gait_curves.csv docs/walk_gait_curves.svg
"""
import csv
import sys
from collections import defaultdict

ANGLES = ["hip", "knee", "ankle"]
PANEL_W, PANEL_H, MARGIN = 260, 170, 40


def load(path):
    curves = defaultdict(list)  # (walk, angle) -> [(percent, degrees)]
    with open(path, newline="") as f:
        for row in csv.DictReader(f):
            curves[(row["walk"], row["angle"])].append((float(row["percent"]), float(row["degrees"])))
    return curves


def polyline(points, x0, y0, lo, hi, colour, dash=""):
    def xy(p, d):
        x = x0 + p / 100.0 * PANEL_W
        y = y0 + PANEL_H - (d - lo) / (hi - lo) * PANEL_H
        return f"{x:.1f},{y:.1f}"

    coords = " ".join(xy(p, d) for p, d in points)
    dash_attr = f' stroke-dasharray="{dash}"' if dash else ""
    return f'<polyline fill="none" stroke="{colour}" stroke-width="1.5"{dash_attr} points="{coords}"/>'


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    curves = load(sys.argv[1])
    references = sorted({w for (w, _) in curves if not w.startswith("footfix walk vs ")})
    width = MARGIN + len(ANGLES) * (PANEL_W + MARGIN)
    height = MARGIN + len(references) * (PANEL_H + MARGIN) + 20
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" font-family="sans-serif" '
           f'font-size="11">', f'<rect width="{width}" height="{height}" fill="white"/>',
           f'<text x="{MARGIN}" y="16">Left leg, mean gait cycle from contact start (percent), degrees. '
           f'Solid: shared mocap walk; dashed: footfix walk at its speed.</text>']
    for r, ref in enumerate(references):
        y0 = MARGIN + r * (PANEL_H + MARGIN)
        for a, angle in enumerate(ANGLES):
            x0 = MARGIN + a * (PANEL_W + MARGIN)
            mocap = curves.get((ref, angle), [])
            walk = curves.get(("footfix walk vs " + ref, angle), [])
            values = [d for _, d in mocap + walk] or [0.0]
            lo, hi = min(values) - 5, max(values) + 5
            out.append(f'<rect x="{x0}" y="{y0}" width="{PANEL_W}" height="{PANEL_H}" fill="none" stroke="#999"/>')
            out.append(f'<text x="{x0}" y="{y0 - 4}">{ref}: {angle} ({lo:.0f} to {hi:.0f})</text>')
            if lo < 0 < hi:
                zero = y0 + PANEL_H - (0 - lo) / (hi - lo) * PANEL_H
                out.append(f'<line x1="{x0}" x2="{x0 + PANEL_W}" y1="{zero:.1f}" y2="{zero:.1f}" stroke="#ddd"/>')
            out.append(polyline(mocap, x0, y0, lo, hi, "#1f77b4"))
            out.append(polyline(walk, x0, y0, lo, hi, "#d62728", "5,3"))
    out.append("</svg>")
    with open(sys.argv[2], "w") as f:
        f.write("\n".join(out) + "\n")


if __name__ == "__main__":
    main()
