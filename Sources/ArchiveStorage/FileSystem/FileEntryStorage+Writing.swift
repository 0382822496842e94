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

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

// Writing entry files: a temporary file, flushed, renamed over the entry's file under its lock
// stripe (`publish`), and the directory flushed; a removal unlinks the file under its stripe
// (`unpublish`). Both mark the entry's generation slot as being written around the change.
extension FileEntryStorage {
    /// Writes the entry of `key` holding `value`, or removes it if it exceeds the disk byte limit.
    func save<Value>(
        _ value: Value,
        forKey key: String,
        expiration: ArchiveExpiration?,
        in store: ArchiveStore<Value>
    ) throws(ArchiveStorageError) {
        let location = EntryLocation(key: key, directory: store.directoryPath)
        let bytes = Self.bytes(of: try store.entryRow(for: value, key: key, expiration: expiration), key: key)
        if store.exceedsDiskByteLimit(bytes.count) { return try store.remove(forKey: key) }
        let temporary = try DurableFile.writeTemporary(
            besidePath: location.path,
            bytes: bytes,
            durable: store.configuration.isDurable
        )
        try store.control.withExclusiveLock(slot: location.slot) { () throws(ArchiveStorageError) in
            try self.publish(temporary, at: location, in: store)
        }
        if store.configuration.isDurable { try DurableFile.syncDirectory(ofPath: location.path) }
        store.evictIfNeeded()
    }

    /// Writes every entry to a temporary file, flushes them all, renames each into place holding
    /// its lock stripe (one acquisition per stripe), then flushes the directory once.
    func save<Value>(
        _ values: [(key: String, value: Value)],
        expiration: ArchiveExpiration?,
        in store: ArchiveStore<Value>
    ) throws(ArchiveStorageError) {
        var locations: [EntryLocation] = []
        var contents: [[UInt8]] = []
        var oversized: [String] = []
        locations.reserveCapacity(values.count)
        contents.reserveCapacity(values.count)
        for (key, value) in values {
            let bytes = Self.bytes(of: try store.entryRow(for: value, key: key, expiration: expiration), key: key)
            if store.exceedsDiskByteLimit(bytes.count) {
                oversized.append(key)
                continue
            }
            locations.append(EntryLocation(key: key, directory: store.directoryPath))
            contents.append(bytes)
        }
        for key in oversized { try store.remove(forKey: key) }
        let temporaries = try DurableFile.writeTemporaries(
            inDirectory: store.directoryPath,
            contents: contents,
            durable: store.configuration.isDurable
        )
        // One lock acquisition per stripe, not per entry.
        let slots = locations.map(\.slot)
        let order = slots.indices.sorted {
            slots[$0] % StoreControlFile.stripeCount < slots[$1] % StoreControlFile.stripeCount
        }
        var published = Set<Int>()
        do throws(ArchiveStorageError) {
            var start = 0
            while start < order.count {
                let stripe = slots[order[start]] % StoreControlFile.stripeCount
                var end = start
                while end < order.count, slots[order[end]] % StoreControlFile.stripeCount == stripe {
                    end += 1
                }
                let group = order[start..<end]
                try store.control.withExclusiveLock(slot: slots[order[start]]) {
                    () throws(ArchiveStorageError) in
                    for index in group {
                        published.insert(index)
                        try self.publish(temporaries[index], at: locations[index], in: store)
                    }
                }
                start = end
            }
        } catch {
            for index in temporaries.indices where !published.contains(index) {
                _ = try? DirectoryListing.removeFile(atPath: temporaries[index])
            }
            throw error
        }
        if store.configuration.isDurable {
            try DurableFile.syncDirectory(ofPath: store.directoryPath + "/" + StoreControlFile.fileName)
        }
        store.evictIfNeeded()
    }

    /// Removes the entry file of `key` holding its lock stripe.
    func remove<Value>(forKey key: String, in store: ArchiveStore<Value>) throws(ArchiveStorageError) {
        let location = EntryLocation(key: key, directory: store.directoryPath)
        let removed = try store.control.withExclusiveLock(slot: location.slot) { () throws(ArchiveStorageError) in
            try self.unpublish(location, in: store)
        }
        if removed, store.configuration.isDurable { try DurableFile.syncDirectory(ofPath: location.path) }
    }

    /// Removes every entry file, each holding its lock stripe, and empties the memory tier.
    func removeAll<Value>(in store: ArchiveStore<Value>) throws(ArchiveStorageError) {
        var removedAny = false
        for name in try DirectoryListing.names(atPath: store.directoryPath)
        where EntryFileName.classify(name) != .other {
            let location = EntryLocation(fileName: name, directory: store.directoryPath)
            let removed = try store.control.withExclusiveLock(slot: location.slot) { () throws(ArchiveStorageError) in
                try self.unpublish(location, in: store)
            }
            removedAny = removedAny || removed
        }
        store.cache.withLock { $0.removeAll() }
        store.diskUsage.withLock { $0.byteCount = nil }
        if removedAny, store.configuration.isDurable {
            try DurableFile.syncDirectory(ofPath: store.directoryPath + "/" + StoreControlFile.fileName)
        }
    }

    /// Reads the value of `key`, runs `body` and writes the result, all holding the entry's lock
    /// stripe.
    func update<Value, Result>(
        forKey key: String,
        expiration: ArchiveExpiration?,
        in store: ArchiveStore<Value>,
        _ body: (inout Value?) throws -> Result
    ) throws -> Result {
        let location = EntryLocation(key: key, directory: store.directoryPath)
        // What `body` returned or threw, and whether the entry file changed.
        typealias Outcome = (result: Swift.Result<Result, any Error>, wrote: Bool)
        let outcome = try store.control.withExclusiveLock(slot: location.slot) {
            () throws(ArchiveStorageError) -> Outcome in
            let now = store.now()
            var value = store.cachedValue(forKey: key, now: now)
            if value == nil {
                value = try store.loadFromDisk(key: key, location: location, now: now, isLocked: true)
            }
            let result: Result
            do {
                result = try body(&value)
            } catch {
                return (.failure(error), false)
            }
            guard let value else {
                return (.success(result), try self.unpublish(location, in: store))
            }
            let bytes = Self.bytes(of: try store.entryRow(for: value, key: key, expiration: expiration), key: key)
            if store.exceedsDiskByteLimit(bytes.count) {
                return (.success(result), try self.unpublish(location, in: store))
            }
            let temporary = try DurableFile.writeTemporary(
                besidePath: location.path,
                bytes: bytes,
                durable: store.configuration.isDurable
            )
            try self.publish(temporary, at: location, in: store)
            return (.success(result), true)
        }
        if outcome.wrote, store.configuration.isDurable { try DurableFile.syncDirectory(ofPath: location.path) }
        if outcome.wrote { store.evictIfNeeded() }
        return try outcome.result.get()
    }

    /// Rewrites the outdated entries of `keys` one by one, each read, decoded and written holding
    /// its lock stripe.
    func rewriteOutdatedEntries<Value>(
        _ keys: [String],
        olderThan current: UInt32,
        in store: ArchiveStore<Value>
    ) throws(ArchiveStorageError) -> [String] {
        var rewritten: [String] = []
        for key in keys {
            let location = EntryLocation(key: key, directory: store.directoryPath)
            let wrote = try store.control.withExclusiveLock(slot: location.slot) {
                () throws(ArchiveStorageError) -> Bool in
                let read = try self.readEntry(key: key, location: location, isLocked: true, in: store)
                guard let (entry, _, path) = read, entry.prefix.expiry > store.now(),
                    // Older only: an entry a newer release saved is left for that release.
                    entry.prefix.schemaVersion < current
                else { return false }
                let value = try store.decodeValue(of: entry, key: key, path: path)
                let expiry = entry.prefix.expiry
                let expiration: ArchiveExpiration =
                    expiry.isFinite ? .at(Date(timeIntervalSince1970: expiry)) : .never
                let bytes = Self.bytes(of: try store.entryRow(for: value, key: key, expiration: expiration), key: key)
                let temporary = try DurableFile.writeTemporary(
                    besidePath: location.path,
                    bytes: bytes,
                    durable: store.configuration.isDurable
                )
                try self.publish(temporary, at: location, in: store)
                return true
            }
            if wrote {
                if store.configuration.isDurable { try DurableFile.syncDirectory(ofPath: location.path) }
                rewritten.append(key)
            }
        }
        return rewritten
    }

    /// The bytes of the entry file of `key` holding `row`.
    static func bytes(of row: EntryRow, key: String) -> [UInt8] {
        EntryFormat.encode(
            key: key,
            formatIdentifier: row.formatIdentifier,
            schemaVersion: row.schemaVersion,
            expiry: row.expiry,
            payload: row.payload
        )
    }

    /// Renames `temporary` over the entry file at `location`. Call with the entry's lock held.
    ///
    /// Under a ``ArchiveStoreConfiguration/diskByteLimit``, the new file's modification time is the
    /// store clock's time (its recency), and the byte estimate follows the replacement.
    func publish<Value>(
        _ temporary: String,
        at location: EntryLocation,
        in store: ArchiveStore<Value>
    ) throws(ArchiveStorageError) {
        do {
            try store.checkNotMoved()
        } catch {
            _ = try? DirectoryListing.removeFile(atPath: temporary)
            throw error
        }
        var change: Int?
        if store.configuration.diskByteLimit != nil {
            DirectoryListing.setModificationTime(atPath: temporary, to: store.now())
            let new = DirectoryListing.status(atPath: temporary)?.size ?? 0
            change = new - (DirectoryListing.status(atPath: location.path)?.size ?? 0)
        }
        store.control.beginWrite(slot: location.slot)
        defer { self.endWrite(at: location, in: store) }
        do {
            try DurableFile.rename(temporary, to: location.path)
        } catch {
            _ = try? DirectoryListing.removeFile(atPath: temporary)
            throw error
        }
        if let change { store.diskUsage.withLock { $0.add(change) } }
    }

    /// Removes the entry file at `location`; `false` if there was none. Call with the entry's
    /// lock held.
    func unpublish<Value>(
        _ location: EntryLocation,
        in store: ArchiveStore<Value>
    ) throws(ArchiveStorageError) -> Bool {
        try store.checkNotMoved()
        let size = store.configuration.diskByteLimit == nil ? nil : DirectoryListing.status(atPath: location.path)?.size
        store.control.beginWrite(slot: location.slot)
        defer { self.endWrite(at: location, in: store) }
        let removed = try DirectoryListing.removeFile(atPath: location.path)
        if let size { store.diskUsage.withLock { $0.add(removed ? -size : 0) } }
        return removed
    }

    /// Ends a write: moves the slot's generation on and drops this process's cached value (a
    /// value cached under a key not known here is stale by the generation, and dropped when found).
    func endWrite<Value>(at location: EntryLocation, in store: ArchiveStore<Value>) {
        store.control.endWrite(slot: location.slot)
        if let key = location.key { store.cache.withLock { $0.removeValue(forKey: key) } }
    }
}
