//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-keyed-archive open source project
//
// Licensed under Apache License v2.0
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The file name of a store's database on the SQLite backend.
let entryTableFileName = "entries.sqlite"

/// A store's entries as rows of one table: what ``ArchiveStore`` needs of the SQLite backend.
///
/// A protocol, so that the store's code is the same whether the `SQLite` trait (and with it
/// ``SQLiteEntryTable``) is built or not.
protocol EntryTable: Sendable {
    /// The database file.
    var path: String { get }

    /// The row of `key`, checked against its checksum (a damaged row is a failure); `nil` when
    /// there is none.
    func row(forKey key: String) throws(ArchiveStorageError) -> Result<EntryRow, EntryRowCorruption>?

    /// Calls `body` with the row of `key`, checked against its checksum, its payload read where it
    /// lies in the database connection's memory (valid only during the call); `nil` when there is
    /// none, a ``EntryRowCorruption`` (and `body` is not called) when the row is damaged.
    /// - Throws: What `body` throws; the database's errors.
    func withRow<R>(
        forKey key: String,
        _ body: (EntryRowView) throws(ArchiveStorageError) -> R
    ) throws(ArchiveStorageError) -> Result<R, EntryRowCorruption>?

    /// The expiry of the row of `key`, without reading its payload (an expiry of another type is
    /// a failure); `nil` when there is none.
    func expiry(forKey key: String) throws(ArchiveStorageError) -> Result<Double, EntryRowCorruption>?

    /// Runs `body` in one write transaction (`BEGIN IMMEDIATE`: one writer at a time across
    /// threads and processes), committed when it returns and rolled back when it throws.
    /// - Throws: What `body` throws if it is an ``ArchiveStorageError``; any other error as one.
    func write<R>(_ body: (any EntryTableWriter) throws -> R) throws(ArchiveStorageError) -> R

    /// Up to `limit` keys of rows that expired at `now`, after the position `after` (an expiry and
    /// a key) in expiry order.
    func expiredRows(
        at now: Double,
        after: (expiry: Double, key: [UInt8])?,
        limit: Int
    ) throws(ArchiveStorageError) -> [(expiry: Double, key: [UInt8])]

    /// Up to `limit` keys after `after`, in byte order, each with what is wrong with its row
    /// (`nil` when it is intact: the types of its columns, its checksum, a UTF-8 key).
    func scan(after: [UInt8]?, limit: Int) throws(ArchiveStorageError) -> [(key: [UInt8], damage: String?)]

    /// Gives the pages of removed rows back to the file system, in bounded steps, then empties
    /// the WAL file as far as readers allow.
    func reclaimSpace() throws(ArchiveStorageError)

    /// Closes the database connections, waiting for the calls that use them; every later call
    /// throws ``ArchiveStorageError/Code/storeClosed``.
    func close()

    // MARK: Integrity (verifyIntegrity())

    /// Runs SQLite's `PRAGMA integrity_check` on the whole database, changing nothing.
    /// - Throws: ``ArchiveStorageError/Code/corruptStore`` naming the file, with the first of
    ///   SQLite's messages, when the check fails; ``ArchiveStorageError/Code/database``.
    func checkIntegrity() throws(ArchiveStorageError)

    // MARK: Listing

    /// Up to `limit` keys of the rows in `range` that expire after `now`, strictly after `after`
    /// (a key's UTF-8 bytes) when it is given, in the byte order of their UTF-8 forms. Only `BLOB`
    /// keys are in a range; one that is not UTF-8 is skipped, and fewer than `limit` keys means
    /// there are no more.
    func keys(
        in range: KeyPrefixRange,
        after: [UInt8]?,
        unexpiredAt now: Double,
        limit: Int
    ) throws(ArchiveStorageError) -> [String]

    /// The number of rows in `range` that expire after `now`, in one query.
    func count(in range: KeyPrefixRange, unexpiredAt now: Double) throws(ArchiveStorageError) -> Int

    // MARK: Moving a store to the files backend (StoreMove)

    /// Up to `limit` rows after the key `after`, in byte order of their keys, each checked as
    /// ``row(forKey:)`` checks it.
    func rows(
        after: [UInt8]?,
        limit: Int
    ) throws(ArchiveStorageError) -> [(key: [UInt8], row: Result<EntryRow, EntryRowCorruption>)]

    /// The number of rows that ``rows(after:limit:)`` does not list: those of the quarantine
    /// table, and rows whose key is not a blob (the store never writes one).
    func unlistedRowCount() throws(ArchiveStorageError) -> Int

    /// Writes a copy of the whole database, as a new database file at `path` (`VACUUM INTO`).
    func copy(toPath path: String) throws(ArchiveStorageError)

    // MARK: Disk byte limit (eviction)

    /// What the disk byte limit counts: every payload (a total the database keeps up to date),
    /// the free pages and the WAL file.
    func diskByteCount() throws(ArchiveStorageError) -> DiskByteCount

    /// Up to `limit` rows to evict first: those expired at `now` in expiry order, then every row
    /// in order of its last save or recorded load, least recent first; each row once.
    func evictionCandidates(expiredAt now: Double, limit: Int) throws(ArchiveStorageError) -> [EvictionCandidate]
}

/// What a write transaction of an ``EntryTable`` can do.
protocol EntryTableWriter {
    /// The row of `key`, as ``EntryTable/row(forKey:)`` reads it.
    /// - Throws: ``EntryRowCorruption`` for a damaged row; SQLite's errors.
    func row(forKey key: String) throws -> EntryRow?
    /// Inserts or replaces the row of `key`.
    func put(_ row: EntryRow, forKey key: String) throws
    /// Deletes the row of `key`; `false` when there was none.
    func delete(key: [UInt8]) throws -> Bool
    /// Deletes every row.
    func deleteAll() throws -> Int
    /// Moves the row of `key` to the quarantine table, with `reason`; `false` when there was none.
    func quarantine(key: [UInt8], reason: String, at now: Double) throws -> Bool

    // MARK: Disk byte limit (eviction)

    /// ``EntryTable/diskByteCount()``, in this transaction (the WAL as it was before it).
    func diskByteCount() throws -> DiskByteCount
    /// Raises the recency of the row of `key` to `time`, if it is older; no effect on a missing row.
    func noteAccess(key: String, at time: Double) throws
    /// Deletes the row of `candidate` if it is still what made it a candidate: expired at `now`,
    /// or not saved nor loaded since `candidate.accessedAt`; whether it did.
    func evict(_ candidate: EvictionCandidate, now: Double) throws -> Bool
}

/// The bytes of a database that the disk byte limit counts.
struct DiskByteCount: Sendable, Equatable {
    /// The bytes of every payload.
    var payloads: Int
    /// The bytes that no entry holds: the database's free pages and its WAL file, which
    /// ``EntryTable/reclaimSpace()`` gives back.
    var reclaimable: Int

    /// Everything the limit counts.
    var total: Int { self.payloads + self.reclaimable }
}

/// A row that an eviction may remove.
struct EvictionCandidate: Sendable {
    /// The key's bytes.
    var key: [UInt8]
    /// The payload's size.
    var byteCount: Int
    /// The row's recency: the store clock's time of its last save or recorded load.
    var accessedAt: Double
    /// Whether it was found expired.
    var isExpired: Bool
}

/// One entry as a row: everything but the key.
struct EntryRow: Sendable {
    /// The payload's format identifier.
    var formatIdentifier: String
    /// The store's schema version when the entry was saved.
    var schemaVersion: UInt32
    /// Seconds since 1970 (`infinity`: never).
    var expiry: Double
    /// The encoded value.
    var payload: Data
    /// The store clock's time of the entry's last save or recorded load, in seconds since 1970:
    /// the order of eviction under a disk byte limit. 0 (the least recent) when unknown.
    var accessedAt: Double = 0

    /// The entry in the shape the files backend decodes.
    func entry(key: String) -> EntryFormat.Entry {
        EntryFormat.Entry(
            prefix: EntryFormat.Prefix(
                version: EntryFormat.version,
                formatIdentifierLength: self.formatIdentifier.utf8.count,
                schemaVersion: self.schemaVersion,
                keyLength: key.utf8.count,
                expiry: self.expiry,
                payloadLength: UInt64(self.payload.count)
            ),
            formatIdentifier: self.formatIdentifier,
            key: Array(key.utf8),
            payload: self.payload
        )
    }
}

/// One entry as a row read in place: everything but the key, its payload the database's bytes.
struct EntryRowView {
    /// The payload's format identifier.
    var formatIdentifier: String
    /// The store's schema version when the entry was saved.
    var schemaVersion: UInt32
    /// Seconds since 1970 (`infinity`: never).
    var expiry: Double
    /// The encoded value, valid only during the call that was given the view.
    var payload: UnsafeRawBufferPointer

    /// The row, with a copy of its payload.
    var row: EntryRow {
        EntryRow(
            formatIdentifier: self.formatIdentifier,
            schemaVersion: self.schemaVersion,
            expiry: self.expiry,
            payload: Data(self.payload)
        )
    }
}

/// A row whose columns are not what the store wrote: a wrong type, or a payload that fails its
/// checksum.
struct EntryRowCorruption: Error, Sendable {
    var reason: String
}
