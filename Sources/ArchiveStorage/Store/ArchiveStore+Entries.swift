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
    /// The schema version written in every entry: the configuration's, or the value type's.
    var schemaVersion: UInt32 {
        self.configuration.schemaVersion ?? UInt32(clamping: ArchiveEvolution.archiveVersion(of: Value.self))
    }

    /// The store clock's current time in seconds since 1970.
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
        let read = try self.entries.readEntry(key: key, location: location, isLocked: isLocked, in: self)
        guard let (entry, size, path) = read, entry.prefix.expiry > now else { return nil }
        let value = try self.decodeValue(of: entry, key: key, path: path)
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
    /// version, its expiry and (its recency) the store clock's time.
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
}
