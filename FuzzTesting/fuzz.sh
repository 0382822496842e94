#!/usr/bin/env bash
# Runs one fuzz target for a given time:  ./fuzz.sh TARGET SECONDS [extra libFuzzer flags]
#
# The committed corpora, Corpus/TARGET/ (seeds) and GrownCorpus/TARGET/ (what long runs found), are
# copied to a temporary directory first, so fuzzing never changes them; crash, leak, timeout and
# OOM reproducers go to FailCases/TARGET/. Build first with ./do_build.sh. Exits with libFuzzer's
# status: 0 when the time ran out without a finding.
# Set FUZZ_KEEP_CORPUS=DIR to keep the grown corpus in DIR.
set -euo pipefail
cd "$(dirname "$0")"

if [[ $# -lt 2 ]]; then
  echo "usage: $0 TARGET SECONDS [libFuzzer flags...]" >&2
  echo "targets: FuzzBinaryPlist FuzzXMLPlist FuzzKeyedArchive FuzzCodableDecoder FuzzArchivableDecoder" >&2
  exit 2
fi
TARGET="$1"
SECONDS_TO_RUN="$2"
shift 2

BIN="$(swift build -c "${FUZZ_CONFIG:-release}" --scratch-path "${FUZZ_SCRATCH_PATH:-.build-fuzz}" --show-bin-path)"
if [[ ! -x "$BIN/$TARGET" ]]; then
  echo "error: $BIN/$TARGET not built; run ./do_build.sh" >&2
  exit 2
fi

WORK="$(mktemp -d "${TMPDIR:-/tmp}/fuzz-$TARGET.XXXXXX")"
trap 'rm -rf "$WORK"' EXIT
mkdir -p "$WORK/corpus" "FailCases/$TARGET"
if [[ -d "Corpus/$TARGET" ]]; then cp -R "Corpus/$TARGET/." "$WORK/corpus/"; fi
# What long runs found beyond the seeds, minimised (campaign.sh); FUZZ_SEEDS_ONLY=1 leaves it out
# (the smoke: libFuzzer runs a whole starting corpus before its time limit applies).
if [[ -d "GrownCorpus/$TARGET" && "${FUZZ_SEEDS_ONLY:-0}" != 1 ]]; then
  cp -R "GrownCorpus/$TARGET/." "$WORK/corpus/"
fi

status=0
# Swift's own crash backtracer fights ASan over the crashing process; let ASan report.
export SWIFT_BACKTRACE="${SWIFT_BACKTRACE:-enable=no}"
# ASan's fake stacks (detect_stack_use_after_return) move locals off the thread's stack, where the
# readers' stack guard (PropertyLists' StackGuard) measures how deep they are; keep them on it.
export ASAN_OPTIONS="detect_stack_use_after_return=0${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
"$BIN/$TARGET" \
  -max_total_time="$SECONDS_TO_RUN" \
  -timeout=5 \
  -rss_limit_mb=2048 \
  -print_final_stats=1 \
  -artifact_prefix="FailCases/$TARGET/" \
  "$@" \
  "$WORK/corpus" || status=$?

if [[ -n "${FUZZ_KEEP_CORPUS:-}" ]]; then
  mkdir -p "$FUZZ_KEEP_CORPUS"
  cp -R "$WORK/corpus/." "$FUZZ_KEEP_CORPUS/"
fi
exit $status
