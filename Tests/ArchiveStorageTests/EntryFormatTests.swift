//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-keyed-archive open source project
//
// Licensed under Apache License v2.0
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Testing

@testable import ArchiveStorage

@Suite struct EntryFormatTests {
    private let bytes = EntryFormat.encode(
        key: "key/é",
        formatIdentifier: "json",
        schemaVersion: 7,
        expiry: 1234.5,
        payload: Array("{\"a\":1}".utf8)
    )

    @Test func writesTheDocumentedLayout() throws {
        #expect(Array(self.bytes[0..<4]) == [0x8B, 0x4B, 0x41, 0x53])
        #expect(Array(self.bytes[4..<8]) == [1, 0, 4, 0])
        #expect(Array(self.bytes[8..<12]) == [7, 0, 0, 0])
        #expect(Array(self.bytes[12..<16]) == [6, 0, 0, 0])
        #expect(Array(self.bytes[16..<24]) == withUnsafeBytes(of: (1234.5).bitPattern.littleEndian) { Array($0) })
        #expect(Array(self.bytes[24..<32]) == [7, 0, 0, 0, 0, 0, 0, 0])
        #expect(Array(self.bytes[32..<36]) == Array("json".utf8))
        #expect(Array(self.bytes[36..<42]) == Array("key/é".utf8))
        #expect(Array(self.bytes[42..<49]) == Array("{\"a\":1}".utf8))
        #expect(self.bytes.count == 53)
        let crc = CRC32C.checksum(self.bytes[..<49])
        #expect(Array(self.bytes[49...]) == withUnsafeBytes(of: crc.littleEndian) { Array($0) })
    }

    @Test func decodesWhatItEncodes() throws {
        let entry = try EntryFormat.decode(self.bytes)
        #expect(entry.formatIdentifier == "json")
        #expect(entry.key == Array("key/é".utf8))
        #expect(Array(entry.payload) == Array("{\"a\":1}".utf8))
        #expect(entry.prefix.schemaVersion == 7)
        #expect(entry.prefix.expiry == 1234.5)
        let never = EntryFormat.encode(key: "", formatIdentifier: "x", schemaVersion: 0, expiry: .infinity, payload: [])
        #expect(try EntryFormat.decode(never).prefix.expiry == .infinity)
    }

    @Test func everySingleBitFlipIsDetected() {
        for index in self.bytes.indices {
            for bit in 0..<8 {
                var damaged = self.bytes
                damaged[index] ^= 1 << bit
                #expect(throws: EntryFormat.Corruption.self, "byte \(index) bit \(bit)") {
                    try EntryFormat.decode(damaged)
                }
            }
        }
    }

    @Test func everyTruncationAndExtensionIsDetected() {
        for length in 0..<self.bytes.count {
            #expect(throws: EntryFormat.Corruption.self, "length \(length)") {
                try EntryFormat.decode(Array(self.bytes[..<length]))
            }
        }
        #expect(throws: EntryFormat.Corruption(reason: "file is 54 bytes, its header says 53")) {
            try EntryFormat.decode(self.bytes + [0])
        }
    }

    @Test func hostileLengthsDoNotTrap() {
        var huge = self.bytes
        for index in 24..<32 { huge[index] = 0xFF }
        #expect(throws: EntryFormat.Corruption.self) { try EntryFormat.decode(huge) }
        var wideKey = self.bytes
        for index in 12..<16 { wideKey[index] = 0xFF }
        #expect(throws: EntryFormat.Corruption.self) { try EntryFormat.decode(wideKey) }
    }
}
