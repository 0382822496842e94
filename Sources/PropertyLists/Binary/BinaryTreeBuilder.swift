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
/// subtrees cost neither time nor memory per reference (a "billion laughs" input stays linear).
/// A container met again while it is still being built is a cycle and throws.
internal struct BinaryTreeBuilder {
    private let buffer: UnsafeBufferPointer<UInt8>
    private let objectCount: Int
    private let offsetTable: Int
    private let offsetSize: Int
    private let referenceSize: Int
    private let end: Int
    private let maximumDepth: Int
    private var cache: [PropertyListValue?]
    private var inProgress: [Bool]
    private var depth = 0
    /// Byte ranges of the ASCII keys of the dictionaries being built, innermost last; each
    /// dictionary uses the slots from where it started and gives them back when done.
    private var keyRanges: [Range<Int>] = []

    init(reader: BinaryPropertyListReader, buffer: UnsafeBufferPointer<UInt8>) {
        self.buffer = buffer
        self.objectCount = reader.objectCount
        self.offsetTable = reader.offsetTableOffset
        self.offsetSize = reader.offsetSize
        self.referenceSize = reader.referenceSize
        self.end = reader.offsetTableOffset
        self.maximumDepth = reader.limits.maximumDepth
        self.cache = [PropertyListValue?](repeating: nil, count: reader.objectCount)
        self.inProgress = [Bool](repeating: false, count: reader.objectCount)
    }

    @inline(__always)
    private func reference(at offset: Int) -> Int {
        Int(truncatingIfNeeded: ObjectHeader.bigEndian(self.buffer, at: offset, width: self.referenceSize))
    }

    mutating func value(at index: Int) throws(PropertyListError) -> PropertyListValue {
        // An 8-byte reference of 2^63 or more reads as a negative index.
        guard index >= 0, index < self.objectCount else {
            throw PropertyListError(
                .invalidReference,
                reason: "object reference \(UInt(bitPattern: index)) is not below the object count \(self.objectCount)"
            )
        }
        if let cached = self.cache[index] { return cached }
        let offset = Int(
            truncatingIfNeeded: ObjectHeader.bigEndian(
                self.buffer,
                at: self.offsetTable + index * self.offsetSize,
                width: self.offsetSize
            )
        )
        let header = try ObjectHeader(self.buffer, at: offset, end: self.end, referenceSize: self.referenceSize)
        let value: PropertyListValue
        switch header.kind {
        case .bool(let bool): value = .bool(bool)
        case .integer(let integer): value = .integer(integer)
        case .real(let real): value = .real(real)
        case .float(let float): value = .float(float)
        case .date(let seconds): value = .date(Date(timeIntervalSinceReferenceDate: seconds))
        case .uid(let uid): value = .uid(UID(uid))
        case .data:
            value = .data(
                Data(UnsafeBufferPointer(rebasing: self.buffer[header.payload..<(header.payload + header.count)]))
            )
        case .asciiString:
            value = .string(
                try ObjectHeader.decodeString(
                    self.buffer,
                    range: header.payload..<(header.payload + header.count),
                    isUTF16: false
                )
            )
        case .utf16String:
            value = .string(
                try ObjectHeader.decodeString(
                    self.buffer,
                    range: header.payload..<(header.payload + 2 * header.count),
                    isUTF16: true
                )
            )
        case .array:
            try self.enter(index, at: offset)
            var elements = [PropertyListValue]()
            elements.reserveCapacity(header.count)
            var position = header.payload
            for _ in 0..<header.count {
                elements.append(try self.value(at: self.reference(at: position)))
                position &+= self.referenceSize
            }
            self.leave(index)
            value = .array(elements)
        case .dictionary:
            try self.enter(index, at: offset)
            var entries = ContiguousArray<PropertyListDictionary.Element>()
            entries.reserveCapacity(header.count)
            let rangesStart = self.keyRanges.count
            var keysAreASCII = header.count <= PropertyListDictionary.hashThreshold
            var keyPosition = header.payload
            var valuePosition = header.payload + header.count * self.referenceSize
            for _ in 0..<header.count {
                let keyIndex = self.reference(at: keyPosition)
                guard case .string(let key) = try self.value(at: keyIndex) else {
                    throw PropertyListError(
                        .invalidDictionaryKey,
                        offset: offset,
                        reason: "dictionary key (object \(keyIndex)) is not a string"
                    )
                }
                if keysAreASCII {
                    if let range = self.asciiStringRange(of: keyIndex) {
                        self.keyRanges.append(range)
                    } else {
                        keysAreASCII = false
                    }
                }
                entries.append((key, try self.value(at: self.reference(at: valuePosition))))
                keyPosition &+= self.referenceSize
                valuePosition &+= self.referenceSize
            }
            let keysAreDistinct = keysAreASCII && self.rangesAreDistinct(from: rangesStart)
            self.keyRanges.removeSubrange(rangesStart...)
            self.leave(index)
            value = .dictionary(PropertyListDictionary(readEntries: entries, keysAreDistinct: keysAreDistinct))
        }
        switch header.kind {
        case .asciiString, .utf16String, .data, .array, .dictionary:
            // Worth keeping: shared strings, data and containers are then built once.
            self.cache[index] = value
        default:
            // Scalars are cheaper to decode again than to store and later destroy.
            break
        }
        return value
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
        if self.inProgress[index] {
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
        self.inProgress[index] = true
    }

    @inline(__always)
    private mutating func leave(_ index: Int) {
        self.inProgress[index] = false
        self.depth -= 1
    }
}
