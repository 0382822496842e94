//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-keyed-archive open source project
//
// Licensed under Apache License v2.0
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import KeyedArchiving
import PropertyLists

#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

/// How a store turns values into the payload bytes of its entries and back.
///
/// Every entry records the ``identifier`` of the format that wrote it, so a store reads entries
/// written in any format it knows (its own, the built-in ones and
/// ``ArchiveStoreConfiguration/additionalFormats``) even after its format changes.
///
/// Add a format of your own with ``init(identifier:encode:decode:)``:
///
/// ```swift
/// let yaml = ArchiveValueFormat(
///     identifier: "org.example.yaml",
///     encode: { value in try YAMLEncoder().encode(value) },
///     decode: { type, data in try YAMLDecoder().decode(type, from: data) }
/// )
/// ```
public struct ArchiveValueFormat: Sendable {
    /// The name stored in every entry this format writes: 1 to 255 bytes of UTF-8, unique among
    /// the formats a store knows. Never change it once entries exist.
    public var identifier: String
    /// Encodes a value into payload bytes.
    public var encode: @Sendable (any Encodable) throws -> Data
    /// Decodes payload bytes into a value of the given type. A store reads the payloads of
    /// ``keyedArchive`` and ``keyedArchiveXML`` with `KeyedArchiveDecoder` itself, where they lie,
    /// until this is replaced.
    public var decode: @Sendable (any Decodable.Type, Data) throws -> any Decodable {
        didSet { self.readsInPlace = false }
    }

    /// Whether ``decode`` is `KeyedArchiveDecoder`'s, as in ``keyedArchive`` and
    /// ``keyedArchiveXML``: a store then decodes payloads where they lie, as the stored type itself,
    /// instead of calling ``decode`` on a copy. Replacing ``decode`` clears it.
    private(set) var readsInPlace = false

    /// Creates a format from an identifier and two coding closures.
    ///
    /// - Parameters:
    ///   - identifier: The name stored in each entry; 1 to 255 bytes of UTF-8.
    ///   - encode: Encodes a value into bytes.
    ///   - decode: Decodes bytes into a value of the given type.
    public init(
        identifier: String,
        encode: @escaping @Sendable (any Encodable) throws -> Data,
        decode: @escaping @Sendable (any Decodable.Type, Data) throws -> any Decodable
    ) {
        self.identifier = identifier
        self.encode = encode
        self.decode = decode
    }

    /// A binary keyed archive, written by `KeyedArchiveEncoder`: the default.
    public static let keyedArchive = ArchiveValueFormat(
        identifier: "keyed-archive.binary",
        encode: { value in try KeyedArchiveEncoder().encode(value) },
        decode: { type, data in try KeyedArchiveDecoder().decode(type, from: data) }
    ).readingInPlace()

    /// An XML keyed archive, written by `KeyedArchiveEncoder` with the XML output format.
    public static let keyedArchiveXML = ArchiveValueFormat(
        identifier: "keyed-archive.xml",
        encode: { value in
            var encoder = KeyedArchiveEncoder()
            encoder.outputFormat = .xml
            return try encoder.encode(value)
        },
        decode: { type, data in try KeyedArchiveDecoder().decode(type, from: data) }
    ).readingInPlace()

    /// JSON, written by Foundation's `JSONEncoder` with sorted keys.
    public static let json = ArchiveValueFormat(
        identifier: "json",
        encode: { value in
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            return try encoder.encode(value)
        },
        decode: { type, data in try JSONDecoder().decode(type, from: data) }
    )

    /// A binary property list, written by Foundation's `PropertyListEncoder`.
    public static let propertyList = ArchiveValueFormat(
        identifier: "property-list.binary",
        encode: { value in
            let encoder = PropertyListEncoder()
            encoder.outputFormat = .binary
            return try encoder.encode(value)
        },
        decode: { type, data in try PropertyListDecoder().decode(type, from: data) }
    )

    /// This format, marked as decoding with `KeyedArchiveDecoder` (``readsInPlace``).
    private func readingInPlace() -> ArchiveValueFormat {
        var format = self
        format.readsInPlace = true
        return format
    }

    /// The formats every store reads: ``keyedArchive``, ``keyedArchiveXML``, ``json`` and
    /// ``propertyList``.
    public static let builtIn: [ArchiveValueFormat] = [.keyedArchive, .keyedArchiveXML, .json, .propertyList]
}
