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

# Runs the PropertyLists-vs-Foundation and the Codable-coder benchmarks twice: for wall clock and
# memory in a build without ordo-one's malloc interposer (scratch folder .build-wallclock), whose
# per-allocation header changes times unevenly, then for malloc counts in the usual instrumented
# build. Prints ordo-one's tables of the first run, then the ratio tables of both.
#
#   Benchmarks/compare.sh                       # everything (about 4.5 minutes on 2 cores, after the builds)
#   Benchmarks/compare.sh --filter '.*records10k\.binary' # extra arguments go to `benchmark`
#   Benchmarks/compare.sh --target CoderBenchmarks        # the coders only (about 2 minutes)
#
# The markdown results are kept in Benchmarks/.build/benchmark-results.md (wall clock) and
# Benchmarks/.build/benchmark-mallocs.md (malloc counts).

set -euo pipefail

cd "$(dirname "$0")"
results=.build/benchmark-results.md
mallocs=.build/benchmark-mallocs.md
mkdir -p .build

BENCHMARK_DISABLE_MALLOC_INTERPOSER=1 swift package --disable-sandbox --scratch-path .build-wallclock \
    benchmark --format markdown --no-progress "$@" | tee "$results"

echo
echo "Counting allocations (instrumented build)..."
swift package --disable-sandbox benchmark --format markdown --no-progress "$@" > "$mallocs"

echo
if command -v python3 >/dev/null; then
    python3 compare.py "$results" "$mallocs"
else
    echo "python3 not found: the ratio table needs it (python3 compare.py $results $mallocs)." >&2
fi
