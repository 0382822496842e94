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
package import FoundationEssentials
#else
package import Foundation
#endif

/// A binary property list read in place: the header, trailer and offset table are validated once,
/// then each object is read from the bytes when it is asked for, with no tree.
///
/// Reading an object checks its marker, its length against the limits and that it lies inside the
/// object area, so every value handed out is safe to follow; references are checked when they are
/// followed. What this reader does not do is look at objects nobody asks for, follow containers
/// on its own, or detect a container that contains itself: a caller that walks containers bounds
/// its own depth. Objects are read through ``reader``; the list itself makes strings and data
/// values, keeps the strings made last, and makes longer strings and data values once per object.
///
/// The list keeps its own copy of the bytes, so the values its reader returns stay valid for the
/// list's lifetime, whatever happens to the caller's buffer; or, made with
/// ``init(borrowing:limits:)``, it reads the caller's buffer until ``ownBytes()``, which its
/// owner calls before that buffer goes away if the list may outlive it.
package final class InPlaceBinaryPropertyList {
    /// The bounds reading enforces.
    @exclusivity(unchecked) package private(set) var limits: PropertyListLimits
    /// The number of objects in the offset table.
    package var objectCount: Int { self.readerState.pointee.layout.objectCount }
    /// The index of the top-level object.
    package var topObjectIndex: Int { self.readerState.pointee.layout.topObjectIndex }
    /// The size of the input in bytes.
    package var byteCount: Int { self.readerState.pointee.bytes.count }

    /// A copy of the whole input, for reading it again another way.
    package var bytes: [UInt8] { Array(self.readerState.pointee.bytes) }

    /// The objects, read from this list's copy of the bytes: valid as long as this list is, until
    /// it reads other bytes.
    @exclusivity(unchecked) package private(set) var reader: InPlaceReader
    /// The state ``reader`` points to: the copy of the bytes and the trailer's fields, checked
    /// against them. This list owns both and frees them.
    @exclusivity(unchecked) private var readerState: UnsafeMutablePointer<InPlaceReader.State>

    // One access at a time, each short: dynamic exclusivity checks would cost more than the work.
    @exclusivity(unchecked) private var strings: [Int: String] = [:]
    @exclusivity(unchecked) private var datas: [Int: Data] = [:]
    /// The strings made last, each in the slot its object index picks: archives store each
    /// distinct string once and refer to it from every value that has it, so most strings are
    /// found here, not made again.
    @exclusivity(unchecked) private var recentStrings: UnsafeMutableBufferPointer<RecentString>
    /// Whether the bytes are this list's copy, which it frees, rather than the caller's.
    @exclusivity(unchecked) private var ownsBytes: Bool

    /// Validates `input` as a binary property list and keeps a copy of it.
    /// - Parameters:
    ///   - input: The whole file.
    ///   - limits: The bounds to enforce, now (input size, object count) and as objects are read.
    /// - Throws: ``PropertyListError`` if the header, trailer or offset table is invalid.
    /// - Complexity: O(*n*) in the size of the input.
    package convenience init(copying input: some DataProtocol, limits: PropertyListLimits) throws(PropertyListError) {
        let (bytes, layout) = try Self.copy(input, limits: limits)
        self.init(bytes: bytes, layout: layout, limits: limits, ownsBytes: true)
    }

    /// Validates `bytes` as a binary property list and reads them in place, without a copy.
    ///
    /// The caller keeps `bytes` valid and unchanged while the list is in use, and calls
    /// ``ownBytes()`` before they go away if the list (or a reader, value or region of it) may
    /// still be used afterwards.
    /// - Parameters:
    ///   - bytes: The whole file.
    ///   - limits: The bounds to enforce, now (input size, object count) and as objects are read.
    /// - Throws: ``PropertyListError`` if the header, trailer or offset table is invalid.
    package convenience init(
        borrowing bytes: UnsafeBufferPointer<UInt8>,
        limits: PropertyListLimits
    ) throws(PropertyListError) {
        let layout = try BinaryPropertyListLayout(validating: bytes, limits: limits)
        self.init(bytes: bytes, layout: layout, limits: limits, ownsBytes: false)
    }

    private init(
        bytes: UnsafeBufferPointer<UInt8>,
        layout: BinaryPropertyListLayout,
        limits: PropertyListLimits,
        ownsBytes: Bool
    ) {
        self.limits = limits
        self.ownsBytes = ownsBytes
        (self.readerState, self.recentStrings) = Self.makeStorage(bytes: bytes, layout: layout, limits: limits)
        self.reader = InPlaceReader(state: self.readerState)
    }

    /// Reads other bytes, in place, as ``init(borrowing:limits:)`` does, in this list: its storage
    /// is kept if it fits (a list of about as many objects), so that
    /// reading one small archive after another allocates nothing here.
    ///
    /// Every value, region and reader of the list from before is invalid afterwards, ``reader``
    /// included: the caller reads ``reader`` again. If `bytes` are not a binary property list, the
    /// list is left as it was.
    /// - Throws: ``PropertyListError`` if the header, trailer or offset table is invalid.
    package func read(borrowing bytes: UnsafeBufferPointer<UInt8>, limits: PropertyListLimits) throws(PropertyListError)
    {
        let layout = try BinaryPropertyListLayout(validating: bytes, limits: limits)
        self.replace(bytes: bytes, layout: layout, limits: limits, ownsBytes: false)
    }

    /// Reads a copy of other bytes, as ``init(copying:limits:)`` does, in this list, as
    /// ``read(borrowing:limits:)`` does.
    /// - Throws: ``PropertyListError`` if the header, trailer or offset table is invalid.
    package func read(copying input: some DataProtocol, limits: PropertyListLimits) throws(PropertyListError) {
        let (bytes, layout) = try Self.copy(input, limits: limits)
        self.replace(bytes: bytes, layout: layout, limits: limits, ownsBytes: true)
    }

    /// A validated copy of `input`, which the caller frees.
    private static func copy(
        _ input: some DataProtocol,
        limits: PropertyListLimits
    ) throws(PropertyListError) -> (UnsafeBufferPointer<UInt8>, BinaryPropertyListLayout) {
        let count = input.count
        let storage = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: max(count, 1))
        let copied: Void? = input.withContiguousStorageIfAvailable { source in
            UnsafeMutableRawBufferPointer(storage).copyMemory(from: UnsafeRawBufferPointer(source))
        }
        if copied == nil { _ = input.copyBytes(to: storage) }
        let bytes = UnsafeBufferPointer(rebasing: storage[0..<count])
        do {
            return (bytes, try BinaryPropertyListLayout(validating: bytes, limits: limits))
        } catch {
            storage.deallocate()
            throw error
        }
    }

    /// Puts validated bytes in place of the list's.
    private func replace(
        bytes: UnsafeBufferPointer<UInt8>,
        layout: BinaryPropertyListLayout,
        limits: PropertyListLimits,
        ownsBytes: Bool
    ) {
        self.release()
        self.limits = limits
        self.ownsBytes = ownsBytes
        // A table up to four times the size the list needs serves it as well (slots are picked by
        // masking) and costs little more to clear; a smaller one would find fewer strings.
        let slots = RecentString.slotCount(objectCount: layout.objectCount)
        if slots <= self.recentStrings.count, self.recentStrings.count <= slots &* 4 {
            self.readerState.pointee = InPlaceReader.State(bytes: bytes, layout: layout, limits: limits)
        } else {
            self.freeStorage()
            (self.readerState, self.recentStrings) = Self.makeStorage(bytes: bytes, layout: layout, limits: limits)
            self.reader = InPlaceReader(state: self.readerState)
        }
    }

    /// Lets go of the bytes and of every string and data value made from them: the list has no
    /// objects until ``read(borrowing:limits:)`` or ``read(copying:limits:)`` gives it bytes
    /// again. Frees the list's own copy of the bytes, if it has one.
    package func release() {
        for slot in self.recentStrings.indices where self.recentStrings[slot].object != .min {
            self.recentStrings[slot] = RecentString(object: .min, string: "")
        }
        if !self.strings.isEmpty { self.strings = [:] }
        if !self.datas.isEmpty { self.datas = [:] }
        if self.ownsBytes { UnsafeMutableBufferPointer(mutating: self.readerState.pointee.bytes).deallocate() }
        self.ownsBytes = false
        self.readerState.pointee = InPlaceReader.State(
            bytes: UnsafeBufferPointer(start: nil, count: 0),
            layout: .empty,
            limits: self.limits
        )
    }

    /// Copies borrowed bytes into the list's own storage, which readers then read: the list stays
    /// valid after the caller's buffer goes away. Does nothing if the list owns its bytes.
    package func ownBytes() {
        guard !self.ownsBytes else { return }
        let borrowed = self.readerState.pointee.bytes
        let storage = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: max(borrowed.count, 1))
        if let base = borrowed.baseAddress, borrowed.count > 0 {
            storage.baseAddress?.initialize(from: base, count: borrowed.count)
        }
        self.readerState.pointee.bytes = UnsafeBufferPointer(rebasing: storage[0..<borrowed.count])
        self.ownsBytes = true
    }

    deinit {
        if self.ownsBytes { UnsafeMutableBufferPointer(mutating: self.readerState.pointee.bytes).deallocate() }
        self.freeStorage()
    }

    /// Frees what ``makeStorage(bytes:layout:limits:)`` made.
    private func freeStorage() {
        self.recentStrings.deinitialize()
        self.readerState.deinitialize(count: 1)
        UnsafeMutableRawPointer(self.readerState).deallocate()
    }

    /// The reader's state and the table of recent strings, in one allocation (the state first),
    /// which `deinit` frees.
    private static func makeStorage(
        bytes: UnsafeBufferPointer<UInt8>,
        layout: BinaryPropertyListLayout,
        limits: PropertyListLimits
    ) -> (UnsafeMutablePointer<InPlaceReader.State>, UnsafeMutableBufferPointer<RecentString>) {
        let slots = RecentString.slotCount(objectCount: layout.objectCount)
        let alignment = max(MemoryLayout<InPlaceReader.State>.alignment, MemoryLayout<RecentString>.alignment)
        let tableAlignment = MemoryLayout<RecentString>.alignment
        let tableOffset = (MemoryLayout<InPlaceReader.State>.stride + tableAlignment - 1) & ~(tableAlignment - 1)
        let raw = UnsafeMutableRawPointer.allocate(
            byteCount: tableOffset + slots * MemoryLayout<RecentString>.stride,
            alignment: alignment
        )
        let state = raw.initializeMemory(
            as: InPlaceReader.State.self,
            repeating: InPlaceReader.State(bytes: bytes, layout: layout, limits: limits),
            count: 1
        )
        let table = (raw + tableOffset).initializeMemory(
            as: RecentString.self,
            repeating: RecentString(object: .min, string: ""),
            count: slots
        )
        return (state, UnsafeMutableBufferPointer(start: table, count: slots))
    }

    // MARK: - Leaves

    /// The string a string region holds.
    /// - Throws: ``PropertyListError/Code/invalidString`` if an ASCII string has a byte above 0x7F.
    @inline(__always)
    package func string(_ region: InPlaceRegion) throws(PropertyListError) -> String {
        let slot = region.object & (self.recentStrings.count &- 1)
        if self.recentStrings[slot].object == region.object { return self.recentStrings[slot].string }
        return try self.makeString(region, slot: slot)
    }

    /// Makes the string of a region that is not in its slot of ``recentStrings``, and puts it
    /// there: a short ASCII string directly, any other once per object.
    @inline(never)
    private func makeString(_ region: InPlaceRegion, slot: Int) throws(PropertyListError) -> String {
        let string: String
        if let short = try self.reader.shortString(region) {
            string = short
        } else if self.recentStrings.count >= self.objectCount {
            // Every object has a slot of its own, which keeps the string: no table is needed to
            // make it once (an allocation for archives of a few objects).
            string = try self.reader.decodeString(region)
        } else if let cached = self.strings[region.object] {
            string = cached
        } else {
            string = try self.reader.decodeString(region)
            self.strings[region.object] = string
        }
        self.recentStrings[slot] = RecentString(object: region.object, string: string)
        return string
    }

    /// The bytes a data region holds, made once per object.
    package func data(_ region: InPlaceRegion) -> Data {
        if let data = self.datas[region.object] { return data }
        let data = self.reader.makeData(region)
        self.datas[region.object] = data
        return data
    }

    /// The value of an object as a tree, for messages and small objects such as class
    /// dictionaries: containers nested deeper than `depth` are given empty.
    /// - Throws: ``PropertyListError`` if an object reached is invalid.
    package func propertyList(at index: Int, depth: Int) throws(PropertyListError) -> PropertyListValue {
        try self.propertyList(of: self.reader.value(at: index), depth: depth)
    }

    /// The value of an object already read, as ``propertyList(at:depth:)`` gives it.
    /// - Throws: ``PropertyListError`` if an object reached is invalid.
    package func propertyList(of value: InPlaceValue, depth: Int) throws(PropertyListError) -> PropertyListValue {
        switch value {
        case .bool(let value): return .bool(value)
        case .integer(let value): return .integer(value)
        case .real(let value): return .real(value)
        case .float(let value): return .float(value)
        case .date(let value): return .date(Date(timeIntervalSinceReferenceDate: value))
        case .uid(let value): return .uid(value)
        case .string(let region): return .string(try self.string(region))
        case .data(let region): return .data(self.data(region))
        case .array(let region):
            guard depth > 0 else { return .array([]) }
            var elements: [PropertyListValue] = []
            elements.reserveCapacity(min(region.count, 1024))
            for position in 0..<region.count {
                elements.append(
                    try self.propertyList(at: self.reader.element(of: region, at: position), depth: depth - 1)
                )
            }
            return .array(elements)
        case .dictionary(let region):
            guard depth > 0 else { return .dictionary([:]) }
            var dictionary = PropertyListDictionary()
            for position in 0..<region.count {
                guard
                    case .string(let key) = try self.propertyList(
                        at: self.reader.key(of: region, at: position),
                        depth: 0
                    )
                else {
                    throw PropertyListError(.invalidDictionaryKey, reason: "dictionary key is not a string")
                }
                dictionary[key] = try self.propertyList(
                    at: self.reader.value(of: region, at: position),
                    depth: depth - 1
                )
            }
            return .dictionary(dictionary)
        }
    }

}

/// A string an ``InPlaceBinaryPropertyList`` made, with the object it holds.
private struct RecentString {
    /// The region's object index, or `Int.min` in an empty slot (regions' indexes are above it).
    let object: Int
    let string: String

    /// How many slots a list of many objects has.
    private static var slotLimit: Int { 1024 }

    /// The number of slots for a list of `objectCount` objects: a power of two, at most
    /// ``slotLimit``.
    static func slotCount(objectCount: Int) -> Int {
        var count = 1
        while count < objectCount, count < Self.slotLimit { count &*= 2 }
        return count
    }
}

/// Where a string, data value or container lies in the bytes of an ``InPlaceBinaryPropertyList``.
package struct InPlaceRegion {
    /// The object's index in the offset table.
    package let object: Int
    /// The offset of the first payload byte.
    package let payload: Int
    /// The element count: bytes, UTF-16 code units, elements or entries.
    package let count: Int
    /// Whether a string's payload is UTF-16 big-endian rather than ASCII.
    package let isUTF16: Bool

    /// The same string without its first character, such as an escaped keyed-archive key without its
    /// escape. It is set apart from every object (a negative ``object``), so that strings decoded
    /// from it are cached apart.
    package var droppingFirstCharacter: InPlaceRegion {
        guard self.count > 0 else { return self }
        return InPlaceRegion(
            object: -1 - self.object,
            payload: self.payload + (self.isUTF16 ? 2 : 1),
            count: self.count - 1,
            isUTF16: self.isUTF16
        )
    }
}

/// One object of an ``InPlaceBinaryPropertyList``: scalars by value, the rest by region.
package enum InPlaceValue {
    /// A Boolean.
    case bool(Bool)
    /// An integer.
    case integer(PropertyListInteger)
    /// A 64-bit real.
    case real(Double)
    /// A 32-bit real.
    case float(Float)
    /// A date, in seconds since 2001-01-01 00:00:00 UTC.
    case date(Double)
    /// A keyed-archive UID.
    case uid(UID)
    /// A string.
    case string(InPlaceRegion)
    /// A data value.
    case data(InPlaceRegion)
    /// An array: its elements are object references.
    case array(InPlaceRegion)
    /// A dictionary: its keys, then its values, are object references.
    case dictionary(InPlaceRegion)

    /// The name of the kind, as ``PropertyListValue/kindName`` gives it.
    package var kindName: String {
        switch self {
        case .bool: "bool"
        case .integer: "integer"
        case .real: "real"
        case .float: "float"
        case .date: "date"
        case .uid: "uid"
        case .string: "string"
        case .data: "data"
        case .array: "array"
        case .dictionary: "dictionary"
        }
    }
}
