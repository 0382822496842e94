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

@Suite struct PropertyListTreePrinterTests {
    private func tree(_ value: PropertyListValue) -> String {
        PropertyListTreePrinter().string(from: value)
    }

    @Test func printsScalarsOnOneLine() {
        #expect(tree("Tom") == #""Tom""#)
        #expect(tree(9) == "9")
        #expect(tree(true) == "true")
        #expect(tree(false) == "false")
        #expect(tree(.uid(42)) == "UID(42)")
        #expect(tree(.integer(PropertyListInteger(Int64.min))) == "-9223372036854775808")
        #expect(tree(.integer(PropertyListInteger(UInt64.max))) == "18446744073709551615")
    }

    @Test func printsRealsExactly() {
        #expect(tree(4.5) == "4.5")
        #expect(tree(-0.0) == "-0.0")
        #expect(tree(1e-7) == "1e-07")
        #expect(tree(.real(0.1 + 0.2)) == "0.30000000000000004")
        #expect(tree(.float(0.1)) == "float 0.1")
        #expect(tree(.real(.nan)) == "nan")
        #expect(tree(.real(.infinity)) == "inf")
        #expect(tree(.real(-.infinity)) == "-inf")
        #expect(tree(.float(.nan)) == "float nan")
        #expect(tree(.float(-.infinity)) == "float -inf")
    }

    @Test func printsDatesAsISO8601() {
        #expect(
            tree(.date(Date(timeIntervalSinceReferenceDate: 680_457_815.615284))) == "date 2022-07-25T16:03:35.615284Z"
        )
        #expect(tree(.date(Date(timeIntervalSinceReferenceDate: 0))) == "date 2001-01-01T00:00:00Z")
        #expect(tree(.date(Date(timeIntervalSinceReferenceDate: -0.5))) == "date 2000-12-31T23:59:59.5Z")
        #expect(tree(.date(Date(timeIntervalSinceReferenceDate: -978_393_600))) == "date 1969-12-31T00:00:00Z")
        #expect(tree(.date(Date(timeIntervalSinceReferenceDate: .nan))) == "date nan")
    }

    @Test func abbreviatesDataToAHexPrefix() {
        #expect(tree(.data(Data())) == "data (0 bytes)")
        #expect(tree(.data(Data([0xAB]))) == "data (1 byte) ab")
        #expect(tree(.data(Data([0x89, 0x50, 0x4E, 0x47, 0x0D]))) == "data (5 bytes) 89504e47 0d")
        let sixteen = Data(0..<16)
        #expect(tree(.data(sixteen)) == "data (16 bytes) 00010203 04050607 08090a0b 0c0d0e0f")
        let large = Data((0..<1024).map { UInt8(truncatingIfNeeded: $0) })
        #expect(tree(.data(large)) == "data (1,024 bytes) 00010203 04050607 08090a0b 0c0d0e0f …")
        let short = PropertyListTreePrinter(maximumDataPreviewCount: 2)
        #expect(short.string(from: .data(large)) == "data (1,024 bytes) 0001 …")
        let none = PropertyListTreePrinter(maximumDataPreviewCount: 0)
        #expect(none.string(from: .data(large)) == "data (1,024 bytes)")
    }

    @Test func escapesStrings() {
        #expect(tree(#"a "b" \ c"#) == #""a \"b\" \\ c""#)
        #expect(tree("l1\nl2\r\tx\0") == #""l1\nl2\r\tx\0""#)
        #expect(tree("\u{1B}[0m\u{7F}\u{85}\u{2028}") == #""\u{1B}[0m\u{7F}\u{85}\u{2028}""#)
        #expect(tree("Café 猫 🐈‍⬛") == "\"Café 猫 🐈‍⬛\"")
    }

    @Test func printsAnIndentedTree() {
        let value: PropertyListValue = [
            "name": "Tom",
            "lives": 9,
            "tags": ["cat", ["nested": true]],
            "empty": [],
            "photo": .data(Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])),
            "born": .date(Date(timeIntervalSinceReferenceDate: 680_457_815.615284)),
            "owner": .uid(1),
            "none": [:],
        ]
        let expected = """
            dictionary (8 entries)
              name: "Tom"
              lives: 9
              tags: array (2 elements)
                [0] "cat"
                [1] dictionary (1 entry)
                  nested: true
              empty: array (0 elements)
              photo: data (8 bytes) 89504e47 0d0a1a0a
              born: date 2022-07-25T16:03:35.615284Z
              owner: UID(1)
              none: dictionary (0 entries)
            """
        #expect(tree(value) == expected)
        #expect(value.description == expected)
        #expect("\(value)" == expected)
    }

    @Test func quotesKeysOnlyWhenNeeded() {
        let value: PropertyListValue = [
            "$objects": 1, "NS.keys": 2, "名前": 3, "": 4, "two words": 5, "a:b": 6, "q\"": 7, "new\nline": 8,
        ]
        let expected = """
            dictionary (8 entries)
              $objects: 1
              NS.keys: 2
              名前: 3
              "": 4
              "two words": 5
              "a:b": 6
              "q\\"": 7
              "new\\nline": 8
            """
        #expect(tree(value) == expected)
    }

    @Test func groupsLargeCounts() {
        let array = PropertyListValue.array(Array(repeating: 0, count: 1_234_567))
        #expect(PropertyListTreePrinter().summary(of: array) == "array (1,234,567 elements)")
        #expect(
            PropertyListTreePrinter().summary(of: .array(Array(repeating: 0, count: 999))) == "array (999 elements)"
        )
        #expect(PropertyListTreePrinter().summary(of: .array([0])) == "array (1 element)")
    }

    @Test func honoursIndentation() {
        let printer = PropertyListTreePrinter(indentation: 4)
        #expect(printer.string(from: [["x"]]) == "array (1 element)\n    [0] array (1 element)\n        [0] \"x\"")
    }
}
