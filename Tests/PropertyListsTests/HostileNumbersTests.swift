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

/// Numbers read from the input that index a table, through every binary reader: the tree
/// builder, `BinaryPropertyListReader`, the transcoders to XML and binary, and the in-place
/// reader the decoders use (including its quick reads, which return `nil` rather than throw).
@Suite struct HostileNumbersTests {
    /// Object references of 8 bytes that refer to no object of a 3-object file: past the count,
    /// past `Int.max` (negative once truncated to an `Int`), and one whose low 32 bits are 1.
    static let hostileReferences: [UInt64] = [3, 200, 1 << 32 | 1, UInt64(Int.max), 1 << 63, 1 << 63 | 1, UInt64.max]

    static func bigEndian(_ value: UInt64) -> [UInt8] {
        withUnsafeBytes(of: value.bigEndian, Array.init)
    }

    /// Every reader of `bytes`, each required to throw `code`.
    static func expectEveryReaderThrows(
        _ code: PropertyListError.Code,
        _ bytes: [UInt8],
        _ comment: Comment,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let readers: [(String, () throws -> Void)] = [
            ("tree", { _ = try PropertyListValue(parsing: bytes) }),
            ("reader", { _ = try BinaryPropertyListReader(bytes: bytes).topLevelValue() }),
            ("XML transcoder", { try BinaryPropertyListReader(bytes: bytes).writeXML { _ in } }),
            ("binary transcoder", { try BinaryPropertyListReader(bytes: bytes).writeBinary { _ in } }),
            (
                "in place",
                {
                    let plist = try InPlaceBinaryPropertyList(copying: bytes, limits: .default)
                    _ = try plist.propertyList(at: plist.topObjectIndex, depth: 2)
                }
            ),
        ]
        for (name, read) in readers {
            let error = #expect(throws: PropertyListError.self, "\(comment), \(name)", sourceLocation: sourceLocation) {
                try read()
            }
            #expect(error?.code == code, "\(comment), \(name)", sourceLocation: sourceLocation)
        }
    }

    @Test func tableIndexAcceptsExactlyTheIndexesBelowTheCount() {
        #expect(TableIndex.checked(UInt64(0), count: 3) == 0)
        #expect(TableIndex.checked(UInt64(2), count: 3) == 2)
        #expect(TableIndex.checked(Int(2), count: 3) == 2)
        for number: UInt64 in [3, 4, 1 << 32, UInt64(Int.max), 1 << 63, UInt64.max] {
            #expect(TableIndex.checked(number, count: 3) == nil, "\(number)")
            #expect(UID(number).index(below: 3) == nil, "\(number)")
        }
        for number in [3, -1, Int.min, Int.max] {
            #expect(TableIndex.checked(number, count: 3) == nil, "\(number)")
            #expect(!TableIndex.contains(number, count: 3), "\(number)")
        }
        #expect(TableIndex.checked(UInt64(0), count: 0) == nil)
        #expect(UID(1).index(below: 2) == 1)
    }

    @Test(arguments: hostileReferences)
    func referencesToNoObjectAreInvalidInEveryReader(reference: UInt64) throws {
        let strings: [[UInt8]] = [[0x51, 0x61], [0x51, 0x62]]
        let array = BinaryPropertyListAssembler.assemble(
            [[0xA2] + Self.bigEndian(1) + Self.bigEndian(reference)] + strings,
            top: 0,
            referenceSize: 8
        )
        Self.expectEveryReaderThrows(.invalidReference, array, "array element \(reference)")
        let key = BinaryPropertyListAssembler.assemble(
            [[0xD1] + Self.bigEndian(reference) + Self.bigEndian(1)] + strings,
            top: 0,
            referenceSize: 8
        )
        Self.expectEveryReaderThrows(.invalidReference, key, "dictionary key \(reference)")
        let value = BinaryPropertyListAssembler.assemble(
            [[0xD1] + Self.bigEndian(1) + Self.bigEndian(reference)] + strings,
            top: 0,
            referenceSize: 8
        )
        Self.expectEveryReaderThrows(.invalidReference, value, "dictionary value \(reference)")

        // The in-place reader's quick reads decline the reference; its general read throws.
        let plist = try InPlaceBinaryPropertyList(copying: value, limits: .default)
        let reader = plist.reader
        let index = Int(truncatingIfNeeded: reference)
        #expect(reader.quickUID(at: index) == nil)
        #expect(reader.quickShortString(at: index) == nil)
        #expect(reader.quickPair(at: index) == nil)
        #expect(reader.asciiStringHash(index) == nil)
        let b = Array("b".utf8)
        #expect(!b.withUnsafeBufferPointer { reader.isString(index, equalTo: $0) })
        #expect(throws: PropertyListError(.invalidReference)) { try reader.value(at: index) }
        #expect(throws: PropertyListError(.invalidReference)) {
            try BinaryPropertyListReader(bytes: value).object(at: index)
        }
    }

    /// Counts read from a count marker's integer that overflow once multiplied by the element
    /// size, or do not fit an `Int`, or exceed the bytes left.
    @Test(arguments: [
        UInt64(1) << 62, UInt64(1) << 63, UInt64(Int.max), UInt64.max, UInt64(1) << 61 | 1, UInt64(1) << 32,
    ])
    func countsThatOverflowAreInvalidInEveryReader(count: UInt64) {
        for marker: UInt8 in [0x4F, 0x5F, 0x6F, 0xAF, 0xDF] {
            let object = [marker, 0x13] + Self.bigEndian(count) + [UInt8](repeating: 0, count: 16)
            let bytes = BinaryPropertyListAssembler.assemble([object], top: 0, referenceSize: 8)
            Self.expectEveryReaderThrows(.invalidLength, bytes, "marker \(marker), count \(count)")
        }
    }
}
