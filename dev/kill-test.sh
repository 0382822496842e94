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

# Crash test of ArchiveStore, many times over: start `storage-probe store-write-loop` (durable
# single and batch saves of values derived from a counter), SIGKILL it at a random instant, then
# check with `storage-probe store-verify` that every key holds one whole value a writer wrote, at
# least as new as the last save the writer reported as returned, and that no entry is corrupt.
#
#   dev/kill-test.sh [--backend files|sqlite] [KILLS] [SCRATCH_PATH]   # defaults: files, 2000 kills, .build-store
#   PROBE=/path/to/storage-probe dev/kill-test.sh --backend sqlite 2000  # a copy, safe from rebuilds meanwhile
#
# Build first: swift build --build-tests --scratch-path .build-store
# Prints a summary line; exits non-zero on the first violation, keeping the directory for a look.

set -euo pipefail
cd "$(dirname "$0")/.."
backend=files
if [[ "${1:-}" == "--backend" ]]; then
    backend=${2:-}
    shift 2
fi
case "$backend" in
files | sqlite) ;;
*) echo "usage: dev/kill-test.sh [--backend files|sqlite] [KILLS] [SCRATCH_PATH]" >&2; exit 64 ;;
esac
# The probes create the store with this backend; every later run finds it in the directory.
export STORAGE_PROBE_BACKEND=$backend
kills=${1:-2000}
scratch=${2:-.build-store}
probe=${PROBE:-"$scratch/debug/storage-probe"}
[[ -x "$probe" ]] || { echo "no $probe; build first" >&2; exit 64; }

keys=8
work=$(mktemp -d "${TMPDIR:-/tmp}/kill-test.XXXXXX")
declare -A acknowledged=()
started=$(date +%s)
written=0
absent_before_first_ack=0
# Kills that hit a writer that had already completed a save, that is, one in its write loop.
active_kills=0

for ((run = 0; run < kills; run++)); do
    output="$work/output"
    "$probe" store-write-loop "$work" "$keys" "$((run * 1000003))" >"$output" 2>"$work/stderr" &
    pid=$!
    # A random instant 20 to 150 ms after the start: the probe needs some 30 ms to start, then
    # spends most of its time inside saves.
    sleep "0.$(printf '%03d' $((RANDOM % 131 + 20)))"
    kill -KILL "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
    if [[ -s "$work/stderr" ]]; then
        echo "run $run: the writer failed: $(cat "$work/stderr")" >&2
        exit 1
    fi
    [[ -s "$output" ]] && active_kills=$((active_kills + 1))
    while read -r key step; do
        [[ -n "$key" ]] || continue
        written=$((written + 1))
        if [[ -z "${acknowledged[$key]:-}" || "$step" -gt "${acknowledged[$key]}" ]]; then
            acknowledged[$key]=$step
        fi
    done <"$output"
    if ! verified=$("$probe" store-verify "$work" "$keys" 2>&1); then
        echo "run $run: verification failed: $verified (directory kept: $work)" >&2
        exit 1
    fi
    while read -r key step; do
        if [[ "$step" == "-" ]]; then
            if [[ -n "${acknowledged[$key]:-}" ]]; then
                echo "run $run: $key lost its value (last acknowledged ${acknowledged[$key]}; kept $work)" >&2
                exit 1
            fi
            absent_before_first_ack=$((absent_before_first_ack + 1))
        elif [[ -n "${acknowledged[$key]:-}" && "$step" -lt "${acknowledged[$key]}" ]]; then
            echo "run $run: $key went back to $step from ${acknowledged[$key]} (kept $work)" >&2
            exit 1
        fi
    done <<<"$verified"
    if ((run % 250 == 249)); then
        echo "$((run + 1)) kills ($active_kills mid-loop), $written acknowledged saves, $(($(date +%s) - started)) s"
    fi
done

# The store must be of the backend asked for: a database file means SQLite.
expected=no found=no
[[ "$backend" == sqlite ]] && expected=yes
[[ -e "$work/store/entries.sqlite" ]] && found=yes
if [[ "$expected" != "$found" ]]; then
    echo "the store is not on the $backend backend (kept $work)" >&2
    exit 1
fi
leftovers=$(find "$work/store" -maxdepth 1 -name '.tmp-*' | wc -l | tr -d ' ')
echo "kill test passed ($backend backend): $kills kills ($active_kills of a writer in its save loop), $written acknowledged saves," \
    "every key whole and current;" \
    "$leftovers temporary files of the last writer left for the next open; $(($(date +%s) - started)) s"
rm -rf "$work"
