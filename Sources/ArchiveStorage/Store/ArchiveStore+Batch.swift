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
    /// Every entry is written to a temporary file, all of them are flushed, then each is renamed
    /// into place under its lock, and the directory is flushed once. Each entry is replaced
    /// atomically, but the batch as a whole is not: after a crash, some entries may hold their
    /// new values and others their old ones.
    ///
    /// - Parameters:
    ///   - values: The values to store, by key.
    ///   - expiration: When the entries expire; `nil` for the store's
    ///     ``ArchiveStoreConfiguration/defaultExpiration``.
    /// Under a ``ArchiveStoreConfiguration/diskByteLimit``, a value larger than the limit is not
    /// kept (its key's previous entry is removed), and the save evicts as a single save does.
    ///
    /// - Throws: ``ArchiveStorageError`` with code ``ArchiveStorageError/Code/encodingFailed``
    ///   (then nothing was written) or ``ArchiveStorageError/Code/fileSystem``.
    public func save(_ values: [String: Value], expiration: ArchiveExpiration? = nil) throws(ArchiveStorageError) {
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
}
