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

# Checks or updates the mallocCountTotal thresholds of our benchmarks (the PropertyLists.* ones of
# PropertyListBenchmarks and the KeyedArchiving.* ones of CoderBenchmarks) in
# Benchmarks/Thresholds/<swift major.minor>/.
#
#   Benchmarks/thresholds.sh check     # exits non-zero on any regression or improvement
#   Benchmarks/thresholds.sh update    # rewrites the thresholds from a fresh run
#   SCRATCH_PATH=/tmp/bench/.build Benchmarks/thresholds.sh check   # build somewhere else
#
# ordo-one/benchmark 1.38.1 writes a threshold file with every "/" of the benchmark name turned
# into "_", but reads it back with the "/" kept, that is from a subfolder. So `update` writes to a
# scratch folder and moves each file to where `check` reads it:
#   PropertyListBenchmarks.PropertyLists.parse_records10k.binary.p90.json
#   -> PropertyListBenchmarks.PropertyLists.parse/records10k.binary.p90.json
#   CoderBenchmarks.KeyedArchiving.decode_10k.p90.json
#   -> CoderBenchmarks.KeyedArchiving.decode/10k.p90.json
# (ordo-one/benchmark issue #373.) This relies on benchmark names "<Impl>.<operation>/<input>"
# having no "_" before the "/".

set -euo pipefail

cd "$(dirname "$0")"
toolchain=$(swift --version 2>&1 | sed -nE 's/.*Swift version ([0-9]+\.[0-9]+).*/\1/p' | head -n 1)
thresholds="Thresholds/${toolchain:?could not read the Swift version}"
filter='(PropertyLists|KeyedArchiving)\..*'
scratch_path=(${SCRATCH_PATH:+--scratch-path "$SCRATCH_PATH"})

case "${1:-check}" in
check)
    swift package "${scratch_path[@]}" --disable-sandbox benchmark thresholds check \
        --filter "$filter" --metric mallocCountTotal --path "$PWD/$thresholds" --no-progress
    ;;
update)
    scratch=$(mktemp -d)
    trap 'rm -rf "$scratch"' EXIT
    swift package "${scratch_path[@]}" --disable-sandbox --allow-writing-to-package-directory benchmark thresholds update \
        --filter "$filter" --metric mallocCountTotal --path "$scratch" --no-progress
    rm -rf "$thresholds"
    for file in "$scratch"/*.p90.json; do
        name=$(basename "$file")
        mkdir -p "$thresholds/${name%%_*}"
        mv "$file" "$thresholds/${name%%_*}/${name#*_}"
    done
    echo "Wrote $(find "$thresholds" -name '*.p90.json' | wc -l | tr -d ' ') thresholds to Benchmarks/$thresholds"
    ;;
*)
    echo "usage: $0 check|update" >&2
    exit 64
    ;;
esac
