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

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

// The operations of a store on the SQLite backend, whose entries are rows of an `EntryTable`.
//
// Writers take the lock stripes of the entries they write (in ascending order, then the database's
// write lock), mark their generation slots as being written, commit, and only then move the
// slots' generations on: a reader in any process that noted a generation before the commit sees
// it change, so the memory tier never keeps a value a commit replaced.
extension ArchiveStore {
    /// Opens the entry table of a store whose directory holds one, or of a new store on the
    /// SQLite backend; `nil` for a store on the files backend.
    ///
    /// An existing store keeps its backend: a database file means SQLite; a control file without
    /// one means files (every files store has one); only an empty directory takes `backend`.
    /// `tracksByteCount`: the store has a disk byte limit (see `SQLiteEntryTable.trackByteCount()`).
    /// The table's statements are operations of `suspension`.
    static func openTable(
        directory: String,
        backend: ArchiveStoreBackend,
        isDurable: Bool,
        tracksByteCount: Bool,
        suspension: StoreSuspension
    ) throws(ArchiveStorageError) -> (any EntryTable)? {
        let hasDatabase = DirectoryListing.fileExists(atPath: directory + "/" + entryTableFileName)
        let hasControl = DirectoryListing.fileExists(atPath: directory + "/" + StoreControlFile.fileName)
        guard hasDatabase || (!hasControl && backend.kind == .sqlite) else { return nil }
        #if SQLite
        return try SQLiteEntryTable(
            directory: directory,
            isDurable: isDurable,
            tracksByteCount: tracksByteCount,
            suspension: suspension
        )
        #else
        throw ArchiveStorageError(
            .invalidConfiguration,
            path: directory + "/" + entryTableFileName,
            reason: "the store uses the SQLite backend, which this build leaves out (enable the package's SQLite trait)"
        )
        #endif
    }

    /// The file an entry's errors name: its own file, or the store's database.
    func entryPath(_ location: EntryLocation) -> String {
        self.table?.path ?? location.path
    }

    /// The entry of `key` in `table`, checked; `nil` when there is none.
    func readRow(
        key: String,
        location: EntryLocation,
        in table: any EntryTable
    ) throws(ArchiveStorageError) -> (EntryFormat.Entry, Int)? {
        switch try table.row(forKey: key) {
        case nil:
            return nil
        case .success(let row)?:
            return (row.entry(key: key), row.payload.count)
        case .failure(let corruption)?:
            throw self.corruptEntry(key: key, location: location, reason: corruption.reason, isLocked: false)
        }
    }

    /// Runs `body` in one transaction of `table`, holding the lock stripes of `locations` and
    /// moving their generations on once it committed.
    func commit<R>(
        _ table: any EntryTable,
        locations: [EntryLocation],
        _ body: (any EntryTableWriter) throws -> R
    ) throws(ArchiveStorageError) -> R {
        let slots = Set(locations.map(\.slot))
        return try self.control.withExclusiveLocks(slots: slots) { () throws(ArchiveStorageError) -> R in
            try self.checkNotMoved()
            for slot in slots { self.control.beginWrite(slot: slot) }
            defer {
                for slot in slots { self.control.endWrite(slot: slot) }
                self.cache.withLock { cache in
                    for case let key? in locations.map(\.key) { cache.removeValue(forKey: key) }
                }
            }
            return try table.write(body)
        }
    }

    // MARK: Operations

    func tableSave(
        _ values: [(key: String, value: Value)],
        expiration: ArchiveExpiration?,
        in table: any EntryTable
    )
        throws(ArchiveStorageError)
    {
        var rows: [(key: String, row: EntryRow)] = []
        rows.reserveCapacity(values.count)
        for (key, value) in values {
            rows.append((key, try self.entryRow(for: value, key: key, expiration: expiration)))
        }
        let locations = rows.map { EntryLocation(key: $0.key, directory: self.directoryPath) }
        let byteCount = try self.commit(table, locations: locations) { writer -> Int? in
            for (key, row) in rows {
                if self.exceedsDiskByteLimit(row.payload.count) {
                    _ = try writer.delete(key: Array(key.utf8))
                } else {
                    try writer.put(row, forKey: key)
                }
            }
            return self.configuration.diskByteLimit == nil ? nil : try writer.diskByteCount().total
        }
        if let byteCount, let limit = self.configuration.diskByteLimit, byteCount > limit { self.evictIfNeeded() }
    }

    func tableRemove(keys: [String], in table: any EntryTable) throws(ArchiveStorageError) {
        let locations = keys.map { EntryLocation(key: $0, directory: self.directoryPath) }
        try self.commit(table, locations: locations) { writer in
            for key in keys { _ = try writer.delete(key: Array(key.utf8)) }
        }
    }

    func tableRemoveAll(in table: any EntryTable) throws(ArchiveStorageError) {
        let slots = 0..<StoreControlFile.slotCount
        try self.control.withExclusiveLocks(slots: slots) { () throws(ArchiveStorageError) in
            try self.checkNotMoved()
            for slot in slots { self.control.beginWrite(slot: slot) }
            defer { for slot in slots { self.control.endWrite(slot: slot) } }
            _ = try table.write { writer in try writer.deleteAll() }
        }
        self.cache.withLock { $0.removeAll() }
    }

    /// ``update(forKey:expiration:_:)-4u4g2`` on `table`: the read, `body` and the write in one
    /// transaction.
    func tableUpdate<Result>(
        forKey key: String,
        expiration: ArchiveExpiration?,
        in table: any EntryTable,
        _ body: (inout Value?) throws -> Result
    ) throws -> Result {
        let location = EntryLocation(key: key, directory: self.directoryPath)
        typealias Outcome = TableUpdateOutcome<Result>
        let outcome = try self.commit(table, locations: [location]) { writer -> Outcome in
            let now = self.now()
            var value = self.cachedValue(forKey: key, now: now)
            if value == nil {
                let row: EntryRow?
                do {
                    row = try writer.row(forKey: key)
                } catch let corruption as EntryRowCorruption {
                    return .corrupt(corruption.reason)
                }
                if let row, row.expiry > now {
                    value = try self.decodeValue(of: row.entry(key: key), key: key, path: table.path)
                }
            }
            let result: Result
            do {
                result = try body(&value)
            } catch {
                return .done(.failure(error))
            }
            let row = try value.map { value throws(ArchiveStorageError) in
                try self.entryRow(for: value, key: key, expiration: expiration)
            }
            if let row, !self.exceedsDiskByteLimit(row.payload.count) {
                try writer.put(row, forKey: key)
            } else {
                _ = try writer.delete(key: Array(key.utf8))
            }
            return .done(.success(result))
        }
        switch outcome {
        case .done(let result):
            if case .success = result { self.evictIfNeeded() }
            return try result.get()
        case .corrupt(let reason):
            // Reported (and moved aside, under that policy) as a read reports it.
            throw self.corruptEntry(key: key, location: location, reason: reason, isLocked: false)
        }
    }

    /// Moves the row of `key` (its UTF-8 bytes) to the quarantine table if it is still damaged
    /// once the write lock is held (a save may have replaced it since it was found); whether it
    /// did. A key that is not UTF-8 is damage in itself: the store never writes one.
    func quarantine(key: [UInt8], reason: String, in table: any EntryTable) throws(ArchiveStorageError) -> Bool {
        let name = validUTF8String(key)
        let location = EntryLocation(key: name ?? String(decoding: key, as: UTF8.self), directory: self.directoryPath)
        return try self.commit(table, locations: [location]) { writer in
            if let name {
                do {
                    _ = try writer.row(forKey: name)
                    return false
                } catch is EntryRowCorruption {}
            }
            return try writer.quarantine(key: key, reason: reason, at: self.now())
        }
    }

    func tablePurgeExpired(at now: Double, in table: any EntryTable) throws(ArchiveStorageError) -> Int {
        var removed = 0
        var position: (expiry: Double, key: [UInt8])?
        // Bounded transactions, so that a purge never holds the write lock for long.
        while true {
            let page = try table.expiredRows(at: now, after: position, limit: Self.tablePageSize)
            guard let last = page.last else { break }
            position = last
            let keys = page.compactMap { validUTF8String($0.key) }
            let locations = keys.map { EntryLocation(key: $0, directory: self.directoryPath) }
            removed += try self.commit(table, locations: locations) { writer in
                var count = 0
                for key in keys {
                    // Checked again in the transaction: a damaged row must not decide a deletion.
                    // Any other error (I/O, a damaged page) is the purge's.
                    let row: EntryRow?
                    do {
                        row = try writer.row(forKey: key)
                    } catch is EntryRowCorruption {
                        continue
                    }
                    guard let row, row.expiry <= now else { continue }
                    if try writer.delete(key: Array(key.utf8)) { count += 1 }
                }
                return count
            }
        }
        if removed > 0 { try table.reclaimSpace() }
        return removed
    }

    /// Calls `visit` with the key of every row of `table`, in byte order, and what is wrong with
    /// the row (`nil` when it is intact), reading a page of rows per read transaction.
    func tableScan(
        in table: any EntryTable,
        _ visit: (_ key: [UInt8], _ damage: String?) throws(ArchiveStorageError) -> Void
    ) throws(ArchiveStorageError) {
        var position: [UInt8]?
        while true {
            let page = try table.scan(after: position, limit: Self.tablePageSize)
            guard let last = page.last else { break }
            position = last.key
            for (key, damage) in page { try visit(key, damage) }
        }
    }

    func tableMoveCorruptEntriesAside(in table: any EntryTable) throws(ArchiveStorageError) -> [String] {
        var moved: [String] = []
        try self.tableScan(in: table) { (key, damage) throws(ArchiveStorageError) in
            guard let damage else { return }
            let reason = "found damaged by moveCorruptEntriesAside(): \(damage)"
            if try self.quarantine(key: key, reason: reason, in: table) {
                moved.append(String(decoding: key, as: UTF8.self))
            }
        }
        return moved
    }

    /// ``verifyIntegrity()`` on `table`: SQLite's integrity check, then every row.
    func tableVerifyIntegrity(in table: any EntryTable) throws(ArchiveStorageError) -> ArchiveIntegrityReport {
        try table.checkIntegrity()
        var checked = 0
        var damaged: [ArchiveIntegrityReport.DamagedEntry] = []
        try self.tableScan(in: table) { (key, damage) throws(ArchiveStorageError) in
            checked += 1
            guard let damage else { return }
            damaged.append(.init(key: String(decoding: key, as: UTF8.self), path: table.path, reason: damage))
        }
        return ArchiveIntegrityReport(checkedEntryCount: checked, damagedEntries: damaged)
    }

    /// How many rows one transaction of a purge or a scan handles at most.
    static var tablePageSize: Int { 1000 }
}

/// How a transaction on one row ended: its result or error, or a damaged row.
enum TableUpdateOutcome<Result> {
    case done(Swift.Result<Result, any Error>)
    case corrupt(String)
}

extension ArchiveStore {
    /// Rewrites, in one transaction, the rows of `keys` that an older schema version saved, in
    /// the current version and format; returns the keys it rewrote. A damaged row ends the
    /// transaction (committing the rows before it) and is reported as a read reports it.
    func tableRewrite(
        keys: [String],
        ifOlderThan current: UInt32,
        in table: any EntryTable
    ) throws(ArchiveStorageError) -> [String] {
        let locations = keys.map { EntryLocation(key: $0, directory: self.directoryPath) }
        typealias Damage = (index: Int, reason: String)
        let (rewritten, damage) = try self.commit(table, locations: locations) { writer -> ([String], Damage?) in
            var rewritten: [String] = []
            for (index, key) in keys.enumerated() {
                let row: EntryRow?
                do {
                    row = try writer.row(forKey: key)
                } catch let corruption as EntryRowCorruption {
                    return (rewritten, (index, corruption.reason))
                }
                guard let row, row.expiry > self.now(), row.schemaVersion < current else { continue }
                let value = try self.decodeValue(of: row.entry(key: key), key: key, path: table.path)
                let expiration: ArchiveExpiration =
                    row.expiry.isFinite ? .at(Date(timeIntervalSince1970: row.expiry)) : .never
                try writer.put(try self.entryRow(for: value, key: key, expiration: expiration), forKey: key)
                rewritten.append(key)
            }
            return (rewritten, nil)
        }
        if let damage {
            throw self.corruptEntry(
                key: keys[damage.index],
                location: locations[damage.index],
                reason: damage.reason,
                isLocked: false
            )
        }
        return rewritten
    }

    /// How many rows one transaction of ``rewriteOutdatedEntries()`` reads and rewrites at most:
    /// few enough that it holds the write lock briefly, since it decodes and encodes each value.
    static var tableRewritePageSize: Int { 100 }
}
