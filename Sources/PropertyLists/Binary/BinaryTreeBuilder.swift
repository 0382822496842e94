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
/// subtrees cost neither time nor memory per reference. A container met again while it is still
/// being built is a cycle and throws.
///
/// The decoded size of each object (see `PropertyListLimits`) is computed once too, counting
/// shared children at every reference; a tree larger than the budget throws, so whoever walks the
/// resulting value (printers, writers, comparisons) does work bounded by the budget, not by the
/// exponential size a "billion laughs" input describes.
internal struct BinaryTreeBuilder {
    private let buffer: UnsafeBufferPointer<UInt8>
    private let objectCount: Int
    private let offsetTable: Int
    private let offsetSize: Int
    private let referenceSize: Int
    private let end: Int
    private let maximumDepth: Int
    private let maximumCollectionCount: Int
    private let maximumStringLength: Int
    private let maximumDataLength: Int
    private let decodedSizeBudget: Int
    /// The value of each object built and kept so far, valid where ``states`` holds a size. Not
    /// optional: reading an optional enum out of the array went through generic value witnesses.
    private var cache: [PropertyListValue]
    /// Per object: ``building`` while a container is being built, then the decoded size of a cached
    /// object (at least `PropertyListLimits.decodedValueSize`); one array serves both.
    private var states: [Int]
    /// The state of a container being built.
    private static var building: Int { -1 }
    private var depth = 0
    /// Byte ranges of the ASCII keys of the dictionaries being built, innermost last; each
    /// dictionary uses the slots from where it started and gives them back when done.
    private var keyRanges: [Range<Int>] = []
    /// The byte range of the ASCII string ``value(at:addingSizeTo:)`` decoded last; dictionaries
    /// clear it before reading a key, so it stays `nil` for a key that came from the cache.
    private var lastASCIIRange: Range<Int>?

    init(reader: BinaryPropertyListReader, buffer: UnsafeBufferPointer<UInt8>) {
        self.buffer = buffer
        self.objectCount = reader.objectCount
        self.offsetTable = reader.offsetTableOffset
        self.offsetSize = reader.offsetSize
        self.referenceSize = reader.referenceSize
        self.end = reader.offsetTableOffset
        self.maximumDepth = reader.limits.maximumDepth
        self.maximumCollectionCount = reader.limits.maximumCollectionCount
        self.maximumStringLength = reader.limits.maximumStringLength
        self.maximumDataLength = reader.limits.maximumDataLength
        self.decodedSizeBudget = reader.limits.decodedSizeBudget(forInputSize: reader.bytes.count)
        self.cache = [PropertyListValue](repeating: .bool(false), count: reader.objectCount)
        self.states = [Int](repeating: 0, count: reader.objectCount)
    }

    @inline(__always)
    private func reference(at offset: Int) -> Int {
        Int(truncatingIfNeeded: ObjectHeader.bigEndian(self.buffer, at: offset, width: self.referenceSize))
    }

    /// Builds the value of the object at `index`.
    /// - Parameters:
    ///   - index: The object.
    ///   - total: A decoded size that the value's decoded size is added to.
    mutating func value(at index: Int, addingSizeTo total: inout Int) throws(PropertyListError) -> PropertyListValue {
        // An 8-byte reference of 2^63 or more reads as a negative index.
        guard index >= 0, index < self.objectCount else {
            throw PropertyListError(
                .invalidReference,
                reason: "object reference \(UInt(bitPattern: index)) is not below the object count \(self.objectCount)"
            )
        }
        let state = self.states[index]
        if state > 0 {
            total = Self.adding(state, to: total)
            return self.cache[index]
        }
        let offset = Int(
            truncatingIfNeeded: ObjectHeader.bigEndian(
                self.buffer,
                at: self.offsetTable + index * self.offsetSize,
                width: self.offsetSize
            )
        )
        let header = try ObjectHeader(self.buffer, at: offset, end: self.end, referenceSize: self.referenceSize)
        let value: PropertyListValue
        var size = PropertyListLimits.decodedValueSize
        switch header.kind {
        case .bool(let bool): value = .bool(bool)
        case .integer(let integer): value = .integer(integer)
        case .real(let real): value = .real(real)
        case .float(let float): value = .float(float)
        case .date(let seconds): value = .date(Date(timeIntervalSinceReferenceDate: seconds))
        case .uid(let uid): value = .uid(UID(uid))
        case .data:
            try self.checkLength(header.count, limit: self.maximumDataLength, of: "data", at: offset)
            size &+= header.count
            value = .data(
                Data(UnsafeBufferPointer(rebasing: self.buffer[header.payload..<(header.payload + header.count)]))
            )
        case .asciiString:
            try self.checkLength(header.count, limit: self.maximumStringLength, of: "string", at: offset)
            size &+= header.count
            let range = header.payload..<(header.payload + header.count)
            value = .string(try ObjectHeader.decodeString(self.buffer, range: range, isUTF16: false))
            self.lastASCIIRange = range
        case .utf16String:
            try self.checkLength(2 * header.count, limit: self.maximumStringLength, of: "string", at: offset)
            size &+= 2 * header.count
            value = .string(
                try ObjectHeader.decodeString(
                    self.buffer,
                    range: header.payload..<(header.payload + 2 * header.count),
                    isUTF16: true
                )
            )
        case .array:
            try self.checkLength(header.count, limit: self.maximumCollectionCount, of: "array", at: offset)
            try self.enter(index, at: offset)
            var elements = [PropertyListValue]()
            elements.reserveCapacity(header.count)
            var position = header.payload
            for _ in 0..<header.count {
                elements.append(try self.value(at: self.reference(at: position), addingSizeTo: &size))
                position &+= self.referenceSize
            }
            self.leave()
            try self.checkDecodedSize(size, at: offset)
            value = .array(elements)
        case .dictionary:
            try self.checkLength(header.count, limit: self.maximumCollectionCount, of: "dictionary", at: offset)
            try self.enter(index, at: offset)
            var entries = ContiguousArray<PropertyListDictionary.Element>()
            entries.reserveCapacity(header.count)
            let rangesStart = self.keyRanges.count
            var keysAreASCII = header.count <= PropertyListDictionary.hashThreshold
            var keyPosition = header.payload
            var valuePosition = header.payload + header.count * self.referenceSize
            for _ in 0..<header.count {
                let keyIndex = self.reference(at: keyPosition)
                self.lastASCIIRange = nil
                guard case .string(let key) = try self.value(at: keyIndex, addingSizeTo: &size) else {
                    throw PropertyListError(
                        .invalidDictionaryKey,
                        offset: offset,
                        reason: "dictionary key (object \(keyIndex)) is not a string"
                    )
                }
                if keysAreASCII {
                    if let range = self.lastASCIIRange ?? self.asciiStringRange(of: keyIndex) {
                        self.keyRanges.append(range)
                    } else {
                        keysAreASCII = false
                    }
                }
                entries.append((key, try self.value(at: self.reference(at: valuePosition), addingSizeTo: &size)))
                keyPosition &+= self.referenceSize
                valuePosition &+= self.referenceSize
            }
            let keysAreDistinct = keysAreASCII && self.rangesAreDistinct(from: rangesStart)
            self.keyRanges.removeLast(self.keyRanges.count - rangesStart)
            self.leave()
            try self.checkDecodedSize(size, at: offset)
            value = .dictionary(PropertyListDictionary(readEntries: entries, keysAreDistinct: keysAreDistinct))
        }
        switch header.kind {
        case .asciiString, .utf16String, .data, .array, .dictionary:
            // Worth keeping: shared strings, data and containers are then built once.
            self.cache[index] = value
            self.states[index] = size
        default:
            // Scalars are cheaper to decode again than to store and later destroy.
            break
        }
        total = Self.adding(size, to: total)
        return value
    }

    /// Adds a child's decoded size to its container's, saturating far above any budget.
    @inline(__always)
    private static func adding(_ child: Int, to size: Int) -> Int {
        min(size &+ child, Int.max / 4)
    }

    /// Throws once a container's decoded size exceeds the budget.
    @inline(__always)
    private func checkDecodedSize(_ size: Int, at offset: Int) throws(PropertyListError) {
        guard size <= self.decodedSizeBudget else { throw self.decodedSizeExceeded(at: offset) }
    }

    @inline(never)
    private func decodedSizeExceeded(at offset: Int) -> PropertyListError {
        PropertyListError(
            .decodedSizeLimitExceeded,
            offset: offset,
            reason: "with shared objects repeated, the value would exceed \(self.decodedSizeBudget) decoded bytes"
        )
    }

    /// Checks a string's, data value's or container's length against its limit.
    @inline(__always)
    private func checkLength(_ length: Int, limit: Int, of kind: StaticString, at offset: Int) throws(PropertyListError)
    {
        guard length <= limit else { throw Self.lengthExceeded(length, limit: limit, of: kind, at: offset) }
    }

    @inline(never)
    private static func lengthExceeded(
        _ length: Int,
        limit: Int,
        of kind: StaticString,
        at offset: Int
    )
        -> PropertyListError
    {
        PropertyListError(
            .sizeLimitExceeded,
            offset: offset,
            reason: "a \(kind) of \(length) exceeds the limit of \(limit)"
        )
    }

    /// The byte range of the string object at `index` if it is an ASCII string (already validated
    /// by decoding it), else `nil`.
    private func asciiStringRange(of index: Int) -> Range<Int>? {
        let offset = Int(
            truncatingIfNeeded: ObjectHeader.bigEndian(
                self.buffer,
                at: self.offsetTable + index * self.offsetSize,
                width: self.offsetSize
            )
        )
        let marker = self.buffer[offset]
        guard marker >> 4 == 0x5 else { return nil }
        // Short strings keep their length in the marker; the header was validated when decoded.
        if marker & 0x0F != 0x0F { return (offset + 1)..<(offset + 1 + Int(marker & 0x0F)) }
        guard let header = try? ObjectHeader(self.buffer, at: offset, end: self.end, referenceSize: self.referenceSize),
            case .asciiString = header.kind
        else { return nil }
        return header.payload..<(header.payload + header.count)
    }

    /// Whether the ASCII key ranges from `start` on hold pairwise different bytes. Equal ASCII
    /// strings have equal bytes, so different bytes prove the keys distinct without building or
    /// comparing `String`s.
    private func rangesAreDistinct(from start: Int) -> Bool {
        let ranges = self.keyRanges
        for later in (start + 1)..<max(start + 1, ranges.count) {
            for earlier in start..<later where ranges[earlier].count == ranges[later].count {
                if ranges[earlier] == ranges[later] || self.bytesEqual(ranges[earlier], ranges[later]) {
                    return false
                }
            }
        }
        return true
    }

    /// Whether two equally long byte ranges of the input hold the same bytes, compared eight at a time.
    @inline(__always)
    private func bytesEqual(_ lhs: Range<Int>, _ rhs: Range<Int>) -> Bool {
        let count = lhs.count
        guard count == rhs.count, let base = self.buffer.baseAddress else { return count == rhs.count }
        let left = UnsafeRawPointer(base + lhs.lowerBound)
        let right = UnsafeRawPointer(base + rhs.lowerBound)
        var offset = 0
        while offset + 8 <= count {
            if left.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
                != right.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
            {
                return false
            }
            offset += 8
        }
        while offset < count {
            if left.load(fromByteOffset: offset, as: UInt8.self) != right.load(fromByteOffset: offset, as: UInt8.self) {
                return false
            }
            offset += 1
        }
        return true
    }

    @inline(__always)
    private mutating func enter(_ index: Int, at offset: Int) throws(PropertyListError) {
        if self.states[index] == Self.building {
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
        self.states[index] = Self.building
    }

    /// Ends building a container; its state becomes its decoded size when it is cached.
    @inline(__always)
    private mutating func leave() {
        self.depth -= 1
    }
}
