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

/// Reads a value's fields through any `Decoder`'s keyed container: what the `init(from:)` that
/// `@Archivable` generates runs its one body with.
///
/// Each call is the one synthesized `Codable` makes for the property (`decode(_:forKey:)`,
/// through the container's own overload for a standard scalar; `decodeIfPresent(_:forKey:)` for an
/// optional), with the evolution rules of ``ArchiveEvolution``: versions, migration, former keys,
/// initial values kept when a key is absent, fallbacks.
///
/// Inlinable, so that it is specialised with the body in the type's module. With
/// ``read(from:_:)``, the container stays in its frame, which the reader points to: a reader
/// holding the container itself (a type of the standard library whose size is known only at run
/// time) would look up the container type's metadata each time it is destroyed, about 400
/// instructions per value. A class's `init(from:)`, which cannot run its initializer in a closure,
/// uses ``init(_:)``, whose reader owns a copy of the container on the heap.
public struct ArchiveContainerFieldReader<Key: ArchiveFieldCodingKey>: ArchiveFieldReader, ~Copyable {
    /// The container the fields come from.
    @usableFromInline let pointer: UnsafeMutablePointer<KeyedDecodingContainer<Key>>
    /// Whether the reader allocated the container's storage, which it then frees.
    @usableFromInline let ownsContainer: Bool
    /// The decoder of the value being read.
    public let decoder: any Decoder

    @inlinable
    init(pointer: UnsafeMutablePointer<KeyedDecodingContainer<Key>>, ownsContainer: Bool, decoder: any Decoder) {
        self.pointer = pointer
        self.ownsContainer = ownsContainer
        self.decoder = decoder
    }

    /// Opens the keyed container of `decoder`'s value, owned by the reader.
    /// - Throws: `DecodingError` when the value is not a keyed container.
    @inlinable
    public init(_ decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Key.self)
        let pointer = UnsafeMutablePointer<KeyedDecodingContainer<Key>>.allocate(capacity: 1)
        pointer.initialize(to: container)
        self.init(pointer: pointer, ownsContainer: true, decoder: decoder)
    }

    deinit {
        guard self.ownsContainer else { return }
        self.pointer.deinitialize(count: 1)
        self.pointer.deallocate()
    }

    /// Opens the keyed container of `decoder`'s value and returns what `body` makes with a reader
    /// of it, valid only during `body`.
    /// - Throws: `DecodingError` when the value is not a keyed container; what `body` throws.
    @inlinable
    public static func read<Value>(from decoder: any Decoder, _ body: (inout Self) throws -> Value) throws -> Value {
        var container = try decoder.container(keyedBy: Key.self)
        return try withUnsafeMutablePointer(to: &container) { pointer in
            var reader = Self(pointer: pointer, ownsContainer: false, decoder: decoder)
            return try body(&reader)
        }
    }

    /// The container, in place.
    @inlinable
    var container: KeyedDecodingContainer<Key> {
        unsafeAddress { UnsafePointer(self.pointer) }
    }

    /// Whether the container has the key at `index`.
    @inlinable
    public func contains(_ index: Int) -> Bool {
        self.container.contains(Key(archiveField: index))
    }

    /// The version the value was stored with (see ``ArchiveFieldReader/decodeVersion(of:at:)``).
    @inlinable
    public func decodeVersion<Value: ArchiveVersioned>(of type: Value.Type, at index: Int) throws -> Int {
        try ArchiveEvolution.version(
            of: type,
            from: self.container,
            forKey: Key(archiveField: index),
            decoder: self.decoder
        )
    }

    /// The value read as stored by an older version of the type, as
    /// ``ArchiveEvolution/migrate(_:from:)`` reads it.
    @inlinable
    public func migrate<Value: ArchiveMigrating>(_ type: Value.Type) throws -> Value {
        try ArchiveEvolution.migrate(type, from: self.decoder)
    }

    /// Reports a property falling back to its initial value, as
    /// ``ArchiveEvolution/recordFallback(from:decoding:key:codingPath:decoder:)`` does.
    public func recordFallback(_ error: any Error, decoding type: Any.Type, at index: Int) throws {
        let key = Key(archiveField: index)
        try ArchiveEvolution.recordFallback(
            from: error,
            decoding: type,
            key: key.stringValue,
            codingPath: self.container.codingPath + [key],
            decoder: self.decoder
        )
    }

    /// Reads a property that is not optional, through the container's own overload for a
    /// standard scalar.
    @inlinable
    public func decode<T: Decodable>(_ type: T.Type, at index: Int) throws -> T {
        try ArchiveEvolution.decodeValue(type, from: self.container, forKey: Key(archiveField: index))
    }

    /// Reads a value that reads its own object, with `decode(_:forKey:)`.
    @inlinable
    public func decode<T: ArchiveObjectDecodable>(_ type: T.Type, at index: Int) throws -> T {
        try self.container.decode(type, forKey: Key(archiveField: index))
    }

    /// Reads an enum stored as its raw string, with `decode(_:forKey:)`.
    @inlinable
    public func decode<T: ArchiveRawValueCodable>(_ type: T.Type, at index: Int) throws -> T {
        try self.container.decode(type, forKey: Key(archiveField: index))
    }

    /// Reads a string.
    @inlinable
    public func decode(_ type: String.Type, at index: Int) throws -> String {
        try self.container.decode(type, forKey: Key(archiveField: index))
    }

    /// Reads an integer.
    @inlinable
    public func decode(_ type: Int.Type, at index: Int) throws -> Int {
        try self.container.decode(type, forKey: Key(archiveField: index))
    }

    /// Reads a 64-bit real.
    @inlinable
    public func decode(_ type: Double.Type, at index: Int) throws -> Double {
        try self.container.decode(type, forKey: Key(archiveField: index))
    }

    /// Reads a Boolean.
    @inlinable
    public func decode(_ type: Bool.Type, at index: Int) throws -> Bool {
        try self.container.decode(type, forKey: Key(archiveField: index))
    }

    /// Reads a date.
    @inlinable
    public func decode(_ type: Date.Type, at index: Int) throws -> Date {
        try self.container.decode(type, forKey: Key(archiveField: index))
    }

    /// Reads an array of strings.
    @inlinable
    public func decode(_ type: [String].Type, at index: Int) throws -> [String] {
        try self.container.decode(type, forKey: Key(archiveField: index))
    }

    /// Reads an optional property with `decodeIfPresent(_:forKey:)`, through the container's own
    /// overload for a standard scalar.
    @inlinable
    public func decodeIfPresent<T: Decodable>(_ type: T.Type, at index: Int) throws -> T? {
        try ArchiveEvolution.decodeValueIfPresent(type, from: self.container, forKey: Key(archiveField: index))
    }

    /// Reads an optional value that reads its own object with `decodeIfPresent(_:forKey:)`.
    @inlinable
    public func decodeIfPresent<T: ArchiveObjectDecodable>(_ type: T.Type, at index: Int) throws -> T? {
        try self.container.decodeIfPresent(type, forKey: Key(archiveField: index))
    }

    /// Reads an optional enum stored as its raw string with `decodeIfPresent(_:forKey:)`.
    @inlinable
    public func decodeIfPresent<T: ArchiveRawValueCodable>(_ type: T.Type, at index: Int) throws -> T? {
        try self.container.decodeIfPresent(type, forKey: Key(archiveField: index))
    }

    /// Reads an optional string with `decodeIfPresent(_:forKey:)`.
    @inlinable
    public func decodeIfPresent(_ type: String.Type, at index: Int) throws -> String? {
        try self.container.decodeIfPresent(type, forKey: Key(archiveField: index))
    }

    /// Reads an optional property whose initial value is not `nil`: leaves `value` as it is when
    /// the key is absent, sets it to `nil` when the key holds null.
    @inlinable
    public func decodeOptional<T: Decodable>(into value: inout T?, at index: Int) throws {
        try ArchiveEvolution.decodeOptional(into: &value, from: self.container, forKey: Key(archiveField: index))
    }

    /// Reads an optional property that reads its own object and whose initial value is not `nil`.
    @inlinable
    public func decodeOptional<T: ArchiveObjectDecodable>(into value: inout T?, at index: Int) throws {
        let key = Key(archiveField: index)
        guard self.container.contains(key) else { return }
        value = try self.container.decodeNil(forKey: key) ? nil : self.container.decode(T.self, forKey: key)
    }
}
