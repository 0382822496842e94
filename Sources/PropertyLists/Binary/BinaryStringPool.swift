//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-keyed-archive open source project
//
// Licensed under Apache License v2.0
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// The strings of a ``BinaryPropertyListBuilder``, each stored once and named by a small id.
///
/// Two ids are equal only for strings with the same UTF-8 bytes, found by hashing those bytes
/// rather than through `String`'s Unicode-aware hashing. Each id also has a canonical id: the id of
/// the first string added that `==` considers equal (canonically equivalent), which is how
/// ``BinaryPropertyListWriter`` and ``PropertyListDictionary`` tell strings apart. So a writer can
/// unique strings by canonical id and still emit the exact bytes of the first one it meets.
package struct BinaryStringPool {
    /// The strings, by id.
    package private(set) var strings: [String] = []
    /// For each id, the id of the first string added that is equal to it under `==`.
    package private(set) var canonicalIDs: [UInt32] = []
    /// The UTF-8 bytes of every string, under the string's id.
    private var runs = BinaryByteRunTable()
    /// Whether each string is all ASCII.
    private var asciiFlags: [Bool] = []
    /// The canonical id of each string class, found through `String` hashing once per new string
    /// once the pool holds a string that is not all ASCII (see ``hasNonASCII``); the classes of the
    /// kept strings are in ``keptClasses`` instead when ``usesKeptClasses``.
    private var canonical: [String: UInt32] = [:]
    /// Whether a string that is not all ASCII has been added. Until then every string is its own
    /// canonical string: an all-ASCII string is in normal form, so two of them are `==` only if
    /// their bytes are equal, and ``canonical`` stays empty, sparing a `String` hash per string.
    private var hasNonASCII = false
    /// The number of strings the last ``removeAll(keepingFirst:)`` kept.
    private var keptCount = 0
    /// The classes of the kept strings alone, once a string that is not all ASCII has needed them:
    /// later archives that have one look there first instead of hashing the kept strings again
    /// (or copying their classes, an allocation per archive).
    private var keptClasses: [String: UInt32]?
    /// Whether ``keptClasses`` holds the classes of the first ``keptCount`` strings for this round
    /// of strings, and ``canonical`` only those of the strings after them.
    private var usesKeptClasses = false

    /// Creates an empty pool.
    package init() {}

    /// Removes every string but the first `count`, keeping the storage for the next ones: the
    /// strings every list of a writer holds can stay, with their ids.
    /// - Complexity: O(*m*) in the number of strings removed.
    package mutating func removeAll(keepingFirst count: Int = 0) {
        let kept = min(max(count, 0), self.strings.count)
        if kept != self.keptCount {
            self.keptCount = kept
            self.keptClasses = nil
        }
        self.runs.removeAll(keepingFirst: kept)
        self.strings.removeSubrange(kept...)
        self.canonicalIDs.removeSubrange(kept...)
        self.asciiFlags.removeSubrange(kept...)
        if self.hasNonASCII {
            self.canonical.removeAll(keepingCapacity: true)
            self.hasNonASCII = false
            self.usesKeptClasses = false
            if self.asciiFlags.contains(false) { self.startCanonicalClasses(upTo: kept) }
        }
    }

    /// The number of values all the pool's storage has room for, to bound what a caller keeps.
    package var capacity: Int { max(self.strings.capacity, self.runs.capacity) }

    /// The number of distinct strings (by bytes).
    package var count: Int { self.strings.count }

    /// The id of `string`, adding it if no string with the same bytes is in the pool.
    /// - Complexity: O(*n*) in the string's UTF-8 length, on average.
    package mutating func id(for string: String) -> UInt32 {
        if let id = string.utf8.withContiguousStorageIfAvailable({ self.id(for: string, utf8: $0) }) {
            return id
        }
        return ContiguousArray(string.utf8).withUnsafeBufferPointer { self.id(for: string, utf8: $0) }
    }

    /// Runs `body` with a view of every string's UTF-8 bytes by id, valid only during the call.
    package func withUTF8View<R>(_ body: (BinaryByteRunTable.View) throws -> R) rethrows -> R {
        try self.runs.withView(body)
    }

    /// The number of UTF-8 bytes of the string with `id`.
    package func utf8Count(of id: UInt32) -> Int {
        self.runs.byteCount(of: id)
    }

    /// Whether the string with `id` is all ASCII.
    package func isASCII(_ id: UInt32) -> Bool {
        self.asciiFlags[Int(id)]
    }

    private mutating func id(for string: String, utf8: UnsafeBufferPointer<UInt8>) -> UInt32 {
        let (id, isNew) = self.runs.id(for: UnsafeRawBufferPointer(utf8))
        guard isNew else { return id }
        var high: UInt8 = 0
        for byte in utf8 { high |= byte }
        self.asciiFlags.append(high < 0x80)
        self.strings.append(string)
        if high >= 0x80, !self.hasNonASCII { self.startCanonicalClasses(upTo: Int(id)) }
        if !self.hasNonASCII {
            self.canonicalIDs.append(id)
        } else if let existing = self.existingClass(of: string) {
            self.canonicalIDs.append(existing)
        } else {
            self.canonical[string] = id
            self.canonicalIDs.append(id)
        }
        return id
    }

    /// Fills ``canonical`` with the classes of the strings before `end` when the first string that
    /// is not all ASCII arrives: from then on a new string may be `==` to an earlier one with other
    /// bytes (such as U+212A KELVIN SIGN and "K").
    @inline(never)
    private mutating func startCanonicalClasses(upTo end: Int) {
        self.hasNonASCII = true
        var start = 0
        if self.keptCount > 0, self.keptCount <= end {
            if self.keptClasses == nil {
                self.addCanonicalClasses(0..<self.keptCount)
                self.keptClasses = self.canonical
                self.canonical.removeAll(keepingCapacity: true)
            }
            self.usesKeptClasses = true
            start = self.keptCount
        }
        self.addCanonicalClasses(start..<end)
    }

    /// The canonical id of a string `==` to `string` already in the pool, if any.
    private func existingClass(of string: String) -> UInt32? {
        if self.usesKeptClasses, let kept = self.keptClasses?[string] { return kept }
        return self.canonical[string]
    }

    private mutating func addCanonicalClasses(_ ids: Range<Int>) {
        for id in ids where self.canonicalIDs[id] == UInt32(truncatingIfNeeded: id) {
            self.canonical[self.strings[id]] = UInt32(truncatingIfNeeded: id)
        }
    }
}
