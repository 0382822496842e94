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
        if let table = self.table { return try self.tableSave(values, expiration: expiration, in: table) }
        var locations: [EntryLocation] = []
        var contents: [[UInt8]] = []
        var oversized: [String] = []
        locations.reserveCapacity(values.count)
        contents.reserveCapacity(values.count)
        for (key, value) in values {
            let bytes = try self.entryBytes(for: value, key: key, expiration: expiration)
            if self.exceedsDiskByteLimit(bytes.count) {
                oversized.append(key)
                continue
            }
            locations.append(EntryLocation(key: key, directory: self.directoryPath))
            contents.append(bytes)
        }
        for key in oversized { try self.remove(forKey: key) }
        let temporaries = try DurableFile.writeTemporaries(
            inDirectory: self.directoryPath,
            contents: contents,
            durable: self.configuration.isDurable
        )
        // One lock acquisition per stripe, not per entry.
        let slots = locations.map(\.slot)
        let order = slots.indices.sorted {
            slots[$0] % StoreControlFile.stripeCount < slots[$1] % StoreControlFile.stripeCount
        }
        var published = Set<Int>()
        do throws(ArchiveStorageError) {
            var start = 0
            while start < order.count {
                let stripe = slots[order[start]] % StoreControlFile.stripeCount
                var end = start
                while end < order.count, slots[order[end]] % StoreControlFile.stripeCount == stripe {
                    end += 1
                }
                let group = order[start..<end]
                try self.control.withExclusiveLock(slot: slots[order[start]]) {
                    () throws(ArchiveStorageError) in
                    for index in group {
                        published.insert(index)
                        try self.publish(temporaries[index], at: locations[index])
                    }
                }
                start = end
            }
        } catch {
            for index in temporaries.indices where !published.contains(index) {
                _ = try? DirectoryListing.removeFile(atPath: temporaries[index])
            }
            throw error
        }
        if self.configuration.isDurable {
            try DurableFile.syncDirectory(ofPath: self.directoryPath + "/" + StoreControlFile.fileName)
        }
        self.evictIfNeeded()
    }

    /// `entries` with one pair per key, compared byte for byte: the last value of a repeated key,
    /// where its key first appeared.
    static func distinctEntries(
        _ entries: some Sequence<(key: String, value: Value)>
    ) -> [(key: String, value: Value)] {
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
