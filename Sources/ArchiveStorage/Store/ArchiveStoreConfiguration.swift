//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-keyed-archive open source project
//
// Licensed under Apache License v2.0
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

/// The options of an ``ArchiveStore``.
public struct ArchiveStoreConfiguration: Sendable {
    /// The backend of a store this configuration creates. Defaults to ``ArchiveStoreBackend/files``.
    ///
    /// An existing store keeps the backend it was created with, whatever this says: opening it
    /// detects its backend from its directory (``ArchiveStore/backend``).
    public var backend: ArchiveStoreBackend = .files

    /// The format new entries are written in. Defaults to ``ArchiveValueFormat/keyedArchive``.
    public var format: ArchiveValueFormat = .keyedArchive

    /// Formats the store reads besides ``format`` and ``ArchiveValueFormat/builtIn``.
    public var additionalFormats: [ArchiveValueFormat] = []

    /// The schema version stored in every entry this store saves; `nil` (the default) takes the
    /// value type's version: its `archiveVersion` if it is `ArchiveVersioned` (every `@Archivable`
    /// type is), else 1.
    ///
    /// ``ArchiveStore/info(forKey:)-13my1`` tells which entries an earlier version saved, and
    /// ``ArchiveStore/rewriteOutdatedEntries()-6lujx`` saves them again in the current version. When
    /// an entry's value carries no version of its own (it was saved before its type was versioned),
    /// the entry's schema version is taken as the value's; 0, what stores wrote by default before
    /// types carried versions, means unknown.
    public var schemaVersion: UInt32?

    /// The expiration of entries saved without one of their own. Defaults to
    /// ``ArchiveExpiration/never``.
    public var defaultExpiration: ArchiveExpiration = .never

    /// The most decoded values kept in memory; 0 turns the memory cache off. Defaults to 1,000.
    public var memoryCountLimit: Int = 1000

    /// The most bytes of entries (their ``ArchiveEntryInfo/byteCount``) whose decoded values are kept in memory;
    /// 0 turns the memory cache off. Defaults to 16 MiB.
    public var memoryCostLimit: Int = 16 << 20

    /// Whether a write returns only once it is on stable storage. Defaults to `true`.
    ///
    /// On the files backend, `fsync` of the file and its directory (`F_FULLFSYNC` on Apple
    /// platforms); on the SQLite backend, commits with `synchronous = FULL`, `fullfsync` and
    /// `checkpoint_fullfsync`. With `false`, a write is still atomic, and survives the process
    /// crashing, but not a power loss or a kernel crash: suitable for caches (SQLite then commits
    /// with `synchronous = NORMAL`).
    public var isDurable: Bool = true

    /// The data-protection class of the store's files on the Apple platforms that have data
    /// protection; ignored elsewhere. Defaults to
    /// ``ArchiveFileProtection/completeUntilFirstUserAuthentication``, so that an app can use the
    /// store in the background once the device has been unlocked after a restart.
    ///
    /// Opening the store sets it on the store's directory, which its new files inherit, and on the
    /// files already there when it changed. See ``ArchiveFileProtection``.
    public var fileProtection: ArchiveFileProtection = .completeUntilFirstUserAuthentication

    /// The most bytes of entries the store keeps on disk; `nil` (the default) for no limit.
    ///
    /// On the files backend it counts the entry files (their ``ArchiveEntryInfo/byteCount``); on
    /// the SQLite backend, the stored payloads, the database's free pages and its WAL file, and a
    /// store above the limit gives the free pages and the WAL back before it evicts entries.
    ///
    /// With a limit the store is a cache: when a save, a batch save or an update leaves more than
    /// this on disk, expired entries and then the least recently used ones (by their last save or
    /// last load) are removed until at most 90% of the limit is left, so a full store does not
    /// evict on every save. A value larger than the limit on its own is not kept: its save removes
    /// the key's previous entry and returns normally. Loads are noted in memory and written to
    /// disk only by an eviction, never as a durable write of their own. <doc:StoringValues>
    /// describes how recency is kept on each backend and across processes.
    public var diskByteLimit: Int?

    /// Called with each failure of work the store does on its own, which has no caller to throw
    /// to: the eviction after a write (``ArchiveStore/evictToDiskByteLimit()``), and the purge and
    /// clean-up of leftover files when the store opens. `nil` (the default) ignores them.
    ///
    /// That work is best effort: the write that started an eviction has succeeded, and the next
    /// write's eviction tries again. The handler runs on the thread of the work (a write's, or a
    /// background queue's when the store opens): keep it short, and do not use the store in it.
    public var maintenanceErrorHandler: (@Sendable (ArchiveStorageError) -> Void)?

    /// Whether opening the store starts a background purge of expired entries. Defaults to `true`.
    ///
    /// Leftover temporary files of crashed writers are removed in the background either way.
    public var purgesExpiredEntriesOnOpen: Bool = true

    /// What a read does with a corrupt entry. Defaults to ``CorruptEntryPolicy/report``.
    public var corruptEntryPolicy: CorruptEntryPolicy = .report

    /// The clock that decides expiry. Defaults to the system clock; tests inject their own.
    public var clock: @Sendable () -> Date = { Date() }

    /// Creates the default configuration.
    public init() {}

    /// What reading a corrupt entry does besides throwing ``ArchiveStorageError/Code/corruptEntry``.
    public struct CorruptEntryPolicy: Sendable, Hashable {
        private let movesAside: Bool

        /// Leave the entry where it is: every read of it throws.
        public static let report = CorruptEntryPolicy(movesAside: false)

        /// Move the entry aside, so the next read finds no entry; the read that found it still
        /// throws. On the files backend the entry file goes to the `Corrupt` folder of the store's
        /// directory; on the SQLite backend the row goes to the table `quarantine`.
        public static let moveAside = CorruptEntryPolicy(movesAside: true)

        var isMoveAside: Bool { self.movesAside }
    }
}
