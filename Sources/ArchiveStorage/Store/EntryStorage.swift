//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-keyed-archive open source project
//
// Licensed under Apache License v2.0
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// Where a store keeps its entries: one backend, chosen once when the store opens
/// (`ArchiveStore.openStorage`), so that no method of the store branches on it.
///
/// The store keeps what both backends share: the move check every operation starts with, the
/// memory tier's fast path, and what depends on `Value` (`entryRow(for:key:expiration:)` encodes,
/// `decodeValue(of:key:path:)` decodes; a conformer calls them). A conformer does the rest of each
/// operation: it takes the entries' lock stripes of the control file (then, on SQLite, the
/// database's write lock), marks their generation slots as being written, drops the values it
/// replaces from the memory tier, flushes, reports damage under the store's corrupt-entry policy,
/// and evicts after a write that may leave the store above its disk byte limit.
protocol EntryStorage: Sendable {
    /// The backend: `ArchiveStore.backend`.
    var backend: ArchiveStoreBackend { get }

    // MARK: Reading

    /// Reads and checks the whole entry of `key` at `location`; `nil` when there is none. Returns
    /// its size and the file its errors name (its own, or the database).
    /// - Parameter isLocked: Whether the caller holds the entry's lock stripe.
    func readEntry<Value>(
        key: String,
        location: EntryLocation,
        isLocked: Bool,
        in store: ArchiveStore<Value>
    ) throws(ArchiveStorageError) -> (entry: EntryFormat.Entry, byteCount: Int, path: String)?

    /// Reads and checks the entry of `key` at `location` and, when it is unexpired at `now`,
    /// decodes its value from the bytes as read, without copying its payload
    /// (`ArchiveStore.decodeValue(payload:formatIdentifier:schemaVersion:key:path:)`); `nil` when
    /// there is none or it has expired. A damaged entry throws as ``readEntry(key:location:isLocked:in:)``.
    /// - Parameter isLocked: Whether the caller holds the entry's lock stripe.
    func loadEntry<Value>(
        key: String,
        location: EntryLocation,
        now: Double,
        isLocked: Bool,
        in store: ArchiveStore<Value>
    ) throws(ArchiveStorageError) -> LoadedEntry<Value>?

    /// The expiry of the entry of `key` at `location`, read from its header alone; `nil` when
    /// there is none.
    func expiry<Value>(
        forKey key: String,
        location: EntryLocation,
        in store: ArchiveStore<Value>
    ) throws(ArchiveStorageError) -> Double?

    /// Up to `limit` (at least 1) keys of entries in `range` unexpired at `now`, after `after`,
    /// in byte order.
    func keys<Value>(
        in range: KeyPrefixRange,
        after: [UInt8]?,
        unexpiredAt now: Double,
        limit: Int,
        in store: ArchiveStore<Value>
    ) throws(ArchiveStorageError) -> [String]

    /// The number of entries in `range` unexpired at `now`.
    func count<Value>(
        in range: KeyPrefixRange,
        unexpiredAt now: Double,
        in store: ArchiveStore<Value>
    ) throws(ArchiveStorageError) -> Int

    // MARK: Writing

    /// `ArchiveStore.save(_:forKey:expiration:)` after its move check.
    func save<Value>(
        _ value: Value,
        forKey key: String,
        expiration: ArchiveExpiration?,
        in store: ArchiveStore<Value>
    ) throws(ArchiveStorageError)

    /// `ArchiveStore.save(_:expiration:)` of `values` (distinct keys, at least one) after
    /// its move check.
    func save<Value>(
        _ values: [(key: String, value: Value)],
        expiration: ArchiveExpiration?,
        in store: ArchiveStore<Value>
    ) throws(ArchiveStorageError)

    /// `ArchiveStore.remove(forKey:)` after its move check.
    func remove<Value>(forKey key: String, in store: ArchiveStore<Value>) throws(ArchiveStorageError)

    /// `ArchiveStore.removeAll()` after its move check, memory tier included.
    func removeAll<Value>(in store: ArchiveStore<Value>) throws(ArchiveStorageError)

    /// `ArchiveStore.update(forKey:expiration:_:)` after its move check.
    func update<Value, Result>(
        forKey key: String,
        expiration: ArchiveExpiration?,
        in store: ArchiveStore<Value>,
        _ body: (inout Value?) throws -> Result
    ) throws -> Result

    /// Rewrites the entries of `keys` that a schema version before `current` saved, in the
    /// current version and format; returns the keys it rewrote, in the order of `keys`.
    func rewriteOutdatedEntries<Value>(
        _ keys: [String],
        olderThan current: UInt32,
        in store: ArchiveStore<Value>
    ) throws(ArchiveStorageError) -> [String]

    // MARK: Maintenance

    /// Removes the entries expired at `now` from disk; how many it removed.
    func purgeExpired<Value>(at now: Double, in store: ArchiveStore<Value>) throws(ArchiveStorageError) -> Int

    /// `ArchiveStore.moveCorruptEntriesAside()` after its move check.
    func moveCorruptEntriesAside<Value>(in store: ArchiveStore<Value>) throws(ArchiveStorageError) -> [String]

    /// `ArchiveStore.verifyIntegrity()` after its move check.
    func verifyIntegrity<Value>(in store: ArchiveStore<Value>) throws(ArchiveStorageError) -> ArchiveIntegrityReport

    /// Removes the temporary files that writers which died left in `directory`; how many.
    func removeStaleTemporaryFiles(in directory: String) throws(ArchiveStorageError) -> Int

    /// Lets go of what the storage holds open; every later call throws
    /// ``ArchiveStorageError/Code/storeClosed``.
    func close()

    // MARK: Disk byte limit

    /// Whether the store may be above `limit` after a write of this instance: an eviction is
    /// then worth its cost.
    func mayExceed<Value>(_ limit: Int, in store: ArchiveStore<Value>) -> Bool

    /// Evicts entries until the store is within `limit`, if it is above it; how many entries it
    /// removed. Called holding the store's eviction lock.
    func evict<Value>(limit: Int, in store: ArchiveStore<Value>) throws(ArchiveStorageError) -> Int

    // MARK: Moves between backends

    /// What an interrupted move left in the store's `directory`
    /// (`StoreMove.leftovers(in:storeIsSQLite:)`).
    func moveLeftovers(in directory: String) throws(ArchiveStorageError) -> [String]

    /// Whether another backend's store has taken `directory` over since the store opened, so that
    /// its leftovers are not this instance's to remove.
    func isSuperseded(in directory: String) -> Bool
}

/// A value that ``EntryStorage/loadEntry(key:location:now:isLocked:in:)`` decoded, with what the
/// memory tier keeps beside it.
struct LoadedEntry<Value> {
    /// The decoded value.
    var value: Value
    /// The entry's expiry, in seconds since 1970 (`infinity`: never).
    var expiry: Double
    /// The entry's size: its file, or its payload.
    var byteCount: Int
}
