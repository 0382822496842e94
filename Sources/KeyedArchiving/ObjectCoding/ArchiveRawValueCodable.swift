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

/// An enum stored as its raw string, as its `Codable` conformance stores it (through a single-value
/// container), which ``KeyedArchiveEncoder`` and ``KeyedArchiveDecoder`` then write and read
/// without `Encoder` and `Decoder` containers.
///
/// `@Archivable` generates this conformance for enums with `String` raw values. The coders find it
/// once per type and use it unless their `directArchiving` is ``DirectArchiving/disabled``; the
/// archive and the errors are the same either way. Meant for generated code: `encode(to:)` must
/// write `rawValue` through a single-value container, and `init(from:)` read it back as
/// ``init(archiveRawValue:decoder:)`` does. The requirement is generated in the conforming type,
/// where it runs without generic indirection.
public protocol ArchiveRawValueCodable: Codable, RawRepresentable where RawValue == String {
    /// The value stored as `rawValue`: the case with that raw value, else what `init(from:)` makes
    /// of that string (the case that stands for unknown values, after reporting it, or an error).
    /// - Parameters:
    ///   - rawValue: The stored string.
    ///   - decoder: The decoder of the value, positioned where `init(from:)` would read it. It is
    ///     made when first asked for, which only a string none of the cases has needs.
    /// - Throws: The error `init(from:)` throws for that string.
    init(archiveRawValue rawValue: String, decoder: @autoclosure () -> any Decoder) throws
}

extension ArchiveRawValueCodable {
    /// The UID of `value`'s raw string when it is of this type, without a dynamic cast when `T` is
    /// this type; `nil` otherwise.
    static func encodeArchiveRawValue<T>(_ value: T, in session: ArchiveEncodingSession) -> UID? {
        if T.self == Self.self { return session.table.leaf(unsafeBitCast(value, to: Self.self).rawValue) }
        return Self.encodeCastRawValue(value, in: session)
    }

    /// ``encodeArchiveRawValue(_:in:)`` for a `T` that is not this type, apart: the cast's optional
    /// would otherwise cost a metadata lookup on every call, cast or not.
    @inline(never)
    private static func encodeCastRawValue<T>(_ value: T, in session: ArchiveEncodingSession) -> UID? {
        guard let value = value as? Self else { return nil }
        return session.table.leaf(value.rawValue)
    }

    /// Reads the decoder's current object as this type, as `T`, which is this type: a string object
    /// through ``init(archiveRawValue:decoder:)``, anything else through `init(from:)`, which reads
    /// or refuses it.
    static func decodeArchiveRawValue<T>(as type: T.Type, from decoder: _ArchiveDecoder) throws -> T {
        let value: Self
        // UID 0 is `$null`, which a single-value container reads as `nil`, not as its string.
        if case .string(let region) = decoder.object, decoder.uid?.rawValue != 0 {
            // The position a single-value container reads the string at.
            let position = ArchiveDecodingPosition(parent: decoder.codingPathNode, key: nil, owner: nil)
            let raw = try decoder.string(region, object: decoder.object, uid: decoder.uid, at: position)
            value = try Self(archiveRawValue: raw, decoder: decoder)
        } else {
            value = try Self(from: decoder)
        }
        if T.self == Self.self { return unsafeBitCast(value, to: T.self) }
        return try decoder.cast(value, to: T.self)
    }

    /// The value stored as `raw`, as `T`, which is this type, through
    /// ``init(archiveRawValue:decoder:)``; `decoder` is made only if that asks for it.
    static func decodeArchiveRawValue<T>(
        _ raw: String,
        as type: T.Type,
        decoder: @autoclosure () -> _ArchiveDecoder
    ) throws -> T {
        let value = try Self(archiveRawValue: raw, decoder: decoder())
        if T.self == Self.self { return unsafeBitCast(value, to: T.self) }
        return try decoder().cast(value, to: T.self)
    }
}
