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
# Instructions per item of coder-profile workloads, as Benchmarks/README.md reports them: callgrind's
# total with 3 rounds minus with 1, halved, divided by N (so the setup and the first round's
# one-time costs cancel). With MALLOCS=1, malloc calls per item instead, counted the same way.
#
#   cd Benchmarks && swift build -c release --product coder-profile
#   N=2000 ./callgrind-per-item.sh direct-encode one-direct-decode app-floor-encode
#
# P overrides the coder-profile binary. Needs valgrind. Figures move about 1% with the binary's
# layout: compare against a floor measured in the same build.
set -eu
cd "$(dirname "$0")"
P=${P:-.build/release/coder-profile}
N=${N:-2000}
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
for workload in "$@"; do
    totals=()
    for rounds in 1 3; do
        if [ "${MALLOCS:-0}" = 1 ]; then
            SWIFT_DETERMINISTIC_HASHING=1 valgrind --tool=callgrind --callgrind-out-file="$scratch/out" \
                "$P" run "$workload" "$N" "$rounds" >/dev/null 2>&1
            # Calls into glibc's malloc, summed over its callers.
            count=$(callgrind_annotate --tree=caller "$scratch/out" 2>/dev/null \
                | awk '/^ *[0-9,]+ .*< / {line[++n]=$0; next} /\*  .*malloc\.c:malloc \[/ {for (i=1;i<=n;i++) print line[i]; exit} {n=0}' \
                | grep -o '([0-9,]*x)' | tr -d '(),x' | awk '{s+=$1} END {print s+0}')
        else
            count=$(SWIFT_DETERMINISTIC_HASHING=1 valgrind --tool=callgrind --callgrind-out-file=/dev/null \
                "$P" run "$workload" "$N" "$rounds" 2>&1 | grep -o "Collected : [0-9]*" | grep -o "[0-9]*")
        fi
        totals+=("$count")
    done
    awk -v w="$workload" -v a="${totals[0]}" -v b="${totals[1]}" -v n="$N" 'BEGIN {printf "%s %.2f\n", w, (b - a) / 2 / n}'
done
