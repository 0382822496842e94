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

// The reader's overloads for values that have direct conformances themselves: nested
// `@Archivable` structs and final classes, and `@Archivable` enums with `String` raw values. The
// compiler picks them in generated code, where the property's type is known; they read the value
// as the `Decodable` overloads do, with the same checks and errors, without first asking what
// kind of type it is and without casting the result.

extension ArchiveObjectReader {
    /// Reads a value that reads its own object, as the `Decodable` overload of `decode(_:at:)`
    /// does: the overload the compiler picks for an `@Archivable` struct or final class.
    /// - Parameters:
    ///   - type: The type to read.
    ///   - index: The index of its key in the type's ``ArchiveObjectKeys``.
    /// - Returns: The value.
    /// - Throws: `DecodingError`, as `decode(_:forKey:)` does.
    public func decode<T: ArchiveObjectDecodable>(_ type: T.Type, at index: Int) throws -> T {
        let (object, uid, position) = try self.resolved(at: index, reference: self.reference(at: index))
        return try self.withCoder { try $0.decodeObject(type, object: object, uid: uid, at: position) }
    }

    /// Reads a value that reads its own object, or `nil` if the key is absent or holds `nil`, as
    /// `decodeIfPresent(_:forKey:)` does.
    /// - Parameters:
    ///   - type: The type to read.
    ///   - index: The index of its key in the type's ``ArchiveObjectKeys``.
    /// - Returns: The value, or `nil`.
    /// - Throws: `DecodingError`, as `decodeIfPresent(_:forKey:)` does.
    @inlinable
    public func decodeIfPresent<T: ArchiveObjectDecodable>(_ type: T.Type, at index: Int) throws -> T? {
        if try self.decodeNil(at: index) { return nil }
        return try self.decode(type, at: index)
    }

    /// Reads an optional property that reads its own object and whose initial value is not `nil`:
    /// leaves `value` as it is when the key is absent, sets it to `nil` when the key holds `nil`,
    /// as ``ArchiveEvolution/decodeOptional(into:from:forKey:)`` does.
    /// - Parameters:
    ///   - value: The property.
    ///   - index: The index of its key in the type's ``ArchiveObjectKeys``.
    /// - Throws: `DecodingError`, as `decode(_:forKey:)` does.
    @inlinable
    public func decodeOptional<T: ArchiveObjectDecodable>(into value: inout T?, at index: Int) throws {
        guard self.contains(index) else { return }
        value = try self.decodeNil(at: index) ? nil : self.decode(T.self, at: index)
    }

    /// Reads an enum stored as its raw string, as the `Decodable` overload of `decode(_:at:)` does:
    /// the overload the compiler picks for an `@Archivable` enum with `String` raw values.
    /// - Parameters:
    ///   - type: The type to read.
    ///   - index: The index of its key in the type's ``ArchiveObjectKeys``.
    /// - Returns: The value.
    /// - Throws: `DecodingError`, as `decode(_:forKey:)` does.
    public func decode<T: ArchiveRawValueCodable>(_ type: T.Type, at index: Int) throws -> T {
        let reference = self.reference(at: index)
        if let (_, raw, object, uid) = self.quickRawValue(of: type, reference: reference) {
            return try T(archiveRawValue: raw, decoder: self.valueDecoder(at: index, object: object, uid: uid))
        }
        return try self.decodeValue(type, at: index, reference: reference)
    }

    /// Reads an enum stored as its raw string, or `nil` if the key is absent or holds `nil`, as
    /// `decodeIfPresent(_:forKey:)` does.
    /// - Parameters:
    ///   - type: The type to read.
    ///   - index: The index of its key in the type's ``ArchiveObjectKeys``.
    /// - Returns: The value, or `nil`.
    /// - Throws: `DecodingError`, as `decodeIfPresent(_:forKey:)` does.
    @inlinable
    public func decodeIfPresent<T: ArchiveRawValueCodable>(_ type: T.Type, at index: Int) throws -> T? {
        if try self.decodeNil(at: index) { return nil }
        return try self.decode(type, at: index)
    }
}

extension _ArchiveDecoder {
    /// Decodes `D`, a type that reads its own object, from a resolved object: through
    /// ``decodeDirect(_:typeInfo:object:uid:at:)`` when its conformance serves (a value type, in a
    /// session that uses conformances, and an object rather than `nil` or an inline value), else
    /// through the general path.
    func decodeObject<D: ArchiveObjectDecodable>(
        _ type: D.Type,
        object: InPlaceValue,
        uid: UID?,
        at position: ArchiveDecodingPosition
    ) throws -> D {
        try self.decodeObject(type, typeInfo: self.session.typeInfo(type), object: object, uid: uid, at: position)
    }

    /// ``decodeObject(_:object:uid:at:)`` with `D`'s type info, looked up by the caller.
    @inline(__always)
    func decodeObject<D: ArchiveObjectDecodable>(
        _ type: D.Type,
        typeInfo: DecodedTypeInfo,
        object: InPlaceValue,
        uid: UID?,
        at position: ArchiveDecodingPosition
    ) throws -> D {
        guard let uid, uid.rawValue != 0, typeInfo.readsObjectDirectly else {
            return try self.decode(type, object: object, uid: uid, at: position, reentrant: false)
        }
        return try self.decodeDirect(type, typeInfo: typeInfo, object: object, uid: uid, at: position)
    }
}

extension ArchiveObjectDecodable {
    /// Decodes the decoder's current array or set object as `A`, an array of this type, each
    /// element through ``_ArchiveDecoder/decodeObject(_:typeInfo:object:uid:at:)``: the type is
    /// looked up once for the array, not for each element, and no element is cast.
    /// - Parameter typeInfo: This type's, with ``DecodedTypeInfo/readsObjectDirectly``.
    static func decodeArchiveArray<A>(
        as type: A.Type,
        from decoder: _ArchiveDecoder,
        typeInfo: DecodedTypeInfo
    ) throws -> A {
        let elements = try decoder.currentElements()
        let parent = decoder.codingPathNode
        let owner = decoder.uid
        // Each element is moved into place; on a throw, the array deinitializes those made.
        let array = try [Self](unsafeUninitializedCapacity: elements.count) { buffer, initializedCount in
            for index in 0..<elements.count {
                let position = ArchiveDecodingPosition(
                    parent: parent,
                    key: ArchiveDecodingIndexKey(index),
                    owner: owner
                )
                let (object, uid) = try decoder.resolve(decoder.storedElement(at: index, of: elements), at: position)
                buffer.initializeElement(
                    at: index,
                    to: try decoder.decodeObject(Self.self, typeInfo: typeInfo, object: object, uid: uid, at: position)
                )
                initializedCount = index &+ 1
            }
        }
        // The caller found this conformance as its element type's, so `A` is `[Self]`; the cast
        // guards a programmer error only, and no input reaches it.
        guard A.self == [Self].self else { return array as! A }
        return unsafeBitCast(array, to: A.self)
    }
}
