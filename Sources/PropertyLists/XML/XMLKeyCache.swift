//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-keyed-archive open source project
//
// Licensed under Apache License v2.0
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// Interns the dictionary keys of one XML document, which repeat from record to record, so each
/// distinct spelling becomes a `String` once.
///
/// It also gives each ASCII key a fingerprint: a function of the key's bytes alone, so keys with
/// different fingerprints are different strings (for ASCII, different bytes are different strings;
/// beyond ASCII, canonical equivalence could make them equal). A fingerprint of 0 means unknown.
/// The table has a fixed number of slots, whatever the input; a key looks at a few neighbouring
/// slots and, if none is free, replaces the first.
struct XMLKeyCache: ~Copyable {
    private struct Slot {
        var hash: UInt64 = 0
        /// The first eight bytes (fewer for a shorter key), little-endian.
        var prefix: UInt64 = 0
        var offset = 0
        var length = -1
        var string = ""
    }

    private static var slotBits: Int { 9 }
    private static var slotCount: Int { 1 << Self.slotBits }
    private static var probes: Int { 4 }

    /// The slots, allocated for the first key.
    private var slots: UnsafeMutablePointer<Slot>?

    init() {}

    deinit {
        if let slots = self.slots {
            slots.deinitialize(count: Self.slotCount)
            slots.deallocate()
        }
    }

    /// The key whose bytes are `range` of `scanner.bytes`, which hold no markup or reference, and
    /// its fingerprint.
    mutating func key(_ range: Range<Int>, in scanner: XMLScanner) -> (key: String, fingerprint: UInt64) {
        let (hash, prefix, isASCII) = Self.hash(scanner, range)
        guard isASCII else { return (String(decoding: scanner.slice(range), as: UTF8.self), 0) }
        let slots: UnsafeMutablePointer<Slot>
        if let existing = self.slots {
            slots = existing
        } else {
            slots = UnsafeMutablePointer<Slot>.allocate(capacity: Self.slotCount)
            slots.initialize(repeating: Slot(), count: Self.slotCount)
            self.slots = slots
        }
        let fingerprint = hash | 1
        let length = range.count
        let home = Int(truncatingIfNeeded: hash >> UInt64(64 - Self.slotBits))
        var target = home
        for probe in 0..<Self.probes {
            let index = (home &+ probe) & (Self.slotCount &- 1)
            let slot = slots + index
            if slot.pointee.length < 0 {
                target = index
                break
            }
            if slot.pointee.hash == hash, slot.pointee.prefix == prefix, slot.pointee.length == length,
                length <= 8 || Self.equal(scanner, slot.pointee.offset &+ 8, range.lowerBound &+ 8, length: length &- 8)
            {
                return (slot.pointee.string, fingerprint)
            }
        }
        let string = String(decoding: scanner.slice(range), as: UTF8.self)
        slots[target] = Slot(hash: hash, prefix: prefix, offset: range.lowerBound, length: length, string: string)
        return (string, fingerprint)
    }

    /// A hash of the bytes in `range`, their first eight, and whether they are all ASCII.
    private static func hash(
        _ scanner: XMLScanner,
        _ range: Range<Int>
    ) -> (hash: UInt64, prefix: UInt64, isASCII: Bool) {
        let multiplier: UInt64 = 0x9E37_79B9_7F4A_7C15
        var hash = UInt64(truncatingIfNeeded: range.count) &* multiplier
        var high: UInt64 = 0
        var prefix: UInt64?
        var index = range.lowerBound
        while range.upperBound &- index >= 8 {
            let word = scanner.word(at: index)
            if prefix == nil { prefix = word }
            high |= word
            hash = (hash ^ word) &* multiplier
            hash ^= hash &>> 29
            index &+= 8
        }
        let remaining = range.upperBound &- index
        if remaining > 0 {
            var word: UInt64 = 0
            if scanner.bytes.count &- index >= 8 {
                word = scanner.word(at: index) & (~0 &>> UInt64(64 &- 8 &* remaining))
            } else {
                for offset in 0..<remaining {
                    word |= UInt64(scanner.bytes[index &+ offset]) << UInt64(8 &* offset)
                }
            }
            if prefix == nil { prefix = word }
            high |= word
            hash = (hash ^ word) &* multiplier
            hash ^= hash &>> 29
        }
        hash = (hash ^ hash &>> 32) &* multiplier
        return (hash, prefix ?? 0, high & 0x8080_8080_8080_8080 == 0)
    }

    /// Whether the `length` bytes at `first` and at `second` are the same.
    private static func equal(_ scanner: XMLScanner, _ first: Int, _ second: Int, length: Int) -> Bool {
        var index = 0
        while length &- index >= 8 {
            guard scanner.word(at: first &+ index) == scanner.word(at: second &+ index) else { return false }
            index &+= 8
        }
        while index < length {
            guard scanner.bytes[first &+ index] == scanner.bytes[second &+ index] else { return false }
            index &+= 1
        }
        return true
    }
}
