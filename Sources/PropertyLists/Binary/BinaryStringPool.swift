//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-keyed-archive open source project
//
// Licensed under Apache License v2.0
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// The strings of a ``BinaryPropertyListBuilder``, each stored once and named by a small id.
///
/// Two ids are equal only for strings with the same UTF-8 bytes, found by hashing those bytes
/// rather than through `String`'s Unicode-aware hashing. Each id also has a canonical id: the id of
/// the first string added that `==` considers equal (canonically equivalent), which is how
/// ``BinaryPropertyListWriter`` and ``PropertyListDictionary`` tell strings apart. So a writer can
/// unique strings by canonical id and still emit the exact bytes of the first one it meets.
package struct BinaryStringPool {
    /// The strings, by id.
    package private(set) var strings: [String] = []
    /// For each id, the id of the first string added that is equal to it under `==`.
    package private(set) var canonicalIDs: [UInt32] = []
    /// The UTF-8 bytes of every string, one after another.
    private var bytes: [UInt8] = []
    /// Where each string's bytes start in ``bytes``, with one extra element for the end.
    private var starts: [Int] = [0]
    /// Whether each string is all ASCII.
    private var asciiFlags: [Bool] = []
    /// The low 32 bits of each string's hash, which also place it in ``slots``.
    private var hashes: [UInt32] = []
    /// Open-addressed slots holding `id + 1`, or 0 when empty.
    private var slots = [UInt32](repeating: 0, count: 64)
    /// The canonical id of each string class, found through `String` hashing once per new string
    /// once the pool holds a string that is not all ASCII (see ``hasNonASCII``).
    private var canonical: [String: UInt32] = [:]
    /// Whether a string that is not all ASCII has been added. Until then every string is its own
    /// canonical string: an all-ASCII string is in normal form, so two of them are `==` only if
    /// their bytes are equal, and ``canonical`` stays empty, sparing a `String` hash per string.
    private var hasNonASCII = false

    /// Creates an empty pool.
    package init() {}

    /// Removes every string but the first `count`, keeping the storage for the next ones: the
    /// strings every list of a writer holds can stay, with their ids.
    /// - Complexity: O(*m*) in the number of strings removed.
    package mutating func removeAll(keepingFirst count: Int = 0) {
        let kept = min(max(count, 0), self.strings.count)
        // A kept string was added before every removed one, and `grow()` re-adds strings in id
        // order, so no kept string's probe sequence runs through a removed string's slot: the
        // removed slots can be emptied without moving the kept ones.
        let mask = self.slots.count - 1
        for id in kept..<self.strings.count {
            var slot = Int(truncatingIfNeeded: self.hashes[id]) & mask
            while self.slots[slot] != UInt32(truncatingIfNeeded: id + 1) { slot = (slot + 1) & mask }
            self.slots[slot] = 0
        }
        self.strings.removeSubrange(kept...)
        self.canonicalIDs.removeSubrange(kept...)
        self.bytes.removeSubrange(self.starts[kept]...)
        self.starts.removeSubrange((kept + 1)...)
        self.asciiFlags.removeSubrange(kept...)
        self.hashes.removeSubrange(kept...)
        if self.hasNonASCII {
            self.canonical.removeAll(keepingCapacity: true)
            self.hasNonASCII = false
            if self.asciiFlags.contains(false) { self.startCanonicalClasses(upTo: kept) }
        }
    }

    /// The number of values all the pool's storage has room for, to bound what a caller keeps.
    package var capacity: Int { max(self.strings.capacity, self.bytes.capacity / 16, self.slots.count / 2) }

    /// The number of distinct strings (by bytes).
    package var count: Int { self.strings.count }

    /// The id of `string`, adding it if no string with the same bytes is in the pool.
    /// - Complexity: O(*n*) in the string's UTF-8 length, on average.
    package mutating func id(for string: String) -> UInt32 {
        if let id = string.utf8.withContiguousStorageIfAvailable({ self.id(for: string, utf8: $0) }) {
            return id
        }
        return ContiguousArray(string.utf8).withUnsafeBufferPointer { self.id(for: string, utf8: $0) }
    }

    /// The UTF-8 bytes of the string with `id`, for as long as the pool is not changed.
    package func withUTF8<R>(of id: UInt32, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        let start = self.starts[Int(id)]
        let end = self.starts[Int(id) + 1]
        return self.bytes.withUnsafeBufferPointer { body(UnsafeBufferPointer(rebasing: $0[start..<end])) }
    }

    /// The number of UTF-8 bytes of the string with `id`.
    package func utf8Count(of id: UInt32) -> Int {
        self.starts[Int(id) + 1] - self.starts[Int(id)]
    }

    /// Whether the string with `id` is all ASCII.
    package func isASCII(_ id: UInt32) -> Bool {
        self.asciiFlags[Int(id)]
    }

    private mutating func id(for string: String, utf8: UnsafeBufferPointer<UInt8>) -> UInt32 {
        let hash = Self.hash(utf8)
        let mask = self.slots.count - 1
        var slot = Int(truncatingIfNeeded: hash) & mask
        while true {
            let stored = self.slots[slot]
            if stored == 0 { break }
            let id = Int(stored - 1)
            if self.hashes[id] == hash, self.storedBytes(id, equal: utf8) { return UInt32(truncatingIfNeeded: id) }
            slot = (slot + 1) & mask
        }
        let id = UInt32(truncatingIfNeeded: self.strings.count)
        var high: UInt8 = 0
        for byte in utf8 { high |= byte }
        self.bytes.append(contentsOf: utf8)
        self.starts.append(self.bytes.count)
        self.asciiFlags.append(high < 0x80)
        self.hashes.append(hash)
        self.strings.append(string)
        if high >= 0x80, !self.hasNonASCII { self.startCanonicalClasses(upTo: Int(id)) }
        if !self.hasNonASCII {
            self.canonicalIDs.append(id)
        } else if let existing = self.canonical[string] {
            self.canonicalIDs.append(existing)
        } else {
            self.canonical[string] = id
            self.canonicalIDs.append(id)
        }
        self.slots[slot] = id + 1
        if self.strings.count * 2 > self.slots.count { self.grow() }
        return id
    }

    /// Fills ``canonical`` with the classes of the strings before `end` when the first string that
    /// is not all ASCII arrives: from then on a new string may be `==` to an earlier one with other
    /// bytes (such as U+212A KELVIN SIGN and "K").
    @inline(never)
    private mutating func startCanonicalClasses(upTo end: Int) {
        self.hasNonASCII = true
        for id in 0..<end where self.canonicalIDs[id] == UInt32(truncatingIfNeeded: id) {
            self.canonical[self.strings[id]] = UInt32(truncatingIfNeeded: id)
        }
    }

    private func storedBytes(_ id: Int, equal utf8: UnsafeBufferPointer<UInt8>) -> Bool {
        let start = self.starts[id]
        guard self.starts[id + 1] - start == utf8.count else { return false }
        return self.bytes.withUnsafeBufferPointer { stored in
            guard let left = stored.baseAddress, let right = utf8.baseAddress else { return true }
            var index = 0
            while index + 8 <= utf8.count {
                let a = UnsafeRawPointer(left + start).loadUnaligned(fromByteOffset: index, as: UInt64.self)
                let b = UnsafeRawPointer(right).loadUnaligned(fromByteOffset: index, as: UInt64.self)
                if a != b { return false }
                index += 8
            }
            while index < utf8.count {
                if left[start + index] != right[index] { return false }
                index += 1
            }
            return true
        }
    }

    private mutating func grow() {
        var slots = [UInt32](repeating: 0, count: self.slots.count * 2)
        let mask = slots.count - 1
        for (id, hash) in self.hashes.enumerated() {
            var slot = Int(truncatingIfNeeded: hash) & mask
            while slots[slot] != 0 { slot = (slot + 1) & mask }
            slots[slot] = UInt32(truncatingIfNeeded: id + 1)
        }
        self.slots = slots
    }

    /// A fast, non-cryptographic hash of some bytes: eight at a time, multiplied and folded.
    @inline(__always)
    private static func hash(_ utf8: UnsafeBufferPointer<UInt8>) -> UInt32 {
        var hash: UInt64 = 0x9E37_79B9_7F4A_7C15 ^ UInt64(utf8.count)
        guard let base = utf8.baseAddress else { return UInt32(truncatingIfNeeded: hash) }
        let raw = UnsafeRawPointer(base)
        var index = 0
        while index + 8 <= utf8.count {
            hash = (hash ^ raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)) &* 0xBF58_476D_1CE4_E5B9
            hash ^= hash >> 31
            index += 8
        }
        var tail: UInt64 = 0
        var shift: UInt64 = 0
        while index < utf8.count {
            tail |= UInt64(base[index]) << shift
            shift += 8
            index += 1
        }
        hash = (hash ^ tail) &* 0x94D0_49BB_1331_11EB
        hash ^= hash >> 29
        hash &*= 0xBF58_476D_1CE4_E5B9
        return UInt32(truncatingIfNeeded: hash ^ (hash >> 32))
    }
}
