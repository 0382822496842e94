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
        return try self.entries.purgeExpired(at: now, in: self)
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
        return try self.entries.moveCorruptEntriesAside(in: self)
    }

    /// Reads and checks every entry, and on the SQLite backend the whole database, without
    /// changing anything; returns how many entries it checked and which are damaged.
    ///
    /// Opening a store checks nothing, so that its cost does not grow with the number of entries;
    /// damage is otherwise found only when an entry is read. Call this when damage is suspected or
    /// as routine care: after a crash report, in a periodic maintenance task, or from a support
    /// tool.
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
        return try self.entries.verifyIntegrity(in: self)
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
        self.entries.close()
    }

    /// Starts the maintenance that runs when the store opens, on a background queue.
    func startMaintenance() {
        // A store on a read-only file system is only read.
        guard !self.control.isReadOnly else { return }
        let purges = self.configuration.purgesExpiredEntriesOnOpen
        DispatchQueue.global(qos: .utility).async(group: self.maintenance) {
            // Best effort: each step runs whatever the one before did; failures go to the handler.
            do throws(ArchiveStorageError) {
                _ = try self.entries.removeStaleTemporaryFiles(in: self.directoryPath)
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
