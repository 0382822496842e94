//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-keyed-archive open source project
//
// Licensed under Apache License v2.0
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Dispatch
import KeyedArchiving

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A durable, process-safe store of `Codable` values under string keys, with an in-memory cache.
///
/// Each entry is a file in the store's directory, or a row of a SQLite database there (see
/// ``ArchiveStoreBackend``), replaced atomically and durably on every save and protected by a
/// checksum. Many threads, tasks and processes may use one directory at once:
/// writers lock the entry's stripe of a shared lock file, and ``update(forKey:expiration:_:)-4u4g2`` is
/// an atomic read-modify-write even across processes. Decoded values are cached in memory and
/// stay correct when another process writes the directory. <doc:StoringValues> describes the
/// guarantees, the file layout and the entry format.
///
/// ```swift
/// struct Profile: Codable, Sendable { var name: String; var visits: Int }
///
/// let profiles = try ArchiveStore<Profile>(name: "com.example.profiles")
/// try profiles.save(Profile(name: "Ada", visits: 1), forKey: "ada")
/// try profiles.update(forKey: "ada") { profile in profile?.visits += 1 }
/// let ada = try profiles.load(forKey: "ada")        // Profile(name: "Ada", visits: 2)
/// let later = try await profiles.load(forKey: "ada") // the same, off the cooperative pool
/// ```
///
/// Every method has a synchronous form and an `async` form; the `async` form runs file-system
/// work on a Dispatch queue, never on the cooperative thread pool.
///
/// Once the store is moved to another backend
/// (``ArchiveStoreDirectory/moveStore(named:to:)-8i0d6``), every method of an instance opened
/// before throws ``ArchiveStorageError/Code/storeMoved``: open the store again.
public final class ArchiveStore<Value: Codable & Sendable>: Sendable {
    /// The store's name: the last component of its directory.
    public let name: String
    /// The store's directory, which holds one file per entry.
    public let directoryPath: String
    /// The options the store was opened with.
    public let configuration: ArchiveStoreConfiguration
    /// How the store keeps its entries: the backend it was created with, whatever
    /// ``ArchiveStoreConfiguration/backend`` says now.
    public let backend: ArchiveStoreBackend

    let control: StoreControlFile
    /// The control file's move count when the store opened (see ``checkNotMoved()``).
    let moveCount: UInt64
    /// Where the entries are: the backend's storage, which every operation calls without
    /// branching on the backend.
    let entries: any EntryStorage
    let cache: Locked<MemoryCache<Value>>
    let formats: [String: ArchiveValueFormat]
    let queue: DispatchQueue
    let maintenance = DispatchGroup()
    /// Loads not yet written to disk and the files backend's byte estimate, under a
    /// ``ArchiveStoreConfiguration/diskByteLimit``.
    let diskUsage = Locked(DiskUsage())
    /// Held by an eviction, so that one instance runs one at a time.
    let evictionLock = Locked(())
    /// Set by ``close()``.
    let isClosed = Locked(false)

    /// Opens the store called `name` in `directory`, creating its folder if needed.
    ///
    /// Opening does not read the entries, and on the SQLite backend runs no integrity check: it
    /// takes a few system calls whatever their number. Damage is found when an entry is read, or
    /// by ``verifyIntegrity()-8j80a``.
    /// Leftover temporary files of crashed writers and, if
    /// ``ArchiveStoreConfiguration/purgesExpiredEntriesOnOpen``, expired entries are removed in
    /// the background (see ``waitForBackgroundMaintenance()-1ujbq``).
    ///
    /// - Parameters:
    ///   - name: The name of the store's folder: a non-empty file name of at most 255 bytes,
    ///     without `/` or NUL, other than `.` and `..`. A reverse-DNS name avoids clashes.
    ///   - directory: Where the store's folder lives. Defaults to
    ///     ``ArchiveStoreDirectory/applicationSupport``.
    ///   - configuration: The store's options.
    /// - Throws: ``ArchiveStorageError`` with code ``ArchiveStorageError/Code/invalidConfiguration``
    ///   for a bad name, format identifier or unknown home directory, or
    ///   ``ArchiveStorageError/Code/fileSystem`` when the folder cannot be created.
    public init(
        name: String,
        in directory: ArchiveStoreDirectory = .applicationSupport,
        configuration: ArchiveStoreConfiguration = ArchiveStoreConfiguration()
    ) throws(ArchiveStorageError) {
        let path = try directory.storePath(named: name)
        var formats: [String: ArchiveValueFormat] = [:]
        for format in ArchiveValueFormat.builtIn + configuration.additionalFormats + [configuration.format] {
            let length = format.identifier.utf8.count
            guard length > 0, length <= 255 else {
                throw ArchiveStorageError(
                    .invalidConfiguration,
                    reason: "format identifier \"\(format.identifier)\" is not 1 to 255 bytes long"
                )
            }
            formats[format.identifier] = format
        }
        try DirectoryListing.createDirectory(atPath: path)
        let suspension = StoreSuspension()
        // Before the control file of a new store, whose presence tells an existing files store.
        let (entries, control, moveCount) = try StoreMove.open(directory: path, suspension: suspension) {
            () throws(ArchiveStorageError) in
            try Self.openStorage(
                directory: path,
                backend: configuration.backend,
                isDurable: configuration.isDurable,
                tracksByteCount: configuration.diskByteLimit != nil,
                suspension: suspension
            )
        }
        #if os(iOS) || os(tvOS) || os(watchOS) || os(visionOS)
        try configuration.fileProtection.apply(toStoreAt: path)
        #endif
        self.entries = entries
        self.control = control
        self.moveCount = moveCount
        self.backend = entries.backend
        self.name = name
        self.directoryPath = path
        self.configuration = configuration
        self.formats = formats
        self.cache = Locked(
            MemoryCache(countLimit: configuration.memoryCountLimit, costLimit: configuration.memoryCostLimit)
        )
        self.queue = DispatchQueue(label: "ArchiveStore.\(name)", qos: .userInitiated, attributes: .concurrent)
        self.startMaintenance()
    }

    // MARK: Reading

    /// Returns the value stored under `key`, or `nil` if there is none or it has expired.
    ///
    /// A value read before is returned from memory, without decoding, unless some process has
    /// written an entry of the same generation slot since.
    ///
    /// - Throws: ``ArchiveStorageError`` with code ``ArchiveStorageError/Code/corruptEntry``
    ///   (naming the key and the file) when the entry is damaged,
    ///   ``ArchiveStorageError/Code/decodingFailed`` when its payload does not decode as `Value`,
    ///   ``ArchiveStorageError/Code/unrecognizedFormat`` when its payload format is unknown, or
    ///   ``ArchiveStorageError/Code/fileSystem``.
    public func load(forKey key: String) throws(ArchiveStorageError) -> Value? {
        try self.checkNotMoved()
        let now = self.now()
        if let value = self.cachedValue(forKey: key, now: now) {
            self.noteRead(key: key, now: now)
            return value
        }
        let location = EntryLocation(key: key, directory: self.directoryPath)
        let value = try self.loadFromDisk(key: key, location: location, now: now, isLocked: false)
        if value != nil { self.noteRead(key: key, now: now) }
        return value
    }

    /// Whether an unexpired entry is stored under `key`.
    ///
    /// This reads only the entry's header; a damaged payload is reported by ``load(forKey:)-59ajw``.
    ///
    /// - Throws: ``ArchiveStorageError`` with code ``ArchiveStorageError/Code/corruptEntry`` when
    ///   the header is damaged, or ``ArchiveStorageError/Code/fileSystem``.
    public func contains(_ key: String) throws(ArchiveStorageError) -> Bool {
        try self.checkNotMoved()
        let now = self.now()
        if self.cachedValue(forKey: key, now: now) != nil { return true }
        let location = EntryLocation(key: key, directory: self.directoryPath)
        guard let expiry = try self.entries.expiry(forKey: key, location: location, in: self) else { return false }
        return expiry > now
    }

    /// Describes the unexpired entry stored under `key` without decoding its value, or returns
    /// `nil` if there is none.
    ///
    /// - Throws: ``ArchiveStorageError`` with code ``ArchiveStorageError/Code/corruptEntry`` or
    ///   ``ArchiveStorageError/Code/fileSystem``.
    public func info(forKey key: String) throws(ArchiveStorageError) -> ArchiveEntryInfo? {
        try self.checkNotMoved()
        let location = EntryLocation(key: key, directory: self.directoryPath)
        let read = try self.entries.readEntry(key: key, location: location, isLocked: false, in: self)
        guard let (entry, size, _) = read, entry.prefix.expiry > self.now() else { return nil }
        return ArchiveEntryInfo(
            key: key,
            schemaVersion: entry.prefix.schemaVersion,
            expirationDate: entry.prefix.expiry.isFinite ? Date(timeIntervalSince1970: entry.prefix.expiry) : nil,
            formatIdentifier: entry.formatIdentifier,
            byteCount: size
        )
    }

    // MARK: Writing

    /// Stores `value` under `key`, replacing any entry, atomically and (unless the store is not
    /// ``ArchiveStoreConfiguration/isDurable``) durably.
    ///
    /// - Parameters:
    ///   - value: The value to store.
    ///   - key: Any string, including the empty one.
    ///   - expiration: When the entry expires; `nil` for the store's
    ///     ``ArchiveStoreConfiguration/defaultExpiration``.
    /// - Throws: ``ArchiveStorageError`` with code ``ArchiveStorageError/Code/encodingFailed`` or
    ///   ``ArchiveStorageError/Code/fileSystem``; the previous entry is then unchanged.
    public func save(
        _ value: Value,
        forKey key: String,
        expiration: ArchiveExpiration? = nil
    ) throws(ArchiveStorageError) {
        try self.checkNotMoved()
        try self.entries.save(value, forKey: key, expiration: expiration, in: self)
    }

    /// Removes the entry stored under `key`, if any.
    ///
    /// - Throws: ``ArchiveStorageError`` with code ``ArchiveStorageError/Code/fileSystem``.
    public func remove(forKey key: String) throws(ArchiveStorageError) {
        try self.checkNotMoved()
        try self.entries.remove(forKey: key, in: self)
    }

    /// Removes every entry, and empties the memory cache. The `Corrupt` folder is left alone.
    ///
    /// - Throws: ``ArchiveStorageError`` with code ``ArchiveStorageError/Code/fileSystem``.
    public func removeAll() throws(ArchiveStorageError) {
        try self.checkNotMoved()
        try self.entries.removeAll(in: self)
    }

    /// Reads the value under `key`, lets `body` change it, and writes the result, holding the
    /// entry's lock throughout, so no other thread or process writes the entry in between: two
    /// racing updates never lose one another's change.
    ///
    /// `body` receives `nil` when there is no unexpired entry; setting the value to `nil` removes
    /// the entry. The entry is written (and made durable) only if `body` returns normally.
    ///
    /// `body` runs with the lock held: keep it short. It may read this store, but a write of this
    /// store from it (on the same thread) throws ``ArchiveStorageError/Code/nestedWrite`` rather
    /// than wait for itself.
    ///
    /// - Parameters:
    ///   - key: The entry's key.
    ///   - expiration: The expiration of the written entry; `nil` for the store's
    ///     ``ArchiveStoreConfiguration/defaultExpiration``.
    ///   - body: Changes the value in place and returns a result.
    /// - Returns: What `body` returns.
    /// - Throws: What `body` throws, unchanged; otherwise ``ArchiveStorageError``, as
    ///   ``load(forKey:)-59ajw`` and ``save(_:forKey:expiration:)-2xcjx`` throw it, and
    ///   ``ArchiveStorageError/Code/nestedWrite`` when called from another write of this store.
    @discardableResult
    public func update<Result>(
        forKey key: String,
        expiration: ArchiveExpiration? = nil,
        _ body: (inout Value?) throws -> Result
    ) throws -> Result {
        try self.checkNotMoved()
        return try self.entries.update(forKey: key, expiration: expiration, in: self, body)
    }
}
