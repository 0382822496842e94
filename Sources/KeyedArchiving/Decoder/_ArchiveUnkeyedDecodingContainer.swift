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

/// An unkeyed container over the elements of an array or set object.
internal struct _ArchiveUnkeyedDecodingContainer: UnkeyedDecodingContainer {
    private let decoder: _ArchiveDecoder
    private let uid: UID?
    /// The elements as stored: UIDs, or inline scalars.
    private let elements: ArchiveElements
    private let codingPathNode: CodingPathNode

    private(set) var currentIndex: Int = 0

    init(decoder: _ArchiveDecoder, object: InPlaceValue, uid: UID?, codingPath: CodingPathNode) throws {
        let position = ArchiveDecodingPosition(parent: codingPath, key: nil, owner: nil)
        self.elements = try decoder.unkeyedElements(of: object, uid: uid, at: position)
        self.decoder = decoder
        self.uid = uid
        self.codingPathNode = codingPath
    }

    var codingPath: [any CodingKey] { self.codingPathNode.path }

    var count: Int? { self.elements.count }

    var isAtEnd: Bool { self.currentIndex >= self.elements.count }

    @inline(__always)
    private var position: ArchiveDecodingPosition {
        ArchiveDecodingPosition(
            parent: self.codingPathNode,
            key: ArchiveDecodingIndexKey(self.currentIndex),
            owner: self.uid
        )
    }

    @inline(never)
    private func atEnd(_ type: Any.Type) -> DecodingError {
        .archiveValueNotFound(
            type,
            codingPath: self.position.node.path,
            description: "the container has only \(self.elements.count) elements"
        )
    }

    mutating func decodeNil() throws -> Bool {
        guard self.currentIndex < self.elements.count else { throw self.atEnd(Any?.self) }
        let stored = try self.decoder.storedElement(at: self.currentIndex, of: self.elements)
        guard self.decoder.isNil(stored: stored) else { return false }
        self.currentIndex += 1
        return true
    }

    @inline(__always)
    private mutating func decodeValue<T: Decodable>(_ type: T.Type) throws -> T {
        guard self.currentIndex < self.elements.count else { throw self.atEnd(type) }
        let stored = try self.decoder.storedElement(at: self.currentIndex, of: self.elements)
        let value = try self.decoder.decode(type, stored: stored, at: self.position)
        self.currentIndex += 1
        return value
    }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try self.decodeValue(type)
    }

    mutating func decode(_ type: Bool.Type) throws -> Bool {
        try self.decodeValue(type)
    }

    mutating func decode(_ type: String.Type) throws -> String {
        try self.decodeValue(type)
    }

    mutating func decode(_ type: Double.Type) throws -> Double {
        try self.decodeValue(type)
    }

    mutating func decode(_ type: Float.Type) throws -> Float {
        try self.decodeValue(type)
    }

    mutating func decode(_ type: Int.Type) throws -> Int {
        try self.decodeValue(type)
    }

    mutating func decode(_ type: Int8.Type) throws -> Int8 {
        try self.decodeValue(type)
    }

    mutating func decode(_ type: Int16.Type) throws -> Int16 {
        try self.decodeValue(type)
    }

    mutating func decode(_ type: Int32.Type) throws -> Int32 {
        try self.decodeValue(type)
    }

    mutating func decode(_ type: Int64.Type) throws -> Int64 {
        try self.decodeValue(type)
    }

    mutating func decode(_ type: UInt.Type) throws -> UInt {
        try self.decodeValue(type)
    }

    mutating func decode(_ type: UInt8.Type) throws -> UInt8 {
        try self.decodeValue(type)
    }

    mutating func decode(_ type: UInt16.Type) throws -> UInt16 {
        try self.decodeValue(type)
    }

    mutating func decode(_ type: UInt32.Type) throws -> UInt32 {
        try self.decodeValue(type)
    }

    mutating func decode(_ type: UInt64.Type) throws -> UInt64 {
        try self.decodeValue(type)
    }

    /// The next element, resolved, for a nested container.
    private mutating func nested(
        _ type: Any.Type
    ) throws -> (object: InPlaceValue, uid: UID?, node: CodingPathNode) {
        guard self.currentIndex < self.elements.count else { throw self.atEnd(type) }
        let position = self.position
        let stored = try self.decoder.storedElement(at: self.currentIndex, of: self.elements)
        let (object, uid) = try self.decoder.resolve(stored, at: position)
        let node = position.node
        try self.decoder.checkDepth(node, object: object, uid: uid, at: position)
        self.currentIndex += 1
        return (object, uid, node)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type
    ) throws -> KeyedDecodingContainer<NestedKey> {
        let (object, uid, node) = try self.nested(KeyedDecodingContainer<NestedKey>.self)
        return KeyedDecodingContainer(
            try _ArchiveKeyedDecodingContainer<NestedKey>(
                decoder: self.decoder,
                object: object,
                uid: uid,
                codingPath: node
            )
        )
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        let (object, uid, node) = try self.nested((any UnkeyedDecodingContainer).self)
        return try _ArchiveUnkeyedDecodingContainer(decoder: self.decoder, object: object, uid: uid, codingPath: node)
    }

    mutating func superDecoder() throws -> any Decoder {
        let (object, uid, node) = try self.nested((any Decoder).self)
        return _ArchiveDecoder(session: self.decoder.session, object: object, uid: uid, codingPath: node)
    }
}
