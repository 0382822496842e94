//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-keyed-archive open source project
//
// Licensed under Apache License v2.0
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import KeyedArchiving

/// The SQLite backend: each entry is a row of an ``EntryTable``.
///
/// Writers take the lock stripes of the entries they write (in ascending order, then the
/// database's write lock), mark their generation slots as being written, commit, and only then
/// move the slots' generations on: a reader in any process that noted a generation before the
/// commit sees it change, so the memory tier never keeps a value a commit replaced.
///
/// Not behind the `SQLite` trait, like ``EntryTable``: without it, no table is ever opened.
struct TableEntryStorage: EntryStorage {
    /// The store's entries.
    let table: any EntryTable

    /// How many rows one transaction of a purge, a scan or an eviction handles at most.
    static var pageSize: Int { 1000 }

    /// How many rows one transaction of `rewriteOutdatedEntries` reads and rewrites at most: few
    /// enough that it holds the write lock briefly, since it decodes and encodes each value.
    static var rewritePageSize: Int { 100 }

    /// The SQLite backend.
    var backend: ArchiveStoreBackend { ArchiveStoreBackend(kind: .sqlite) }

    /// The row of `key`, checked; `nil` when there is none. Its errors name the database.
    func readEntry<Value>(
        key: String,
        location: EntryLocation,
        isLocked: Bool,
        in store: ArchiveStore<Value>
    ) throws(ArchiveStorageError) -> (entry: EntryFormat.Entry, byteCount: Int, path: String)? {
        switch try self.table.row(forKey: key) {
        case nil:
            return nil
        case .success(let row)?:
            return (row.entry(key: key), row.payload.count, self.table.path)
        case .failure(let corruption)?:
            throw self.corruptEntry(key: key, reason: corruption.reason, in: store)
        }
    }

    /// The row of `key`, checked and, when unexpired at `now`, decoded on the reader connection
    /// from the database's own bytes: the payload is never copied.
    func loadEntry<Value>(
        key: String,
        location: EntryLocation,
        now: Double,
        isLocked: Bool,
        in store: ArchiveStore<Value>
    ) throws(ArchiveStorageError) -> LoadedEntry<Value>? {
        let path = self.table.path
        let read = try self.table.withRow(forKey: key) { row throws(ArchiveStorageError) -> LoadedEntry<Value>? in
            guard row.expiry > now else { return nil }
            let value = try store.decodeValue(
                payload: row.payload,
                formatIdentifier: row.formatIdentifier,
                schemaVersion: row.schemaVersion,
                key: key,
                path: path
            )
            return LoadedEntry(value: value, expiry: row.expiry, byteCount: row.payload.count)
        }
        switch read {
        case nil:
            return nil
        case .success(let loaded)?:
            return loaded
        case .failure(let corruption)?:
            throw self.corruptEntry(key: key, reason: corruption.reason, in: store)
        }
    }

    /// The expiry column of the row of `key`, without its payload.
    func expiry<Value>(
        forKey key: String,
        location: EntryLocation,
        in store: ArchiveStore<Value>
    ) throws(ArchiveStorageError) -> Double? {
        switch try self.table.expiry(forKey: key) {
        case nil:
            return nil
        case .success(let expiry)?:
            return expiry
        case .failure(let corruption)?:
            throw self.corruptEntry(key: key, reason: corruption.reason, in: store)
        }
    }

    /// One range query on the primary key.
    func keys<Value>(
        in range: KeyPrefixRange,
        after: [UInt8]?,
        unexpiredAt now: Double,
        limit: Int,
        in store: ArchiveStore<Value>
    ) throws(ArchiveStorageError) -> [String] {
        try self.table.keys(in: range, after: after, unexpiredAt: now, limit: limit)
    }

    /// One `count(*)` query over the keys in range.
    func count<Value>(
        in range: KeyPrefixRange,
        unexpiredAt now: Double,
        in store: ArchiveStore<Value>
    ) throws(ArchiveStorageError) -> Int {
        try self.table.count(in: range, unexpiredAt: now)
    }

    /// A ``ArchiveStorageError/Code/corruptEntry`` error for the row of `key`, naming the
    /// database; under the ``ArchiveStoreConfiguration/CorruptEntryPolicy/moveAside`` policy,
    /// moves the row to the quarantine table first.
    func corruptEntry<Value>(key: String?, reason: String, in store: ArchiveStore<Value>) -> ArchiveStorageError {
        var reason = reason
        if store.configuration.corruptEntryPolicy.isMoveAside, let key {
            do {
                if try self.quarantine(key: Array(key.utf8), reason: reason, in: store) {
                    reason += "; moved to the quarantine table"
                }
            } catch {
                reason += "; could not move it to the quarantine table: \(error)"
            }
        }
        return ArchiveStorageError(.corruptEntry, key: key, path: self.table.path, reason: reason)
    }

    /// Moves the row of `key` (its UTF-8 bytes) to the quarantine table if it is still damaged
    /// once the write lock is held (a save may have replaced it since it was found); whether it
    /// did. A key that is not UTF-8 is damage in itself: the store never writes one.
    func quarantine<Value>(
        key: [UInt8],
        reason: String,
        in store: ArchiveStore<Value>
    ) throws(ArchiveStorageError) -> Bool {
        let name = validUTF8String(key)
        let location = EntryLocation(key: name ?? String(decoding: key, as: UTF8.self), directory: store.directoryPath)
        return try self.commit(locations: [location], in: store) { writer in
            if let name {
                do {
                    _ = try writer.row(forKey: name)
                    return false
                } catch is EntryRowCorruption {}
            }
            return try writer.quarantine(key: key, reason: reason, at: store.now())
        }
    }

    /// Runs `body` in one transaction of the table, holding the lock stripes of `locations` and
    /// moving their generations on once it committed.
    func commit<Value, R>(
        locations: [EntryLocation],
        in store: ArchiveStore<Value>,
        _ body: (any EntryTableWriter) throws -> R
    ) throws(ArchiveStorageError) -> R {
        let slots = Set(locations.map(\.slot))
        return try store.control.withExclusiveLocks(slots: slots) { () throws(ArchiveStorageError) -> R in
            try store.checkNotMoved()
            for slot in slots { store.control.beginWrite(slot: slot) }
            defer {
                for slot in slots { store.control.endWrite(slot: slot) }
                store.cache.withLock { cache in
                    for case let key? in locations.map(\.key) { cache.removeValue(forKey: key) }
                }
            }
            return try self.table.write(body)
        }
    }

    /// Closes the database connections.
    func close() {
        self.table.close()
    }

    /// None: a SQLite store's writers leave no temporary file (a move's are among its leftovers).
    func removeStaleTemporaryFiles(in directory: String) throws(ArchiveStorageError) -> Int {
        0
    }

    /// The entry files, temporary files and scratch database that an interrupted move left.
    func moveLeftovers(in directory: String) throws(ArchiveStorageError) -> [String] {
        try StoreMove.leftovers(in: directory, storeIsSQLite: true)
    }

    /// Never: a move away from SQLite changes the move count, which every call checks.
    func isSuperseded(in directory: String) -> Bool {
        false
    }
}
