//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-keyed-archive open source project
//
// Licensed under Apache License v2.0
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// CRC-32C (Castagnoli, reflected polynomial `0x82F63B78`), the checksum of every stored entry.
///
/// Table-driven, eight bytes per step ("slicing by 8"). The check value, the checksum of the ASCII
/// bytes `123456789`, is `0xE3069283`.
struct CRC32C: Sendable {
    /// The running checksum, before the final inversion.
    private var state: UInt32 = 0xFFFF_FFFF

    /// A checksum of no bytes yet.
    init() {}

    /// The checksum of the bytes added so far.
    var value: UInt32 { ~self.state }

    /// Adds `bytes` to the checksum.
    mutating func update(_ bytes: UnsafeRawBufferPointer) {
        let table = crc32cTables
        var crc = self.state
        var index = 0
        let count = bytes.count
        while count - index >= 8 {
            let low =
                UInt32(bytes[index]) | UInt32(bytes[index + 1]) << 8
                | UInt32(bytes[index + 2]) << 16 | UInt32(bytes[index + 3]) << 24
            let high =
                UInt32(bytes[index + 4]) | UInt32(bytes[index + 5]) << 8
                | UInt32(bytes[index + 6]) << 16 | UInt32(bytes[index + 7]) << 24
            let mixed = crc ^ low
            crc =
                table[7 &* 256 &+ Int(mixed & 0xFF)] ^ table[6 &* 256 &+ Int((mixed >> 8) & 0xFF)]
                ^ table[5 &* 256 &+ Int((mixed >> 16) & 0xFF)] ^ table[4 &* 256 &+ Int(mixed >> 24)]
                ^ table[3 &* 256 &+ Int(high & 0xFF)] ^ table[2 &* 256 &+ Int((high >> 8) & 0xFF)]
                ^ table[1 &* 256 &+ Int((high >> 16) & 0xFF)] ^ table[Int(high >> 24)]
            index &+= 8
        }
        while index < count {
            crc = table[Int((crc ^ UInt32(bytes[index])) & 0xFF)] ^ (crc >> 8)
            index &+= 1
        }
        self.state = crc
    }

    /// Adds `bytes` to the checksum.
    mutating func update(_ bytes: some Sequence<UInt8>) {
        let done: Void? = bytes.withContiguousStorageIfAvailable { self.update(UnsafeRawBufferPointer($0)) }
        if done == nil {
            Array(bytes).withUnsafeBytes { self.update($0) }
        }
    }

    /// The checksum of `bytes`.
    static func checksum(_ bytes: some Sequence<UInt8>) -> UInt32 {
        var crc = CRC32C()
        crc.update(bytes)
        return crc.value
    }
}

/// Eight 256-entry tables: table 0 is the classic byte-wise table; table `k` advances a byte `k`
/// positions further.
private let crc32cTables: [UInt32] = {
    var tables = [UInt32](repeating: 0, count: 8 * 256)
    for byte in 0..<256 {
        var crc = UInt32(byte)
        for _ in 0..<8 {
            crc = crc & 1 == 1 ? (crc >> 1) ^ 0x82F6_3B78 : crc >> 1
        }
        tables[byte] = crc
    }
    for byte in 0..<256 {
        for slice in 1..<8 {
            let previous = tables[(slice - 1) * 256 + byte]
            tables[slice * 256 + byte] = tables[Int(previous & 0xFF)] ^ (previous >> 8)
        }
    }
    return tables
}()
