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
        guard let limit = self.configuration.diskByteLimit else { return }
        if self.table == nil {
            let total = self.control.generationTotal()
            if let estimate = self.diskUsage.withLock({ $0.estimate(generationTotal: total) }), estimate <= limit {
                return
            }
        }
        do {
            _ = try self.evict(limit: limit)
        } catch {
            self.reportMaintenanceError(error)
        }
    }

    /// Evicts on either backend, one eviction at a time; how many entries it removed.
    private func evict(limit: Int) throws(ArchiveStorageError) -> Int {
        try self.evictionLock.holdingLock { () throws(ArchiveStorageError) -> Int in
            if let table = self.table {
                return try self.tableEvict(limit: limit, in: table)
            }
            return try self.filesEvict(limit: limit)
        }
    }

    /// Passes `error`, of work the store did on its own, to the configuration's handler; not a
    /// store closed or moved meanwhile, which ends that work rather than failing it.
    func reportMaintenanceError(_ error: ArchiveStorageError) {
        guard error.code != .storeClosed, error.code != .storeMoved else { return }
        self.configuration.maintenanceErrorHandler?(error)
    }

    /// The bytes an eviction under `limit` leaves at most.
    private static func lowWaterMark(_ limit: Int) -> Int {
        limit / 100 * evictionLowWaterPercent + limit % 100 * evictionLowWaterPercent / 100
    }

    // MARK: SQLite

    /// If the database counts more than `limit` (payloads, free pages and the WAL), gives back
    /// what no entry holds; if it still counts more, evicts rows in transactions of at most
    /// ``tablePageSize`` removals until it counts at most the low-water mark, and gives their pages
    /// back.
    private func tableEvict(limit: Int, in table: any EntryTable) throws(ArchiveStorageError) -> Int {
        guard try table.diskByteCount().total > limit else { return 0 }
        try table.reclaimSpace()
        let count = try table.diskByteCount()
        // Entries go only when what they hold, with what could not be given back, is too much.
        guard count.total > limit else { return 0 }
        let target = Self.lowWaterMark(limit)
        // What could not be given back (a reader holding the WAL) leaves less room for payloads.
        let payloadTarget = max(0, target - count.reclaimable)
        var total = count.payloads
        var removed = 0
        var reads = self.diskUsage.withLock { $0.takeReads() }
        while total > payloadTarget {
            let now = self.now()
            var candidates = try table.evictionCandidates(expiredAt: now, limit: Self.tablePageSize)
            var locations: [EntryLocation] = []
            for index in candidates.indices {
                // A key is always UTF-8 when the store wrote it; any other is damage, evicted too.
                let key = String(decoding: candidates[index].key, as: UTF8.self)
                locations.append(EntryLocation(key: key, directory: self.directoryPath))
                // A load noted since is its recency; the transaction below writes it first.
                if !candidates[index].isExpired, let read = reads[locations[index].fileName],
                    read.time > candidates[index].accessedAt
                {
                    candidates[index].accessedAt = read.time
                }
            }
            // Expired first (as listed), then by recency, loads included.
            let order = candidates.indices.sorted { left, right in
                let (a, b) = (candidates[left], candidates[right])
                if a.isExpired != b.isExpired { return a.isExpired }
                if a.isExpired || a.accessedAt == b.accessedAt { return left < right }
                return a.accessedAt < b.accessedAt
            }
            var victims: [EvictionCandidate] = []
            var victimLocations: [EntryLocation] = []
            var freed = 0
            for index in order where total - freed > payloadTarget {
                victims.append(candidates[index])
                victimLocations.append(locations[index])
                freed += candidates[index].byteCount
            }
            guard !victims.isEmpty || !reads.isEmpty else { break }
            let touches = reads
            reads = [:]
            let remaining: Int
            do {
                (removed, remaining) = try self.commit(table, locations: victimLocations) { writer in
                    for read in touches.values { try writer.noteAccess(key: read.key, at: read.time) }
                    var evicted = removed
                    for victim in victims where try writer.evict(victim, now: now) { evicted += 1 }
                    return (evicted, try writer.diskByteCount().payloads)
                }
            } catch {
                // Rolled back: the loads are noted again for the next eviction.
                self.diskUsage.withLock { $0.restore(touches) }
                throw error
            }
            // No progress (every victim was saved again meanwhile): the next write tries again.
            if victims.isEmpty || remaining >= total { break }
            total = remaining
        }
        // The removed rows' pages; after a failure above, the next eviction gives them back first.
        if removed > 0 { try table.reclaimSpace() }
        return removed
    }

    // MARK: Files

    /// Counts the entry files and, if they take more than `limit`, removes expired and then least
    /// recently used ones until they take at most the low-water mark.
    ///
    /// - Complexity: O(*n*): a `stat` and a header read of every entry file.
    private func filesEvict(limit: Int) throws(ArchiveStorageError) -> Int {
        let now = self.now()
        // Read before the listing: writes during it count as another's, so the estimate is high.
        let generationTotal = self.control.generationTotal()
        var candidates: [EntryFileCandidate] = []
        var total = 0
        for name in try DirectoryListing.names(atPath: self.directoryPath)
        where EntryFileName.classify(name) != .other {
            let location = EntryLocation(fileName: name, directory: self.directoryPath)
            guard let status = DirectoryListing.status(atPath: location.path) else { continue }
            total += status.size
            let header = try? DirectoryListing.readPrefix(atPath: location.path, count: EntryFormat.prefixSize)
            // A damaged header is never expired; it is evicted in its turn like any entry.
            let expiry = header.flatMap { $0 }.flatMap { try? EntryFormat.decodePrefix($0) }?.expiry ?? .infinity
            let isExpired = expiry <= now
            candidates.append(
                EntryFileCandidate(
                    location: location,
                    status: status,
                    isExpired: isExpired,
                    order: isExpired ? expiry : status.modificationTime
                )
            )
        }
        let reads = self.diskUsage.withLock { usage in
            usage.counted(total, entries: candidates.count, generationTotal: generationTotal)
            return total > limit ? usage.takeReads() : [:]
        }
        guard total > limit else { return 0 }
        // Loads noted in memory count as recency; those newer than their file's are written below.
        var touches: [(candidate: EntryFileCandidate, time: Double)] = []
        for index in candidates.indices where !candidates[index].isExpired {
            guard let read = reads[candidates[index].location.fileName], read.time > candidates[index].order else {
                continue
            }
            candidates[index].order = read.time
            touches.append((candidates[index], read.time))
        }
        candidates.sort { left, right in
            if left.isExpired != right.isExpired { return left.isExpired }
            if left.order != right.order { return left.order < right.order }
            return left.location.fileName < right.location.fileName
        }
        let target = Self.lowWaterMark(limit)
        var victims: [EntryFileCandidate] = []
        var freed = 0
        for candidate in candidates where total - freed > target {
            victims.append(candidate)
            freed += candidate.status.size
        }
        let victimNames = Set(victims.map(\.location.fileName))
        touches.removeAll { victimNames.contains($0.candidate.location.fileName) }
        let slots = victims.map(\.location.slot) + touches.map(\.candidate.location.slot)
        // Loads that no write below records are noted again for the next eviction, if it throws.
        var written = Set<String>()
        defer {
            let unwritten = reads.filter { !written.contains($0.key) }
            if !unwritten.isEmpty { self.diskUsage.withLock { $0.restore(unwritten) } }
        }
        let removed = try self.control.withExclusiveLocks(slots: slots) { () throws(ArchiveStorageError) -> Int in
            for (candidate, time) in touches {
                guard let status = DirectoryListing.status(atPath: candidate.location.path),
                    status.inode == candidate.status.inode, status.modificationTime < time
                else { continue }
                DirectoryListing.setModificationTime(atPath: candidate.location.path, to: time)
            }
            // Recorded, or not to be recorded (the entry changed since, or is gone).
            for (fileName, _) in reads { written.insert(fileName) }
            var removed = 0
            for victim in victims {
                // The same file, neither replaced nor written since it was chosen.
                guard DirectoryListing.status(atPath: victim.location.path) == victim.status else { continue }
                if try self.unpublish(victim.location) { removed += 1 }
            }
            return removed
        }
        if removed > 0, self.configuration.isDurable {
            try DurableFile.syncDirectory(ofPath: self.directoryPath + "/" + StoreControlFile.fileName)
        }
        return removed
    }
}

/// An entry file that an eviction may remove.
private struct EntryFileCandidate {
    var location: EntryLocation
    /// The file as the eviction's count found it.
    var status: DirectoryListing.Status
    var isExpired: Bool
    /// The expiry of an expired entry, the recency of another: the order of eviction.
    var order: Double
}
