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
internal struct _ArchiveSingleValueDecodingContainer: SingleValueDecodingContainer {
    private let decoder: _ArchiveDecoder
    private let object: PropertyListValue
    private let uid: UID?
    private let codingPathNode: CodingPathNode

    init(decoder: _ArchiveDecoder, object: PropertyListValue, uid: UID?, codingPath: CodingPathNode) {
        self.decoder = decoder
        self.object = object
        self.uid = uid
        self.codingPathNode = codingPath
    }

    var codingPath: [any CodingKey] { self.codingPathNode.path }

    func decodeNil() -> Bool {
        self.decoder.isNil(self.object, uid: self.uid)
    }

    @inline(__always)
    private func decodeValue<T: Decodable>(_ type: T.Type) throws -> T {
        let position = ArchiveDecodingPosition(parent: self.codingPathNode, key: nil, owner: nil)
        return try self.decoder.decode(type, object: self.object, uid: self.uid, at: position, reentrant: true)
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
