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

/// Exact bytes against Foundation's `PropertyListSerialization` on Linux.
///
/// Foundation writes dictionaries in its hash order, which differs per process, so each case
/// reads Foundation's bytes with our reader (which keeps that order) and writes them again: with
/// swift-corelibs-foundation the result must be Foundation's bytes exactly. Cases avoid two things
/// Foundation on Linux does differently from CoreFoundation's rules: it does not unique equal
/// strings that come from Swift `String`s, and it writes an unreferenced extra object for each
/// repeated Boolean. Apple's CoreFoundation picks its own object order and uniquing, so there the
/// rewrite must hold the value Foundation wrote, as Foundation reads it, not its bytes.
@Suite struct BinaryPropertyListWriterTests {
    static let cases: [(String, PropertyListValue)] = [
        ("empty array", []),
        ("empty dictionary", [:]),
        ("string", "hello"),
        ("non-ASCII string", "héllo😀"),
        ("empty string", ""),
        ("14 and 15 characters", ["abcdefghijklmn", "abcdefghijklmno"]),
        ("long string", .string(String(repeating: "x", count: 300))),
        (
            "integers",
            [
                0, 1, 255, 256, 65_535, 65_536, 4_294_967_295, 4_294_967_296, -1,
                .integer(PropertyListInteger(Int64.min)), .integer(PropertyListInteger(Int64.max)),
            ]
        ),
        ("16-byte integer", .integer(PropertyListInteger(UInt64.max))),
        ("reals", [1.5, 0.1, -0.0, .real(.infinity), .real(-.infinity), 1e300]),
        ("floats", [.float(1.5), .float(0.1)]),
        ("bools", [true, false]),
        (
            "dates",
            [
                .date(Date(timeIntervalSinceReferenceDate: 0)), .date(Date(timeIntervalSinceReferenceDate: -1.25)),
                .date(Date(timeIntervalSinceReferenceDate: 680_457_815.615284)),
            ]
        ),
        ("data", [.data(Data()), .data(Data([1, 2, 3])), .data(Data(repeating: 7, count: 100))]),
        ("uniqued numbers", [1, 1, 2, 2, 1]),
        (
            "nested",
            [
                "name": "Tom", "lives": 9, "tags": ["cat", "grey"], "owner": ["first": "Ann", "age": 41], "weight": 4.5,
                "indoor": true,
            ]
        ),
        ("many objects", .array((0..<300).map { .string("s\($0)") })),
        ("255 objects", .array((0..<254).map { .string("s\($0)") })),
        ("256 objects", .array((0..<255).map { .string("s\($0)") })),
        ("wide offsets", .array((0..<70).map { .data(Data(repeating: UInt8($0), count: 1000)) })),
        (
            "many keys",
            .dictionary(
                PropertyListDictionary((0..<40).map { ("key\($0)", .integer(PropertyListInteger(Int64($0 * 1000)))) })
            )
        ),
    ]

    @Test(arguments: cases.map(\.0))
    func rewritingFoundationsBytesReproducesThemExactly(name: String) throws {
        let value = try #require(Self.cases.first { $0.0 == name }?.1)
        let foundation = try FoundationOracle.serialize(value, as: .binary)
        let read = try PropertyListValue(parsing: foundation)
        #expect(read == value)
        let ours = read.serialized(as: .binary)
        switch FoundationImplementation.current {
        case .corelibs:
            #expect(ours == foundation, "ours: \(ours.hex)\nfoundation: \(foundation.hex)")
        case .apple:
            #expect(try FoundationOracle.parse(ours) == FoundationOracle.parse(foundation))
            #expect(try PropertyListValue(parsing: ours) == value)
        }
    }

    @Test(arguments: cases.map(\.0))
    func foundationReadsOurBytesBackToTheSameValue(name: String) throws {
        let value = try #require(Self.cases.first { $0.0 == name }?.1)
        let ours = value.serialized(as: .binary)
        #expect(try FoundationOracle.parse(ours) == value)
    }

    @Test func equalLeavesAreWrittenOnce() throws {
        let value: PropertyListValue = [
            "a", "a", 7, 7, true, true, .uid(3), .uid(3), .data(Data([1])), .data(Data([1])),
        ]
        let reader = try BinaryPropertyListReader(bytes: value.serialized())
        #expect(reader.objectCount == 6)
        #expect(try reader.topLevelValue() == value)
    }

    @Test func integerAndRealWithEqualValueStayDistinct() throws {
        let value: PropertyListValue = [1, 1.0, .float(1.0)]
        let reader = try BinaryPropertyListReader(bytes: value.serialized())
        #expect(reader.objectCount == 4)
        #expect(try reader.topLevelValue() == value)
    }

    @Test func uidsUseTheFewestBytes() {
        #expect(Array(PropertyListValue.uid(5).serialized().dropFirst(8).prefix(2)) == [0x80, 0x05])
        #expect(Array(PropertyListValue.uid(256).serialized().dropFirst(8).prefix(3)) == [0x81, 0x01, 0x00])
        #expect(Array(PropertyListValue.uid(65_536).serialized().dropFirst(8).prefix(5)) == [0x83, 0, 1, 0, 0])
        #expect(PropertyListValue.uid(UID(1 << 40)).serialized().dropFirst(8).first == 0x87)
    }

    @Test func outputIsDeterministic() {
        let value = RandomPropertyList.value(seed: 42)
        #expect(value.serialized() == value.serialized())
    }
}

extension Data {
    /// Lowercase hex, for failure messages.
    var hex: String {
        self.map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }.joined()
    }
}
