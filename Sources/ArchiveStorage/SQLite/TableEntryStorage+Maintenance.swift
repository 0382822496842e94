//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-keyed-archive open source project
//
// Licensed under Apache License v2.0
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

// Purging and checking rows, a page of rows per transaction.
extension TableEntryStorage {
    /// Deletes the rows expired at `now` in bounded transactions, each checking its rows again,
    /// then gives their pages back.
    func purgeExpired<Value>(at now: Double, in store: ArchiveStore<Value>) throws(ArchiveStorageError) -> Int {
        var removed = 0
        var position: (expiry: Double, key: [UInt8])?
        // Bounded transactions, so that a purge never holds the write lock for long.
        while true {
            let page = try self.table.expiredRows(at: now, after: position, limit: Self.pageSize)
            guard let last = page.last else { break }
            position = last
            let keys = page.compactMap { validUTF8String($0.key) }
            let locations = keys.map { EntryLocation(key: $0, directory: store.directoryPath) }
            removed += try self.commit(locations: locations, in: store) { writer in
                var count = 0
                for key in keys {
                    // Checked again in the transaction: a damaged row must not decide a deletion.
                    // Any other error (I/O, a damaged page) is the purge's.
                    let row: EntryRow?
                    do {
                        row = try writer.row(forKey: key)
                    } catch is EntryRowCorruption {
                        continue
                    }
                    guard let row, row.expiry <= now else { continue }
                    if try writer.delete(key: Array(key.utf8)) { count += 1 }
                }
                return count
            }
        }
        if removed > 0 { try self.table.reclaimSpace() }
        return removed
    }

    /// Moves each damaged row to the quarantine table; returns their keys.
    func moveCorruptEntriesAside<Value>(in store: ArchiveStore<Value>) throws(ArchiveStorageError) -> [String] {
        var moved: [String] = []
        try self.scan { (key, damage) throws(ArchiveStorageError) in
            guard let damage else { return }
            let reason = "found damaged by moveCorruptEntriesAside(): \(damage)"
            if try self.quarantine(key: key, reason: reason, in: store) {
                moved.append(String(decoding: key, as: UTF8.self))
            }
        }
        return moved
    }

    /// SQLite's integrity check, then every row.
    func verifyIntegrity<Value>(in store: ArchiveStore<Value>) throws(ArchiveStorageError) -> ArchiveIntegrityReport {
        try self.table.checkIntegrity()
        var checked = 0
        var damaged: [ArchiveIntegrityReport.DamagedEntry] = []
        try self.scan { (key, damage) throws(ArchiveStorageError) in
            checked += 1
            guard let damage else { return }
            damaged.append(.init(key: String(decoding: key, as: UTF8.self), path: self.table.path, reason: damage))
        }
        return ArchiveIntegrityReport(checkedEntryCount: checked, damagedEntries: damaged)
    }

    /// Calls `visit` with the key of every row, in byte order, and what is wrong with the row
    /// (`nil` when it is intact), reading a page of rows per read transaction.
    private func scan(
        _ visit: (_ key: [UInt8], _ damage: String?) throws(ArchiveStorageError) -> Void
    ) throws(ArchiveStorageError) {
        var position: [UInt8]?
        while true {
            let page = try self.table.scan(after: position, limit: Self.pageSize)
            guard let last = page.last else { break }
            position = last.key
            for (key, damage) in page { try visit(key, damage) }
        }
    }
}
