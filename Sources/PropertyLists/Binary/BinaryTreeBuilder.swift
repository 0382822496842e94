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

/// Builds full values from a validated binary property list.
///
/// Each object is decoded once and its value reused wherever it is referenced again, so shared
/// subtrees cost neither time nor memory per reference. String objects with the same bytes share
/// one value too, found through a ``BinaryStringTable``, as writers that do not unique strings store
/// every occurrence of a key anew. A container met again while it is still being built is a cycle
/// and throws.
///
/// The decoded size of each object (see `PropertyListLimits`) is computed once too, counting
/// shared children at every reference; a tree larger than the budget throws, so whoever walks the
/// resulting value (printers, writers, comparisons) does work bounded by the budget, not by the
/// exponential size a "billion laughs" input describes.
///
/// `Slot` is the integer type of the per-object state: `Int32` halves its memory for all but
/// enormous files (see ``BinaryPropertyListLayout/buildValue(at:limits:buffer:)``).
internal struct BinaryTreeBuilder<Slot: FixedWidthInteger & SignedInteger> {
    /// A value kept for reuse: a string, data value or container, with its decoded size.
    private struct Entry {
        /// The value.
        var value: PropertyListValue
        /// Its decoded size, at least `PropertyListLimits.decodedValueSize`.
        var size: Int
    }

    private let buffer: UnsafeBufferPointer<UInt8>
    /// Reads each object: its marker, its bounds and the limits on its length.
    private let reader: InPlaceReader
    private let objectCount: Int
    private let referenceSize: Int
    private let maximumDepth: Int
    private let decodedSizeBudget: Int
    /// Per object: 0 until it is built, ``building`` while a container is being built, then, for
    /// an object worth keeping, its entry in ``entries`` as ``slot(entry:isDistinctASCII:)`` packs it.
    private var slots: [Slot]
    /// The values kept so far; string objects with equal bytes share one.
    private var entries: [Entry] = []
    /// The entry of each distinct string content met so far.
    private var strings: BinaryStringTable
    /// The state of a container being built.
    private static var building: Slot { -1 }
    private var depth = 0
    /// Stops recursion before the thread's stack runs out.
    private var stack = StackGuard()

    /// Creates a builder over a validated file.
    /// - Parameters:
    ///   - reader: A reader of `buffer`, valid while the builder is used.
    ///   - layout: The file's validated layout.
    ///   - limits: The bounds to enforce.
    ///   - buffer: The whole file, which `layout` was validated against.
    init(
        reader: InPlaceReader,
        layout: BinaryPropertyListLayout,
        limits: PropertyListLimits,
        buffer: UnsafeBufferPointer<UInt8>
    ) {
        self.buffer = buffer
        self.reader = reader
        self.objectCount = layout.objectCount
        self.referenceSize = layout.referenceSize
        self.maximumDepth = limits.maximumDepth
        self.decodedSizeBudget = limits.decodedSizeBudget(forInputSize: buffer.count)
        self.slots = [Slot](repeating: 0, count: layout.objectCount)
        // Strings, data and containers need entries, scalars and UIDs do not: room for a quarter
        // of the objects covers typical files without growing, and without reserving much more
        // memory than they use.
        self.entries.reserveCapacity(layout.objectCount / 4)
        self.strings = BinaryStringTable(buffer: buffer, objectCount: layout.objectCount)
    }

    /// The object index stored in the reference at `offset`.
    @inline(__always)
    private func reference(at offset: Int) -> Int {
        Int(truncatingIfNeeded: ObjectHeader.bigEndian(self.buffer, at: offset, width: self.referenceSize))
    }

    /// Builds the value of the object at `index`, reusing the kept value of an object built before.
    /// - Parameters:
    ///   - index: The object.
    ///   - total: A decoded size that the value's decoded size is added to.
    @inline(__always)
    private mutating func child(
        at index: Int,
        addingSizeTo total: inout Int
    ) throws(PropertyListError)
        -> PropertyListValue
    {
        if TableIndex.contains(index, count: self.objectCount), case let slot = self.slots[index], slot > 0 {
            let entry = Self.entry(ofSlot: slot)
            total = Self.adding(self.entries[entry].size, to: total)
            return self.entries[entry].value
        }
        return try self.value(at: index, addingSizeTo: &total)
    }

    /// Builds the value of the object at `index`.
    /// - Parameters:
    ///   - index: The object.
    ///   - total: A decoded size that the value's decoded size is added to.
    mutating func value(at index: Int, addingSizeTo total: inout Int) throws(PropertyListError) -> PropertyListValue {
        // An 8-byte reference of 2^63 or more reads as a negative index.
        guard TableIndex.contains(index, count: self.objectCount) else {
            throw Self.invalidReference(index, objectCount: self.objectCount)
        }
        let slot = self.slots[index]
        if slot > 0 {
            let entry = Self.entry(ofSlot: slot)
            total = Self.adding(self.entries[entry].size, to: total)
            return self.entries[entry].value
        }
        let (header, offset) = try self.reader.header(at: index)
        let value: PropertyListValue
        switch header.kind {
        case .bool(let bool): value = .bool(bool)
        case .integer(let integer): value = .integer(integer)
        case .real(let real): value = .real(real)
        case .float(let float): value = .float(float)
        case .date(let seconds): value = .date(Date(timeIntervalSinceReferenceDate: seconds))
        case .uid(let uid): value = .uid(UID(uid))
        case .data:
            let bytes = UnsafeBufferPointer(rebasing: self.buffer[header.payload..<(header.payload + header.count)])
            let size = PropertyListLimits.decodedValueSize &+ header.count
            return self.keep(.data(Data(buffer: bytes)), size: size, for: index, addingSizeTo: &total)
        case .asciiString, .utf16String:
            let isUTF16: Bool
            if case .utf16String = header.kind { isUTF16 = true } else { isUTF16 = false }
            let byteCount = isUTF16 ? 2 * header.count : header.count
            if byteCount <= BinaryStringTable.shortLength {
                return try self.shortString(
                    index,
                    payload: header.payload,
                    byteCount: byteCount,
                    isUTF16: isUTF16,
                    addingSizeTo: &total
                )
            }
            return try self.longString(
                index,
                payload: header.payload,
                byteCount: byteCount,
                isUTF16: isUTF16,
                addingSizeTo: &total
            )
        case .array:
            return try self.array(index, header, at: offset, addingSizeTo: &total)
        case .dictionary:
            return try self.dictionary(index, header, at: offset, addingSizeTo: &total)
        }
        // Scalars are cheaper to decode again than to keep.
        total = Self.adding(PropertyListLimits.decodedValueSize, to: total)
        return value
    }

    /// Builds a string object of at most `BinaryStringTable.shortLength` bytes at `payload`, or
    /// reuses the value of one with the same bytes.
    @inline(__always)
    private mutating func shortString(
        _ index: Int,
        payload: Int,
        byteCount: Int,
        isUTF16: Bool,
        addingSizeTo total: inout Int
    ) throws(PropertyListError) -> PropertyListValue {
        let content = self.strings.shortContent(start: payload, count: byteCount, isUTF16: isUTF16)
        var position = BinaryStringTable.Position()
        guard let entry = self.strings.entry(for: content, position: &position) else {
            return try self.newShortString(
                index,
                payload: payload,
                content: content,
                isUTF16: isUTF16,
                position: position,
                addingSizeTo: &total
            )
        }
        // The same bytes were decoded, and so validated, before.
        self.slots[index] = Self.slot(entry: entry, isDistinctASCII: !isUTF16)
        total = Self.adding(PropertyListLimits.decodedValueSize &+ byteCount, to: total)
        return self.entries[entry].value
    }

    /// Decodes a short string object whose contents the table did not find, and interns them
    /// where the lookup ended.
    @inline(never)
    private mutating func newShortString(
        _ index: Int,
        payload: Int,
        content: BinaryStringTable.ShortContent,
        isUTF16: Bool,
        position: BinaryStringTable.Position,
        addingSizeTo total: inout Int
    ) throws(PropertyListError) -> PropertyListValue {
        let byteCount = content.count
        let entry = try self.appendString(at: payload, byteCount: byteCount, isUTF16: isUTF16)
        self.strings.insert(content, at: position, entry: entry)
        self.slots[index] = Self.slot(entry: entry, isDistinctASCII: !isUTF16 && position.isAvailable)
        total = Self.adding(PropertyListLimits.decodedValueSize &+ byteCount, to: total)
        return self.entries[entry].value
    }

    /// Builds a string object of more than `BinaryStringTable.shortLength` bytes at `payload`, or
    /// reuses the value of one with the same bytes.
    private mutating func longString(
        _ index: Int,
        payload: Int,
        byteCount: Int,
        isUTF16: Bool,
        addingSizeTo total: inout Int
    ) throws(PropertyListError) -> PropertyListValue {
        var position = BinaryStringTable.Position()
        let entry: Int
        let isInterned: Bool
        if let found = self.strings.entry(start: payload, count: byteCount, isUTF16: isUTF16, position: &position) {
            entry = found
            isInterned = true
        } else {
            entry = try self.appendString(at: payload, byteCount: byteCount, isUTF16: isUTF16)
            isInterned = self.strings.insert(
                start: payload,
                count: byteCount,
                isUTF16: isUTF16,
                at: position,
                entry: entry
            )
        }
        let isDistinctASCII = !isUTF16 && isInterned
        self.slots[index] = Self.slot(entry: entry, isDistinctASCII: isDistinctASCII)
        total = Self.adding(PropertyListLimits.decodedValueSize &+ byteCount, to: total)
        return self.entries[entry].value
    }

    /// Decodes a string's characters into a new entry.
    /// - Returns: The index of the entry.
    private mutating func appendString(at payload: Int, byteCount: Int, isUTF16: Bool) throws(PropertyListError) -> Int
    {
        let string = try ObjectHeader.decodeString(
            self.buffer,
            range: payload..<(payload + byteCount),
            isUTF16: isUTF16
        )
        self.entries.append(Entry(value: .string(string), size: PropertyListLimits.decodedValueSize &+ byteCount))
        return self.entries.count &- 1
    }

    /// Keeps the value of the object at `index` for later references, and adds its size to `total`.
    @inline(__always)
    private mutating func keep(
        _ value: PropertyListValue,
        size: Int,
        for index: Int,
        addingSizeTo total: inout Int
    ) -> PropertyListValue {
        self.entries.append(Entry(value: value, size: size))
        self.slots[index] = Self.slot(entry: self.entries.count &- 1, isDistinctASCII: false)
        total = Self.adding(size, to: total)
        return value
    }

    /// Builds the array object at `index`, whose header is `header`.
    private mutating func array(
        _ index: Int,
        _ header: ObjectHeader,
        at offset: Int,
        addingSizeTo total: inout Int
    ) throws(PropertyListError) -> PropertyListValue {
        try self.enter(index, at: offset)
        var size = PropertyListLimits.decodedValueSize
        var elements = [PropertyListValue]()
        elements.reserveCapacity(header.count)
        var position = header.payload
        for _ in 0..<header.count {
            elements.append(try self.child(at: self.reference(at: position), addingSizeTo: &size))
            position &+= self.referenceSize
        }
        self.depth -= 1
        try self.checkDecodedSize(size, at: offset)
        return self.keep(.array(elements), size: size, for: index, addingSizeTo: &total)
    }

    /// Builds the dictionary object at `index`, whose header is `header`. A repeated key keeps its
    /// first position and its last value.
    private mutating func dictionary(
        _ index: Int,
        _ header: ObjectHeader,
        at offset: Int,
        addingSizeTo total: inout Int
    ) throws(PropertyListError) -> PropertyListValue {
        try self.enter(index, at: offset)
        var size = PropertyListLimits.decodedValueSize
        var entries = ContiguousArray<PropertyListDictionary.StoredEntry>()
        entries.reserveCapacity(header.count)
        var keysAreASCII = header.count <= PropertyListDictionary.hashThreshold
        // One bit per key entry modulo 64: while no bit repeats, no entry does.
        var keyBits: UInt64 = 0
        var bitsRepeat = false
        var keyPosition = header.payload
        var valuePosition = header.payload + header.count * self.referenceSize
        for _ in 0..<header.count {
            let keyIndex = self.reference(at: keyPosition)
            guard case .string(let key) = try self.child(at: keyIndex, addingSizeTo: &size) else {
                throw PropertyListError(
                    .invalidDictionaryKey,
                    offset: offset,
                    reason: "dictionary key (object \(keyIndex)) is not a string"
                )
            }
            if keysAreASCII {
                // Every string object has a slot once built.
                let slot = self.slots[keyIndex]
                if slot & 1 == 1 {
                    let entry = Self.entry(ofSlot: slot)
                    let bit: UInt64 = 1 << (entry & 63)
                    bitsRepeat = bitsRepeat || keyBits & bit != 0
                    keyBits |= bit
                } else {
                    keysAreASCII = false
                }
            }
            entries.append(
                PropertyListDictionary.StoredEntry(
                    key: key,
                    value: try self.child(at: self.reference(at: valuePosition), addingSizeTo: &size)
                )
            )
            keyPosition &+= self.referenceSize
            valuePosition &+= self.referenceSize
        }
        let keysAreDistinct =
            keysAreASCII && (!bitsRepeat || self.keyEntriesAreDistinct(keysAt: header.payload, count: header.count))
        self.depth -= 1
        try self.checkDecodedSize(size, at: offset)
        let dictionary = PropertyListDictionary(readEntries: entries, keysAreDistinct: keysAreDistinct)
        return self.keep(.dictionary(dictionary), size: size, for: index, addingSizeTo: &total)
    }

    /// Whether the `count` keys referenced from `payload`, strings built already whose entries are
    /// distinct ASCII, have pairwise different entries. ASCII strings with different bytes differ,
    /// so this proves the keys distinct without comparing `String`s.
    private func keyEntriesAreDistinct(keysAt payload: Int, count: Int) -> Bool {
        withUnsafeTemporaryAllocation(of: Int.self, capacity: count) { entries in
            for key in 0..<count {
                let entry = Self.entry(ofSlot: self.slots[self.reference(at: payload &+ key &* self.referenceSize)])
                for earlier in 0..<key where entries[earlier] == entry { return false }
                entries.initializeElement(at: key, to: entry)
            }
            return true
        }
    }

    /// Throws once a container's decoded size exceeds the budget.
    @inline(__always)
    private func checkDecodedSize(_ size: Int, at offset: Int) throws(PropertyListError) {
        guard size <= self.decodedSizeBudget else {
            throw Self.decodedSizeExceeded(budget: self.decodedSizeBudget, at: offset)
        }
    }

    /// Starts building the container at `index`, which must not be under construction already.
    @inline(__always)
    private mutating func enter(_ index: Int, at offset: Int) throws(PropertyListError) {
        if self.slots[index] == Self.building {
            throw PropertyListError(
                .cyclicReference,
                offset: offset,
                reason: "object \(index) contains itself"
            )
        }
        self.depth += 1
        if self.depth > self.maximumDepth {
            throw PropertyListError(
                .depthLimitExceeded,
                offset: offset,
                reason: "containers nest deeper than \(self.maximumDepth)"
            )
        }
        if !self.stack.hasRoom() {
            throw PropertyListError(
                .depthLimitExceeded,
                offset: offset,
                reason: "containers nest \(self.depth) deep, more than the thread's stack has room for"
            )
        }
        self.slots[index] = Self.building
    }
}
