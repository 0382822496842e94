//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-keyed-archive open source project
//
// Licensed under Apache License v2.0
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// A hash map from fixed-size leaves (a kind and 64 bits: integers, reals, Booleans, UIDs) to a
/// number the caller chooses, such as an object index.
///
/// Leaves are equal when their kinds and bits are, which is how ``PropertyListValue`` compares
/// numbers: reals by their bits, and an integer's sign is part of its kind. Open addressing with a
/// cheap mixer keeps a lookup to a few instructions, where `Dictionary` would run SipHash.
package struct BinaryScalarTable {
    /// A leaf and its number, stored together so that adding one appends once.
    private struct Entry {
        var bits: UInt64
        var value: UInt32
        var kind: UInt8
    }

    /// Open-addressed slots holding `position + 1` in ``entries``, or 0 when empty.
    private var slots = [UInt32](repeating: 0, count: 64)
    private var entries: [Entry] = []

    /// Creates an empty table.
    package init() {}

    /// Removes every leaf, keeping the storage for the next ones.
    ///
    /// The slots are zeroed in place when few or when this use filled them (to at least an
    /// eighth), else replaced by a small table: a run of archives of one size reuses its slots, and
    /// clearing after a large archive costs the next small one no more than once.
    package mutating func removeAll() {
        if self.slots.count <= 1024 || self.entries.count * 8 >= self.slots.count {
            self.slots.withUnsafeMutableBufferPointer { $0.update(repeating: 0) }
        } else {
            self.slots = [UInt32](repeating: 0, count: 64)
        }
        self.entries.removeAll(keepingCapacity: true)
    }

    /// The number of leaves the table's storage has room for, to bound what a caller keeps.
    package var capacity: Int { max(self.entries.capacity, self.slots.count / 2) }

    /// The number stored for a leaf; or, when there is none, stores `value` for it and returns
    /// `nil`. One probe either way.
    @inline(__always)
    package mutating func value(kind: UInt8, bits: UInt64, insertingIfAbsent value: UInt32) -> UInt32? {
        let mask = self.slots.count &- 1
        var slot = Self.slot(kind: kind, bits: bits, mask: mask)
        while true {
            let stored = self.slots[slot]
            if stored == 0 { break }
            let entry = self.entries[Int(stored &- 1)]
            if entry.bits == bits, entry.kind == kind { return entry.value }
            slot = (slot &+ 1) & mask
        }
        self.entries.append(Entry(bits: bits, value: value, kind: kind))
        self.slots[slot] = UInt32(truncatingIfNeeded: self.entries.count)
        if self.entries.count &* 2 > self.slots.count { self.grow() }
        return nil
    }

    @inline(never)
    private mutating func grow() {
        var slots = [UInt32](repeating: 0, count: self.slots.count * 2)
        let mask = slots.count - 1
        for (position, entry) in self.entries.enumerated() {
            var slot = Self.slot(kind: entry.kind, bits: entry.bits, mask: mask)
            while slots[slot] != 0 { slot = (slot + 1) & mask }
            slots[slot] = UInt32(truncatingIfNeeded: position + 1)
        }
        self.slots = slots
    }

    @inline(__always)
    private static func slot(kind: UInt8, bits: UInt64, mask: Int) -> Int {
        var hash = (bits ^ (UInt64(kind) << 56)) &* 0xBF58_476D_1CE4_E5B9
        hash ^= hash >> 31
        hash &*= 0x94D0_49BB_1331_11EB
        return Int(truncatingIfNeeded: hash >> 32) & mask
    }
}
