//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-keyed-archive open source project
//
// Licensed under Apache License v2.0
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

/// Writes a value's fields to any `Encoder`'s keyed container: what the `encode(to:)` that
/// `@Archivable` generates runs its one body with.
///
/// Each call is the one synthesized `Codable` makes for the property (`encode(_:forKey:)`,
/// through the container's own overload for a standard scalar; `encodeIfPresent(_:forKey:)` for an
/// optional), with the evolution rules: the version only when the type has one, an optional with
/// a non-`nil` initial value written as an explicit null, the kept unknown fields after the rest.
///
/// Inlinable, so that it is specialised with the body in the type's module. The container stays in
/// the frame of ``write(to:_:)``, which the writer points to: a writer holding the container itself
/// (a type of the standard library whose size is known only at run time) would look up the
/// container type's metadata each time it is destroyed, about 400 instructions per value.
public struct ArchiveContainerFieldWriter<Key: ArchiveFieldCodingKey>: ArchiveFieldWriter, ~Copyable {
    /// The container the fields go to, in the frame of ``write(to:_:)``.
    @usableFromInline let pointer: UnsafeMutablePointer<KeyedEncodingContainer<Key>>
    /// The encoder of the value, which writes the kept unknown fields.
    @usableFromInline let encoder: any Encoder

    @inlinable
    init(pointer: UnsafeMutablePointer<KeyedEncodingContainer<Key>>, encoder: any Encoder) {
        self.pointer = pointer
        self.encoder = encoder
    }

    /// Opens the keyed container of `encoder`'s value and runs `body` with a writer of it, valid
    /// only during `body`.
    /// - Throws: What `body` throws.
    @inlinable
    public static func write(to encoder: any Encoder, _ body: (inout Self) throws -> Void) throws {
        var container = encoder.container(keyedBy: Key.self)
        try withUnsafeMutablePointer(to: &container) { pointer in
            var writer = Self(pointer: pointer, encoder: encoder)
            try body(&writer)
        }
    }

    /// The container, in place.
    @inlinable
    var container: KeyedEncodingContainer<Key> {
        unsafeAddress { UnsafePointer(self.pointer) }
        nonmutating unsafeMutableAddress { self.pointer }
    }

    /// Writes the type's version, only when it differs from its `unversionedArchiveVersion`.
    @inlinable
    public mutating func encodeVersion<Value: ArchiveVersioned>(of type: Value.Type, at index: Int) throws {
        try ArchiveEvolution.encodeVersion(of: type, to: &self.container, forKey: Key(archiveField: index))
    }

    /// Writes a property that is not optional, through the container's own overload for a
    /// standard scalar.
    @inlinable
    public mutating func encode<T: Encodable>(_ value: T, at index: Int) throws {
        try ArchiveEvolution.encode(value, to: &self.container, forKey: Key(archiveField: index))
    }

    /// Writes an optional not spelled so, with `encodeIfPresent(_:forKey:)`.
    @inlinable
    public mutating func encode<T: Encodable>(_ value: T?, at index: Int) throws {
        try ArchiveEvolution.encode(value, to: &self.container, forKey: Key(archiveField: index))
    }

    /// Writes a value that writes its own object, with `encode(_:forKey:)`.
    @inlinable
    public mutating func encode<T: ArchiveObjectEncodable>(_ value: T, at index: Int) throws {
        try self.container.encode(value, forKey: Key(archiveField: index))
    }

    /// Writes an enum stored as its raw string, with `encode(_:forKey:)`.
    @inlinable
    public mutating func encode<T: ArchiveRawValueCodable>(_ value: T, at index: Int) throws {
        try self.container.encode(value, forKey: Key(archiveField: index))
    }

    /// Writes a string.
    @inlinable
    public mutating func encode(_ value: String, at index: Int) throws {
        try self.container.encode(value, forKey: Key(archiveField: index))
    }

    /// Writes an integer.
    @inlinable
    public mutating func encode(_ value: Int, at index: Int) throws {
        try self.container.encode(value, forKey: Key(archiveField: index))
    }

    /// Writes a 64-bit real.
    @inlinable
    public mutating func encode(_ value: Double, at index: Int) throws {
        try self.container.encode(value, forKey: Key(archiveField: index))
    }

    /// Writes a Boolean.
    @inlinable
    public mutating func encode(_ value: Bool, at index: Int) throws {
        try self.container.encode(value, forKey: Key(archiveField: index))
    }

    /// Writes a date.
    @inlinable
    public mutating func encode(_ value: Date, at index: Int) throws {
        try self.container.encode(value, forKey: Key(archiveField: index))
    }

    /// Writes an array of strings.
    @inlinable
    public mutating func encode(_ value: [String], at index: Int) throws {
        try self.container.encode(value, forKey: Key(archiveField: index))
    }

    /// Writes an optional property with `encodeIfPresent(_:forKey:)`.
    @inlinable
    public mutating func encodeIfPresent<T: Encodable>(_ value: T?, at index: Int) throws {
        try self.container.encodeIfPresent(value, forKey: Key(archiveField: index))
    }

    /// Writes an optional value that writes its own object with `encodeIfPresent(_:forKey:)`.
    @inlinable
    public mutating func encodeIfPresent<T: ArchiveObjectEncodable>(_ value: T?, at index: Int) throws {
        try self.container.encodeIfPresent(value, forKey: Key(archiveField: index))
    }

    /// Writes an optional enum stored as its raw string with `encodeIfPresent(_:forKey:)`.
    @inlinable
    public mutating func encodeIfPresent<T: ArchiveRawValueCodable>(_ value: T?, at index: Int) throws {
        try self.container.encodeIfPresent(value, forKey: Key(archiveField: index))
    }

    /// Writes an optional string with `encodeIfPresent(_:forKey:)`.
    @inlinable
    public mutating func encodeIfPresent(_ value: String?, at index: Int) throws {
        try self.container.encodeIfPresent(value, forKey: Key(archiveField: index))
    }

    /// Writes an optional property that has an initial value: a `nil` with `encodeNil(forKey:)`.
    @inlinable
    public mutating func encodeDefaulted<T: Encodable>(_ value: T?, at index: Int) throws {
        try ArchiveEvolution.encodeOptional(value, to: &self.container, forKey: Key(archiveField: index))
    }

    /// Writes the kept unknown fields through the encoder, after the value's own.
    @inlinable
    public mutating func encodeUnknownFields(_ fields: ArchiveUnknownFields) throws {
        try fields.encode(to: self.encoder)
    }
}
