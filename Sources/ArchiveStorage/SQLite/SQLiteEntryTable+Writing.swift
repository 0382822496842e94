//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-keyed-archive open source project
//
// Licensed under Apache License v2.0
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#if SQLite
import GRDB

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

// Writing: the transaction's writer, and what the disk byte limit counts.
extension SQLiteEntryTable {
    func write<R>(_ body: (any EntryTableWriter) throws -> R) throws(ArchiveStorageError) -> R {
        try self.checkWritable()
        let result = try self.access { try self.writer.write { db in try body(Writer(db: db, path: self.path)) } }
        try self.checkpointIfLarge()
        return result
    }

    /// The writer of one transaction.
    struct Writer: EntryTableWriter {
        let db: Database
        /// The database file's path.
        let path: String

        func row(forKey key: String) throws -> EntryRow? {
            try SQLiteEntryTable.row(forKey: key, in: self.db)
        }

        func put(_ row: EntryRow, forKey key: String) throws {
            let statement = try self.db.cachedStatement(
                sql: """
                    INSERT INTO entry (key, format, schemaVersion, expiry, checksum, payload, accessedAt)
                    VALUES (?, ?, ?, ?, ?, ?, ?)
                    ON CONFLICT (key) DO UPDATE SET
                        format = excluded.format, schemaVersion = excluded.schemaVersion, expiry = excluded.expiry,
                        checksum = excluded.checksum, payload = excluded.payload, accessedAt = excluded.accessedAt
                    """
            )
            let expiry: Double? = row.expiry.isFinite ? row.expiry : nil
            // Bound for this execution only: GRDB then hands SQLite the payload's bytes where they
            // lie (`SQLITE_STATIC`) instead of a copy (`SQLITE_TRANSIENT`, `setUncheckedArguments`).
            try statement.execute(arguments: [
                Data(key.utf8), row.formatIdentifier, Int64(row.schemaVersion), expiry,
                Int64(CRC32C.checksum(row.payload)), row.payload, row.accessedAt,
            ])
        }

        func delete(key: [UInt8]) throws -> Bool {
            let statement = try self.db.cachedStatement(sql: "DELETE FROM entry WHERE key = ?")
            try statement.execute(arguments: [Data(key)])
            return self.db.changesCount > 0
        }

        func deleteAll() throws -> Int {
            try self.db.execute(sql: "DELETE FROM entry")
            return self.db.changesCount
        }

        func quarantine(key: [UInt8], reason: String, at now: Double) throws -> Bool {
            let copy = try self.db.cachedStatement(
                sql: """
                    INSERT INTO quarantine (key, format, schemaVersion, expiry, checksum, payload, reason, movedAt)
                    SELECT key, format, schemaVersion, expiry, checksum, payload, ?, ? FROM entry WHERE key = ?
                    """
            )
            try copy.execute(arguments: [reason, now, Data(key)])
            guard self.db.changesCount > 0 else { return false }
            return try self.delete(key: key)
        }

        func diskByteCount() throws -> DiskByteCount {
            try SQLiteEntryTable.diskByteCount(in: self.db, path: self.path)
        }

        func noteAccess(key: String, at time: Double) throws {
            let statement = try self.db.cachedStatement(
                sql: "UPDATE entry SET accessedAt = ? WHERE key = ? AND accessedAt < ?"
            )
            try statement.execute(arguments: [time, Data(key.utf8), time])
        }

        func evict(_ candidate: EvictionCandidate, now: Double) throws -> Bool {
            let statement =
                candidate.isExpired
                ? try self.db.cachedStatement(
                    sql: "DELETE FROM entry WHERE key = ? AND expiry IS NOT NULL AND expiry <= ?"
                )
                : try self.db.cachedStatement(sql: "DELETE FROM entry WHERE key = ? AND accessedAt <= ?")
            try statement.execute(arguments: [Data(candidate.key), candidate.isExpired ? now : candidate.accessedAt])
            return self.db.changesCount > 0
        }
    }

    /// The total payload size the `meta` triggers keep, the free pages of `db` as its snapshot
    /// sees them, and the size of the WAL file of the database at `path`.
    static func diskByteCount(in db: Database, path: String) throws -> DiskByteCount {
        let payloads = try db.cachedStatement(sql: "SELECT value FROM meta WHERE name = 'byteCount'")
        let freePages = try db.cachedStatement(sql: "PRAGMA freelist_count")
        let pageSize = try db.cachedStatement(sql: "PRAGMA page_size")
        // At most 2^32 pages of at most 64 KiB.
        let freeBytes = try (Int.fetchOne(freePages) ?? 0) * (Int.fetchOne(pageSize) ?? 0)
        let walBytes = DirectoryListing.fileSize(atPath: path + "-wal") ?? 0
        return DiskByteCount(payloads: try Int.fetchOne(payloads) ?? 0, reclaimable: freeBytes + walBytes)
    }
}
#endif
