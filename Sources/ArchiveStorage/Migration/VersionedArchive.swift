//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-keyed-archive open source project
//
// Licensed under Apache License v2.0
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation
import KeyedArchiving
import PropertyLists

/// The current stored format: a keyed archive whose `$top` has exactly two keys, the value under
/// `root` and its schema version, an integer stored inline, under `schemaVersion`.
///
/// `KeyedArchiveDecoder` and Apple's `NSKeyedUnarchiver` read the value as the root object and
/// ignore the version, and `decodeInteger(forKey: "schemaVersion")` returns it, as it does for
/// `NSKeyedArchiver`'s `encode(_:forKey:)` of an integer.
enum VersionedArchive {
    /// The `$top` key of the schema version.
    static let versionKey = "schemaVersion"

    /// Archives `value` with its schema version.
    /// - Throws: ``ArchiveStorageError`` with ``ArchiveStorageError/Code/encodingFailed``.
    static func encode<T: Encodable>(
        _ value: T,
        schemaVersion: Int,
        encoder: KeyedArchiveEncoder
    ) throws(ArchiveStorageError) -> Data {
        do {
            let archiver = KeyedArchiver(encoder: encoder)
            try archiver.encodeRootObject(value)
            try archiver.encode(schemaVersion, forKey: Self.versionKey)
            return try archiver.finishEncoding()
        } catch {
            throw ArchiveStorageError(.encodingFailed, reason: "cannot archive \(T.self)", underlying: error)
        }
    }

    /// The schema version of an archive in this format, or `nil` for any other archive.
    ///
    /// The version is an integer stored inline in `$top`, as ``encode(_:schemaVersion:encoder:)``
    /// and Apple's `NSKeyedArchiver` write `encode(_:forKey:)` of an integer, or an integer object,
    /// as this package wrote it before.
    static func schemaVersion(of archive: KeyedArchive) -> Int? {
        guard archive.top.count == 2, archive.topUID(forKey: "root") != nil,
            let entry = archive.topValue(forKey: Self.versionKey)
        else { return nil }
        if case .uid(let uid) = entry { return (try? archive.object(for: uid))?.intValue }
        return entry.intValue
    }
}
