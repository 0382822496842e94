#!/usr/bin/env python3
# ===----------------------------------------------------------------------===//
#
# This source file is part of the swift-keyed-archive open source project
#
# Licensed under Apache License v2.0
#
# SPDX-License-Identifier: Apache-2.0
#
# ===----------------------------------------------------------------------===//
"""Prints ours-vs-Foundation ratios from `swift package benchmark --format markdown` output.

Usage: python3 compare.py RESULTS.md   (or read standard input)

For every "PropertyLists.<op>/<input>" with a matching "Foundation.<op>/<input>", prints the p50
wall clock and the p50 malloc count of each, and speedup = Foundation p50 / ours p50 (and the same
ratio of the fastest samples, p0).
"""

import re
import sys

TIME_UNITS = {"ns": 1e-3, "μs": 1.0, "us": 1.0, "ms": 1e3, "s": 1e6}
COUNT_SCALES = {"K": 1e3, "M": 1e6, "G": 1e9}


def parse(text):
    """Returns {benchmark name: {"time_us": p50, "min_us": p0, "mallocs": p50}}."""
    results = {}
    name = None
    columns = []
    for line in text.splitlines():
        heading = re.match(r"^#{2,4}\s+(\S+\.(?:parse|write)/\S+)\s*$", line)
        if heading:
            name = heading.group(1)
            results[name] = {}
            columns = []
            continue
        if name is None or not line.startswith("|"):
            continue
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if cells[0] == "Metric":
            columns = cells
            continue
        if not columns or "p50" not in columns or set(cells[0]) <= set(":-"):
            continue
        try:
            p0 = float(cells[columns.index("p0")])
            p50 = float(cells[columns.index("p50")])
        except ValueError:
            continue
        label = cells[0]
        units = re.findall(r"\(([^)]*)\)", label)
        if label.startswith("Time (wall clock)"):
            unit = units[-1] if units else "ns"
            results[name]["time_us"] = p50 * TIME_UNITS.get(unit, 1.0)
            results[name]["min_us"] = p0 * TIME_UNITS.get(unit, 1.0)
        elif label.startswith("Malloc (total)"):
            scale = COUNT_SCALES.get(units[-1], 1.0) if len(units) > 1 else 1.0
            results[name]["mallocs"] = p50 * scale
    return results


def format_time(us):
    if us >= 1e3:
        return f"{us / 1e3:.2f} ms"
    return f"{us:.0f} µs"


def format_count(count):
    if count is None:
        return "–"
    if count >= 1e6:
        return f"{count / 1e6:.2f} M"
    if count >= 1e4:
        return f"{count / 1e3:.0f} K"
    return f"{count:.0f}"


def main():
    text = open(sys.argv[1], encoding="utf-8").read() if len(sys.argv) > 1 else sys.stdin.read()
    results = parse(text)
    rows = []
    for name in sorted(results):
        if not name.startswith("PropertyLists."):
            continue
        ours = results[name]
        theirs = results.get("Foundation." + name[len("PropertyLists."):])
        if not theirs or "time_us" not in ours or "time_us" not in theirs:
            continue
        operation = name[len("PropertyLists."):]
        rows.append(
            (
                operation,
                format_time(ours["time_us"]),
                format_time(theirs["time_us"]),
                f"{theirs['time_us'] / ours['time_us']:.1f}×",
                f"{theirs['min_us'] / ours['min_us']:.1f}×",
                format_count(ours.get("mallocs")),
                format_count(theirs.get("mallocs")),
            )
        )
    if not rows:
        sys.exit("compare.py: no PropertyLists/Foundation pairs found in the input")
    header = (
        "operation/input",
        "ours p50",
        "Foundation p50",
        "speedup",
        "speedup (p0)",
        "ours mallocs",
        "Foundation mallocs",
    )
    widths = [max(len(row[i]) for row in rows + [header]) for i in range(len(header))]
    print("| " + " | ".join(cell.ljust(width) for cell, width in zip(header, widths)) + " |")
    print("|" + "|".join(("-" * (width + 1) + ":") if i else ("-" * (width + 2)) for i, width in enumerate(widths)) + "|")
    for row in rows:
        print(
            "| "
            + " | ".join(cell.ljust(width) if i == 0 else cell.rjust(width) for i, (cell, width) in enumerate(zip(row, widths)))
            + " |"
        )
    print("\nspeedup = Foundation p50 / ours p50 (wall clock); > 1 means ours is faster.")
    print("speedup (p0) = the same for the fastest sample, which other load on the machine disturbs least.")


if __name__ == "__main__":
    main()
