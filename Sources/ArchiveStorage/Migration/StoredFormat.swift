//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-keyed-archive open source project
//
// Licensed under Apache License v2.0
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

public import PropertyLists

/// The format a migration found stored bytes in.
///
/// ``ArchiveMigrator`` recognises, in this order of checks:
///
/// - ``versionedArchive(schemaVersion:propertyListFormat:)``: the current format, a keyed archive
///   whose `$top` holds the value under `root` and its schema version under `schemaVersion`.
/// - ``archivedPropertyList(_:)``: the interim form, a keyed archive whose root object is `NSData`
///   holding `PropertyListEncoder` output.
/// - ``keyedArchive(_:)``: any other keyed archive, as Apple's `NSKeyedArchiver` writes from
///   `NSCoding` classes and as `KeyedArchiveEncoder` writes without a schema version.
/// - ``propertyList(_:)``: a plain property list, as `PropertyListEncoder` writes.
/// - ``json``: JSON, as `JSONEncoder` writes.
public enum StoredFormat: Hashable, Sendable, CustomStringConvertible {
    /// The current format: a keyed archive with the value under `root` and an integer under
    /// `schemaVersion`, written by ``ArchiveMigrator/encode(_:)``.
    case versionedArchive(schemaVersion: Int, propertyListFormat: PropertyListFormat)
    /// A keyed archive whose root object is `NSData` holding a property list; the associated value
    /// is the format of that inner property list.
    case archivedPropertyList(PropertyListFormat)
    /// A keyed archive without a schema version: written by Apple's `NSKeyedArchiver` from
    /// `NSCoding` objects, or by `KeyedArchiveEncoder`. The two are the same format and decode the
    /// same way, so they are not told apart.
    case keyedArchive(PropertyListFormat)
    /// A property list that is not a keyed archive, such as `PropertyListEncoder` output.
    case propertyList(PropertyListFormat)
    /// A JSON document, such as `JSONEncoder` output.
    case json

    /// A short name, such as `keyed archive (binary)`.
    public var description: String {
        switch self {
        case .versionedArchive(let version, let format): "versioned archive v\(version) (\(format))"
        case .archivedPropertyList(let format): "property list (\(format)) inside a keyed archive"
        case .keyedArchive(let format): "keyed archive (\(format))"
        case .propertyList(let format): "property list (\(format))"
        case .json: "JSON"
        }
    }
}
