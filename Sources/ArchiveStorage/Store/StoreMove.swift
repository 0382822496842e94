//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-keyed-archive open source project
//
// Licensed under Apache License v2.0
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#elseif canImport(Android)
import Android
#endif

/// A step of a move between backends that has just completed; a test hook observes them to
/// simulate failures and crashes.
///
/// Before ``flipped``, the store's directory holds the whole source store; from then on, the
/// whole destination store.
package enum StoreMoveStep: String, CaseIterable, Sendable {
    /// Every lock stripe is held, the move count is odd, and leftovers of earlier moves are gone.
    case began
    /// The first page of entries is copied.
    case copiedSome
    /// Every entry is copied: into the scratch database (to SQLite), or published as entry files
    /// (to files).
    case copiedAll
    /// The copy is on stable storage, with the copy of a database kept aside, if any.
    case madeDurable
    /// The flip: the database was renamed into place (to SQLite) or removed (to files).
    case flipped
    /// Some of the source's files are removed.
    case removedSome
    /// Every file of the source is removed; the move count is still odd.
    case removedAll
}

/// A test hook called after each step of a move: it may throw to simulate a failure, or end the
/// process to simulate a crash.
package typealias StoreMoveStepObserver = @Sendable (StoreMoveStep) throws(ArchiveStorageError) -> Void

/// Moving a store between backends, in place in its directory, with one atomic flip.
///
/// **Files to SQLite.** The entries are copied, raw, into a new database at the scratch name
/// `entries.sqlite.moving` (no journal, so no `-wal` or `-shm`), which is closed and flushed with
/// its directory; a rename to `entries.sqlite` is the flip: from that instant the directory is a
/// SQLite store, which ignores entry files. The entry files are then removed.
///
/// **SQLite to files.** Every row is written as an entry file (temporary files, flushed, renamed
/// under the entry's name, the directory flushed) while the database still makes the directory a
/// SQLite store; unlinking `entries.sqlite` is the flip; its `-wal` and `-shm` go next.
///
/// Two hazards of that plan are closed first, before any copy: a stale `-wal`, `-shm` or
/// `-journal` beside `entries.sqlite` (from an interrupted move to files) would be replayed into
/// the new database, and stale entry files (from an interrupted move to SQLite) would come back as
/// entries after a move to files; both are removed while every lock is held.
///
/// The move holds every lock stripe of the control file throughout, so no writer of any process
/// writes meanwhile, and it makes the control file's move count odd, then even: an instance opened
/// before throws ``ArchiveStorageError/Code/storeMoved``.
final class StoreMove {
    /// The scratch name of the database a move to SQLite builds.
    static let scratchName = entryTableFileName + ".moving"
    /// How many entries a move copies per transaction or flush.
    static let pageSize = 1000

    let directory: String
    let control: StoreControlFile
    /// Called after each step (tests only).
    let stepObserver: StoreMoveStepObserver?
    /// Whether the flip happened.
    private var flipped = false

    private init(directory: String, control: StoreControlFile, stepObserver: StoreMoveStepObserver?) {
        self.directory = directory
        self.control = control
        self.stepObserver = stepObserver
    }

    var databasePath: String { self.directory + "/" + entryTableFileName }
    var scratchPath: String { self.directory + "/" + Self.scratchName }

    /// Moves the store in `directory` to `target`.
    /// - Parameter stepObserver: Called after each step (tests only).
    static func move(
        directory: String,
        to target: ArchiveStoreBackend,
        stepObserver: StoreMoveStepObserver? = nil
    ) throws(ArchiveStorageError) -> ArchiveStoreMoveResult {
        let controlPath = directory + "/" + StoreControlFile.fileName
        guard
            DirectoryListing.fileExists(atPath: controlPath)
                || DirectoryListing.fileExists(atPath: directory + "/" + entryTableFileName)
        else {
            throw ArchiveStorageError(.storeNotFound, path: directory, reason: "no store to move")
        }
        let control = try StoreControlFile(directory: directory)
        let move = StoreMove(directory: directory, control: control, stepObserver: stepObserver)
        return try control.withExclusiveLocks(slots: 0..<StoreControlFile.slotCount) {
            () throws(ArchiveStorageError) in
            try move.run(to: target)
        }
    }

    /// The move itself; call with every lock stripe held.
    private func run(to target: ArchiveStoreBackend) throws(ArchiveStorageError) -> ArchiveStoreMoveResult {
        let before = self.control.moveCount
        let source: ArchiveStoreBackend =
            DirectoryListing.fileExists(atPath: self.databasePath) ? ArchiveStoreBackend(kind: .sqlite) : .files
        if source == target {
            // Nothing to move; an interrupted move's leftovers are removed all the same.
            for name in try Self.leftovers(in: self.directory, storeIsSQLite: source != .files) {
                _ = try DirectoryListing.removeFile(atPath: self.directory + "/" + name)
            }
            if before & 1 == 1 { self.control.endMove() }
            return ArchiveStoreMoveResult(previousBackend: source, backend: source, movedEntryCount: 0)
        }
        self.control.beginMove()
        do throws(ArchiveStorageError) {
            var result =
                target == .files ? try self.moveToFiles() : try self.moveToSQLite()
            try self.reach(.removedAll)
            self.control.endMove()
            result.previousBackend = source
            return result
        } catch {
            if !self.flipped {
                // Undone: what the copy wrote goes.
                for name in (try? Self.leftovers(in: self.directory, storeIsSQLite: source != .files)) ?? [] {
                    _ = try? DirectoryListing.removeFile(atPath: self.directory + "/" + name)
                }
            }
            if self.flipped || before & 1 == 1 {
                self.control.endMove()
            } else {
                // Nothing changed for the stores open on the source: they may go on.
                self.control.setMoveCount(before)
            }
            throw error
        }
    }

    /// Tells the test hook, if any, that `step` is complete.
    private func reach(_ step: StoreMoveStep) throws(ArchiveStorageError) {
        try self.stepObserver?(step)
    }

    // MARK: Files to SQLite

    private func moveToSQLite() throws(ArchiveStorageError) -> ArchiveStoreMoveResult {
        #if SQLite
        for name in try Self.leftovers(in: self.directory, storeIsSQLite: false) {
            _ = try DirectoryListing.removeFile(atPath: self.directory + "/" + name)
        }
        try self.reach(.began)
        let names = try DirectoryListing.names(atPath: self.directory).filter {
            EntryFileName.classify($0) != .other
        }
        var result = ArchiveStoreMoveResult(previousBackend: .files, backend: .sqlite, movedEntryCount: 0)
        let builder = try SQLiteEntryTable.Builder(path: self.scratchPath)
        do throws(ArchiveStorageError) {
            var page: [(key: String, row: EntryRow)] = []
            var wroteAny = false
            func flush() throws(ArchiveStorageError) {
                let rows = page
                try builder.write { writer in
                    for (key, row) in rows { try writer.put(row, forKey: key) }
                }
                result.movedEntryCount += rows.count
                page.removeAll(keepingCapacity: true)
                if !wroteAny {
                    wroteAny = true
                    try self.reach(.copiedSome)
                }
            }
            for name in names {
                let path = self.directory + "/" + name
                // Every writer is locked out: a file listed is still there.
                guard let bytes = try DurableFile.read(atPath: path) else { continue }
                if let (key, entry) = EntryFormat.decode(bytes, fileName: name) {
                    page.append((key, EntryRow(entry)))
                    if page.count == Self.pageSize { try flush() }
                } else {
                    let destination = try CorruptFolder.destination(forFileName: name, inStore: self.directory)
                    try DurableFile.rename(path, to: destination)
                    result.damagedEntries.append(destination)
                }
            }
            try flush()
            try builder.close()
        } catch {
            try? builder.close()
            throw error
        }
        try self.reach(.copiedAll)
        try DurableFile.syncFile(atPath: self.scratchPath)
        try DurableFile.syncDirectory(ofPath: self.scratchPath)
        if let moved = result.damagedEntries.first { try DurableFile.syncDirectory(ofPath: moved) }
        try self.reach(.madeDurable)
        try DurableFile.rename(self.scratchPath, to: self.databasePath)
        self.flipped = true
        try DurableFile.syncDirectory(ofPath: self.databasePath)
        try self.reach(.flipped)
        // Leftovers from here on: a SQLite store ignores entry files, and removes them when it opens.
        for (index, name) in names.enumerated() {
            _ = try DirectoryListing.removeFile(atPath: self.directory + "/" + name)
            if index == 0 { try self.reach(.removedSome) }
        }
        if names.isEmpty { try self.reach(.removedSome) }
        return result
        #else
        throw ArchiveStorageError(
            .invalidConfiguration,
            path: self.databasePath,
            reason: "the SQLite backend is left out of this build (enable the package's SQLite trait)"
        )
        #endif
    }

    // MARK: SQLite to files

    private func moveToFiles() throws(ArchiveStorageError) -> ArchiveStoreMoveResult {
        #if SQLite
        for name in try Self.leftovers(in: self.directory, storeIsSQLite: true) {
            _ = try DirectoryListing.removeFile(atPath: self.directory + "/" + name)
        }
        try self.reach(.began)
        var result = ArchiveStoreMoveResult(
            previousBackend: ArchiveStoreBackend(kind: .sqlite),
            backend: .files,
            movedEntryCount: 0
        )
        // Closed before the flip: the last connection to close removes the `-wal` file.
        try self.copyRows(into: &result)
        try DurableFile.syncDirectory(ofPath: self.databasePath)
        try self.reach(.madeDurable)
        _ = try DirectoryListing.removeFile(atPath: self.databasePath)
        self.flipped = true
        try DurableFile.syncDirectory(ofPath: self.databasePath)
        try self.reach(.flipped)
        for (index, suffix) in ["-wal", "-shm", "-journal"].enumerated() {
            _ = try DirectoryListing.removeFile(atPath: self.databasePath + suffix)
            if index == 0 { try self.reach(.removedSome) }
        }
        return result
        #else
        throw ArchiveStorageError(
            .invalidConfiguration,
            path: self.databasePath,
            reason: "the store uses the SQLite backend, which this build leaves out (enable the package's SQLite trait)"
        )
        #endif
    }

    #if SQLite
    /// Publishes every intact row as an entry file, page by page, and keeps a copy of the database
    /// in the `Corrupt` folder when it holds damaged or quarantined rows (or rows whose key is not
    /// a blob, which only a hand-made change writes).
    private func copyRows(into result: inout ArchiveStoreMoveResult) throws(ArchiveStorageError) {
        let table = try SQLiteEntryTable(directory: self.directory, isDurable: true, tracksByteCount: false)
        var after: [UInt8]?
        while true {
            let page = try table.rows(after: after, limit: Self.pageSize)
            guard let last = page.last else { break }
            after = last.key
            var locations: [EntryLocation] = []
            var contents: [[UInt8]] = []
            for (keyBytes, row) in page {
                guard case .success(let row) = row, let key = validUTF8String(keyBytes) else {
                    result.damagedEntries.append(String(decoding: keyBytes, as: UTF8.self))
                    continue
                }
                locations.append(EntryLocation(key: key, directory: self.directory))
                contents.append(
                    EntryFormat.encode(
                        key: key,
                        formatIdentifier: row.formatIdentifier,
                        schemaVersion: row.schemaVersion,
                        expiry: row.expiry,
                        payload: row.payload
                    )
                )
            }
            let temporaries = try DurableFile.writeTemporaries(
                inDirectory: self.directory,
                contents: contents,
                durable: true
            )
            for (index, temporary) in temporaries.enumerated() {
                do {
                    try DurableFile.rename(temporary, to: locations[index].path)
                } catch {
                    for unpublished in temporaries[index...] {
                        _ = try? DirectoryListing.removeFile(atPath: unpublished)
                    }
                    throw error
                }
            }
            let isFirst = result.movedEntryCount == 0
            result.movedEntryCount += temporaries.count
            if isFirst { try self.reach(.copiedSome) }
        }
        if result.movedEntryCount == 0 { try self.reach(.copiedSome) }
        try self.reach(.copiedAll)
        let unlisted = try table.unlistedRowCount()
        if !result.damagedEntries.isEmpty || unlisted > 0 {
            let copy = try CorruptFolder.destination(forFileName: entryTableFileName, inStore: self.directory)
            try table.copy(toPath: copy)
            try DurableFile.syncFile(atPath: copy)
            try DurableFile.syncDirectory(ofPath: copy)
            result.keptDatabasePath = copy
        }
    }
    #endif

    // MARK: Leftovers

    /// The names in `directory` that an interrupted move left, which the store ignores: on a
    /// SQLite store, entry files and temporary files; on a files store, a scratch database and
    /// SQLite's side files of a database that is gone. Remove them holding a lock stripe, with
    /// the move count even and unchanged since the store was detected (no move is running then).
    static func leftovers(in directory: String, storeIsSQLite: Bool) throws(ArchiveStorageError) -> [String] {
        let scratch = [scratchName, scratchName + "-journal", scratchName + "-wal", scratchName + "-shm"]
        if storeIsSQLite {
            return try DirectoryListing.names(atPath: directory).filter { name in
                EntryFileName.classify(name) != .other || name.hasPrefix(".tmp-") || scratch.contains(name)
            }
        }
        // A database there makes it a SQLite store (one created meanwhile): nothing is left over.
        guard !DirectoryListing.fileExists(atPath: directory + "/" + entryTableFileName) else { return [] }
        let sideFiles = ["-journal", "-wal", "-shm"].map { entryTableFileName + $0 }
        return (scratch + sideFiles).filter { DirectoryListing.fileExists(atPath: directory + "/" + $0) }
    }

    // MARK: Opening

    /// Opens the control file of the store in `directory` and, with `openStorage`, its storage,
    /// so that no move runs in between; returns them with the move count the store notes. The
    /// control file's locks are operations of `suspension`.
    ///
    /// An existing store is detected between two reads of an even move count: equal, no move
    /// began in between (a move makes the count odd before it copies anything), so the store
    /// opens without taking a lock, and an `update(forKey:)` body of the same thread can open it.
    /// Otherwise it is detected holding a lock stripe, which a move holds too. An odd move count
    /// seen then is an interrupted move (a running one would hold the stripe): the directory holds
    /// a whole store, source or destination, and the count is made even, so that instances opened
    /// before the move throw ``ArchiveStorageError/Code/storeMoved``.
    static func open<Storage>(
        directory: String,
        suspension: StoreSuspension,
        openStorage: () throws(ArchiveStorageError) -> Storage
    ) throws(ArchiveStorageError) -> (storage: Storage, control: StoreControlFile, moveCount: UInt64) {
        while true {
            if DirectoryListing.fileExists(atPath: directory + "/" + StoreControlFile.fileName) {
                let control = try StoreControlFile(directory: directory, suspension: suspension)
                let before = control.moveCount
                if before & 1 == 0 {
                    let storage = try openStorage()
                    if control.moveCount == before { return (storage, control, before) }
                }
                return try control.withExclusiveLock(slot: 0) { () throws(ArchiveStorageError) in
                    if control.moveCount & 1 == 1 { control.endMove() }
                    return (try openStorage(), control, control.moveCount)
                }
            }
            // A new store (or one whose first opener has not created its control file yet): created
            // holding the directory's lock, so that two creators (threads or processes, maybe
            // with different backends) agree on one backend: the second finds the first's store.
            let created = try DirectoryListing.withDirectoryLock(directory) {
                () throws(ArchiveStorageError) -> (Storage, StoreControlFile)? in
                guard !DirectoryListing.fileExists(atPath: directory + "/" + StoreControlFile.fileName) else {
                    return nil
                }
                let storage = try openStorage()
                return (storage, try StoreControlFile(directory: directory, suspension: suspension))
            }
            guard let (storage, control) = created else { continue }
            // A move can only have run in between if another process created the store and moved
            // it meanwhile; detect it again, then.
            let moveCount = control.moveCount
            if moveCount == 0 { return (storage, control, moveCount) }
        }
    }
}

extension EntryRow {
    /// The row of a checked entry file.
    init(_ entry: EntryFormat.Entry) {
        self.init(
            formatIdentifier: entry.formatIdentifier,
            schemaVersion: entry.prefix.schemaVersion,
            expiry: entry.prefix.expiry,
            payload: entry.payload
        )
    }
}

extension EntryFormat {
    /// The key and entry of the bytes of the entry file called `fileName`, if they are a sound
    /// entry whose key has that file name; `nil` for a damaged entry.
    static func decode(_ bytes: [UInt8], fileName: String) -> (key: String, entry: Entry)? {
        guard let entry = try? Self.decode(bytes),
            let key = validUTF8String(entry.key),
            EntryFileName(key: key).name == fileName
        else { return nil }
        return (key, entry)
    }
}
