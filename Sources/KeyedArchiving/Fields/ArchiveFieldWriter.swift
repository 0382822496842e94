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

/// What the one body `@Archivable` generates writes a value's fields to: each field under the
/// index of its key in the type's ``ArchiveObjectKeys``, by the rule its declaration gives it.
///
/// The body is generic over its writer, so the compiler specialises it in the type's own module
/// for each writer that calls it: ``ArchiveObjectWriter`` writes the archive's object directly,
/// and ``ArchiveContainerFieldWriter`` writes the same calls to any `Encoder`'s keyed container,
/// as synthesized `Codable` would. Both paths run one body, and so agree.
///
/// The overloads for the standard scalars (every integer and floating-point type, `Bool`,
/// `String`, `Date`, `Data`, `URL`, `UUID`), arrays of strings and the package's own conformances
/// are there so that a writer can store them without a generic call; each writer must store them
/// as its generic overload would. Those a writer does not implement default to the generic
/// overload.
public protocol ArchiveFieldWriter: ~Copyable {
    /// Writes the type's version, only when it differs from its `unversionedArchiveVersion`.
    mutating func encodeVersion<Value: ArchiveVersioned>(of type: Value.Type, at index: Int) throws

    /// Writes a property that is not optional, as `encode(_:forKey:)` does.
    mutating func encode<T: Encodable>(_ value: T, at index: Int) throws
    /// Writes a property whose type is optional though not spelled so (a `typealias`, say): as
    /// `encodeIfPresent(_:at:)`, which the compiler picks for any optional.
    mutating func encode<T: Encodable>(_ value: T?, at index: Int) throws
    /// Writes a value that writes its own object (an `@Archivable` struct or final class).
    mutating func encode<T: ArchiveObjectEncodable>(_ value: T, at index: Int) throws
    /// Writes an enum stored as its raw string.
    mutating func encode<T: ArchiveRawValueCodable>(_ value: T, at index: Int) throws
    /// Writes a string.
    mutating func encode(_ value: String, at index: Int) throws
    /// Writes an integer.
    mutating func encode(_ value: Int, at index: Int) throws
    /// Writes a 64-bit real.
    mutating func encode(_ value: Double, at index: Int) throws
    /// Writes a Boolean.
    mutating func encode(_ value: Bool, at index: Int) throws
    /// Writes a date.
    mutating func encode(_ value: Date, at index: Int) throws
    /// Writes an array of strings.
    mutating func encode(_ value: [String], at index: Int) throws
    /// Writes an 8-bit integer.
    mutating func encode(_ value: Int8, at index: Int) throws
    /// Writes a 16-bit integer.
    mutating func encode(_ value: Int16, at index: Int) throws
    /// Writes a 32-bit integer.
    mutating func encode(_ value: Int32, at index: Int) throws
    /// Writes a 64-bit integer.
    mutating func encode(_ value: Int64, at index: Int) throws
    /// Writes an unsigned integer.
    mutating func encode(_ value: UInt, at index: Int) throws
    /// Writes an unsigned 8-bit integer.
    mutating func encode(_ value: UInt8, at index: Int) throws
    /// Writes an unsigned 16-bit integer.
    mutating func encode(_ value: UInt16, at index: Int) throws
    /// Writes an unsigned 32-bit integer.
    mutating func encode(_ value: UInt32, at index: Int) throws
    /// Writes an unsigned 64-bit integer.
    mutating func encode(_ value: UInt64, at index: Int) throws
    /// Writes a 32-bit real.
    mutating func encode(_ value: Float, at index: Int) throws
    /// Writes data.
    mutating func encode(_ value: Data, at index: Int) throws
    /// Writes a URL.
    mutating func encode(_ value: URL, at index: Int) throws
    /// Writes a UUID.
    mutating func encode(_ value: UUID, at index: Int) throws

    /// Writes an optional property, as `encodeIfPresent(_:forKey:)` does.
    mutating func encodeIfPresent<T: Encodable>(_ value: T?, at index: Int) throws
    /// Writes an optional value that writes its own object, as `encodeIfPresent(_:forKey:)` does.
    mutating func encodeIfPresent<T: ArchiveObjectEncodable>(_ value: T?, at index: Int) throws
    /// Writes an optional enum stored as its raw string, as `encodeIfPresent(_:forKey:)` does.
    mutating func encodeIfPresent<T: ArchiveRawValueCodable>(_ value: T?, at index: Int) throws
    /// Writes an optional string, as `encodeIfPresent(_:forKey:)` does.
    mutating func encodeIfPresent(_ value: String?, at index: Int) throws

    /// Writes an optional property that has an initial value: a `nil` as an explicit null, so
    /// that reading it gives `nil` back rather than the initial value. The compiler picks it for
    /// an optional spelled any way; the extension's overloads write the other types as
    /// `encode(_:at:)` does.
    mutating func encodeDefaulted<T: Encodable>(_ value: T?, at index: Int) throws

    /// Writes the fields a decoding kept because the type did not know them, after its own.
    mutating func encodeUnknownFields(_ fields: ArchiveUnknownFields) throws
}

// The scalars a writer does not store itself go through its generic overload.
extension ArchiveFieldWriter where Self: ~Copyable {
    /// Writes an 8-bit integer through the generic overload.
    @inlinable
    public mutating func encode(_ value: Int8, at index: Int) throws { try self.encodeValue(value, at: index) }

    /// Writes a 16-bit integer through the generic overload.
    @inlinable
    public mutating func encode(_ value: Int16, at index: Int) throws { try self.encodeValue(value, at: index) }

    /// Writes a 32-bit integer through the generic overload.
    @inlinable
    public mutating func encode(_ value: Int32, at index: Int) throws { try self.encodeValue(value, at: index) }

    /// Writes a 64-bit integer through the generic overload.
    @inlinable
    public mutating func encode(_ value: Int64, at index: Int) throws { try self.encodeValue(value, at: index) }

    /// Writes an unsigned integer through the generic overload.
    @inlinable
    public mutating func encode(_ value: UInt, at index: Int) throws { try self.encodeValue(value, at: index) }

    /// Writes an unsigned 8-bit integer through the generic overload.
    @inlinable
    public mutating func encode(_ value: UInt8, at index: Int) throws { try self.encodeValue(value, at: index) }

    /// Writes an unsigned 16-bit integer through the generic overload.
    @inlinable
    public mutating func encode(_ value: UInt16, at index: Int) throws { try self.encodeValue(value, at: index) }

    /// Writes an unsigned 32-bit integer through the generic overload.
    @inlinable
    public mutating func encode(_ value: UInt32, at index: Int) throws { try self.encodeValue(value, at: index) }

    /// Writes an unsigned 64-bit integer through the generic overload.
    @inlinable
    public mutating func encode(_ value: UInt64, at index: Int) throws { try self.encodeValue(value, at: index) }

    /// Writes a 32-bit real through the generic overload.
    @inlinable
    public mutating func encode(_ value: Float, at index: Int) throws { try self.encodeValue(value, at: index) }

    /// Writes data through the generic overload.
    @inlinable
    public mutating func encode(_ value: Data, at index: Int) throws { try self.encodeValue(value, at: index) }

    /// Writes a URL through the generic overload.
    @inlinable
    public mutating func encode(_ value: URL, at index: Int) throws { try self.encodeValue(value, at: index) }

    /// Writes a UUID through the generic overload.
    @inlinable
    public mutating func encode(_ value: UUID, at index: Int) throws { try self.encodeValue(value, at: index) }

    /// Writes `value` with the generic overload, whatever overloads its type has.
    @inlinable
    mutating func encodeValue<T: Encodable>(_ value: T, at index: Int) throws {
        try self.encode(value, at: index)
    }
}

// The forms for properties that have an initial value and are not optional: as `encode(_:at:)`.
extension ArchiveFieldWriter where Self: ~Copyable {
    /// Writes a property that has an initial value, as `encode(_:at:)` does.
    @inlinable
    public mutating func encodeDefaulted<T: Encodable>(_ value: T, at index: Int) throws {
        try self.encode(value, at: index)
    }

    /// Writes a value that writes its own object and is a property's initial value's type.
    @inlinable
    public mutating func encodeDefaulted<T: ArchiveObjectEncodable>(_ value: T, at index: Int) throws {
        try self.encode(value, at: index)
    }

    /// Writes an enum stored as its raw string, for a property that has an initial value.
    @inlinable
    public mutating func encodeDefaulted<T: ArchiveRawValueCodable>(_ value: T, at index: Int) throws {
        try self.encode(value, at: index)
    }

    /// Writes a string, for a property that has an initial value.
    @inlinable
    public mutating func encodeDefaulted(_ value: String, at index: Int) throws {
        try self.encode(value, at: index)
    }

    /// Writes an integer, for a property that has an initial value.
    @inlinable
    public mutating func encodeDefaulted(_ value: Int, at index: Int) throws {
        try self.encode(value, at: index)
    }

    /// Writes a 64-bit real, for a property that has an initial value.
    @inlinable
    public mutating func encodeDefaulted(_ value: Double, at index: Int) throws {
        try self.encode(value, at: index)
    }

    /// Writes a Boolean, for a property that has an initial value.
    @inlinable
    public mutating func encodeDefaulted(_ value: Bool, at index: Int) throws {
        try self.encode(value, at: index)
    }

    /// Writes a date, for a property that has an initial value.
    @inlinable
    public mutating func encodeDefaulted(_ value: Date, at index: Int) throws {
        try self.encode(value, at: index)
    }

    /// Writes an array of strings, for a property that has an initial value.
    @inlinable
    public mutating func encodeDefaulted(_ value: [String], at index: Int) throws {
        try self.encode(value, at: index)
    }

    /// Writes an 8-bit integer, for a property that has an initial value.
    @inlinable
    public mutating func encodeDefaulted(_ value: Int8, at index: Int) throws {
        try self.encode(value, at: index)
    }

    /// Writes a 16-bit integer, for a property that has an initial value.
    @inlinable
    public mutating func encodeDefaulted(_ value: Int16, at index: Int) throws {
        try self.encode(value, at: index)
    }

    /// Writes a 32-bit integer, for a property that has an initial value.
    @inlinable
    public mutating func encodeDefaulted(_ value: Int32, at index: Int) throws {
        try self.encode(value, at: index)
    }

    /// Writes a 64-bit integer, for a property that has an initial value.
    @inlinable
    public mutating func encodeDefaulted(_ value: Int64, at index: Int) throws {
        try self.encode(value, at: index)
    }

    /// Writes an unsigned integer, for a property that has an initial value.
    @inlinable
    public mutating func encodeDefaulted(_ value: UInt, at index: Int) throws {
        try self.encode(value, at: index)
    }

    /// Writes an unsigned 8-bit integer, for a property that has an initial value.
    @inlinable
    public mutating func encodeDefaulted(_ value: UInt8, at index: Int) throws {
        try self.encode(value, at: index)
    }

    /// Writes an unsigned 16-bit integer, for a property that has an initial value.
    @inlinable
    public mutating func encodeDefaulted(_ value: UInt16, at index: Int) throws {
        try self.encode(value, at: index)
    }

    /// Writes an unsigned 32-bit integer, for a property that has an initial value.
    @inlinable
    public mutating func encodeDefaulted(_ value: UInt32, at index: Int) throws {
        try self.encode(value, at: index)
    }

    /// Writes an unsigned 64-bit integer, for a property that has an initial value.
    @inlinable
    public mutating func encodeDefaulted(_ value: UInt64, at index: Int) throws {
        try self.encode(value, at: index)
    }

    /// Writes a 32-bit real, for a property that has an initial value.
    @inlinable
    public mutating func encodeDefaulted(_ value: Float, at index: Int) throws {
        try self.encode(value, at: index)
    }

    /// Writes data, for a property that has an initial value.
    @inlinable
    public mutating func encodeDefaulted(_ value: Data, at index: Int) throws {
        try self.encode(value, at: index)
    }

    /// Writes a URL, for a property that has an initial value.
    @inlinable
    public mutating func encodeDefaulted(_ value: URL, at index: Int) throws {
        try self.encode(value, at: index)
    }

    /// Writes a UUID, for a property that has an initial value.
    @inlinable
    public mutating func encodeDefaulted(_ value: UUID, at index: Int) throws {
        try self.encode(value, at: index)
    }
}
