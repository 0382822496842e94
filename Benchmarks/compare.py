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

Usage: python3 compare.py RESULTS.md [MALLOCS.md]   (or read standard input)

With MALLOCS.md, wall clock and peak memory come from RESULTS.md (a build without the malloc
interposer, as compare.sh runs it) and the malloc counts from MALLOCS.md (the instrumented build).

PropertyListBenchmarks: for every "PropertyLists.<op>/<input>" with a matching
"Foundation.<op>/<input>", prints the p50 wall clock and the p50 malloc count of each, and
speedup = Foundation p50 / ours p50 (and the same ratio of the fastest samples, p0).

CoderBenchmarks: for every "KeyedArchiving.<encode|decode>/<records>", prints our p50 and the
speedup against PropertyListEncoder/Decoder, JSONEncoder/Decoder and NSKeyedArchiver/Unarchiver
at the same record count (where they ran), whether the targets (10x property list, 5x JSON) are
met and how they compare with the Codable floor ("CodableFloor.<op>/<records>"), then the allocations per record and peak resident memory of every coder.
The Interleaved.* and Single.* rows (timed in turns in one process) print their ratios.
"""

import re
import sys

TIME_UNITS = {"ns": 1e-3, "μs": 1.0, "us": 1.0, "ms": 1e3, "s": 1e6}
COUNT_SCALES = {"K": 1e3, "M": 1e6, "G": 1e9}

# Our coders and, per operation, the Foundation coders they are compared with (name prefix, column
# title, the speedup target or None).
CODER_RIVALS = {
    "encode": [
        ("PropertyListEncoder", "PropertyListEncoder", 10.0),
        ("JSONEncoder", "JSONEncoder", 5.0),
        ("NSKeyedArchiver", "NSKeyedArchiver", None),
    ],
    "decode": [
        ("PropertyListDecoder", "PropertyListDecoder", 10.0),
        ("JSONDecoder", "JSONDecoder", 5.0),
        ("NSKeyedUnarchiver", "NSKeyedUnarchiver", None),
    ],
}


def parse(text):
    """Returns {benchmark name: {"time_us": p50, "min_us": p0, "mallocs": p50}}."""
    results = {}
    name = None
    columns = []
    for line in text.splitlines():
        heading = re.match(
            r"^#{2,4}\s+(\S+\.(?:parse|write|encode|decode)(?:Archivable(?:Codable|Scaling)?)?/\S+)\s*$", line
        )
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
        elif label.startswith(
            ("directPerMilleOfFloor", "perRecordPerMilleOf1k", "plistPerMilleOf", "jsonPerMilleOf", "directNanoseconds")
        ):
            # Interleaved.* and Single.*: per-mille ratios (and Single.*'s time per value), one per
            # iteration; the p50 of the iterations.
            metric = label.split()[0]
            results[name][metric] = p50
        elif label.startswith("Memory (resident peak)") or label.startswith("Memory Δ (resident peak)"):
            scale = COUNT_SCALES.get(units[-1], 1.0) if len(units) > 1 else 1.0
            key = "peak_bytes" if label.startswith("Memory (") else "peak_delta_bytes"
            results[name][key] = float(cells[columns.index("p100")]) * scale
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


def format_bytes(count):
    if count is None:
        return "–"
    return f"{count / 1e6:.0f} MB" if count >= 1e7 else f"{count / 1e6:.1f} MB"


def print_table(header, rows):
    widths = [max(len(row[i]) for row in rows + [header]) for i in range(len(header))]
    print("| " + " | ".join(cell.ljust(width) for cell, width in zip(header, widths)) + " |")
    print("|" + "|".join(("-" * (width + 1) + ":") if i else ("-" * (width + 2)) for i, width in enumerate(widths)) + "|")
    for row in rows:
        print(
            "| "
            + " | ".join(cell.ljust(width) if i == 0 else cell.rjust(width) for i, (cell, width) in enumerate(zip(row, widths)))
            + " |"
        )


def record_count(label):
    """ "100" -> 100, "10k" -> 10000."""
    match = re.fullmatch(r"(\d+)([kM]?)", label)
    if not match:
        return None
    return int(match.group(1)) * {"": 1, "k": 1_000, "M": 1_000_000}[match.group(2)]


def print_coders(results):
    """The CoderBenchmarks tables; returns False when the input has none of our coder results."""
    ours = sorted(
        (
            name
            for name in results
            if name.startswith("KeyedArchiving.") and "Archivable" not in name and "time_us" in results[name]
        ),
        key=lambda name: (name.split("/")[0], record_count(name.split("/")[1]) or 0),
    )
    if not ours:
        return False
    print("Codable coders: speedup = their p50 / our p50 (wall clock); > 1 means ours is faster.\n")
    header = (
        "operation/records",
        "ours p50",
        "floor p50",
        "PropertyList* p50",
        "speedup",
        "JSON* p50",
        "speedup",
        "NSKeyed* p50",
        "speedup",
    )
    rows = []
    verdicts = []
    for name in ours:
        operation, size = name[len("KeyedArchiving."):].split("/")
        mine = results[name]
        row = [f"{operation}/{size}", format_time(mine["time_us"])]
        floor = results.get(f"CodableFloor.{operation}/{size}", {}).get("time_us")
        row.append(format_time(floor) if floor is not None else "–")
        for prefix, title, target in CODER_RIVALS.get(operation, []):
            theirs = results.get(f"{prefix}.{operation}/{size}")
            if not theirs or "time_us" not in theirs:
                row += ["–", "–"]
                continue
            speedup = theirs["time_us"] / mine["time_us"]
            row += [format_time(theirs["time_us"]), f"{speedup:.2f}×"]
            if target is not None:
                met = "met" if speedup >= target else "NOT met"
                verdict = f"{operation}/{size} vs {title}: {speedup:.2f}× (target {target:.0f}×): {met}"
                if floor is not None:
                    # The most any Codable coder could reach: the rival's time over the floor's.
                    needed = theirs["time_us"] / target
                    verdict += (
                        f"; the target needs ≤ {format_time(needed)}, the Codable floor alone takes "
                        f"{format_time(floor)} (at most {theirs['time_us'] / floor:.1f}× for any coder)"
                    )
                    walk = results.get(f"CodableWalk.{operation}/{size}", {}).get("time_us")
                    if walk is not None:
                        # The Encodable calls alone, with no scalar kept anywhere.
                        verdict += (
                            f"; the walk alone takes {format_time(walk)}, leaving "
                            f"{format_time(max(0.0, needed - walk))} for keeping and writing every value"
                        )
                verdicts.append(verdict)
        rows.append(tuple(row))
    print_table(header, rows)
    print()
    for verdict in verdicts:
        print("- " + verdict)

    print("\nAllocations (mallocCountTotal p50, per operation and per record) and peak resident memory")
    print("(p100 of the sampled process peak, and its growth during the run), decoders and encoders:\n")
    rows = []
    for name in sorted(results, key=lambda name: (name.split("/")[0], record_count(name.split("/")[-1]) or 0)):
        size = name.split("/")[-1]
        records = record_count(size)
        prefix = name.split(".")[0]
        coders = {"KeyedArchiving", "CodableFloor", "CodableWalk"} | {rival for rivals in CODER_RIVALS.values() for rival, _, _ in rivals}
        if not records or prefix not in coders:
            continue
        result = results[name]
        mallocs = result.get("mallocs")
        rows.append(
            (
                name,
                format_count(mallocs),
                f"{mallocs / records:.1f}" if mallocs is not None else "–",
                format_bytes(result.get("peak_bytes")),
                format_bytes(result.get("peak_delta_bytes")),
            )
        )
    print_table(("benchmark", "mallocs", "mallocs/record", "peak resident", "peak Δ"), rows)
    print_generated(results)
    return True


def print_generated(results):
    """The `@Archivable` rows: each coder on the generated conformance against the synthesized one."""
    rows = []
    for name in sorted(results, key=lambda name: (name.split("/")[0], record_count(name.split("/")[-1]) or 0)):
        match = re.fullmatch(r"(\w+)\.(encode|decode)Archivable/(\w+)", name)
        if not match or "time_us" not in results[name]:
            continue
        coder, operation, size = match.groups()
        synthesized = results.get(f"{coder}.{operation}/{size}", {})
        if "time_us" not in synthesized:
            continue
        generated = results[name]
        mallocs = (generated.get("mallocs"), synthesized.get("mallocs"))
        rows.append(
            (
                f"{coder}.{operation}/{size}",
                format_time(synthesized["time_us"]),
                format_time(generated["time_us"]),
                f"{generated['time_us'] / synthesized['time_us']:.3f}",
                f"{format_count(mallocs[1])} / {format_count(mallocs[0])}",
            )
        )
    if not rows:
        return
    print("\n@Archivable against synthesized Codable: ratio = generated p50 / synthesized p50 (< 1: faster).\n")
    print_table(("coder.operation/records", "synthesized p50", "generated p50", "ratio", "mallocs (synth / gen)"), rows)


def print_direct(results):
    """Issue 16's targets for the direct path: `KeyedArchiving.<op>Archivable/<records>` against the
    Codable floor and Foundation's coders on the same `@Archivable` cats, with the `Codable` path
    (`<op>ArchivableCodable`) beside it, then the cost per record at the largest size against the
    smallest. Returns False when the input has no direct-path results."""
    rows = []
    per_record = {}
    rivals = {"encode": ("PropertyListEncoder", "JSONEncoder"), "decode": ("PropertyListDecoder", "JSONDecoder")}
    for operation in ("encode", "decode"):
        names = [name for name in results if name.startswith(f"KeyedArchiving.{operation}Archivable/")]
        for name in sorted(names, key=lambda name: record_count(name.split("/")[-1]) or 0):
            size = name.split("/")[-1]
            direct = results[name]
            if "time_us" not in direct:
                continue
            count = record_count(size)
            if count:
                per_record.setdefault(operation, []).append(
                    (count, size, direct["time_us"] / count, direct["min_us"] / count)
                )

            def cell(prefix, suffix="Archivable", key="time_us"):
                other = results.get(f"{prefix}.{operation}{suffix}/{size}", {})
                return other.get(key)

            floor = cell("CodableFloor")
            floor_min = cell("CodableFloor", key="min_us")
            codable = cell("KeyedArchiving", "ArchivableCodable")
            plist, json = (cell(rival) for rival in rivals[operation])

            def ratio(value, over, mark):
                if value is None or over is None:
                    return "–"
                return f"{value / over:.2f}{mark}"

            mallocs = direct.get("mallocs")
            rows.append(
                (
                    f"{operation}/{size}",
                    format_time(direct["time_us"]),
                    format_time(floor) if floor else "–",
                    ratio(direct["time_us"], floor, ""),
                    ratio(direct["min_us"], floor_min, ""),
                    format_time(codable) if codable else "–",
                    ratio(codable, floor, ""),
                    ratio(plist, direct["time_us"], "×"),
                    ratio(json, direct["time_us"], "×"),
                    f"{mallocs / count:.2f}" if mallocs and count else "–",
                )
            )
    if not rows:
        return False
    print("Direct path (issue 16), p50 wall clock; targets: direct / floor < 1, property list coder ≥ 10×, JSON ≥ 5×.\n")
    header = (
        "operation/records",
        "direct",
        "floor",
        "direct / floor",
        "(p0)",
        "Codable path",
        "Codable / floor",
        "plist speedup",
        "JSON speedup",
        "direct mallocs/record",
    )
    print_table(header, rows)
    lines = []
    for operation, sizes in per_record.items():
        if len(sizes) < 2:
            continue
        sizes.sort()
        (_, small, small_cost, small_min), (_, large, large_cost, large_min) = sizes[0], sizes[-1]
        lines.append(
            f"{operation} {large_cost / small_cost:.2f} (p0 {large_min / small_min:.2f}, {large} against {small})"
        )
    if lines:
        print("\nPer record, the largest size against the smallest (target ≤ 1.2): " + ", ".join(lines))
    print(
        "p0: the same ratio of the fastest samples, which a host's slow phases (lasting minutes, one"
        " benchmark's process at a time) disturb least."
    )
    peak = results.get("KeyedArchiving.decodeArchivable/100k", {}).get("peak_bytes")
    if peak:
        print(f"Direct decode of 100k, peak resident: {format_bytes(peak)}")
    return True


def print_interleaved(results):
    """The `Interleaved.*` benchmarks: the direct path against the floor and Foundation's coders,
    and 100k against 1k, timed in turns in one process. Returns False when the input has none."""
    interleaved = []
    for operation in ("encode", "decode"):
        names = [name for name in results if name.startswith(f"Interleaved.{operation}Archivable/")]
        for name in sorted(names, key=lambda name: record_count(name.split("/")[-1]) or 0):
            measured = results[name]
            if "directPerMilleOfFloor" not in measured:
                continue
            interleaved.append(
                (
                    f"{operation}/{name.split('/')[-1]}",
                    f"{measured['directPerMilleOfFloor'] / 1000:.2f}",
                    *(
                        f"{measured[metric] / 1000:.1f}×" if metric in measured else "–"
                        for metric in ("plistPerMilleOfDirect", "jsonPerMilleOfDirect")
                    ),
                )
            )
    if interleaved:
        print("Timed in turns in one process (Interleaved.*; median of the iterations' ratios):\n")
        print_table(("operation/records", "direct / floor", "plist speedup", "JSON speedup"), interleaved)
    scalings = []
    for operation in ("encode", "decode"):
        scaling = results.get(f"Interleaved.{operation}ArchivableScaling/100k", {})
        if "perRecordPerMilleOf1k" in scaling:
            scalings.append(f"{operation} {scaling['perRecordPerMilleOf1k'] / 1000:.2f}")
    if scalings:
        print("\nPer record, 100k against 1k, timed in turns (target ≤ 1.2): " + ", ".join(scalings))
    return bool(interleaved or scalings)


def print_single(results):
    """The `Single.*` benchmarks: one value per archive, the direct path against the floor and
    Foundation's coders, timed in turns in one process. Returns False when the input has none."""
    values = sorted({name.split("/", 1)[1] for name in results if name.startswith("Single.")})
    rows = []
    for value in values:
        row = [value]
        for operation in ("encode", "decode"):
            measured = results.get(f"Single.{operation}/{value}", {})
            nanoseconds = measured.get("directNanosecondsPerValue")
            row.append(f"{nanoseconds / 1000:.2f} µs" if nanoseconds is not None else "–")
            row.append(
                f"{measured['directPerMilleOfFloor'] / 1000:.1f}×" if "directPerMilleOfFloor" in measured else "–"
            )
            for metric in ("jsonPerMilleOfDirect", "plistPerMilleOfDirect"):
                row.append(f"{measured[metric] / 1000:.2f}×" if metric in measured else "–")
        rows.append(row)
    if rows:
        print("One value per archive, timed in turns in one process (Single.*; medians of the iterations):\n")
        print_table(
            (
                "value",
                "direct encode",
                "× floor",
                "JSON ÷ direct",
                "plist ÷ direct",
                "direct decode",
                "× floor",
                "JSON ÷ direct",
                "plist ÷ direct",
            ),
            rows,
        )
        print("\nTargets (issue 33): direct ≤ 2× the floor and JSON ÷ direct ≥ 5, both ways.")
    return bool(rows)


def main():
    text = open(sys.argv[1], encoding="utf-8").read() if len(sys.argv) > 1 else sys.stdin.read()
    results = parse(text)
    if len(sys.argv) > 2:
        # Times and memory from the uninstrumented run; malloc counts from the instrumented one.
        counted = parse(open(sys.argv[2], encoding="utf-8").read())
        for name, result in results.items():
            result.pop("mallocs", None)
            if "mallocs" in counted.get(name, {}):
                result["mallocs"] = counted[name]["mallocs"]
    printed_coders = print_coders(results)
    for printer in (print_direct, print_interleaved, print_single):
        if printer(results):
            print()
            printed_coders = True
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
        if printed_coders:
            return
        sys.exit("compare.py: no PropertyLists/Foundation or KeyedArchiving coder results found in the input")
    if printed_coders:
        print()
    header = (
        "operation/input",
        "ours p50",
        "Foundation p50",
        "speedup",
        "speedup (p0)",
        "ours mallocs",
        "Foundation mallocs",
    )
    print_table(header, rows)
    print("\nspeedup = Foundation p50 / ours p50 (wall clock); > 1 means ours is faster.")
    print("speedup (p0) = the same for the fastest sample, which other load on the machine disturbs least.")


if __name__ == "__main__":
    main()
