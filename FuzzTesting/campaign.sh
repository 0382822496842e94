#!/usr/bin/env bash
# A long run of one target:  ./campaign.sh TARGET RUNS SECONDS
#
# Fuzzes TARGET (built with ./do_build.sh) until RUNS inputs or SECONDS have passed, starting from
# Corpus/TARGET/ and GrownCorpus/TARGET/, then merges what the run added into GrownCorpus/TARGET/
# with libFuzzer's -merge=1, which keeps only inputs that reach new coverage (the corpus stays
# minimal). Prints the executions, their rate, the time and the peak memory, and writes the log to
# campaign-TARGET.log. Exits with the fuzzer's status: 0 when it stopped without a finding.
set -euo pipefail
cd "$(dirname "$0")"

if [[ $# -ne 3 ]]; then
  echo "usage: $0 TARGET RUNS SECONDS" >&2
  exit 2
fi
TARGET="$1"
RUNS="$2"
LIMIT="$3"
BIN="$(swift build -c "${FUZZ_CONFIG:-release}" --scratch-path "${FUZZ_SCRATCH_PATH:-.build-fuzz}" --show-bin-path)"

grown="$(mktemp -d "${TMPDIR:-/tmp}/campaign-$TARGET.XXXXXX")"
trap 'rm -rf "$grown"' EXIT
log="campaign-$TARGET.log"
started=$SECONDS
status=0
FUZZ_KEEP_CORPUS="$grown" ./fuzz.sh "$TARGET" "$LIMIT" -runs="$RUNS" >"$log" 2>&1 || status=$?
elapsed=$((SECONDS - started))

echo "$TARGET: exit $status after ${elapsed} s"
grep -E '^stat::(number_of_executed_units|average_exec_per_sec|peak_rss_mb)' "$log" || tail -n 40 "$log"

# Keep what the run found that the committed corpora do not already cover.
mkdir -p "GrownCorpus/$TARGET"
before="$(find "GrownCorpus/$TARGET" -type f | wc -l)"
export ASAN_OPTIONS="detect_stack_use_after_return=0${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
"$BIN/$TARGET" -merge=1 -timeout=5 -rss_limit_mb=2048 "GrownCorpus/$TARGET" "Corpus/$TARGET" "$grown" \
  >>"$log" 2>&1 || true
# -merge=1 also copies seeds of Corpus/TARGET that add coverage; they are committed there already.
for file in "Corpus/$TARGET"/*; do
  [[ -f "$file" ]] || continue
  sum="$(sha1sum "$file" | cut -c1-40)"
  rm -f "GrownCorpus/$TARGET/$sum"
done
after="$(find "GrownCorpus/$TARGET" -type f | wc -l)"
echo "$TARGET: GrownCorpus/$TARGET $before -> $after inputs ($(du -sh "GrownCorpus/$TARGET" | cut -f1))"
exit $status
