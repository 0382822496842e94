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

/// The entries of a store on the SQLite backend: one row per entry in the table `entry` of the
/// database `entries.sqlite` in the store's directory, in WAL mode.
///
/// Keys are stored as the bytes of their UTF-8 form (a `BLOB` primary key), so that they compare
/// byte for byte whatever characters they hold. Each payload keeps its CRC-32C beside it: a damaged
/// payload is found when it is read, and reported naming its key. Damaged rows can be moved to the
/// table `quarantine`. The layout is versioned with GRDB's `DatabaseMigrator`.
final class SQLiteEntryTable: EntryTable {
    let path: String
    /// The connection of every write; reads go through ``readers``.
    let writer: DatabaseQueue
    /// The read-only connections of every read: point reads and read transactions.
    let readers: SQLiteReaders
    /// Whether the database is on a read-only file system: it is opened read-only, and every
    /// write throws ``ArchiveStorageError/Code/readOnly``.
    let isReadOnly: Bool
    /// The suspension of the store instance that opened the database: no statement runs while it
    /// is suspended, and suspending it interrupts the writer's.
    let suspension: StoreSuspension

    /// Opens the database in `directory`, creating it and its tables if needed.
    ///
    /// Opening an existing database writes nothing to it: the settings of its connections are
    /// theirs alone (see ``connectionPragmas(isDurable:)``), and only a database that lacks a
    /// table, a migration or WAL mode is changed. On a read-only file system the database is
    /// opened read-only (immutable, when its `-shm` file is missing and cannot be created).
    /// - Parameters:
    ///   - isDurable: Whether a commit waits for the disk (`synchronous = FULL`, with
    ///     `fullfsync`), or survives a crash of the process only (`NORMAL`).
    ///   - tracksByteCount: Whether the store has a disk byte limit: the database then keeps the
    ///     total payload size and an index of recency (see ``trackByteCount()``).
    /// - Throws: ``ArchiveStorageError`` with code ``ArchiveStorageError/Code/corruptStore`` when
    ///   the file is not a database, ``ArchiveStorageError/Code/unsupportedSchemaVersion`` when a
    ///   newer release laid out its tables, ``ArchiveStorageError/Code/readOnly`` when a
    ///   read-only database lacks its tables, or ``ArchiveStorageError/Code/database``.
    init(
        directory: String,
        isDurable: Bool,
        tracksByteCount: Bool,
        suspension: StoreSuspension = StoreSuspension()
    ) throws(ArchiveStorageError) {
        let path = directory + "/" + entryTableFileName
        self.path = path
        self.suspension = suspension
        let isReadOnly = DirectoryListing.isOnReadOnlyFileSystem(directory)
        self.isReadOnly = isReadOnly
        // Without a `-shm` file, SQLite opens a WAL database on read-only media only as immutable.
        let location =
            isReadOnly && !DirectoryListing.fileExists(atPath: path + "-shm") ? Self.immutableURI(path) : path
        self.readers = SQLiteReaders(
            path: location,
            count: SQLiteReaders.count(processorCount: ProcessInfo.processInfo.activeProcessorCount)
        )
        var configuration = Configuration()
        configuration.label = "ArchiveStore"
        configuration.readonly = isReadOnly
        // Another process's write transaction is waited for, up to this long.
        configuration.busyMode = .timeout(Self.busyTimeout)
        let pragmas = Self.connectionPragmas(isDurable: isDurable)
        configuration.prepareDatabase { db in
            // The connection's own settings: none of them writes to the database. A
            // `DatabaseQueue` in the default journal mode leaves them alone (a `DatabasePool`
            // sets `synchronous = NORMAL` after this).
            for (name, value) in pragmas { try db.execute(sql: "PRAGMA \(name) = \(value)") }
        }
        do {
            let writer = try DatabaseQueue(path: location, configuration: configuration)
            self.writer = writer
            suspension.addInterrupter { writer.interrupt() }
            try self.layOut(isReadOnly: isReadOnly)
        } catch {
            throw Self.failure(error, path: path)
        }
        if tracksByteCount, !isReadOnly { try self.trackByteCount() }
    }

    /// The settings of the writer connection, in order: `synchronous = FULL` with `fullfsync`
    /// and `checkpoint_fullfsync` (macOS's `F_FULLFSYNC`) when `isDurable`, `NORMAL` otherwise;
    /// the WAL's size limit once it has been checkpointed; and `recursive_triggers`, so that the
    /// `meta` triggers also see the rows an `INSERT OR REPLACE` deletes.
    static func connectionPragmas(isDurable: Bool) -> [(name: String, value: String)] {
        [
            ("synchronous", isDurable ? "FULL" : "NORMAL"),
            ("fullfsync", isDurable ? "ON" : "OFF"),
            ("checkpoint_fullfsync", isDurable ? "ON" : "OFF"),
            ("journal_size_limit", String(Self.walSizeLimit)),
            ("recursive_triggers", "ON"),
        ]
    }

    /// The size the WAL file is truncated to after a checkpoint that emptied it, in bytes.
    static let walSizeLimit = 4 << 20

    /// The values of the pragmas `names` on the writer connection, as SQLite reports them.
    func writerPragmas(_ names: [String]) throws(ArchiveStorageError) -> [String] {
        try self.access {
            try self.writer.inDatabase { db in
                try names.map { name in try String.fetchOne(db, sql: "PRAGMA \(name)") ?? "" }
            }
        }
    }

    /// How long a write waits for another process's write transaction, in seconds.
    static let busyTimeout: TimeInterval = 60

    /// Creates the tables of a new database, or migrates an old one; changes nothing (and takes no
    /// write lock) when the layout is current.
    private func layOut(isReadOnly: Bool) throws {
        let migrator = Self.migrator
        let state = try self.writer.read { db in
            let pageCount = try Int.fetchOne(db, sql: "PRAGMA page_count") ?? 0
            let journalMode = try String.fetchOne(db, sql: "PRAGMA journal_mode") ?? ""
            let superseded = pageCount > 0 ? try migrator.hasBeenSuperseded(db) : false
            let complete = pageCount > 0 ? try migrator.hasCompletedMigrations(db) : false
            return (isNew: pageCount == 0, isWAL: journalMode == "wal", superseded: superseded, complete: complete)
        }
        if state.superseded {
            throw ArchiveStorageError(
                .unsupportedSchemaVersion,
                path: self.path,
                reason: "a newer release laid out this store's tables"
            )
        }
        if state.complete, state.isWAL || isReadOnly { return }
        if isReadOnly {
            throw ArchiveStorageError(
                .readOnly,
                path: self.path,
                reason: "the database lacks its tables, and the file system is read-only"
            )
        }
        if state.isNew {
            // Before the first table: removed rows' pages can then be given back with
            // `PRAGMA incremental_vacuum`. Another process creating the database at the same
            // time does the same; the first table makes the setting final.
            try self.writer.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA auto_vacuum = INCREMENTAL") }
        }
        if !state.isWAL {
            // Persistent: every later connection opens the database in WAL mode.
            let mode = try self.writer.writeWithoutTransaction { db in
                try String.fetchOne(db, sql: "PRAGMA journal_mode = WAL")
            }
            guard mode == "wal" else {
                throw ArchiveStorageError(.database, path: self.path, reason: "could not turn on WAL mode")
            }
        }
        if !state.complete { try migrator.migrate(self.writer) }
    }

    /// An SQLite URI that opens the database at `path` as immutable: read without locks or a
    /// `-shm` file, which only a file that nothing can change allows.
    static func immutableURI(_ path: String) -> String {
        var escaped = ""
        for character in path.unicodeScalars {
            switch character {
            case "%", "?", "#": escaped += "%" + String(character.value, radix: 16, uppercase: true)
            default: escaped.unicodeScalars.append(character)
            }
        }
        return "file:" + escaped + "?immutable=1"
    }

    // MARK: Reading

    func row(forKey key: String) throws(ArchiveStorageError) -> Result<EntryRow, EntryRowCorruption>? {
        try self.withRow(forKey: key) { row in row.row }
    }

    func withRow<R>(
        forKey key: String,
        _ body: (EntryRowView) throws(ArchiveStorageError) -> R
    ) throws(ArchiveStorageError) -> Result<R, EntryRowCorruption>? {
        try self.access {
            try self.readers.read { db -> Result<R, EntryRowCorruption>? in
                do {
                    return try Self.withRow(forKey: key, in: db) { row in try body(row) }.map { .success($0) }
                } catch let corruption as EntryRowCorruption {
                    return .failure(corruption)
                }
            }
        }
    }

    func expiry(forKey key: String) throws(ArchiveStorageError) -> Result<Double, EntryRowCorruption>? {
        try self.access {
            try self.readers.read { db -> Result<Double, EntryRowCorruption>? in
                let statement = try db.cachedStatement(sql: "SELECT expiry FROM entry WHERE key = ?")
                guard let row = try Row.fetchOne(statement, arguments: [Data(key.utf8)]) else { return nil }
                guard let expiry = Self.expiry(row.databaseValues.first ?? .null) else {
                    return .failure(EntryRowCorruption(reason: "the expiry is not a date"))
                }
                return .success(expiry)
            }
        }
    }

    func expiredRows(
        at now: Double,
        after: (expiry: Double, key: [UInt8])?,
        limit: Int
    ) throws(ArchiveStorageError) -> [(expiry: Double, key: [UInt8])] {
        try self.access {
            try self.readers.transaction { db in
                let rows: RowCursor
                if let after {
                    let statement = try db.cachedStatement(
                        sql: """
                            SELECT expiry, key FROM entry
                            WHERE expiry IS NOT NULL AND expiry <= ? AND (expiry, key) > (?, ?)
                            ORDER BY expiry, key LIMIT ?
                            """
                    )
                    rows = try Row.fetchCursor(statement, arguments: [now, after.expiry, Data(after.key), limit])
                } else {
                    let statement = try db.cachedStatement(
                        sql:
                            "SELECT expiry, key FROM entry WHERE expiry IS NOT NULL AND expiry <= ? ORDER BY expiry, key LIMIT ?"
                    )
                    rows = try Row.fetchCursor(statement, arguments: [now, limit])
                }
                var result: [(expiry: Double, key: [UInt8])] = []
                while let row = try rows.next() {
                    let values = Array(row.databaseValues)
                    guard values.count == 2, let expiry = Self.expiry(values[0]),
                        case .blob(let key) = values[1].storage
                    else { continue }
                    result.append((expiry, Array(key)))
                }
                return result
            }
        }
    }

    func scan(after: [UInt8]?, limit: Int) throws(ArchiveStorageError) -> [(key: [UInt8], damage: String?)] {
        try self.access {
            try self.readers.transaction { db in
                let statement = try db.cachedStatement(
                    sql: """
                        SELECT key, format, schemaVersion, expiry, checksum, payload FROM entry
                        WHERE key > ? ORDER BY key LIMIT ?
                        """
                )
                var result: [(key: [UInt8], damage: String?)] = []
                let rows = try Row.fetchCursor(statement, arguments: [Data(after ?? []), limit])
                while let row = try rows.next() {
                    let values = Array(row.databaseValues)
                    guard case .blob(let key)? = values.first?.storage else { continue }
                    var damage: String?
                    do throws(EntryRowCorruption) {
                        _ = try Self.entryRow(Array(values.dropFirst()))
                    } catch {
                        damage = error.reason
                    }
                    if damage == nil, validUTF8String(key) == nil { damage = "the key is not UTF-8" }
                    result.append((Array(key), damage))
                }
                return result
            }
        }
    }

    // MARK: Integrity

    func checkIntegrity() throws(ArchiveStorageError) {
        let shown = Self.integrityMessageLimit
        let prefix = "PRAGMA integrity_check failed: "
        let messages: [String]
        do throws(ArchiveStorageError) {
            messages = try self.access {
                // One more than shown, to tell whether there were more.
                try self.readers.transaction { db in
                    try String.fetchAll(db, sql: "PRAGMA integrity_check(\(shown + 1))")
                }
            }
        } catch {
            // Damage that stops the check itself (a page that is not a b-tree page).
            guard error.code == .corruptStore else { throw error }
            throw ArchiveStorageError(
                .corruptStore,
                path: self.path,
                reason: prefix + error.reason,
                underlying: error.underlying
            )
        }
        guard messages != ["ok"] else { return }
        var reason = prefix + messages.prefix(shown).joined(separator: "; ")
        if messages.count > shown { reason += "; and more" }
        throw ArchiveStorageError(.corruptStore, path: self.path, reason: reason)
    }

    /// How many of `PRAGMA integrity_check`'s messages a ``ArchiveStorageError/Code/corruptStore``
    /// error quotes.
    static let integrityMessageLimit = 5

    func diskByteCount() throws(ArchiveStorageError) -> DiskByteCount {
        try self.access { try self.readers.transaction { db in try Self.diskByteCount(in: db, path: self.path) } }
    }

    func evictionCandidates(expiredAt now: Double, limit: Int) throws(ArchiveStorageError) -> [EvictionCandidate] {
        try self.access {
            try self.readers.transaction { db in
                var candidates: [EvictionCandidate] = []
                var seen = Set<[UInt8]>()
                // `length` of a blob reads its size from the record header, not its bytes.
                let expired = try db.cachedStatement(
                    sql: """
                        SELECT key, length(payload), accessedAt FROM entry
                        WHERE expiry IS NOT NULL AND expiry <= ? ORDER BY expiry, key LIMIT ?
                        """
                )
                let leastRecent = try db.cachedStatement(
                    sql: "SELECT key, length(payload), accessedAt FROM entry ORDER BY accessedAt, key LIMIT ?"
                )
                for (statement, arguments, isExpired) in [
                    (expired, [now, limit] as StatementArguments, true), (leastRecent, [limit], false),
                ] {
                    let rows = try Row.fetchCursor(statement, arguments: arguments)
                    while let row = try rows.next(), candidates.count < limit {
                        let values = Array(row.databaseValues)
                        guard values.count == 3, case .blob(let data) = values[0].storage,
                            case .int64(let size) = values[1].storage
                        else { continue }
                        let key = Array(data)
                        guard seen.insert(key).inserted else { continue }
                        let accessedAt = Self.expiry(values[2]) ?? 0
                        candidates.append(
                            EvictionCandidate(
                                key: key,
                                byteCount: Int(size),
                                accessedAt: accessedAt,
                                isExpired: isExpired
                            )
                        )
                    }
                }
                return candidates
            }
        }
    }

    func reclaimSpace() throws(ArchiveStorageError) {
        try self.checkWritable()
        try self.access {
            // In steps of a bounded number of pages, each its own write, so that other writers
            // (of any process) get the write lock in between.
            while true {
                let freePages = try self.writer.writeWithoutTransaction { db in
                    try db.execute(sql: "PRAGMA incremental_vacuum(\(Self.vacuumStepPageCount))")
                    return try Int.fetchOne(db, sql: "PRAGMA freelist_count") ?? 0
                }
                if freePages == 0 { break }
            }
            try self.checkpoint()
        }
    }

    func close() {
        self.readers.close()
        try? self.writer.close()
    }

    /// How many free pages one step of ``reclaimSpace()`` gives back at most.
    static let vacuumStepPageCount = 256

    /// Copies the WAL's pages into the database and empties the WAL file, waiting for nobody:
    /// when a reader still needs the WAL (or another process writes), the pages nobody needs are
    /// copied, and the next write that finds the WAL copied starts it over, truncating it to
    /// ``walSizeLimit``.
    func checkpoint() throws {
        try self.writer.writeWithoutTransaction { db in
            // No busy wait: `TRUNCATE` would otherwise wait for every reader, holding the lock
            // that the other writers wait for.
            try db.execute(sql: "PRAGMA busy_timeout = 0")
            defer { try? db.execute(sql: "PRAGMA busy_timeout = \(Int(Self.busyTimeout * 1000))") }
            do {
                _ = try db.checkpoint(.truncate)
            } catch let error as DatabaseError where error.resultCode == .SQLITE_BUSY {
                // Copied as far as it could be, as a passive checkpoint does.
            }
        }
    }

    /// Checkpoints when the WAL file has grown past ``walCheckpointThreshold``: a large write or
    /// many writes that readers kept SQLite's automatic checkpoints from completing.
    func checkpointIfLarge() throws(ArchiveStorageError) {
        guard let size = DirectoryListing.fileSize(atPath: self.path + "-wal"), size > Self.walCheckpointThreshold
        else { return }
        try self.access { try self.checkpoint() }
    }

    /// The WAL size past which a write checkpoints, in bytes.
    static let walCheckpointThreshold = 2 * walSizeLimit

    /// Throws ``ArchiveStorageError/Code/readOnly`` when the database is on a read-only file system.
    func checkWritable() throws(ArchiveStorageError) {
        guard self.isReadOnly else { return }
        throw ArchiveStorageError(.readOnly, path: self.path, reason: "the store is on a read-only file system")
    }
}
#endif
