#!/usr/bin/env python3
# Writes the hostile-input corpus to Tests/TestSupport/Fixtures/malformed/: one small file per check,
# and manifest.json with the exact error code each entry point must report for it (see
# Tests/KeyedArchivingTests/MalformedCorpusTests.swift). The binary files are also copied into the
# fuzzing seed corpora by FuzzTesting/make_seeds.sh. Deterministic: rerunning rewrites the same bytes.
import json
import os
import plistlib
import struct
import sys

sys.setrecursionlimit(20000)
ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
OUT = os.path.join(ROOT, "Tests", "TestSupport", "Fixtures", "malformed")
UID = plistlib.UID


def assemble(objects, top=0):
    """A bplist00 file from raw object bytes, with one-byte references and minimal offsets."""
    data = bytearray(b"bplist00")
    offsets = []
    for obj in objects:
        offsets.append(len(data))
        data += bytes(obj)
    table = len(data)
    size = 1 if table < 256 else 2
    for offset in offsets:
        data += offset.to_bytes(size, "big")
    data += bytes([0, 0, 0, 0, 0, 0, size, 1])
    data += struct.pack(">QQQ", len(objects), top, table)
    return bytes(data)


def archive(objects, top=None, archiver="NSKeyedArchiver", version=100000, fmt=plistlib.FMT_BINARY):
    envelope = {
        "$archiver": archiver,
        "$version": version,
        "$top": {"root": UID(1)} if top is None else top,
        "$objects": objects,
    }
    return plistlib.dumps(envelope, fmt=fmt, sort_keys=False)


def cls(name, *chain):
    return {"$classname": name, "$classes": [name, *chain, "NSObject"]}


def nested_arrays(levels, width):
    """`$objects` where object i is an NSArray holding object i+1 `width` times; the last is a string."""
    objects = ["$null"]
    class_uid = levels + 2
    for level in range(levels):
        objects.append({"$class": UID(class_uid), "NS.objects": [UID(level + 2)] * width})
    objects.append("leaf")
    objects.append(cls("NSArray"))
    return objects


cases = []


def case(name, data, description, plist="ok", archive_code="ok", value="ok", decoder="ok", validator=(), decode_as="nested"):
    with open(os.path.join(OUT, name), "wb") as f:
        f.write(data)
    cases.append({
        "file": name,
        "description": description,
        "propertyList": plist,
        "archive": archive_code,
        "archivedValue": value,
        "decoder": decoder,
        "decodeAs": decode_as,
        "validator": list(validator),
    })


os.makedirs(OUT, exist_ok=True)
for old in os.listdir(OUT):
    os.remove(os.path.join(OUT, old))

# Object graph checks.
case("uid-out-of-range.archive",
     archive(["$null", {"$class": UID(2), "NS.objects": [UID(99)]}, cls("NSArray")]),
     "an NSArray element refers to UID 99 of 3 objects",
     value="invalidReference", decoder="invalidReference", validator=["invalidReference"], decode_as="strings")
case("top-uid-out-of-range.archive",
     archive(["$null", "x"], top={"root": UID(50)}),
     "$top refers to UID 50 of 2 objects",
     value="invalidReference", decoder="invalidReference", validator=["invalidReference"], decode_as="strings")
case("class-missing.archive",
     archive(["$null", {"name": UID(2)}, "Tom"]),
     "an object dictionary without $class",
     value="missingClass", decoder="missingClass", validator=["missingClass"], decode_as="named")
case("class-not-a-class-dictionary.archive",
     archive(["$null", {"$class": UID(2), "name": UID(3)}, "NSObject", "Tom"]),
     "$class refers to a string, not a class dictionary",
     value="invalidClass", decoder="invalidClass", validator=["invalidClass"], decode_as="named")
case("objects-not-an-array.archive",
     archive({"$null": "x"}),
     "$objects is a dictionary",
     archive_code="invalidObjects", value="invalidObjects", decoder="invalidObjects", validator=["invalidObjects"])
case("top-not-a-dictionary.archive",
     archive(["$null", "x"], top=[UID(1)]),
     "$top is an array",
     archive_code="invalidTop", value="invalidTop", decoder="invalidTop", validator=["invalidTop"])
case("wrong-archiver.archive",
     archive(["$null", "x"], archiver="NSKeyedArchiverX"),
     "$archiver is not NSKeyedArchiver",
     archive_code="unsupportedArchiver", value="unsupportedArchiver", decoder="unsupportedArchiver",
     validator=["unsupportedArchiver"])
case("wrong-version.archive",
     archive(["$null", "x"], version=99999),
     "$version is not 100000",
     archive_code="unsupportedVersion", value="unsupportedVersion", decoder="unsupportedVersion",
     validator=["unsupportedVersion"])
case("keys-objects-length-mismatch.archive",
     archive(["$null", {"$class": UID(4), "NS.keys": [UID(2), UID(3)], "NS.objects": [UID(2)]}, "a", "b",
              cls("NSDictionary")]),
     "an NSDictionary with two NS.keys and one NS.objects",
     value="unexpectedObject", decoder="unexpectedObject", validator=["unexpectedObject"], decode_as="dictionary")
case("self-containing-array.archive",
     archive(["$null", {"$class": UID(2), "NS.objects": [UID(1)]}, cls("NSArray")]),
     "an NSArray that contains itself",
     decoder="cyclicReference", validator=["cyclicReference"])
case("deep-nesting.archive",
     archive(nested_arrays(600, 1)),
     "600 NSArrays, each inside the one before",
     value="depthLimitExceeded", decoder="depthLimitExceeded", validator=["depthLimitExceeded"])
case("billion-laughs.archive",
     archive(nested_arrays(30, 2)),
     "30 NSArrays, each holding the next twice: 2^30 leaves from 33 objects",
     value="decodedSizeLimitExceeded", decoder="decodedSizeLimitExceeded", validator=["decodedSizeLimitExceeded"])

# Property list checks: the archive-level readers see them as malformedPropertyList.
PL = dict(archive_code="malformedPropertyList", value="malformedPropertyList", decoder="malformedPropertyList",
          validator=["malformedPropertyList"])
level = "leaf"
for _ in range(30):
    level = [level, level]
case("billion-laughs.bplist", plistlib.dumps(level, fmt=plistlib.FMT_BINARY),
     "30 arrays, each holding the next twice: 2^30 leaves from 31 objects",
     plist="decodedSizeLimitExceeded", **PL)
deep = "leaf"
for _ in range(600):
    deep = [deep]
case("deep-nesting.bplist", plistlib.dumps(deep, fmt=plistlib.FMT_BINARY),
     "600 nested arrays", plist="depthLimitExceeded", **PL)
case("deep-nesting.xml", b"<plist>" + b"<array>" * 600 + b"</array>" * 600 + b"</plist>",
     "600 nested arrays", plist="depthLimitExceeded", **PL)
case("huge-declared-count.bplist",
     assemble([[0xAF, 0x13] + list((1 << 40).to_bytes(8, "big")) + [1], [0x10, 1]]),
     "an array header claiming 2^40 elements", plist="invalidLength", **PL)
case("truncated-utf16-string.bplist",
     assemble([[0x65, 0x00, 0x61, 0x00, 0x62, 0x00, 0x63]]),
     "a UTF-16 string of 5 code units with the bytes of 3 and a half", plist="invalidLength", **PL)
case("nan-date.bplist", assemble([[0x33] + list(struct.pack(">d", float("nan")))]),
     "a date whose seconds are NaN", plist="invalidDate", **PL)
case("infinite-date.bplist", assemble([[0x33] + list(struct.pack(">d", float("inf")))]),
     "a date whose seconds are infinite", plist="invalidDate", **PL)
case("malformed-date.xml",
     b'<?xml version="1.0" encoding="UTF-8"?>\n<plist version="1.0">\n<date>2024-13-45T99:00:00Z</date>\n</plist>\n',
     "an XML date with month 13", plist="invalidDate", **PL)
case("utf16-declared.xml",
     b'<?xml version="1.0" encoding="UTF-16"?>\n<plist version="1.0"><string>x</string></plist>\n',
     "an XML property list that declares UTF-16", plist="unsupportedEncoding", **PL)
case("self-referencing-array.bplist", assemble([[0xA1, 0]]),
     "an array whose element is itself", plist="cyclicReference", **PL)

with open(os.path.join(OUT, "manifest.json"), "w") as f:
    json.dump({
        "comment": "Made by dev/make-malformed-corpus.py. Codes per entry point; 'ok' means it must succeed. "
                   "The decoder decodes with decodedSizeAllowance 64 KiB to keep the test fast.",
        "cases": cases,
    }, f, indent=2)
    f.write("\n")
print(f"wrote {len(cases)} cases to {OUT}")
