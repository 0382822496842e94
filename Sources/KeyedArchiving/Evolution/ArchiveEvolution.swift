//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-keyed-archive open source project
//
// Licensed under Apache License v2.0
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#elseif canImport(Android)
import Android
#endif

/// The evolution rules of `@Archivable`: what its generated conformances call, and what a
/// hand-written `Codable` conformance can call to follow the same rules.
///
/// Every function works with any `Decoder` or `Encoder`: this package's, `JSONDecoder`,
/// `PropertyListDecoder` or another.
public enum ArchiveEvolution {
    // MARK: Properties

    /// Decodes the value under `key` as the type the result is assigned to.
    ///
    /// `container.decode(T.self, forKey: key)`, with `T` inferred: generated code does not spell
    /// property types, which an extension of a nested type could not always resolve. When `T` is
    /// an optional spelled another way (through a `typealias`, say), an absent key gives `nil`, as
    /// synthesized `Codable` (which sees the type) reads it with `decodeIfPresent`.
    /// - Throws: `DecodingError` when the key is absent or its value does not decode as `T`.
    @inlinable
    public static func decode<T: Decodable, Key: CodingKey>(
        from container: KeyedDecodingContainer<Key>,
        forKey key: Key
    ) throws -> T {
        try Self.decodeValue(T.self, from: container, forKey: key)
    }

    /// Encodes a property that has no initial value, as synthesized `Codable` does: with
    /// `encode(_:forKey:)`, through the container's own overload when `T` is a standard scalar (as
    /// a call that spells the type reaches it; once specialized, the checks fold away).
    @inlinable
    public static func encode<T: Encodable, Key: CodingKey>(
        _ value: T,
        to container: inout KeyedEncodingContainer<Key>,
        forKey key: Key
    ) throws {
        if T.self == String.self, let value = value as? String { return try container.encode(value, forKey: key) }
        if T.self == Double.self, let value = value as? Double { return try container.encode(value, forKey: key) }
        if T.self == Int.self, let value = value as? Int { return try container.encode(value, forKey: key) }
        if T.self == Bool.self, let value = value as? Bool { return try container.encode(value, forKey: key) }
        if T.self == Float.self, let value = value as? Float { return try container.encode(value, forKey: key) }
        if T.self == Int64.self, let value = value as? Int64 { return try container.encode(value, forKey: key) }
        if T.self == Int32.self, let value = value as? Int32 { return try container.encode(value, forKey: key) }
        if T.self == Int16.self, let value = value as? Int16 { return try container.encode(value, forKey: key) }
        if T.self == Int8.self, let value = value as? Int8 { return try container.encode(value, forKey: key) }
        if T.self == UInt.self, let value = value as? UInt { return try container.encode(value, forKey: key) }
        if T.self == UInt64.self, let value = value as? UInt64 { return try container.encode(value, forKey: key) }
        if T.self == UInt32.self, let value = value as? UInt32 { return try container.encode(value, forKey: key) }
        if T.self == UInt16.self, let value = value as? UInt16 { return try container.encode(value, forKey: key) }
        if T.self == UInt8.self, let value = value as? UInt8 { return try container.encode(value, forKey: key) }
        try container.encode(value, forKey: key)
    }

    /// Encodes an optional property that has no initial value, as synthesized `Codable` does:
    /// with `encodeIfPresent(_:forKey:)`. The compiler picks it for an optional spelled any way
    /// (through a `typealias`, say), which the macro cannot tell from its spelling.
    @inlinable
    public static func encode<T: Encodable, Key: CodingKey>(
        _ value: T?,
        to container: inout KeyedEncodingContainer<Key>,
        forKey key: Key
    ) throws {
        try container.encodeIfPresent(value, forKey: key)
    }

    /// `nil` as a `T` when `T` is an optional, else `nil` (no value).
    @inlinable
    internal static func absentValue<T>(of type: T.Type) -> T? {
        (T.self as? any _ArchiveOptional.Type)?.archiveNone as? T
    }

    /// Decodes the value under `key` as the type the result is assigned to, or `nil` when the key
    /// is absent or holds null: `container.decodeIfPresent(T.self, forKey: key)`, with `T` inferred.
    /// - Throws: `DecodingError` when the value does not decode as `T`.
    @inlinable
    public static func decodeIfPresent<T: Decodable, Key: CodingKey>(
        from container: KeyedDecodingContainer<Key>,
        forKey key: Key
    ) throws -> T? {
        try Self.decodeValueIfPresent(T.self, from: container, forKey: key)
    }

    /// Decodes a property that has an initial value: leaves `value` as it is when the key is
    /// absent or holds null (`$null`, `NSNull`, JSON `null`), else decodes it.
    /// - Throws: `DecodingError` when the stored value does not decode as `T`.
    @inlinable
    public static func decodeIfPresent<T: Decodable, Key: CodingKey>(
        into value: inout T,
        from container: KeyedDecodingContainer<Key>,
        forKey key: Key
    ) throws {
        if let decoded = try Self.decodeValueIfPresent(T.self, from: container, forKey: key) { value = decoded }
    }

    /// Decodes an optional property that has an initial value, spelled so that the macro cannot
    /// see it is optional (through a `typealias`, say): as ``decodeOptional(into:from:forKey:)``,
    /// which the compiler picks for it here.
    /// - Throws: `DecodingError` when the stored value does not decode as `T`.
    @inlinable
    public static func decodeIfPresent<T: Decodable, Key: CodingKey>(
        into value: inout T?,
        from container: KeyedDecodingContainer<Key>,
        forKey key: Key
    ) throws {
        try Self.decodeOptional(into: &value, from: container, forKey: key)
    }

    /// Decodes an optional property whose initial value is not `nil`: leaves `value` as it is when
    /// the key is absent, sets it to `nil` when the key holds null, else decodes it.
    /// - Throws: `DecodingError` when the stored value does not decode as `T`.
    @inlinable
    public static func decodeOptional<T: Decodable, Key: CodingKey>(
        into value: inout T?,
        from container: KeyedDecodingContainer<Key>,
        forKey key: Key
    ) throws {
        guard container.contains(key) else { return }
        value = try container.decodeNil(forKey: key) ? nil : Self.decodeValue(T.self, from: container, forKey: key)
    }

    /// Encodes an optional property whose initial value is not `nil`: a `nil` is written as an
    /// explicit null, so that decoding gives `nil` back rather than the initial value.
    @inlinable
    public static func encodeOptional<T: Encodable, Key: CodingKey>(
        _ value: T?,
        to container: inout KeyedEncodingContainer<Key>,
        forKey key: Key
    ) throws {
        if let value { try container.encode(value, forKey: key) } else { try container.encodeNil(forKey: key) }
    }

    /// The first of a property's keys that the container holds, or the first key when it holds none
    /// (so that a missing value is reported under the current key).
    /// - Parameters:
    ///   - keys: The current key, then the former ones; not empty.
    ///   - container: The container of the value being decoded.
    @inlinable
    public static func firstPresentKey<Key: CodingKey>(of keys: [Key], in container: KeyedDecodingContainer<Key>) -> Key
    {
        for key in keys where container.contains(key) { return key }
        return keys[0]
    }

    // MARK: Scalars

    /// `container.decode(type, forKey: key)` through the container's own overload when `T` is a
    /// standard scalar, as synthesized code calls it (decoders read those faster than the generic
    /// overload); once specialized, the checks fold away.
    @inlinable
    @inline(__always)
    internal static func decodeValue<T: Decodable, Key: CodingKey>(
        _ type: T.Type,
        from container: KeyedDecodingContainer<Key>,
        forKey key: Key
    ) throws -> T {
        if T.self == String.self, let value = try container.decode(String.self, forKey: key) as? T { return value }
        if T.self == Double.self, let value = try container.decode(Double.self, forKey: key) as? T { return value }
        if T.self == Int.self, let value = try container.decode(Int.self, forKey: key) as? T { return value }
        if T.self == Bool.self, let value = try container.decode(Bool.self, forKey: key) as? T { return value }
        if T.self == Float.self, let value = try container.decode(Float.self, forKey: key) as? T { return value }
        if T.self == Int64.self, let value = try container.decode(Int64.self, forKey: key) as? T { return value }
        if T.self == Int32.self, let value = try container.decode(Int32.self, forKey: key) as? T { return value }
        if T.self == Int16.self, let value = try container.decode(Int16.self, forKey: key) as? T { return value }
        if T.self == Int8.self, let value = try container.decode(Int8.self, forKey: key) as? T { return value }
        if T.self == UInt.self, let value = try container.decode(UInt.self, forKey: key) as? T { return value }
        if T.self == UInt64.self, let value = try container.decode(UInt64.self, forKey: key) as? T { return value }
        if T.self == UInt32.self, let value = try container.decode(UInt32.self, forKey: key) as? T { return value }
        if T.self == UInt16.self, let value = try container.decode(UInt16.self, forKey: key) as? T { return value }
        if T.self == UInt8.self, let value = try container.decode(UInt8.self, forKey: key) as? T { return value }
        do {
            return try container.decode(T.self, forKey: key)
        } catch DecodingError.keyNotFound(let missing, let context) {
            // An optional spelled so that the macro could not see it (a `typealias`) reads `nil`
            // from an absent key. Asked only here, past the scalars and on the failure path.
            guard let none = Self.absentValue(of: T.self) else {
                throw DecodingError.keyNotFound(missing, context)
            }
            return none
        }
    }

    /// `container.decodeIfPresent(type, forKey: key)` through the container's own overload when
    /// `T` is a standard scalar, as ``decodeValue(_:from:forKey:)`` does for `decode`.
    @inlinable
    @inline(__always)
    internal static func decodeValueIfPresent<T: Decodable, Key: CodingKey>(
        _ type: T.Type,
        from container: KeyedDecodingContainer<Key>,
        forKey key: Key
    ) throws -> T? {
        if T.self == String.self { return try container.decodeIfPresent(String.self, forKey: key) as? T }
        if T.self == Double.self { return try container.decodeIfPresent(Double.self, forKey: key) as? T }
        if T.self == Int.self { return try container.decodeIfPresent(Int.self, forKey: key) as? T }
        if T.self == Bool.self { return try container.decodeIfPresent(Bool.self, forKey: key) as? T }
        if T.self == Float.self { return try container.decodeIfPresent(Float.self, forKey: key) as? T }
        if T.self == Int64.self { return try container.decodeIfPresent(Int64.self, forKey: key) as? T }
        if T.self == Int32.self { return try container.decodeIfPresent(Int32.self, forKey: key) as? T }
        if T.self == Int16.self { return try container.decodeIfPresent(Int16.self, forKey: key) as? T }
        if T.self == Int8.self { return try container.decodeIfPresent(Int8.self, forKey: key) as? T }
        if T.self == UInt.self { return try container.decodeIfPresent(UInt.self, forKey: key) as? T }
        if T.self == UInt64.self { return try container.decodeIfPresent(UInt64.self, forKey: key) as? T }
        if T.self == UInt32.self { return try container.decodeIfPresent(UInt32.self, forKey: key) as? T }
        if T.self == UInt16.self { return try container.decodeIfPresent(UInt16.self, forKey: key) as? T }
        if T.self == UInt8.self { return try container.decodeIfPresent(UInt8.self, forKey: key) as? T }
        return try container.decodeIfPresent(T.self, forKey: key)
    }

    // MARK: Fallbacks

    /// Reports that a property marked `@ArchiveFallback` keeps its initial value because its
    /// stored value failed to decode with `error`.
    ///
    /// Errors that mean the whole input is hostile or broken are not fallen back from: exceeding
    /// a limit of `PropertyListLimits` (depth, decoded size) and a malformed archive are rethrown.
    /// - Throws: `error`, when it is not one to fall back from.
    public static func recordFallback(
        from error: any Error,
        decoding type: Any.Type,
        key: String,
        codingPath: [any CodingKey],
        decoder: any Decoder
    ) throws {
        if Self.isFatal(error) { throw error }
        Self.report(
            ArchiveFallback(
                kind: .initialValue,
                typeName: ArchiveEncodingTypeFacts.swiftName(of: type),
                key: key,
                codingPath: codingPath.map(Self.pathComponent),
                error: error
            ),
            userInfo: decoder.userInfo
        )
    }

    /// Reports that an enum decoded a stored case or raw value it does not know as its case marked
    /// `@ArchiveUnknownCase`.
    /// - Parameters:
    ///   - stored: The stored case name or raw value, as text.
    ///   - type: The enum.
    ///   - decoder: The decoder of the enum's value, whose `userInfo` may hold a recorder.
    public static func recordUnknownCase(_ stored: String, decoding type: Any.Type, decoder: any Decoder) {
        Self.report(
            ArchiveFallback(
                kind: .unknownCase,
                typeName: ArchiveEncodingTypeFacts.swiftName(of: type),
                key: stored,
                codingPath: decoder.codingPath.map(Self.pathComponent)
            ),
            userInfo: decoder.userInfo
        )
    }

    /// The case names stored in an enum's keyed container, for reporting an unknown one.
    public static func storedCaseNames(in decoder: any Decoder) -> String {
        guard let container = try? decoder.container(keyedBy: ArchiveEvolutionKey.self) else { return "?" }
        let names = container.allKeys.map(\.stringValue)
        return names.isEmpty ? "(none)" : names.joined(separator: ", ")
    }

    // MARK: Versions

    /// The version of a root value whose object carries none, when the data says it elsewhere: the
    /// `schemaVersion` beside `root` in `$top` (as `ArchiveMigrator` writes it), or an
    /// `ArchiveStore` entry's schema version. Bound with `$rootVersion.withValue(_:operation:)`
    /// around a decoding.
    @TaskLocal package static var rootVersion: Int?

    /// The version of the value holding `container`, stored under `key` or not, by
    /// ``version(stored:of:belowRoot:decoder:at:)``: what `ArchiveContainerFieldReader` reads. (A
    /// function of its own, taking the container, rather than written into the reader: the
    /// `Codable` path decodes a cat in 22,496 instructions this way, 22,686 the other.)
    @inlinable
    internal static func version<Value: ArchiveVersioned, Key: CodingKey>(
        of type: Value.Type,
        from container: KeyedDecodingContainer<Key>,
        forKey key: Key,
        decoder: any Decoder
    ) throws -> Int {
        // Every value of every `@Archivable` struct and class comes here: the usual case, no stored
        // version, costs one key lookup.
        let stored = container.contains(key) ? try container.decodeIfPresent(Int.self, forKey: key) : nil
        return try Self.version(stored: stored, of: Value.self, decoder: decoder, at: container.codingPath + [key])
    }

    /// The version a value was stored with, given the integer it stored (`stored`, `nil` for
    /// none): the rule of every reader's ``ArchiveFieldReader/decodeVersion(of:at:)``. When it
    /// stored none, the root value of a versioned type (one whose `archiveVersion` is not its
    /// `unversionedArchiveVersion`) takes the version the data stores beside it (the
    /// `schemaVersion` of `$top`, an `ArchiveStore` entry's schema version); any other value
    /// `Value.unversionedArchiveVersion`.
    /// - Parameters:
    ///   - belowRoot: Whether the value is known not to be the root, which alone takes the root's
    ///     version: the direct path knows it from its depth, and skips the task-local read.
    ///   - codingPath: The version key's coding path, for the error.
    /// - Throws: `DecodingError.dataCorrupted` when the version is newer than `Value.archiveVersion`.
    @inlinable
    internal static func version<Value: ArchiveVersioned>(
        stored: Int?,
        of type: Value.Type,
        belowRoot: Bool = false,
        decoder: @autoclosure () -> any Decoder,
        at codingPath: @autoclosure () -> [any CodingKey]
    ) throws -> Int {
        let version: Int
        if let stored {
            version = stored
        } else if belowRoot || Value.archiveVersion == Value.unversionedArchiveVersion {
            // Only the root takes the root's version. A type that was never versioned takes no
            // version from beside the data: a schema version stored for other purposes must not
            // make it refuse its own values.
            version = Value.unversionedArchiveVersion
        } else {
            version = Self.absentVersion(unversioned: Value.unversionedArchiveVersion, decoder: decoder())
        }
        guard version <= Value.archiveVersion else {
            throw Self.versionTooNew(version, of: Value.self, current: Value.archiveVersion, at: codingPath())
        }
        return version
    }

    /// The version of a value that stores none: the root's version bound in ``rootVersion`` for the
    /// root value, else `unversioned`.
    @usableFromInline
    internal static func absentVersion(unversioned: Int, decoder: any Decoder) -> Int {
        guard let root = Self.rootVersion, decoder.codingPath.isEmpty else { return unversioned }
        return root
    }

    /// The error for a value stored by a newer version of its type than `current`.
    @usableFromInline
    @inline(never)
    internal static func versionTooNew(
        _ version: Int,
        of type: Any.Type,
        current: Int,
        at codingPath: [any CodingKey]
    ) -> DecodingError {
        let error = KeyedArchiveError(
            .typeVersionTooNew,
            reason: "\(type) version \(version) is newer than version \(current), which this code reads"
        )
        return DecodingError.dataCorrupted(
            DecodingError.Context(codingPath: codingPath, debugDescription: error.reason, underlyingError: error)
        )
    }

    /// Writes `Value.archiveVersion` under `key` when it differs from
    /// `Value.unversionedArchiveVersion`.
    public static func encodeVersion<Value: ArchiveVersioned, Key: CodingKey>(
        of type: Value.Type,
        to container: inout KeyedEncodingContainer<Key>,
        forKey key: Key
    ) throws {
        guard Value.archiveVersion != Value.unversionedArchiveVersion else { return }
        try container.encode(Value.archiveVersion, forKey: key)
    }

    /// Decodes a value stored by an older version: decodes `Value.PreviousArchiveVersion` from the
    /// same decoder (which migrates older data still), then converts it.
    /// - Throws: `DecodingError`; an error thrown by `init(migratingFrom:)` is wrapped in
    ///   `DecodingError.dataCorrupted` at the value's coding path.
    public static func migrate<Value: ArchiveMigrating>(_ type: Value.Type, from decoder: any Decoder) throws -> Value {
        let previous = try Value.PreviousArchiveVersion(from: decoder)
        do {
            return try Value(migratingFrom: previous)
        } catch let error as DecodingError {
            throw error
        } catch {
            throw DecodingError.dataCorrupted(
                DecodingError.Context(
                    codingPath: decoder.codingPath,
                    debugDescription: "migrating \(Value.PreviousArchiveVersion.self) to \(Value.self) failed",
                    underlyingError: error
                )
            )
        }
    }

    // MARK: Reporting

    private static let warned = Locked<Set<String>>([])

    private static func report(_ fallback: ArchiveFallback, userInfo: [CodingUserInfoKey: Any]) {
        if let recorder = userInfo[.archiveFallbackRecorder] as? ArchiveFallbackRecorder {
            recorder.record(fallback)
            return
        }
        // No recorder: warn once per type and key, so that a fallback is never silent.
        let identity = "\(fallback.kind) \(fallback.typeName) \(fallback.key)"
        guard Self.warned.withLock({ $0.insert(identity).inserted }) else { return }
        let line = "warning: KeyedArchiving: \(fallback) [no ArchiveFallbackRecorder in userInfo]\n"
        var bytes = Array(line.utf8)
        _ = bytes.withUnsafeMutableBytes { write(2, $0.baseAddress, $0.count) }
    }

    private static func isFatal(_ error: any Error) -> Bool {
        let underlying: (any Error)?
        switch error {
        case DecodingError.dataCorrupted(let context), DecodingError.typeMismatch(_, let context),
            DecodingError.valueNotFound(_, let context), DecodingError.keyNotFound(_, let context):
            underlying = context.underlyingError
        default:
            underlying = error
        }
        guard let archiveError = underlying as? KeyedArchiveError else { return false }
        switch archiveError.code {
        case .depthLimitExceeded, .decodedSizeLimitExceeded, .outputLimitExceeded, .malformedPropertyList,
            .cyclicReference, .typeVersionTooNew:
            return true
        default:
            return false
        }
    }

    private static func pathComponent(_ key: any CodingKey) -> String {
        key.intValue.map(String.init) ?? key.stringValue
    }
}

/// Any string key, for reading the keys a container holds.
internal struct ArchiveEvolutionKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }

    init(stringValue: String) { self.stringValue = stringValue }

    init?(intValue: Int) { nil }
}

/// `Optional`, whatever its wrapped type: what lets generic code find `nil` for a type parameter
/// that is an optional.
@usableFromInline
internal protocol _ArchiveOptional {
    /// `nil`.
    static var archiveNone: Self { get }
}

extension Optional: _ArchiveOptional {
    @usableFromInline
    static var archiveNone: Self { nil }
}
