//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-keyed-archive open source project
//
// Licensed under Apache License v2.0
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// The coder an ``ArchiveCoding`` type reads and writes its fields with, shaped like `NSCoder`.
///
/// Encoding methods never throw, as `NSCoder`'s do not: the first failure is kept in
/// ``firstError`` and thrown when the value's encoding finishes. Decoding methods return `nil` (or
/// zero, for the `decodeInteger` family) for an absent key, `nil`, or a value of the wrong type;
/// the first type or data error is kept in ``firstError`` and reported if `init?(coder:)` then
/// returns `nil`.
///
/// A coder lives only for one `init?(coder:)` or `encode(with:)` call; do not keep it.
public final class ArchiveCoder {
    private var encoding: KeyedEncodingContainer<ArchiveCoderKey>?
    private let decoding: KeyedDecodingContainer<ArchiveCoderKey>?

    /// The first error met by an encode or decode call, if any.
    public private(set) var firstError: (any Error)?

    /// Whether this coder reads (`true`) or writes (`false`).
    public var isDecoding: Bool { self.decoding != nil }

    /// The keys present, when decoding.
    public var allKeys: [String] { self.decoding?.allKeys.map(\.stringValue) ?? [] }

    internal init(encoder: any Encoder) {
        self.encoding = encoder.container(keyedBy: ArchiveCoderKey.self)
        self.decoding = nil
    }

    internal init(decoder: any Decoder) throws {
        self.encoding = nil
        self.decoding = try decoder.container(keyedBy: ArchiveCoderKey.self)
    }

    private func record(_ error: any Error) {
        if self.firstError == nil { self.firstError = error }
    }

    // MARK: Encoding

    /// Writes a value, or `nil` (stored as `$null`), under `key`.
    public func encode<T: Encodable>(_ value: T?, forKey key: String) {
        guard self.encoding != nil else { return }
        do {
            if let value {
                try self.encoding?.encode(value, forKey: ArchiveCoderKey(key))
            } else {
                try self.encoding?.encodeNil(forKey: ArchiveCoderKey(key))
            }
        } catch {
            self.record(error)
        }
    }

    /// Writes a value under `key`.
    public func encode<T: Encodable>(_ value: T, forKey key: String) {
        self.encode(Optional(value), forKey: key)
    }

    // MARK: Decoding

    /// Whether the archive has a value, `nil` included, under `key`.
    public func containsValue(forKey key: String) -> Bool {
        self.decoding?.contains(ArchiveCoderKey(key)) ?? false
    }

    /// Reads the value under `key` as `T`, inferring `T` from the context.
    /// - Returns: The value, or `nil` if the key is absent, holds `nil`, or holds something that is not a `T`.
    public func decode<T: Decodable>(forKey key: String) -> T? {
        self.decode(T.self, forKey: key)
    }

    /// Reads the value under `key` as `type`.
    /// - Returns: The value, or `nil` if the key is absent, holds `nil`, or holds something that is not a `type`.
    public func decode<T: Decodable>(_ type: T.Type, forKey key: String) -> T? {
        guard let decoding else { return nil }
        let codingKey = ArchiveCoderKey(key)
        do {
            guard decoding.contains(codingKey), try !decoding.decodeNil(forKey: codingKey) else { return nil }
            return try decoding.decode(type, forKey: codingKey)
        } catch {
            self.record(error)
            return nil
        }
    }

    /// Reads an integer, or 0 if absent or not an integer (as `NSCoder.decodeInteger(forKey:)`).
    public func decodeInteger(forKey key: String) -> Int { self.decode(Int.self, forKey: key) ?? 0 }
    /// Reads a 32-bit integer, or 0 if absent or not one.
    public func decodeInt32(forKey key: String) -> Int32 { self.decode(Int32.self, forKey: key) ?? 0 }
    /// Reads a 64-bit integer, or 0 if absent or not one.
    public func decodeInt64(forKey key: String) -> Int64 { self.decode(Int64.self, forKey: key) ?? 0 }
    /// Reads a Boolean, or `false` if absent or not one.
    public func decodeBool(forKey key: String) -> Bool { self.decode(Bool.self, forKey: key) ?? false }
    /// Reads a `Double`, or 0 if absent or not one.
    public func decodeDouble(forKey key: String) -> Double { self.decode(Double.self, forKey: key) ?? 0 }
    /// Reads a `Float`, or 0 if absent or not one.
    public func decodeFloat(forKey key: String) -> Float { self.decode(Float.self, forKey: key) ?? 0 }
}

@available(*, unavailable)
extension ArchiveCoder: Sendable {}

/// The string keys an ``ArchiveCoder`` uses.
internal struct ArchiveCoderKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }

    init(_ key: String) { self.stringValue = key }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}
