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

/// The objects of an ``InPlaceBinaryPropertyList``, read from its bytes: a plain value with no
/// references, so copying it and calling it cost no reference counting.
///
/// A reader is only valid while the list it came from is alive (and, while the list borrows the
/// caller's bytes, while those are), since it points into them: whoever holds a reader holds the
/// list too.
package struct InPlaceReader {
    /// What reading needs to know about the list, kept once by the list: a reader is one pointer.
    struct State {
        /// The whole file: the list's copy, or the caller's buffer while the list borrows it.
        var bytes: UnsafeBufferPointer<UInt8>
        /// The trailer's fields, checked against the input.
        let layout: BinaryPropertyListLayout
        /// The limits that reading an object enforces.
        let maximumStringLength: Int
        let maximumCollectionCount: Int
        let maximumDataLength: Int
    }

    /// The list's state, which the list allocates, initializes and frees.
    private let state: UnsafePointer<State>

    private var bytes: UnsafeBufferPointer<UInt8> { self.state.pointee.bytes }
    private var layout: BinaryPropertyListLayout { self.state.pointee.layout }
    private var maximumStringLength: Int { self.state.pointee.maximumStringLength }
    private var maximumCollectionCount: Int { self.state.pointee.maximumCollectionCount }
    private var maximumDataLength: Int { self.state.pointee.maximumDataLength }

    /// The number of objects in the offset table.
    package var objectCount: Int { self.layout.objectCount }

    /// A reader of the list whose state `state` points to.
    init(state: UnsafePointer<State>) {
        self.state = state
    }

    /// Calls `body` with a reader of `bytes`, valid for the duration of the call: how readers that
    /// own no ``InPlaceBinaryPropertyList`` (the tree builder, the transcoder, the lazy public
    /// reader) read objects.
    /// - Parameters:
    ///   - bytes: The whole file, which `layout` was validated against.
    ///   - layout: The file's validated layout.
    ///   - limits: The bounds reading an object enforces.
    ///   - body: The work to do with the reader, which must not escape it.
    @inline(__always)
    static func withReader<Result, Failure: Error>(
        of bytes: UnsafeBufferPointer<UInt8>,
        layout: BinaryPropertyListLayout,
        limits: PropertyListLimits,
        _ body: (InPlaceReader) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        var state = State(bytes: bytes, layout: layout, limits: limits)
        return try withUnsafePointer(to: &state) { pointer throws(Failure) in
            try body(InPlaceReader(state: pointer))
        }
    }

    /// Strings up to this many ASCII bytes are made directly when they are not among the list's
    /// recent strings; longer ones are made once per object.
    private static var uncachedStringLength: Int { 15 }

    // MARK: - Objects

    /// The UID at `index` when it is one in the widths writers use, read in place without the
    /// general path; `nil` for anything else, which ``value(at:)`` then reads and checks.
    @inline(__always)
    package func quickUID(at index: Int) -> UID? {
        guard TableIndex.contains(index, count: self.objectCount) else { return nil }
        return ObjectHeader.uid(self.bytes, at: self.offset(ofObject: index), end: self.layout.offsetTableOffset)
            .map { UID($0) }
    }

    /// The region of the string at `index` when it is an ASCII string short enough for its marker
    /// to hold its length, read in place without the general path; `nil` for anything else, which
    /// ``value(at:)`` then reads and checks.
    @inline(__always)
    package func quickShortString(at index: Int) -> InPlaceRegion? {
        guard TableIndex.contains(index, count: self.objectCount) else { return nil }
        let offset = self.offset(ofObject: index)
        guard let count = ObjectHeader.shortASCIILength(self.bytes, at: offset, end: self.layout.offsetTableOffset),
            count <= self.maximumStringLength
        else { return nil }
        return InPlaceRegion(object: index, payload: offset &+ 1, count: count, isUTF16: false)
    }

    /// The key and value references of the dictionary at `index` when it has two entries, as a
    /// Foundation object with one field has (the field and `$class`), read in place without the
    /// general path; `nil` for anything else, which ``value(at:)`` then reads and checks.
    @inline(__always)
    package func quickPair(at index: Int) -> (keys: (Int, Int), values: (Int, Int))? {
        guard TableIndex.contains(index, count: self.objectCount) else { return nil }
        let offset = self.offset(ofObject: index)
        let width = self.layout.referenceSize
        guard ObjectHeader.isPair(self.bytes, at: offset, end: self.layout.offsetTableOffset, referenceSize: width),
            2 <= self.maximumCollectionCount
        else { return nil }
        let payload = offset &+ 1
        return (
            (self.reference(at: payload), self.reference(at: payload &+ width)),
            (self.reference(at: payload &+ 2 &* width), self.reference(at: payload &+ 3 &* width))
        )
    }

    /// The object indexes of a container's references, in payload order: an array's elements, or a
    /// dictionary's keys then its values. One call for them all, where ``key(of:at:)`` and
    /// ``value(of:at:)`` cost a call each from another module.
    /// - Parameters:
    ///   - container: An array or dictionary of this file.
    ///   - references: Room for the array's count, or twice the dictionary's count, of indexes.
    package func references(of container: InPlaceRegion, into references: UnsafeMutableBufferPointer<Int>) {
        let width = self.layout.referenceSize
        let raw = UnsafeRawBufferPointer(self.bytes)
        var offset = container.payload
        switch width {
        case 1:
            for index in references.indices { references[index] = Int(raw[offset &+ index]) }
        case 2:
            for index in references.indices {
                references[index] = Int(raw.loadUnaligned(fromByteOffset: offset, as: UInt16.self).bigEndian)
                offset &+= 2
            }
        case 4:
            for index in references.indices {
                references[index] = Int(raw.loadUnaligned(fromByteOffset: offset, as: UInt32.self).bigEndian)
                offset &+= 4
            }
        default:
            for index in references.indices {
                references[index] = Int(
                    truncatingIfNeeded: ObjectHeader.bigEndian(self.bytes, at: offset, width: width)
                )
                offset &+= width
            }
        }
    }

    /// The object index of the `position`th element of an array; `position` must be below its count.
    @inline(__always)
    package func element(of array: InPlaceRegion, at position: Int) -> Int {
        self.reference(at: array.payload &+ position &* self.layout.referenceSize)
    }

    /// The object index of the `position`th key of a dictionary; `position` must be below its count.
    @inline(__always)
    package func key(of dictionary: InPlaceRegion, at position: Int) -> Int {
        self.reference(at: dictionary.payload &+ position &* self.layout.referenceSize)
    }

    /// The object index of the `position`th value of a dictionary; `position` must be below its count.
    @inline(__always)
    package func value(of dictionary: InPlaceRegion, at position: Int) -> Int {
        self.reference(at: dictionary.payload &+ (dictionary.count &+ position) &* self.layout.referenceSize)
    }

    /// Whether the object at `index` is the string whose UTF-8 bytes are `utf8`.
    @inline(__always)
    package func isString(_ index: Int, equalTo utf8: UnsafeBufferPointer<UInt8>) -> Bool {
        guard TableIndex.contains(index, count: self.objectCount) else { return false }
        let bytes = self.bytes
        let offset = self.offset(ofObject: index)
        // The common key: ASCII, with its length in the marker.
        if let count = ObjectHeader.shortASCIILength(bytes, at: offset, end: self.layout.offsetTableOffset) {
            guard count == utf8.count else { return false }
            // Keys are short: a byte loop beats a call.
            var position = 0
            while position < count {
                guard bytes[offset &+ 1 &+ position] == utf8[position] else { return false }
                position &+= 1
            }
            return true
        }
        return self.isStringSlowly(index, equalTo: utf8)
    }

    /// ``isString(_:equalTo:)`` for strings in any other form.
    @inline(never)
    private func isStringSlowly(_ index: Int, equalTo utf8: UnsafeBufferPointer<UInt8>) -> Bool {
        guard case .string(let region)? = try? self.value(at: index) else { return false }
        // An ASCII string (`NSKeyedArchiver`, longer than a short one) equals ASCII bytes alone:
        // compared without making a `String`. Other bytes go through decoding, which rejects a
        // byte above 0x7F in an ASCII string.
        if !region.isUTF16, utf8.allSatisfy({ $0 < 0x80 }) {
            return region.count == utf8.count
                && UnsafeBufferPointer(rebasing: self.bytes[region.payload..<(region.payload &+ region.count)])
                    .elementsEqual(utf8)
        }
        guard
            let string = try? ObjectHeader.decodeString(
                self.bytes,
                range: region.payload..<(region.payload &+ self.storedLength(of: region)),
                isUTF16: region.isUTF16
            )
        else {
            return false
        }
        return string.utf8.elementsEqual(utf8)
    }

    /// ``hash(_:)`` of the bytes of the ASCII string object at `index`, or `nil` if it is not one.
    package func asciiStringHash(_ index: Int) -> UInt64? {
        guard case .string(let region)? = try? self.value(at: index), !region.isUTF16 else { return nil }
        return Self.hash(UnsafeBufferPointer(rebasing: self.bytes[region.payload..<(region.payload &+ region.count)]))
    }

    /// A fast, non-cryptographic hash of some bytes (FNV-1a), such as a class name's, to find what
    /// was learned about a string in an earlier list.
    ///
    /// Contiguous bytes only: a generic version, called from other modules unspecialized, cost
    /// about 30,000 instructions a call (a third of the first decode in a process).
    package static func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
        return hash
    }

    /// The position of the first key of a dictionary that is the string `key`, if any.
    package func position(ofKey key: StaticString, in dictionary: InPlaceRegion) -> Int? {
        key.withUTF8Buffer { utf8 in
            for position in 0..<dictionary.count
            where self.isString(self.key(of: dictionary, at: position), equalTo: utf8) {
                return position
            }
            return nil
        }
    }

    /// The position of the first key of a dictionary that is the string `key`, as
    /// ``position(ofKey:in:)-(StaticString,_)`` finds it, with the key object. `knownKeyObject`
    /// is an earlier match of `key` (or -1): where the dictionary has that object, only the keys
    /// before it have their bytes compared.
    package func position(
        ofKey key: StaticString,
        in dictionary: InPlaceRegion,
        knownKeyObject: Int
    ) -> (position: Int, keyObject: Int)? {
        let known = knownKeyObject >= 0 ? self.position(ofKeyObject: knownKeyObject, in: dictionary, last: false) : nil
        let end = known ?? dictionary.count
        let found: (position: Int, keyObject: Int)? = key.withUTF8Buffer { utf8 in
            for position in 0..<end {
                let keyObject = self.key(of: dictionary, at: position)
                if self.isString(keyObject, equalTo: utf8) { return (position, keyObject) }
            }
            return nil
        }
        return found ?? known.map { ($0, knownKeyObject) }
    }

    /// The first or last position of a dictionary whose key object is `keyObject`, if any.
    package func position(ofKeyObject keyObject: Int, in dictionary: InPlaceRegion, last: Bool) -> Int? {
        let raw = UnsafeRawBufferPointer(self.bytes)
        let payload = dictionary.payload
        let count = dictionary.count
        let width = self.layout.referenceSize
        // One loop per reference width, so that the width is not switched on for every key.
        func scan(_ read: (Int) -> Int) -> Int? {
            if last {
                var position = count
                while position > 0 {
                    position &-= 1
                    if read(position) == keyObject { return position }
                }
            } else {
                for position in 0..<count where read(position) == keyObject { return position }
            }
            return nil
        }
        switch width {
        case 1: return scan { Int(raw[payload &+ $0]) }
        case 2: return scan { Int(raw.loadUnaligned(fromByteOffset: payload &+ 2 &* $0, as: UInt16.self).bigEndian) }
        case 4: return scan { Int(raw.loadUnaligned(fromByteOffset: payload &+ 4 &* $0, as: UInt32.self).bigEndian) }
        default: return scan { self.key(of: dictionary, at: $0) }
        }
    }

    /// The position of the first key of a dictionary that is the string `key`, if any.
    package func position(ofKey key: String, in dictionary: InPlaceRegion) -> Int? {
        var key = key
        return key.withUTF8 { utf8 in
            for position in 0..<dictionary.count
            where self.isString(self.key(of: dictionary, at: position), equalTo: utf8) {
                return position
            }
            return nil
        }
    }

    /// The value under the string key `key` of a dictionary, if it has one.
    /// - Throws: ``PropertyListError`` if the value is not a valid object.
    package func value(forKey key: String, in dictionary: InPlaceRegion) throws(PropertyListError) -> InPlaceValue? {
        guard let position = self.position(ofKey: key, in: dictionary) else { return nil }
        return try self.value(at: self.value(of: dictionary, at: position))
    }

    // MARK: - Leaves

    /// The string a short ASCII string region holds, made directly; `nil` for a longer or UTF-16
    /// string, which its list makes once per object.
    /// - Throws: ``PropertyListError/Code/invalidString`` if the string has a byte above 0x7F.
    @inline(__always)
    func shortString(_ region: InPlaceRegion) throws(PropertyListError) -> String? {
        guard !region.isUTF16, region.count <= Self.uncachedStringLength else { return nil }
        return try ObjectHeader.decodeString(
            self.bytes,
            range: region.payload..<(region.payload &+ region.count),
            isUTF16: false
        )
    }

    /// Decodes the string a string region holds.
    /// - Throws: ``PropertyListError/Code/invalidString`` if the string is not valid.
    func decodeString(_ region: InPlaceRegion) throws(PropertyListError) -> String {
        try ObjectHeader.decodeString(
            self.bytes,
            range: region.payload..<(region.payload &+ self.storedLength(of: region)),
            isUTF16: region.isUTF16
        )
    }

    /// Copies the bytes a data region holds.
    func makeData(_ region: InPlaceRegion) -> Data {
        Data(self.dataBytes(region))
    }

    /// The bytes of a data region, in place: valid for as long as the reader's input is.
    package func dataBytes(_ region: InPlaceRegion) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(rebasing: self.bytes[region.payload..<(region.payload &+ region.count)])
    }

    /// The number of bytes a string region stores: its UTF-16 code units count twice.
    package func storedLength(of region: InPlaceRegion) -> Int {
        region.isUTF16 ? region.count &* 2 : region.count
    }

    // MARK: - Offsets and references

    /// The object reference at a byte offset inside a container the header check bounded.
    @inline(__always)
    private func reference(at offset: Int) -> Int {
        Int(truncatingIfNeeded: ObjectHeader.bigEndian(self.bytes, at: offset, width: self.layout.referenceSize))
    }

}

extension InPlaceReader.State {
    /// The state of a reader of `bytes`, which `layout` was validated against, enforcing `limits`.
    init(bytes: UnsafeBufferPointer<UInt8>, layout: BinaryPropertyListLayout, limits: PropertyListLimits) {
        self.init(
            bytes: bytes,
            layout: layout,
            maximumStringLength: limits.maximumStringLength,
            maximumCollectionCount: limits.maximumCollectionCount,
            maximumDataLength: limits.maximumDataLength
        )
    }

}

extension InPlaceReader {
    // MARK: - Reading one object

    /// The object at `index`, read from its marker.
    /// - Throws: ``PropertyListError`` if `index` is not an object, its marker is invalid, it runs
    ///   past the object area, or it is longer than the limits allow.
    @inline(__always)
    package func value(at index: Int) throws(PropertyListError) -> InPlaceValue {
        let (header, offset) = try self.uncheckedHeader(at: index)
        switch header.kind {
        case .asciiString:
            try self.check(header.count, limit: self.maximumStringLength, of: "string", at: offset)
            return .string(InPlaceRegion(object: index, payload: header.payload, count: header.count, isUTF16: false))
        case .utf16String:
            try self.check(header.count &* 2, limit: self.maximumStringLength, of: "string", at: offset)
            return .string(InPlaceRegion(object: index, payload: header.payload, count: header.count, isUTF16: true))
        case .dictionary:
            try self.check(header.count, limit: self.maximumCollectionCount, of: "dictionary", at: offset)
            return .dictionary(
                InPlaceRegion(object: index, payload: header.payload, count: header.count, isUTF16: false)
            )
        case .array:
            try self.check(header.count, limit: self.maximumCollectionCount, of: "array", at: offset)
            return .array(InPlaceRegion(object: index, payload: header.payload, count: header.count, isUTF16: false))
        case .data:
            try self.check(header.count, limit: self.maximumDataLength, of: "data", at: offset)
            return .data(InPlaceRegion(object: index, payload: header.payload, count: header.count, isUTF16: false))
        case .bool(let value): return .bool(value)
        case .integer(let value): return .integer(value)
        case .real(let value): return .real(value)
        case .float(let value): return .float(value)
        case .date(let value): return .date(value)
        case .uid(let value): return .uid(UID(value))
        }
    }

    /// The decoded marker of the object at `index`, and the object's offset.
    /// - Throws: ``PropertyListError`` if `index` is not an object, its marker is invalid, it runs
    ///   past the object area, or it is longer than the limits allow
    ///   (``PropertyListError/Code/sizeLimitExceeded``).
    @inline(__always)
    func header(at index: Int) throws(PropertyListError) -> (header: ObjectHeader, offset: Int) {
        let (header, offset) = try self.uncheckedHeader(at: index)
        switch header.kind {
        case .asciiString: try self.check(header.count, limit: self.maximumStringLength, of: "string", at: offset)
        case .utf16String: try self.check(header.count &* 2, limit: self.maximumStringLength, of: "string", at: offset)
        case .dictionary: try self.check(header.count, limit: self.maximumCollectionCount, of: "dictionary", at: offset)
        case .array: try self.check(header.count, limit: self.maximumCollectionCount, of: "array", at: offset)
        case .data: try self.check(header.count, limit: self.maximumDataLength, of: "data", at: offset)
        case .bool, .integer, .real, .float, .date, .uid: break
        }
        return (header, offset)
    }

    /// The decoded marker of the object at `index`, and the object's offset, not yet checked
    /// against the length limits.
    @inline(__always)
    private func uncheckedHeader(at index: Int) throws(PropertyListError) -> (header: ObjectHeader, offset: Int) {
        guard TableIndex.contains(index, count: self.objectCount) else { throw self.invalidReference(index) }
        let offset = self.offset(ofObject: index)
        let end = self.layout.offsetTableOffset
        if let common = ObjectHeader(common: self.bytes, at: offset, end: end, referenceSize: self.layout.referenceSize)
        {
            return (common, offset)
        }
        return (try ObjectHeader(self.bytes, at: offset, end: end, referenceSize: self.layout.referenceSize), offset)
    }

    /// The byte offset of the object at `index`, which must be below ``objectCount``; the offset
    /// table was checked to point inside the object area when the reader was made.
    @inline(__always)
    private func offset(ofObject index: Int) -> Int {
        Int(
            truncatingIfNeeded: ObjectHeader.bigEndian(
                self.bytes,
                at: self.layout.offsetTableOffset &+ index &* self.layout.offsetSize,
                width: self.layout.offsetSize
            )
        )
    }

    @inline(__always)
    private func check(_ length: Int, limit: Int, of kind: StaticString, at offset: Int) throws(PropertyListError) {
        guard length <= limit else { throw Self.lengthExceeded(length, limit: limit, of: kind, at: offset) }
    }

    @inline(never)
    private static func lengthExceeded(
        _ length: Int,
        limit: Int,
        of kind: StaticString,
        at offset: Int
    ) -> PropertyListError {
        PropertyListError(
            .sizeLimitExceeded,
            offset: offset,
            reason: "a \(kind) of \(length) exceeds the limit of \(limit)"
        )
    }

    @inline(never)
    private func invalidReference(_ index: Int) -> PropertyListError {
        PropertyListError(
            .invalidReference,
            reason: "object reference \(index) is not below the object count \(self.objectCount)"
        )
    }
}
