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
/// The slot is worked out once, when the location is made; the file name of a key only when it is
/// asked for (the files backend), since the SQLite backend needs the slot alone.
struct EntryLocation: Sendable {
    /// What the location was made from.
    private enum Origin: Sendable {
        /// An entry's key.
        case key(String)
        /// The name of a file found in the directory.
        case file(String)
    }

    /// The store's directory.
    var directory: String
    /// What the location was made from.
    private let origin: Origin
    /// The entry's generation slot (and, through it, lock stripe).
    let slot: Int

    /// The location of the entry for `key`.
    init(key: String, directory: String) {
        self.directory = directory
        self.origin = .key(key)
        self.slot = EntryFileName.slot(forKey: key)
    }

    /// The location of the entry file called `fileName`.
    init(fileName: String, directory: String) {
        self.directory = directory
        self.origin = .file(fileName)
        self.slot = StoreControlFile.slot(forFileName: fileName)
    }

    /// The entry's key; `nil` for a file found in the directory, whose name may be a hash.
    var key: String? {
        guard case .key(let key) = self.origin else { return nil }
        return key
    }

    /// The entry's file name (made anew on each use for a location made from a key).
    var fileName: String {
        switch self.origin {
        case .key(let key): EntryFileName(key: key).name
        case .file(let name): name
        }
    }

    /// The entry file's path.
    var path: String { self.directory + "/" + self.fileName }
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
        let loaded = try self.entries.loadEntry(key: key, location: location, now: now, isLocked: isLocked, in: self)
        guard let loaded else { return nil }
        if let generation, generation & 1 == 0 {
            self.cache.withLock { cache in
                cache.insert(
                    loaded.value,
                    forKey: key,
                    cost: loaded.byteCount,
                    expiry: loaded.expiry,
                    slot: location.slot,
                    generation: generation
                )
            }
        }
        return loaded.value
    }

    /// Decodes the payload of `entry` with the format it names.
    func decodeValue(of entry: EntryFormat.Entry, key: String, path: String) throws(ArchiveStorageError) -> Value {
        try self.decodeValue(
            data: entry.payload,
            formatIdentifier: entry.formatIdentifier,
            schemaVersion: entry.prefix.schemaVersion,
            key: key,
            path: path
        )
    }

    /// Decodes the payload of `row` with the format it names.
    func decodeValue(of row: EntryRow, key: String, path: String) throws(ArchiveStorageError) -> Value {
        try self.decodeValue(
            data: row.payload,
            formatIdentifier: row.formatIdentifier,
            schemaVersion: row.schemaVersion,
            key: key,
            path: path
        )
    }

    /// ``decodeValue(payload:formatIdentifier:schemaVersion:key:path:)`` of the bytes of `data`.
    private func decodeValue(
        data: Data,
        formatIdentifier: String,
        schemaVersion: UInt32,
        key: String,
        path: String
    ) throws(ArchiveStorageError) -> Value {
        let decoded = data.withUnsafeBytes { payload in
            Result { () throws(ArchiveStorageError) in
                try self.decodeValue(
                    payload: payload,
                    formatIdentifier: formatIdentifier,
                    schemaVersion: schemaVersion,
                    key: key,
                    path: path
                )
            }
        }
        return try decoded.get()
    }

    /// Decodes `payload` (bytes that may be valid during the call only) with the format named
    /// `formatIdentifier`: in place, as `Value` itself, when it is a built-in keyed archive format
    /// (``ArchiveValueFormat/readsInPlace``); through the format's `decode` closure, on a copy it
    /// may keep, otherwise.
    /// - Parameter schemaVersion: The entry's schema version: the value's when its object carries
    ///   none (0: unknown).
    func decodeValue(
        payload: UnsafeRawBufferPointer,
        formatIdentifier: String,
        schemaVersion: UInt32,
        key: String,
        path: String
    ) throws(ArchiveStorageError) -> Value {
        let configured = self.configuration.format
        guard let format = configured.identifier == formatIdentifier ? configured : self.formats[formatIdentifier]
        else {
            throw ArchiveStorageError(
                .unrecognizedFormat,
                key: key,
                path: path,
                reason: "unknown payload format \"\(formatIdentifier)\""
            )
        }
        let decoded: any Decodable
        do {
            if format.readsInPlace {
                return try Self.withRootVersion(schemaVersion) {
                    try KeyedArchiveDecoder().decode(Value.self, from: payload)
                }
            }
            let copy = Data(payload)
            decoded = try Self.withRootVersion(schemaVersion) { try format.decode(Value.self, copy) }
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

    /// Runs `body` with `version` as the root version of what it decodes
    /// (`ArchiveEvolution.rootVersion`), unless it is 0 (unknown).
    private static func withRootVersion<R>(_ version: UInt32, _ body: () throws -> R) rethrows -> R {
        guard version != 0 else { return try body() }
        return try ArchiveEvolution.$rootVersion.withValue(Int(version), operation: body)
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
