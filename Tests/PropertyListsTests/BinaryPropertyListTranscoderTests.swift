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

/// `writeXML` and `writeBinary` stream a binary property list without its tree, and must write
/// exactly what the tree writers write for the parsed value.
@Suite struct BinaryPropertyListTranscoderTests {
    private struct SinkFailure: Error {}

    /// Streams `bytes` both ways and checks the output against the tree writers.
    private func expectSameAsTreeWriters(
        _ bytes: [UInt8],
        chunkSize: Int = 1 << 20,
        limits: PropertyListLimits = .default,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let reader = try BinaryPropertyListReader(bytes: bytes, limits: limits)
        let value = try reader.topLevelValue()
        var xml: [UInt8] = []
        try reader.writeXML(chunkSize: chunkSize) { xml += $0 }
        #expect(xml == XMLPropertyListWriter().write(value), sourceLocation: sourceLocation)
        var binary: [UInt8] = []
        try reader.writeBinary(chunkSize: chunkSize) { binary += $0 }
        #expect(binary == BinaryPropertyListWriter().write(value), sourceLocation: sourceLocation)
    }

    @Test(arguments: Fixtures.appleFixtureNames)
    func appleFixturesStreamToTheSameBytes(name: String) throws {
        let bytes = [UInt8](try Fixtures.apple(name))
        guard bytes.starts(with: Array("bplist00".utf8)) else { return }
        try self.expectSameAsTreeWriters(bytes)
        try self.expectSameAsTreeWriters(bytes, chunkSize: 1)
    }

    @Test func randomValuesWrittenByThisPackageStreamToTheSameBytes() throws {
        for seed in UInt64(0)..<300 {
            let value = RandomPropertyList.value(seed: seed)
            try self.expectSameAsTreeWriters(BinaryPropertyListWriter().write(value), chunkSize: Int(seed % 5) * 97 + 1)
        }
    }

    /// Foundation on Linux writes equal strings as separate objects, so the stream must intern them.
    @Test func randomValuesWrittenByFoundationStreamToTheSameBytes() throws {
        var options = RandomPropertyList.Options()
        options.uids = false
        for seed in UInt64(0)..<150 {
            let value = RandomPropertyList.value(seed: seed, options)
            let data = try FoundationOracle.serialize(.array([value, value, .string("k"), .string("k")]), as: .binary)
            try self.expectSameAsTreeWriters([UInt8](data))
        }
    }

    @Test func equalTextStoredAsASCIIAndAsUTF16IsWrittenOnce() throws {
        // [ "ab" (ASCII), "ab" (UTF-16), "\u{D800}x" (a lone surrogate), "\u{FFFD}x" (UTF-16) ]
        let bytes = BinaryPropertyListAssembler.assemble(
            [
                [0xA4, 1, 2, 3, 4],
                [0x52, 0x61, 0x62],
                [0x62, 0x00, 0x61, 0x00, 0x62],
                [0x62, 0xD8, 0x00, 0x00, 0x78],
                [0x62, 0xFF, 0xFD, 0x00, 0x78],
            ],
            top: 0
        )
        try self.expectSameAsTreeWriters(bytes)
        var binary: [UInt8] = []
        try BinaryPropertyListReader(bytes: bytes).writeBinary { binary += $0 }
        // The array, "ab" and "\u{FFFD}x": three objects.
        #expect(try BinaryPropertyListReader(bytes: binary).objectCount == 3)
    }

    @Test func aRepeatedKeyKeepsItsFirstPositionAndLastValue() throws {
        // { "b": 1, "a": 2, "b": 3 }
        let bytes = BinaryPropertyListAssembler.assemble(
            [
                [0xD3, 1, 2, 1, 3, 4, 5],
                [0x51, 0x62],
                [0x51, 0x61],
                [0x10, 0x01],
                [0x10, 0x02],
                [0x10, 0x03],
            ],
            top: 0
        )
        try self.expectSameAsTreeWriters(bytes)
        var binary: [UInt8] = []
        try BinaryPropertyListReader(bytes: bytes).writeBinary { binary += $0 }
        #expect(try PropertyListValue(parsing: binary) == ["b": 3, "a": 2])
    }

    @Test func invalidInputThrowsTheTreeBuildersErrors() throws {
        let cases: [(bytes: [UInt8], code: PropertyListError.Code)] = [
            // An array that contains itself.
            (BinaryPropertyListAssembler.assemble([[0xA1, 0]], top: 0), .cyclicReference),
            // A dictionary whose key is an integer.
            (BinaryPropertyListAssembler.assemble([[0xD1, 1, 1], [0x10, 0x01]], top: 0), .invalidDictionaryKey),
            // An ASCII string with a byte above 0x7F.
            (BinaryPropertyListAssembler.assemble([[0xA1, 1], [0x51, 0xE9]], top: 0), .invalidString),
            // A reference beyond the object count.
            (BinaryPropertyListAssembler.assemble([[0xA1, 9]], top: 0), .invalidReference),
            // A cycle in the value of a repeated key, which the tree builder builds before dropping.
            (
                BinaryPropertyListAssembler.assemble([[0xD2, 1, 1, 2, 0], [0x51, 0x61], [0x10, 0x01]], top: 0),
                .cyclicReference
            ),
        ]
        for (bytes, code) in cases {
            let reader = try BinaryPropertyListReader(bytes: bytes)
            #expect(throws: PropertyListError.self) { try reader.topLevelValue() }
            var written = 0
            let xmlError = #expect(throws: PropertyListError.self) { try reader.writeXML { written += $0.count } }
            #expect(xmlError?.code == code)
            #expect(written == 0)
            let binaryError = #expect(throws: PropertyListError.self) { try reader.writeBinary { written += $0.count } }
            #expect(binaryError?.code == code)
            #expect(written == 0)
        }
    }

    @Test func nestingDeeperThanTheLimitThrows() throws {
        // Ten arrays, each holding the next.
        let objects: [[UInt8]] = (0..<10).map { $0 < 9 ? [0xA1, UInt8($0 + 1)] : [0xA0] }
        var limits = PropertyListLimits.default
        limits.maximumDepth = 5
        let reader = try BinaryPropertyListReader(
            bytes: BinaryPropertyListAssembler.assemble(objects, top: 0),
            limits: limits
        )
        let xmlError = #expect(throws: PropertyListError.self) { try reader.writeXML { _ in } }
        #expect(xmlError?.code == .depthLimitExceeded)
        let binaryError = #expect(throws: PropertyListError.self) { try reader.writeBinary { _ in } }
        #expect(binaryError?.code == .depthLimitExceeded)
    }

    /// Twelve arrays, each holding the next one twice: 4,096 leaves and about 64 KB of decoded
    /// size from 80 bytes, over a 4 KB budget.
    @Test func aBillionLaughsFailsWithinTheDecodedSizeBudgetBeforeWriting() throws {
        var objects: [[UInt8]] = (0..<12).map { [0xA2, UInt8($0 + 1), UInt8($0 + 1)] }
        objects.append([0x10, 0x07])
        let bytes = BinaryPropertyListAssembler.assemble(objects, top: 0)
        var small = PropertyListLimits.default
        small.decodedSizeAllowance = 4096
        let reader = try BinaryPropertyListReader(bytes: bytes, limits: small)
        #expect(throws: PropertyListError.self) { try reader.topLevelValue() }
        var written = 0
        let xmlError = #expect(throws: PropertyListError.self) { try reader.writeXML { written += $0.count } }
        #expect(xmlError?.code == .decodedSizeLimitExceeded)
        let binaryError = #expect(throws: PropertyListError.self) { try reader.writeBinary { written += $0.count } }
        #expect(binaryError?.code == .decodedSizeLimitExceeded)
        #expect(written == 0)
        // Within the default budget, both stream the expanded tree.
        try self.expectSameAsTreeWriters(bytes)
    }

    @Test func lengthLimitsApply() throws {
        // [ "abcdef", <data of 4 bytes>, [1, 2, 3] ]
        let bytes = BinaryPropertyListAssembler.assemble(
            [[0xA3, 1, 2, 3], [0x56] + Array("abcdef".utf8), [0x44, 1, 2, 3, 4], [0xA3, 4, 4, 4], [0x10, 0x01]],
            top: 0
        )
        try self.expectSameAsTreeWriters(bytes)
        var strings = PropertyListLimits.default
        strings.maximumStringLength = 5
        var data = PropertyListLimits.default
        data.maximumDataLength = 3
        var collections = PropertyListLimits.default
        collections.maximumCollectionCount = 2
        for limits in [strings, data, collections] {
            let reader = try BinaryPropertyListReader(bytes: bytes, limits: limits)
            let treeError = #expect(throws: PropertyListError.self) { try reader.topLevelValue() }
            #expect(treeError?.code == .sizeLimitExceeded)
            let xmlError = #expect(throws: PropertyListError.self) { try reader.writeXML { _ in } }
            #expect(xmlError?.code == .sizeLimitExceeded)
            let binaryError = #expect(throws: PropertyListError.self) { try reader.writeBinary { _ in } }
            #expect(binaryError?.code == .sizeLimitExceeded)
        }
    }

    @Test func aFailingSinkStopsTheWriteAndItsErrorIsThrown() throws {
        let value = RandomPropertyList.value(seed: 7)
        let reader = try BinaryPropertyListReader(
            bytes: BinaryPropertyListWriter().write(.array([value, value, value]))
        )
        var calls = 0
        #expect(throws: SinkFailure.self) {
            try reader.writeXML(chunkSize: 1) { _ in
                calls += 1
                throw SinkFailure()
            }
        }
        #expect(calls == 1)
        calls = 0
        #expect(throws: SinkFailure.self) {
            try reader.writeBinary(chunkSize: 1) { _ in
                calls += 1
                throw SinkFailure()
            }
        }
        #expect(calls == 1)
    }
}
