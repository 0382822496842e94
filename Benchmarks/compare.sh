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

# Runs the PropertyLists-vs-Foundation and the Codable-coder benchmarks, prints ordo-one's tables,
# then the ratio tables.
#
#   Benchmarks/compare.sh                       # everything (about 5.5 minutes on 2 cores, after the build)
#   Benchmarks/compare.sh --filter '.*records10k\.binary' # extra arguments go to `benchmark`
#   Benchmarks/compare.sh --target CoderBenchmarks        # the coders only (about 1.5 minutes)
#
# The markdown results are kept in Benchmarks/.build/benchmark-results.md.

set -euo pipefail

cd "$(dirname "$0")"
results=.build/benchmark-results.md
mkdir -p .build

swift package --disable-sandbox benchmark --format markdown --no-progress "$@" | tee "$results"

echo
if command -v python3 >/dev/null; then
    python3 compare.py "$results"
else
    echo "python3 not found: the ratio table needs it (python3 compare.py $results)." >&2
fi
