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
public import FoundationEssentials
#else
public import Foundation
#endif

extension BinaryPropertyListReader {
    /// One object of a binary property list, decoded without materializing strings, data or children.
    public enum Object: Hashable, Sendable {
        /// A Boolean.
        case bool(Bool)
        /// An integer.
        case integer(PropertyListInteger)
        /// A 64-bit real.
        case real(Double)
        /// A 32-bit real.
        case float(Float)
        /// A date.
        case date(Date)
        /// Data: the byte range of its contents in ``BinaryPropertyListReader/bytes``.
        case data(Range<Int>)
        /// A string: the byte range and encoding of its contents; see ``BinaryPropertyListReader/string(_:)``.
        case string(StringSlice)
        /// A UID.
        case uid(UID)
        /// An array: the indexes of its elements.
        case array(ObjectReferences)
        /// A dictionary: the indexes of its keys and of its values, pairwise.
        case dictionary(keys: ObjectReferences, values: ObjectReferences)
    }

    /// The contents of a string object, still in the input.
    public struct StringSlice: Hashable, Sendable {
        /// The byte range of the characters.
        public let range: Range<Int>
        /// Whether the characters are UTF-16BE code units (`true`) or ASCII bytes (`false`).
        public let isUTF16: Bool
    }

    /// A run of object references in the input, as a collection of object indexes.
    ///
    /// Indexes are not checked against the object count until they are read with
    /// ``BinaryPropertyListReader/object(at:)``.
    public struct ObjectReferences: RandomAccessCollection, Hashable, Sendable {
        @usableFromInline
        internal let bytes: [UInt8]
        /// The byte offset of the first reference.
        public let offset: Int
        /// The width of each reference in bytes.
        public let width: Int
        /// The number of references.
        public let count: Int

        @usableFromInline
        internal init(bytes: [UInt8], offset: Int, width: Int, count: Int) {
            self.bytes = bytes
            self.offset = offset
            self.width = width
            self.count = count
        }

        /// The position of the first reference.
        @inlinable
        public var startIndex: Int { 0 }
        /// The position after the last reference.
        @inlinable
        public var endIndex: Int { self.count }

        /// The object index stored at `position`.
        @inlinable
        public subscript(position: Int) -> Int {
            var value = 0
            let start = self.offset + position * self.width
            for index in start..<(start + self.width) {
                value = value << 8 | Int(self.bytes[index])
            }
            return value
        }

        /// References are equal when they denote the same run of the same width.
        public static func == (lhs: Self, rhs: Self) -> Bool {
            lhs.offset == rhs.offset && lhs.width == rhs.width && lhs.count == rhs.count
        }

        public func hash(into hasher: inout Hasher) {
            hasher.combine(self.offset)
            hasher.combine(self.width)
            hasher.combine(self.count)
        }
    }

    /// Decodes the object at `index` without materializing its contents.
    /// - Throws: ``PropertyListError`` if the index or the object is invalid, or the object is longer
    ///   than ``limits`` allow.
    public func object(at index: Int) throws(PropertyListError) -> Object {
        // Nothing below refers to `self`: a closure that did would make the compiler copy it.
        let bytes = self.bytes
        let layout = self.layout
        let limits = self.limits
        return try bytes.withUnsafeBufferPointer { buffer throws(PropertyListError) -> Object in
            let value = try InPlaceReader.withReader(of: buffer, layout: layout, limits: limits) {
                reader throws(PropertyListError) in try reader.value(at: index)
            }
            switch value {
            case .bool(let value): return .bool(value)
            case .integer(let value): return .integer(value)
            case .real(let value): return .real(value)
            case .float(let value): return .float(value)
            case .date(let value): return .date(Date(timeIntervalSinceReferenceDate: value))
            case .uid(let value): return .uid(value)
            case .data(let region): return .data(region.payload..<(region.payload + region.count))
            case .string(let region):
                let byteCount = region.isUTF16 ? 2 * region.count : region.count
                return .string(
                    StringSlice(range: region.payload..<(region.payload + byteCount), isUTF16: region.isUTF16)
                )
            case .array(let region):
                let width = layout.referenceSize
                return .array(ObjectReferences(bytes: bytes, offset: region.payload, width: width, count: region.count))
            case .dictionary(let region):
                let width = layout.referenceSize
                let values = region.payload + region.count * width
                return .dictionary(
                    keys: ObjectReferences(bytes: bytes, offset: region.payload, width: width, count: region.count),
                    values: ObjectReferences(bytes: bytes, offset: values, width: width, count: region.count)
                )
            }
        }
    }

    /// Decodes the characters of a string object.
    /// - Throws: ``PropertyListError/Code/invalidString`` if an ASCII string holds a byte above 0x7F.
    public func string(_ slice: StringSlice) throws(PropertyListError) -> String {
        try self.bytes.withUnsafeBufferPointer { buffer throws(PropertyListError) in
            try ObjectHeader.decodeString(buffer, range: slice.range, isUTF16: slice.isUTF16)
        }
    }

    /// Decodes the string object at `index`.
    /// - Throws: ``PropertyListError/Code/unexpectedElement`` if the object is not a string, or another
    ///   ``PropertyListError`` if it is invalid.
    public func string(at index: Int) throws(PropertyListError) -> String {
        guard case .string(let slice) = try self.object(at: index) else {
            throw PropertyListError(
                .unexpectedElement,
                offset: try? self.offset(ofObject: index),
                reason: "object \(index) is not a string"
            )
        }
        return try self.string(slice)
    }

    /// Whether the string object `slice` equals `string`, compared without building a `String` when
    /// both are ASCII.
    public func string(_ slice: StringSlice, equals string: String) -> Bool {
        if !slice.isUTF16 {
            var utf8 = string.utf8.makeIterator()
            for index in slice.range {
                guard let byte = utf8.next(), byte == self.bytes[index] else { return false }
            }
            return utf8.next() == nil
        }
        return (try? self.string(slice)) == string
    }

    /// Copies the bytes of a data object.
    public func data(_ range: Range<Int>) -> Data {
        Data(self.bytes[range])
    }

    /// Builds the full value of the object at `index`, with its descendants.
    /// - Throws: ``PropertyListError`` if any object reached is invalid, a container contains itself,
    ///   or nesting exceeds ``PropertyListLimits/maximumDepth``.
    public func value(at index: Int) throws(PropertyListError) -> PropertyListValue {
        _ = try self.offset(ofObject: index)
        return try self.bytes.withUnsafeBufferPointer { buffer throws(PropertyListError) in
            try self.layout.buildValue(at: index, limits: self.limits, buffer: buffer)
        }
    }

    /// Builds the full value of the top-level object.
    /// - Throws: ``PropertyListError`` if any object reached is invalid, a container contains itself,
    ///   or nesting exceeds ``PropertyListLimits/maximumDepth``.
    public func topLevelValue() throws(PropertyListError) -> PropertyListValue {
        try self.value(at: self.topObjectIndex)
    }
}
