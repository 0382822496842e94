//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-keyed-archive open source project
//
// Licensed under Apache License v2.0
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The bytes of one entry file, format version 1. All integers are little-endian.
///
/// ```
/// offset      size  field
/// 0           4     magic 8B 4B 41 53 ("\x8BKAS")
/// 4           2     entry format version, 1
/// 6           1     length F of the payload format identifier, 1...255
/// 7           1     reserved, 0
/// 8           4     schema version (the store's, at the time of the save)
/// 12          4     length K of the key in bytes
/// 16          8     expiry: seconds since 1970 as a Float64 bit pattern; +infinity for never
/// 24          8     length P of the payload
/// 32          F     payload format identifier, UTF-8
/// 32+F        K     key, UTF-8
/// 32+F+K      P     payload, as the payload format wrote it
/// 32+F+K+P    4     CRC-32C of every byte before it
/// ```
///
/// A file is an entry only if its length is exactly `36 + F + K + P` and the checksum matches.
enum EntryFormat {
    /// The first four bytes of every entry. The first is not ASCII, so no text file matches.
    static let magic: [UInt8] = [0x8B, 0x4B, 0x41, 0x53]
    /// The entry format version this code writes and reads.
    static let version: UInt16 = 1
    /// The size of the fixed part of the header.
    static let prefixSize = 32
    /// The size of the trailing checksum.
    static let checksumSize = 4

    /// The fixed-size start of an entry: enough to tell its expiry and the size of the rest.
    struct Prefix: Equatable, Sendable {
        /// The entry format version.
        var version: UInt16
        /// The length of the payload format identifier.
        var formatIdentifierLength: Int
        /// The store's schema version when the entry was saved.
        var schemaVersion: UInt32
        /// The length of the key in bytes.
        var keyLength: Int
        /// Seconds since 1970 after which the entry is expired; `+infinity` for never.
        var expiry: Double
        /// The length of the payload.
        var payloadLength: UInt64

        /// The file length this prefix implies, or `nil` when it overflows.
        var totalLength: Int? {
            guard self.payloadLength <= UInt64(Int.max) else { return nil }
            let (withPayload, overflow) = (EntryFormat.prefixSize + self.formatIdentifierLength + self.keyLength)
                .addingReportingOverflow(Int(self.payloadLength))
            guard !overflow else { return nil }
            let (total, overflow2) = withPayload.addingReportingOverflow(EntryFormat.checksumSize)
            return overflow2 ? nil : total
        }
    }

    /// A whole entry, checked.
    struct Entry: Sendable {
        /// The fixed header fields.
        var prefix: Prefix
        /// The payload format identifier.
        var formatIdentifier: String
        /// The key's UTF-8 bytes.
        var key: [UInt8]
        /// The payload bytes.
        var payload: Data
    }

    /// Why bytes are not an entry.
    struct Corruption: Error, Equatable, Sendable {
        /// A short explanation, such as "checksum mismatch".
        var reason: String
    }

    /// The bytes of an entry holding `payload`.
    static func encode(
        key: String,
        formatIdentifier: String,
        schemaVersion: UInt32,
        expiry: Double,
        payload: some Collection<UInt8>
    ) -> [UInt8] {
        let identifier = Array(formatIdentifier.utf8)
        let keyBytes = Array(key.utf8)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(prefixSize + identifier.count + keyBytes.count + payload.count + checksumSize)
        bytes.append(contentsOf: magic)
        append(self.version, to: &bytes)
        bytes.append(UInt8(truncatingIfNeeded: identifier.count))
        bytes.append(0)
        append(schemaVersion, to: &bytes)
        append(UInt32(truncatingIfNeeded: keyBytes.count), to: &bytes)
        append(expiry.bitPattern, to: &bytes)
        append(UInt64(payload.count), to: &bytes)
        bytes.append(contentsOf: identifier)
        bytes.append(contentsOf: keyBytes)
        bytes.append(contentsOf: payload)
        append(CRC32C.checksum(bytes), to: &bytes)
        return bytes
    }

    /// Reads the fixed header from the first ``prefixSize`` bytes of `bytes`.
    static func decodePrefix(_ bytes: some RandomAccessCollection<UInt8>) throws(Corruption) -> Prefix {
        guard bytes.count >= prefixSize else { throw Corruption(reason: "shorter than an entry header") }
        let start = bytes.startIndex
        func byte(_ offset: Int) -> UInt8 { bytes[bytes.index(start, offsetBy: offset)] }
        func integer<T: FixedWidthInteger & UnsignedInteger>(_ offset: Int, as _: T.Type) -> T {
            var value: T = 0
            for index in 0..<MemoryLayout<T>.size {
                value |= T(byte(offset + index)) << (8 * index)
            }
            return value
        }
        guard (0..<4).allSatisfy({ byte($0) == magic[$0] }) else { throw Corruption(reason: "bad magic") }
        let version = integer(4, as: UInt16.self)
        guard version == self.version else { throw Corruption(reason: "unknown entry format version \(version)") }
        let formatLength = Int(byte(6))
        guard formatLength > 0 else { throw Corruption(reason: "empty payload format identifier") }
        guard byte(7) == 0 else { throw Corruption(reason: "reserved header byte is not zero") }
        let prefix = Prefix(
            version: version,
            formatIdentifierLength: formatLength,
            schemaVersion: integer(8, as: UInt32.self),
            keyLength: Int(integer(12, as: UInt32.self)),
            expiry: Double(bitPattern: integer(16, as: UInt64.self)),
            payloadLength: integer(24, as: UInt64.self)
        )
        guard !prefix.expiry.isNaN else { throw Corruption(reason: "expiry is not a number") }
        guard prefix.totalLength != nil else { throw Corruption(reason: "payload length overflows") }
        return prefix
    }

    /// Where the parts of a whole entry file lie in its bytes, checked.
    struct Layout: Sendable {
        /// The fixed header fields.
        var prefix: Prefix
        /// The payload format identifier.
        var formatIdentifier: String
        /// The offsets of the key's UTF-8 bytes.
        var keyRange: Range<Int>
        /// The offsets of the payload.
        var payloadRange: Range<Int>
    }

    /// Checks and splits the bytes of a whole entry file, copying its key and payload.
    static func decode(_ bytes: [UInt8]) throws(Corruption) -> Entry {
        let layout = try self.layout(of: bytes)
        return Entry(
            prefix: layout.prefix,
            formatIdentifier: layout.formatIdentifier,
            key: Array(bytes[layout.keyRange]),
            payload: Data(bytes[layout.payloadRange])
        )
    }

    /// Checks the bytes of a whole entry file and tells where its parts lie, copying nothing but
    /// the payload format identifier.
    static func layout(of bytes: [UInt8]) throws(Corruption) -> Layout {
        let prefix = try decodePrefix(bytes)
        guard let total = prefix.totalLength, total == bytes.count else {
            let expected = prefix.totalLength.map(String.init) ?? "an overflowing length"
            throw Corruption(reason: "file is \(bytes.count) bytes, its header says \(expected)")
        }
        let checksumStart = bytes.count - checksumSize
        var stored: UInt32 = 0
        for index in 0..<checksumSize {
            stored |= UInt32(bytes[checksumStart + index]) << (8 * index)
        }
        let computed = bytes.withUnsafeBytes { buffer in
            var crc = CRC32C()
            crc.update(UnsafeRawBufferPointer(rebasing: buffer[..<checksumStart]))
            return crc.value
        }
        guard stored == computed else { throw Corruption(reason: "checksum mismatch") }
        let identifierStart = prefixSize
        let keyStart = identifierStart + prefix.formatIdentifierLength
        let payloadStart = keyStart + prefix.keyLength
        guard let identifier = validUTF8String(bytes[identifierStart..<keyStart]) else {
            throw Corruption(reason: "payload format identifier is not UTF-8")
        }
        return Layout(
            prefix: prefix,
            formatIdentifier: identifier,
            keyRange: keyStart..<payloadStart,
            payloadRange: payloadStart..<checksumStart
        )
    }

    private static func append<T: FixedWidthInteger>(_ value: T, to bytes: inout [UInt8]) {
        for index in 0..<MemoryLayout<T>.size {
            bytes.append(UInt8(truncatingIfNeeded: value >> (8 * index)))
        }
    }
}
