//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-keyed-archive open source project
//
// Licensed under Apache License v2.0
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import KeyedArchiving

// What an open store does about moves between backends (see `StoreMove`).
extension ArchiveStore {
    /// Throws ``ArchiveStorageError/Code/storeMoved`` if a move between backends began since the
    /// store opened: one load from the mapped control file.
    ///
    /// Every operation checks it first, and every write again holding its lock stripes (which a
    /// move holds throughout), so no write reaches a backend the store left; a read that found no
    /// entry file checks it again, since a move to SQLite removes the entry files last.
    @inline(__always)
    func checkNotMoved() throws(ArchiveStorageError) {
        guard self.control.moveCount == self.moveCount, !self.isClosed.withLock({ $0 }) else {
            throw self.storeMovedError()
        }
    }

    /// ``ArchiveStorageError/Code/storeClosed`` after ``close()``; otherwise
    /// ``ArchiveStorageError/Code/storeMoved``, closing the database connections, which serve no
    /// other call: the files a move left behind are not kept open.
    @inline(never)
    private func storeMovedError() -> ArchiveStorageError {
        if self.isClosed.withLock({ $0 }) { return .storeClosed(path: self.directoryPath) }
        self.entries.close()
        return ArchiveStorageError(
            .storeMoved,
            path: self.directoryPath,
            reason: "the store was moved to another backend after this instance opened it; open it again"
        )
    }

    /// Removes what an interrupted move left in the store's directory (see
    /// `StoreMove.leftovers(in:storeIsSQLite:)`), a page at a time, each holding one lock stripe
    /// with the move count unchanged; returns how many files it removed.
    @discardableResult
    func removeMoveLeftovers() throws(ArchiveStorageError) -> Int {
        let names = try self.entries.moveLeftovers(in: self.directoryPath)
        var removed = 0
        var start = 0
        while start < names.count {
            let page = names[start..<min(start + StoreMove.pageSize, names.count)]
            // A running move holds every stripe, and makes the count odd before it copies.
            removed += try self.control.withExclusiveLock(slot: 0) { () throws(ArchiveStorageError) in
                try self.checkNotMoved()
                // A files store whose directory has a database now is not this instance's to clean.
                if self.entries.isSuperseded(in: self.directoryPath) { return 0 }
                var count = 0
                for name in page where try DirectoryListing.removeFile(atPath: self.directoryPath + "/" + name) {
                    count += 1
                }
                return count
            }
            start += StoreMove.pageSize
        }
        return removed
    }
}
