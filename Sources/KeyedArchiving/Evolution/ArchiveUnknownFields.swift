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

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The fields of a stored object that its type does not know, kept so that re-encoding writes
/// them back: what a newer version of the app, or another app sharing the data, stored and this
/// version would otherwise erase.
///
/// Declare one stored property of this type, with an initial value, in an `@Archivable` type:
///
/// ```swift
/// @Archivable
/// struct Settings {
///     var theme = "light"
///     var unknownFields = ArchiveUnknownFields()
/// }
/// ```
///
/// With this package's coders a field is kept as an ``ArchivedValue``: its class names, nested
/// objects and Foundation values are written back as they were read; with other coders, as the
/// plain value the coder reads (numbers, strings, Booleans, dates, data, arrays, dictionaries).
/// A shared object inside kept fields is written once per place that holds it, and a cycle within
/// them (``ArchivedValue/reference(_:)``) is written as null.
///
/// Kept fields take no part in `==` and hashing: two values whose known properties are equal are
/// equal, whatever else the data they came from held.
public struct ArchiveUnknownFields: Hashable, Sendable {
    /// The kept fields, in stored order, with their keys unescaped.
    public private(set) var fields: [ArchivedValue.Field]

    /// No kept fields.
    public init() {
        self.fields = []
    }

    /// Keeps `fields`.
    public init(_ fields: [ArchivedValue.Field]) {
        self.fields = fields
    }

    /// Whether no field is kept.
    public var isEmpty: Bool { self.fields.isEmpty }

    /// The keys of the kept fields, in stored order.
    public var keys: [String] { self.fields.map(\.key) }

    /// The kept value under `key`, if any.
    public subscript(key: String) -> ArchivedValue? {
        self.fields.first { $0.key == key }?.value
    }

    /// Always `true`: kept fields take no part in equality.
    public static func == (lhs: Self, rhs: Self) -> Bool { true }

    /// Adds nothing: kept fields take no part in hashing.
    public func hash(into hasher: inout Hasher) {}

    /// Reads the fields of the value being decoded whose keys are not in `knownKeys`.
    /// - Parameters:
    ///   - decoder: The decoder of the value holding the fields.
    ///   - knownKeys: Every key the type reads or writes: its properties' current and former keys
    ///     and its version key.
    /// - Throws: `DecodingError` when the archive is malformed.
    public init(from decoder: any Decoder, knownKeys: Set<String>) throws {
        if let decoder = decoder as? _ArchiveDecoder {
            self.fields = try decoder.unknownFields(excluding: knownKeys)
            return
        }
        let container = try decoder.container(keyedBy: ArchiveEvolutionKey.self)
        var fields: [ArchivedValue.Field] = []
        for key in container.allKeys where !knownKeys.contains(key.stringValue) {
            let value = try container.decode(PlainStoredValue.self, forKey: key).value
            fields.append(ArchivedValue.Field(key: key.stringValue, value: value))
        }
        self.fields = fields
    }

    /// Writes the kept fields into the value being encoded, after its own.
    /// - Throws: `EncodingError` when a coder refuses a value.
    public func encode(to encoder: any Encoder) throws {
        guard !self.fields.isEmpty else { return }
        if let encoder = encoder as? _ArchiveEncoder {
            encoder.setArchivedFields(self.fields)
            return
        }
        var container = encoder.container(keyedBy: ArchiveEvolutionKey.self)
        for field in self.fields {
            try container.encode(PlainStoredValue(field.value), forKey: ArchiveEvolutionKey(stringValue: field.key))
        }
    }
}

/// A kept value as coders other than this package's read and write it: the plain property list
/// and JSON types.
private struct PlainStoredValue: Codable {
    var value: ArchivedValue

    init(_ value: ArchivedValue) {
        self.value = value
    }

    init(from decoder: any Decoder) throws {
        if let container = try? decoder.singleValueContainer() {
            if container.decodeNil() {
                self.value = .null
                return
            }
            if let value = try? container.decode(Bool.self) {
                self.value = .bool(value)
                return
            }
            if let value = try? container.decode(Int64.self) {
                self.value = .integer(PropertyListInteger(value))
                return
            }
            if let value = try? container.decode(UInt64.self) {
                self.value = .integer(PropertyListInteger(value))
                return
            }
            if let value = try? container.decode(Double.self) {
                self.value = .real(value)
                return
            }
            if let value = try? container.decode(String.self) {
                self.value = .string(value)
                return
            }
            if let value = try? container.decode(Date.self) {
                self.value = .date(value)
                return
            }
            if let value = try? container.decode(Data.self) {
                self.value = .data(value)
                return
            }
        }
        if var container = try? decoder.unkeyedContainer() {
            var elements: [ArchivedValue] = []
            while !container.isAtEnd { elements.append(try container.decode(PlainStoredValue.self).value) }
            self.value = .array(elements, className: "NSArray")
            return
        }
        let container = try decoder.container(keyedBy: ArchiveEvolutionKey.self)
        var entries: [ArchivedValue.Entry] = []
        for key in container.allKeys {
            let value = try container.decode(PlainStoredValue.self, forKey: key).value
            entries.append(ArchivedValue.Entry(key: .string(key.stringValue), value: value))
        }
        self.value = .dictionary(entries, className: "NSDictionary")
    }

    func encode(to encoder: any Encoder) throws {
        switch self.value {
        case .null, .reference:
            var container = encoder.singleValueContainer()
            try container.encodeNil()
        case .string(let value), .url(let value):
            var container = encoder.singleValueContainer()
            try container.encode(value)
        case .integer(let value):
            var container = encoder.singleValueContainer()
            if let signed = value.int64Value {
                try container.encode(signed)
            } else {
                try container.encode(value.uint64Value ?? 0)
            }
        case .real(let value):
            var container = encoder.singleValueContainer()
            try container.encode(value)
        case .float(let value):
            var container = encoder.singleValueContainer()
            try container.encode(value)
        case .bool(let value):
            var container = encoder.singleValueContainer()
            try container.encode(value)
        case .data(let value):
            var container = encoder.singleValueContainer()
            try container.encode(value)
        case .date(let value):
            var container = encoder.singleValueContainer()
            try container.encode(value)
        case .uuid(let value):
            var container = encoder.singleValueContainer()
            try container.encode(value)
        case .array(let elements, _):
            var container = encoder.unkeyedContainer()
            for element in elements { try container.encode(PlainStoredValue(element)) }
        case .dictionary(let entries, _):
            var container = encoder.container(keyedBy: ArchiveEvolutionKey.self)
            for entry in entries {
                let key: String
                switch entry.key {
                case .string(let string): key = string
                case .integer(let integer): key = integer.description
                default: continue
                }
                try container.encode(PlainStoredValue(entry.value), forKey: ArchiveEvolutionKey(stringValue: key))
            }
        case .object(_, _, let fields), .top(let fields):
            var container = encoder.container(keyedBy: ArchiveEvolutionKey.self)
            for field in fields {
                try container.encode(PlainStoredValue(field.value), forKey: ArchiveEvolutionKey(stringValue: field.key))
            }
        }
    }
}
