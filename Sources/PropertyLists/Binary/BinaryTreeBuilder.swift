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
        guard index < self.objectCount else {
            throw PropertyListError(
                .invalidReference,
                reason: "object reference \(index) is not below the object count \(self.objectCount)"
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
                entries.append((key, try self.value(at: self.reference(at: valuePosition))))
                keyPosition &+= self.referenceSize
                valuePosition &+= self.referenceSize
            }
            self.leave(index)
            value = .dictionary(PropertyListDictionary(readEntries: entries))
        }
        self.cache[index] = value
        return value
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
