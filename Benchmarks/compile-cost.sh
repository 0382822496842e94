#!/usr/bin/env bash
##===----------------------------------------------------------------------===##
##
## This source file is part of the swift-keyed-archive open source project
##
## Licensed under Apache License v2.0
##
## SPDX-License-Identifier: Apache-2.0
##
##===----------------------------------------------------------------------===##

# What a user's module pays for `@Archivable`: generates a model of 20 `@Archivable` structs (6 to
# 12 fields of every standard scalar type, each holding the previous one), compiles it with
# `swiftc -wmo -c` against this package's release modules and macro plugin, and prints the time and
# the object's text size, for -O and -Onone.
#
#   swift build -c release --package-path Benchmarks --product coder-profile   # the modules, once
#   Benchmarks/compile-cost.sh [path to Benchmarks/.build/release]
set -euo pipefail
release=${1:-"$(cd "$(dirname "$0")" && pwd)/.build/release"}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

python3 - "$work/Model.swift" <<'PY'
import sys
fields = [("String", '""'), ("Int", "0"), ("Double", "0"), ("Bool", "false"), ("Date", "Date()"),
          ("[String]", "[]"), ("Int64", "0"), ("UInt8", "0"), ("Float", "0"), ("Data", "Data()"),
          ("URL?", "nil"), ("UUID", "UUID()"), ("String?", "nil"), ("Int32", "0")]
out = ["import Foundation", "import KeyedArchiving", "import KeyedArchivingMacros", ""]
for t in range(20):
    out += ["@Archivable", f"public struct Model{t}: Equatable {{"]
    for i in range(6 + t % 7):
        kind, initial = fields[(t * 3 + i) % len(fields)]
        out.append(f"    public var field{i}: {kind}" + (f" = {initial}" if i % 3 == 2 else ""))
    if t > 0:
        out.append(f"    public var child: Model{t - 1}?")
    out += ["}", ""]
open(sys.argv[1], "w").write("\n".join(out))
PY

for optimization in -O -Onone; do
    start=$(date +%s.%N)
    swiftc "$optimization" -wmo -parse-as-library -swift-version 6 -module-name Model20 -c "$work/Model.swift" \
        -o "$work/Model.o" -I "$release/Modules" \
        -load-plugin-executable "$release/KeyedArchivingMacrosPlugin-tool#KeyedArchivingMacrosPlugin"
    end=$(date +%s.%N)
    text=$(size "$work/Model.o" | tail -1 | awk '{print $1}')
    printf '%-6s %6.2f s  text %s bytes\n' "$optimization" "$(echo "$end - $start" | bc)" "$text"
done
