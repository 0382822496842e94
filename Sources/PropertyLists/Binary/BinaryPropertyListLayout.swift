//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-keyed-archive open source project
//
// Licensed under Apache License v2.0
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// Where the parts of a binary property list are, read from its trailer and validated: the header,
/// the trailer's fields, and every entry of the offset table.
///
/// After validation every object offset lies in the object area `8..<offsetTableOffset`, the
/// offset table lies between the objects and the trailer, and the object count is within limits.
internal struct BinaryPropertyListLayout {
    /// The number of objects in the offset table.
    var objectCount: Int
    /// The index of the top-level object.
    var topObjectIndex: Int
    /// The width in bytes of each offset-table entry.
    var offsetSize: Int
    /// The width in bytes of each object reference.
    var referenceSize: Int
    /// The byte offset of the offset table, which is also the end of the object area.
    var offsetTableOffset: Int
}

extension BinaryPropertyListLayout {
    /// The layout of a list of no objects, which a reader with no bytes has: every object index is
    /// out of range.
    static var empty: Self {
        Self(objectCount: 0, topObjectIndex: 0, offsetSize: 1, referenceSize: 1, offsetTableOffset: 0)
    }

    /// Validates the header, the trailer and the offset table of a whole file.
    /// - Parameters:
    ///   - bytes: The whole file.
    ///   - limits: The bounds to enforce.
    /// - Throws: ``PropertyListError`` if the header, trailer or offset table is invalid.
    /// - Complexity: O(*n*) in the number of objects, to validate the offset table.
    init(validating bytes: UnsafeBufferPointer<UInt8>, limits: PropertyListLimits) throws(PropertyListError) {
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
        let objectCount = ObjectHeader.bigEndian(bytes, at: trailerStart + 8, width: 8)
        let topObject = ObjectHeader.bigEndian(bytes, at: trailerStart + 16, width: 8)
        let tableOffset = ObjectHeader.bigEndian(bytes, at: trailerStart + 24, width: 8)
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
        try self.validateOffsetTable(bytes)
    }

    /// Checks that every offset-table entry points into the object area.
    private func validateOffsetTable(_ buffer: UnsafeBufferPointer<UInt8>) throws(PropertyListError) {
        let end = UInt64(self.offsetTableOffset)
        let width = self.offsetSize
        let count = self.objectCount
        let start = self.offsetTableOffset
        var bad: Int?
        // The widths files use get their own loops, each entry one load.
        switch width {
        case 1:
            for entry in 0..<count where UInt64(buffer[start + entry]) < 8 || UInt64(buffer[start + entry]) >= end {
                bad = start + entry
                break
            }
        case 2:
            bad = Self.firstBadEntry(buffer, start: start, count: count, end: end, as: UInt16.self)
        case 4:
            bad = Self.firstBadEntry(buffer, start: start, count: count, end: end, as: UInt32.self)
        default:
            var position = start
            for _ in 0..<count {
                let offset = ObjectHeader.bigEndian(buffer, at: position, width: width)
                if offset < 8 || offset >= end {
                    bad = position
                    break
                }
                position &+= width
            }
        }
        if let position = bad {
            let offset = ObjectHeader.bigEndian(buffer, at: position, width: width)
            throw PropertyListError(
                .invalidOffset,
                offset: position,
                reason: "object offset \(offset) is outside the object area 8..<\(end)"
            )
        }
    }

    /// The position of the first of `count` big-endian entries of type `Entry` at `start` that is
    /// not in `8..<end`, or `nil` if all are.
    @inline(__always)
    private static func firstBadEntry<Entry: FixedWidthInteger & UnsignedInteger>(
        _ buffer: UnsafeBufferPointer<UInt8>,
        start: Int,
        count: Int,
        end: UInt64,
        as: Entry.Type
    ) -> Int? {
        let raw = UnsafeRawBufferPointer(buffer)
        let size = MemoryLayout<Entry>.size
        var position = start
        for _ in 0..<count {
            let offset = UInt64(Entry(bigEndian: raw.loadUnaligned(fromByteOffset: position, as: Entry.self)))
            if offset &- 8 >= end &- 8 { return position }
            position &+= size
        }
        return nil
    }
}

extension BinaryPropertyListLayout {
    /// Builds the full value of the object at `index`, with its descendants.
    /// - Parameters:
    ///   - index: The object.
    ///   - limits: The bounds to enforce.
    ///   - buffer: The whole file, which this layout was validated against.
    /// - Throws: ``PropertyListError`` if any object reached is invalid, a container contains itself,
    ///   or a limit is exceeded.
    func buildValue(
        at index: Int,
        limits: PropertyListLimits,
        buffer: UnsafeBufferPointer<UInt8>
    ) throws(PropertyListError) -> PropertyListValue {
        try InPlaceReader.withReader(of: buffer, layout: self, limits: limits) { reader throws(PropertyListError) in
            var size = 0
            // A slot holds twice an object index plus 3.
            if self.objectCount < Int(Int32.max) / 2 - 2 {
                var builder = BinaryTreeBuilder<Int32>(reader: reader, layout: self, limits: limits, buffer: buffer)
                return try builder.value(at: index, addingSizeTo: &size)
            }
            var builder = BinaryTreeBuilder<Int>(reader: reader, layout: self, limits: limits, buffer: buffer)
            return try builder.value(at: index, addingSizeTo: &size)
        }
    }
}
