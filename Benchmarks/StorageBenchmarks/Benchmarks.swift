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

// ArchiveStore on each backend, and a plain GRDB table as the baseline of the sqlite backend, on
// the local file system. Names are "<Impl>.<operation>/<backend>/<entries>" (README.md, Storage):
// - `Payload.encode/profile`, `Payload.decode/profile`: the value format's share of a save and
//   of a load (1,000 per measurement, per value).
// - `ArchiveStore.save.durable/<backend>`: one `save(_:forKey:)` of a small value.
// - `ArchiveStore.save.batch100/<backend>`: one `save(_:)` of 100 values.
// - `ArchiveStore.save.evicting/<backend>`: one `save(_:forKey:)` of a new key into a store just
//   filled to its disk byte limit (1,000 entries): each sample's measured save is one that evicts.
// - `ArchiveStore.fill/<backend>/<n>`, `GRDB.fill/<n>`: n values saved durably in batches (one
//   transaction each) of 1,000 into a new store or table; custom metrics give the entries per second
//   and the disk the closed store takes, in bytes and in percent of its keys plus payloads.
// - `ArchiveStore.open/<backend>/<n>`, `GRDB.open/<n>`: opening a store of n entries and loading
//   one value; the store's background purge is waited for outside the measurement.
// - `ArchiveStore.load.miss/<backend>/<n>`, `GRDB.load/<n>`: one load of a random key, not in memory.
//   `GRDB.load.connection/<n>`: the same read on a read-only connection of its own, as the store's
//   loads do it (`SQLiteReaders`), without the pool's transaction.
// - `ArchiveStore.load.hit/<backend>/<n>`: a load from memory (1,000 per measurement, per load).
// - `ArchiveStore.keys/<backend>/<n>`, `GRDB.keys/<n>`: all keys listed.
// - `ArchiveStore.keysPage/<backend>/<n>`: one page of 1,000 keys after a random key.
// - `ArchiveStore.count/<backend>/<n>`: the number of entries.
// - `ArchiveStore.purgeExpired/<backend>/<n>`: a purge that finds nothing expired.
// - `Preferences.set/<format>`, `Preferences.get/<format>`: `UserDefaults` helpers against JSON
//   (`PreferencesBenchmarks.swift`).
// - `Payload.*/record`, `ArchiveStore.fill.record/sqlite/<n>`, `ArchiveStore.load.miss.record/sqlite/<n>`,
//   `GRDB.fill.record/<n>`, `GRDB.load.connection.record/<n>`: the same with issue 33's `@Archivable`
//   `Record` (6 fields, the direct path) in place of the plain-`Codable` `Profile`, the baseline
//   holding the record's payload.
// n is 100k and 1M (`Workload.sizes`); `ArchiveStore.fill/files/1M` runs only with
// STORAGE_BENCHMARKS_1M_FILES=1. The stores the reads use are built once and kept (`Fixture`).
// Everything here is file-system bound, so wall clock depends on the disk and the machine's load;
// malloc counts depend on the background maintenance thread too, so none of these are gated by
// thresholds.
let benchmarks: @Sendable () -> Void = {
    let backends: [ArchiveStoreBackend] = [.files, .sqlite]
    registerPayloadBenchmarks()
    registerPreferencesBenchmarks()
    for backend in backends {
        registerSaves(on: backend)
    }
    for entries in Workload.sizes {
        for backend in backends {
            registerStoreBenchmarks(on: backend, entries: entries)
        }
        registerBaselineBenchmarks(entries: entries)
        registerRecordBenchmarks(entries: entries)
    }
}

/// The entries saved per second by a fill.
let entriesPerSecond = BenchmarkMetric.custom("entriesPerSecond", polarity: .prefersLarger, useScalingFactor: false)
/// The bytes on disk of a closed store after a fill, WAL and control files included.
let diskBytes = BenchmarkMetric.custom("diskBytes", polarity: .prefersSmaller, useScalingFactor: false)
/// ``diskBytes`` in percent of the UTF-8 bytes of all keys plus all payloads.
let diskPercentOfData = BenchmarkMetric.custom(
    "diskPercentOfData",
    polarity: .prefersSmaller,
    useScalingFactor: false
)

/// The configuration of a storage benchmark.
func configuration(
    seconds: Int,
    iterations: Int,
    warmup: Int = 1,
    timeUnits: BenchmarkTimeUnits = .microseconds,
    scaling: BenchmarkScalingFactor = .one,
    metrics: [BenchmarkMetric] = [.wallClock, .throughput, .mallocCountTotal]
) -> Benchmark.Configuration {
    .init(
        metrics: metrics,
        timeUnits: timeUnits,
        units: [entriesPerSecond: .count, diskBytes: .count, diskPercentOfData: .count],
        warmupIterations: warmup,
        scalingFactor: scaling,
        maxDuration: .seconds(seconds),
        maxIterations: iterations
    )
}

/// A fill's configuration: a fill takes seconds, so no warm-up, and at most five iterations.
func fillConfiguration(skip: Bool = false) -> Benchmark.Configuration {
    var fill = configuration(
        seconds: 60,
        iterations: 5,
        warmup: 0,
        timeUnits: .milliseconds,
        metrics: [.wallClock, entriesPerSecond, diskBytes, diskPercentOfData]
    )
    fill.skip = skip
    return fill
}

/// Records a fill's rate and the disk its closed store in `directory` takes.
func recordFill<Value: StoredValue>(
    _ benchmark: Benchmark,
    entries: Int,
    elapsed: Duration,
    directory: String,
    of _: Value.Type = Profile.self
) throws {
    let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
    benchmark.measurement(entriesPerSecond, Int((Double(entries) / seconds).rounded()))
    let disk = DiskUsage.allocatedBytes(atPath: directory)
    benchmark.measurement(diskBytes, disk)
    benchmark.measurement(
        diskPercentOfData,
        Int((Double(disk) * 100 / Double(try Workload.dataBytes(entries, of: Value.self))).rounded())
    )
}

/// `Payload.encode/profile` and `Payload.decode/profile`: what a save and a load that misses
/// memory spend in the value format, which the baseline does not pay.
func registerPayloadBenchmarks() {
    registerPayloadBenchmarks(name: "profile", of: Profile.self)
    registerPayloadBenchmarks(name: "record", of: Record.self)
}

/// `Payload.encode/<name>` and `Payload.decode/<name>` of `Value.sample`.
func registerPayloadBenchmarks<Value: StoredValue>(name: String, of _: Value.Type) {
    let format = ArchiveValueFormat.keyedArchive
    Benchmark(
        "Payload.encode/\(name)",
        configuration: configuration(seconds: 2, iterations: 1000, timeUnits: .nanoseconds, scaling: .kilo)
    ) { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(try format.encode(Value.sample))
        }
    }

    let payload = Lazy { try Workload.payload(of: Value.self) }
    Benchmark(
        "Payload.decode/\(name)",
        configuration: configuration(seconds: 2, iterations: 1000, timeUnits: .nanoseconds, scaling: .kilo),
        closure: { benchmark in
            let bytes = try payload.get()
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations {
                blackHole(try format.decode(Value.self, bytes))
            }
            benchmark.stopMeasurement()
        },
        setup: { _ = try payload.get() }
    )
}

/// `ArchiveStore.save.durable/<backend>`, `ArchiveStore.save.evicting/<backend>` and
/// `ArchiveStore.save.batch100/<backend>`.
func registerSaves(on backend: ArchiveStoreBackend) {
    Benchmark("ArchiveStore.save.durable/\(backend)", configuration: configuration(seconds: 3, iterations: 500)) {
        benchmark in
        let folder = ScratchFolder()
        defer { folder.remove() }
        let store = try Workload.openStore(
            in: folder.path,
            backend: backend,
            memoryCountLimit: ArchiveStoreConfiguration().memoryCountLimit
        )
        store.waitForBackgroundMaintenance()
        benchmark.startMeasurement()
        for iteration in benchmark.scaledIterations {
            try store.save(Workload.profile, forKey: Workload.key(iteration % 100))
        }
        benchmark.stopMeasurement()
    }

    Benchmark("ArchiveStore.save.evicting/\(backend)", configuration: configuration(seconds: 3, iterations: 500)) {
        benchmark in
        let folder = ScratchFolder()
        defer { folder.remove() }
        let full = 1000
        // The byte count of one entry, as the limit counts it, in a store of its own.
        let probe = ScratchFolder()
        defer { probe.remove() }
        let measured = try Workload.openStore(in: probe.path, backend: backend)
        try measured.save(Workload.profile, forKey: Workload.key(0))
        let entrySize = try measured.info(forKey: Workload.key(0))?.byteCount ?? 0
        let store = try Workload.openStore(
            in: folder.path,
            backend: backend,
            memoryCountLimit: ArchiveStoreConfiguration().memoryCountLimit,
            diskByteLimit: full * entrySize
        )
        for batch in Workload.batches(full) { try store.save(batch) }
        store.waitForBackgroundMaintenance()
        benchmark.startMeasurement()
        for iteration in benchmark.scaledIterations {
            try store.save(Workload.profile, forKey: Workload.key(full + iteration))
        }
        benchmark.stopMeasurement()
    }

    Benchmark("ArchiveStore.save.batch100/\(backend)", configuration: configuration(seconds: 3, iterations: 100)) {
        benchmark in
        let folder = ScratchFolder()
        defer { folder.remove() }
        let store = try Workload.openStore(
            in: folder.path,
            backend: backend,
            memoryCountLimit: ArchiveStoreConfiguration().memoryCountLimit
        )
        let batch = Workload.batches(100)[0]
        store.waitForBackgroundMaintenance()
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            try store.save(batch)
        }
        benchmark.stopMeasurement()
    }
}

/// The benchmarks of a store of `entries` entries on `backend`.
func registerStoreBenchmarks(on backend: ArchiveStoreBackend, entries: Int) {
    let name = "\(backend)/\(Workload.label(entries))"
    // The fixture, opened for the iterations of one benchmark (each runs in its own process).
    func fixtureStore(memoryCountLimit: Int = 0) -> Lazy<ArchiveStore<Profile>> {
        Lazy {
            let folder = try Fixture.store(backend, entries: entries)
            let store = try Workload.openStore(in: folder, backend: backend, memoryCountLimit: memoryCountLimit)
            store.waitForBackgroundMaintenance()
            return store
        }
    }

    registerFill(on: backend, entries: entries, of: Profile.self)

    Benchmark(
        "ArchiveStore.open/\(name)",
        configuration: configuration(seconds: 20, iterations: 10),
        closure: { benchmark in
            let folder = try Fixture.store(backend, entries: entries)
            let key = Workload.key(entries / 2)
            benchmark.startMeasurement()
            let store = try ArchiveStore<Profile>(name: "store", in: .path(folder))
            let value = try store.load(forKey: key)
            benchmark.stopMeasurement()
            store.waitForBackgroundMaintenance()
            guard value == Workload.profile else { throw BenchmarkFailure("\(key) did not load") }
        },
        setup: { _ = try Fixture.store(backend, entries: entries) }
    )

    registerMiss(on: backend, entries: entries, of: Profile.self)

    // 1,000 keys spread over the store, loaded once before measuring: the memory tier's default
    // count limit holds them all.
    let hotKeys = stride(from: 0, to: entries, by: max(1, entries / 1000)).prefix(1000).map(Workload.key)
    let hotStore = Lazy {
        let store = try fixtureStore(memoryCountLimit: ArchiveStoreConfiguration().memoryCountLimit).get()
        for key in hotKeys { _ = try store.load(forKey: key) }
        return store
    }
    Benchmark(
        "ArchiveStore.load.hit/\(name)",
        configuration: configuration(seconds: 3, iterations: 1000, timeUnits: .nanoseconds, scaling: .kilo),
        closure: { benchmark in
            let store = try hotStore.get()
            benchmark.startMeasurement()
            for iteration in benchmark.scaledIterations {
                blackHole(try store.load(forKey: hotKeys[iteration % hotKeys.count]))
            }
            benchmark.stopMeasurement()
        },
        setup: { _ = try hotStore.get() },
        teardown: { hotStore.reset() }
    )

    let listedStore = fixtureStore()
    Benchmark(
        "ArchiveStore.keys/\(name)",
        configuration: configuration(seconds: 30, iterations: 10),
        closure: { benchmark in
            let store = try listedStore.get()
            benchmark.startMeasurement()
            let keys = try store.keys()
            benchmark.stopMeasurement()
            guard keys.count == entries else { throw BenchmarkFailure("listed \(keys.count) keys of \(entries)") }
        },
        setup: { _ = try listedStore.get() },
        teardown: { listedStore.reset() }
    )

    let pagedStore = fixtureStore()
    Benchmark(
        "ArchiveStore.keysPage/\(name)",
        configuration: configuration(seconds: 10, iterations: 1000),
        closure: { benchmark in
            let store = try pagedStore.get()
            // A key whose decimal index does not start with 9: the keys of the 9s sort after it,
            // so the page is full in a store of 10,000 entries or more.
            var index = Int.random(in: 0..<entries)
            while String(index).hasPrefix("9") { index = Int.random(in: 0..<entries) }
            let after = Workload.key(index)
            benchmark.startMeasurement()
            let page = try store.keys(after: after, limit: 1000)
            benchmark.stopMeasurement()
            guard page.count >= min(1000, entries / 10),
                page.allSatisfy({ after.utf8.lexicographicallyPrecedes($0.utf8) })
            else { throw BenchmarkFailure("listed \(page.count) keys after \(after)") }
        },
        setup: { _ = try pagedStore.get() },
        teardown: { pagedStore.reset() }
    )

    let countedStore = fixtureStore()
    Benchmark(
        "ArchiveStore.count/\(name)",
        configuration: configuration(seconds: 30, iterations: 10),
        closure: { benchmark in
            let store = try countedStore.get()
            benchmark.startMeasurement()
            let count = try store.count()
            benchmark.stopMeasurement()
            guard count == entries else { throw BenchmarkFailure("counted \(count) entries of \(entries)") }
        },
        setup: { _ = try countedStore.get() },
        teardown: { countedStore.reset() }
    )

    let purgedStore = fixtureStore()
    Benchmark(
        "ArchiveStore.purgeExpired/\(name)",
        configuration: configuration(seconds: 30, iterations: 3),
        closure: { benchmark in
            let store = try purgedStore.get()
            benchmark.startMeasurement()
            let removed = try store.purgeExpired()
            benchmark.stopMeasurement()
            guard removed == 0 else { throw BenchmarkFailure("purged \(removed) entries of a fixture") }
        },
        setup: { _ = try purgedStore.get() },
        teardown: { purgedStore.reset() }
    )
}

/// `ArchiveStore.fill<Value.label>/<backend>/<n>`: `entries` values saved durably in batches of 1,000
/// into a new store.
func registerFill<Value: StoredValue>(on backend: ArchiveStoreBackend, entries: Int, of _: Value.Type) {
    let batches = Lazy { Workload.batches(entries, of: Value.self) }
    Benchmark(
        "ArchiveStore.fill\(Value.label)/\(backend)/\(Workload.label(entries))",
        configuration: fillConfiguration(skip: !Workload.includesFill(backend, entries: entries)),
        closure: { benchmark in
            let folder = ScratchFolder()
            defer { folder.remove() }
            let elapsed = try Workload.fill(
                batches.get(),
                in: folder.path,
                backend: backend,
                isDurable: true,
                measuring: benchmark
            )
            try recordFill(
                benchmark,
                entries: entries,
                elapsed: elapsed,
                directory: folder.path + "/store",
                of: Value.self
            )
        },
        setup: { _ = try batches.get() }
    )
}

/// `ArchiveStore.load.miss<Value.label>/<backend>/<n>`: one load of a random key of a store of
/// `entries` values, memory tier off.
func registerMiss<Value: StoredValue>(on backend: ArchiveStoreBackend, entries: Int, of _: Value.Type) {
    let coldStore = Lazy {
        let folder = try Fixture.store(backend, entries: entries, of: Value.self)
        let store = try Workload.openStore(in: folder, of: Value.self, backend: backend)
        store.waitForBackgroundMaintenance()
        return store
    }
    Benchmark(
        "ArchiveStore.load.miss\(Value.label)/\(backend)/\(Workload.label(entries))",
        configuration: configuration(seconds: 5, iterations: 10_000, timeUnits: .nanoseconds),
        closure: { benchmark in
            let store = try coldStore.get()
            let key = Workload.key(Int.random(in: 0..<entries))
            benchmark.startMeasurement()
            let value = try store.load(forKey: key)
            benchmark.stopMeasurement()
            guard value != nil else { throw BenchmarkFailure("\(key) did not load") }
        },
        setup: { _ = try coldStore.get() },
        teardown: { coldStore.reset() }
    )
}

/// The benchmarks of issue 33's `@Archivable` ``Record`` on the sqlite backend and its baseline:
/// fill and miss, beside the baseline's insert and point read on a connection of its own.
func registerRecordBenchmarks(entries: Int) {
    registerFill(on: .sqlite, entries: entries, of: Record.self)
    registerMiss(on: .sqlite, entries: entries, of: Record.self)
    registerBaselineFill(entries: entries, of: Record.self)
    registerBaselineConnectionLoad(entries: entries, of: Record.self)
}

/// The baseline's benchmarks, on a table of `entries` rows: what `ArchiveStore` on sqlite adds to
/// GRDB is `ArchiveStore.<operation>/sqlite/<n>` divided by `GRDB.<operation>/<n>`.
func registerBaselineBenchmarks(entries: Int) {
    let name = Workload.label(entries)
    registerBaselineFill(entries: entries, of: Profile.self)

    Benchmark(
        "GRDB.open/\(name)",
        configuration: configuration(seconds: 20, iterations: 10),
        closure: { benchmark in
            let path = try Fixture.baseline(entries: entries)
            let key = Workload.key(entries / 2)
            benchmark.startMeasurement()
            let pool = try BaselineTable.open(path)
            let payload = try BaselineTable.payload(forKey: key, in: pool)
            benchmark.stopMeasurement()
            guard payload != nil else { throw BenchmarkFailure("\(key) did not load") }
        },
        setup: { _ = try Fixture.baseline(entries: entries) }
    )

    let baseline = Lazy { try BaselineTable.open(Fixture.baseline(entries: entries)) }
    Benchmark(
        "GRDB.load/\(name)",
        configuration: configuration(seconds: 5, iterations: 10_000, timeUnits: .nanoseconds),
        closure: { benchmark in
            let pool = try baseline.get()
            let key = Workload.key(Int.random(in: 0..<entries))
            benchmark.startMeasurement()
            let payload = try BaselineTable.payload(forKey: key, in: pool)
            benchmark.stopMeasurement()
            guard payload != nil else { throw BenchmarkFailure("\(key) did not load") }
        },
        setup: { _ = try baseline.get() },
        teardown: { baseline.reset() }
    )

    registerBaselineConnectionLoad(entries: entries, of: Profile.self)

    Benchmark(
        "GRDB.keys/\(name)",
        configuration: configuration(seconds: 30, iterations: 10),
        closure: { benchmark in
            let pool = try baseline.get()
            benchmark.startMeasurement()
            let keys = try BaselineTable.keys(in: pool)
            benchmark.stopMeasurement()
            guard keys.count == entries else { throw BenchmarkFailure("listed \(keys.count) keys of \(entries)") }
        },
        setup: { _ = try baseline.get() },
        teardown: { baseline.reset() }
    )
}

/// `GRDB.fill<Value.label>/<n>`: `entries` rows holding the payload of `Value.sample` inserted into a
/// new table.
func registerBaselineFill<Value: StoredValue>(entries: Int, of _: Value.Type) {
    Benchmark("GRDB.fill\(Value.label)/\(Workload.label(entries))", configuration: fillConfiguration()) { benchmark in
        let folder = ScratchFolder()
        defer { folder.remove() }
        try FileManager.default.createDirectory(atPath: folder.path, withIntermediateDirectories: true)
        let elapsed = try BaselineTable.fill(
            entries: entries,
            of: Value.self,
            path: folder.path + "/" + BaselineTable.fileName,
            measuring: benchmark
        )
        try recordFill(benchmark, entries: entries, elapsed: elapsed, directory: folder.path, of: Value.self)
    }
}

/// `GRDB.load.connection<Value.label>/<n>`: one point read of a random key on a read-only
/// connection of its own, as the store's loads read.
func registerBaselineConnectionLoad<Value: StoredValue>(entries: Int, of _: Value.Type) {
    let connection = Lazy { try BaselineTable.openConnection(Fixture.baseline(entries: entries, of: Value.self)) }
    Benchmark(
        "GRDB.load.connection\(Value.label)/\(Workload.label(entries))",
        configuration: configuration(seconds: 5, iterations: 10_000, timeUnits: .nanoseconds),
        closure: { benchmark in
            let queue = try connection.get()
            let key = Workload.key(Int.random(in: 0..<entries))
            benchmark.startMeasurement()
            let payload = try BaselineTable.payload(forKey: key, on: queue)
            benchmark.stopMeasurement()
            guard payload != nil else { throw BenchmarkFailure("\(key) did not load") }
        },
        setup: { _ = try connection.get() },
        teardown: { connection.reset() }
    )
}
