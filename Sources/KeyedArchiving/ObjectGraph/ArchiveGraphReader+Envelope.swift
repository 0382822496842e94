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

// The rules of an archive's top level. Reading applies them in the order of
// `checkEnvelope(of:in:)` and stops at the first that fails; the validator applies each and
// reports every failure.

extension ArchiveGraphReader {
    /// The keys of an archive's top-level dictionary.
    static var envelopeKeys: [StaticString] {
        [ArchiveFormatKey.archiver, ArchiveFormatKey.version, ArchiveFormatKey.top, ArchiveFormatKey.objects]
    }

    /// Checks the top level of a property list that should be a keyed archive.
    /// - Returns: `$objects`, `$top`, and `$objects[0]`, the `$null` that UID 0 refers to.
    /// - Throws: ``KeyedArchiveError`` from the first rule that fails.
    static func checkEnvelope(
        of root: List.Value,
        in list: List
    ) throws(KeyedArchiveError) -> (objects: List.Array, top: List.Dictionary, null: List.Value) {
        let dictionary = try Self.rootDictionary(root)
        try Self.checkArchiver(in: dictionary, list)
        try Self.checkVersion(in: dictionary, list)
        let objects = try Self.objectTable(in: dictionary, list)
        let null = try Self.checkNull(in: objects, list)
        let top = try Self.topTable(in: dictionary, list)
        for position in 0..<list.entryCount(of: top) {
            try Self.checkTopValue(list.entryValue(at: position, of: top), at: position, of: top, list)
        }
        return (objects, top, null)
    }

    /// Whether a property list claims to be a keyed archive: its top level is a dictionary with an
    /// `$archiver` key. Tools that show any property list choose the resolved form or the plain
    /// one by it.
    static func claimsToBeArchive(_ root: List.Value, _ list: List) -> Bool {
        guard let dictionary = List.dictionary(root) else { return false }
        return list.hasKey(ArchiveFormatKey.archiver, in: dictionary)
    }

    /// The top level, which is a dictionary.
    /// - Throws: ``KeyedArchiveError/Code/notAnArchive`` if it is not one.
    static func rootDictionary(_ root: List.Value) throws(KeyedArchiveError) -> List.Dictionary {
        guard let dictionary = List.dictionary(root) else {
            let kind = PropertyListValue.withArticle(List.kindName(of: root))
            throw KeyedArchiveError(.notAnArchive, reason: "the top level is \(kind), not a dictionary")
        }
        return dictionary
    }

    /// Checks that `$archiver` is `NSKeyedArchiver`.
    /// - Throws: ``KeyedArchiveError/Code/notAnArchive`` if it is missing,
    ///   ``KeyedArchiveError/Code/unsupportedArchiver`` if it is another.
    static func checkArchiver(in root: List.Dictionary, _ list: List) throws(KeyedArchiveError) {
        guard let archiver = try list.value(forKey: ArchiveFormatKey.archiver, in: root) else {
            throw KeyedArchiveError(.notAnArchive, reason: "no $archiver key")
        }
        guard try list.string(archiver) == KeyedArchive.archiverName else {
            throw KeyedArchiveError(
                .unsupportedArchiver,
                reason: "$archiver is \(Self.describe(archiver, list)), not \"\(KeyedArchive.archiverName)\""
            )
        }
    }

    /// Checks that `$version` is 100000.
    /// - Throws: ``KeyedArchiveError/Code/notAnArchive`` if it is missing,
    ///   ``KeyedArchiveError/Code/unsupportedVersion`` if it is another.
    static func checkVersion(in root: List.Dictionary, _ list: List) throws(KeyedArchiveError) {
        guard let version = try list.value(forKey: ArchiveFormatKey.version, in: root) else {
            throw KeyedArchiveError(.notAnArchive, reason: "no $version key")
        }
        guard List.integer(version) == KeyedArchive.formatVersion else {
            throw KeyedArchiveError(
                .unsupportedVersion,
                reason: "$version is \(Self.describe(version, list)), not \(KeyedArchive.formatVersion)"
            )
        }
    }

    /// `$objects`, which is an array.
    /// - Throws: ``KeyedArchiveError/Code/invalidObjects`` if it is missing or not an array.
    static func objectTable(in root: List.Dictionary, _ list: List) throws(KeyedArchiveError) -> List.Array {
        guard let value = try list.value(forKey: ArchiveFormatKey.objects, in: root), let objects = List.array(value)
        else {
            throw KeyedArchiveError(.invalidObjects, reason: "$objects is missing or not an array")
        }
        return objects
    }

    /// Checks that `$objects` starts with the string `$null`.
    /// - Returns: `$objects[0]`.
    /// - Throws: ``KeyedArchiveError/Code/invalidObjects`` if it does not.
    @discardableResult
    static func checkNull(in objects: List.Array, _ list: List) throws(KeyedArchiveError) -> List.Value {
        guard list.count(of: objects) > 0 else { throw Self.noNull() }
        let null = try list.element(at: 0, of: objects)
        guard try list.string(null) == ArchiveFormatKey.null.string else { throw Self.noNull() }
        return null
    }

    @inline(never)
    private static func noNull() -> KeyedArchiveError {
        KeyedArchiveError(.invalidObjects, reason: "$objects does not start with \"$null\"")
    }

    /// `$top`, which is a dictionary.
    /// - Throws: ``KeyedArchiveError/Code/invalidTop`` if it is missing or not a dictionary.
    static func topTable(in root: List.Dictionary, _ list: List) throws(KeyedArchiveError) -> List.Dictionary {
        guard let value = try list.value(forKey: ArchiveFormatKey.top, in: root), let top = List.dictionary(value)
        else {
            throw KeyedArchiveError(.invalidTop, reason: "$top is missing or not a dictionary")
        }
        return top
    }

    /// Checks a value of `$top`, the one at `position`: a UID, or a scalar that `NSKeyedArchiver`
    /// stores inline (it never stores an array or dictionary there).
    /// - Throws: ``KeyedArchiveError/Code/invalidTop`` if it is an array or a dictionary.
    @inline(__always)
    static func checkTopValue(
        _ value: List.Value,
        at position: Int,
        of top: List.Dictionary,
        _ list: List
    ) throws(KeyedArchiveError) {
        guard Self.isTopValue(value) else {
            throw Self.invalidTopValue(value, key: list.entryKey(at: position, of: top))
        }
    }

    /// Whether a value may stand in `$top`: anything but an array or a dictionary.
    @inline(__always)
    static func isTopValue(_ value: List.Value) -> Bool {
        List.array(value) == nil && List.dictionary(value) == nil
    }

    /// The error for a `$top` value that is an array or a dictionary.
    @inline(never)
    static func invalidTopValue(_ value: List.Value, key: String?) -> KeyedArchiveError {
        let shownKey = key.map { PropertyListValue.string($0).briefDescription } ?? "?"
        let kind = PropertyListValue.withArticle(List.kindName(of: value))
        return KeyedArchiveError(.invalidTop, reason: "$top[\(shownKey)] is \(kind), not a UID or an inline scalar")
    }

    /// A value for a message: on one line, or by its kind if it cannot be read.
    private static func describe(_ value: List.Value, _ list: List) -> String {
        list.tree(value)?.briefDescription ?? PropertyListValue.withArticle(List.kindName(of: value))
    }
}
