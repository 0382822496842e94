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

/// Where an entry lives: its key when known, file name, path and generation slot.
///
/// A memory-cache hit needs none of it: the cache is looked up by key, before a location is made.
struct EntryLocation: Sendable {
    /// The store's directory.
    var directory: String
    /// The entry's file name.
    var fileName: String
    /// The entry's key; `nil` for a file found in the directory, whose name may be a hash.
    var key: String?

    /// The location of the entry for `key`.
    init(key: String, directory: String) {
        self.directory = directory
        self.fileName = EntryFileName(key: key).name
        self.key = key
    }

    /// The location of the entry file called `fileName`.
    init(fileName: String, directory: String) {
        self.directory = directory
        self.fileName = fileName
        self.key = nil
    }

    /// The entry file's path.
    var path: String { self.directory + "/" + self.fileName }

    /// The entry's generation slot (and, through it, lock stripe).
    var slot: Int { StoreControlFile.slot(forFileName: self.fileName) }
}

extension ArchiveStore {
    /// The store clock's current time in seconds since 1970.
    /// The schema version written in every entry: the configuration's, or the value type's.
    var schemaVersion: UInt32 {
        self.configuration.schemaVersion ?? UInt32(clamping: ArchiveEvolution.archiveVersion(of: Value.self))
    }

    func now() -> Double {
        self.configuration.clock().timeIntervalSince1970
    }

    /// The value cached for `key`, if it is unexpired and no write has happened to its
    /// generation slot since it was read.
    func cachedValue(forKey key: String, now: Double) -> Value? {
        self.cache.withLock { cache in
            cache.value(forKey: key, now: now) { self.control.generation(ofSlot: $0) }
        }
    }

    /// Reads, checks and decodes the entry at `location`, and caches the value.
    func loadFromDisk(
        key: String,
        location: EntryLocation,
        now: Double,
        isLocked: Bool
    ) throws(ArchiveStorageError) -> Value? {
        // Noted before the read: if a write happens after this, the counter moves on and the value
        // cached below is never used.
        let generation = self.control.generation(ofSlot: location.slot)
        guard let (entry, size) = try self.readEntry(key: key, location: location, isLocked: isLocked),
            entry.prefix.expiry > now
        else { return nil }
        let value = try self.decodeValue(of: entry, key: key, path: self.entryPath(location))
        if let generation, generation & 1 == 0 {
            self.cache.withLock { cache in
                cache.insert(
                    value,
                    forKey: key,
                    cost: size,
                    expiry: entry.prefix.expiry,
                    slot: location.slot,
                    generation: generation
                )
            }
        }
        return value
    }

    /// Reads and checks the whole entry at `location`; `nil` when there is no file.
    func readEntry(
        key: String,
        location: EntryLocation,
        isLocked: Bool
    ) throws(ArchiveStorageError) -> (EntryFormat.Entry, Int)? {
        if let table = self.table { return try self.readRow(key: key, location: location, in: table) }
        guard let bytes = try DurableFile.read(atPath: location.path) else {
            // A move to SQLite removes the entry files last: none may mean that it just did.
            try self.checkNotMoved()
            return nil
        }
        do throws(EntryFormat.Corruption) {
            let entry = try EntryFormat.decode(bytes)
            guard entry.key.elementsEqual(key.utf8) else {
                throw EntryFormat.Corruption(
                    reason:
                        "the entry holds another key, \(String(decoding: entry.key, as: UTF8.self).debugDescription)"
                )
            }
            return (entry, bytes.count)
        } catch {
            throw self.corruptEntry(key: key, location: location, reason: error.reason, isLocked: isLocked)
        }
    }

    /// Reads and checks the header of the entry at `location`, up to and including its key;
    /// `nil` when there is no file.
    func readHeader(key: String, location: EntryLocation) throws(ArchiveStorageError) -> EntryFormat.Prefix? {
        let keyBytes = Array(key.utf8)
        let count = EntryFormat.prefixSize + 255 + keyBytes.count
        guard let bytes = try DirectoryListing.readPrefix(atPath: location.path, count: count) else {
            try self.checkNotMoved()
            return nil
        }
        do throws(EntryFormat.Corruption) {
            let prefix = try EntryFormat.decodePrefix(bytes)
            let keyStart = EntryFormat.prefixSize + prefix.formatIdentifierLength
            guard prefix.keyLength == keyBytes.count, bytes.count >= keyStart + keyBytes.count,
                bytes[keyStart..<keyStart + keyBytes.count].elementsEqual(keyBytes)
            else { throw EntryFormat.Corruption(reason: "the entry holds another key") }
            return prefix
        } catch {
            throw self.corruptEntry(key: key, location: location, reason: error.reason, isLocked: false)
        }
    }

    /// A ``ArchiveStorageError/Code/corruptEntry`` error for the entry at `location`; under the
    /// ``ArchiveStoreConfiguration/CorruptEntryPolicy/moveAside`` policy, moves the entry first.
    func corruptEntry(key: String?, location: EntryLocation, reason: String, isLocked: Bool) -> ArchiveStorageError {
        var reason = reason
        if let table = self.table {
            if self.configuration.corruptEntryPolicy.isMoveAside, let key {
                do {
                    if try self.quarantine(key: Array(key.utf8), reason: reason, in: table) {
                        reason += "; moved to the quarantine table"
                    }
                } catch {
                    reason += "; could not move it to the quarantine table: \(error)"
                }
            }
            return ArchiveStorageError(.corruptEntry, key: key, path: table.path, reason: reason)
        }
        if self.configuration.corruptEntryPolicy.isMoveAside {
            do {
                if let destination = try self.moveAside(location, isLocked: isLocked) {
                    reason += "; moved to \(destination)"
                }
            } catch {
                reason += "; could not move it aside: \(error)"
            }
        }
        return ArchiveStorageError(.corruptEntry, key: key, path: location.path, reason: reason)
    }

    /// Moves the entry at `location` into the `Corrupt` folder if it is still damaged once its
    /// lock is held, and returns its new path; `nil` if it was replaced or removed meanwhile.
    func moveAside(_ location: EntryLocation, isLocked: Bool) throws(ArchiveStorageError) -> String? {
        let destination = try CorruptFolder.destination(forFileName: location.fileName, inStore: self.directoryPath)
        let move = { () throws(ArchiveStorageError) -> String? in
            try self.checkNotMoved()
            guard let bytes = try DurableFile.read(atPath: location.path) else { return nil }
            if Self.isIntact(bytes, fileName: location.fileName) { return nil }
            self.control.beginWrite(slot: location.slot)
            defer { self.endWrite(at: location) }
            try DurableFile.rename(location.path, to: destination)
            return destination
        }
        let moved = isLocked ? try move() : try self.control.withExclusiveLock(slot: location.slot, move)
        if moved != nil, self.configuration.isDurable { try DurableFile.syncDirectory(ofPath: location.path) }
        return moved
    }

    /// Whether `bytes` are a sound entry whose key has the file name `fileName`.
    static func isIntact(_ bytes: [UInt8], fileName: String) -> Bool {
        Self.damage(bytes, fileName: fileName) == nil
    }

    /// What is wrong with `bytes` as the entry file called `fileName`; `nil` when they are a sound
    /// entry whose key has that file name.
    static func damage(_ bytes: [UInt8], fileName: String) -> String? {
        let entry: EntryFormat.Entry
        do throws(EntryFormat.Corruption) {
            entry = try EntryFormat.decode(bytes)
        } catch {
            return error.reason
        }
        guard let key = validUTF8String(entry.key) else { return "the key is not UTF-8" }
        guard EntryFileName(key: key).name == fileName else {
            return "the entry holds another key, \(key.debugDescription)"
        }
        return nil
    }

    /// The key of the entry file called `fileName` holding `bytes`, sound or not: the one its name
    /// encodes, or for a name made of a key's hash, the key in its header if it hashes to that
    /// name; `nil` when neither tells it.
    static func key(ofFileNamed fileName: String, bytes: [UInt8]) -> String? {
        switch EntryFileName.classify(fileName) {
        case .encoded(let key):
            return key
        case .hashed:
            guard let prefix = try? EntryFormat.decodePrefix(bytes) else { return nil }
            let start = EntryFormat.prefixSize + prefix.formatIdentifierLength
            guard start <= bytes.count, bytes.count - start >= prefix.keyLength,
                let key = validUTF8String(bytes[start..<start + prefix.keyLength]),
                EntryFileName(key: key).name == fileName
            else { return nil }
            return key
        case .other:
            return nil
        }
    }

    /// Decodes the payload of `entry` with the format it names.
    func decodeValue(of entry: EntryFormat.Entry, key: String, path: String) throws(ArchiveStorageError) -> Value {
        guard let format = self.formats[entry.formatIdentifier] else {
            throw ArchiveStorageError(
                .unrecognizedFormat,
                key: key,
                path: path,
                reason: "unknown payload format \"\(entry.formatIdentifier)\""
            )
        }
        let decoded: any Decodable
        do {
            let payload = entry.payload
            if entry.prefix.schemaVersion == 0 {
                decoded = try format.decode(Value.self, payload)
            } else {
                // The entry's version is the value's when its object carries none (0: unknown).
                decoded = try ArchiveEvolution.$rootVersion.withValue(Int(entry.prefix.schemaVersion)) {
                    try format.decode(Value.self, payload)
                }
            }
        } catch {
            throw ArchiveStorageError(.decodingFailed, key: key, path: path, underlying: error)
        }
        guard let value = decoded as? Value else {
            throw ArchiveStorageError(
                .typeMismatch,
                key: key,
                path: path,
                reason: "format \"\(format.identifier)\" returned \(type(of: decoded)), not \(Value.self)"
            )
        }
        return value
    }

    /// The entry holding `value`, as a row: its payload in the store's format, its schema
    /// version, its expiry and (its recency) the store clock's time. Both backends encode with it.
    func entryRow(for value: Value, key: String, expiration: ArchiveExpiration?) throws(ArchiveStorageError) -> EntryRow
    {
        let payload: Data
        do {
            payload = try self.configuration.format.encode(value)
        } catch {
            throw ArchiveStorageError(.encodingFailed, key: key, underlying: error)
        }
        let now = self.configuration.clock()
        return EntryRow(
            formatIdentifier: self.configuration.format.identifier,
            schemaVersion: self.schemaVersion,
            expiry: (expiration ?? self.configuration.defaultExpiration).expiry(savedAt: now),
            payload: payload,
            accessedAt: now.timeIntervalSince1970
        )
    }

    /// The bytes of an entry file holding `value`: its row (``entryRow(for:key:expiration:)``).
    func entryBytes(
        for value: Value,
        key: String,
        expiration: ArchiveExpiration?
    ) throws(ArchiveStorageError) -> [UInt8] {
        let row = try self.entryRow(for: value, key: key, expiration: expiration)
        return EntryFormat.encode(
            key: key,
            formatIdentifier: row.formatIdentifier,
            schemaVersion: row.schemaVersion,
            expiry: row.expiry,
            payload: row.payload
        )
    }

    /// Renames `temporary` over the entry at `location`. Call with the entry's lock held.
    ///
    /// Under a ``ArchiveStoreConfiguration/diskByteLimit``, the new file's modification time is the
    /// store clock's time (its recency), and the byte estimate follows the replacement.
    func publish(_ temporary: String, at location: EntryLocation) throws(ArchiveStorageError) {
        do {
            try self.checkNotMoved()
        } catch {
            _ = try? DirectoryListing.removeFile(atPath: temporary)
            throw error
        }
        var change: Int?
        if self.configuration.diskByteLimit != nil {
            DirectoryListing.setModificationTime(atPath: temporary, to: self.now())
            let new = DirectoryListing.status(atPath: temporary)?.size ?? 0
            change = new - (DirectoryListing.status(atPath: location.path)?.size ?? 0)
        }
        self.control.beginWrite(slot: location.slot)
        defer { self.endWrite(at: location) }
        do {
            try DurableFile.rename(temporary, to: location.path)
        } catch {
            _ = try? DirectoryListing.removeFile(atPath: temporary)
            throw error
        }
        if let change { self.diskUsage.withLock { $0.add(change) } }
    }

    /// Removes the entry file at `location`; `false` if there was none. Call with the entry's
    /// lock held.
    func unpublish(_ location: EntryLocation) throws(ArchiveStorageError) -> Bool {
        try self.checkNotMoved()
        let size = self.configuration.diskByteLimit == nil ? nil : DirectoryListing.status(atPath: location.path)?.size
        self.control.beginWrite(slot: location.slot)
        defer { self.endWrite(at: location) }
        let removed = try DirectoryListing.removeFile(atPath: location.path)
        if let size { self.diskUsage.withLock { $0.add(removed ? -size : 0) } }
        return removed
    }

    /// Ends a write: moves the slot's generation on and drops this process's cached value (a
    /// value cached under a key not known here is stale by the generation, and dropped when found).
    private func endWrite(at location: EntryLocation) {
        self.control.endWrite(slot: location.slot)
        if let key = location.key { self.cache.withLock { $0.removeValue(forKey: key) } }
    }
}
