#!/usr/bin/env bash
# Measures karchive as README.md's "karchive > Measured" section reports: wall time on the largest
# Apple fixture (hyperfine), and peak memory converting a ~100 MB archive (/usr/bin/time -v).
# Needs hyperfine and GNU time (apt-get install hyperfine time) and python3.
set -euo pipefail
cd "$(dirname "$0")/.."
scratch=${SCRATCH:-.build}
swift build -c release --product karchive --scratch-path "$scratch"
karchive="$scratch/release/karchive"
fixture=Tests/TestSupport/Fixtures/apple/nsarray_runningprocesses.bplist

hyperfine -N --warmup 10 --runs 100 \
    "$karchive --version" "$karchive dump $fixture" "$karchive dump --json $fixture" \
    "$karchive info $fixture" "$karchive validate $fixture"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python3 dev/make-large-archive.py 200000 "$work/big.archive"
ls -l "$work/big.archive"
measure() {
    echo "== karchive $*"
    /usr/bin/time -v "$karchive" "$@" 2>&1 >/dev/null | grep -E "Elapsed|Maximum resident"
}
measure info "$work/big.archive"
measure validate "$work/big.archive"
measure convert "$work/big.archive" --to xml -o "$work/big.xml"
measure convert "$work/big.xml" --to binary -o "$work/big2.archive"
measure convert "$work/big.archive" --to binary -o "$work/big3.archive"
measure convert "$work/big.archive" --to json -o "$work/big.json"
ls -l "$work"
