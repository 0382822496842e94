//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-keyed-archive open source project
//
// Licensed under Apache License v2.0
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import PropertyLists

/// A single value container over the current object: decoding from it is transparent, so a type
/// that wraps a single value decodes from the value itself.
///
/// The container holds only the decoder and reads its current object, which is the container's
/// own for as long as the `init(from:)` that asked for it runs (nested values restore it when they
/// are done). One reference fits in an existential's inline buffer, so making the container
/// allocates nothing.
internal struct _ArchiveSingleValueDecodingContainer: SingleValueDecodingContainer {
    private let decoder: _ArchiveDecoder

    /// Creates a container over the decoder's current object.
    init(decoder: _ArchiveDecoder) {
        self.decoder = decoder
    }

    var codingPath: [any CodingKey] { self.decoder.codingPathNode.path }

    func decodeNil() -> Bool {
        self.decoder.isNil(self.decoder.object, uid: self.decoder.uid)
    }

    @inline(__always)
    private func decodeValue<T: Decodable>(_ type: T.Type) throws -> T {
        let decoder = self.decoder
        let position = ArchiveDecodingPosition(parent: decoder.codingPathNode, key: nil, owner: nil)
        return try decoder.decode(type, object: decoder.object, uid: decoder.uid, at: position, reentrant: true)
    }

    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try self.decodeValue(type)
    }

    func decode(_ type: Bool.Type) throws -> Bool {
        try self.decodeValue(type)
    }

    func decode(_ type: String.Type) throws -> String {
        try self.decodeValue(type)
    }

    func decode(_ type: Double.Type) throws -> Double {
        try self.decodeValue(type)
    }

    func decode(_ type: Float.Type) throws -> Float {
        try self.decodeValue(type)
    }

    func decode(_ type: Int.Type) throws -> Int {
        try self.decodeValue(type)
    }

    func decode(_ type: Int8.Type) throws -> Int8 {
        try self.decodeValue(type)
    }

    func decode(_ type: Int16.Type) throws -> Int16 {
        try self.decodeValue(type)
    }

    func decode(_ type: Int32.Type) throws -> Int32 {
        try self.decodeValue(type)
    }

    func decode(_ type: Int64.Type) throws -> Int64 {
        try self.decodeValue(type)
    }

    func decode(_ type: UInt.Type) throws -> UInt {
        try self.decodeValue(type)
    }

    func decode(_ type: UInt8.Type) throws -> UInt8 {
        try self.decodeValue(type)
    }

    func decode(_ type: UInt16.Type) throws -> UInt16 {
        try self.decodeValue(type)
    }

    func decode(_ type: UInt32.Type) throws -> UInt32 {
        try self.decodeValue(type)
    }

    func decode(_ type: UInt64.Type) throws -> UInt64 {
        try self.decodeValue(type)
    }
}
