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

extension BinaryPropertyListTranscoder {
    typealias Value = BinaryPropertyListBuilder.Value

    /// Adds the object at `index` and its descendants to `builder` (a container's contents before
    /// it, as the builder keeps them); returns its value. The builder is the caller's, not a field:
    /// the walk's calls then copy no large state.
    mutating func add(_ index: Int, into builder: inout BinaryPropertyListBuilder) throws(PropertyListError) -> Value {
        let (header, offset) = try self.header(of: index)
        try self.countDecoded(header, at: offset)
        try Self.checkItemCount(of: builder, adding: header.count, at: offset)
        switch header.kind {
        case .array:
            try self.enter(index, at: offset)
            let start = self.pendingValues.count
            var position = header.payload
            for _ in 0..<header.count {
                let element = try self.add(self.reference(at: position), into: &builder)
                self.pendingValues.append(element)
                position &+= self.referenceSize
            }
            self.leave(index)
            return self.movePending(from: start, as: .array, into: &builder)
        case .dictionary:
            try self.enter(index, at: offset)
            // A repeated key keeps its first position and its last value, as the tree builder has it.
            // The keys go on the stack, then the values once every key is known.
            let keysStart = self.pendingValues.count
            let referencesStart = self.pendingReferences.count
            var keyPosition = header.payload
            var valuePosition = header.payload + header.count * self.referenceSize
            for _ in 0..<header.count {
                let keyIndex = self.reference(at: keyPosition)
                let key = try self.addLeaf(try self.keyHeader(keyIndex, ofDictionaryAt: offset), into: &builder)
                let value = self.reference(at: valuePosition)
                if let earlier = self.pendingValues[keysStart...].firstIndex(where: { $0.payload == key.payload }) {
                    self.pendingReferences[referencesStart + earlier - keysStart] = value
                } else {
                    self.pendingValues.append(key)
                    self.pendingReferences.append(value)
                }
                keyPosition &+= self.referenceSize
                valuePosition &+= self.referenceSize
            }
            for entry in 0..<(self.pendingValues.count - keysStart) {
                let value = try self.add(self.pendingReferences[referencesStart + entry], into: &builder)
                self.pendingValues.append(value)
            }
            self.pendingReferences.removeSubrange(referencesStart...)
            self.leave(index)
            return self.movePending(from: keysStart, as: .dictionary, into: &builder)
        default:
            return try self.addLeaf(header, into: &builder)
        }
    }

    /// Moves the values pushed on ``pendingValues`` since `start` into `builder` as one container:
    /// an array's elements, or a dictionary's keys then values.
    private mutating func movePending(
        from start: Int,
        as kind: Value.Kind,
        into builder: inout BinaryPropertyListBuilder
    ) -> Value {
        let itemsStart = builder.items.count
        let count = self.pendingValues.count - start
        builder.items.append(contentsOf: self.pendingValues[start...])
        self.pendingValues.removeSubrange(start...)
        let entries = UInt32(truncatingIfNeeded: kind == .array ? count : count / 2)
        return Value(kind: kind, payload: UInt64(itemsStart), count: entries)
    }

    /// Throws once the values to write would number more than a builder holds.
    private static func checkItemCount(
        of builder: BinaryPropertyListBuilder,
        adding count: Int,
        at offset: Int
    ) throws(PropertyListError) {
        guard builder.items.count + 2 * count < Int(UInt32.max) else {
            throw PropertyListError(.sizeLimitExceeded, offset: offset, reason: "more than 2^32 - 1 objects to write")
        }
    }

    /// The value of a leaf. A string is added to `builder`'s strings once per distinct sequence of
    /// UTF-16 code units, found in the input by ``interner`` without making a `String`.
    mutating func addLeaf(
        _ header: ObjectHeader,
        into builder: inout BinaryPropertyListBuilder
    ) throws(PropertyListError) -> Value {
        switch header.kind {
        case .bool(let bool):
            return .bool(bool)
        case .integer(let integer):
            return .integer(integer)
        case .real(let real):
            return .real(real)
        case .float(let float):
            return .float(float)
        case .date(let seconds):
            return Value(kind: .date, payload: seconds.bitPattern)
        case .uid(let uid):
            return .uid(uid)
        case .data:
            let bytes = UnsafeRawBufferPointer(
                rebasing: UnsafeRawBufferPointer(self.buffer)[header.payload..<(header.payload + header.count)]
            )
            return Value(kind: .data, payload: UInt64(builder.dataID(forBytes: bytes)))
        case .asciiString, .utf16String:
            let isUTF16: Bool
            if case .utf16String = header.kind { isUTF16 = true } else { isUTF16 = false }
            if !isUTF16 { try self.checkASCII(header) }
            let range = header.payload..<(header.payload + (isUTF16 ? 2 * header.count : header.count))
            let leaf = BinaryLeafInterner.Leaf(kind: isUTF16 ? .utf16String : .asciiString, range: range)
            let candidate = UInt32(truncatingIfNeeded: builder.strings.count)
            let (id, inserted) = self.interner.intern(leaf, candidate: candidate)
            if inserted {
                let string = try ObjectHeader.decodeString(self.buffer, range: range, isUTF16: isUTF16)
                // The interner and the pool tell strings apart alike (by code units, by their
                // UTF-8), so the pool's id for a new string is the candidate.
                _ = builder.strings.id(for: string)
            }
            return .string(id: id)
        case .array, .dictionary:
            // Never reached: `add(_:into:)` takes containers itself, and `keyHeader` lets only
            // strings through as keys.
            return .uid(0)
        }
    }
}
