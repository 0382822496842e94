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
///
/// The table owns its memory and cannot be copied, so that adding a leaf checks no array for
/// uniqueness: the numbering adds one per scalar leaf of a file.
package struct BinaryScalarTable: ~Copyable {
    /// A leaf and its number, stored together so that adding one appends once.
    private struct Entry {
        var bits: UInt64
        var value: UInt32
        var kind: UInt8
    }

    /// The number of slots of a new or reset table.
    private static var initialSlotCount: Int { 64 }

    /// Open-addressed slots holding `position + 1` in ``entries``, or 0 when empty; a power of two.
    private var slots: UnsafeMutableBufferPointer<UInt32>
    /// The leaves, in the order added; the first ``count`` are initialized.
    private var entries: UnsafeMutableBufferPointer<Entry>
    /// The number of leaves.
    private var count = 0

    /// Creates an empty table.
    package init() {
        self.slots = .allocate(capacity: Self.initialSlotCount)
        self.slots.initialize(repeating: 0)
        self.entries = .allocate(capacity: Self.initialSlotCount / 2)
    }

    deinit {
        self.slots.deallocate()
        self.entries.deallocate()
    }

    /// Removes every leaf, keeping the storage for the next ones.
    ///
    /// The slots are zeroed in place when few or when this use filled them (to at least an
    /// eighth), else replaced by a small table: a run of archives of one size reuses its slots, and
    /// clearing after a large archive costs the next small one no more than once.
    package mutating func removeAll() {
        if self.slots.count <= 1024 || self.count * 8 >= self.slots.count {
            self.slots.update(repeating: 0)
        } else {
            self.slots.deallocate()
            self.slots = .allocate(capacity: Self.initialSlotCount)
            self.slots.initialize(repeating: 0)
            self.entries.deallocate()
            self.entries = .allocate(capacity: Self.initialSlotCount / 2)
        }
        self.count = 0
    }

    /// The number of leaves the table's storage has room for, to bound what a caller keeps.
    package var capacity: Int { max(self.entries.count, self.slots.count / 2) }

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
        // The slots are at most half full, so there is room for the entry.
        self.entries.initializeElement(at: self.count, to: Entry(bits: bits, value: value, kind: kind))
        self.count &+= 1
        self.slots[slot] = UInt32(truncatingIfNeeded: self.count)
        if self.count &* 2 >= self.slots.count { self.grow() }
        return nil
    }

    @inline(never)
    private mutating func grow() {
        let slots = UnsafeMutableBufferPointer<UInt32>.allocate(capacity: self.slots.count * 2)
        slots.initialize(repeating: 0)
        let mask = slots.count - 1
        for position in 0..<self.count {
            let entry = self.entries[position]
            var slot = Self.slot(kind: entry.kind, bits: entry.bits, mask: mask)
            while slots[slot] != 0 { slot = (slot + 1) & mask }
            slots[slot] = UInt32(truncatingIfNeeded: position + 1)
        }
        self.slots.deallocate()
        self.slots = slots
        let entries = UnsafeMutableBufferPointer<Entry>.allocate(capacity: slots.count / 2)
        _ = entries.moveInitialize(fromContentsOf: self.entries[0..<self.count])
        self.entries.deallocate()
        self.entries = entries
    }

    @inline(__always)
    private static func slot(kind: UInt8, bits: UInt64, mask: Int) -> Int {
        var hash = (bits ^ (UInt64(kind) << 56)) &* 0xBF58_476D_1CE4_E5B9
        hash ^= hash >> 31
        hash &*= 0x94D0_49BB_1331_11EB
        return Int(truncatingIfNeeded: hash >> 32) & mask
    }
}
