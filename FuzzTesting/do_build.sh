#!/usr/bin/env bash
# Builds the fuzz targets with libFuzzer and AddressSanitizer into .build-fuzz (release, or
# FUZZ_CONFIG's configuration).
#
#   ./do_build.sh            build
#   ./do_build.sh --debug    build the debug configuration instead
#   ./do_build.sh --run-regressions
#                            build, then run every target once over FailCases/<Target>/
set -euo pipefail
cd "$(dirname "$0")"

CONFIG="${FUZZ_CONFIG:-release}"
RUN_REGRESSIONS=no
for arg in "$@"; do
  case "$arg" in
    --debug) CONFIG=debug ;;
    --release) CONFIG=release ;;
    --run-regressions | --run) RUN_REGRESSIONS=yes ;;
    -h | --help) sed -n '2,8p' "$0"; exit 0 ;;
    *) echo "unknown argument: $arg" >&2; exit 2 ;;
  esac
done

SCRATCH="${FUZZ_SCRATCH_PATH:-.build-fuzz}"
export SWIFT_BACKTRACE="${SWIFT_BACKTRACE:-enable=no}"
TARGETS=(FuzzBinaryPlist FuzzXMLPlist FuzzKeyedArchive FuzzCodableDecoder FuzzArchivableDecoder)
# lld, the toolchain's linker: gold stops with an internal error ("format_file_lineno") linking the
# macro plugin of KeyedArchivingMacros with the sanitizer runtimes, which every target here gets.
# --gc-sections, which release links pass anyway: it drops libFuzzer's own `main`, which the plugin
# (whose `main` is its own) would otherwise pull in, with its undefined LLVMFuzzerTestOneInput.
FLAGS=(-c "$CONFIG" --scratch-path "$SCRATCH" -Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library
  -Xswiftc -use-ld=lld -Xlinker --gc-sections)
# One product at a time: a plain `swift build` would also build (and instrument) the parent
# package's karchive tool and its argument-parser dependency, which the fuzzers do not need.
for target in "${TARGETS[@]}"; do
  swift build "${FLAGS[@]}" --product "$target"
done

if [[ "$RUN_REGRESSIONS" == yes ]]; then
  BIN="$(swift build "${FLAGS[@]}" --show-bin-path)"
  for target in "${TARGETS[@]}"; do
    dir="FailCases/$target"
    [[ -d "$dir" ]] || continue
    files=("$dir"/*)
    [[ -e "${files[0]}" ]] || continue
    echo "== $target: ${#files[@]} fail case(s)"
    "$BIN/$target" -runs=1 "${files[@]}"
  done
fi
