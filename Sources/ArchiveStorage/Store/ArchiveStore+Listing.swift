//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-keyed-archive open source project
//
// Licensed under Apache License v2.0
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

// Listing and counting: one code path for all keys, a page of keys and a count, on each backend.
extension ArchiveStore {
    /// The keys of all unexpired entries, sorted by their UTF-8 bytes; damaged entries are included
    /// when their key is known (from the file name, or the row), so that ``load(forKey:)-59ajw``
    /// can report them.
    ///
    /// On the files backend, keys come from the entry file names, and from the entry itself for
    /// keys too long for a file name, so they survive relaunches. For a large store, list the keys
    /// in pages with ``keys(withPrefix:after:limit:)-1host``.
    ///
    /// - Complexity: On the files backend, reads the header of every entry, O(*n*) small reads;
    ///   on the SQLite backend, one query that reads the keys in index order.
    /// - Throws: ``ArchiveStorageError`` with code ``ArchiveStorageError/Code/fileSystem``, or
    ///   ``ArchiveStorageError/Code/database`` and ``ArchiveStorageError/Code/corruptStore`` on the
    ///   SQLite backend.
    public func keys() throws(ArchiveStorageError) -> [String] {
        try self.listKeys(in: KeyPrefixRange(prefix: []), after: nil, limit: .max)
    }

    /// A page of the keys of unexpired entries: up to `limit` keys whose UTF-8 form starts with the
    /// UTF-8 form of `prefix`, strictly after `after`, sorted by their UTF-8 bytes.
    ///
    /// Pass the last key of a page as `after` to get the next one; a page with fewer than `limit`
    /// keys is the last. The pages of a store that nobody writes meanwhile hold every key of
    /// ``keys()-7eby2`` exactly once, in the same order; a key saved or removed between two pages
    /// is listed if it sorts after the page that was read last.
    ///
    /// The prefix is compared byte for byte, with no pattern syntax: `%`, `_`, `*` or `\` in it
    /// stand for themselves, case matters, and a precomposed `"é"` (U+00E9) does not match a key
    /// that spells it as `"e"` and U+0301, although `String`'s `hasPrefix(_:)` would say it does.
    /// Damaged entries are listed as ``keys()-7eby2`` lists them.
    ///
    /// ```swift
    /// var page = try messages.keys(withPrefix: "inbox/", limit: 1000)
    /// while !page.isEmpty {
    ///     for key in page { print(key) }
    ///     guard page.count == 1000 else { break }
    ///     page = try messages.keys(withPrefix: "inbox/", after: page.last, limit: 1000)
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - prefix: The start every listed key has, in UTF-8 bytes; the empty string lists all keys.
    ///   - after: Lists only keys after this one in byte order; it need not be a stored key. `nil`
    ///     starts at the first key.
    ///   - limit: The most keys to return; `0` returns none.
    /// - Returns: The keys, sorted by their UTF-8 bytes.
    /// - Complexity: On the SQLite backend, one range query on the primary key that reads about
    ///   `limit` rows (plus the expired ones among them), however many entries the store holds.
    ///   On the files backend, O(*n* log *n*) per page for *n* keys with the prefix: it lists the
    ///   whole directory, sorts the keys with the prefix after `after`, and reads the header of each
    ///   key it returns (and of the expired ones it skips, and of every key too long for a file
    ///   name).
    /// - Throws: ``ArchiveStorageError`` with code ``ArchiveStorageError/Code/invalidConfiguration``
    ///   when `limit` is negative, ``ArchiveStorageError/Code/fileSystem``, or
    ///   ``ArchiveStorageError/Code/database`` and ``ArchiveStorageError/Code/corruptStore`` on the
    ///   SQLite backend.
    public func keys(
        withPrefix prefix: String = "",
        after: String? = nil,
        limit: Int
    ) throws(ArchiveStorageError) -> [String] {
        guard limit >= 0 else {
            throw ArchiveStorageError(.invalidConfiguration, reason: "a page of keys has a negative limit (\(limit))")
        }
        return try self.listKeys(
            in: KeyPrefixRange(prefix: prefix.utf8),
            after: after.map { Array($0.utf8) },
            limit: limit
        )
    }

    /// The number of unexpired entries whose key starts with `prefix`: as many as
    /// ``keys(withPrefix:after:limit:)-1host`` lists in all its pages.
    ///
    /// Damaged entries are counted as ``keys()-7eby2`` lists them. On the SQLite backend, a row
    /// whose key is not UTF-8 is counted although no page lists it; the store never writes one,
    /// and ``moveCorruptEntriesAside()-7lfks`` moves it to the quarantine table.
    ///
    /// - Parameter prefix: The start every counted key has, in UTF-8 bytes, compared as
    ///   ``keys(withPrefix:after:limit:)-1host`` compares it; the empty string counts all entries.
    /// - Returns: The number of entries.
    /// - Complexity: On the SQLite backend, one `count(*)` query over the keys in range, which
    ///   visits each of them in the index. On the files backend, as ``keys()-7eby2``: reads the
    ///   header of every entry whose key has the prefix.
    /// - Throws: ``ArchiveStorageError`` with code ``ArchiveStorageError/Code/fileSystem``, or
    ///   ``ArchiveStorageError/Code/database`` and ``ArchiveStorageError/Code/corruptStore`` on the
    ///   SQLite backend.
    public func count(withPrefix prefix: String = "") throws(ArchiveStorageError) -> Int {
        try self.checkNotMoved()
        let range = KeyPrefixRange(prefix: prefix.utf8)
        let now = self.now()
        return try self.entries.count(in: range, unexpiredAt: now, in: self)
    }

    /// Up to `limit` keys of unexpired entries in `range` after `after`, in byte order.
    private func listKeys(
        in range: KeyPrefixRange,
        after: [UInt8]?,
        limit: Int
    ) throws(ArchiveStorageError) -> [String] {
        try self.checkNotMoved()
        guard limit > 0 else { return [] }
        let now = self.now()
        return try self.entries.keys(in: range, after: after, unexpiredAt: now, limit: limit, in: self)
    }
}
