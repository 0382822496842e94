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
    /// use ``ArchiveStoreConfiguration/CorruptEntryPolicy/moveAside``.
    ///
    /// - Complexity: Reads every entry, O(total size).
    /// - Throws: ``ArchiveStorageError`` with code ``ArchiveStorageError/Code/fileSystem``.
    @discardableResult
    public func moveCorruptEntriesAside() throws(ArchiveStorageError) -> [String] {
        if let table = self.table { return try self.tableMoveCorruptEntriesAside(in: table) }
        var moved: [String] = []
        for name in try DirectoryListing.names(atPath: self.directoryPath)
        where EntryFileName.classify(name) != .other {
            let location = EntryLocation(fileName: name, directory: self.directoryPath)
            guard let bytes = try DurableFile.read(atPath: location.path), !Self.isIntact(bytes, fileName: name) else {
                continue
            }
            if let destination = try self.moveAside(location, isLocked: false) {
                moved.append(destination)
            }
        }
        return moved
    }

    /// Blocks until the maintenance started when the store was opened (removal of leftover
    /// temporary files and, if configured, of expired entries) has finished.
    public func waitForBackgroundMaintenance() {
        self.maintenance.wait()
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
        let purges = self.configuration.purgesExpiredEntriesOnOpen
        DispatchQueue.global(qos: .utility).async(group: self.maintenance) {
            // Best effort: a failure here is reported again by the operation that meets it.
            _ = try? self.removeStaleTemporaryFiles()
            if purges { _ = try? self.purgeExpired() }
        }
    }
}
