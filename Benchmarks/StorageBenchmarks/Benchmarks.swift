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

// ArchiveStore on the local file system. Names are "ArchiveStore.<operation>/<case>":
// - `save/durable`: one `save(_:forKey:)` of a small value: encode, temporary file, fsync, rename,
//   directory fsync.
// - `save/batch100`: one `save(_:)` of 100 values: the same with one directory flush.
// - `load/memoryHit`: `load(forKey:)` of a value already in the memory cache (per load).
// - `load/disk`: `load(forKey:)` with the memory cache off: read, checksum, decode.
// - `open/100k`: `ArchiveStore.init` on a directory of 100,000 entries (the background purge it
//   starts is waited for outside the measurement).
// - `purgeExpired/100k`: a purge that reads the headers of 100,000 entries and finds none expired.
// - `fill/<backend>/100k`: 100,000 small values saved durably in batches of 1,000 into a new store
//   on each backend (`files`, `sqlite`); throughput is batches per second (× 1,000 entries).
// Stores live in fresh folders of the temporary directory, removed afterwards. Everything here is
// file-system bound, so wall clock depends on the disk and the machine's load; malloc counts
// depend on the background maintenance thread too, so none of these are gated by thresholds.
let benchmarks: @Sendable () -> Void = {
    let metrics: [BenchmarkMetric] = [.wallClock, .throughput, .mallocCountTotal]

    func configuration(seconds: Int, iterations: Int, scaling: BenchmarkScalingFactor = .one) -> Benchmark.Configuration
    {
        .init(
            metrics: metrics,
            timeUnits: .microseconds,
            warmupIterations: 1,
            scalingFactor: scaling,
            maxDuration: .seconds(seconds),
            maxIterations: iterations
        )
    }

    let profile = Profile(name: "Ada Lovelace", visits: 42, tags: ["math", "engines", "poetry"])

    Benchmark("ArchiveStore.save/durable", configuration: configuration(seconds: 3, iterations: 500)) { benchmark in
        let folder = ScratchFolder()
        defer { folder.remove() }
        let store = try ArchiveStore<Profile>(name: "store", in: .path(folder.path))
        store.waitForBackgroundMaintenance()
        benchmark.startMeasurement()
        for iteration in benchmark.scaledIterations {
            try store.save(profile, forKey: "profile\(iteration % 100)")
        }
        benchmark.stopMeasurement()
    }

    Benchmark("ArchiveStore.save/batch100", configuration: configuration(seconds: 3, iterations: 100)) { benchmark in
        let folder = ScratchFolder()
        defer { folder.remove() }
        let store = try ArchiveStore<Profile>(name: "store", in: .path(folder.path))
        var batch: [String: Profile] = [:]
        for index in 0..<100 { batch["profile\(index)"] = profile }
        store.waitForBackgroundMaintenance()
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            try store.save(batch)
        }
        benchmark.stopMeasurement()
    }

    // The loads read stores made once per process, outside the measurements.
    let hotStore = Prepared {
        let store = try ArchiveStore<Profile>(name: "store", in: .path(ScratchFolder().path))
        try store.save(profile, forKey: "hot")
        _ = try store.load(forKey: "hot")
        store.waitForBackgroundMaintenance()
        return store
    }
    Benchmark(
        "ArchiveStore.load/memoryHit",
        configuration: configuration(seconds: 2, iterations: 1000, scaling: .kilo),
        closure: { benchmark in
            let store = try hotStore.value()
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations {
                blackHole(try store.load(forKey: "hot"))
            }
            benchmark.stopMeasurement()
        },
        teardown: { hotStore.remove() }
    )

    let coldStore = Prepared {
        var options = ArchiveStoreConfiguration()
        options.memoryCountLimit = 0
        let store = try ArchiveStore<Profile>(
            name: "store",
            in: .path(ScratchFolder().path),
            configuration: options
        )
        var batch: [String: Profile] = [:]
        for index in 0..<100 { batch["profile\(index)"] = profile }
        try store.save(batch)
        store.waitForBackgroundMaintenance()
        return store
    }
    Benchmark(
        "ArchiveStore.load/disk",
        configuration: configuration(seconds: 2, iterations: 10_000),
        closure: { benchmark in
            let store = try coldStore.value()
            let key = "profile\(Int.random(in: 0..<100))"
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations {
                blackHole(try store.load(forKey: key))
            }
            benchmark.stopMeasurement()
        },
        teardown: { coldStore.remove() }
    )

    for backend in [ArchiveStoreBackend.files, .sqlite] {
        Benchmark("ArchiveStore.fill/\(backend)/100k", configuration: configuration(seconds: 60, iterations: 3)) {
            benchmark in
            let folder = ScratchFolder()
            defer { folder.remove() }
            var options = ArchiveStoreConfiguration()
            options.backend = backend
            options.memoryCountLimit = 0
            let store = try ArchiveStore<Profile>(name: "store", in: .path(folder.path), configuration: options)
            let batches = stride(from: 0, to: 100_000, by: 1000).map { start in
                Dictionary(uniqueKeysWithValues: (start..<start + 1000).map { ("entry\($0)", profile) })
            }
            store.waitForBackgroundMaintenance()
            benchmark.startMeasurement()
            for batch in batches { try store.save(batch) }
            benchmark.stopMeasurement()
        }
    }

    let large = LargeStore()
    let open: (Benchmark) throws -> Void = { benchmark in
        let path = try large.path()
        benchmark.startMeasurement()
        let store = try ArchiveStore<Profile>(name: "store", in: .path(path))
        benchmark.stopMeasurement()
        store.waitForBackgroundMaintenance()
        blackHole(store)
    }
    Benchmark(
        "ArchiveStore.open/100k",
        configuration: configuration(seconds: 20, iterations: 10),
        closure: open,
        teardown: { large.remove() }
    )

    let purge: (Benchmark) throws -> Void = { benchmark in
        var options = ArchiveStoreConfiguration()
        options.purgesExpiredEntriesOnOpen = false
        let store = try ArchiveStore<Profile>(name: "store", in: .path(try large.path()), configuration: options)
        store.waitForBackgroundMaintenance()
        benchmark.startMeasurement()
        blackHole(try store.purgeExpired())
        benchmark.stopMeasurement()
    }
    Benchmark(
        "ArchiveStore.purgeExpired/100k",
        configuration: configuration(seconds: 20, iterations: 3),
        closure: purge,
        teardown: { large.remove() }
    )
}

/// The stored value: a small record.
struct Profile: Codable, Sendable, Equatable {
    var name: String
    var visits: Int
    var tags: [String]
}

/// A fresh folder in the temporary directory.
struct ScratchFolder {
    let path = NSTemporaryDirectory() + "StorageBenchmarks-\(UUID().uuidString)"

    func remove() {
        try? FileManager.default.removeItem(atPath: self.path)
    }
}

/// A store made on first use and kept until ``remove()``, whose folder ``remove()`` deletes.
final class Prepared: @unchecked Sendable {
    private let lock = NSLock()
    private let make: () throws -> ArchiveStore<Profile>
    private var store: ArchiveStore<Profile>?

    init(_ make: @escaping () throws -> ArchiveStore<Profile>) {
        self.make = make
    }

    func value() throws -> ArchiveStore<Profile> {
        try self.lock.withLock {
            if let store { return store }
            let store = try self.make()
            self.store = store
            return store
        }
    }

    func remove() {
        self.lock.withLock {
            if let store { try? FileManager.default.removeItem(atPath: store.directoryPath) }
            self.store = nil
        }
    }
}

/// A folder holding a store of 100,000 entries, made on first use (non-durably, in batches of
/// 1,000) and kept until ``remove()``.
final class LargeStore: @unchecked Sendable {
    private let lock = NSLock()
    private var folder: ScratchFolder?

    func path() throws -> String {
        try self.lock.withLock {
            if let folder { return folder.path }
            let folder = ScratchFolder()
            var options = ArchiveStoreConfiguration()
            options.isDurable = false
            options.memoryCountLimit = 0
            let store = try ArchiveStore<Profile>(name: "store", in: .path(folder.path), configuration: options)
            let profile = Profile(name: "Grace Hopper", visits: 7, tags: ["cobol"])
            for start in stride(from: 0, to: 100_000, by: 1000) {
                var batch: [String: Profile] = [:]
                for index in start..<start + 1000 { batch["entry\(index)"] = profile }
                try store.save(batch)
            }
            store.waitForBackgroundMaintenance()
            self.folder = folder
            return folder.path
        }
    }

    func remove() {
        self.lock.withLock {
            self.folder?.remove()
            self.folder = nil
        }
    }
}
