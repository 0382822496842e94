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

/// A lazy, index-based reader of binary (`bplist00`) property lists.
///
/// Creating a reader validates the header, the trailer and every entry of the offset table once;
/// after that, objects are decoded on demand by index, and strings and data stay regions of the
/// input until asked for. This lets a caller such as a keyed-archive reader walk `$objects`
/// without building a tree first:
///
/// ```swift
/// let reader = try BinaryPropertyListReader(bytes: bytes)
/// if case .dictionary(let keys, let values) = try reader.object(at: reader.topObjectIndex) {
///     for (k, v) in zip(keys, values) { print(try reader.string(at: k), try reader.object(at: v)) }
/// }
/// ```
///
/// ``topLevelValue()`` builds the whole tree, checking depth and reference cycles, and decoding
/// each object once however often it is referenced.
public struct BinaryPropertyListReader: Sendable {
    /// The input.
    public let bytes: [UInt8]
    /// The bounds enforced while reading.
    public let limits: PropertyListLimits
    /// The number of objects in the offset table.
    public let objectCount: Int
    /// The index of the top-level object.
    public let topObjectIndex: Int
    /// The width in bytes of each offset-table entry.
    public let offsetSize: Int
    /// The width in bytes of each object reference.
    public let referenceSize: Int
    /// The byte offset of the offset table, which is also the end of the object area.
    public let offsetTableOffset: Int

    /// Validates `bytes` as a binary property list.
    ///
    /// - Parameters:
    ///   - bytes: The whole file.
    ///   - limits: The bounds to enforce.
    /// - Throws: ``PropertyListError`` if the header, trailer or offset table is invalid.
    /// - Complexity: O(*n*) in the number of objects, to validate the offset table.
    public init(bytes: [UInt8], limits: PropertyListLimits = .default) throws(PropertyListError) {
        let layout = try bytes.withUnsafeBufferPointer { buffer throws(PropertyListError) in
            try BinaryPropertyListLayout(validating: buffer, limits: limits)
        }
        self.bytes = bytes
        self.limits = limits
        self.objectCount = layout.objectCount
        self.topObjectIndex = layout.topObjectIndex
        self.offsetSize = layout.offsetSize
        self.referenceSize = layout.referenceSize
        self.offsetTableOffset = layout.offsetTableOffset
    }

    /// Validates `bytes` as a binary property list.
    /// - Throws: ``PropertyListError`` if the header, trailer or offset table is invalid.
    public init(bytes: some DataProtocol, limits: PropertyListLimits = .default) throws(PropertyListError) {
        try self.init(bytes: ByteInput.array(bytes), limits: limits)
    }

    /// Reads a big-endian unsigned integer of `width` (1...8) bytes; the caller has checked bounds.
    @inline(__always)
    internal static func bigEndian(_ bytes: [UInt8], at offset: Int, width: Int) -> UInt64 {
        var value: UInt64 = 0
        for index in offset..<(offset + width) {
            value = value << 8 | UInt64(bytes[index])
        }
        return value
    }

    /// The layout the reader was validated with.
    internal var layout: BinaryPropertyListLayout {
        BinaryPropertyListLayout(
            objectCount: self.objectCount,
            topObjectIndex: self.topObjectIndex,
            offsetSize: self.offsetSize,
            referenceSize: self.referenceSize,
            offsetTableOffset: self.offsetTableOffset
        )
    }

    /// Calls `body` with the in-place reader of ``bytes`` (and the bytes), valid during the call:
    /// every object this reader hands out is read by it.
    @inline(__always)
    internal func withObjects<Result, Failure: Error>(
        _ body: (InPlaceReader, UnsafeBufferPointer<UInt8>) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        // The closures capture the layout and limits, not `self`, whose copy would retain the bytes.
        let layout = self.layout
        let limits = self.limits
        let bytes = self.bytes
        return try bytes.withUnsafeBufferPointer { buffer throws(Failure) in
            try InPlaceReader.withReader(of: buffer, layout: layout, limits: limits) { reader throws(Failure) in
                try body(reader, buffer)
            }
        }
    }

    /// Builds the full value of the top-level object of a whole file, read in place.
    /// - Parameters:
    ///   - bytes: The whole file.
    ///   - limits: The bounds to enforce.
    /// - Throws: ``PropertyListError`` as creating a reader and then calling ``topLevelValue()`` would.
    internal static func topLevelValue(
        of bytes: UnsafeBufferPointer<UInt8>,
        limits: PropertyListLimits
    ) throws(PropertyListError) -> PropertyListValue {
        let layout = try BinaryPropertyListLayout(validating: bytes, limits: limits)
        return try layout.buildValue(at: layout.topObjectIndex, limits: limits, buffer: bytes)
    }

    /// The byte offset of the object at `index`.
    /// - Throws: ``PropertyListError/Code/invalidReference`` if `index` is not below ``objectCount``.
    public func offset(ofObject index: Int) throws(PropertyListError) -> Int {
        guard TableIndex.contains(index, count: self.objectCount) else {
            throw PropertyListError(
                .invalidReference,
                reason: "object reference \(index) is not below the object count \(self.objectCount)"
            )
        }
        let entry = self.offsetTableOffset + index * self.offsetSize
        return Int(Self.bigEndian(self.bytes, at: entry, width: self.offsetSize))
    }
}
