//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-keyed-archive open source project
//
// Licensed under Apache License v2.0
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// The distinct string contents a ``BinaryTreeBuilder`` has met, found by their bytes in the input.
///
/// A writer that does not unique strings (Foundation on Linux) stores every occurrence of a key as
/// its own object; this table lets the builder decode each distinct content once and share the
/// `String` after that. Each content maps to a caller-chosen number, its *entry*, so equal entries
/// mean equal bytes and, for ASCII contents, different entries mean different strings.
///
/// Contents of up to ``shortLength`` bytes, which most keys are, live in the slots themselves as
/// two words, so finding one reads neither the input nor a second array. The hash is not seeded,
/// so a probe gives up after ``maximumProbes`` slots: a hostile input can make interning fail, and
/// then cost a fresh string, but never quadratic time.
internal struct BinaryStringTable {
    /// Short contents packed into two words with their length and encoding, so that equal
    /// packings mean equal contents.
    internal struct ShortContent {
        /// The first eight bytes, as a little-endian load reads them, zero-padded.
        fileprivate var head: UInt64 = 0
        /// The bytes after the first eight, zero-padded, with the length in the top byte and the
        /// encoding in its top bit.
        fileprivate var tail: UInt64 = 0

        /// The number of bytes.
        var count: Int { Int(truncatingIfNeeded: self.tail >> 56 & 0x7F) }
    }

    /// One slot of short contents.
    private struct ShortSlot {
        /// The contents.
        var content = ShortContent()
        /// The number the caller gave the content, plus one; 0 for an empty slot.
        var entry = 0
    }

    /// One interned longer content: where its bytes are and which entry holds its value.
    private struct Content {
        /// The offset of the first byte in the input.
        var start: Int
        /// The number of bytes.
        var count: Int
        /// The number the caller gave the content.
        var entry: Int
        /// Whether the bytes are UTF-16BE code units rather than ASCII.
        var isUTF16: Bool
    }

    /// Where a failed lookup ended, for the insertion that follows it.
    internal struct Position {
        /// The empty slot found, or -1 when probing gave up and the contents cannot be interned.
        fileprivate var slot = -1
        /// The hash of longer contents.
        fileprivate var hash: UInt64 = 0

        /// Creates a position for a lookup to fill in.
        init() {}

        /// Whether the contents can be interned here.
        var isAvailable: Bool { self.slot >= 0 }
    }

    /// The longest probe sequence tried before giving up.
    private static var maximumProbes: Int { 64 }

    /// The longest contents kept in short slots: 15 bytes leave the top byte of
    /// ``ShortContent/tail`` for the length.
    internal static var shortLength: Int { 15 }

    private let buffer: UnsafeBufferPointer<UInt8>
    /// Open-addressed slots for contents of at most ``shortLength`` bytes.
    private var shortSlots: [ShortSlot]
    private var shortCount = 0
    /// The longer contents, found through ``slots``.
    private var contents: [Content] = []
    /// Open-addressed slots for longer contents: the content's hash in the high 32 bits and its
    /// index + 1 in the low 32 bits, or 0 when empty.
    private var slots: [UInt64]
    /// The lookups of longer contents so far.
    private var longLookups = 0
    /// The lookups of longer contents that found them.
    private var longHits = 0

    /// Creates an empty table over the input, sized for a file of `objectCount` objects.
    init(buffer: UnsafeBufferPointer<UInt8>, objectCount: Int) {
        self.buffer = buffer
        // Room for nearly a fifth of the objects as short strings and as many longer ones before
        // the first growth, within bounds (384 and 256 KiB); the tables double when three
        // quarters full, and rehashing is costly enough to size them for most files at once.
        self.shortSlots = [ShortSlot](repeating: ShortSlot(), count: Self.capacity(for: objectCount / 4, most: 16_384))
        self.slots = [UInt64](repeating: 0, count: Self.capacity(for: objectCount / 4, most: 32_768))
    }

    /// A power of two at least `wanted`, from 64 to `most`.
    private static func capacity(for wanted: Int, most: Int) -> Int {
        var capacity = 64
        while capacity < wanted, capacity < most { capacity *= 2 }
        return capacity
    }

    /// Packs the `count` (at most ``shortLength``) bytes at `start`.
    /// - Precondition: `start..<start + count` lies within the input.
    @inline(__always)
    func shortContent(start: Int, count: Int, isUTF16: Bool) -> ShortContent {
        let bytes = UnsafeRawBufferPointer(self.buffer)
        var head: UInt64 = 0
        var tail: UInt64 = 0
        if start + 16 <= bytes.count {
            // Whole words, then the bytes past `count` masked off. The trailer alone keeps 32 bytes
            // after any object, so this is the usual case.
            head = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: start, as: UInt64.self))
            tail = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: start + 8, as: UInt64.self))
            if count < 8 {
                head &= (1 << (8 * UInt64(count))) &- 1
                tail = 0
            } else {
                tail &= (1 << (8 * UInt64(count - 8))) &- 1
            }
        } else {
            for index in 0..<count {
                let byte = UInt64(bytes[start + index])
                if index < 8 { head |= byte << (8 * UInt64(index)) } else { tail |= byte << (8 * UInt64(index - 8)) }
            }
        }
        tail |= UInt64(count) << 56 | (isUTF16 ? 1 << 63 : 0)
        return ShortContent(head: head, tail: tail)
    }

    /// The entry of short contents, or `nil` with `position` set for ``insert(_:at:entry:)``.
    @inline(__always)
    func entry(for content: ShortContent, position: inout Position) -> Int? {
        let mask = self.shortSlots.count - 1
        var slot = Int(truncatingIfNeeded: Self.hash(content)) & mask
        return self.shortSlots.withUnsafeBufferPointer { slots in
            for _ in 0..<Self.maximumProbes {
                let stored = slots[slot]
                if stored.entry == 0 {
                    position.slot = slot
                    return nil
                }
                if stored.content.head == content.head, stored.content.tail == content.tail {
                    return stored.entry &- 1
                }
                slot = (slot + 1) & mask
            }
            return nil
        }
    }

    /// Interns short contents that ``entry(for:position:)`` did not find, as `entry`.
    mutating func insert(_ content: ShortContent, at position: Position, entry: Int) {
        guard position.isAvailable else { return }
        self.shortSlots[position.slot] = ShortSlot(content: content, entry: entry + 1)
        self.shortCount += 1
        if self.shortCount * 4 > self.shortSlots.count * 3 { self.growShort() }
    }

    /// The entry of the `count` bytes at `start`, or `nil` with `position` set for
    /// ``insert(start:count:isUTF16:at:entry:)``.
    ///
    /// A writer that stores each string once never repeats longer contents, and then looking them
    /// up is only cost: once 1,024 lookups have found fewer than one in sixteen, longer contents
    /// are neither looked up nor interned any more.
    /// - Precondition: `start..<start + count` lies within the input.
    mutating func entry(start: Int, count: Int, isUTF16: Bool, position: inout Position) -> Int? {
        guard self.longLookups < 1024 || self.longHits &* 16 >= self.longLookups else { return nil }
        self.longLookups &+= 1
        let bytes = UnsafeRawBufferPointer(self.buffer)
        let hash = Self.hash(bytes, start: start, count: count, isUTF16: isUTF16)
        let mask = self.slots.count - 1
        var slot = Int(truncatingIfNeeded: hash) & mask
        for _ in 0..<Self.maximumProbes {
            let stored = self.slots[slot]
            if stored == 0 {
                position.slot = slot
                position.hash = UInt64(hash)
                return nil
            }
            if UInt32(truncatingIfNeeded: stored >> 32) == hash {
                let content = self.contents[Int(truncatingIfNeeded: stored & 0xFFFF_FFFF) - 1]
                if content.count == count, content.isUTF16 == isUTF16,
                    Self.equal(bytes, content.start, start, count: count)
                {
                    self.longHits &+= 1
                    return content.entry
                }
            }
            slot = (slot + 1) & mask
        }
        return nil
    }

    /// Interns the `count` bytes at `start`, which ``entry(start:count:isUTF16:position:)`` did
    /// not find, as `entry`.
    /// - Returns: Whether the contents were interned.
    @discardableResult
    mutating func insert(start: Int, count: Int, isUTF16: Bool, at position: Position, entry: Int) -> Bool {
        // Slots keep a 32-bit index; past that many contents, new ones are simply not interned.
        guard position.isAvailable, self.contents.count < Int(UInt32.max) - 1 else { return false }
        self.contents.append(Content(start: start, count: count, entry: entry, isUTF16: isUTF16))
        self.slots[position.slot] = position.hash << 32 | UInt64(self.contents.count)
        if self.contents.count * 4 > self.slots.count * 3 { self.grow() }
        return true
    }

    private mutating func grow() {
        var slots = [UInt64](repeating: 0, count: self.slots.count * 2)
        let mask = slots.count - 1
        for stored in self.slots where stored != 0 {
            var slot = Int(truncatingIfNeeded: stored >> 32) & mask
            while slots[slot] != 0 { slot = (slot + 1) & mask }
            slots[slot] = stored
        }
        self.slots = slots
    }

    private mutating func growShort() {
        var slots = [ShortSlot](repeating: ShortSlot(), count: self.shortSlots.count * 2)
        let mask = slots.count - 1
        for stored in self.shortSlots where stored.entry != 0 {
            var slot = Int(truncatingIfNeeded: Self.hash(stored.content)) & mask
            while slots[slot].entry != 0 { slot = (slot + 1) & mask }
            slots[slot] = stored
        }
        self.shortSlots = slots
    }

    /// A hash of packed short contents.
    @inline(__always)
    private static func hash(_ content: ShortContent) -> UInt64 {
        var hash = (content.head ^ (content.tail &* 0x9E37_79B9_7F4A_7C15)) &* 0xBF58_476D_1CE4_E5B9
        hash ^= hash >> 29
        return hash
    }

    /// Whether the `count` bytes at `lhs` and at `rhs` are equal, compared eight at a time.
    @inline(__always)
    private static func equal(_ bytes: UnsafeRawBufferPointer, _ lhs: Int, _ rhs: Int, count: Int) -> Bool {
        var offset = 0
        while offset + 8 <= count {
            if bytes.loadUnaligned(fromByteOffset: lhs + offset, as: UInt64.self)
                != bytes.loadUnaligned(fromByteOffset: rhs + offset, as: UInt64.self)
            {
                return false
            }
            offset += 8
        }
        while offset < count {
            if bytes[lhs + offset] != bytes[rhs + offset] { return false }
            offset += 1
        }
        return true
    }

    /// A fast, non-cryptographic hash of the `count` bytes at `start`: eight at a time, multiplied
    /// and folded.
    private static func hash(_ bytes: UnsafeRawBufferPointer, start: Int, count: Int, isUTF16: Bool) -> UInt32 {
        var hash: UInt64 = 0x9E37_79B9_7F4A_7C15 ^ UInt64(truncatingIfNeeded: count) ^ (isUTF16 ? 0x8000 : 0)
        var offset = start
        let end = start + count
        while offset + 8 <= end {
            hash = (hash ^ bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self)) &* 0xBF58_476D_1CE4_E5B9
            hash ^= hash >> 31
            offset += 8
        }
        var tail: UInt64 = 0
        if offset + 4 <= end {
            tail = UInt64(bytes.loadUnaligned(fromByteOffset: offset, as: UInt32.self))
            offset += 4
        }
        while offset < end {
            tail = tail << 8 | UInt64(bytes[offset])
            offset += 1
        }
        hash = (hash ^ tail) &* 0x94D0_49BB_1331_11EB
        hash ^= hash >> 29
        hash &*= 0xBF58_476D_1CE4_E5B9
        return UInt32(truncatingIfNeeded: hash ^ (hash >> 32))
    }
}
