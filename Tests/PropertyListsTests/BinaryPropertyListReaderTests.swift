//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-keyed-archive open source project
//
// Licensed under Apache License v2.0
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation
import PropertyLists
import TestSupport
import Testing

@Suite struct BinaryPropertyListReaderTests {
    private func objects(_ fixture: String) throws -> [PropertyListValue] {
        let value = try PropertyListValue(parsing: Fixtures.apple(fixture))
        return try #require(value["$objects"]?.arrayValue)
    }

    @Test func readsABareIntegerRoot() throws {
        let value = try PropertyListValue(parsing: Fixtures.apple("integer_10.bplist"))
        #expect(value["$archiver"] == "NSKeyedArchiver")
        #expect(value["$version"] == 100_000)
        #expect(value["$top"]?["root"] == .uid(1))
        #expect(try objects("integer_10.bplist") == ["$null", 10])
    }

    @Test func readsNegativeEightByteIntegersAndData() throws {
        let objects = try objects("nsarray_networking.bplist")
        #expect(objects.contains(.integer(-2)))
        let expected = Data(
            [0x1c, 0x1e, 0xc6, 0x75, 0, 0, 0, 0, 0x24, 0x08, 0x85, 0x56, 0x22, 0, 0x48, 0x47]
                + [0x14, 0x0b, 0xe2, 0xb0, 0x53, 0x35, 0xfd, 0x59, 0, 0, 0, 0]
        )
        #expect(objects.contains(.data(expected)))
    }

    @Test func readsLargeIntegersAndReals() throws {
        let objects = try objects("nsarray_gpuinfo.bplist")
        #expect(objects.contains(.integer(4_294_967_998)))
        #expect(objects.contains(.integer(2_620_473_344)))
        #expect(objects.contains(.real(1242.0)))
        #expect(objects.contains("A13"))
    }

    @Test func readsTwoByteReferencesAndDates() throws {
        let data = try Fixtures.apple("nsarray_runningprocesses.bplist")
        let reader = try BinaryPropertyListReader(bytes: data)
        #expect(reader.objectCount == 6923)
        #expect(reader.referenceSize == 2)
        #expect(reader.offsetSize == 2)
        let objects = try objects("nsarray_runningprocesses.bplist")
        #expect(objects.count == 1651)
        #expect(objects.contains("contactsd"))
        #expect(objects.contains(.integer(84_474)))
        #expect(
            objects.contains(["NS.time": .real(680_457_815.615284), "$class": .uid(7)])
                || objects.contains { $0["NS.time"] == .real(680_457_815.615284) }
        )
    }

    @Test func lazyReaderWalksObjectsWithoutBuildingATree() throws {
        let reader = try BinaryPropertyListReader(bytes: Fixtures.apple("integer_10.bplist"))
        guard case .dictionary(let keys, let values) = try reader.object(at: reader.topObjectIndex) else {
            Issue.record("top object is not a dictionary")
            return
        }
        #expect(keys.count == 4)
        var found: [String: BinaryPropertyListReader.Object] = [:]
        for (key, value) in zip(keys, values) {
            found[try reader.string(at: key)] = try reader.object(at: value)
        }
        #expect(found["$version"] == .integer(100_000))
        guard case .string(let archiver) = found["$archiver"] else {
            Issue.record("$archiver is not a string")
            return
        }
        #expect(reader.string(archiver, equals: "NSKeyedArchiver"))
        #expect(!reader.string(archiver, equals: "NSKeyedArchive"))
        #expect(!reader.string(archiver, equals: "NSKeyedArchiverX"))
        guard case .array(let objects) = found["$objects"] else {
            Issue.record("$objects is not an array")
            return
        }
        #expect(try objects.map { try reader.value(at: $0) } == ["$null", 10])
    }

    @Test func sharedSubtreesAreDecodedOnceAndStayLinear() throws {
        // 40 levels, each an array holding the level below twice: 2^40 leaves logically.
        var objects: [[UInt8]] = [[0x10, 0x01]]
        for level in 1...40 { objects.append([0xA2, UInt8(level - 1), UInt8(level - 1)]) }
        let bytes = BinaryPropertyListAssembler.assemble(objects, top: 40)
        // Counting each leaf at every place that holds it, that is far beyond the default budget…
        #expect(throws: PropertyListError(.decodedSizeLimitExceeded)) { try PropertyListValue(parsing: bytes) }
        // …but the tree itself is built once per object, as a caller who lifts the budget sees.
        var limits = PropertyListLimits.default
        limits.decodedSizeAllowance = .max
        let value = try PropertyListValue(parsing: bytes, limits: limits)
        var depth = 0
        var cursor = value
        while case .array(let elements) = cursor {
            #expect(elements.count == 2)
            cursor = elements[0]
            depth += 1
        }
        #expect(depth == 40)
        #expect(cursor == 1)
    }

    @Test func utf16StringsDecodeIncludingAstralCharacters() throws {
        let value: PropertyListValue = ["é", "héllo😀", "中文"]
        #expect(try PropertyListValue(parsing: value.serialized()) == value)
    }

    @Test func unpairedSurrogatesBecomeReplacementCharacters() throws {
        // One UTF-16 string: "a", lone high surrogate, "b".
        let bytes = BinaryPropertyListAssembler.assemble([[0x63, 0x00, 0x61, 0xD8, 0x3D, 0x00, 0x62]], top: 0)
        #expect(try PropertyListValue(parsing: bytes) == "a\u{FFFD}b")
    }

    @Test func repeatedDictionaryKeysKeepTheLastValue() throws {
        let bytes = BinaryPropertyListAssembler.assemble(
            [[0xD2, 1, 1, 2, 3], [0x51, 0x6B], [0x10, 1], [0x10, 2]],
            top: 0
        )
        #expect(try PropertyListValue(parsing: bytes) == ["k": 2])
    }

    @Test func equalKeysInDistinctObjectsAreMerged() throws {
        // Keys are objects 1 and 2, both the ASCII string "k"; values 3 and 4.
        let bytes = BinaryPropertyListAssembler.assemble(
            [[0xD2, 1, 2, 3, 4], [0x51, 0x6B], [0x51, 0x6B], [0x10, 1], [0x10, 2]],
            top: 0
        )
        let value = try PropertyListValue(parsing: bytes)
        #expect(value == ["k": 2])
        #expect(value.dictionaryValue?.count == 1)
    }

    @Test func asciiAndUTF16SpellingsOfOneKeyAreMerged() throws {
        // "k" as ASCII (object 1) and as UTF-16 (object 2).
        let bytes = BinaryPropertyListAssembler.assemble(
            [[0xD2, 1, 2, 3, 4], [0x51, 0x6B], [0x61, 0x00, 0x6B], [0x10, 1], [0x10, 2]],
            top: 0
        )
        #expect(try PropertyListValue(parsing: bytes).dictionaryValue?.keys == ["k"])
    }

    @Test func canonicallyEquivalentUTF16KeysAreMerged() throws {
        // "é" precomposed (U+00E9) and decomposed (e + U+0301): equal Swift strings.
        let bytes = BinaryPropertyListAssembler.assemble(
            [[0xD2, 1, 2, 3, 4], [0x61, 0x00, 0xE9], [0x62, 0x00, 0x65, 0x03, 0x01], [0x10, 1], [0x10, 2]],
            top: 0
        )
        #expect(try PropertyListValue(parsing: bytes).dictionaryValue?.count == 1)
    }

    @Test(arguments: [
        ([UInt8]([0x00, 0x41, 0x00, 0xE9, 0x20, 0xAC, 0xD8, 0x3D, 0xDE, 0x00]), "Aé€😀"),
        ([0xDC, 0x00, 0x00, 0x62], "\u{FFFD}b"),
        ([0x00, 0x61, 0xD8, 0x00], "a\u{FFFD}"),
        ([0xD8, 0x00, 0xD8, 0x00, 0xDC, 0x00], "\u{FFFD}\u{10000}"),
        ([0xFF, 0xFD, 0x07, 0xFF], "\u{FFFD}\u{7FF}"),
    ])
    func utf16StringsTranscodeExactly(units: [UInt8], expected: String) throws {
        let bytes = BinaryPropertyListAssembler.assemble([[0x60 | UInt8(units.count / 2)] + units], top: 0)
        #expect(try PropertyListValue(parsing: bytes) == .string(expected))
    }

    @Test func equalStringsInSeparateObjectsReadBackEqual() throws {
        // As Foundation on Linux writes them: the same text in separate objects, and different
        // texts of equal length that could share an intern slot.
        var objects: [[UInt8]] = [[0xAF, 0x10, 0x28] + (1...40).map { UInt8($0) }]
        for index in 0..<40 {
            let text = Array((index % 2 == 0 ? "same-key" : "key-\(index + 10)-x").utf8)
            objects.append([0x50 | UInt8(text.count)] + text)
        }
        let value = try PropertyListValue(parsing: BinaryPropertyListAssembler.assemble(objects, top: 0))
        let strings = try #require(value.arrayValue).compactMap(\.stringValue)
        #expect(strings.count == 40)
        for (index, string) in strings.enumerated() {
            #expect(string == (index % 2 == 0 ? "same-key" : "key-\(index + 10)-x"))
        }
    }
}
