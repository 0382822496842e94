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

// Error construction, kept out of line so the decoding paths stay small.

extension DecodingError {
    /// The bytes are not a keyed archive.
    @inline(never)
    static func archiveUnreadable(_ error: KeyedArchiveError) -> DecodingError {
        .dataCorrupted(
            Context(
                codingPath: [],
                debugDescription: "The data is not a keyed archive: \(error)",
                underlyingError: error
            )
        )
    }

    /// A `$top` key that was asked for is absent.
    @inline(never)
    static func archiveMissingTopKey(_ key: String, available: [String]) -> DecodingError {
        let error = KeyedArchiveError(
            .missingKey,
            reason: "no top-level key \"\(key)\"; the archive has \(available.map { "\"\($0)\"" })"
        )
        return .keyNotFound(
            ArchiveCodingKey(stringValue: key),
            Context(codingPath: [], debugDescription: "The archive has \(error.reason).", underlyingError: error)
        )
    }

    /// A value has a different kind than the type asks for.
    @inline(never)
    static func archiveTypeMismatch(
        _ type: Any.Type,
        codingPath: [any CodingKey],
        description: String
    ) -> DecodingError {
        .typeMismatch(type, Context(codingPath: codingPath, debugDescription: description))
    }

    /// A value is `nil` (UID 0 or `NSNull`) where the type cannot be.
    @inline(never)
    static func archiveValueNotFound(
        _ type: Any.Type,
        codingPath: [any CodingKey],
        description: String
    ) -> DecodingError {
        .valueNotFound(type, Context(codingPath: codingPath, debugDescription: description))
    }

    /// A key is absent from an object.
    @inline(never)
    static func archiveKeyNotFound(
        _ key: any CodingKey,
        codingPath: [any CodingKey],
        description: String
    ) -> DecodingError {
        .keyNotFound(key, Context(codingPath: codingPath, debugDescription: description))
    }

    /// The object graph is malformed at this point.
    @inline(never)
    static func archiveCorrupted(
        codingPath: [any CodingKey],
        description: String,
        underlying: KeyedArchiveError
    ) -> DecodingError {
        .dataCorrupted(Context(codingPath: codingPath, debugDescription: description, underlyingError: underlying))
    }
}

extension _ArchiveDecoder {
    /// A type mismatch, or `valueNotFound` when the value is `nil`.
    @inline(never)
    func mismatch(
        _ type: Any.Type,
        object: InPlaceValue,
        uid: UID?,
        at position: ArchiveDecodingPosition,
        detail: String = ""
    ) -> DecodingError {
        let subject = self.describeValue(object, uid: uid) + position.describe(in: self.session)
        if self.isNil(object, uid: uid) {
            return .archiveValueNotFound(
                type,
                codingPath: position.node.path,
                description: "\(subject): expected \(type) but found nil"
            )
        }
        let found = detail.isEmpty ? "" : " (\(detail))"
        return .archiveTypeMismatch(
            type,
            codingPath: position.node.path,
            description: "\(subject): expected \(type) but found \(self.summarize(object))\(found)"
        )
    }

    /// A malformed object graph at a value.
    @inline(never)
    func corrupted(
        _ error: KeyedArchiveError,
        object: InPlaceValue?,
        uid: UID?,
        at position: ArchiveDecodingPosition
    ) -> DecodingError {
        let subject =
            if let object { self.describeValue(object, uid: uid) } else { uid.map { "UID(\($0.rawValue))" } ?? "value" }
        return .archiveCorrupted(
            codingPath: position.node.path,
            description: "\(subject + position.describe(in: self.session)): \(error.reason)",
            underlying: error
        )
    }

    /// A UID beyond `$objects`.
    @inline(never)
    func invalidReference(_ uid: UID, at position: ArchiveDecodingPosition) -> DecodingError {
        let error = ArchiveDecodingSession.Graph.invalidReference(uid, objectCount: self.session.objectCount)
        return self.corrupted(error, object: nil, uid: uid, at: position)
    }

    /// An absent key.
    @inline(never)
    func keyNotFound(_ key: any CodingKey, in owner: UID?, at parent: CodingPathNode) -> DecodingError {
        let location = owner.map { self.session.describe($0) } ?? "the object"
        return .archiveKeyNotFound(
            key,
            codingPath: parent.path,
            description: "\(location) has no key \"\(key.stringValue)\""
        )
    }

    /// Describes a value: `object UID(7) (class Cat)` or `inline integer 3`.
    func describeValue(_ object: InPlaceValue, uid: UID?) -> String {
        if let uid { return self.session.describe(uid) }
        return "inline \(object.kindName)"
    }

    /// A short account of a value for messages: `integer 300`, `string "abc"`, `object of class NSDate`.
    func summarize(_ object: InPlaceValue) -> String {
        switch object {
        case .integer(let value): return "integer \(value)"
        case .real(let value): return "real \(value)"
        case .float(let value): return "float \(value)"
        case .bool(let value): return "Boolean \(value)"
        case .string(let region):
            guard let value = try? self.session.string(region) else { return "string" }
            let shown = value.count > 40 ? String(value.prefix(40)) + "…" : value
            return "string \"\(shown)\""
        case .data(let value): return "data (\(value.count) bytes)"
        case .date(let value): return "date \(value)"
        case .array(let value): return "array of \(value.count)"
        case .uid(let value): return "\(value)"
        case .dictionary(let dictionary):
            if let info = try? self.session.classInfo(of: dictionary, uid: nil) {
                return "object of class \(info.name)"
            }
            return "dictionary without a valid $class"
        }
    }
}
