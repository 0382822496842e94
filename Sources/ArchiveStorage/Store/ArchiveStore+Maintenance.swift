//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-keyed-archive open source project
//
// Licensed under Apache License v2.0
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Dispatch
import KeyedArchiving

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#elseif canImport(Android)
import Android
#endif

extension ArchiveStore {
    /// Removes every expired entry from disk and from memory, and returns how many entries it
    /// removed.
    ///
    /// Expired entries are never returned whether or not they have been purged; purging only
    /// frees their space. Damaged entries are left alone (see ``moveCorruptEntriesAside()-7lfks``).
    ///
    /// - Complexity: Reads the header of every entry, O(*n*) small reads.
    /// - Throws: ``ArchiveStorageError`` with code ``ArchiveStorageError/Code/fileSystem``.
    @discardableResult
    public func purgeExpired() throws(ArchiveStorageError) -> Int {
        try self.checkNotMoved()
        let now = self.now()
        self.cache.withLock { $0.removeExpired(now: now) }
        if let table = self.table { return try self.tablePurgeExpired(at: now, in: table) }
        var removed = 0
        for name in try DirectoryListing.names(atPath: self.directoryPath)
        where EntryFileName.classify(name) != .other {
            let location = EntryLocation(fileName: name, directory: self.directoryPath)
            guard let bytes = try DirectoryListing.readPrefix(atPath: location.path, count: EntryFormat.prefixSize),
                let prefix = try? EntryFormat.decodePrefix(bytes), prefix.expiry <= now
            else { continue }
            // Check again under the lock, with the checksum: another process may have just saved
            // a fresh entry, and a damaged header must not decide a deletion.
            let purged = try self.control.withExclusiveLock(slot: location.slot) { () throws(ArchiveStorageError) in
                guard let bytes = try DurableFile.read(atPath: location.path),
                    Self.isIntact(bytes, fileName: name),
                    let entry = try? EntryFormat.decode(bytes), entry.prefix.expiry <= now
                else { return false }
                return try self.unpublish(location)
            }
            if purged { removed += 1 }
        }
        if removed > 0, self.configuration.isDurable {
            try DurableFile.syncDirectory(ofPath: self.directoryPath + "/" + StoreControlFile.fileName)
        }
        return removed
    }

    /// Checks every entry in full and moves each damaged one aside; returns where they went.
    ///
    /// On the files backend, damaged files move into the `Corrupt` folder of the store's
    /// directory, and the result holds their new paths; on the SQLite backend, damaged rows move
    /// to the database's `quarantine` table, and the result holds their keys.
    ///
    /// The other entries stay readable either way. To move damaged entries as reads find them,
    /// use ``ArchiveStoreConfiguration/CorruptEntryPolicy/moveAside``; to find them without
    /// moving them, ``verifyIntegrity()-8j80a``.
    ///
    /// - Complexity: Reads every entry, O(total size).
    /// - Throws: ``ArchiveStorageError`` with code ``ArchiveStorageError/Code/fileSystem``.
    @discardableResult
    public func moveCorruptEntriesAside() throws(ArchiveStorageError) -> [String] {
        try self.checkNotMoved()
        if let table = self.table { return try self.tableMoveCorruptEntriesAside(in: table) }
        var moved: [String] = []
        try self.fileScan { (location, _, damage) throws(ArchiveStorageError) in
            guard damage != nil else { return }
            if let destination = try self.moveAside(location, isLocked: false) {
                moved.append(destination)
            }
        }
        return moved
    }

    /// Reads and checks every entry, and on the SQLite backend the whole database, without
    /// changing anything; returns how many entries it checked and which are damaged.
    ///
    /// Opening a store checks nothing, so that its cost does not grow with the number of entries;
    /// damage is otherwise found only when an entry is read. Call this when damage is suspected or as routine care: after a crash
    /// report, in a periodic maintenance task, or from a support tool.
    ///
    /// On the files backend it reads every entry file in full and checks its format, length,
    /// checksum and key. On the SQLite backend it runs SQLite's `PRAGMA integrity_check` (the
    /// structure of the whole database file: pages, b-trees, indexes), then reads every row and
    /// checks the types of its columns and its payload's CRC-32C, a page of 1,000 rows per read
    /// transaction. Writers are not held up (WAL), but the integrity check is one read
    /// transaction, and the WAL cannot be checkpointed past it until it ends. Expired entries are
    /// checked too.
    ///
    /// It only reports: damaged entries stay where they are, whatever
    /// ``ArchiveStoreConfiguration/corruptEntryPolicy`` says, and nothing is deleted.
    /// ``moveCorruptEntriesAside()-7lfks`` moves damaged entries aside.
    ///
    /// ```swift
    /// let report = try store.verifyIntegrity()
    /// if !report.isIntact { log("damaged: \(report.damagedKeys)") }
    /// ```
    ///
    /// - Returns: The number of entries checked, and the damaged ones with their keys and why.
    /// - Complexity: Reads everything, O(total size).
    /// - Throws: ``ArchiveStorageError`` with code ``ArchiveStorageError/Code/corruptStore``
    ///   naming the database file, with the first of SQLite's messages in its reason, when the
    ///   database fails SQLite's integrity check or cannot be read for damage;
    ///   ``ArchiveStorageError/Code/database`` for other SQLite errors;
    ///   ``ArchiveStorageError/Code/fileSystem`` when the directory or a file cannot be read.
    public func verifyIntegrity() throws(ArchiveStorageError) -> ArchiveIntegrityReport {
        try self.checkNotMoved()
        if let table = self.table { return try self.tableVerifyIntegrity(in: table) }
        var checked = 0
        var damaged: [ArchiveIntegrityReport.DamagedEntry] = []
        try self.fileScan { (location, bytes, damage) throws(ArchiveStorageError) in
            checked += 1
            guard let damage else { return }
            let key = Self.key(ofFileNamed: location.fileName, bytes: bytes)
            damaged.append(.init(key: key, path: location.path, reason: damage))
        }
        // Keys in byte order, as on the SQLite backend; entries that hide their key last.
        damaged.sort { first, second in
            switch (first.key, second.key) {
            case (let a?, let b?): return a.utf8.lexicographicallyPrecedes(b.utf8)
            case (_?, nil): return true
            case (nil, _?): return false
            case (nil, nil): return first.path < second.path
            }
        }
        // A move to SQLite removes the entry files last: a scan that missed some may mean so.
        try self.checkNotMoved()
        return ArchiveIntegrityReport(checkedEntryCount: checked, damagedEntries: damaged)
    }

    /// Calls `visit` with every entry file of the store's directory on the files backend, read
    /// in full, and what is wrong with it (`nil` when it is intact). A file removed meanwhile is
    /// skipped.
    func fileScan(
        _ visit: (EntryLocation, _ bytes: [UInt8], _ damage: String?) throws(ArchiveStorageError) -> Void
    ) throws(ArchiveStorageError) {
        for name in try DirectoryListing.names(atPath: self.directoryPath)
        where EntryFileName.classify(name) != .other {
            let location = EntryLocation(fileName: name, directory: self.directoryPath)
            guard let bytes = try DurableFile.read(atPath: location.path) else { continue }
            try visit(location, bytes, Self.damage(bytes, fileName: name))
        }
    }

    /// Blocks until the maintenance started when the store was opened (removal of leftover
    /// temporary files and, if configured, of expired entries) has finished.
    public func waitForBackgroundMaintenance() {
        self.maintenance.wait()
    }

    /// Closes this instance: waits for its background maintenance, then closes its database
    /// connections on the SQLite backend (a files store holds no file open between calls).
    ///
    /// Every later call on this instance throws ``ArchiveStorageError/Code/storeClosed``; a call
    /// running on another thread meanwhile completes or throws. Other instances of the store are
    /// not affected. Closing twice does nothing more.
    public func close() {
        self.isClosed.withLock { $0 = true }
        self.waitForBackgroundMaintenance()
        self.table?.close()
    }

    /// Removes temporary files left by writers that died, and returns how many it removed.
    ///
    /// A temporary file is named `.tmp-<pid>-<random>`. It is removed when no process `<pid>`
    /// exists, or when it is more than a day old (the process identifier may have been reused);
    /// a live writer's file, including this process's, is left alone.
    @discardableResult
    func removeStaleTemporaryFiles() throws(ArchiveStorageError) -> Int {
        guard self.table == nil else { return 0 }
        let ownPID = getpid()
        let dayAgo = Date().timeIntervalSince1970 - 86_400
        var removed = 0
        for name in try DirectoryListing.names(atPath: self.directoryPath) where name.hasPrefix(".tmp-") {
            let fields = name.split(separator: "-")
            guard fields.count == 3, let pid = Int32(fields[1]), pid != ownPID else { continue }
            let path = self.directoryPath + "/" + name
            let isStale =
                !DirectoryListing.processExists(pid)
                || (DirectoryListing.modificationTime(atPath: path).map { $0 < dayAgo } ?? false)
            if isStale, try DirectoryListing.removeFile(atPath: path) { removed += 1 }
        }
        return removed
    }

    /// Starts the maintenance that runs when the store opens, on a background queue.
    func startMaintenance() {
        // A store on a read-only file system is only read.
        guard !self.control.isReadOnly else { return }
        let purges = self.configuration.purgesExpiredEntriesOnOpen
        DispatchQueue.global(qos: .utility).async(group: self.maintenance) {
            // Best effort: each step runs whatever the one before did; failures go to the handler.
            do throws(ArchiveStorageError) {
                _ = try self.removeStaleTemporaryFiles()
            } catch {
                self.reportMaintenanceError(error)
            }
            do throws(ArchiveStorageError) {
                _ = try self.removeMoveLeftovers()
            } catch {
                self.reportMaintenanceError(error)
            }
            guard purges else { return }
            do throws(ArchiveStorageError) {
                _ = try self.purgeExpired()
            } catch {
                self.reportMaintenanceError(error)
            }
        }
    }
}
