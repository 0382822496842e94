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

/// What the one body `@Archivable` generates reads a value's fields from: each field by the index
/// of its key in the type's ``ArchiveObjectKeys``, by the rule its declaration gives it.
///
/// The body is generic over its reader, so the compiler specialises it in the type's own module
/// for each reader that calls it: ``ArchiveObjectReader`` reads the archive's object directly, and
/// ``ArchiveContainerFieldReader`` reads through any `Decoder`'s keyed container, as synthesized
/// `Codable` would. Both paths run one body, and so agree.
///
/// The overloads for the standard scalars (every integer and floating-point type, `Bool`,
/// `String`, `Date`, `Data`, `URL`, `UUID`), arrays of strings and the package's own conformances
/// are there so that a reader can read them without a generic call; each reader must read them as
/// its generic overload would. Those a reader does not implement default to the generic overload.
///
/// Requirements name the type read first; the body calls the forms that infer it from the
/// property (`decode(at:as:)`), which the extension below gives every reader.
public protocol ArchiveFieldReader: ~Copyable {
    /// The decoder of the value being read, for what reads through `Decodable` (kept fields).
    var decoder: any Decoder { get }

    /// Whether the value has a field under the key at `index`.
    func contains(_ index: Int) -> Bool

    /// The version the value was stored with: the integer under the key at `index`; when it is
    /// absent, for the root value of a versioned type (one whose `archiveVersion` is not its
    /// `unversionedArchiveVersion`), the version the data stores beside it (the `schemaVersion`
    /// of `$top`, an `ArchiveStore` entry's schema version); else `Value.unversionedArchiveVersion`.
    /// - Throws: `DecodingError.dataCorrupted` when it is newer than the type's or not an integer.
    func decodeVersion<Value: ArchiveVersioned>(of type: Value.Type, at index: Int) throws -> Int
    /// The value read as stored by an older version of the type, then migrated.
    func migrate<Value: ArchiveMigrating>(_ type: Value.Type) throws -> Value
    /// Reports that the property at `index`, marked `@ArchiveFallback`, keeps its initial value.
    /// - Throws: `error`, when it is not one to fall back from.
    func recordFallback(_ error: any Error, decoding type: Any.Type, at index: Int) throws

    /// Reads a property that is not optional, as `decode(_:forKey:)` does; an optional spelled
    /// another way (a `typealias`) reads `nil` from an absent key.
    func decode<T: Decodable>(_ type: T.Type, at index: Int) throws -> T
    /// Reads a value that reads its own object (an `@Archivable` struct or final class).
    func decode<T: ArchiveObjectDecodable>(_ type: T.Type, at index: Int) throws -> T
    /// Reads an enum stored as its raw string.
    func decode<T: ArchiveRawValueCodable>(_ type: T.Type, at index: Int) throws -> T
    /// Reads a string.
    func decode(_ type: String.Type, at index: Int) throws -> String
    /// Reads an integer.
    func decode(_ type: Int.Type, at index: Int) throws -> Int
    /// Reads a 64-bit real.
    func decode(_ type: Double.Type, at index: Int) throws -> Double
    /// Reads a Boolean.
    func decode(_ type: Bool.Type, at index: Int) throws -> Bool
    /// Reads a date.
    func decode(_ type: Date.Type, at index: Int) throws -> Date
    /// Reads an array of strings.
    func decode(_ type: [String].Type, at index: Int) throws -> [String]
    /// Reads an 8-bit integer.
    func decode(_ type: Int8.Type, at index: Int) throws -> Int8
    /// Reads a 16-bit integer.
    func decode(_ type: Int16.Type, at index: Int) throws -> Int16
    /// Reads a 32-bit integer.
    func decode(_ type: Int32.Type, at index: Int) throws -> Int32
    /// Reads a 64-bit integer.
    func decode(_ type: Int64.Type, at index: Int) throws -> Int64
    /// Reads an unsigned integer.
    func decode(_ type: UInt.Type, at index: Int) throws -> UInt
    /// Reads an unsigned 8-bit integer.
    func decode(_ type: UInt8.Type, at index: Int) throws -> UInt8
    /// Reads an unsigned 16-bit integer.
    func decode(_ type: UInt16.Type, at index: Int) throws -> UInt16
    /// Reads an unsigned 32-bit integer.
    func decode(_ type: UInt32.Type, at index: Int) throws -> UInt32
    /// Reads an unsigned 64-bit integer.
    func decode(_ type: UInt64.Type, at index: Int) throws -> UInt64
    /// Reads a 32-bit real.
    func decode(_ type: Float.Type, at index: Int) throws -> Float
    /// Reads data.
    func decode(_ type: Data.Type, at index: Int) throws -> Data
    /// Reads a URL.
    func decode(_ type: URL.Type, at index: Int) throws -> URL
    /// Reads a UUID.
    func decode(_ type: UUID.Type, at index: Int) throws -> UUID

    /// Reads an optional property, as `decodeIfPresent(_:forKey:)` does: `nil` when the key is
    /// absent or holds null.
    func decodeIfPresent<T: Decodable>(_ type: T.Type, at index: Int) throws -> T?
    /// Reads an optional value that reads its own object.
    func decodeIfPresent<T: ArchiveObjectDecodable>(_ type: T.Type, at index: Int) throws -> T?
    /// Reads an optional enum stored as its raw string.
    func decodeIfPresent<T: ArchiveRawValueCodable>(_ type: T.Type, at index: Int) throws -> T?
    /// Reads an optional string.
    func decodeIfPresent(_ type: String.Type, at index: Int) throws -> String?

    /// Reads an optional property whose initial value is not `nil`: leaves `value` as it is when
    /// the key is absent, sets it to `nil` when the key holds null.
    func decodeOptional<T: Decodable>(into value: inout T?, at index: Int) throws
    /// Reads an optional property that reads its own object and whose initial value is not `nil`.
    func decodeOptional<T: ArchiveObjectDecodable>(into value: inout T?, at index: Int) throws
}

// The scalars a reader does not read itself go through its generic overload.
extension ArchiveFieldReader where Self: ~Copyable {
    /// Reads an 8-bit integer through the generic overload.
    @inlinable
    public func decode(_ type: Int8.Type, at index: Int) throws -> Int8 { try self.decodeValue(type, at: index) }

    /// Reads a 16-bit integer through the generic overload.
    @inlinable
    public func decode(_ type: Int16.Type, at index: Int) throws -> Int16 { try self.decodeValue(type, at: index) }

    /// Reads a 32-bit integer through the generic overload.
    @inlinable
    public func decode(_ type: Int32.Type, at index: Int) throws -> Int32 { try self.decodeValue(type, at: index) }

    /// Reads a 64-bit integer through the generic overload.
    @inlinable
    public func decode(_ type: Int64.Type, at index: Int) throws -> Int64 { try self.decodeValue(type, at: index) }

    /// Reads an unsigned integer through the generic overload.
    @inlinable
    public func decode(_ type: UInt.Type, at index: Int) throws -> UInt { try self.decodeValue(type, at: index) }

    /// Reads an unsigned 8-bit integer through the generic overload.
    @inlinable
    public func decode(_ type: UInt8.Type, at index: Int) throws -> UInt8 { try self.decodeValue(type, at: index) }

    /// Reads an unsigned 16-bit integer through the generic overload.
    @inlinable
    public func decode(_ type: UInt16.Type, at index: Int) throws -> UInt16 { try self.decodeValue(type, at: index) }

    /// Reads an unsigned 32-bit integer through the generic overload.
    @inlinable
    public func decode(_ type: UInt32.Type, at index: Int) throws -> UInt32 { try self.decodeValue(type, at: index) }

    /// Reads an unsigned 64-bit integer through the generic overload.
    @inlinable
    public func decode(_ type: UInt64.Type, at index: Int) throws -> UInt64 { try self.decodeValue(type, at: index) }

    /// Reads a 32-bit real through the generic overload.
    @inlinable
    public func decode(_ type: Float.Type, at index: Int) throws -> Float { try self.decodeValue(type, at: index) }

    /// Reads data through the generic overload.
    @inlinable
    public func decode(_ type: Data.Type, at index: Int) throws -> Data { try self.decodeValue(type, at: index) }

    /// Reads a URL through the generic overload.
    @inlinable
    public func decode(_ type: URL.Type, at index: Int) throws -> URL { try self.decodeValue(type, at: index) }

    /// Reads a UUID through the generic overload.
    @inlinable
    public func decode(_ type: UUID.Type, at index: Int) throws -> UUID { try self.decodeValue(type, at: index) }

    /// Reads `type` with the generic overload, whatever overloads it has.
    @inlinable
    func decodeValue<T: Decodable>(_ type: T.Type, at index: Int) throws -> T {
        try self.decode(type, at: index)
    }
}

// The forms generated code calls: the type read is the property's, inferred (named last, so that
// the most constrained overload wins, as it does for a parameter).
extension ArchiveFieldReader where Self: ~Copyable {
    /// The first of a property's keys the value holds, or the first when it holds none (so that
    /// a missing value is reported under the current key).
    /// - Parameter indices: The indices of the current key, then of the former ones.
    /// - Returns: One of `indices`.
    @inlinable
    public func firstPresent(_ indices: Int...) -> Int {
        for index in indices where self.contains(index) { return index }
        return indices.first ?? 0
    }

    /// Reads a property that is not optional, of the type it is assigned to.
    @inlinable
    public func decode<T: Decodable>(at index: Int, as type: T.Type = T.self) throws -> T {
        try self.decode(type, at: index)
    }

    /// Reads a value that reads its own object, of the type it is assigned to.
    @inlinable
    public func decode<T: ArchiveObjectDecodable>(at index: Int, as type: T.Type = T.self) throws -> T {
        try self.decode(type, at: index)
    }

    /// Reads an enum stored as its raw string, of the type it is assigned to.
    @inlinable
    public func decode<T: ArchiveRawValueCodable>(at index: Int, as type: T.Type = T.self) throws -> T {
        try self.decode(type, at: index)
    }

    /// Reads a string.
    @inlinable
    public func decode(at index: Int, as type: String.Type = String.self) throws -> String {
        try self.decode(type, at: index)
    }

    /// Reads an integer.
    @inlinable
    public func decode(at index: Int, as type: Int.Type = Int.self) throws -> Int {
        try self.decode(type, at: index)
    }

    /// Reads a 64-bit real.
    @inlinable
    public func decode(at index: Int, as type: Double.Type = Double.self) throws -> Double {
        try self.decode(type, at: index)
    }

    /// Reads a Boolean.
    @inlinable
    public func decode(at index: Int, as type: Bool.Type = Bool.self) throws -> Bool {
        try self.decode(type, at: index)
    }

    /// Reads a date.
    @inlinable
    public func decode(at index: Int, as type: Date.Type = Date.self) throws -> Date {
        try self.decode(type, at: index)
    }

    /// Reads an array of strings.
    @inlinable
    public func decode(at index: Int, as type: [String].Type = [String].self) throws -> [String] {
        try self.decode(type, at: index)
    }

    /// Reads an 8-bit integer.
    @inlinable
    public func decode(at index: Int, as type: Int8.Type = Int8.self) throws -> Int8 {
        try self.decode(type, at: index)
    }

    /// Reads a 16-bit integer.
    @inlinable
    public func decode(at index: Int, as type: Int16.Type = Int16.self) throws -> Int16 {
        try self.decode(type, at: index)
    }

    /// Reads a 32-bit integer.
    @inlinable
    public func decode(at index: Int, as type: Int32.Type = Int32.self) throws -> Int32 {
        try self.decode(type, at: index)
    }

    /// Reads a 64-bit integer.
    @inlinable
    public func decode(at index: Int, as type: Int64.Type = Int64.self) throws -> Int64 {
        try self.decode(type, at: index)
    }

    /// Reads an unsigned integer.
    @inlinable
    public func decode(at index: Int, as type: UInt.Type = UInt.self) throws -> UInt {
        try self.decode(type, at: index)
    }

    /// Reads an unsigned 8-bit integer.
    @inlinable
    public func decode(at index: Int, as type: UInt8.Type = UInt8.self) throws -> UInt8 {
        try self.decode(type, at: index)
    }

    /// Reads an unsigned 16-bit integer.
    @inlinable
    public func decode(at index: Int, as type: UInt16.Type = UInt16.self) throws -> UInt16 {
        try self.decode(type, at: index)
    }

    /// Reads an unsigned 32-bit integer.
    @inlinable
    public func decode(at index: Int, as type: UInt32.Type = UInt32.self) throws -> UInt32 {
        try self.decode(type, at: index)
    }

    /// Reads an unsigned 64-bit integer.
    @inlinable
    public func decode(at index: Int, as type: UInt64.Type = UInt64.self) throws -> UInt64 {
        try self.decode(type, at: index)
    }

    /// Reads a 32-bit real.
    @inlinable
    public func decode(at index: Int, as type: Float.Type = Float.self) throws -> Float {
        try self.decode(type, at: index)
    }

    /// Reads data.
    @inlinable
    public func decode(at index: Int, as type: Data.Type = Data.self) throws -> Data {
        try self.decode(type, at: index)
    }

    /// Reads a URL.
    @inlinable
    public func decode(at index: Int, as type: URL.Type = URL.self) throws -> URL {
        try self.decode(type, at: index)
    }

    /// Reads a UUID.
    @inlinable
    public func decode(at index: Int, as type: UUID.Type = UUID.self) throws -> UUID {
        try self.decode(type, at: index)
    }

    /// Reads a property that has an initial value: leaves `value` as it is when the key is absent
    /// or holds null.
    @inlinable
    public func decodeIfPresent<T: Decodable>(into value: inout T, at index: Int) throws {
        if T.self == String.self {
            if let decoded = try self.decodeIfPresent(String.self, at: index) {
                value = unsafeBitCast(decoded, to: T.self)
            }
            return
        }
        if let decoded = try self.decodeIfPresent(T.self, at: index) { value = decoded }
    }

    /// Reads a property that reads its own object and has an initial value.
    @inlinable
    public func decodeIfPresent<T: ArchiveObjectDecodable>(into value: inout T, at index: Int) throws {
        if let decoded = try self.decodeIfPresent(T.self, at: index) { value = decoded }
    }

    /// Reads a property that has an initial value and an optional type not spelled so (a
    /// `typealias`): as `decodeOptional(into:at:)`, which the compiler picks for it here.
    @inlinable
    public func decodeIfPresent<T: Decodable>(into value: inout T?, at index: Int) throws {
        try self.decodeOptional(into: &value, at: index)
    }

    /// Reads an optional property, of the type it is assigned to.
    @inlinable
    public func decodeIfPresent<T: Decodable>(at index: Int, as type: T.Type = T.self) throws -> T? {
        try self.decodeIfPresent(type, at: index)
    }

    /// Reads an optional value that reads its own object, of the type it is assigned to.
    @inlinable
    public func decodeIfPresent<T: ArchiveObjectDecodable>(at index: Int, as type: T.Type = T.self) throws -> T? {
        try self.decodeIfPresent(type, at: index)
    }

    /// Reads an optional enum stored as its raw string, of the type it is assigned to.
    @inlinable
    public func decodeIfPresent<T: ArchiveRawValueCodable>(at index: Int, as type: T.Type = T.self) throws -> T? {
        try self.decodeIfPresent(type, at: index)
    }

    /// Reads an optional string.
    @inlinable
    public func decodeIfPresent(at index: Int, as type: String.Type = String.self) throws -> String? {
        try self.decodeIfPresent(type, at: index)
    }
}
