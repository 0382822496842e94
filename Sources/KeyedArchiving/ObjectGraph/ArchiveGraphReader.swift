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

/// The one reader of an archive's graph: the rules every path that reads `$archiver`,
/// `$version`, `$top` and `$objects` applies, written once for both forms of a property list.
///
/// The decoder reads the bytes in place (``ArchiveInPlaceList``); ``KeyedArchive``, its resolver,
/// ``ArchiveValidator`` and ``ArchiveInfo`` read a tree (``ArchiveTreeList``). The rules:
///
/// - the top level (``checkEnvelope(of:in:)``, in `+Envelope`): a dictionary whose `$archiver`,
///   `$version`, `$objects` and `$top` are what the format says, each checked by its own rule
///   so that the validator can report them all;
/// - references (``objectIndex(for:)``): a UID is an index of `$objects`;
/// - classes (``classUID(_:of:)``, ``archivedClass(ofClass:)``, in `+Class`): an object
///   dictionary's `$class` is a UID, and leads to a class dictionary whose `$classname`,
///   `$classes` and `$classhints` are read by one rule each;
/// - nesting (``nestingError(uid:depth:limit:)``): the error for objects nested too deep; the
///   objects being read, for cycles and depth, are an ``ArchiveObjectMarks``;
/// - the decoded size of the archive's own objects, the baseline of the decoded-size budget
///   (``distinctDecodedSize(maximumDepth:)``, in `+DecodedSize`).
///
/// What each path does with a rule's ``KeyedArchiveError`` is its own: the decoder wraps it in a
/// `DecodingError` with the coding path, the validator turns it into a finding.
internal struct ArchiveGraphReader<List: ArchivePropertyList> {
    /// The property list.
    let list: List
    /// `$objects`.
    let objects: List.Array
    /// The number of objects in `$objects`.
    let objectCount: Int

    /// Creates a reader of an archive whose `$objects` is `objects`.
    init(list: List, objects: List.Array) {
        self.list = list
        self.objects = objects
        self.objectCount = list.count(of: objects)
    }

    // MARK: References

    /// The index in `$objects` of the object a UID refers to.
    /// - Throws: ``KeyedArchiveError/Code/invalidReference`` if the UID is not an index of `$objects`.
    @inline(__always)
    func objectIndex(for uid: UID) throws(KeyedArchiveError) -> Int {
        guard let index = uid.index(below: self.objectCount) else {
            throw Self.invalidReference(uid, objectCount: self.objectCount)
        }
        return index
    }

    /// The object a UID refers to.
    /// - Throws: ``KeyedArchiveError/Code/invalidReference`` if the UID is not an index of `$objects`,
    ///   ``KeyedArchiveError/Code/malformedPropertyList`` if the object is not a valid one.
    func object(for uid: UID) throws(KeyedArchiveError) -> List.Value {
        try self.list.element(at: self.objectIndex(for: uid), of: self.objects)
    }

    /// The error for a UID that is not an index of `$objects`.
    @inline(never)
    static func invalidReference(_ uid: UID, objectCount: Int) -> KeyedArchiveError {
        KeyedArchiveError(
            .invalidReference,
            uid: uid,
            reason: "UID \(uid.rawValue) is not below the object count \(objectCount)"
        )
    }

    // MARK: Nesting

    /// The error for objects nested `depth` deep: beyond `limit`, or, within it, deeper than the
    /// thread's stack has room for.
    @inline(never)
    static func nestingError(uid: UID?, depth: Int, limit: Int) -> KeyedArchiveError {
        KeyedArchiveError(
            .depthLimitExceeded,
            uid: uid,
            reason: depth > limit
                ? "objects nest deeper than the limit of \(limit)"
                : "objects nest \(depth) deep, more than the thread's stack has room for"
        )
    }
}

extension ArchiveGraphReader where List == ArchiveTreeList {
    /// Creates a reader of an archive read whole.
    init(_ archive: KeyedArchive) {
        self.init(list: ArchiveTreeList(), objects: archive.objects)
    }
}

extension PropertyListValue {
    /// The value on one line, short enough for a message.
    var briefDescription: String {
        let text = PropertyListTreePrinter(maximumDataPreviewCount: 8).summary(of: self)
        return text.count > 60 ? String(text.prefix(59)) + "…" : text
    }

    /// The kind of the value with its article: `a string`, `an array`.
    var kindWithArticle: String {
        Self.withArticle(self.kindName)
    }

    /// A kind's name with its article.
    static func withArticle(_ name: String) -> String {
        (name.first.map { "aeio".contains($0) } ?? false ? "an " : "a ") + name
    }
}
