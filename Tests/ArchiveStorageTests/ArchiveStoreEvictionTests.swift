//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-keyed-archive open source project
//
// Licensed under Apache License v2.0
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation
import KeyedArchiving
import TestSupport
import Testing

@testable import ArchiveStorage

/// A disk byte limit with least-recently-used eviction, on both backends.
@Suite struct ArchiveStoreEvictionTests {
    /// The byte count of one entry holding `value` under a key of `keyLength` bytes on `backend`,
    /// measured in a store of its own.
    static func entrySize(_ value: String, keyLength: Int = 3, on backend: ArchiveStoreBackend) throws -> Int {
        let directory = TemporaryDirectory(backend: backend)
        defer { directory.remove() }
        let store: ArchiveStore<String> = try openStore(directory)
        let key = String(repeating: "k", count: keyLength)
        try store.save(value, forKey: key)
        return try #require(try store.info(forKey: key)).byteCount
    }

    /// The sum of the byte counts of the store's unexpired entries.
    static func storedBytes(_ store: ArchiveStore<String>) throws -> Int {
        try store.keys().reduce(0) { total, key in total + (try store.info(forKey: key)?.byteCount ?? 0) }
    }

    static func key(_ index: Int) -> String {
        index < 10 ? "k0\(index)" : "k\(index)"
    }

    static let value = String(repeating: "v", count: 200)

    /// A store in `directory` whose limit holds `entries` entries of ``value`` and half of another.
    static func cappedStore(
        _ directory: TemporaryDirectory,
        entries: Int,
        clock: TestClock,
        _ configure: (inout ArchiveStoreConfiguration) -> Void = { _ in }
    ) throws -> (store: ArchiveStore<String>, entrySize: Int) {
        let size = try Self.entrySize(Self.value, on: directory.backend)
        let store: ArchiveStore<String> = try openStore(directory) {
            $0.diskByteLimit = entries * size + size / 2
            $0.clock = clock.function
            $0.purgesExpiredEntriesOnOpen = false
            configure(&$0)
        }
        store.waitForBackgroundMaintenance()
        return (store, size)
    }

    @Test(arguments: testedBackends) func theLimitHoldsAfterSavesBatchSavesAndUpdates(
        backend: ArchiveStoreBackend
    ) throws {
        let directory = TemporaryDirectory(backend: backend)
        defer { directory.remove() }
        let clock = TestClock()
        let (store, size) = try Self.cappedStore(directory, entries: 10, clock: clock)
        let limit = try #require(store.configuration.diskByteLimit)
        for index in 0..<25 {
            clock.advance(by: 1)
            try store.save(Self.value, forKey: Self.key(index))
            #expect(try Self.storedBytes(store) <= limit)
            #expect(try store.load(forKey: Self.key(index)) == Self.value)
        }
        // Full: at most 10, and an eviction leaves at most 90% of the limit.
        #expect(try store.keys().count <= 10)
        clock.advance(by: 1)
        var batch: [String: String] = [:]
        for index in 30..<45 { batch[Self.key(index)] = Self.value }
        try store.save(batch)
        #expect(try Self.storedBytes(store) <= limit)
        for index in 50..<60 {
            clock.advance(by: 1)
            try store.update(forKey: Self.key(index)) { $0 = Self.value }
            #expect(try Self.storedBytes(store) <= limit)
            #expect(try store.load(forKey: Self.key(index)) == Self.value)
        }
        #expect(try Self.storedBytes(store) >= 8 * size)
    }

    @Test(arguments: testedBackends) func theLeastRecentlyUsedGoFirstAndALoadKeepsAnOldEntry(
        backend: ArchiveStoreBackend
    ) throws {
        let directory = TemporaryDirectory(backend: backend)
        defer { directory.remove() }
        let clock = TestClock()
        let (store, _) = try Self.cappedStore(directory, entries: 10, clock: clock)
        for index in 0..<10 {
            clock.advance(by: 1)
            try store.save(Self.value, forKey: Self.key(index))
        }
        // k00 is the oldest save, but the most recent load (a memory hit).
        clock.advance(by: 1)
        #expect(try store.load(forKey: Self.key(0)) == Self.value)
        // An eleventh entry: 90% of the limit leaves 9, so the two least recently used go.
        clock.advance(by: 1)
        try store.save(Self.value, forKey: Self.key(10))
        #expect(try store.keys() == [0, 3, 4, 5, 6, 7, 8, 9, 10].map(Self.key))
        // The load now is recency on disk: a new instance, with no memory of it, evicts k03 and
        // k04 next, not k00.
        let other: ArchiveStore<String> = try openStore(directory) {
            $0.diskByteLimit = store.configuration.diskByteLimit
            $0.clock = clock.function
            $0.purgesExpiredEntriesOnOpen = false
        }
        clock.advance(by: 1)
        try other.save(Self.value, forKey: Self.key(11))
        clock.advance(by: 1)
        try other.save(Self.value, forKey: Self.key(12))
        #expect(try other.keys() == [0, 5, 6, 7, 8, 9, 10, 11, 12].map(Self.key))
        // A value saved again is recent again: k06 and k07 go before k05.
        clock.advance(by: 1)
        try other.save(Self.value, forKey: Self.key(5))
        clock.advance(by: 1)
        try other.save(Self.value, forKey: Self.key(13))
        clock.advance(by: 1)
        try other.save(Self.value, forKey: Self.key(14))
        let keys = try other.keys()
        #expect(keys == [0, 5, 8, 9, 10, 11, 12, 13, 14].map(Self.key), "\(keys)")
    }

    @Test(arguments: testedBackends) func expiredEntriesGoBeforeUnexpiredOnes(backend: ArchiveStoreBackend) throws {
        let directory = TemporaryDirectory(backend: backend)
        defer { directory.remove() }
        let clock = TestClock()
        let (store, _) = try Self.cappedStore(directory, entries: 10, clock: clock)
        for index in 0..<10 {
            clock.advance(by: 1)
            // The most recent two expire.
            try store.save(Self.value, forKey: Self.key(index), expiration: index >= 8 ? .after(.seconds(5)) : .never)
        }
        clock.advance(by: 10)
        try store.save(Self.value, forKey: Self.key(10))
        #expect(try !isPhysicallyStored(Self.key(8), in: directory))
        #expect(try !isPhysicallyStored(Self.key(9), in: directory))
        #expect(try store.keys() == (0...7).map(Self.key) + [Self.key(10)])
    }

    @Test(arguments: testedBackends) func loadsMakeNoWriteToDisk(backend: ArchiveStoreBackend) async throws {
        let directory = TemporaryDirectory(backend: backend)
        defer { directory.remove() }
        let clock = TestClock()
        let (store, _) = try Self.cappedStore(directory, entries: 10, clock: clock)
        for index in 0..<12 {
            clock.advance(by: 1)
            try await store.save(Self.value, forKey: Self.key(index))
        }
        let keys = try await store.keys()
        // Fresh instances load from disk, then from memory.
        let readers: [ArchiveStore<String>] = try (0..<2).map { _ in
            try openStore(directory) {
                $0.diskByteLimit = store.configuration.diskByteLimit
                $0.clock = clock.function
                $0.purgesExpiredEntriesOnOpen = false
            }
        }
        for reader in readers { await reader.waitForBackgroundMaintenance() }
        let before = Self.snapshot(directory)
        for _ in 0..<3 {
            for reader in readers + [store] {
                for key in keys {
                    clock.advance(by: 1)
                    #expect(try Self.loadSynchronously(key, from: reader) == Self.value)
                    #expect(try await reader.load(forKey: key) == Self.value)
                }
            }
        }
        #expect(Self.snapshot(directory) == before)
    }

    /// The synchronous `load(forKey:)`, which an `async` function would not pick.
    static func loadSynchronously(_ key: String, from store: ArchiveStore<String>) throws -> String? {
        try store.load(forKey: key)
    }

    /// Size, modification time and inode of every file of the store, but SQLite's shared-memory
    /// index (which a read transaction writes, in memory, as part of reading).
    static func snapshot(_ directory: TemporaryDirectory) -> [String: DirectoryListing.Status] {
        var result: [String: DirectoryListing.Status] = [:]
        for name in directoryNames(directory.storePath) where !name.hasSuffix("-shm") {
            result[name] = DirectoryListing.status(atPath: directory.storePath + "/" + name)
        }
        return result
    }

    @Test(.enabled(if: ChildProcesses.areAvailable), arguments: testedBackends)
    func anotherProcessSavingRespectsTheLimit(backend: ArchiveStoreBackend) throws {
        let directory = TemporaryDirectory(backend: backend)
        defer { directory.remove() }
        let clock = TestClock()
        let (store, _) = try Self.cappedStore(directory, entries: 10, clock: clock)
        let limit = try #require(store.configuration.diskByteLimit)
        for index in 0..<10 {
            clock.advance(by: 1)
            try store.save(Self.value, forKey: Self.key(index))
            #expect(try store.load(forKey: Self.key(index)) == Self.value)  // in memory
        }
        let result = try StorageProbe.run(
            ["store-save-capped", directory.path, "\(limit)", "probe"] + Array(repeating: Self.value, count: 5)
        )
        #expect(result.status == 0, "\(result.stderr)")
        let totals = result.stdout.split(separator: "\n").compactMap { Int($0) }
        #expect(totals.count == 5)
        #expect(totals.allSatisfy { $0 <= limit })
        #expect(try Self.storedBytes(store) <= limit)
        // The probe's entries are the most recent; the oldest of this process's are gone, from
        // this process's memory too.
        let remaining = try store.keys()
        #expect((0..<5).allSatisfy { remaining.contains("probe-\($0)") })
        #expect(!remaining.contains(Self.key(0)))
        #expect(try store.load(forKey: Self.key(0)) == nil)
        #expect(try store.load(forKey: Self.key(9)) == Self.value)
    }

    @Test(.enabled(if: ChildProcesses.areAvailable), arguments: testedBackends)
    func savesAfterAnotherProcessFilledTheStoreRespectTheLimit(
        backend: ArchiveStoreBackend
    ) throws {
        let directory = TemporaryDirectory(backend: backend)
        defer { directory.remove() }
        let clock = TestClock()
        let (store, _) = try Self.cappedStore(directory, entries: 10, clock: clock)
        let limit = try #require(store.configuration.diskByteLimit)
        for index in 0..<5 {
            clock.advance(by: 1)
            try store.save(Self.value, forKey: Self.key(index))
        }
        // Five more from another process: full, not above the limit.
        let result = try StorageProbe.run(
            ["store-save-capped", directory.path, "\(limit)", "k9"] + Array(repeating: Self.value, count: 5)
        )
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try Self.storedBytes(store) <= limit)
        // This process has counted only its own five, but notices the other's writes.
        for index in 5..<8 {
            clock.advance(by: 1)
            try store.save(Self.value, forKey: Self.key(index))
            #expect(try Self.storedBytes(store) <= limit)
        }
    }

    @Test(arguments: testedBackends) func withoutALimitNothingIsEvicted(backend: ArchiveStoreBackend) throws {
        let directory = TemporaryDirectory(backend: backend)
        defer { directory.remove() }
        let clock = TestClock()
        let store: ArchiveStore<String> = try openStore(directory) { $0.clock = clock.function }
        #expect(store.configuration.diskByteLimit == nil)
        let big = String(repeating: "x", count: 100_000)
        for index in 0..<40 {
            clock.advance(by: 1)
            try store.save(big, forKey: Self.key(index))
        }
        var batch: [String: String] = [:]
        for index in 40..<60 { batch[Self.key(index)] = big }
        try store.save(batch)
        try store.update(forKey: Self.key(60)) { $0 = big }
        #expect(try store.keys() == (0...60).map(Self.key))
        #expect(try Self.storedBytes(store) > 6_000_000)
    }

    @Test(arguments: testedBackends) func aValueLargerThanTheLimitIsNotKept(backend: ArchiveStoreBackend) throws {
        let directory = TemporaryDirectory(backend: backend)
        defer { directory.remove() }
        let clock = TestClock()
        let (store, _) = try Self.cappedStore(directory, entries: 10, clock: clock)
        let huge = String(repeating: "h", count: 10_000)
        for index in 0..<5 {
            clock.advance(by: 1)
            try store.save(Self.value, forKey: Self.key(index))
        }
        // It replaces the key's entry with none, and leaves the others alone.
        try store.save(huge, forKey: Self.key(0))
        #expect(try store.load(forKey: Self.key(0)) == nil)
        try store.save([Self.key(1): huge, Self.key(20): Self.value])
        #expect(try store.load(forKey: Self.key(1)) == nil)
        try store.update(forKey: Self.key(2)) { $0 = huge }
        #expect(try store.load(forKey: Self.key(2)) == nil)
        #expect(try store.keys() == [3, 4, 20].map(Self.key))
    }

    @Test(arguments: testedBackends) func evictingOnDemandBringsTheStoreWithinALimitSetSince(
        backend: ArchiveStoreBackend
    ) throws {
        let directory = TemporaryDirectory(backend: backend)
        defer { directory.remove() }
        let clock = TestClock()
        do {
            let store: ArchiveStore<String> = try openStore(directory) { $0.clock = clock.function }
            #expect(try store.evictToDiskByteLimit() == 0)
            for index in 0..<10 {
                clock.advance(by: 1)
                try store.save(Self.value, forKey: Self.key(index))
            }
            store.waitForBackgroundMaintenance()
        }
        // Opened with a limit of four and a half entries: opening evicts nothing, the call does.
        let (store, size) = try Self.cappedStore(directory, entries: 4, clock: clock)
        #expect(try store.keys().count == 10)
        #expect(try store.evictToDiskByteLimit() == 6)
        #expect(try store.keys() == (6..<10).map(Self.key))
        #expect(try Self.storedBytes(store) <= 4 * size + size / 2)
        #expect(try store.evictToDiskByteLimit() == 0)
    }

    /// An eviction that fails after a save reaches the configuration's handler, and the save
    /// stands; the on-demand eviction throws the same error. The oldest entry is a directory
    /// under an entry file's name, which no one (root included) can unlink.
    @Test func aFailedEvictionReachesTheHandler() throws {
        let directory = TemporaryDirectory(backend: .files)
        defer { directory.remove() }
        let clock = TestClock()
        let failures = Locked<[ArchiveStorageError]>([])
        let (store, _) = try Self.cappedStore(directory, entries: 4, clock: clock) { configuration in
            configuration.maintenanceErrorHandler = { error in failures.withLock { $0.append(error) } }
        }
        let blocker = directory.storePath + "/" + EntryFileName(key: "blocker").name
        try FileManager.default.createDirectory(atPath: blocker, withIntermediateDirectories: false)
        #expect(DirectoryListing.setModificationTime(atPath: blocker, to: 0))
        for index in 0..<8 {
            clock.advance(by: 1)
            try store.save(Self.value, forKey: Self.key(index))
        }
        #expect(try store.load(forKey: Self.key(7)) == Self.value)
        let reported = failures.withLock { $0 }
        #expect(!reported.isEmpty)
        #expect(reported.allSatisfy { $0.code == .fileSystem }, "\(reported)")
        let thrown = #expect(throws: ArchiveStorageError.self) { try store.evictToDiskByteLimit() }
        #expect(thrown?.code == .fileSystem, "\(String(describing: thrown))")
        #expect(thrown?.path == blocker, "\(String(describing: thrown))")

        // Once the blocker is gone, the next save's eviction succeeds and reports nothing.
        try FileManager.default.removeItem(atPath: blocker)
        failures.withLock { $0 = [] }
        clock.advance(by: 1)
        try store.save(Self.value, forKey: Self.key(8))
        #expect(failures.withLock { $0 }.isEmpty)
        #expect(try store.keys().count <= 4)
    }
}
