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

/// A keyed container over an object: its own keys (unescaped; `$class` and other reserved keys
/// left out), or the keys of an `NSDictionary`.
///
/// The state lives in one non-generic class: the standard library's container box copies the
/// container for every call, and containers run unspecialized for keys from other modules, so one
/// reference and no generic helpers keep each call cheap.
internal struct _ArchiveKeyedDecodingContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    private let storage: ArchiveKeyedDecodingStorage

    init(decoder: _ArchiveDecoder, object: InPlaceValue, uid: UID?, codingPath: CodingPathNode) throws {
        self.storage = try ArchiveKeyedDecodingStorage(
            decoder: decoder,
            object: object,
            uid: uid,
            codingPath: codingPath
        )
    }

    var codingPath: [any CodingKey] { self.storage.codingPathNode.path }

    var allKeys: [Key] {
        self.storage.keyNames.compactMap(Key.init(stringValue:))
    }

    func contains(_ key: Key) -> Bool {
        self.storage.contains(key.stringValue)
    }

    /// An absent key and UID 0 both read as `nil`, as `NSCoder` has it.
    func decodeNil(forKey key: Key) throws -> Bool {
        self.storage.decodeNil(forKey: key.stringValue)
    }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        guard ArchiveKeyedDecodingStorage.hasQuickForm(type) else { return try self.storage.decode(type, forKey: key) }
        let reference = self.storage.reference(forKey: key.stringValue)
        if let reference, let value = self.storage.quickValue(type, at: reference) { return value }
        return try self.storage.decode(type, forKey: key, reference: reference)
    }

    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        guard ArchiveKeyedDecodingStorage.hasQuickForm(type) else {
            return try self.storage.decodeIfPresent(type, forKey: key)
        }
        let reference = self.storage.reference(forKey: key.stringValue)
        if let reference, let value = self.storage.quickValue(type, at: reference) { return value }
        return try self.storage.decodeIfPresent(type, forKey: key, reference: reference)
    }

    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool {
        let reference = self.storage.reference(forKey: key.stringValue)
        if let reference, let value = self.storage.quickBool(at: reference) { return value }
        return try self.storage.decode(type, forKey: key, reference: reference)
    }

    func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? {
        let reference = self.storage.reference(forKey: key.stringValue)
        if let reference, let value = self.storage.quickBool(at: reference) { return value }
        return try self.storage.decodeIfPresent(type, forKey: key, reference: reference)
    }

    func decode(_ type: String.Type, forKey key: Key) throws -> String {
        let reference = self.storage.reference(forKey: key.stringValue)
        if let reference, let value = self.storage.quickString(at: reference) { return value }
        return try self.storage.decode(type, forKey: key, reference: reference)
    }

    func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? {
        let reference = self.storage.reference(forKey: key.stringValue)
        if let reference, let value = self.storage.quickString(at: reference) { return value }
        return try self.storage.decodeIfPresent(type, forKey: key, reference: reference)
    }

    func decode(_ type: Double.Type, forKey key: Key) throws -> Double {
        let reference = self.storage.reference(forKey: key.stringValue)
        if let reference, let value = self.storage.quickDouble(at: reference) { return value }
        return try self.storage.decode(type, forKey: key, reference: reference)
    }

    func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? {
        let reference = self.storage.reference(forKey: key.stringValue)
        if let reference, let value = self.storage.quickDouble(at: reference) { return value }
        return try self.storage.decodeIfPresent(type, forKey: key, reference: reference)
    }

    func decode(_ type: Float.Type, forKey key: Key) throws -> Float {
        try self.storage.decode(type, forKey: key)
    }

    func decodeIfPresent(_ type: Float.Type, forKey key: Key) throws -> Float? {
        try self.storage.decodeIfPresent(type, forKey: key)
    }

    func decode(_ type: Int.Type, forKey key: Key) throws -> Int {
        let reference = self.storage.reference(forKey: key.stringValue)
        if let reference, let value = self.storage.quickInt(at: reference) { return value }
        return try self.storage.decode(type, forKey: key, reference: reference)
    }

    func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? {
        let reference = self.storage.reference(forKey: key.stringValue)
        if let reference, let value = self.storage.quickInt(at: reference) { return value }
        return try self.storage.decodeIfPresent(type, forKey: key, reference: reference)
    }

    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 {
        try self.storage.decode(type, forKey: key)
    }

    func decodeIfPresent(_ type: Int8.Type, forKey key: Key) throws -> Int8? {
        try self.storage.decodeIfPresent(type, forKey: key)
    }

    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 {
        try self.storage.decode(type, forKey: key)
    }

    func decodeIfPresent(_ type: Int16.Type, forKey key: Key) throws -> Int16? {
        try self.storage.decodeIfPresent(type, forKey: key)
    }

    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 {
        try self.storage.decode(type, forKey: key)
    }

    func decodeIfPresent(_ type: Int32.Type, forKey key: Key) throws -> Int32? {
        try self.storage.decodeIfPresent(type, forKey: key)
    }

    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 {
        try self.storage.decode(type, forKey: key)
    }

    func decodeIfPresent(_ type: Int64.Type, forKey key: Key) throws -> Int64? {
        try self.storage.decodeIfPresent(type, forKey: key)
    }

    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt {
        try self.storage.decode(type, forKey: key)
    }

    func decodeIfPresent(_ type: UInt.Type, forKey key: Key) throws -> UInt? {
        try self.storage.decodeIfPresent(type, forKey: key)
    }

    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 {
        try self.storage.decode(type, forKey: key)
    }

    func decodeIfPresent(_ type: UInt8.Type, forKey key: Key) throws -> UInt8? {
        try self.storage.decodeIfPresent(type, forKey: key)
    }

    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 {
        try self.storage.decode(type, forKey: key)
    }

    func decodeIfPresent(_ type: UInt16.Type, forKey key: Key) throws -> UInt16? {
        try self.storage.decodeIfPresent(type, forKey: key)
    }

    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 {
        try self.storage.decode(type, forKey: key)
    }

    func decodeIfPresent(_ type: UInt32.Type, forKey key: Key) throws -> UInt32? {
        try self.storage.decodeIfPresent(type, forKey: key)
    }

    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 {
        try self.storage.decode(type, forKey: key)
    }

    func decodeIfPresent(_ type: UInt64.Type, forKey key: Key) throws -> UInt64? {
        try self.storage.decodeIfPresent(type, forKey: key)
    }

    func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type,
        forKey key: Key
    ) throws -> KeyedDecodingContainer<NestedKey> {
        let (object, uid, node) = try self.storage.nested(forKey: key)
        return KeyedDecodingContainer(
            try _ArchiveKeyedDecodingContainer<NestedKey>(
                decoder: self.storage.decoder,
                object: object,
                uid: uid,
                codingPath: node
            )
        )
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        let (object, uid, node) = try self.storage.nested(forKey: key)
        return try _ArchiveUnkeyedDecodingContainer(
            decoder: self.storage.decoder,
            object: object,
            uid: uid,
            codingPath: node
        )
    }

    /// A decoder over this same object, as `super.init(coder:)` reads the same keys.
    func superDecoder() throws -> any Decoder {
        self.storage.superDecoder()
    }

    /// A decoder over the object at a key; over `nil` when the key is absent.
    func superDecoder(forKey key: Key) throws -> any Decoder {
        try self.storage.superDecoder(forKey: key)
    }
}
