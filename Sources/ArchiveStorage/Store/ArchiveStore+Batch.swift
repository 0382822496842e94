//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-keyed-archive open source project
//
// Licensed under Apache License v2.0
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

extension ArchiveStore {
    /// Stores many values with one flush: much faster than saving them one by one.
    ///
    /// On the files backend, every entry is written to a temporary file, all of them are flushed,
    /// then each is renamed into place under its lock, and the directory is flushed once. Each
    /// entry is replaced atomically, but the batch as a whole is not: after a crash, some entries
    /// may hold their new values and others their old ones. On the SQLite backend the batch is one
    /// transaction: after a crash, all of it or none of it is stored.
    ///
    /// Keys are compared byte for byte, as everywhere in the store: `"é"` and `"e\u{301}"` are two
    /// entries. Pass pairs to keep both; a `Dictionary` argument has already merged them, because
    /// `String` equality is canonical equivalence. When a key appears twice, its last value is
    /// stored.
    ///
    /// Under a ``ArchiveStoreConfiguration/diskByteLimit``, a value larger than the limit is not
    /// kept (its key's previous entry is removed), and the save evicts as a single save does.
    ///
    /// - Parameters:
    ///   - entries: The keys and values to store, as pairs or a dictionary.
    ///   - expiration: When the entries expire; `nil` for the store's
    ///     ``ArchiveStoreConfiguration/defaultExpiration``.
    /// - Throws: ``ArchiveStorageError`` with code ``ArchiveStorageError/Code/encodingFailed``
    ///   (then nothing was written) or ``ArchiveStorageError/Code/fileSystem``.
    public func save(
        _ entries: some Sequence<(key: String, value: Value)>,
        expiration: ArchiveExpiration? = nil
    ) throws(ArchiveStorageError) {
        let values = Self.distinctEntries(entries)
        guard !values.isEmpty else { return }
        try self.checkNotMoved()
        try self.entries.save(values, expiration: expiration, in: self)
    }

    /// `entries` with one pair per key, compared byte for byte: the last value of a repeated key,
    /// where its key first appeared.
    static func distinctEntries(
        _ entries: some Sequence<(key: String, value: Value)>
    ) -> [(key: String, value: Value)] {
        // A dictionary's keys are distinct already: keys with equal bytes are equal strings.
        if let dictionary = entries as? [String: Value] { return Array(dictionary) }
        var result: [(key: String, value: Value)] = []
        var positions: [[UInt8]: Int] = [:]
        for (key, value) in entries {
            let bytes = Array(key.utf8)
            if let position = positions[bytes] {
                result[position].value = value
            } else {
                positions[bytes] = result.count
                result.append((key, value))
            }
        }
        return result
    }
}
