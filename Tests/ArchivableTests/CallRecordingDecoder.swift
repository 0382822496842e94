//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-keyed-archive open source project
//
// Licensed under Apache License v2.0
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// The keyed-container calls a type's `init(from:)` makes, in order, as `"decode(String) name"`
/// (a scalar overload) or `"decode<T> name"` (the generic one). Decoders read the scalar overloads
/// faster, so generated code must call the ones synthesized code calls.
final class ContainerCallLog {
    private(set) var calls: [String] = []

    func record(_ call: String, _ key: some CodingKey) {
        self.calls.append("\(call) \(key.stringValue)")
    }

    /// The calls `Value.init(from:)` makes on its keyed container, decoding from `decoder`.
    static func calls<Value: Decodable>(decoding type: Value.Type, from decoder: any Decoder) throws -> [String] {
        let log = ContainerCallLog()
        _ = try Value(from: CallRecordingDecoder(inner: decoder, log: log))
        return log.calls
    }
}

/// Decodes `Value` through a ``CallRecordingDecoder`` over the decoder that decodes this, and
/// keeps the calls: `JSONDecoder().decode(RecordedCalls<Cat>.self, from: data).calls`.
struct RecordedCalls<Value: Decodable>: Decodable {
    let calls: [String]

    init(from decoder: any Decoder) throws {
        self.calls = try ContainerCallLog.calls(decoding: Value.self, from: decoder)
    }
}

/// A decoder that forwards to another and logs the calls on its top keyed container.
struct CallRecordingDecoder: Decoder {
    let inner: any Decoder
    let log: ContainerCallLog

    var codingPath: [any CodingKey] { self.inner.codingPath }
    var userInfo: [CodingUserInfoKey: Any] { self.inner.userInfo }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        KeyedDecodingContainer(RecordingKeyedContainer(inner: try self.inner.container(keyedBy: type), log: self.log))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        try self.inner.unkeyedContainer()
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        try self.inner.singleValueContainer()
    }
}

/// The keyed container of ``CallRecordingDecoder``.
struct RecordingKeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let inner: KeyedDecodingContainer<Key>
    let log: ContainerCallLog

    var codingPath: [any CodingKey] { self.inner.codingPath }
    var allKeys: [Key] { self.inner.allKeys }

    func contains(_ key: Key) -> Bool {
        self.log.record("contains", key)
        return self.inner.contains(key)
    }

    func decodeNil(forKey key: Key) throws -> Bool {
        self.log.record("decodeNil", key)
        return try self.inner.decodeNil(forKey: key)
    }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        self.log.record("decode<T>", key)
        return try self.inner.decode(type, forKey: key)
    }

    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        self.log.record("decodeIfPresent<T>", key)
        return try self.inner.decodeIfPresent(type, forKey: key)
    }

    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool {
        self.log.record("decode(Bool)", key)
        return try self.inner.decode(type, forKey: key)
    }

    func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? {
        self.log.record("decodeIfPresent(Bool)", key)
        return try self.inner.decodeIfPresent(type, forKey: key)
    }

    func decode(_ type: String.Type, forKey key: Key) throws -> String {
        self.log.record("decode(String)", key)
        return try self.inner.decode(type, forKey: key)
    }

    func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? {
        self.log.record("decodeIfPresent(String)", key)
        return try self.inner.decodeIfPresent(type, forKey: key)
    }

    func decode(_ type: Double.Type, forKey key: Key) throws -> Double {
        self.log.record("decode(Double)", key)
        return try self.inner.decode(type, forKey: key)
    }

    func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? {
        self.log.record("decodeIfPresent(Double)", key)
        return try self.inner.decodeIfPresent(type, forKey: key)
    }

    func decode(_ type: Float.Type, forKey key: Key) throws -> Float {
        self.log.record("decode(Float)", key)
        return try self.inner.decode(type, forKey: key)
    }

    func decodeIfPresent(_ type: Float.Type, forKey key: Key) throws -> Float? {
        self.log.record("decodeIfPresent(Float)", key)
        return try self.inner.decodeIfPresent(type, forKey: key)
    }

    func decode(_ type: Int.Type, forKey key: Key) throws -> Int {
        self.log.record("decode(Int)", key)
        return try self.inner.decode(type, forKey: key)
    }

    func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? {
        self.log.record("decodeIfPresent(Int)", key)
        return try self.inner.decodeIfPresent(type, forKey: key)
    }

    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 {
        self.log.record("decode(Int8)", key)
        return try self.inner.decode(type, forKey: key)
    }

    func decodeIfPresent(_ type: Int8.Type, forKey key: Key) throws -> Int8? {
        self.log.record("decodeIfPresent(Int8)", key)
        return try self.inner.decodeIfPresent(type, forKey: key)
    }

    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 {
        self.log.record("decode(Int16)", key)
        return try self.inner.decode(type, forKey: key)
    }

    func decodeIfPresent(_ type: Int16.Type, forKey key: Key) throws -> Int16? {
        self.log.record("decodeIfPresent(Int16)", key)
        return try self.inner.decodeIfPresent(type, forKey: key)
    }

    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 {
        self.log.record("decode(Int32)", key)
        return try self.inner.decode(type, forKey: key)
    }

    func decodeIfPresent(_ type: Int32.Type, forKey key: Key) throws -> Int32? {
        self.log.record("decodeIfPresent(Int32)", key)
        return try self.inner.decodeIfPresent(type, forKey: key)
    }

    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 {
        self.log.record("decode(Int64)", key)
        return try self.inner.decode(type, forKey: key)
    }

    func decodeIfPresent(_ type: Int64.Type, forKey key: Key) throws -> Int64? {
        self.log.record("decodeIfPresent(Int64)", key)
        return try self.inner.decodeIfPresent(type, forKey: key)
    }

    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt {
        self.log.record("decode(UInt)", key)
        return try self.inner.decode(type, forKey: key)
    }

    func decodeIfPresent(_ type: UInt.Type, forKey key: Key) throws -> UInt? {
        self.log.record("decodeIfPresent(UInt)", key)
        return try self.inner.decodeIfPresent(type, forKey: key)
    }

    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 {
        self.log.record("decode(UInt8)", key)
        return try self.inner.decode(type, forKey: key)
    }

    func decodeIfPresent(_ type: UInt8.Type, forKey key: Key) throws -> UInt8? {
        self.log.record("decodeIfPresent(UInt8)", key)
        return try self.inner.decodeIfPresent(type, forKey: key)
    }

    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 {
        self.log.record("decode(UInt16)", key)
        return try self.inner.decode(type, forKey: key)
    }

    func decodeIfPresent(_ type: UInt16.Type, forKey key: Key) throws -> UInt16? {
        self.log.record("decodeIfPresent(UInt16)", key)
        return try self.inner.decodeIfPresent(type, forKey: key)
    }

    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 {
        self.log.record("decode(UInt32)", key)
        return try self.inner.decode(type, forKey: key)
    }

    func decodeIfPresent(_ type: UInt32.Type, forKey key: Key) throws -> UInt32? {
        self.log.record("decodeIfPresent(UInt32)", key)
        return try self.inner.decodeIfPresent(type, forKey: key)
    }

    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 {
        self.log.record("decode(UInt64)", key)
        return try self.inner.decode(type, forKey: key)
    }

    func decodeIfPresent(_ type: UInt64.Type, forKey key: Key) throws -> UInt64? {
        self.log.record("decodeIfPresent(UInt64)", key)
        return try self.inner.decodeIfPresent(type, forKey: key)
    }

    func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type,
        forKey key: Key
    ) throws -> KeyedDecodingContainer<NestedKey> {
        try self.inner.nestedContainer(keyedBy: type, forKey: key)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try self.inner.nestedUnkeyedContainer(forKey: key)
    }

    func superDecoder() throws -> any Decoder {
        try self.inner.superDecoder()
    }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        try self.inner.superDecoder(forKey: key)
    }
}
