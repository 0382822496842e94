#!/usr/bin/env bash
# Measures the peak memory (max RSS) of `karchive dump`, `dump --json` and `validate` on the hostile
# corpus (Tests/TestSupport/Fixtures/malformed), on large "billion laughs" inputs and on a large
# valid archive, and prints it beside the input size. Uses a release build in .build-secure-release.
#
#   dev/measure-hostile-memory.sh            # build, generate the large inputs, measure
#   KARCHIVE=/path/to/karchive dev/measure-hostile-memory.sh
set -euo pipefail
cd "$(dirname "$0")/.."

if [[ -z "${KARCHIVE:-}" ]]; then
  swift build -c release --scratch-path .build-secure-release --product karchive >&2
  KARCHIVE="$(swift build -c release --scratch-path .build-secure-release --show-bin-path)/karchive"
fi
work="$(mktemp -d "${TMPDIR:-/tmp}/hostile-memory.XXXXXX")"
trap 'rm -rf "$work"' EXIT

python3 - "$work" <<'PY'
import os, plistlib, sys
out = sys.argv[1]
UID = plistlib.UID
def nsarray_levels(levels, width, leaf):
    objects = ["$null"]
    for level in range(levels):
        objects.append({"$class": UID(levels + 2), "NS.objects": [UID(level + 2)] * width})
    objects.append(leaf)
    objects.append({"$classname": "NSArray", "$classes": ["NSArray", "NSObject"]})
    return objects
def write_archive(name, objects):
    envelope = {"$archiver": "NSKeyedArchiver", "$version": 100000, "$top": {"root": UID(1)}, "$objects": objects}
    with open(os.path.join(out, name), "wb") as f:
        f.write(plistlib.dumps(envelope, fmt=plistlib.FMT_BINARY, sort_keys=False))
# Billion laughs, large: 40 levels of 200 references each (8 KB per level), 10^92 leaves.
write_archive("large-billion-laughs.archive", nsarray_levels(40, 200, "leaf"))
# Billion laughs whose leaf is a 1 MiB string: each reference costs 1 MiB when expanded.
write_archive("wide-string-laughs.archive", nsarray_levels(2, 1000, "x" * (1 << 20)))
# The same as a plain binary property list.
level = "leaf"
for _ in range(40):
    level = [level] * 200
with open(os.path.join(out, "large-billion-laughs.bplist"), "wb") as f:
    f.write(plistlib.dumps(level, fmt=plistlib.FMT_BINARY))
# A large valid archive: 150,000 objects of a class with a string, an integer and a real, in an NSArray.
objects = ["$null", {"$class": UID(2), "NS.objects": []}, {"$classname": "NSArray", "$classes": ["NSArray", "NSObject"]},
           {"$classname": "Cat", "$classes": ["Cat", "NSObject"]}]
elements = objects[1]["NS.objects"]
for index in range(150_000):
    objects.append(f"cat number {index}")
    objects.append({"$class": UID(3), "name": UID(len(objects) - 1), "lives": index % 9, "weight": index / 7})
    elements.append(UID(len(objects) - 1))
write_archive("large-valid.archive", objects)
PY

baseline=0
# Max RSS jitters by a few hundred KiB from run to run, so the ratio to the input is shown only for
# inputs of 64 KiB and more; for smaller ones, read the growth over the baseline.
printf '%-36s %10s  %-12s %12s %12s %10s %s\n' "input" "bytes" "command" "max RSS KiB" "over base" "per input" "exit"
measure() {
  local file="$1"; shift
  local size; size="$(stat -c %s "$file")"
  local log="$work/time.log"
  set +e
  /usr/bin/time -v "$KARCHIVE" "$@" "$file" > /dev/null 2> "$log"
  local status=$?
  set -e
  local rss; rss="$(awk -F': ' '/Maximum resident set size/ {print $2}' "$log")"
  local over="-"
  if [[ "$baseline" -gt 0 ]]; then over=$((rss - baseline)); fi
  local ratio; ratio="$(awk -v d="$over" -v s="$size" 'BEGIN { if (s < 65536 || d == "-") print "-"; else printf "%.1fx", d * 1024 / s }')"
  printf '%-36s %10s  %-12s %12s %12s %10s %s\n' "$(basename "$file")" "$size" "$*" "$rss" "$over" "$ratio" "$status"
  last_rss="$rss"
}
# The baseline: an empty input, for the process's own footprint (runtime, Foundation, the binary).
printf '' > "$work/empty"
measure "$work/empty" validate
baseline="$last_rss"
for file in Tests/TestSupport/Fixtures/malformed/*.{archive,bplist,xml} "$work"/*.archive "$work"/*.bplist; do
  measure "$file" dump
  measure "$file" dump --json
  measure "$file" validate
done
