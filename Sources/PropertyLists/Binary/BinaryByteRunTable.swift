//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-keyed-archive open source project
//
// Licensed under Apache License v2.0
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// Runs of bytes, each stored once and named by a small id, in the order they were first added:
/// how a writer finds equal strings (by their UTF-8 bytes) and equal data.
///
/// The runs sit one after another in one buffer; an open-addressed table of ids finds a run by a
/// fast hash of its bytes, so adding a run costs one pass over its bytes and, when it is new, one
/// copy of them, with no allocation per run.
package struct BinaryByteRunTable {
    /// The bytes of every run, one after another.
    private var bytes: [UInt8] = []
    /// Where each run's bytes start in ``bytes``, with one extra element for the end.
    private var starts: [Int] = [0]
    /// The low 32 bits of each run's hash, which also place it in ``slots``.
    private var hashes: [UInt32] = []
    /// Open-addressed slots holding `id + 1`, or 0 when empty.
    private var slots = [UInt32](repeating: 0, count: 64)

    /// Creates an empty table.
    package init() {}

    /// The number of distinct runs.
    package var count: Int { self.hashes.count }

    /// Whether the table holds no run.
    package var isEmpty: Bool { self.hashes.isEmpty }

    /// The number of runs all the table's storage has room for, to bound what a caller keeps.
    package var capacity: Int { max(self.hashes.capacity, self.bytes.capacity / 16, self.slots.count / 2) }

    /// The id of a run with `bytes`, adding it if no run with the same bytes is in the table;
    /// `isNew` tells which.
    /// - Complexity: O(*n*) in the run's length, on average.
    @inline(__always)
    package mutating func id(for bytes: UnsafeRawBufferPointer) -> (id: UInt32, isNew: Bool) {
        let hash = Self.hash(bytes)
        let mask = self.slots.count - 1
        var slot = Int(truncatingIfNeeded: hash) & mask
        while true {
            let stored = self.slots[slot]
            if stored == 0 { break }
            let id = Int(stored - 1)
            if self.hashes[id] == hash, self.storedBytes(id, equal: bytes) {
                return (UInt32(truncatingIfNeeded: id), false)
            }
            slot = (slot + 1) & mask
        }
        let id = UInt32(truncatingIfNeeded: self.hashes.count)
        self.bytes.append(contentsOf: bytes)
        self.starts.append(self.bytes.count)
        self.hashes.append(hash)
        self.slots[slot] = id + 1
        if self.hashes.count * 2 > self.slots.count { self.grow() }
        return (id, true)
    }

    /// Runs `body` with the bytes of the run with `id`, valid for as long as the table is not changed.
    @inline(__always)
    package func withBytes<R>(of id: UInt32, _ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        let start = self.starts[Int(id)]
        let end = self.starts[Int(id) + 1]
        return try self.bytes.withUnsafeBytes { try body(UnsafeRawBufferPointer(rebasing: $0[start..<end])) }
    }

    /// The number of bytes of the run with `id`.
    @inline(__always)
    package func byteCount(of id: UInt32) -> Int {
        self.starts[Int(id) + 1] - self.starts[Int(id)]
    }

    /// Every run's bytes, read in place by id: what a writer copying many runs works with.
    package struct View {
        fileprivate let base: UnsafeRawPointer?
        fileprivate let starts: UnsafeBufferPointer<Int>

        /// The bytes of the run with `id`.
        @inline(__always)
        package func bytes(of id: UInt32) -> UnsafeRawBufferPointer {
            let start = self.starts[Int(id)]
            return UnsafeRawBufferPointer(start: self.base.map { $0 + start }, count: self.starts[Int(id) + 1] - start)
        }
    }

    /// Runs `body` with a view of every run, valid only during the call.
    package func withView<R>(_ body: (View) throws -> R) rethrows -> R {
        try self.bytes.withUnsafeBytes { bytes in
            try self.starts.withUnsafeBufferPointer { starts in try body(View(base: bytes.baseAddress, starts: starts))
            }
        }
    }

    /// Removes every run but the first `count`, keeping the storage for the next ones.
    /// - Complexity: O(*m*) in the number of runs removed.
    package mutating func removeAll(keepingFirst count: Int = 0) {
        let kept = min(max(count, 0), self.hashes.count)
        guard kept < self.hashes.count else { return }
        // A kept run was added before every removed one, and `grow()` re-adds runs in id order,
        // so no kept run's probe sequence runs through a removed run's slot: the removed slots can
        // be emptied without moving the kept ones.
        let mask = self.slots.count - 1
        for id in kept..<self.hashes.count {
            var slot = Int(truncatingIfNeeded: self.hashes[id]) & mask
            while self.slots[slot] != UInt32(truncatingIfNeeded: id + 1) { slot = (slot + 1) & mask }
            self.slots[slot] = 0
        }
        self.bytes.removeSubrange(self.starts[kept]...)
        self.starts.removeSubrange((kept + 1)...)
        self.hashes.removeSubrange(kept...)
    }

    private func storedBytes(_ id: Int, equal other: UnsafeRawBufferPointer) -> Bool {
        let start = self.starts[id]
        guard self.starts[id + 1] - start == other.count else { return false }
        return self.bytes.withUnsafeBytes { stored in
            guard let left = stored.baseAddress, let right = other.baseAddress else { return true }
            let count = other.count
            var index = 0
            while index + 8 <= count {
                let a = left.loadUnaligned(fromByteOffset: start + index, as: UInt64.self)
                let b = right.loadUnaligned(fromByteOffset: index, as: UInt64.self)
                if a != b { return false }
                index += 8
            }
            while index < count {
                if left.load(fromByteOffset: start + index, as: UInt8.self)
                    != right.load(fromByteOffset: index, as: UInt8.self)
                {
                    return false
                }
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
    private static func hash(_ bytes: UnsafeRawBufferPointer) -> UInt32 {
        var hash: UInt64 = 0x9E37_79B9_7F4A_7C15 ^ UInt64(bytes.count)
        guard let raw = bytes.baseAddress else { return UInt32(truncatingIfNeeded: hash) }
        let count = bytes.count
        var index = 0
        while index + 8 <= count {
            hash = (hash ^ raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)) &* 0xBF58_476D_1CE4_E5B9
            hash ^= hash >> 31
            index += 8
        }
        var tail: UInt64 = 0
        var shift: UInt64 = 0
        while index < count {
            tail |= UInt64(raw.load(fromByteOffset: index, as: UInt8.self)) << shift
            shift += 8
            index += 1
        }
        hash = (hash ^ tail) &* 0x94D0_49BB_1331_11EB
        hash ^= hash >> 29
        hash &*= 0xBF58_476D_1CE4_E5B9
        return UInt32(truncatingIfNeeded: hash ^ (hash >> 32))
    }
}
