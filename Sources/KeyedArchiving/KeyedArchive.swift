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
/// object) to UIDs, or, for scalars encoded at the top level (`encode(42, forKey: "count")`), to
/// the value itself: Foundation stores integers, reals and Booleans inline there. Objects are
/// followed lazily, so unreachable and duplicate entries, which real Apple archives contain, are
/// harmless.
///
/// ```swift
/// let archive = try KeyedArchive(parsing: bytes)
/// let root = try archive.object(for: archive.topUID(forKey: "root")!)
/// let className = try archive.archivedClass(of: root)?.name
/// let count = archive.topValue(forKey: "count")?.intValue
/// ```
public struct KeyedArchive: Hashable, Sendable {
    /// The archiver name every `NSKeyedArchiver` archive carries.
    public static let archiverName = "NSKeyedArchiver"
    /// The format version every `NSKeyedArchiver` archive carries.
    public static let formatVersion = 100_000
    /// The placeholder at `$objects[0]` that UID 0 (`nil`) refers to.
    public static let nullObject: PropertyListValue = .string(ArchiveFormatKey.null.string)

    /// The top-level keys and their values, in archive order: usually the UID of an object in
    /// ``objects``, or a scalar (integer, real, Boolean) stored inline. Each key appears once.
    public var top: [TopEntry]

    /// The object table. Index 0 is ``nullObject``.
    public var objects: [PropertyListValue]

    /// Creates an archive with no top-level keys and only the `$null` object.
    public init() {
        self.top = []
        self.objects = [Self.nullObject]
    }

    /// Creates an archive from its parts.
    /// - Parameters:
    ///   - top: The top-level keys and their values: UIDs, or scalars stored inline.
    ///   - objects: The object table; index 0 should be ``nullObject``.
    public init(top: [TopEntry], objects: [PropertyListValue]) {
        self.top = top
        self.objects = objects
    }

    /// Creates an archive from its parts, with every top-level key referring to an object.
    /// - Parameters:
    ///   - top: The top-level keys and the objects they refer to.
    ///   - objects: The object table; index 0 should be ``nullObject``.
    public init(top: [(key: String, uid: UID)], objects: [PropertyListValue]) {
        self.top = top.map { TopEntry(key: $0.key, uid: $0.uid) }
        self.objects = objects
    }

    /// Reads an archive from binary or XML property list bytes.
    ///
    /// Reading enforces `limits` (see `PropertyListLimits`); objects are followed only when
    /// resolved or decoded, which enforce them again.
    /// - Parameters:
    ///   - bytes: A binary or XML property list.
    ///   - limits: The bounds to enforce while reading.
    /// - Throws: ``KeyedArchiveError`` with ``KeyedArchiveError/Code/malformedPropertyList`` wrapping the
    ///   `PropertyListError` if the bytes are not a property list or exceed `limits`, or another code
    ///   if the property list is not a keyed archive.
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
        let (objects, top, _) = try ArchiveGraphReader<ArchiveTreeList>.checkEnvelope(
            of: propertyList,
            in: ArchiveTreeList()
        )
        self.top = top.map { TopEntry(key: $0.key, value: $0.value) }
        self.objects = objects
    }

    /// The value stored under a top-level key: a UID, or a scalar stored inline.
    public func topValue(forKey key: String) -> PropertyListValue? {
        self.top.first { $0.key == key }?.value
    }

    /// The UID stored under a top-level key, or `nil` if the key is absent or holds an inline value.
    public func topUID(forKey key: String) -> UID? {
        self.topValue(forKey: key)?.uidValue
    }

    /// The object a UID refers to.
    /// - Throws: ``KeyedArchiveError/Code/invalidReference`` if the UID is not an index of ``objects``.
    public func object(for uid: UID) throws(KeyedArchiveError) -> PropertyListValue {
        try self.graph.object(for: uid)
    }

    /// The index in ``objects`` of the object a UID refers to.
    /// - Throws: ``KeyedArchiveError/Code/invalidReference`` if the UID is not an index of ``objects``.
    package func objectIndex(for uid: UID) throws(KeyedArchiveError) -> Int {
        try self.graph.objectIndex(for: uid)
    }

    /// The class of an object dictionary, or `nil` for objects stored as plain property list values
    /// (strings, numbers, data, `$null`).
    /// - Throws: ``KeyedArchiveError`` if a dictionary has no `$class` UID or it does not lead to a
    ///   class dictionary.
    public func archivedClass(of object: PropertyListValue, uid: UID? = nil) throws(KeyedArchiveError) -> ArchivedClass?
    {
        guard case .dictionary(let dictionary) = object else { return nil }
        return try self.graph.archivedClass(of: dictionary, uid: uid)
    }

    /// The graph reader over the archive, whose rules every reading of it applies.
    internal var graph: ArchiveGraphReader<ArchiveTreeList> {
        ArchiveGraphReader(self)
    }

    /// The archive as a property list: `$version`, `$archiver`, `$top`, `$objects`.
    public var propertyList: PropertyListValue {
        var top = PropertyListDictionary()
        top.reserveCapacity(self.top.count)
        for entry in self.top { top[entry.key] = entry.value }
        return [
            ArchiveFormatKey.version.string: .integer(PropertyListInteger(Int64(Self.formatVersion))),
            ArchiveFormatKey.archiver.string: .string(Self.archiverName),
            ArchiveFormatKey.top.string: .dictionary(top),
            ArchiveFormatKey.objects.string: .array(self.objects),
        ]
    }

    /// Encodes the archive as a property list.
    /// - Parameter format: The encoding. Defaults to `PropertyListFormat.binary`.
    public func serialized(as format: PropertyListFormat = .binary) -> Data {
        self.propertyList.serialized(as: format)
    }

    /// Archives are equal when their object tables are equal and their top-level entries are,
    /// in any order: `$top` is a dictionary, and XML output, for one, sorts its keys.
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.objects == rhs.objects && lhs.top.count == rhs.top.count
            && lhs.top.allSatisfy { entry in rhs.topValue(forKey: entry.key) == entry.value }
    }

    public func hash(into hasher: inout Hasher) {
        // Order-independent, as equality is.
        var combined = 0
        for entry in self.top { combined ^= entry.hashValue }
        hasher.combine(self.top.count)
        hasher.combine(combined)
        hasher.combine(self.objects)
    }
}

extension KeyedArchive {
    /// One `$top` entry: a top-level key and its value.
    public struct TopEntry: Hashable, Sendable {
        /// The key, as stored (escaped).
        public var key: String
        /// The value: usually `PropertyListValue.uid(_:)` of an object in ``KeyedArchive/objects``,
        /// or an integer, real or Boolean that `NSKeyedArchiver` stores inline.
        public var value: PropertyListValue

        /// Creates an entry.
        /// - Parameters:
        ///   - key: The key, as stored.
        ///   - value: A UID, or a scalar stored inline.
        public init(key: String, value: PropertyListValue) {
            self.key = key
            self.value = value
        }

        /// Creates an entry that refers to an object.
        /// - Parameters:
        ///   - key: The key, as stored.
        ///   - uid: The object's UID.
        public init(key: String, uid: UID) {
            self.init(key: key, value: .uid(uid))
        }

        /// The UID of the object the entry refers to, or `nil` for a value stored inline.
        public var uid: UID? { self.value.uidValue }
    }
}

// `$` below is the format's escape character, not a key: these two functions are the one place
// that spells it, and, being inlinable, cannot reach the package's `ArchiveFormatKey`.
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
