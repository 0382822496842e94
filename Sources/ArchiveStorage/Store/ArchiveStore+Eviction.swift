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

// Eviction under a disk byte limit (`ArchiveStoreConfiguration.diskByteLimit`).
//
// Recency is the store clock's time of an entry's last save or load: on the SQLite backend the
// `accessedAt` column (indexed), on the files backend the entry file's modification time (which
// `publish` sets to the save's time). A load is only noted in memory (`DiskUsage`); the next
// eviction writes it, raising the recency on disk, under the same stripe locks (and, on SQLite, in
// the same transaction) as the removals it decides, and never lowering it. A removal is checked
// again under the lock: an entry saved or recorded as loaded since it was chosen stays.
extension ArchiveStore {
    /// The share of the limit an eviction leaves: evicting below the limit means a full store
    /// does not evict again on its next save.
    static var evictionLowWaterPercent: Int { 90 }

    /// Whether an entry of `byteCount` bytes is larger than the disk byte limit on its own.
    func exceedsDiskByteLimit(_ byteCount: Int) -> Bool {
        guard let limit = self.configuration.diskByteLimit else { return false }
        return byteCount > limit
    }

    /// Notes a load of `key` at `now` in memory, for the next eviction; nothing without a limit.
    func noteRead(key: String, now: Double) {
        guard self.configuration.diskByteLimit != nil else { return }
        let fileName = EntryFileName(key: key).name
        self.diskUsage.withLock { $0.noteRead(key: key, fileName: fileName, at: now) }
    }

    /// Removes entries until the store is within ``ArchiveStoreConfiguration/diskByteLimit``, if
    /// it is above it, as a write that leaves it above does; returns how many entries it removed.
    ///
    /// A write that leaves the store above its limit evicts on its own, and passes a failure to
    /// ``ArchiveStoreConfiguration/maintenanceErrorHandler`` rather than throwing it, since the
    /// write itself has succeeded. Call this to evict at a time of your choosing, or to see why
    /// eviction fails. Without a limit it does nothing.
    ///
    /// - Throws: ``ArchiveStorageError``: ``ArchiveStorageError/Code/fileSystem``,
    ///   ``ArchiveStorageError/Code/database``, ``ArchiveStorageError/Code/lockTimeout``, or
    ///   ``ArchiveStorageError/Code/readOnly``.
    @discardableResult
    public func evictToDiskByteLimit() throws(ArchiveStorageError) -> Int {
        try self.checkNotMoved()
        guard let limit = self.configuration.diskByteLimit else { return 0 }
        return try self.evict(limit: limit)
    }

    /// After a write: evicts if the store is above its limit. The write has succeeded, so a
    /// failure is reported to the configuration's handler, not thrown; the next write's eviction
    /// tries again.
    func evictIfNeeded() {
        guard let limit = self.configuration.diskByteLimit, self.entries.mayExceed(limit, in: self) else { return }
        do {
            _ = try self.evict(limit: limit)
        } catch {
            self.reportMaintenanceError(error)
        }
    }

    /// Evicts, one eviction at a time; how many entries it removed.
    private func evict(limit: Int) throws(ArchiveStorageError) -> Int {
        try self.evictionLock.holdingLock { () throws(ArchiveStorageError) -> Int in
            try self.entries.evict(limit: limit, in: self)
        }
    }

    /// Passes `error`, of work the store did on its own, to the configuration's handler; not a
    /// store closed or moved meanwhile, which ends that work rather than failing it.
    func reportMaintenanceError(_ error: ArchiveStorageError) {
        guard error.code != .storeClosed, error.code != .storeMoved else { return }
        self.configuration.maintenanceErrorHandler?(error)
    }

    /// The bytes an eviction under `limit` leaves at most.
    static func lowWaterMark(_ limit: Int) -> Int {
        limit / 100 * evictionLowWaterPercent + limit % 100 * evictionLowWaterPercent / 100
    }
}
