//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-keyed-archive open source project
//
// Licensed under Apache License v2.0
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// A type that writes its archived object itself, without `Encoder` containers.
///
/// ``KeyedArchiveEncoder`` (and so ``KeyedArchiver``) finds the conformance once per type and
/// calls ``encodeArchiveObject(to:)`` instead of `encode(to:)`, unless its
/// ``KeyedArchiveEncoder/directArchiving`` is ``DirectArchiving/disabled``. The object it writes
/// must be the one `encode(to:)` writes through a keyed container: the same keys in the same
/// order, with the same values. Other encoders keep using `encode(to:)`.
///
/// Meant for generated code, for structs, final classes and the root classes of hierarchies: the
/// encoder looks at each value's dynamic type, and archives an instance of a subclass of a
/// conforming class through its `encode(to:)`, even where the conforming class is declared.
public protocol ArchiveObjectEncodable: Encodable {
    /// The keys of the type's object, in the order ``encodeArchiveObject(to:)`` writes them.
    static var archiveObjectKeys: ArchiveObjectKeys { get }

    /// Writes the object's entries, each under the index of its key in ``archiveObjectKeys``.
    /// - Parameter writer: The object being written.
    /// - Throws: `EncodingError`, or whatever a nested value's encoding throws.
    func encodeArchiveObject(to writer: inout ArchiveObjectWriter) throws
}

/// A type that reads its archived object itself, without `Decoder` containers.
///
/// ``KeyedArchiveDecoder`` (and so ``KeyedUnarchiver``) finds the conformance once per type and
/// calls ``init(archiveObject:)`` instead of `init(from:)`, after the checks every object gets
/// (its class, cycles, depth), unless its ``KeyedArchiveDecoder/directArchiving`` is
/// ``DirectArchiving/disabled``. It must decode what `init(from:)` decodes, and fail where it
/// fails, with the same errors. Other decoders keep using `init(from:)`.
public protocol ArchiveObjectDecodable: Decodable {
    /// The keys of the type's object; ``init(archiveObject:)`` reads them by index.
    static var archiveObjectKeys: ArchiveObjectKeys { get }

    /// Reads a value from its archived object.
    /// - Parameter reader: The object being read.
    /// - Throws: `DecodingError` with the coding path of the failing value.
    init(archiveObject reader: inout ArchiveObjectReader) throws
}

/// A type that writes and reads its archived object itself.
public typealias ArchiveObjectCodable = ArchiveObjectEncodable & ArchiveObjectDecodable

/// The keys of a type's archived object, which ``ArchiveObjectWriter`` and
/// ``ArchiveObjectReader`` take by index.
///
/// The keys are the coding keys' string values, unescaped: the coders escape a key starting
/// with `$` as they do for `CodingKey`s.
public struct ArchiveObjectKeys: Sendable {
    /// The keys, in the order they are written.
    public let names: [StaticString]
    /// Whether the type's objects are written through `encode(to:)` (``throughCodable``).
    internal let isThroughCodable: Bool

    /// Creates the keys of an object.
    /// - Parameter names: The keys, in the order they are written; each at most once.
    public init(_ names: [StaticString]) {
        self.names = names
        self.isThroughCodable = false
    }

    /// The keys of a type whose objects the coders write through `encode(to:)` and read through
    /// `init(from:)` with the object's decoder, never with ``ArchiveObjectEncodable/encodeArchiveObject(to:)``:
    /// a subclass of a plain `Codable` class, whose superclass writes its own fields in the same
    /// object. Its own subclasses inherit the conformance, and take the same path.
    public static var throughCodable: ArchiveObjectKeys { ArchiveObjectKeys(throughCodable: ()) }

    private init(throughCodable: Void) {
        self.names = []
        self.isThroughCodable = true
    }
}

/// Whether the coders use ``ArchiveObjectEncodable`` and ``ArchiveObjectDecodable``
/// conformances, or go through `Codable` for every type.
///
/// Both paths write the same archives and read archives to the same values; ``disabled`` is
/// there to compare them, and as an escape hatch.
public struct DirectArchiving: Sendable, Hashable {
    private let isEnabled: Bool

    /// Conforming types write and read their objects themselves. The default.
    public static let enabled = DirectArchiving(isEnabled: true)
    /// Every type goes through `encode(to:)` and `init(from:)`.
    public static let disabled = DirectArchiving(isEnabled: false)

    /// Whether conformances are used.
    internal var usesConformances: Bool { self.isEnabled }
}

/// A coding key standing for one of an ``ArchiveObjectKeys``' keys in coding paths: its string
/// value is the key, as a `CodingKeys` case's is.
internal struct ArchiveFieldKey: CodingKey {
    let name: StaticString

    init(_ name: StaticString) {
        self.name = name
    }

    var stringValue: String { self.name.description }
    var intValue: Int? { nil }

    init?(stringValue: String) { nil }
    init?(intValue: Int) { nil }
}
