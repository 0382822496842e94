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
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#elseif canImport(Android)
import Android
#endif

// Purging, checking and cleaning the entry files of a store's directory.
extension FileEntryStorage {
    /// Reads the header of every entry file, and removes each expired one that is still expired
    /// and intact once its lock stripe is held.
    func purgeExpired<Value>(at now: Double, in store: ArchiveStore<Value>) throws(ArchiveStorageError) -> Int {
        var removed = 0
        for name in try DirectoryListing.names(atPath: store.directoryPath)
        where EntryFileName.classify(name) != .other {
            let location = EntryLocation(fileName: name, directory: store.directoryPath)
            guard let bytes = try DirectoryListing.readPrefix(atPath: location.path, count: EntryFormat.prefixSize),
                let prefix = try? EntryFormat.decodePrefix(bytes), prefix.expiry <= now
            else { continue }
            // Check again under the lock, with the checksum: another process may have just saved
            // a fresh entry, and a damaged header must not decide a deletion.
            let purged = try store.control.withExclusiveLock(slot: location.slot) { () throws(ArchiveStorageError) in
                guard let bytes = try DurableFile.read(atPath: location.path),
                    Self.isIntact(bytes, fileName: name),
                    let entry = try? EntryFormat.decode(bytes), entry.prefix.expiry <= now
                else { return false }
                return try self.unpublish(location, in: store)
            }
            if purged { removed += 1 }
        }
        if removed > 0, store.configuration.isDurable {
            try DurableFile.syncDirectory(ofPath: store.directoryPath + "/" + StoreControlFile.fileName)
        }
        return removed
    }

    /// Moves each damaged entry file into the `Corrupt` folder; returns their new paths.
    func moveCorruptEntriesAside<Value>(in store: ArchiveStore<Value>) throws(ArchiveStorageError) -> [String] {
        var moved: [String] = []
        try Self.scan(store.directoryPath) { (location, _, damage) throws(ArchiveStorageError) in
            guard damage != nil else { return }
            if let destination = try self.moveAside(location, isLocked: false, in: store) {
                moved.append(destination)
            }
        }
        return moved
    }

    /// Reads every entry file in full and checks its format, length, checksum and key.
    func verifyIntegrity<Value>(in store: ArchiveStore<Value>) throws(ArchiveStorageError) -> ArchiveIntegrityReport {
        var checked = 0
        var damaged: [ArchiveIntegrityReport.DamagedEntry] = []
        try Self.scan(store.directoryPath) { (location, bytes, damage) throws(ArchiveStorageError) in
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
        try store.checkNotMoved()
        return ArchiveIntegrityReport(checkedEntryCount: checked, damagedEntries: damaged)
    }

    /// Calls `visit` with every entry file of `directory`, read in full, and what is wrong with
    /// it (`nil` when it is intact). A file removed meanwhile is skipped.
    static func scan(
        _ directory: String,
        _ visit: (EntryLocation, _ bytes: [UInt8], _ damage: String?) throws(ArchiveStorageError) -> Void
    ) throws(ArchiveStorageError) {
        for name in try DirectoryListing.names(atPath: directory)
        where EntryFileName.classify(name) != .other {
            let location = EntryLocation(fileName: name, directory: directory)
            guard let bytes = try DurableFile.read(atPath: location.path) else { continue }
            try visit(location, bytes, Self.damage(bytes, fileName: name))
        }
    }

    /// Removes the temporary files of writers that died.
    ///
    /// A temporary file is named `.tmp-<pid>-<random>`. It is removed when no process `<pid>`
    /// exists, or when it is more than a day old (the process identifier may have been reused);
    /// a live writer's file, including this process's, is left alone.
    func removeStaleTemporaryFiles(in directory: String) throws(ArchiveStorageError) -> Int {
        let ownPID = getpid()
        let dayAgo = Date().timeIntervalSince1970 - 86_400
        var removed = 0
        for name in try DirectoryListing.names(atPath: directory) where name.hasPrefix(".tmp-") {
            let fields = name.split(separator: "-")
            guard fields.count == 3, let pid = Int32(fields[1]), pid != ownPID else { continue }
            let path = directory + "/" + name
            let isStale =
                !DirectoryListing.processExists(pid)
                || (DirectoryListing.modificationTime(atPath: path).map { $0 < dayAgo } ?? false)
            if isStale, try DirectoryListing.removeFile(atPath: path) { removed += 1 }
        }
        return removed
    }
}
