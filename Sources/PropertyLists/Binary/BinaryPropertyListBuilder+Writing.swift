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

/// The object list of a ``BinaryPropertyListBuilder`` being written, in CoreFoundation's order.
///
/// Mirrors the tree writer's numbering: a container before its contents, a dictionary's keys
/// before its values, and leaves shared when equal: strings by canonical id, numbers, Booleans and
/// UIDs by kind and bits, data by id.
///
/// Every item is usually added once (a shared run of keys once per dictionary that shares it), so
/// the reference buffer is allocated at its final size (and grown only for containers that share
/// contents); the entry buffer, one per object, starts at no
/// more than ``initialEntryLimit`` entries and grows. Both are plain pointers, so that filling them
/// costs no uniqueness checks. They come from the builder's ``BinaryNumberingStorage`` and
/// ``release()`` gives them back.
internal struct BinaryBuilderNumbering: ~Copyable {
    typealias Value = BinaryPropertyListBuilder.Value

    private let items: [Value]
    private let strings: BinaryStringPool
    /// Whether strings are shared by canonical id (else by id: their bytes).
    private let mergesEquivalentStrings: Bool
    private let data: BinaryByteRunTable

    /// The objects in file order: leaves as they are, containers with their payload pointing at
    /// their references in ``references``.
    private var entries: UnsafeMutableBufferPointer<Value>
    private var entryCount = 0
    private var references: UnsafeMutableBufferPointer<UInt32>
    private var referenceCount = 0
    /// Object indexes by canonical string id (-1 = none yet).
    private let stringIndexes: UnsafeMutableBufferPointer<Int32>
    /// Object indexes by data id (-1 = none yet).
    private let dataIndexes: UnsafeMutableBufferPointer<Int32>
    /// Where the buffers come from and go back to.
    private let storage: BinaryNumberingStorage
    /// Object indexes of UIDs below ``directLimit``, by UID (-1 = none yet); grown on demand.
    private var uidIndexes: UnsafeMutableBufferPointer<Int32>
    /// Object indexes of every other fixed-size leaf.
    private var scalars: BinaryScalarTable
    /// An upper bound of the bytes the leaves and container markers take.
    private var objectBytes = 0
    /// Runs of shared keys already numbered, by their start in the items (modulo the slot count):
    /// where in ``references`` the first dictionary that shared the run has its keys' references,
    /// which every later one repeats. On the stack: see ``withNumbering(of:uidCount:_:)``.
    private let keyRuns: UnsafeMutableBufferPointer<KeyRun>

    /// A numbered run of shared keys: `count` keys from item `keys`, whose references are at
    /// `references`.
    struct KeyRun {
        var keys: UInt32
        var count: UInt32
        var references: Int
    }

    /// The number of ``keyRuns`` slots: more than the types of a usual archive, and few enough
    /// for the stack (1 KiB).
    private static var keyRunSlots: Int { 64 }

    /// The most entries allocated before any is added (16 MiB): a file has far fewer objects than
    /// its builder has items (leaves repeat), and a larger buffer would be mapped afresh by
    /// `malloc` for every file instead of reused; past it, the buffer grows.
    private static var initialEntryLimit: Int { 1 << 20 }

    /// UIDs up to this are looked up by position; larger ones through ``scalars``.
    private static let directLimit: UInt64 = 1 << 24

    /// - Parameters:
    ///   - builder: The values to write.
    ///   - uidCount: How many UIDs, from 0, the values likely hold, to size the UID index.
    private init(builder: BinaryPropertyListBuilder, uidCount: Int, keyRuns: UnsafeMutableBufferPointer<KeyRun>) {
        self.items = builder.items
        self.strings = builder.strings
        self.mergesEquivalentStrings = builder.mergesEquivalentStrings
        self.data = builder.data
        let storage = builder.numberingStorage
        self.storage = storage
        self.entries = BinaryNumberingStorage.take(
            &storage.entries,
            count: min(builder.items.count + 1, Self.initialEntryLimit)
        )
        self.references = BinaryNumberingStorage.take(
            &storage.references,
            count: builder.items.count + builder.sharedKeyCount
        )
        // The indexes are read only below these counts, so only those are set, even in a larger
        // kept buffer.
        self.stringIndexes = Self.takeIndexes(&storage.stringIndexes, count: builder.strings.count)
        self.dataIndexes = Self.takeIndexes(&storage.dataIndexes, count: builder.data.count)
        self.uidIndexes = Self.takeIndexes(&storage.uidIndexes, count: max(uidCount, 64))
        self.scalars = storage.scalars.take() ?? BinaryScalarTable()
        self.scalars.removeAll()
        self.keyRuns = keyRuns
        // No run starts at the last item with a key after it.
        self.keyRuns.initialize(repeating: KeyRun(keys: .max, count: 0, references: 0))
    }

    /// The first `count` or more elements of a kept or new index buffer, set to -1: `count`
    /// rounded up to a power of two (64 at least), so that files of about the same size find the
    /// kept buffer large enough instead of each allocating one a little larger.
    private static func takeIndexes(
        _ kept: inout UnsafeMutableBufferPointer<Int32>,
        count: Int
    ) -> UnsafeMutableBufferPointer<Int32> {
        let rounded = count <= 64 ? 64 : 1 << (Int.bitWidth - (count - 1).leadingZeroBitCount)
        let taken = BinaryNumberingStorage.take(&kept, count: rounded)
        let buffer = UnsafeMutableBufferPointer(rebasing: taken[0..<rounded])
        buffer.initialize(repeating: -1)
        return buffer
    }

    /// Gives the buffers back to the builder's storage for its next file.
    consuming func release() {
        BinaryNumberingStorage.keep(self.entries, in: &self.storage.entries)
        BinaryNumberingStorage.keep(self.references, in: &self.storage.references)
        BinaryNumberingStorage.keep(self.stringIndexes, in: &self.storage.stringIndexes)
        BinaryNumberingStorage.keep(self.dataIndexes, in: &self.storage.dataIndexes)
        BinaryNumberingStorage.keep(self.uidIndexes, in: &self.storage.uidIndexes)
        // The offsets, kept apart, are one per entry: the entries' buffer bounds them.
        self.storage.capacity = max(
            self.entries.count,
            self.references.count,
            self.stringIndexes.count,
            self.dataIndexes.count,
            self.uidIndexes.count,
            self.scalars.capacity
        )
        self.storage.scalars = .some(self.scalars)
    }

    /// Runs `body` with a numbering of `builder`'s values, whose buffers go back to the builder's
    /// storage when `body` returns.
    /// - Parameter uidCount: How many UIDs, from 0, the values likely hold, to size the UID index.
    static func withNumbering<Result>(
        of builder: BinaryPropertyListBuilder,
        uidCount: Int,
        _ body: (inout Self) -> Result
    ) -> Result {
        withUnsafeTemporaryAllocation(of: KeyRun.self, capacity: Self.keyRunSlots) { keyRuns in
            var numbering = Self(builder: builder, uidCount: uidCount, keyRuns: keyRuns)
            let result = body(&numbering)
            numbering.release()
            return result
        }
    }

    /// Adds `value` and its descendants; returns the index of `value`.
    mutating func add(_ value: Value) -> UInt32 {
        let items = self.items
        let canonicalIDs = self.strings.canonicalIDs
        return items.withUnsafeBufferPointer { items in
            canonicalIDs.withUnsafeBufferPointer { canonicalIDs in
                self.add(value, items: items, canonicalIDs: canonicalIDs)
            }
        }
    }

    /// Adds `value` and its descendants, reading the items and canonical string ids through
    /// buffers (no array checks or reloads in the loop); returns the index of `value`.
    private mutating func add(
        _ value: Value,
        items: UnsafeBufferPointer<Value>,
        canonicalIDs: UnsafeBufferPointer<UInt32>
    ) -> UInt32 {
        guard value.kind.isContainer else {
            return self.addLeaf(value, canonicalIDs: canonicalIDs)
        }
        let count = value.kind == .array ? Int(value.count) : 2 * Int(value.count)
        let start = self.referenceCount
        if start + count > self.references.count { Self.grow(&self.references, toHold: start + count) }
        let kind: Value.Kind = value.kind == .array ? .array : .dictionary
        let index = self.appendEntry(Value(kind: kind, payload: UInt64(start), count: value.count))
        self.referenceCount += count
        self.objectBytes += 10
        var position = start
        // The contents in one run, or two for a dictionary whose keys are shared. Shared keys
        // numbered before are not looked up again: their references are those of the first
        // dictionary that shared them.
        var run: Range<Int>
        var nextRun: Range<Int> = 0..<0
        var keyRunSlot = -1
        if value.kind == .sharedKeysDictionary {
            let (keys, values) = BinaryPropertyListBuilder.dictionaryRuns(of: value)
            let keyCount = Int(value.count)
            let slot = keys & (Self.keyRunSlots - 1)
            let known = self.keyRuns[slot]
            if Int(known.keys) == keys, Int(known.count) == keyCount {
                let source = UnsafeMutableBufferPointer(
                    rebasing: self.references[known.references..<(known.references + keyCount)]
                )
                _ = UnsafeMutableBufferPointer(rebasing: self.references[start..<(start + keyCount)]).update(
                    fromContentsOf: source
                )
                position += keyCount
                run = values..<(values + keyCount)
            } else {
                run = keys..<(keys + keyCount)
                nextRun = values..<(values + keyCount)
                keyRunSlot = slot
            }
        } else {
            run = Int(value.payload)..<(Int(value.payload) + count)
        }
        while true {
            for item in items[run] {
                // Leaves, the usual case, without a call.
                let reference =
                    item.kind.isContainer
                    ? self.add(item, items: items, canonicalIDs: canonicalIDs)
                    : self.addLeaf(item, canonicalIDs: canonicalIDs)
                // Read afresh: adding a nested container may have grown the buffer.
                self.references[position] = reference
                position += 1
            }
            if nextRun.isEmpty { break }
            // Shared keys are strings, numbered once each: the next dictionary that shares them
            // repeats these references.
            if keyRunSlot >= 0 {
                self.keyRuns[keyRunSlot] = KeyRun(
                    keys: UInt32(truncatingIfNeeded: run.lowerBound),
                    count: UInt32(truncatingIfNeeded: run.count),
                    references: start
                )
            }
            (run, nextRun) = (nextRun, 0..<0)
        }
        return index
    }

    /// Adds a leaf, or finds the equal one added before; returns its index.
    @inline(__always)
    private mutating func addLeaf(_ value: Value, canonicalIDs: UnsafeBufferPointer<UInt32>) -> UInt32 {
        switch value.kind {
        case .string:
            let canonical = self.mergesEquivalentStrings ? Int(canonicalIDs[Int(value.payload)]) : Int(value.payload)
            let existing = self.stringIndexes[canonical]
            if existing >= 0 { return UInt32(existing) }
            return self.addString(value, canonical: canonical)
        case .uid where value.payload < Self.directLimit:
            let uid = Int(value.payload)
            if uid >= self.uidIndexes.count { self.growUIDIndexes(toHold: uid + 1) }
            let existing = self.uidIndexes[uid]
            if existing >= 0 { return UInt32(existing) }
            let index = self.appendEntry(value)
            self.uidIndexes[uid] = Int32(bitPattern: index)
            self.objectBytes += 9
            return index
        case .data:
            return self.addData(value)
        default:
            return self.addScalar(value)
        }
    }

    private mutating func addString(_ value: Value, canonical: Int) -> UInt32 {
        let index = self.appendEntry(value)
        self.stringIndexes[canonical] = Int32(bitPattern: index)
        let utf8Count = self.strings.utf8Count(of: UInt32(truncatingIfNeeded: value.payload))
        self.objectBytes += 10 + 2 * utf8Count
        return index
    }

    private mutating func addData(_ value: Value) -> UInt32 {
        let id = Int(value.payload)
        let existing = self.dataIndexes[id]
        if existing >= 0 { return UInt32(existing) }
        let index = self.appendEntry(value)
        self.dataIndexes[id] = Int32(bitPattern: index)
        self.objectBytes += 10 + self.data.byteCount(of: UInt32(truncatingIfNeeded: id))
        return index
    }

    private mutating func addScalar(_ value: Value) -> UInt32 {
        let next = UInt32(truncatingIfNeeded: self.entryCount)
        if let existing = self.scalars.value(kind: value.kind.rawValue, bits: value.payload, insertingIfAbsent: next) {
            return existing
        }
        self.objectBytes += 17
        return self.appendEntry(value)
    }

    @inline(__always)
    private mutating func appendEntry(_ value: Value) -> UInt32 {
        let index = self.entryCount
        if index >= self.entries.count { Self.grow(&self.entries, toHold: index + 1) }
        self.entries[index] = value
        self.entryCount += 1
        return UInt32(truncatingIfNeeded: index)
    }

    @inline(never)
    private mutating func growUIDIndexes(toHold count: Int) {
        let larger = UnsafeMutableBufferPointer<Int32>.allocate(capacity: max(count, 2 * self.uidIndexes.count))
        _ = larger.initialize(fromContentsOf: self.uidIndexes)
        larger[self.uidIndexes.count...].initialize(repeating: -1)
        self.uidIndexes.deallocate()
        self.uidIndexes = larger
    }

    /// Moves a buffer's elements to one at least twice as large.
    @inline(never)
    private static func grow<T>(_ buffer: inout UnsafeMutableBufferPointer<T>, toHold count: Int) {
        let larger = UnsafeMutableBufferPointer<T>.allocate(capacity: max(count, 2 * buffer.count))
        _ = larger.moveInitialize(fromContentsOf: buffer)
        buffer.deallocate()
        buffer = larger
    }

    /// The file's size at most: what the buffer passed to ``encode(into:)`` must hold.
    var capacity: Int {
        let referenceSize = BinaryOutput.width(forMaximum: UInt64(self.entryCount))
        return 8 + self.objectBytes + self.referenceCount * referenceSize + self.entryCount * 8 + 32
    }

    /// Writes the file into a buffer of at least ``capacity`` bytes.
    /// - Returns: The number of bytes written.
    func encode(into buffer: UnsafeMutableBufferPointer<UInt8>) -> Int {
        let referenceSize = BinaryOutput.width(forMaximum: UInt64(self.entryCount))
        let offsets = BinaryNumberingStorage.take(&self.storage.offsets, count: self.entryCount)
        defer { BinaryNumberingStorage.keep(offsets, in: &self.storage.offsets) }
        var out = BinaryBufferOutput(buffer: buffer)
        for byte in BinaryPropertyListMagic.header { out.append(byte) }
        self.strings.withUTF8View { strings in
            self.data.withView { data in
                for position in 0..<self.entryCount {
                    offsets[position] = out.count
                    self.write(
                        self.entries[position],
                        referenceSize: referenceSize,
                        strings: strings,
                        data: data,
                        to: &out
                    )
                }
            }
        }
        let tableOffset = out.count
        let offsetSize = BinaryOutput.width(forMaximum: UInt64(tableOffset))
        out.appendBigEndian(contentsOf: UnsafeBufferPointer(rebasing: offsets[0..<self.entryCount]), width: offsetSize)
        // Trailer: five unused bytes, the sort version, the two widths, then three 64-bit fields.
        for _ in 0..<6 { out.append(0) }
        out.append(UInt8(offsetSize))
        out.append(UInt8(referenceSize))
        out.appendBigEndian(UInt64(self.entryCount), width: 8)
        out.appendBigEndian(0, width: 8)
        out.appendBigEndian(UInt64(tableOffset), width: 8)
        return out.count
    }

    /// Writes the file in chunks: each time about `chunkSize` bytes are collected they go to
    /// `flush`, and the rest is returned (everything, with no `flush`). The bytes are those
    /// ``encode(into:)`` writes.
    func encode(chunkSize: Int, flush: (([UInt8]) -> Void)?) -> [UInt8] {
        let referenceSize = BinaryOutput.width(forMaximum: UInt64(self.entryCount))
        var out = BinaryOutput(objectCount: self.entryCount, chunkSize: chunkSize, flush: flush)
        var offsets: [UInt64] = []
        offsets.reserveCapacity(self.entryCount)
        self.strings.withUTF8View { strings in
            self.data.withView { data in
                for position in 0..<self.entryCount {
                    offsets.append(UInt64(out.position))
                    self.write(
                        self.entries[position],
                        referenceSize: referenceSize,
                        strings: strings,
                        data: data,
                        to: &out
                    )
                    out.flushIfFull()
                }
            }
        }
        out.appendOffsetTableAndTrailer(offsets, objectCount: self.entryCount, referenceSize: referenceSize)
        return out.bytes
    }

    @inline(__always)
    private func write<Output: BinaryObjectOutput>(
        _ entry: Value,
        referenceSize: Int,
        strings: BinaryByteRunTable.View,
        data: BinaryByteRunTable.View,
        to out: inout Output
    ) {
        switch entry.kind {
        case .array, .dictionary, .sharedKeysDictionary:
            let count = Int(entry.count)
            out.appendMarker(entry.kind == .array ? 0xA0 : 0xD0, count: count)
            let start = Int(entry.payload)
            let end = start + (entry.kind == .array ? count : 2 * count)
            out.appendBigEndian(
                contentsOf: UnsafeBufferPointer(rebasing: self.references[start..<end]),
                width: referenceSize
            )
        case .string:
            let id = UInt32(truncatingIfNeeded: entry.payload)
            if self.strings.isASCII(id) {
                let utf8 = strings.bytes(of: id)
                out.appendMarker(0x50, count: utf8.count)
                out.append(contentsOf: utf8.assumingMemoryBound(to: UInt8.self))
            } else {
                let units = self.strings.strings[Int(id)].utf16
                out.appendMarker(0x60, count: units.count)
                for unit in units { out.appendBigEndian(UInt64(unit), width: 2) }
            }
        case .integer:
            out.appendUnsigned(entry.payload)
        case .negativeInteger:
            out.append(0x13)
            out.appendBigEndian(entry.payload, width: 8)
        case .real:
            out.append(0x23)
            out.appendBigEndian(entry.payload, width: 8)
        case .float:
            out.append(0x22)
            out.appendBigEndian(entry.payload, width: 4)
        case .bool:
            out.append(entry.payload != 0 ? 0x09 : 0x08)
        case .date:
            out.append(0x33)
            out.appendBigEndian(entry.payload, width: 8)
        case .data:
            let bytes = data.bytes(of: UInt32(truncatingIfNeeded: entry.payload))
            out.appendMarker(0x40, count: bytes.count)
            out.append(contentsOf: bytes.assumingMemoryBound(to: UInt8.self))
        case .uid:
            let uid = entry.payload
            let width = uid > UInt64(UInt32.max) ? 8 : BinaryOutput.width(forMaximum: uid)
            out.append(0x80 | UInt8(width - 1))
            out.appendBigEndian(uid, width: width)
        }
    }
}
