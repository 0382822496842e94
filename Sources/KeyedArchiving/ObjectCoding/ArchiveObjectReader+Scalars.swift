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

// The reader's overloads for the standard scalars beyond `String`, `Int`, `Double`, `Bool` and
// `Date`: every other integer type and `Float`, read inline, and `Data`, `URL` and `UUID`, read
// from their objects without asking the type's facts. Each reads what the generic `decode(_:at:)`
// reads, with the same errors.

extension ArchiveObjectReader {
    /// Reads an `Int8` stored inline, or through the general path (an `NSNumber`), at the
    /// index of its key in the type's ``ArchiveObjectKeys``.
    /// - Throws: `DecodingError`, as `decode(_:forKey:)` does.
    public func decode(_ type: Int8.Type, at index: Int) throws -> Int8 {
        try self.decodeScalar(type, at: index, reference: self.reference(at: index))
    }

    /// Reads an `Int16` stored inline, or through the general path (an `NSNumber`), at the
    /// index of its key in the type's ``ArchiveObjectKeys``.
    /// - Throws: `DecodingError`, as `decode(_:forKey:)` does.
    public func decode(_ type: Int16.Type, at index: Int) throws -> Int16 {
        try self.decodeScalar(type, at: index, reference: self.reference(at: index))
    }

    /// Reads an `Int32` stored inline, or through the general path (an `NSNumber`), at the
    /// index of its key in the type's ``ArchiveObjectKeys``.
    /// - Throws: `DecodingError`, as `decode(_:forKey:)` does.
    public func decode(_ type: Int32.Type, at index: Int) throws -> Int32 {
        try self.decodeScalar(type, at: index, reference: self.reference(at: index))
    }

    /// Reads an `Int64` stored inline, or through the general path (an `NSNumber`), at the
    /// index of its key in the type's ``ArchiveObjectKeys``.
    /// - Throws: `DecodingError`, as `decode(_:forKey:)` does.
    public func decode(_ type: Int64.Type, at index: Int) throws -> Int64 {
        try self.decodeScalar(type, at: index, reference: self.reference(at: index))
    }

    /// Reads an `UInt` stored inline, or through the general path (an `NSNumber`), at the
    /// index of its key in the type's ``ArchiveObjectKeys``.
    /// - Throws: `DecodingError`, as `decode(_:forKey:)` does.
    public func decode(_ type: UInt.Type, at index: Int) throws -> UInt {
        try self.decodeScalar(type, at: index, reference: self.reference(at: index))
    }

    /// Reads an `UInt8` stored inline, or through the general path (an `NSNumber`), at the
    /// index of its key in the type's ``ArchiveObjectKeys``.
    /// - Throws: `DecodingError`, as `decode(_:forKey:)` does.
    public func decode(_ type: UInt8.Type, at index: Int) throws -> UInt8 {
        try self.decodeScalar(type, at: index, reference: self.reference(at: index))
    }

    /// Reads an `UInt16` stored inline, or through the general path (an `NSNumber`), at the
    /// index of its key in the type's ``ArchiveObjectKeys``.
    /// - Throws: `DecodingError`, as `decode(_:forKey:)` does.
    public func decode(_ type: UInt16.Type, at index: Int) throws -> UInt16 {
        try self.decodeScalar(type, at: index, reference: self.reference(at: index))
    }

    /// Reads an `UInt32` stored inline, or through the general path (an `NSNumber`), at the
    /// index of its key in the type's ``ArchiveObjectKeys``.
    /// - Throws: `DecodingError`, as `decode(_:forKey:)` does.
    public func decode(_ type: UInt32.Type, at index: Int) throws -> UInt32 {
        try self.decodeScalar(type, at: index, reference: self.reference(at: index))
    }

    /// Reads an `UInt64` stored inline, or through the general path (an `NSNumber`), at the
    /// index of its key in the type's ``ArchiveObjectKeys``.
    /// - Throws: `DecodingError`, as `decode(_:forKey:)` does.
    public func decode(_ type: UInt64.Type, at index: Int) throws -> UInt64 {
        try self.decodeScalar(type, at: index, reference: self.reference(at: index))
    }

    /// Reads a `Float` stored inline, or through the general path (an `NSNumber`), at the
    /// index of its key in the type's ``ArchiveObjectKeys``.
    /// - Throws: `DecodingError`, as `decode(_:forKey:)` does.
    public func decode(_ type: Float.Type, at index: Int) throws -> Float {
        try self.decodeScalar(type, at: index, reference: self.reference(at: index))
    }

    /// Reads data, or an `NSData` object, at the index of its key in the type's ``ArchiveObjectKeys``.
    /// - Throws: `DecodingError`, as `decode(_:forKey:)` does.
    public func decode(_ type: Data.Type, at index: Int) throws -> Data {
        try self.decodeArchiveForm(type, at: index)
    }

    /// Reads an `NSURL` object, or a string, at the index of its key in the type's ``ArchiveObjectKeys``.
    /// - Throws: `DecodingError`, as `decode(_:forKey:)` does.
    public func decode(_ type: URL.Type, at index: Int) throws -> URL {
        try self.decodeArchiveForm(type, at: index)
    }

    /// Reads an `NSUUID` object, or a string, at the index of its key in the type's ``ArchiveObjectKeys``.
    /// - Throws: `DecodingError`, as `decode(_:forKey:)` does.
    public func decode(_ type: UUID.Type, at index: Int) throws -> UUID {
        try self.decodeArchiveForm(type, at: index)
    }

    /// A number stored inline, read as `T` when it is exactly one, else through the general path.
    @inline(__always)
    func decodeScalar<T: Decodable>(_ type: T.Type, at index: Int, reference: Int) throws -> T {
        if reference >= 0, let object = self.withCoder({ $0.quickInlineScalar(at: reference) }) {
            return try _ArchiveDecoder.exactScalar(type, object) {
                try self.decodeValue(type, at: index, reference: reference)
            }
        }
        return try self.decodeValue(type, at: index, reference: reference)
    }

    /// A type with an archive form of its own, read from the key's object without asking the
    /// type's facts first.
    @inline(__always)
    func decodeArchiveForm<T: Decodable>(_ type: T.Type, at index: Int) throws -> T {
        let (object, uid, position) = try self.resolved(at: index, reference: self.reference(at: index))
        return try self.withCoder {
            try $0.decodeArchiveForm(type, object: object, uid: uid, at: position, reentrant: false)
        }
    }
}
