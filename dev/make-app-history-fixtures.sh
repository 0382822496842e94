#!/usr/bin/env bash
# Writes the Foundation-made archives of the app-history tests (Tests/ArchivableTests/AppHistoryTests.swift):
# an NSCoding cat archived by Foundation's NSKeyedArchiver as versions 1, 2 (module CatApp) and 3
# (module PetApp) of a pet app wrote it. See Tests/TestSupport/Fixtures/foundation/SOURCES.md.
set -euo pipefail
cd "$(dirname "$0")/.."
out=Tests/TestSupport/Fixtures/foundation
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
swiftc -O -module-name CatApp dev/app-history/Cat.swift -o "$work/CatApp"
swiftc -O -module-name PetApp dev/app-history/Cat.swift -o "$work/PetApp"
"$work/CatApp" 1 "$out/app-history-v1.archive"
"$work/CatApp" 2 "$out/app-history-v2.archive"
"$work/PetApp" 3 "$out/app-history-v3.archive"
ls -l "$out"/app-history-v*.archive
