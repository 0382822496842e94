//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-keyed-archive open source project
//
// Licensed under Apache License v2.0
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// The file name of a store entry, derived from its key.
///
/// A key's UTF-8 bytes map to a name reversibly:
/// - `a`–`z`, `0`–`9`, `-` and `.` stand for themselves;
/// - an upper-case ASCII letter becomes `_` and its lower-case form (`A` → `_a`);
/// - every other byte becomes `%` and two lower-case hexadecimal digits (`/` → `%2f`).
///
/// The name is `k-` followed by that encoding. It holds no upper-case letter and no byte above
/// 0x7F, so a case-insensitive or Unicode-normalizing file system (APFS, HFS+, NTFS) never merges
/// two names, and it never starts with a dot. When it would be longer than ``maximumLength``
/// bytes, the name is `h-` followed by the SHA-256 of the key in hexadecimal instead, and only the
/// key stored inside the entry says which key it holds.
struct EntryFileName: Hashable, Sendable {
    /// The longest file name most file systems accept, in bytes.
    static let maximumLength = 255
    /// The prefix of a name that spells its key.
    static let encodedPrefix = "k-"
    /// The prefix of a name that is the hash of a long key.
    static let hashedPrefix = "h-"

    /// The file name.
    let name: String
    /// Whether the name is a hash rather than a spelling of the key.
    let isHashed: Bool

    /// The name for `key`.
    init(key: String) {
        var encoded: [UInt8] = Array(Self.encodedPrefix.utf8)
        encoded.reserveCapacity(key.utf8.count + 2)
        for byte in key.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "-"), UInt8(ascii: "."):
                encoded.append(byte)
            case UInt8(ascii: "A")...UInt8(ascii: "Z"):
                encoded.append(UInt8(ascii: "_"))
                encoded.append(byte + 32)
            default:
                encoded.append(UInt8(ascii: "%"))
                encoded.append(hexDigits[Int(byte >> 4)])
                encoded.append(hexDigits[Int(byte & 0x0F)])
            }
            if encoded.count > Self.maximumLength { break }
        }
        if encoded.count <= Self.maximumLength {
            self.name = String(decoding: encoded, as: UTF8.self)
            self.isHashed = false
        } else {
            let digest = SHA256.digest(key.utf8)
            var hex: [UInt8] = Array(Self.hashedPrefix.utf8)
            for byte in digest {
                hex.append(hexDigits[Int(byte >> 4)])
                hex.append(hexDigits[Int(byte & 0x0F)])
            }
            self.name = String(decoding: hex, as: UTF8.self)
            self.isHashed = true
        }
    }

    /// The generation slot of the entry of `key`: ``StoreControlFile/slot(forFileName:)`` of its
    /// name, worked out from the name's bytes on the stack, without making the name (a name that
    /// is a hash is made).
    static func slot(forKey key: String) -> Int {
        // Up to three bytes past the longest name: the check comes before each byte's encoding.
        let slot = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: Self.maximumLength + 3) { name -> Int? in
            name[0] = UInt8(ascii: "k")
            name[1] = UInt8(ascii: "-")
            var count = 2
            for byte in key.utf8 {
                guard count <= Self.maximumLength else { return nil }
                switch byte {
                case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                    UInt8(ascii: "-"), UInt8(ascii: "."):
                    name[count] = byte
                    count += 1
                case UInt8(ascii: "A")...UInt8(ascii: "Z"):
                    name[count] = UInt8(ascii: "_")
                    name[count + 1] = byte + 32
                    count += 2
                default:
                    name[count] = UInt8(ascii: "%")
                    name[count + 1] = hexDigits[Int(byte >> 4)]
                    name[count + 2] = hexDigits[Int(byte & 0x0F)]
                    count += 3
                }
            }
            guard count <= Self.maximumLength else { return nil }
            var crc = CRC32C()
            crc.update(UnsafeRawBufferPointer(UnsafeMutableBufferPointer(rebasing: name[..<count])))
            return Int(crc.value % UInt32(StoreControlFile.slotCount))
        }
        return slot ?? StoreControlFile.slot(forFileName: EntryFileName(key: key).name)
    }

    /// What a file name in a store directory is.
    enum Kind: Equatable {
        /// An entry whose name spells its key.
        case encoded(key: String)
        /// An entry whose name is the hash of its key; the key is inside the file.
        case hashed
        /// Not an entry: a temporary file, the control file, a folder, or a stranger's file.
        case other
    }

    /// Classifies a file name found in a store directory.
    ///
    /// Only the names that ``init(key:)`` produces are entries: a name with a non-canonical
    /// escape such as `%61` is foreign, so every entry file stands for exactly one key.
    static func classify(_ name: String) -> Kind {
        let bytes = Array(name.utf8)
        guard bytes.count >= 2, bytes[1] == UInt8(ascii: "-") else { return .other }
        if bytes[0] == UInt8(ascii: "h") {
            let digits = bytes.dropFirst(2)
            let isHex = digits.allSatisfy { hexDigits.contains($0) }
            return digits.count == 64 && isHex ? .hashed : .other
        }
        guard bytes[0] == UInt8(ascii: "k"), let key = decode(bytes.dropFirst(2)) else { return .other }
        let canonical = EntryFileName(key: key)
        return !canonical.isHashed && canonical.name == name ? .encoded(key: key) : .other
    }

    /// Reverses the byte encoding, or returns `nil` for bytes that are no encoding of a key.
    private static func decode(_ encoded: ArraySlice<UInt8>) -> String? {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(encoded.count)
        var index = encoded.startIndex
        while index < encoded.endIndex {
            let byte = encoded[index]
            switch byte {
            case UInt8(ascii: "_"):
                guard index + 1 < encoded.endIndex else { return nil }
                let letter = encoded[index + 1]
                guard letter >= UInt8(ascii: "a"), letter <= UInt8(ascii: "z") else { return nil }
                bytes.append(letter - 32)
                index += 2
            case UInt8(ascii: "%"):
                guard index + 2 < encoded.endIndex,
                    let high = hexValue(encoded[index + 1]),
                    let low = hexValue(encoded[index + 2])
                else { return nil }
                bytes.append(high << 4 | low)
                index += 3
            default:
                bytes.append(byte)
                index += 1
            }
        }
        return validUTF8String(bytes)
    }

    private static func hexValue(_ digit: UInt8) -> UInt8? {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
        default: nil
        }
    }
}

/// Lower-case hexadecimal digits.
private let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)
