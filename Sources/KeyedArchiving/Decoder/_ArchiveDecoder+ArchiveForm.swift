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

// The readers of the types with an archive form of their own, apart from the generic entry point
// `decode(_:object:uid:at:reentrant:)` that every nested value recurses through.
extension _ArchiveDecoder {
    /// Whether `T` is one of the types with an archive form of their own, which
    /// ``decodeArchiveForm(_:object:uid:at:reentrant:)`` reads; ``DecodedTypeInfo`` keeps the
    /// answer for each type.
    @inline(__always)
    static func hasArchiveForm<T>(_ type: T.Type) -> Bool {
        T.self == String.self || T.self == Int.self || T.self == Double.self || T.self == Bool.self
            || T.self == Date.self || T.self == Data.self || T.self == Float.self || T.self == Int64.self
            || T.self == UInt64.self || T.self == Int32.self || T.self == UInt32.self || T.self == Int16.self
            || T.self == UInt16.self || T.self == Int8.self || T.self == UInt8.self || T.self == UInt.self
            || T.self == UUID.self || T.self == URL.self
    }

    /// Reads a type with an archive form of its own. Apart from ``decode(_:object:uid:at:reentrant:)``,
    /// which every nested value goes through: the readers inlined here take stack space that the
    /// recursion of nested values would otherwise pay at every level.
    @inline(never)
    func decodeArchiveForm<T: Decodable>(
        _ type: T.Type,
        object: InPlaceValue,
        uid: UID?,
        at position: ArchiveDecodingPosition,
        reentrant: Bool
    ) throws -> T {
        // UID 0 is `$null`, a string: keep the types that read strings from taking it for one.
        if let uid, uid.rawValue == 0, T.self == String.self || T.self == URL.self || T.self == UUID.self {
            throw self.mismatch(type, object: object, uid: uid, at: position)
        }
        // After each check, the value is a T, and `exactly` hands it over without the dynamic cast
        // `as!` costs in generic code.
        if T.self == String.self {
            return try Self.exactly(self.unboxString(object, uid: uid, at: position), as: T.self)
        }
        if T.self == Int.self {
            return try Self.exactly(self.unboxInteger(Int.self, object, uid: uid, at: position), as: T.self)
        }
        if T.self == Double.self {
            return try Self.exactly(self.unboxDouble(object, uid: uid, at: position), as: T.self)
        }
        if T.self == Bool.self { return try Self.exactly(self.unboxBool(object, uid: uid, at: position), as: T.self) }
        if T.self == Date.self { return try Self.exactly(self.unboxDate(object, uid: uid, at: position), as: T.self) }
        if T.self == Data.self { return try Self.exactly(self.unboxData(object, uid: uid, at: position), as: T.self) }
        if T.self == Float.self { return try Self.exactly(self.unboxFloat(object, uid: uid, at: position), as: T.self) }
        if T.self == Int64.self {
            return try Self.exactly(self.unboxInteger(Int64.self, object, uid: uid, at: position), as: T.self)
        }
        if T.self == UInt64.self {
            return try Self.exactly(self.unboxInteger(UInt64.self, object, uid: uid, at: position), as: T.self)
        }
        if T.self == Int32.self {
            return try Self.exactly(self.unboxInteger(Int32.self, object, uid: uid, at: position), as: T.self)
        }
        if T.self == UInt32.self {
            return try Self.exactly(self.unboxInteger(UInt32.self, object, uid: uid, at: position), as: T.self)
        }
        if T.self == Int16.self {
            return try Self.exactly(self.unboxInteger(Int16.self, object, uid: uid, at: position), as: T.self)
        }
        if T.self == UInt16.self {
            return try Self.exactly(self.unboxInteger(UInt16.self, object, uid: uid, at: position), as: T.self)
        }
        if T.self == Int8.self {
            return try Self.exactly(self.unboxInteger(Int8.self, object, uid: uid, at: position), as: T.self)
        }
        if T.self == UInt8.self {
            return try Self.exactly(self.unboxInteger(UInt8.self, object, uid: uid, at: position), as: T.self)
        }
        if T.self == UInt.self {
            return try Self.exactly(self.unboxInteger(UInt.self, object, uid: uid, at: position), as: T.self)
        }
        if T.self == UUID.self { return try Self.exactly(self.unboxUUID(object, uid: uid, at: position), as: T.self) }
        if T.self == URL.self { return try Self.exactly(self.unboxURL(object, uid: uid, at: position), as: T.self) }
        // Not reached while `hasArchiveForm` lists the types above; if the lists ever differ, the
        // type is read as the entry point would read it.
        return try self.decodeComposite(
            type,
            typeInfo: self.session.typeInfo(type),
            object: object,
            uid: uid,
            at: position,
            reentrant: reentrant
        )
    }
}
