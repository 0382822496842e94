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

// Writing rows: each operation is one transaction (`commit`), a rewrite one per page of keys.
extension TableEntryStorage {
    /// Writes the row of `key`, as a batch of one.
    func save<Value>(
        _ value: Value,
        forKey key: String,
        expiration: ArchiveExpiration?,
        in store: ArchiveStore<Value>
    ) throws(ArchiveStorageError) {
        try self.save([(key, value)], expiration: expiration, in: store)
    }

    /// Writes every row in one transaction, deleting those that exceed the disk byte limit, and
    /// evicts if the database then counts more than the limit.
    func save<Value>(
        _ values: [(key: String, value: Value)],
        expiration: ArchiveExpiration?,
        in store: ArchiveStore<Value>
    ) throws(ArchiveStorageError) {
        var rows: [(key: String, row: EntryRow)] = []
        rows.reserveCapacity(values.count)
        for (key, value) in values {
            rows.append((key, try store.entryRow(for: value, key: key, expiration: expiration)))
        }
        let locations = rows.map { EntryLocation(key: $0.key, directory: store.directoryPath) }
        let byteCount = try self.commit(locations: locations, in: store) { writer -> Int? in
            for (key, row) in rows {
                if store.exceedsDiskByteLimit(row.payload.count) {
                    _ = try writer.delete(key: Array(key.utf8))
                } else {
                    try writer.put(row, forKey: key)
                }
            }
            return store.configuration.diskByteLimit == nil ? nil : try writer.diskByteCount().total
        }
        if let byteCount, let limit = store.configuration.diskByteLimit, byteCount > limit { store.evictIfNeeded() }
    }

    /// Deletes the row of `key` in one transaction.
    func remove<Value>(forKey key: String, in store: ArchiveStore<Value>) throws(ArchiveStorageError) {
        let locations = [EntryLocation(key: key, directory: store.directoryPath)]
        try self.commit(locations: locations, in: store) { writer in
            _ = try writer.delete(key: Array(key.utf8))
        }
    }

    /// Deletes every row in one transaction holding every lock stripe, and empties the memory
    /// tier.
    func removeAll<Value>(in store: ArchiveStore<Value>) throws(ArchiveStorageError) {
        let slots = 0..<StoreControlFile.slotCount
        try store.control.withExclusiveLocks(slots: slots) { () throws(ArchiveStorageError) in
            try store.checkNotMoved()
            for slot in slots { store.control.beginWrite(slot: slot) }
            defer { for slot in slots { store.control.endWrite(slot: slot) } }
            _ = try self.table.write { writer in try writer.deleteAll() }
        }
        store.cache.withLock { $0.removeAll() }
    }

    /// The read, `body` and the write in one transaction.
    func update<Value, Result>(
        forKey key: String,
        expiration: ArchiveExpiration?,
        in store: ArchiveStore<Value>,
        _ body: (inout Value?) throws -> Result
    ) throws -> Result {
        let location = EntryLocation(key: key, directory: store.directoryPath)
        typealias Outcome = TableUpdateOutcome<Result>
        let outcome = try self.commit(locations: [location], in: store) { writer -> Outcome in
            let now = store.now()
            var value = store.cachedValue(forKey: key, now: now)
            if value == nil {
                let row: EntryRow?
                do {
                    row = try writer.row(forKey: key)
                } catch let corruption as EntryRowCorruption {
                    return .corrupt(corruption.reason)
                }
                if let row, row.expiry > now {
                    value = try store.decodeValue(of: row, key: key, path: self.table.path)
                }
            }
            let result: Result
            do {
                result = try body(&value)
            } catch {
                return .done(.failure(error))
            }
            let row = try value.map { value throws(ArchiveStorageError) in
                try store.entryRow(for: value, key: key, expiration: expiration)
            }
            if let row, !store.exceedsDiskByteLimit(row.payload.count) {
                try writer.put(row, forKey: key)
            } else {
                _ = try writer.delete(key: Array(key.utf8))
            }
            return .done(.success(result))
        }
        switch outcome {
        case .done(let result):
            if case .success = result { store.evictIfNeeded() }
            return try result.get()
        case .corrupt(let reason):
            // Reported (and moved aside, under that policy) as a read reports it.
            throw self.corruptEntry(key: key, reason: reason, in: store)
        }
    }

    /// Rewrites the outdated rows of `keys`, a transaction per page of keys.
    func rewriteOutdatedEntries<Value>(
        _ keys: [String],
        olderThan current: UInt32,
        in store: ArchiveStore<Value>
    ) throws(ArchiveStorageError) -> [String] {
        var rewritten: [String] = []
        var start = 0
        while start < keys.count {
            let end = min(start + Self.rewritePageSize, keys.count)
            rewritten += try self.rewrite(keys: Array(keys[start..<end]), ifOlderThan: current, in: store)
            start = end
        }
        return rewritten
    }

    /// Rewrites, in one transaction, the rows of `keys` that an older schema version saved, in
    /// the current version and format; returns the keys it rewrote. A damaged row ends the
    /// transaction (committing the rows before it) and is reported as a read reports it.
    private func rewrite<Value>(
        keys: [String],
        ifOlderThan current: UInt32,
        in store: ArchiveStore<Value>
    ) throws(ArchiveStorageError) -> [String] {
        let locations = keys.map { EntryLocation(key: $0, directory: store.directoryPath) }
        typealias Damage = (index: Int, reason: String)
        let (rewritten, damage) = try self.commit(locations: locations, in: store) {
            writer -> ([String], Damage?) in
            var rewritten: [String] = []
            for (index, key) in keys.enumerated() {
                let row: EntryRow?
                do {
                    row = try writer.row(forKey: key)
                } catch let corruption as EntryRowCorruption {
                    return (rewritten, (index, corruption.reason))
                }
                guard let row, row.expiry > store.now(), row.schemaVersion < current else { continue }
                let value = try store.decodeValue(of: row, key: key, path: self.table.path)
                let expiration: ArchiveExpiration =
                    row.expiry.isFinite ? .at(Date(timeIntervalSince1970: row.expiry)) : .never
                try writer.put(try store.entryRow(for: value, key: key, expiration: expiration), forKey: key)
                rewritten.append(key)
            }
            return (rewritten, nil)
        }
        if let damage {
            throw self.corruptEntry(key: keys[damage.index], reason: damage.reason, in: store)
        }
        return rewritten
    }
}

/// How a transaction on one row ended: its result or error, or a damaged row.
enum TableUpdateOutcome<Result> {
    /// What the update's body returned or threw.
    case done(Swift.Result<Result, any Error>)
    /// The row was damaged, for this reason.
    case corrupt(String)
}
