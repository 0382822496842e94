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
public import FoundationEssentials
#else
public import Foundation
#endif

/// The object an ``ArchiveObjectEncodable`` value is being archived as: it takes each property
/// under the index of its key in the type's ``ArchiveObjectKeys``.
///
/// Values are stored as a keyed container stores them: numbers and Booleans inline, strings as
/// shared string objects, `nil` as UID 0, anything else as an object of its own. Writing an index
/// again replaces its value; an index never written leaves its key out. The writer is valid only
/// during ``ArchiveObjectEncodable/encodeArchiveObject(to:)``.
///
/// Every method that writes a value is marked `throws`, so that generated code, which does not
/// know which overload a property's type picks, can call each with `try`; those for strings,
/// numbers, Booleans and dates never throw.
public struct ArchiveObjectWriter: ~Copyable {
    /// The session, unretained: the writer lives only inside the session's call that made it.
    let unmanagedSession: Unmanaged<ArchiveEncodingSession>
    unowned(unsafe) let info: ArchiveEncodingTypeInfo
    unowned(unsafe) let frame: ArchiveObjectFrame
    /// Where this object's values start in the session's ``ArchiveEncodingSession/objectValues``.
    let start: Int
    /// Where this object's kept fields start in the session's ``ArchiveEncodingSession/objectExtras``.
    let extrasStart: Int

    /// The value of a slot not written to.
    static var unset: ArchiveEncodingTable.Value { .unset }

    init(
        session: ArchiveEncodingSession,
        info: ArchiveEncodingTypeInfo,
        frame: ArchiveObjectFrame,
        start: Int,
        extrasStart: Int
    ) {
        self.unmanagedSession = Unmanaged.passUnretained(session)
        self.info = info
        self.frame = frame
        self.start = start
        self.extrasStart = extrasStart
    }

    /// The contextual information of the encoder, as `Encoder.userInfo` has it.
    public var userInfo: [CodingUserInfoKey: Any] { self.withSession { $0.userInfo } }

    /// Runs `body` with the session, without retaining it (the writer never outlives it).
    @inline(__always)
    private func withSession<Result>(_ body: (ArchiveEncodingSession) throws -> Result) rethrows -> Result {
        try self.unmanagedSession._withUnsafeGuaranteedRef(body)
    }

    /// Stores a value at a key's index. An index outside the type's keys is a programming error.
    @inline(__always)
    private func set(_ value: ArchiveEncodingTable.Value, at index: Int) {
        let slot = self.start + index
        self.withSession { $0.objectValues[slot] = value }
    }

    // MARK: - Values

    /// Writes a string.
    /// - Parameters:
    ///   - value: The value.
    ///   - index: The index of its key in the type's ``ArchiveObjectKeys``.
    public mutating func encode(_ value: String, at index: Int) throws {
        self.set(.uid(self.withSession { $0.table.leaf(value) }.rawValue), at: index)
    }

    /// Writes an integer, inline.
    /// - Parameters:
    ///   - value: The value.
    ///   - index: The index of its key in the type's ``ArchiveObjectKeys``.
    public mutating func encode(_ value: Int, at index: Int) throws {
        self.set(.integer(Int64(value)), at: index)
    }

    /// Writes a 64-bit real, inline.
    /// - Parameters:
    ///   - value: The value.
    ///   - index: The index of its key in the type's ``ArchiveObjectKeys``.
    public mutating func encode(_ value: Double, at index: Int) throws {
        self.set(.real(value), at: index)
    }

    /// Writes a Boolean, inline.
    /// - Parameters:
    ///   - value: The value.
    ///   - index: The index of its key in the type's ``ArchiveObjectKeys``.
    public mutating func encode(_ value: Bool, at index: Int) throws {
        self.set(.bool(value), at: index)
    }

    /// Writes a date as an `NSDate` object.
    /// - Parameters:
    ///   - value: The value.
    ///   - index: The index of its key in the type's ``ArchiveObjectKeys``.
    public mutating func encode(_ value: Date, at index: Int) throws {
        self.set(.uid(self.withSession { $0.table.addDate(value) }.rawValue), at: index)
    }

    /// Writes an array of strings as an `NSArray` object.
    /// - Parameters:
    ///   - value: The value.
    ///   - index: The index of its key in the type's ``ArchiveObjectKeys``.
    public mutating func encode(_ value: [String], at index: Int) throws {
        self.set(.uid(self.withSession { $0.encodeStringArray(value) }.rawValue), at: index)
    }

    /// Writes an `Int8` inline, as a keyed container stores it, at the index of its key in the
    /// type's ``ArchiveObjectKeys``.
    public mutating func encode(_ value: Int8, at index: Int) throws {
        self.set(.integer(Int64(value)), at: index)
    }

    /// Writes an `Int16` inline, as a keyed container stores it, at the index of its key in the
    /// type's ``ArchiveObjectKeys``.
    public mutating func encode(_ value: Int16, at index: Int) throws {
        self.set(.integer(Int64(value)), at: index)
    }

    /// Writes an `Int32` inline, as a keyed container stores it, at the index of its key in the
    /// type's ``ArchiveObjectKeys``.
    public mutating func encode(_ value: Int32, at index: Int) throws {
        self.set(.integer(Int64(value)), at: index)
    }

    /// Writes an `Int64` inline, as a keyed container stores it, at the index of its key in the
    /// type's ``ArchiveObjectKeys``.
    public mutating func encode(_ value: Int64, at index: Int) throws {
        self.set(.integer(Int64(value)), at: index)
    }

    /// Writes an `UInt` inline, as a keyed container stores it, at the index of its key in the
    /// type's ``ArchiveObjectKeys``.
    public mutating func encode(_ value: UInt, at index: Int) throws {
        self.set(.integer(UInt64(value)), at: index)
    }

    /// Writes an `UInt8` inline, as a keyed container stores it, at the index of its key in the
    /// type's ``ArchiveObjectKeys``.
    public mutating func encode(_ value: UInt8, at index: Int) throws {
        self.set(.integer(UInt64(value)), at: index)
    }

    /// Writes an `UInt16` inline, as a keyed container stores it, at the index of its key in the
    /// type's ``ArchiveObjectKeys``.
    public mutating func encode(_ value: UInt16, at index: Int) throws {
        self.set(.integer(UInt64(value)), at: index)
    }

    /// Writes an `UInt32` inline, as a keyed container stores it, at the index of its key in the
    /// type's ``ArchiveObjectKeys``.
    public mutating func encode(_ value: UInt32, at index: Int) throws {
        self.set(.integer(UInt64(value)), at: index)
    }

    /// Writes an `UInt64` inline, as a keyed container stores it, at the index of its key in the
    /// type's ``ArchiveObjectKeys``.
    public mutating func encode(_ value: UInt64, at index: Int) throws {
        self.set(.integer(UInt64(value)), at: index)
    }

    /// Writes a 32-bit real, inline, at the index of its key in the type's ``ArchiveObjectKeys``.
    public mutating func encode(_ value: Float, at index: Int) throws {
        self.set(.float(value), at: index)
    }

    /// Writes data as a data object, shared with equal data, at the index of its key in the type's
    /// ``ArchiveObjectKeys``.
    public mutating func encode(_ value: Data, at index: Int) throws {
        self.set(.uid(self.withSession { $0.table.leaf(value) }.rawValue), at: index)
    }

    /// Writes a URL as an `NSURL` object, at the index of its key in the type's ``ArchiveObjectKeys``.
    public mutating func encode(_ value: URL, at index: Int) throws {
        self.set(.uid(self.withSession { $0.table.addURL(value) }.rawValue), at: index)
    }

    /// Writes a UUID as an `NSUUID` object, at the index of its key in the type's ``ArchiveObjectKeys``.
    public mutating func encode(_ value: UUID, at index: Int) throws {
        self.set(.uid(self.withSession { $0.table.addUUID(value) }.rawValue), at: index)
    }

    /// Writes an enum as its raw string, as the standard library's `encode(to:)` of a
    /// `RawRepresentable` type writes it; only for types that use that conformance.
    /// - Parameters:
    ///   - value: The value.
    ///   - index: The index of its key in the type's ``ArchiveObjectKeys``.
    public mutating func encodeRawValue<T: RawRepresentable & Encodable>(
        _ value: T,
        at index: Int
    ) throws where T.RawValue == String {
        try self.encode(value.rawValue, at: index)
    }

    /// Writes any encodable value, as a keyed container's `encode(_:forKey:)` does: a type that
    /// writes its own object, a collection, or a value through its `encode(to:)`.
    /// - Parameters:
    ///   - value: The value.
    ///   - index: The index of its key in the type's ``ArchiveObjectKeys``.
    /// - Throws: `EncodingError.invalidValue` with the coding path, or what the value's encoding throws.
    public mutating func encode<T: Encodable>(_ value: T, at index: Int) throws {
        let stored = try self.withSession { session -> ArchiveEncodingTable.Value in
            if let leaf = session.leaf(of: value) {
                switch leaf {
                case .string(let string): return .uid(session.table.leaf(string).rawValue)
                case .data(let data): return .uid(session.table.leaf(data).rawValue)
                case .scalar(let scalar): return scalar
                }
            }
            if let uid = session.encodeScalarArray(of: value) { return .uid(uid.rawValue) }
            return .uid(try self.encodeComposite(value, at: index, in: session).rawValue)
        }
        self.set(stored, at: index)
    }

    /// Writes a value that writes its own object, as the `Encodable` overload of `encode(_:at:)`
    /// does, without first asking whether its type is a leaf, a Foundation type or a collection:
    /// the overload the compiler picks for an `@Archivable` struct or final class.
    /// - Parameters:
    ///   - value: The value.
    ///   - index: The index of its key in the type's ``ArchiveObjectKeys``.
    /// - Throws: `EncodingError.invalidValue` with the coding path, or what the value's encoding throws.
    public mutating func encode<T: ArchiveObjectEncodable>(_ value: T, at index: Int) throws {
        let uid = try self.withSession { session -> UID in
            let valueInfo = session.typeInfo(of: value)
            // Only when the value's own type writes it (not a subclass that does not, say).
            guard let direct = valueInfo.objectEncoder, ObjectIdentifier(direct) == ObjectIdentifier(T.self) else {
                return try self.encodeComposite(value, at: index, in: session)
            }
            let key = ArchiveFieldKey(self.info.objectKeyNames[index])
            let parent = ArchiveEncodingParent(frame: self.frame)
            return try T.encodeBorrowing(value, in: session, info: valueInfo, parent: parent, key: key)
        }
        self.set(.uid(uid.rawValue), at: index)
    }

    /// Writes an enum stored as its raw string, as the `Encodable` overload of `encode(_:at:)`
    /// does, without first asking whether its type is a leaf, a Foundation type or a collection:
    /// the overload the compiler picks for an `@Archivable` enum with `String` raw values.
    /// - Parameters:
    ///   - value: The value.
    ///   - index: The index of its key in the type's ``ArchiveObjectKeys``.
    /// - Throws: `EncodingError.invalidValue` with the coding path, or what the value's encoding throws.
    public mutating func encode<T: ArchiveRawValueCodable>(_ value: T, at index: Int) throws {
        let stored = try self.withSession { session -> ArchiveEncodingTable.Value in
            // Its raw string when its type is stored that way (not a class instance, say).
            if session.typeInfo(of: value).rawValueEncoder != nil {
                return .uid(session.table.leaf(value.rawValue).rawValue)
            }
            return .uid(try self.encodeComposite(value, at: index, in: session).rawValue)
        }
        self.set(stored, at: index)
    }

    /// Writes a value that is not a leaf through the session's general path, as a keyed container
    /// would, under the coding path of the key at `index`.
    private func encodeComposite<T: Encodable>(
        _ value: T,
        at index: Int,
        in session: ArchiveEncodingSession
    ) throws -> UID {
        let key = ArchiveFieldKey(self.info.objectKeyNames[index])
        return try session.encodeComposite(value, parent: ArchiveEncodingParent(frame: self.frame), key: key)
    }

    // MARK: - Optionals

    /// Writes a string, or UID 0 for `nil`, as `encodeIfPresent(_:forKey:)` does.
    /// - Parameters:
    ///   - value: The value.
    ///   - index: The index of its key in the type's ``ArchiveObjectKeys``.
    public mutating func encodeIfPresent(_ value: String?, at index: Int) throws {
        if let value { try self.encode(value, at: index) } else { self.set(.uid(0), at: index) }
    }

    /// Writes any encodable value, or UID 0 for `nil`, as `encodeIfPresent(_:forKey:)` does.
    ///
    /// Inlinable, so that the optional is unwrapped where its type is known: unspecialized code
    /// would look up the metadata of `Optional<T>` on every call.
    /// - Parameters:
    ///   - value: The value.
    ///   - index: The index of its key in the type's ``ArchiveObjectKeys``.
    /// - Throws: What `encode(_:at:)` throws for the value.
    @inlinable
    public mutating func encodeIfPresent<T: Encodable>(_ value: T?, at index: Int) throws {
        if let value { try self.encodeInOwnForm(value, at: index) } else { self.encodeNil(at: index) }
    }

    /// Writes `value` with the writer's own overload for its type when it has one (the standard
    /// scalars, arrays of strings), which a call from generic code would otherwise miss for the
    /// generic one.
    ///
    /// Inlinable, so that the choice is made where `T` is known, at no cost.
    @inlinable
    mutating func encodeInOwnForm<T: Encodable>(_ value: T, at index: Int) throws {
        if T.self == String.self { return try self.encode(unsafeBitCast(value, to: String.self), at: index) }
        if T.self == Int.self { return try self.encode(unsafeBitCast(value, to: Int.self), at: index) }
        if T.self == Double.self { return try self.encode(unsafeBitCast(value, to: Double.self), at: index) }
        if T.self == Bool.self { return try self.encode(unsafeBitCast(value, to: Bool.self), at: index) }
        if T.self == Date.self { return try self.encode(unsafeBitCast(value, to: Date.self), at: index) }
        if T.self == [String].self { return try self.encode(unsafeBitCast(value, to: [String].self), at: index) }
        if T.self == Int8.self { return try self.encode(unsafeBitCast(value, to: Int8.self), at: index) }
        if T.self == Int16.self { return try self.encode(unsafeBitCast(value, to: Int16.self), at: index) }
        if T.self == Int32.self { return try self.encode(unsafeBitCast(value, to: Int32.self), at: index) }
        if T.self == Int64.self { return try self.encode(unsafeBitCast(value, to: Int64.self), at: index) }
        if T.self == UInt.self { return try self.encode(unsafeBitCast(value, to: UInt.self), at: index) }
        if T.self == UInt8.self { return try self.encode(unsafeBitCast(value, to: UInt8.self), at: index) }
        if T.self == UInt16.self { return try self.encode(unsafeBitCast(value, to: UInt16.self), at: index) }
        if T.self == UInt32.self { return try self.encode(unsafeBitCast(value, to: UInt32.self), at: index) }
        if T.self == UInt64.self { return try self.encode(unsafeBitCast(value, to: UInt64.self), at: index) }
        if T.self == Float.self { return try self.encode(unsafeBitCast(value, to: Float.self), at: index) }
        if T.self == Data.self { return try self.encode(unsafeBitCast(value, to: Data.self), at: index) }
        if T.self == URL.self { return try self.encode(unsafeBitCast(value, to: URL.self), at: index) }
        if T.self == UUID.self { return try self.encode(unsafeBitCast(value, to: UUID.self), at: index) }
        try self.encode(value, at: index)
    }

    /// Writes an optional spelled so that the macro cannot see it is optional (through a
    /// `typealias`, say): as `encodeIfPresent(_:at:)` writes it, which the compiler picks
    /// here for any optional, so that both paths store its value inline.
    /// - Parameters:
    ///   - value: The value.
    ///   - index: The index of its key in the type's ``ArchiveObjectKeys``.
    /// - Throws: What `encode(_:at:)` throws for the value.
    @inlinable
    public mutating func encode<T: Encodable>(_ value: T?, at index: Int) throws {
        try self.encodeIfPresent(value, at: index)
    }

    /// Writes a value that writes its own object, or UID 0 for `nil`, as
    /// `encodeIfPresent(_:forKey:)` does.
    /// - Parameters:
    ///   - value: The value.
    ///   - index: The index of its key in the type's ``ArchiveObjectKeys``.
    /// - Throws: What `encode(_:at:)` throws for the value.
    @inlinable
    public mutating func encodeIfPresent<T: ArchiveObjectEncodable>(_ value: T?, at index: Int) throws {
        if let value { try self.encode(value, at: index) } else { self.encodeNil(at: index) }
    }

    /// Writes an enum stored as its raw string, or UID 0 for `nil`, as
    /// `encodeIfPresent(_:forKey:)` does.
    /// - Parameters:
    ///   - value: The value.
    ///   - index: The index of its key in the type's ``ArchiveObjectKeys``.
    /// - Throws: What `encode(_:at:)` throws for the value.
    @inlinable
    public mutating func encodeIfPresent<T: ArchiveRawValueCodable>(_ value: T?, at index: Int) throws {
        if let value { try self.encode(value, at: index) } else { self.encodeNil(at: index) }
    }

    /// Writes an optional property that has an initial value: as `encodeIfPresent(_:at:)` writes
    /// it, since UID 0 is the archive's explicit null either way.
    /// - Parameters:
    ///   - value: The value.
    ///   - index: The index of its key in the type's ``ArchiveObjectKeys``.
    /// - Throws: What `encode(_:at:)` throws for the value.
    @inlinable
    public mutating func encodeDefaulted<T: Encodable>(_ value: T?, at index: Int) throws {
        try self.encodeIfPresent(value, at: index)
    }

    /// Writes `nil`: UID 0, as `encodeNil(forKey:)` does.
    /// - Parameter index: The index of its key in the type's ``ArchiveObjectKeys``.
    public mutating func encodeNil(at index: Int) {
        self.set(.uid(0), at: index)
    }

    // MARK: - Evolution

    /// Writes the type's version, as ``ArchiveEvolution/encodeVersion(of:to:forKey:)`` does: only
    /// when it differs from its `unversionedArchiveVersion`.
    /// - Parameters:
    ///   - type: The type being written.
    ///   - index: The index of its version key in the type's ``ArchiveObjectKeys``.
    public mutating func encodeVersion<Value: ArchiveVersioned>(of type: Value.Type, at index: Int) throws {
        guard Value.archiveVersion != Value.unversionedArchiveVersion else { return }
        try self.encode(Value.archiveVersion, at: index)
    }

    /// Writes kept fields after the object's own, as ``ArchiveUnknownFields/encode(to:)`` does: a
    /// field under a key already written replaces its value; a key written twice keeps its first
    /// place and its last value.
    /// - Parameter fields: The fields.
    public mutating func encodeUnknownFields(_ fields: ArchiveUnknownFields) throws {
        guard !fields.isEmpty else { return }
        let (info, start, extrasStart) = (self.info, self.start, self.extrasStart)
        self.withSession { $0.setObjectFields(fields.fields, info: info, start: start, extrasStart: extrasStart) }
    }
}

extension ArchiveObjectWriter: ArchiveFieldWriter {}

@available(*, unavailable)
extension ArchiveObjectWriter: Sendable {}
