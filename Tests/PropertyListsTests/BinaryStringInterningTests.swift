//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-keyed-archive open source project
//
// Licensed under Apache License v2.0
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import PropertyLists
import TestSupport
import Testing

/// The reader decodes each distinct string content once and shares it; these cases check that
/// sharing never confuses different contents, and never skips a check.
@Suite struct BinaryStringInterningTests {
    /// A string object: ASCII bytes, or UTF-16BE code units when `utf16` is set.
    private static func string(_ bytes: [UInt8], utf16: Bool = false) -> [UInt8] {
        let count = utf16 ? bytes.count / 2 : bytes.count
        let marker: UInt8 = utf16 ? 0x60 : 0x50
        if count < 15 { return [marker | UInt8(count)] + bytes }
        return [marker | 0x0F, 0x10, UInt8(count)] + bytes
    }

    /// A file whose top object is an array of `elements`, objects 1 through `elements.count`.
    private static func array(_ elements: [[UInt8]]) -> [UInt8] {
        let header: [UInt8] = [0xAF, 0x10, UInt8(elements.count)] + (1...elements.count).map { UInt8($0) }
        return BinaryPropertyListAssembler.assemble([header] + elements, top: 0)
    }

    @Test(arguments: [2, 8, 14, 16, 30])
    func equalBytesInTheTwoEncodingsStayDifferentStrings(byteCount: Int) throws {
        // The same bytes as ASCII ("\0A\0A…") and as UTF-16 ("AA…"), each stored twice.
        let bytes = (0..<byteCount).map { $0 % 2 == 0 ? UInt8(0) : UInt8(ascii: "A") }
        let ascii = Self.string(bytes)
        let utf16 = Self.string(bytes, utf16: true)
        let value = try PropertyListValue(parsing: Self.array([ascii, utf16, ascii, utf16]))
        let asciiText = String(decoding: bytes, as: UTF8.self)
        let utf16Text = String(repeating: "A", count: byteCount / 2)
        #expect(value == .array([.string(asciiText), .string(utf16Text), .string(asciiText), .string(utf16Text)]))
    }

    @Test func trailingZeroBytesMakeDifferentStrings() throws {
        let value = try PropertyListValue(
            parsing: Self.array([Self.string([0x41]), Self.string([0x41, 0]), Self.string([0x41, 0, 0])])
        )
        #expect(value == .array(["A", "A\u{0}", "A\u{0}\u{0}"]))
    }

    @Test(arguments: [3, 15, 16, 40])
    func aNonASCIIByteThrowsAfterAnEqualPrefixWasShared(length: Int) throws {
        let text = [UInt8](repeating: UInt8(ascii: "k"), count: length)
        var bad = text
        bad[length - 1] = 0x80
        let bytes = Self.array([Self.string(text), Self.string(text), Self.string(bad)])
        #expect(throws: PropertyListError(.invalidString)) { try PropertyListValue(parsing: bytes) }
    }

    @Test func keysWhoseSharedValuesAreFarApartStayDistinct() throws {
        // Seventy distinct strings built first (object 3), then a dictionary keyed by the first
        // and the sixty-fifth (object 1), and one keyed by the first twice, through separate
        // objects (object 2).
        var objects: [[UInt8]] = [[0xA3, 3, 1, 2]]
        objects.append([0xD2, 4, 68, 74, 75])
        objects.append([0xD2, 4, 76, 74, 75])
        objects.append([0xAF, 0x10, 70] + (4..<74).map { UInt8($0) })
        for index in 0..<70 {
            objects.append(Self.string(Array("key\(index)".utf8)))
        }
        objects.append([0x10, 1])
        objects.append([0x10, 2])
        objects.append(Self.string(Array("key0".utf8)))
        let value = try PropertyListValue(parsing: BinaryPropertyListAssembler.assemble(objects, top: 0))
        guard case .array(let elements) = value, elements.count == 3 else {
            Issue.record("expected an array of three values, got \(value)")
            return
        }
        #expect(elements[1] == ["key0": 1, "key64": 2])
        #expect(elements[2] == ["key0": 2])
        #expect(elements[2].dictionaryValue?.count == 1)
    }
}

/// UTF-16 strings transcode as Swift's own decoder repairs them, through the four-unit ASCII
/// fast path and the unit-by-unit path alike.
@Suite struct BinaryUTF16TranscodingTests {
    @Test func randomUnitsDecodeAsSwiftDecodesThem() throws {
        var rng = SplitMix64(seed: 0x5EED)
        let pool: [UInt16] = [0x41, 0x7A, 0x7F, 0x80, 0xE9, 0x7FF, 0x800, 0x20AC, 0xD83D, 0xDE00, 0xDC00, 0xFFFD]
        for _ in 0..<500 {
            var units: [UInt16] = []
            for _ in 0..<Int.random(in: 0...40, using: &rng) {
                let ascii = UInt16.random(in: 0x20...0x7E, using: &rng)
                units.append(Bool.random(using: &rng) ? ascii : pool.randomElement(using: &rng) ?? ascii)
            }
            let payload = units.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
            let marker: [UInt8] = units.count < 15 ? [0x60 | UInt8(units.count)] : [0x6F, 0x10, UInt8(units.count)]
            let bytes = BinaryPropertyListAssembler.assemble([marker + payload], top: 0)
            #expect(try PropertyListValue(parsing: bytes) == .string(String(decoding: units, as: UTF16.self)))
        }
    }
}
