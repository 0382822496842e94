#!/usr/bin/env bash
# Rebuilds the seed corpora in Corpus/<Target>/ from the Apple fixtures and from archives that
# KeyedArchiveEncoder writes for FuzzModel. Run ./do_build.sh first. Files over 20 KiB are left
# out to keep the committed corpora small.
set -euo pipefail
cd "$(dirname "$0")"

FIXTURES=../Tests/TestSupport/Fixtures/apple
BIN="$(swift build -c "${FUZZ_CONFIG:-release}" --scratch-path "${FUZZ_SCRATCH_PATH:-.build-fuzz}" --show-bin-path)"
MAX_SIZE=20480

rm -rf Corpus
mkdir -p Corpus/FuzzBinaryPlist Corpus/FuzzXMLPlist Corpus/FuzzKeyedArchive Corpus/FuzzCodableDecoder \
  Corpus/FuzzArchivableDecoder

for file in "$FIXTURES"/*; do
  [[ -f "$file" && "$(stat -c %s "$file")" -le $MAX_SIZE ]] || continue
  name="$(basename "$file")"
  case "$(head -c 8 "$file")" in
    bplist00)
      for target in FuzzBinaryPlist FuzzKeyedArchive FuzzCodableDecoder; do cp "$file" "Corpus/$target/$name"; done ;;
    '<?xml ve')
      cp "$file" "Corpus/FuzzXMLPlist/$name" ;;
  esac
done

# The hostile-input corpus (one file per check, see dev/make-malformed-corpus.py), as "malformed-*".
for file in ../Tests/TestSupport/Fixtures/malformed/*; do
  name="malformed-$(basename "$file")"
  case "$name" in
    *.archive) for target in FuzzBinaryPlist FuzzKeyedArchive FuzzCodableDecoder; do cp "$file" "Corpus/$target/$name"; done ;;
    *.bplist) for target in FuzzBinaryPlist FuzzKeyedArchive; do cp "$file" "Corpus/$target/$name"; done ;;
    *.xml) cp "$file" "Corpus/FuzzXMLPlist/$name" ;;
  esac
done

# Archives of FuzzModel.samples, binary and XML, checked to decode back (see FuzzCodableDecoder).
models="$(mktemp -d)"
trap 'rm -rf "$models"' EXIT
FUZZ_MAKE_SEEDS="$models" "$BIN/FuzzCodableDecoder"
for file in "$models"/*; do
  [[ "$(stat -c %s "$file")" -le $MAX_SIZE ]] || continue
  name="$(basename "$file")"
  cp "$file" "Corpus/FuzzCodableDecoder/$name"
  case "$name" in
    *-binary.archive) cp "$file" "Corpus/FuzzBinaryPlist/$name"; cp "$file" "Corpus/FuzzKeyedArchive/$name" ;;
    *-xml.archive) cp "$file" "Corpus/FuzzXMLPlist/$name" ;;
  esac
done

# Archives (and JSON) of ArchivableFuzzModel.samples and of its older versions (see FuzzArchivableDecoder).
archivable="$(mktemp -d)"
trap 'rm -rf "$models" "$archivable"' EXIT
FUZZ_MAKE_SEEDS="$archivable" "$BIN/FuzzArchivableDecoder"
cp "$archivable"/* Corpus/FuzzArchivableDecoder/
for file in Corpus/FuzzCodableDecoder/*.archive; do cp "$file" Corpus/FuzzArchivableDecoder/; done

for dir in Corpus/*; do echo "$dir: $(ls "$dir" | wc -l) files, $(du -sh "$dir" | cut -f1)"; done
