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

// Eviction of entry files under a disk byte limit. An entry file's recency is its modification
// time, which `publish` sets to the save's time; loads noted in memory since the last eviction
// raise it, under the same lock stripes as the removals this eviction decides.
extension FileEntryStorage {
    /// Whether the estimate of the entry files' bytes (`DiskUsage`) is above `limit`, or unknown.
    func mayExceed<Value>(_ limit: Int, in store: ArchiveStore<Value>) -> Bool {
        let total = store.control.generationTotal()
        if let estimate = store.diskUsage.withLock({ $0.estimate(generationTotal: total) }), estimate <= limit {
            return false
        }
        return true
    }

    /// Counts the entry files and, if they take more than `limit`, removes expired and then least
    /// recently used ones until they take at most the low-water mark.
    ///
    /// - Complexity: O(*n*): a `stat` and a header read of every entry file.
    func evict<Value>(limit: Int, in store: ArchiveStore<Value>) throws(ArchiveStorageError) -> Int {
        let now = store.now()
        // Read before the listing: writes during it count as another's, so the estimate is high.
        let generationTotal = store.control.generationTotal()
        var candidates: [EntryFileCandidate] = []
        var total = 0
        for name in try DirectoryListing.names(atPath: store.directoryPath)
        where EntryFileName.classify(name) != .other {
            let location = EntryLocation(fileName: name, directory: store.directoryPath)
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
        let reads = store.diskUsage.withLock { usage in
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
        let target = ArchiveStore<Value>.lowWaterMark(limit)
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
            if !unwritten.isEmpty { store.diskUsage.withLock { $0.restore(unwritten) } }
        }
        let removed = try store.control.withExclusiveLocks(slots: slots) { () throws(ArchiveStorageError) -> Int in
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
                if try self.unpublish(victim.location, in: store) { removed += 1 }
            }
            return removed
        }
        if removed > 0, store.configuration.isDurable {
            try DurableFile.syncDirectory(ofPath: store.directoryPath + "/" + StoreControlFile.fileName)
        }
        return removed
    }
}

/// An entry file that an eviction may remove.
private struct EntryFileCandidate {
    /// Where the file is.
    var location: EntryLocation
    /// The file as the eviction's count found it.
    var status: DirectoryListing.Status
    /// Whether the entry was found expired.
    var isExpired: Bool
    /// The expiry of an expired entry, the recency of another: the order of eviction.
    var order: Double
}
