//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-keyed-archive open source project
//
// Licensed under Apache License v2.0
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import ArchiveStorage
import Benchmark
import Foundation
import KeyedArchiving
import KeyedArchivingMacros

/// A value the storage benchmarks store: ``Profile`` or ``Record``.
protocol StoredValue: Codable, Sendable, Equatable {
    /// The value every entry holds.
    static var sample: Self { get }
    /// What the names of the value's benchmarks and fixtures add: empty for ``Profile``.
    static var label: String { get }
    /// The value's name, for the baseline's `name` column.
    var name: String { get }
    /// The value's visits, for the baseline's `id` and `score` columns.
    var visits: Int { get }
    /// The value's tags, for the baseline's `tag1` and `tag2` columns.
    var tags: [String] { get }
}

/// The stored value: a small record, plain `Codable`.
struct Profile: StoredValue {
    var name: String
    var visits: Int
    var tags: [String]

    static var sample: Profile { Workload.profile }
    static var label: String { "" }
}

/// Issue 33's small value, 6 fields, `@Archivable`: encoded and decoded on the direct path.
@Archivable
struct Record: StoredValue {
    var name: String
    var visits: Int
    var email: String?
    var lastSeen: Date
    var tags: [String]
    var score: Double

    static let sample = Record(
        name: "Ada Lovelace",
        visits: 42,
        email: "ada@example.com",
        lastSeen: Date(timeIntervalSinceReferenceDate: 786_000_000),
        tags: ["admin", "beta", "math"],
        score: 97.5
    )
    static var label: String { ".record" }
}

/// What every storage benchmark stores: `entries` copies of one small record under the keys
/// `entry0`, `entry1`, ..., written in batches of 1,000.
enum Workload {
    /// The record every entry holds.
    static let profile = Profile(name: "Ada Lovelace", visits: 42, tags: ["math", "engines", "poetry"])

    /// The number of entries a batch save or a baseline transaction writes.
    static let batchSize = 1000

    /// The key of entry `index`.
    static func key(_ index: Int) -> String { "entry\(index)" }

    /// The store sizes to measure: `STORAGE_BENCHMARKS_SIZES` (entry counts separated by commas,
    /// for a quick check at smaller sizes), or 100,000 and 1,000,000.
    static let sizes: [Int] = {
        guard let list = ProcessInfo.processInfo.environment["STORAGE_BENCHMARKS_SIZES"] else {
            return [100_000, 1_000_000]
        }
        return list.split(separator: ",").compactMap { Int($0) }.filter { $0 > 0 }
    }()

    /// Whether `ArchiveStore.fill/<backend>/<entries>` runs. Filling the files backend durably
    /// with a million entries or more takes about 10 minutes (1,600 entries/s), so it runs only
    /// with `STORAGE_BENCHMARKS_1M_FILES=1`; the other benchmarks of that size read a store built
    /// once, non-durably (``Fixture``).
    static func includesFill(_ backend: ArchiveStoreBackend, entries: Int) -> Bool {
        backend != .files || entries < 1_000_000
            || ProcessInfo.processInfo.environment["STORAGE_BENCHMARKS_1M_FILES"] == "1"
    }

    /// A size as benchmark names show it: `100k`, `1M`.
    static func label(_ entries: Int) -> String {
        if entries >= 1_000_000, entries % 1_000_000 == 0 { return "\(entries / 1_000_000)M" }
        if entries >= 1000, entries % 1000 == 0 { return "\(entries / 1000)k" }
        return "\(entries)"
    }

    /// The batches that fill a store with `entries` entries of `Value.sample`.
    static func batches<Value: StoredValue>(_ entries: Int, of _: Value.Type = Profile.self) -> [[String: Value]] {
        stride(from: 0, to: entries, by: self.batchSize).map { start in
            Dictionary(
                uniqueKeysWithValues: (start..<min(start + self.batchSize, entries)).map { (key($0), Value.sample) }
            )
        }
    }

    /// Saves `batches` into a new store in `directory`, memory tier off, and returns how long the
    /// saves took, between `benchmark`'s start and stop; the store is closed when this returns.
    static func fill<Value: StoredValue>(
        _ batches: [[String: Value]],
        in directory: String,
        backend: ArchiveStoreBackend,
        isDurable: Bool,
        measuring benchmark: Benchmark? = nil
    ) throws -> Duration {
        let store = try openStore(in: directory, of: Value.self, backend: backend, isDurable: isDurable)
        store.waitForBackgroundMaintenance()
        let clock = ContinuousClock()
        let start = clock.now
        benchmark?.startMeasurement()
        for batch in batches { try store.save(batch) }
        benchmark?.stopMeasurement()
        return start.duration(to: clock.now)
    }

    /// Opens the store `store` in `directory`; a store that does not exist yet is created on
    /// `backend`. Unless `purgesOnOpen`, it starts no purge of expired entries in the background.
    static func openStore<Value: StoredValue>(
        in directory: String,
        of _: Value.Type = Profile.self,
        backend: ArchiveStoreBackend = .files,
        memoryCountLimit: Int = 0,
        isDurable: Bool = true,
        purgesOnOpen: Bool = false,
        diskByteLimit: Int? = nil
    ) throws -> ArchiveStore<Value> {
        var options = ArchiveStoreConfiguration()
        options.backend = backend
        options.memoryCountLimit = memoryCountLimit
        options.isDurable = isDurable
        options.purgesExpiredEntriesOnOpen = purgesOnOpen
        options.diskByteLimit = diskByteLimit
        return try ArchiveStore<Value>(name: "store", in: .path(directory), configuration: options)
    }

    /// The bytes a store of `entries` entries holds: the UTF-8 of every key and every payload.
    static func dataBytes<Value: StoredValue>(_ entries: Int, of _: Value.Type = Profile.self) throws -> Int {
        let payload = try self.payload(of: Value.self).count
        return (0..<entries).reduce(0) { sum, index in sum + key(index).utf8.count + payload }
    }

    /// The payload the store writes for ``profile``, in its default format.
    static var payload: Data {
        get throws { try self.payload(of: Profile.self) }
    }

    /// The payload the store writes for `Value.sample`, in its default format.
    static func payload<Value: StoredValue>(of _: Value.Type) throws -> Data {
        try ArchiveValueFormat.keyedArchive.encode(Value.sample)
    }
}
