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

// Reading rows for a move to the files backend, and building a database for a move to SQLite
// (`StoreMove`).
extension SQLiteEntryTable {
    // MARK: Moving a store between backends (StoreMove)

    func rows(
        after: [UInt8]?,
        limit: Int
    ) throws(ArchiveStorageError) -> [(key: [UInt8], row: Result<EntryRow, EntryRowCorruption>)] {
        try self.access {
            try self.readers.transaction { db in
                // `key >= X''` for the first page: the empty key is a row too.
                let statement = try db.cachedStatement(
                    sql: """
                        SELECT key, format, schemaVersion, expiry, checksum, payload FROM entry
                        WHERE key \(after == nil ? ">=" : ">") ? ORDER BY key LIMIT ?
                        """
                )
                var result: [(key: [UInt8], row: Result<EntryRow, EntryRowCorruption>)] = []
                let rows = try Row.fetchCursor(statement, arguments: [Data(after ?? []), limit])
                while let row = try rows.next() {
                    let values = Array(row.databaseValues)
                    guard case .blob(let key)? = values.first?.storage else { continue }
                    do throws(EntryRowCorruption) {
                        result.append((Array(key), .success(try Self.entryRow(Array(values.dropFirst())))))
                    } catch {
                        result.append((Array(key), .failure(error)))
                    }
                }
                return result
            }
        }
    }

    func unlistedRowCount() throws(ArchiveStorageError) -> Int {
        try self.access {
            try self.readers.transaction { db in
                let sql = """
                    SELECT (SELECT count(*) FROM quarantine) + (SELECT count(*) FROM entry WHERE typeof(key) != 'blob')
                    """
                return try Int.fetchOne(db, sql: sql) ?? 0
            }
        }
    }

    func copy(toPath path: String) throws(ArchiveStorageError) {
        try self.access {
            try self.writer.writeWithoutTransaction { db in try db.execute(sql: "VACUUM INTO ?", arguments: [path]) }
        }
    }

    /// A new database laid out as a store's, written at a temporary path by a move from the
    /// files backend.
    ///
    /// The file is scratch until the move flushes and renames it, so it is written without a
    /// journal or flushes (a crash leaves a file to delete); once closed it is complete, in WAL
    /// mode, with no `-wal` or `-shm` file.
    final class Builder {
        let path: String
        private let queue: DatabaseQueue

        /// Creates the database at `path`, with the store's tables.
        init(path: String) throws(ArchiveStorageError) {
            self.path = path
            var configuration = Configuration()
            configuration.label = "ArchiveStore.move"
            configuration.prepareDatabase { db in
                try db.execute(sql: "PRAGMA auto_vacuum = INCREMENTAL")
                try db.execute(sql: "PRAGMA journal_mode = OFF")
                try db.execute(sql: "PRAGMA synchronous = OFF")
            }
            do {
                self.queue = try DatabaseQueue(path: path, configuration: configuration)
                try SQLiteEntryTable.migrator.migrate(self.queue)
            } catch {
                throw SQLiteEntryTable.failure(error, path: path)
            }
        }

        /// Runs `body` in one transaction.
        func write(_ body: (any EntryTableWriter) throws -> Void) throws(ArchiveStorageError) {
            do {
                try self.queue.write { db in try body(Writer(db: db, path: self.path)) }
            } catch {
                throw SQLiteEntryTable.failure(error, path: self.path)
            }
        }

        /// Turns the database to WAL mode (a store's, so that opening it writes nothing), and
        /// closes it.
        func close() throws(ArchiveStorageError) {
            do {
                try self.queue.writeWithoutTransaction { db in
                    guard try String.fetchOne(db, sql: "PRAGMA journal_mode = WAL") == "wal" else {
                        throw ArchiveStorageError(.database, path: self.path, reason: "could not turn on WAL mode")
                    }
                }
                try self.queue.close()
            } catch {
                throw SQLiteEntryTable.failure(error, path: self.path)
            }
        }
    }
}
#endif
