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

#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

/// The object graph of an `NSKeyedArchiver` archive: `$archiver`, `$version`, `$top` and `$objects`.
///
/// `$objects` is a flat table; index 0 is the string `$null`, and every other object refers to the
/// objects it holds by `UID`. `$top` maps the archive's top-level keys (`root` for a single root
/// object) to UIDs. Objects are followed lazily, so unreachable and duplicate entries, which real
/// Apple archives contain, are harmless.
///
/// ```swift
/// let archive = try KeyedArchive(parsing: bytes)
/// let root = try archive.object(for: archive.top["root"]!)
/// let className = try archive.archivedClass(of: root)?.name
/// ```
public struct KeyedArchive: Hashable, Sendable {
    /// The archiver name every `NSKeyedArchiver` archive carries.
    public static let archiverName = "NSKeyedArchiver"
    /// The format version every `NSKeyedArchiver` archive carries.
    public static let formatVersion = 100_000
    /// The placeholder at `$objects[0]` that UID 0 (`nil`) refers to.
    public static let nullObject: PropertyListValue = "$null"

    /// The top-level keys and the objects they refer to, in archive order.
    public var top: [(key: String, uid: UID)] {
        get { self.topEntries }
        set { self.topEntries = newValue }
    }
    private var topEntries: [(key: String, uid: UID)]

    /// The object table. Index 0 is ``nullObject``.
    public var objects: [PropertyListValue]

    /// Creates an archive with no top-level keys and only the `$null` object.
    public init() {
        self.topEntries = []
        self.objects = [Self.nullObject]
    }

    /// Creates an archive from its parts.
    /// - Parameters:
    ///   - top: The top-level keys and the objects they refer to.
    ///   - objects: The object table; index 0 should be ``nullObject``.
    public init(top: [(key: String, uid: UID)], objects: [PropertyListValue]) {
        self.topEntries = top
        self.objects = objects
    }

    /// Reads an archive from binary or XML property list bytes.
    /// - Throws: ``KeyedArchiveError`` with ``KeyedArchiveError/Code/malformedPropertyList`` wrapping the
    ///   `PropertyListError` if the bytes are not a property list, or another code if the
    ///   property list is not a keyed archive.
    public init(parsing bytes: some DataProtocol, limits: PropertyListLimits = .default) throws(KeyedArchiveError) {
        let value: PropertyListValue
        do {
            value = try PropertyListValue(parsing: bytes, limits: limits)
        } catch {
            throw KeyedArchiveError(.malformedPropertyList, reason: "not a property list", underlying: error)
        }
        try self.init(propertyList: value)
    }

    /// Reads an archive from a property list value.
    /// - Throws: ``KeyedArchiveError`` if the value is not a keyed archive.
    public init(propertyList: PropertyListValue) throws(KeyedArchiveError) {
        guard case .dictionary(let root) = propertyList else {
            throw KeyedArchiveError(
                .notAnArchive,
                reason: "the top level is a \(propertyList.kindName), not a dictionary"
            )
        }
        guard let archiver = root["$archiver"] else {
            throw KeyedArchiveError(.notAnArchive, reason: "no $archiver key")
        }
        guard archiver == .string(Self.archiverName) else {
            throw KeyedArchiveError(.unsupportedArchiver, reason: "$archiver is \(archiver), not NSKeyedArchiver")
        }
        guard let version = root["$version"] else {
            throw KeyedArchiveError(.notAnArchive, reason: "no $version key")
        }
        guard version.intValue == Self.formatVersion else {
            throw KeyedArchiveError(.unsupportedVersion, reason: "$version is \(version), not 100000")
        }
        guard case .array(let objects)? = root["$objects"] else {
            throw KeyedArchiveError(.invalidObjects, reason: "$objects is missing or not an array")
        }
        guard objects.first == Self.nullObject else {
            throw KeyedArchiveError(.invalidObjects, reason: "$objects does not start with $null")
        }
        guard case .dictionary(let top)? = root["$top"] else {
            throw KeyedArchiveError(.invalidTop, reason: "$top is missing or not a dictionary")
        }
        var entries: [(key: String, uid: UID)] = []
        entries.reserveCapacity(top.count)
        for (key, value) in top {
            guard case .uid(let uid) = value else {
                throw KeyedArchiveError(.invalidTop, reason: "$top[\"\(key)\"] is a \(value.kindName), not a UID")
            }
            entries.append((key, uid))
        }
        self.topEntries = entries
        self.objects = objects
    }

    /// The UID stored under a top-level key.
    public func topUID(forKey key: String) -> UID? {
        self.topEntries.first { $0.key == key }?.uid
    }

    /// The object a UID refers to.
    /// - Throws: ``KeyedArchiveError/Code/invalidReference`` if the UID is not an index of ``objects``.
    @inlinable
    public func object(for uid: UID) throws(KeyedArchiveError) -> PropertyListValue {
        guard uid.rawValue < UInt64(self.objects.count) else {
            throw KeyedArchiveError(
                .invalidReference,
                uid: uid,
                reason: "UID \(uid.rawValue) is not below the object count \(self.objects.count)"
            )
        }
        return self.objects[Int(uid.rawValue)]
    }

    /// The class of an object dictionary, or `nil` for objects stored as plain property list values
    /// (strings, numbers, data, `$null`).
    /// - Throws: ``KeyedArchiveError`` if a dictionary has no `$class` UID or it does not lead to a
    ///   class dictionary.
    public func archivedClass(of object: PropertyListValue, uid: UID? = nil) throws(KeyedArchiveError) -> ArchivedClass?
    {
        guard case .dictionary(let dictionary) = object else { return nil }
        guard case .uid(let classUID)? = dictionary["$class"] else {
            throw KeyedArchiveError(.missingClass, uid: uid, reason: "object dictionary without a $class UID")
        }
        return try ArchivedClass(propertyList: self.object(for: classUID), uid: classUID)
    }

    /// The archive as a property list: `$version`, `$archiver`, `$top`, `$objects`.
    public var propertyList: PropertyListValue {
        var top = PropertyListDictionary()
        for (key, uid) in self.topEntries { top[key] = .uid(uid) }
        return [
            "$version": .integer(PropertyListInteger(Int64(Self.formatVersion))),
            "$archiver": .string(Self.archiverName),
            "$top": .dictionary(top),
            "$objects": .array(self.objects),
        ]
    }

    /// Encodes the archive as a property list.
    /// - Parameter format: The encoding. Defaults to `PropertyListFormat.binary`.
    public func serialized(as format: PropertyListFormat = .binary) -> Data {
        self.propertyList.serialized(as: format)
    }

    /// Archives are equal when their top-level keys and object tables are equal.
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.objects == rhs.objects
            && lhs.topEntries.elementsEqual(rhs.topEntries) { $0.key == $1.key && $0.uid == $1.uid }
    }

    public func hash(into hasher: inout Hasher) {
        for (key, uid) in self.topEntries {
            hasher.combine(key)
            hasher.combine(uid)
        }
        hasher.combine(self.objects)
    }
}

extension KeyedArchive {
    /// Escapes a coder key the way `NSKeyedArchiver` does: keys starting with `$` get another `$`, so
    /// they cannot collide with `$class` and the generated `$0`, `$1` keys.
    @inlinable
    public static func escapedKey(_ key: String) -> String {
        key.utf8.first == UInt8(ascii: "$") ? "$" + key : key
    }

    /// Reverses ``escapedKey(_:)``; returns `nil` for reserved keys such as `$class` or `$0`.
    @inlinable
    public static func unescapedKey(_ key: String) -> String? {
        guard key.utf8.first == UInt8(ascii: "$") else { return key }
        guard key.utf8.dropFirst().first == UInt8(ascii: "$") else { return nil }
        return String(key.dropFirst())
    }
}
