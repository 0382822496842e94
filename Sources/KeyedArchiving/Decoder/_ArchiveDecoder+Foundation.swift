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

// Values with a Foundation archive form: String, Data, Date, UUID and URL, each read from the plain
// property list value and from the object Foundation writes for it.

extension _ArchiveDecoder {
    /// `String`: a string, or an `NSString` / `NSMutableString` object.
    @inline(__always)
    func unboxString(
        _ object: InPlaceValue,
        uid: UID?,
        at position: ArchiveDecodingPosition
    ) throws -> String {
        if case .string(let region) = object { return try self.string(region, object: object, uid: uid, at: position) }
        return try self.unboxStringObject(object, uid: uid, at: position)
    }

    /// The characters of a string, as a `DecodingError` when they are not valid.
    @inline(__always)
    func string(
        _ region: InPlaceRegion,
        object: InPlaceValue,
        uid: UID?,
        at position: ArchiveDecodingPosition
    ) throws -> String {
        do {
            return try self.session.string(region)
        } catch {
            throw self.corrupted(error, object: object, uid: uid, at: position)
        }
    }

    private func unboxStringObject(
        _ object: InPlaceValue,
        uid: UID?,
        at position: ArchiveDecodingPosition
    ) throws -> String {
        guard case .dictionary(let dictionary) = object,
            try self.classKind(of: dictionary, object: object, uid: uid, at: position) == .string
        else {
            throw self.mismatch(String.self, object: object, uid: uid, at: position)
        }
        if let string = try self.field(ArchiveFormatKey.nsString, of: dictionary, uid: uid, at: position) {
            if case .string(let region) = string {
                return try self.string(region, object: object, uid: uid, at: position)
            }
        } else if let bytes = try self.field(ArchiveFormatKey.nsBytes, of: dictionary, uid: uid, at: position) {
            if case .data(let region) = bytes {
                let data = self.session.plist.data(region)
                let value = String(decoding: data, as: UTF8.self)
                if value.utf8.elementsEqual(data) { return value }
            }
        }
        throw self.unexpected("an NSString without a string in NS.string or UTF-8 in NS.bytes", object, uid, position)
    }

    /// `Data`: data, or an `NSData` / `NSMutableData` object.
    @inline(__always)
    func unboxData(
        _ object: InPlaceValue,
        uid: UID?,
        at position: ArchiveDecodingPosition
    ) throws -> Data {
        if case .data(let region) = object { return self.session.plist.data(region) }
        guard case .dictionary(let dictionary) = object,
            try self.classKind(of: dictionary, object: object, uid: uid, at: position) == .data
        else {
            throw self.mismatch(Data.self, object: object, uid: uid, at: position)
        }
        guard case .data(let region)? = try self.field(ArchiveFormatKey.nsData, of: dictionary, uid: uid, at: position)
        else {
            throw self.unexpected("an NSData without data in NS.data", object, uid, position)
        }
        return self.session.plist.data(region)
    }

    /// `Date`: an `NSDate` object (`NS.time`, seconds since 2001), or a date.
    @inline(__always)
    func unboxDate(
        _ object: InPlaceValue,
        uid: UID?,
        at position: ArchiveDecodingPosition
    ) throws -> Date {
        if case .date(let value) = object { return Date(timeIntervalSinceReferenceDate: value) }
        guard case .dictionary(let dictionary) = object,
            try self.classKind(of: dictionary, object: object, uid: uid, at: position) == .date
        else {
            throw self.mismatch(Date.self, object: object, uid: uid, at: position)
        }
        let seconds: Double?
        switch try self.field(ArchiveFormatKey.nsTime, of: dictionary, uid: uid, at: position) {
        case .real(let value)?: seconds = value
        case .float(let value)?: seconds = Double(value)
        case .integer(let value)?: seconds = value.int64Value.flatMap(Double.init(exactly:))
        default: seconds = nil
        }
        guard let seconds else {
            throw self.unexpected("an NSDate without a number in NS.time", object, uid, position)
        }
        return Date(timeIntervalSinceReferenceDate: seconds)
    }

    /// `UUID`: an `NSUUID` object (`NS.uuidbytes`, 16 bytes), or a string holding a UUID.
    func unboxUUID(
        _ object: InPlaceValue,
        uid: UID?,
        at position: ArchiveDecodingPosition
    ) throws -> UUID {
        if case .dictionary(let dictionary) = object,
            try self.classKind(of: dictionary, object: object, uid: uid, at: position) == .uuid
        {
            guard
                case .data(let region)? = try self.field(
                    ArchiveFormatKey.nsUUIDBytes,
                    of: dictionary,
                    uid: uid,
                    at: position
                ),
                let uuid = UUID(archivedBytes: UnsafeRawBufferPointer(self.session.plist.reader.dataBytes(region)))
            else {
                throw self.unexpected("an NSUUID without 16 bytes in NS.uuidbytes", object, uid, position)
            }
            return uuid
        }
        let string: String
        do {
            string = try self.unboxString(object, uid: uid, at: position)
        } catch {
            throw self.mismatch(UUID.self, object: object, uid: uid, at: position)
        }
        guard let value = UUID(uuidString: string) else {
            throw self.unexpected("the string \"\(string)\" is not a UUID", object, uid, position)
        }
        return value
    }

    /// `URL`: an `NSURL` object (`NS.relative` against `NS.base`), or a string.
    func unboxURL(
        _ object: InPlaceValue,
        uid: UID?,
        at position: ArchiveDecodingPosition
    ) throws -> URL {
        if case .dictionary(let dictionary) = object,
            try self.classKind(of: dictionary, object: object, uid: uid, at: position) == .url
        {
            return try self.unboxURLObject(dictionary, object: object, uid: uid, at: position, depth: 0)
        }
        let string: String
        do {
            string = try self.unboxString(object, uid: uid, at: position)
        } catch {
            throw self.mismatch(URL.self, object: object, uid: uid, at: position)
        }
        guard let value = URL(string: string) else {
            throw self.unexpected("the string \"\(string)\" is not a URL", object, uid, position)
        }
        return value
    }

    private func unboxURLObject(
        _ dictionary: InPlaceRegion,
        object: InPlaceValue,
        uid: UID?,
        at position: ArchiveDecodingPosition,
        depth: Int
    ) throws -> URL {
        guard depth <= self.session.maximumDepth, self.session.stack.hasRoom() else {
            throw self.depthExceeded(depth, object: object, uid: uid, at: position)
        }
        guard
            let relativeStored = try self.storedField(
                ArchiveFormatKey.nsRelative,
                of: dictionary,
                uid: uid,
                at: position
            )
        else {
            throw self.unexpected("an NSURL without NS.relative", object, uid, position)
        }
        let (relativeObject, relativeUID) = try self.resolve(relativeStored, at: position)
        let relative = try self.unboxString(relativeObject, uid: relativeUID, at: position)

        var base: URL?
        if case .uid(let baseUID)? = try self.storedField(
            ArchiveFormatKey.nsBase,
            of: dictionary,
            uid: uid,
            at: position
        ),
            baseUID.rawValue != 0
        {
            let baseObject = try self.object(at: baseUID, at: position)
            guard case .dictionary(let baseDictionary) = baseObject,
                try self.classKind(of: baseDictionary, object: baseObject, uid: baseUID, at: position) == .url
            else {
                throw self.unexpected("NS.base of an NSURL is not an NSURL", object, uid, position)
            }
            if self.session.isInProgress(baseUID) || baseUID == uid {
                let error = KeyedArchiveError(.cyclicReference, uid: baseUID, reason: "an NSURL is its own base")
                throw self.corrupted(error, object: baseObject, uid: baseUID, at: position)
            }
            self.session.begin(baseUID)
            defer { self.session.end(baseUID) }
            base = try self.unboxURLObject(
                baseDictionary,
                object: baseObject,
                uid: baseUID,
                at: position,
                depth: depth + 1
            )
        }
        guard let value = URL(string: relative, relativeTo: base) else {
            throw self.unexpected("the string \"\(relative)\" is not a URL", object, uid, position)
        }
        return value
    }

    /// The stored value of a field of an object dictionary (a UID, or a value stored inline).
    /// - Throws: `DecodingError.dataCorrupted` if the value is not a valid object.
    func storedField(
        _ name: StaticString,
        of dictionary: InPlaceRegion,
        uid: UID?,
        at position: ArchiveDecodingPosition
    ) throws -> InPlaceValue? {
        do {
            return try self.session.value(forKey: name, in: dictionary)
        } catch {
            throw self.corrupted(error, object: nil, uid: uid, at: position)
        }
    }

    /// The value of a field of an object dictionary, following one UID.
    func field(
        _ name: StaticString,
        of dictionary: InPlaceRegion,
        uid: UID?,
        at position: ArchiveDecodingPosition
    ) throws -> InPlaceValue? {
        guard let stored = try self.storedField(name, of: dictionary, uid: uid, at: position) else { return nil }
        return try self.resolve(stored, at: position).object
    }

    /// An object whose contents do not have the shape its class requires.
    @inline(never)
    func unexpected(
        _ reason: String,
        _ object: InPlaceValue,
        _ uid: UID?,
        _ position: ArchiveDecodingPosition
    ) -> DecodingError {
        self.corrupted(
            KeyedArchiveError(.unexpectedObject, uid: uid, reason: reason),
            object: object,
            uid: uid,
            at: position
        )
    }
}
