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

// Eviction of rows under a disk byte limit. A row's recency is its indexed `accessedAt` column;
// loads noted in memory since the last eviction raise it in the same transaction as the removals
// this eviction decides.
extension TableEntryStorage {
    /// Always: the database's own count is exact, but a query, made by the eviction.
    func mayExceed<Value>(_ limit: Int, in store: ArchiveStore<Value>) -> Bool {
        true
    }

    /// If the database counts more than `limit` (payloads, free pages and the WAL), gives back
    /// what no entry holds; if it still counts more, evicts rows in transactions of at most
    /// ``pageSize`` removals until it counts at most the low-water mark, and gives their pages
    /// back.
    func evict<Value>(limit: Int, in store: ArchiveStore<Value>) throws(ArchiveStorageError) -> Int {
        guard try self.table.diskByteCount().total > limit else { return 0 }
        try self.table.reclaimSpace()
        let count = try self.table.diskByteCount()
        // Entries go only when what they hold, with what could not be given back, is too much.
        guard count.total > limit else { return 0 }
        let target = ArchiveStore<Value>.lowWaterMark(limit)
        // What could not be given back (a reader holding the WAL) leaves less room for payloads.
        let payloadTarget = max(0, target - count.reclaimable)
        var total = count.payloads
        var removed = 0
        var reads = store.diskUsage.withLock { $0.takeReads() }
        while total > payloadTarget {
            let now = store.now()
            var candidates = try self.table.evictionCandidates(expiredAt: now, limit: Self.pageSize)
            var locations: [EntryLocation] = []
            for index in candidates.indices {
                // A key is always UTF-8 when the store wrote it; any other is damage, evicted too.
                let key = String(decoding: candidates[index].key, as: UTF8.self)
                locations.append(EntryLocation(key: key, directory: store.directoryPath))
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
                (removed, remaining) = try self.commit(locations: victimLocations, in: store) { writer in
                    for read in touches.values { try writer.noteAccess(key: read.key, at: read.time) }
                    var evicted = removed
                    for victim in victims where try writer.evict(victim, now: now) { evicted += 1 }
                    return (evicted, try writer.diskByteCount().payloads)
                }
            } catch {
                // Rolled back: the loads are noted again for the next eviction.
                store.diskUsage.withLock { $0.restore(touches) }
                throw error
            }
            // No progress (every victim was saved again meanwhile): the next write tries again.
            if victims.isEmpty || remaining >= total { break }
            total = remaining
        }
        // The removed rows' pages; after a failure above, the next eviction gives them back first.
        if removed > 0 { try self.table.reclaimSpace() }
        return removed
    }
}
