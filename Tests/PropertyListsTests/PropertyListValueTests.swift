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
import Testing

@Suite struct PropertyListValueTests {
    @Test func theFormatIsDetectedInContiguousAndOtherCollections() {
        let cases: [(String, PropertyListFormat?)] = [
            ("bplist00", .binary), ("\u{FEFF} \n<?xml", .xml), ("\t<plist>", .xml), ("  ", nil), ("{}", nil), ("", nil),
        ]
        for (text, format) in cases {
            let bytes = Array(text.utf8)
            #expect(PropertyListFormat(detecting: bytes) == format, "\(text.debugDescription)")
            #expect(PropertyListFormat(detecting: Data(bytes)) == format, "\(text.debugDescription)")
            // A collection without contiguous storage takes the generic path.
            #expect(PropertyListFormat(detecting: bytes.lazy.map { $0 }) == format, "\(text.debugDescription)")
        }
    }

    @Test func literalsBuildTheExpectedCases() {
        let value: PropertyListValue = ["name": "Tom", "lives": 9, "weight": 4.5, "cat": true, "tags": ["a"]]
        #expect(value["name"]?.stringValue == "Tom")
        #expect(value["lives"]?.intValue == 9)
        #expect(value["weight"]?.doubleValue == 4.5)
        #expect(value["cat"]?.boolValue == true)
        #expect(value["tags"]?[0]?.stringValue == "a")
        #expect(value["tags"]?[1] == nil)
        #expect(value["missing"] == nil)
    }

    @Test func realsCompareByBits() {
        #expect(PropertyListValue.real(.nan) == .real(.nan))
        #expect(PropertyListValue.real(0.0) != .real(-0.0))
        #expect(PropertyListValue.real(1.5) != .float(1.5))
        #expect(PropertyListValue.real(1.5).doubleValue == PropertyListValue.float(1.5).doubleValue)
    }

    @Test func dictionaryEqualityIgnoresOrderButIterationKeepsIt() {
        let a: PropertyListDictionary = ["x": 1, "y": 2]
        let b: PropertyListDictionary = ["y": 2, "x": 1]
        #expect(a == b)
        #expect(a.hashValue == b.hashValue)
        #expect(a.keys == ["x", "y"])
        #expect(b.keys == ["y", "x"])
        #expect(a != ["x": 1, "y": 3])
    }

    @Test func dictionaryKeepsFirstPositionAndLastValueForRepeatedKeys() {
        var dictionary = PropertyListDictionary([("a", 1), ("b", 2), ("a", 3)])
        #expect(dictionary.keys == ["a", "b"])
        #expect(dictionary["a"] == 3)
        dictionary["b"] = nil
        #expect(dictionary.keys == ["a"])
    }

    @Test(arguments: [5, 12, 13, 40])
    func dictionaryLookupWorksAcrossTheHashThreshold(count: Int) {
        var dictionary = PropertyListDictionary()
        for i in 0..<count { dictionary["k\(i)"] = .integer(PropertyListInteger(Int64(i))) }
        for i in 0..<count { #expect(dictionary["k\(i)"]?.intValue == i) }
        dictionary.removeValue(forKey: "k0")
        #expect(dictionary.count == count - 1)
        #expect(dictionary["k0"] == nil)
        for i in 1..<count { #expect(dictionary.index(forKey: "k\(i)") == i - 1) }
    }

    @Test func integerCoversInt64MinThroughUInt64Max() {
        let low = PropertyListInteger(Int64.min)
        let high = PropertyListInteger(UInt64.max)
        #expect(low < high)
        #expect(low.int64Value == .min && low.uint64Value == nil)
        #expect(high.uint64Value == .max && high.int64Value == nil)
        #expect(PropertyListInteger(exactly: UInt64(5)) == PropertyListInteger(Int64(5)))
        #expect(PropertyListInteger(exactly: Int8(-3))?.exactly(Int16.self) == -3)
        #expect(high.exactly(Int.self) == nil)
        #expect(high.description == "18446744073709551615")
    }
}
