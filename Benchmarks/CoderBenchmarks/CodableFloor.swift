//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-keyed-archive open source project
//
// Licensed under Apache License v2.0
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation

// The floor of the `Codable` protocols: an encoder and a decoder that do only what every coder
// must do, so that a benchmark can tell the cost of `Codable` itself from the cost of a format.
//
// `FloorEncoder` walks a value as any encoder does (a keyed container per struct, a single-value one
// per enum, a call per property) and appends each scalar to a flat tape. `FloorDecoder` replays that
// tape through the same calls and rebuilds the value, so it makes every `String`, array and struct a
// real decoder makes, but finds nothing by key: it assumes the keys come in the order they were
// encoded. Both take the shortcuts any coder may take: exact type checks with no dynamic cast
// (`T.self == Date.self`, then a bit cast), and `[String]` and `Date` handled where they are met
// instead of through their own `encode(to:)` / `init(from:)`. A real format does all this and more,
// so these times bound from below what any `Codable` coder can reach on the same value.

/// One scalar of a value walked by ``FloorEncoder``.
enum FloorToken: Equatable {
    case string(String)
    case double(Double)
    case integer(Int)
    case bool(Bool)
    /// An unsigned integer too large for `integer`.
    case unsigned(UInt64)
    case float(Float)
    /// `Data`, `URL` and `UUID` are kept whole, as the real coders read and write them as one
    /// object each.
    case data(Data)
    case url(URL)
    case uuid(UUID)
    /// An optional that was `nil`.
    case null
    /// The number of elements of the unkeyed container that follows.
    case count(Int)
}

/// Walks a value through `Encodable` and keeps its scalars, in order, on a tape; or, made with
/// `keepsTape: false`, only counts them, which measures the walk alone.
final class FloorEncoder: Encoder {
    /// The scalars met so far.
    var tape: [FloorToken] = []
    /// Whether scalars go on ``tape``.
    let keepsTape: Bool
    /// How many scalars were met, when ``keepsTape`` is `false`.
    private(set) var scalarCount = 0
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    init(keepsTape: Bool = true) {
        self.keepsTape = keepsTape
    }

    /// Keeps a scalar on the tape, or counts it.
    @inline(__always)
    func record(_ token: FloorToken) {
        if self.keepsTape { self.tape.append(token) } else { self.scalarCount &+= 1 }
    }

    /// Walks `value`, replacing the tape.
    func encode(_ value: some Encodable) throws {
        self.tape.removeAll(keepingCapacity: true)
        self.scalarCount = 0
        try value.encode(to: self)
    }

    /// Appends a value: a `Date` as its time interval and a `[String]` as its count and strings,
    /// `Data`, `URL` and `UUID` whole, as the real coders special-case them, and the other standard
    /// scalars as one token; anything else through its `encode(to:)`.
    func append<T: Encodable>(_ value: T) throws {
        if let token = Self.scalarToken(value) {
            self.record(token)
        } else if T.self == Date.self {
            self.record(.double(unsafeBitCast(value, to: Date.self).timeIntervalSinceReferenceDate))
        } else if T.self == [String].self {
            let strings = unsafeBitCast(value, to: [String].self)
            self.record(.count(strings.count))
            for string in strings { self.record(.string(string)) }
        } else {
            try value.encode(to: self)
        }
    }

    /// The token of a standard scalar other than `Bool`, `String`, `Double` and `Int` (which the
    /// containers record themselves), or of `Data`, `URL` or `UUID`; `nil` for anything else. Each
    /// test is on the metatype, decided when `T` is specialised.
    @inline(__always)
    static func scalarToken<T>(_ value: T) -> FloorToken? {
        func integer<I: FixedWidthInteger>(_ type: I.Type) -> FloorToken {
            let integer = unsafeBitCast(value, to: I.self)
            if let signed = Int(exactly: integer) { return .integer(signed) }
            return .unsigned(UInt64(truncatingIfNeeded: integer))
        }
        if T.self == Int64.self { return integer(Int64.self) }
        if T.self == Int32.self { return integer(Int32.self) }
        if T.self == Int16.self { return integer(Int16.self) }
        if T.self == Int8.self { return integer(Int8.self) }
        if T.self == UInt.self { return integer(UInt.self) }
        if T.self == UInt64.self { return integer(UInt64.self) }
        if T.self == UInt32.self { return integer(UInt32.self) }
        if T.self == UInt16.self { return integer(UInt16.self) }
        if T.self == UInt8.self { return integer(UInt8.self) }
        if T.self == Float.self { return .float(unsafeBitCast(value, to: Float.self)) }
        if T.self == Data.self { return .data(unsafeBitCast(value, to: Data.self)) }
        if T.self == URL.self { return .url(unsafeBitCast(value, to: URL.self)) }
        if T.self == UUID.self { return .uuid(unsafeBitCast(value, to: UUID.self)) }
        return nil
    }

    /// Whether ``scalarToken(_:)`` writes values of `type` as one token.
    @inline(__always)
    static func isScalarTokenType<T>(_ type: T.Type) -> Bool {
        T.self == Int64.self || T.self == Int32.self || T.self == Int16.self || T.self == Int8.self
            || T.self == UInt.self || T.self == UInt64.self || T.self == UInt32.self || T.self == UInt16.self
            || T.self == UInt8.self || T.self == Float.self || T.self == Data.self || T.self == URL.self
            || T.self == UUID.self
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        KeyedEncodingContainer(FloorKeyedEncodingContainer(encoder: self))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        self.record(.count(0))
        return FloorUnkeyedEncodingContainer(encoder: self, countIndex: self.tape.count - 1)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        FloorSingleValueEncodingContainer(encoder: self)
    }
}

private struct FloorKeyedEncodingContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let encoder: FloorEncoder
    var codingPath: [any CodingKey] { [] }

    mutating func encodeNil(forKey key: Key) throws { self.encoder.record(.null) }
    mutating func encode(_ value: Bool, forKey key: Key) throws { self.encoder.record(.bool(value)) }
    mutating func encode(_ value: String, forKey key: Key) throws { self.encoder.record(.string(value)) }
    mutating func encode(_ value: Double, forKey key: Key) throws { self.encoder.record(.double(value)) }
    mutating func encode(_ value: Int, forKey key: Key) throws { self.encoder.record(.integer(value)) }
    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws { try self.encoder.append(value) }

    // The default `encodeIfPresent` skips `nil`; the tape keeps it, as an archive keeps `$null`.
    mutating func encodeIfPresent(_ value: String?, forKey key: Key) throws {
        self.encoder.record(value.map(FloorToken.string) ?? .null)
    }

    mutating func encodeIfPresent<T: Encodable>(_ value: T?, forKey key: Key) throws {
        if let value { try self.encoder.append(value) } else { self.encoder.record(.null) }
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type,
        forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
        self.encoder.container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        self.encoder.unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder { self.encoder }
    mutating func superEncoder(forKey key: Key) -> any Encoder { self.encoder }
}

private struct FloorUnkeyedEncodingContainer: UnkeyedEncodingContainer {
    let encoder: FloorEncoder
    /// Where the element count sits on the tape.
    let countIndex: Int
    var codingPath: [any CodingKey] { [] }
    private(set) var count = 0

    init(encoder: FloorEncoder, countIndex: Int) {
        self.encoder = encoder
        self.countIndex = countIndex
    }

    private mutating func added() {
        self.count += 1
        if self.encoder.keepsTape { self.encoder.tape[self.countIndex] = .count(self.count) }
    }

    mutating func encodeNil() throws {
        self.encoder.record(.null)
        self.added()
    }

    mutating func encode(_ value: String) throws {
        self.encoder.record(.string(value))
        self.added()
    }

    mutating func encode<T: Encodable>(_ value: T) throws {
        try self.encoder.append(value)
        self.added()
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type
    ) -> KeyedEncodingContainer<NestedKey> {
        self.added()
        return self.encoder.container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        self.added()
        return self.encoder.unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder { self.encoder }
}

private struct FloorSingleValueEncodingContainer: SingleValueEncodingContainer {
    let encoder: FloorEncoder
    var codingPath: [any CodingKey] { [] }

    mutating func encodeNil() throws { self.encoder.record(.null) }
    mutating func encode(_ value: Bool) throws { self.encoder.record(.bool(value)) }
    mutating func encode(_ value: String) throws { self.encoder.record(.string(value)) }
    mutating func encode(_ value: Double) throws { self.encoder.record(.double(value)) }
    mutating func encode(_ value: Int) throws { self.encoder.record(.integer(value)) }
    mutating func encode<T: Encodable>(_ value: T) throws { try self.encoder.append(value) }
}

/// Rebuilds a value through `Decodable` from a ``FloorEncoder`` tape.
final class FloorDecoder: Decoder {
    private let tape: [FloorToken]
    private var position = 0
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    init(tape: [FloorToken]) {
        self.tape = tape
    }

    /// Rebuilds a value of `type` from the start of the tape.
    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        self.position = 0
        return try T(from: self)
    }

    /// The next token, consumed.
    func next() throws -> FloorToken {
        guard self.position < self.tape.count else { throw FloorError.endOfTape }
        defer { self.position += 1 }
        return self.tape[self.position]
    }

    /// Whether the next token is `nil`, consuming it if so.
    func nextIsNull() -> Bool {
        guard self.position < self.tape.count, self.tape[self.position] == .null else { return false }
        self.position += 1
        return true
    }

    func string() throws -> String {
        guard case .string(let value) = try self.next() else { throw FloorError.typeMismatch }
        return value
    }

    func double() throws -> Double {
        guard case .double(let value) = try self.next() else { throw FloorError.typeMismatch }
        return value
    }

    func integer() throws -> Int {
        guard case .integer(let value) = try self.next() else { throw FloorError.typeMismatch }
        return value
    }

    func bool() throws -> Bool {
        guard case .bool(let value) = try self.next() else { throw FloorError.typeMismatch }
        return value
    }

    /// Reads a value: a `Date` from its time interval and a `[String]` from its count and strings,
    /// `Data`, `URL` and `UUID` whole, and the other standard scalars from one token, as
    /// ``FloorEncoder/append(_:)`` writes them; anything else through its `init(from:)`.
    func value<T: Decodable>(_ type: T.Type) throws -> T {
        if FloorEncoder.isScalarTokenType(T.self) {
            return try self.scalar(T.self)
        }
        if T.self == Date.self {
            return unsafeBitCast(Date(timeIntervalSinceReferenceDate: try self.double()), to: T.self)
        }
        if T.self == [String].self {
            guard case .count(let count) = try self.next() else { throw FloorError.typeMismatch }
            var strings: [String] = []
            strings.reserveCapacity(count)
            for _ in 0..<count { strings.append(try self.string()) }
            return unsafeBitCast(strings, to: T.self)
        }
        return try T(from: self)
    }

    /// A scalar ``FloorEncoder/scalarToken(_:)`` wrote.
    private func scalar<T>(_ type: T.Type) throws -> T {
        func integer<I: FixedWidthInteger>(_ type: I.Type) throws -> T {
            let integer: I?
            switch try self.next() {
            case .integer(let value): integer = I(exactly: value)
            case .unsigned(let value): integer = I(exactly: value)
            default: throw FloorError.typeMismatch
            }
            guard let integer else { throw FloorError.typeMismatch }
            return unsafeBitCast(integer, to: T.self)
        }
        if T.self == Int64.self { return try integer(Int64.self) }
        if T.self == Int32.self { return try integer(Int32.self) }
        if T.self == Int16.self { return try integer(Int16.self) }
        if T.self == Int8.self { return try integer(Int8.self) }
        if T.self == UInt.self { return try integer(UInt.self) }
        if T.self == UInt64.self { return try integer(UInt64.self) }
        if T.self == UInt32.self { return try integer(UInt32.self) }
        if T.self == UInt16.self { return try integer(UInt16.self) }
        if T.self == UInt8.self { return try integer(UInt8.self) }
        switch try self.next() {
        case .float(let value) where T.self == Float.self: return unsafeBitCast(value, to: T.self)
        case .data(let value) where T.self == Data.self: return unsafeBitCast(value, to: T.self)
        case .url(let value) where T.self == URL.self: return unsafeBitCast(value, to: T.self)
        case .uuid(let value) where T.self == UUID.self: return unsafeBitCast(value, to: T.self)
        default: throw FloorError.typeMismatch
        }
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        KeyedDecodingContainer(FloorKeyedDecodingContainer(decoder: self))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard case .count(let count) = try self.next() else { throw FloorError.typeMismatch }
        return FloorUnkeyedDecodingContainer(decoder: self, count: count)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        FloorSingleValueDecodingContainer(decoder: self)
    }
}

/// The tape does not hold what the decoder asks for.
enum FloorError: Error {
    case endOfTape
    case typeMismatch
}

private struct FloorKeyedDecodingContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let decoder: FloorDecoder
    var codingPath: [any CodingKey] { [] }
    var allKeys: [Key] { [] }

    /// Every key is on the tape but the version key of `@Archivable` types, which they read and,
    /// at version 1, never write.
    func contains(_ key: Key) -> Bool { key.stringValue != "archiveVersion" }
    func decodeNil(forKey key: Key) throws -> Bool { self.decoder.nextIsNull() }
    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try self.decoder.bool() }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try self.decoder.string() }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try self.decoder.double() }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try self.decoder.integer() }
    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T { try self.decoder.value(type) }

    func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type,
        forKey key: Key
    ) throws -> KeyedDecodingContainer<NestedKey> {
        try self.decoder.container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try self.decoder.unkeyedContainer()
    }

    func superDecoder() throws -> any Decoder { self.decoder }
    func superDecoder(forKey key: Key) throws -> any Decoder { self.decoder }
}

private struct FloorUnkeyedDecodingContainer: UnkeyedDecodingContainer {
    let decoder: FloorDecoder
    // Three words in all, so that the existential holds the container without a heap box.
    private let elementCount: Int
    private(set) var currentIndex = 0
    var codingPath: [any CodingKey] { [] }
    var count: Int? { self.elementCount }
    var isAtEnd: Bool { self.currentIndex >= self.elementCount }

    init(decoder: FloorDecoder, count: Int) {
        self.decoder = decoder
        self.elementCount = count
    }

    mutating func decodeNil() throws -> Bool {
        guard self.decoder.nextIsNull() else { return false }
        self.currentIndex += 1
        return true
    }

    mutating func decode(_ type: String.Type) throws -> String {
        defer { self.currentIndex += 1 }
        return try self.decoder.string()
    }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        defer { self.currentIndex += 1 }
        return try self.decoder.value(type)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type
    ) throws -> KeyedDecodingContainer<NestedKey> {
        self.currentIndex += 1
        return try self.decoder.container(keyedBy: type)
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        self.currentIndex += 1
        return try self.decoder.unkeyedContainer()
    }

    mutating func superDecoder() throws -> any Decoder { self.decoder }
}

private struct FloorSingleValueDecodingContainer: SingleValueDecodingContainer {
    let decoder: FloorDecoder
    var codingPath: [any CodingKey] { [] }

    func decodeNil() -> Bool { self.decoder.nextIsNull() }
    func decode(_ type: Bool.Type) throws -> Bool { try self.decoder.bool() }
    func decode(_ type: String.Type) throws -> String { try self.decoder.string() }
    func decode(_ type: Double.Type) throws -> Double { try self.decoder.double() }
    func decode(_ type: Int.Type) throws -> Int { try self.decoder.integer() }
    func decode<T: Decodable>(_ type: T.Type) throws -> T { try self.decoder.value(type) }
}
