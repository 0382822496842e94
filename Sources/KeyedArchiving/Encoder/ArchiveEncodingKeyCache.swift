//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-keyed-archive open source project
//
// Licensed under Apache License v2.0
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// A direct-mapped cache from coding-key strings to their ``ArchiveEncodingTable/Key``, keyed by
/// the string's raw 16 bytes.
///
/// A `CodingKey`'s `stringValue` is nearly always a literal (a small string holding its UTF-8
/// inline, or a pointer to constant storage), so the same key gives the same raw bytes every time
/// and a hit costs a compare rather than hashing the string. Each slot keeps its string alive, so
/// equal raw bytes always mean the same storage, hence equal contents; a string built afresh on
/// every call just misses. Where `String` is not 16 bytes (32-bit platforms) the cache is empty.
///
/// The cache owns its slots' memory and cannot be copied, so that filling a slot checks no array
/// for uniqueness.
internal struct ArchiveEncodingKeyCache: ~Copyable {
    /// The number of bits of a slot index: 2^slotBits slots.
    private let slotBits: Int
    private let rawKeys: UnsafeMutableBufferPointer<(UInt64, UInt64)>
    private let keys: UnsafeMutableBufferPointer<ArchiveEncodingTable.Key?>
    /// The strings the slots hold, kept alive so that their storage cannot be reused.
    private let strings: UnsafeMutableBufferPointer<String>
    /// The slots filled since the cache was made or emptied, so that emptying it costs only those;
    /// the first ``filledCount`` are set.
    private let filledSlots: UnsafeMutableBufferPointer<Int>
    private var filledCount = 0

    /// Creates an empty cache of `2^slotBits` slots.
    init(slotBits: Int = 7) {
        let slotCount = 1 << slotBits
        self.slotBits = slotBits
        self.rawKeys = .allocate(capacity: slotCount)
        self.rawKeys.initialize(repeating: (0, 0))
        self.keys = .allocate(capacity: slotCount)
        self.keys.initialize(repeating: nil)
        self.strings = .allocate(capacity: slotCount)
        self.strings.initialize(repeating: "")
        self.filledSlots = .allocate(capacity: slotCount)
    }

    deinit {
        self.rawKeys.deallocate()
        self.keys.deallocate()
        _ = self.strings.deinitialize()
        self.strings.deallocate()
        self.filledSlots.deallocate()
    }

    /// Empties the cache, for keys of a new table: only the slots filled since the last time are
    /// cleared. (No string's raw bytes are all zero, so a cleared slot matches nothing.)
    mutating func removeAll() {
        for slot in self.filledSlots[0..<self.filledCount] { self.rawKeys[slot] = (0, 0) }
        self.filledCount = 0
    }

    /// Removes the keys whose string id is `id` or more: those of strings a table did not keep
    /// when it was emptied.
    mutating func removeKeys(fromID id: UInt32) {
        var remaining = 0
        for index in 0..<self.filledCount {
            let slot = self.filledSlots[index]
            if let key = self.keys[slot], key.id < id {
                self.filledSlots[remaining] = slot
                remaining += 1
            } else {
                self.rawKeys[slot] = (0, 0)
            }
        }
        self.filledCount = remaining
    }

    @inline(__always)
    private static func rawBytes(of string: String) -> (UInt64, UInt64)? {
        guard MemoryLayout<String>.size == 16 else { return nil }
        return withUnsafeBytes(of: string) { ($0.load(as: UInt64.self), $0.load(fromByteOffset: 8, as: UInt64.self)) }
    }

    /// The slot of some raw bytes: the top `slotBits` bits of their mix, so that every slot is used.
    @inline(__always)
    private func slot(_ key: (UInt64, UInt64)) -> Int {
        let mixed = (key.0 ^ (key.1 &* 0x9E37_79B9_7F4A_7C15)) &* 0xBF58_476D_1CE4_E5B9
        return Int(truncatingIfNeeded: mixed &>> UInt64(truncatingIfNeeded: 64 - self.slotBits))
    }

    /// The key cached for `string`, or `nil`.
    @inline(__always)
    func key(for string: String) -> ArchiveEncodingTable.Key? {
        guard let raw = Self.rawBytes(of: string) else { return nil }
        let slot = self.slot(raw)
        guard self.rawKeys[slot] == raw else { return nil }
        return self.keys[slot]
    }

    /// Caches `key` for `string`, replacing whatever shared its slot.
    mutating func insert(_ key: ArchiveEncodingTable.Key, for string: String) {
        guard let raw = Self.rawBytes(of: string) else { return }
        let slot = self.slot(raw)
        if self.rawKeys[slot] == (0, 0) {
            self.filledSlots[self.filledCount] = slot
            self.filledCount += 1
        }
        self.rawKeys[slot] = raw
        self.keys[slot] = key
        self.strings[slot] = string
    }
}
