#!/usr/bin/env bash
# CI smoke: builds the fuzz targets, replays every file in FailCases/<Target>/, then fuzzes each
# target for FUZZ_SMOKE_SECONDS (default 15) seconds. Exits non-zero on any crash, leak, timeout
# or out-of-memory; the reproducer lands in FailCases/<Target>/.
set -euo pipefail
cd "$(dirname "$0")"

SECONDS_PER_TARGET="${FUZZ_SMOKE_SECONDS:-15}"
# From the seeds only: a debug build runs the grown corpora's thousands of inputs for a minute or
# more per target before fuzzing starts (campaign.sh and fuzz.sh use them).
export FUZZ_SEEDS_ONLY=1
TARGETS=(FuzzBinaryPlist FuzzXMLPlist FuzzKeyedArchive FuzzCodableDecoder FuzzArchivableDecoder)
export SWIFT_BACKTRACE="${SWIFT_BACKTRACE:-enable=no}"
# ASan's fake stacks (detect_stack_use_after_return) move locals off the thread's stack, where the
# readers' stack guard (PropertyLists' StackGuard) measures how deep they are; keep them on it.
export ASAN_OPTIONS="detect_stack_use_after_return=0${ASAN_OPTIONS:+:$ASAN_OPTIONS}"

# Debug by default: a release build of the fuzz targets compiles swift-syntax (for the macro plugin
# FuzzArchivableDecoder's model uses) with optimization and AddressSanitizer, about 8 minutes on two
# cores against 2 in debug; a 15-second smoke needs no optimized fuzzer. Long runs use release.
# Unoptimized frames are several times larger: give the main thread, where libFuzzer runs each
# input, room for the 512 levels of nesting the readers allow (release needs the default 8 MiB).
export FUZZ_CONFIG="${FUZZ_CONFIG:-debug}"
if [[ "$FUZZ_CONFIG" == debug ]]; then ulimit -s 262144 2>/dev/null || ulimit -s unlimited; fi
./do_build.sh
BIN="$(swift build -c "$FUZZ_CONFIG" --scratch-path "${FUZZ_SCRATCH_PATH:-.build-fuzz}" --show-bin-path)"

failed=()
for target in "${TARGETS[@]}"; do
  files=()
  if [[ -d "FailCases/$target" ]]; then
    for file in "FailCases/$target"/*; do [[ -f "$file" ]] && files+=("$file"); done
  fi
  if [[ ${#files[@]} -gt 0 ]]; then
    echo "== $target: replaying ${#files[@]} fail case(s)"
    log="$(mktemp "${TMPDIR:-/tmp}/fuzz-smoke-$target.XXXXXX")"
    if ! "$BIN/$target" -timeout=5 -rss_limit_mb=2048 "${files[@]}" > "$log" 2>&1; then
      tail -n 60 "$log"
      rm -f "$log"
      failed+=("$target (fail-case replay)")
      continue
    fi
    rm -f "$log"
  fi
  echo "== $target: fuzzing for ${SECONDS_PER_TARGET}s"
  log="$(mktemp "${TMPDIR:-/tmp}/fuzz-smoke-$target.XXXXXX")"
  if ./fuzz.sh "$target" "$SECONDS_PER_TARGET" > "$log" 2>&1; then
    grep -E '^stat::(number_of_executed_units|average_exec_per_sec|peak_rss_mb)' "$log" || true
  else
    tail -n 60 "$log"
    failed+=("$target")
  fi
  rm -f "$log"
done

if [[ ${#failed[@]} -gt 0 ]]; then
  echo "fuzz smoke FAILED: ${failed[*]}" >&2
  exit 1
fi
echo "fuzz smoke passed"
