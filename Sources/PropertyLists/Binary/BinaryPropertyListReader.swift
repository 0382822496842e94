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
        self.bytes = bytes
        self.limits = limits
        let count = bytes.count
        guard count <= limits.maximumInputSize else {
            throw PropertyListError(
                .sizeLimitExceeded,
                reason: "input of \(count) bytes exceeds the limit of \(limits.maximumInputSize)"
            )
        }
        let headerSize = BinaryPropertyListMagic.header.count
        guard count >= headerSize, bytes.starts(with: BinaryPropertyListMagic.header) else {
            throw PropertyListError(.invalidHeader, offset: 0, reason: "missing bplist00 header")
        }
        let trailerStart = count - BinaryPropertyListMagic.trailerSize
        guard trailerStart > headerSize else {
            throw PropertyListError(.truncated, offset: count, reason: "too short to hold a trailer and an object")
        }
        let offsetSize = Int(bytes[trailerStart + 6])
        let referenceSize = Int(bytes[trailerStart + 7])
        let objectCount = Self.bigEndian(bytes, at: trailerStart + 8, width: 8)
        let topObject = Self.bigEndian(bytes, at: trailerStart + 16, width: 8)
        let tableOffset = Self.bigEndian(bytes, at: trailerStart + 24, width: 8)
        guard (1...8).contains(offsetSize) else {
            throw PropertyListError(.invalidTrailer, offset: trailerStart + 6, reason: "offset size \(offsetSize)")
        }
        guard (1...8).contains(referenceSize) else {
            throw PropertyListError(
                .invalidTrailer,
                offset: trailerStart + 7,
                reason: "object reference size \(referenceSize)"
            )
        }
        guard objectCount >= 1, objectCount <= UInt64(trailerStart) else {
            throw PropertyListError(.invalidTrailer, offset: trailerStart + 8, reason: "object count \(objectCount)")
        }
        guard referenceSize == 8 || objectCount <= (1 as UInt64) << (8 * UInt64(referenceSize)) else {
            throw PropertyListError(
                .invalidTrailer,
                offset: trailerStart + 7,
                reason: "\(objectCount) objects cannot be referenced in \(referenceSize) bytes"
            )
        }
        guard objectCount <= UInt64(max(0, limits.maximumObjectCount)) else {
            throw PropertyListError(
                .sizeLimitExceeded,
                offset: trailerStart + 8,
                reason: "\(objectCount) objects exceed the limit of \(limits.maximumObjectCount)"
            )
        }
        guard topObject < objectCount else {
            throw PropertyListError(.invalidTrailer, offset: trailerStart + 16, reason: "top object \(topObject)")
        }
        // The offset table sits between the objects and the trailer: 8 < table, table + size <= trailer.
        let tableSize = objectCount.multipliedReportingOverflow(by: UInt64(offsetSize))
        guard tableOffset > UInt64(headerSize), tableOffset <= UInt64(trailerStart), !tableSize.overflow,
            tableSize.partialValue <= UInt64(trailerStart) - tableOffset
        else {
            throw PropertyListError(
                .invalidTrailer,
                offset: trailerStart + 24,
                reason: "offset table at \(tableOffset) with \(objectCount) entries does not fit"
            )
        }
        self.objectCount = Int(objectCount)
        self.topObjectIndex = Int(topObject)
        self.offsetSize = offsetSize
        self.referenceSize = referenceSize
        self.offsetTableOffset = Int(tableOffset)
        try self.validateOffsetTable()
    }

    /// Validates `bytes` as a binary property list.
    /// - Throws: ``PropertyListError`` if the header, trailer or offset table is invalid.
    public init(bytes: some DataProtocol, limits: PropertyListLimits = .default) throws(PropertyListError) {
        try self.init(bytes: ByteInput.array(bytes), limits: limits)
    }

    private func validateOffsetTable() throws(PropertyListError) {
        let end = UInt64(self.offsetTableOffset)
        let width = self.offsetSize
        let count = self.objectCount
        let start = self.offsetTableOffset
        let bad = self.bytes.withUnsafeBufferPointer { buffer -> Int? in
            // One- and two-byte offsets (files under 64 KiB and most others) get their own loops.
            switch width {
            case 1:
                for entry in 0..<count where UInt64(buffer[start + entry]) < 8 || UInt64(buffer[start + entry]) >= end {
                    return start + entry
                }
            case 2:
                for entry in 0..<count {
                    let position = start + 2 * entry
                    let offset = UInt64(buffer[position]) << 8 | UInt64(buffer[position + 1])
                    if offset < 8 || offset >= end { return position }
                }
            default:
                var position = start
                for _ in 0..<count {
                    let offset = ObjectHeader.bigEndian(buffer, at: position, width: width)
                    if offset < 8 || offset >= end { return position }
                    position &+= width
                }
            }
            return nil
        }
        if let position = bad {
            let offset = Self.bigEndian(self.bytes, at: position, width: width)
            throw PropertyListError(
                .invalidOffset,
                offset: position,
                reason: "object offset \(offset) is outside the object area 8..<\(end)"
            )
        }
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

    /// The byte offset of the object at `index`.
    /// - Throws: ``PropertyListError/Code/invalidReference`` if `index` is not below ``objectCount``.
    public func offset(ofObject index: Int) throws(PropertyListError) -> Int {
        guard index >= 0, index < self.objectCount else {
            throw PropertyListError(
                .invalidReference,
                reason: "object reference \(index) is not below the object count \(self.objectCount)"
            )
        }
        let entry = self.offsetTableOffset + index * self.offsetSize
        return Int(Self.bigEndian(self.bytes, at: entry, width: self.offsetSize))
    }
}
