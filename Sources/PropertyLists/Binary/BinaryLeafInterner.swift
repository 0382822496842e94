//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-keyed-archive open source project
//
// Licensed under Apache License v2.0
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// Finds equal leaf objects of a binary property list by their contents in the input, without
/// building a `String` or `Data` for them.
///
/// Leaves are equal as ``PropertyListValue`` leaves are: same kind, and the same integer value,
/// the same bits of a real or date, the same bytes of data, the same UID, or the same UTF-16 code
/// units of a string, whether the input stored it as ASCII or as UTF-16 (an unpaired surrogate
/// reads as U+FFFD, as ``BinaryPropertyListReader/string(_:)`` decodes it). Unlike `String`
/// equality, strings that are only canonically equivalent stay distinct.
internal struct BinaryLeafInterner {
    /// A leaf's contents: its kind and its payload, in 16 bytes.
    struct Leaf {
        enum Kind: UInt8 {
            case bool, integer, real, float, date, uid, data, asciiString, utf16String
        }

        /// The payload of fixed-size kinds (the Boolean, the integer's bits, the real's or date's
        /// bits, the UID), or for data and strings the byte range in the input: start in the high
        /// 32 bits, length in the low 32.
        var scalar: UInt64
        var kind: Kind
        /// Whether an integer is negative, so `-1` and `UInt64.max` stay apart.
        var isNegative = false

        /// A fixed-size leaf.
        init(kind: Kind, scalar: UInt64, isNegative: Bool = false) {
            self.kind = kind
            self.scalar = scalar
            self.isNegative = isNegative
        }

        /// A data or string leaf at `range` of an input no larger than 4 GiB.
        init(kind: Kind, range: Range<Int>) {
            self.kind = kind
            self.scalar = UInt64(range.lowerBound) << 32 | UInt64(range.count)
        }

        /// The byte range of data or string contents.
        var range: Range<Int> {
            let start = Int(self.scalar >> 32)
            return start..<(start + Int(self.scalar & 0xFFFF_FFFF))
        }
    }

    private let buffer: UnsafeBufferPointer<UInt8>
    /// Open-addressed slots holding `value + 1`, or 0 when empty.
    private var slots: [UInt32]
    private var leaves: [Leaf] = []
    /// The low 32 bits of each leaf's hash, which also place it in ``slots``.
    private var hashes: [UInt32] = []
    /// The caller's number for each leaf, in the order leaves were first met.
    private var values: [UInt32] = []

    init(buffer: UnsafeBufferPointer<UInt8>) {
        self.buffer = buffer
        self.slots = [UInt32](repeating: 0, count: 1024)
    }

    /// Returns the number stored for a leaf equal to `leaf` and `false`; or, when there is none,
    /// stores `candidate` for `leaf` and returns it and `true`.
    mutating func intern(_ leaf: Leaf, candidate: UInt32) -> (value: UInt32, inserted: Bool) {
        let hash = UInt32(truncatingIfNeeded: self.hash(leaf))
        let mask = self.slots.count - 1
        var slot = Int(truncatingIfNeeded: hash) & mask
        while true {
            let stored = self.slots[slot]
            if stored == 0 { break }
            let position = Int(stored - 1)
            if self.hashes[position] == hash, self.equal(self.leaves[position], leaf) {
                return (self.values[position], false)
            }
            slot = (slot + 1) & mask
        }
        self.leaves.append(leaf)
        self.hashes.append(hash)
        self.values.append(candidate)
        self.slots[slot] = UInt32(truncatingIfNeeded: self.leaves.count)
        if self.leaves.count * 2 > self.slots.count { self.grow() }
        return (candidate, true)
    }

    private mutating func grow() {
        var slots = [UInt32](repeating: 0, count: self.slots.count * 2)
        let mask = slots.count - 1
        for (position, hash) in self.hashes.enumerated() {
            var slot = Int(truncatingIfNeeded: hash) & mask
            while slots[slot] != 0 { slot = (slot + 1) & mask }
            slots[slot] = UInt32(truncatingIfNeeded: position + 1)
        }
        self.slots = slots
    }

    // MARK: - Contents

    /// FNV-1a over the kind and the contents, then mixed so that the low bits pick slots well.
    private func hash(_ leaf: Leaf) -> UInt64 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        @inline(__always) func mix(_ value: UInt64) {
            hash = (hash ^ value) &* 0x0000_0100_0000_01B3
        }
        switch leaf.kind {
        case .asciiString, .utf16String:
            mix(0xFF)
            self.forEachUnit(of: leaf) { mix(UInt64($0)) }
        case .data:
            mix(UInt64(leaf.kind.rawValue))
            for index in leaf.range { mix(UInt64(self.buffer[index])) }
        default:
            mix(UInt64(leaf.kind.rawValue) | (leaf.isNegative ? 0x100 : 0))
            mix(leaf.scalar)
        }
        hash ^= hash >> 29
        hash &*= 0xBF58_476D_1CE4_E5B9
        return hash ^ (hash >> 32)
    }

    private func equal(_ lhs: Leaf, _ rhs: Leaf) -> Bool {
        switch (lhs.kind, rhs.kind) {
        case (.asciiString, .asciiString), (.data, .data):
            return lhs.range.count == rhs.range.count
                && (lhs.range == rhs.range || self.buffer[lhs.range].elementsEqual(self.buffer[rhs.range]))
        case (.utf16String, .utf16String):
            if lhs.range.count == rhs.range.count
                && (lhs.range == rhs.range || self.buffer[lhs.range].elementsEqual(self.buffer[rhs.range]))
            {
                return true
            }
            // Different bytes can still read the same when an unpaired surrogate becomes U+FFFD.
            fallthrough
        case (.asciiString, .utf16String), (.utf16String, .asciiString):
            var left: [UInt16] = []
            var right: [UInt16] = []
            self.forEachUnit(of: lhs) { left.append($0) }
            self.forEachUnit(of: rhs) { right.append($0) }
            return left == right
        default:
            return lhs.kind == rhs.kind && lhs.scalar == rhs.scalar && lhs.isNegative == rhs.isNegative
        }
    }

    /// Calls `body` with each UTF-16 code unit of a string leaf as a `String` would hold it:
    /// ASCII bytes widened, UTF-16BE units read, and an unpaired surrogate replaced by U+FFFD.
    func forEachUnit(of leaf: Leaf, _ body: (UInt16) -> Void) {
        Self.forEachUnit(in: self.buffer, range: leaf.range, isUTF16: leaf.kind == .utf16String, body)
    }

    /// Calls `body` with each UTF-16 code unit of the string contents at `range`, as
    /// ``forEachUnit(of:_:)`` does.
    static func forEachUnit(
        in buffer: UnsafeBufferPointer<UInt8>,
        range: Range<Int>,
        isUTF16: Bool,
        _ body: (UInt16) -> Void
    ) {
        guard isUTF16 else {
            for index in range { body(UInt16(buffer[index])) }
            return
        }
        let units = range.count / 2
        @inline(__always) func unit(_ at: Int) -> UInt16 {
            UInt16(buffer[range.lowerBound + 2 * at]) << 8 | UInt16(buffer[range.lowerBound + 2 * at + 1])
        }
        var index = 0
        while index < units {
            let current = unit(index)
            index += 1
            guard current >= 0xD800, current < 0xE000 else {
                body(current)
                continue
            }
            if current < 0xDC00, index < units, case let low = unit(index), low >= 0xDC00, low < 0xE000 {
                body(current)
                body(low)
                index += 1
            } else {
                body(0xFFFD)
            }
        }
    }
}
