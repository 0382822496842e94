//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-keyed-archive open source project
//
// Licensed under Apache License v2.0
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Benchmark
import Foundation
import KeyedArchiving

// Our Codable coders against Foundation's, on the same `[Cat]`, in one run.
//
// Names are "<Impl>.<operation>/<records>":
// - `KeyedArchiving.encode` / `.decode`: `KeyedArchiveEncoder().encode([Cat])` to a binary keyed
//   archive, and `KeyedArchiveDecoder().decode([Cat].self, from: Data)` back, on the `Codable` path
//   (`directArchiving = .disabled`).
// - `PropertyListEncoder` / `PropertyListDecoder`: binary property list.
// - `JSONEncoder` / `JSONDecoder`.
// - `CodableFloor.encode` / `.decode`: the floor of the Codable protocols (`CodableFloor.swift`), an
//   encoder that walks the value keeping each scalar once, and a decoder that rebuilds it from those
//   scalars; they bound the speedup any coder can reach. `CodableWalk.encode` walks without keeping
//   anything: the cost of the `Encodable` calls alone.
// - `<Impl>.encodeArchivable` / `.decodeArchivable`: the same coders on `ArchivableCat`, the same
//   cats with the conformances `@Archivable` generates instead of the synthesized one. Ours take
//   the generated direct conformance (issue 16); `KeyedArchiving.encodeArchivableCodable` /
//   `.decodeArchivableCodable` force the generated `Codable` one (`directArchiving = .disabled`),
//   to the same archive.
// - `Interleaved.*`: the direct path against the floor and Foundation's coders, and 100k against
//   1k, timed in turns inside one process (InterleavedBenchmarks.swift).
// - `NSKeyedArchiver` / `NSKeyedUnarchiver`: the `NSCoding` twins `CatNS` / `PlaceNS` in an `NSArray`.
//   swift-corelibs-foundation's archiver is quadratic in the number of objects (seconds for 1,000
//   cats), so these run at 100 and 1k records only.
// Each decoder reads what its own encoder wrote, built once per process before measuring; each
// encoder's benchmark first checks that its decoder reads its output back to the same cats. (The
// decoders' processes hold only the bytes and give the setup's freed memory back to the system, so
// that their peak resident memory is about decoding.) Wall clock and throughput are informational;
// `mallocCountTotal` is deterministic and is what `Thresholds/` gates on (ours only).
let benchmarks: @Sendable () -> Void = {
    if ProcessInfo.processInfo.environment["CODER_BENCH_SIZES"] != nil {
        printEncodedSizes()
    }

    let metrics: [BenchmarkMetric] = [.wallClock, .throughput, .mallocCountTotal]
    // Peak resident memory is sampled by a background thread every ~5 ms, so it says little about
    // runs shorter than that; it is reported for the decoders.
    let decodeMetrics = metrics + [.peakMemoryResident, .peakMemoryResidentDelta]
    // The count is the same on every run, so 1% only gives large counts a little room.
    let thresholds: [BenchmarkMetric: BenchmarkThresholds] = [.mallocCountTotal: .init(relative: [.p90: 1.0])]
    Benchmark.defaultConfiguration = .init(metrics: metrics, thresholds: thresholds)

    func configuration(
        _ metrics: [BenchmarkMetric],
        warmup: Int,
        seconds: Int,
        iterations: Int,
        thresholds: [BenchmarkMetric: BenchmarkThresholds] = thresholds
    ) -> Benchmark.Configuration {
        .init(
            metrics: metrics,
            timeUnits: .microseconds,
            warmupIterations: warmup,
            maxDuration: .seconds(seconds),
            maxIterations: iterations,
            thresholds: thresholds
        )
    }

    // (label, records, warmup iterations, max seconds, max iterations)
    let sizes: [(String, Int, Int, Int, Int)] = [
        ("1k", 1_000, 2, 2, 200),
        ("10k", 10_000, 1, 3, 30),
        ("100k", 100_000, 1, 6, 12),
    ]

    for (label, count, warmup, seconds, iterations) in sizes {
        let encodeConfiguration = configuration(metrics, warmup: warmup, seconds: seconds, iterations: iterations)
        let decodeConfiguration = configuration(decodeMetrics, warmup: warmup, seconds: seconds, iterations: iterations)
        // An archive of 100k cats is large enough for the encoder to keep its session only for a
        // tenth of a second, on a dispatch timer: whether the timer's work on another thread
        // falls inside a measured iteration moves the direct path's 24 or 25 allocations by one.
        let directEncodeConfiguration =
            count < 100_000
            ? encodeConfiguration
            : configuration(
                metrics,
                warmup: warmup,
                seconds: seconds,
                iterations: iterations,
                thresholds: [.mallocCountTotal: .init(relative: [.p90: 10.0])]
            )
        // Inputs are built lazily, once per process, and only for the benchmarks that run.
        let cats = Lazy { CatGenerator.cats(count: count) }
        let ours = Lazy { encodedCats(count) { try codableArchiveEncoder().encode($0) } }
        let propertyList = Lazy { encodedCats(count) { try binaryPropertyListEncoder().encode($0) } }
        let json = Lazy { encodedCats(count) { try JSONEncoder().encode($0) } }
        // The round trips, checked once in each encoder's process.
        let oursChecked = Lazy {
            let bytes = try! codableArchiveEncoder().encode(cats.value)
            precondition(try! codableArchiveDecoder().decode([Cat].self, from: bytes) == cats.value)
        }
        let propertyListChecked = Lazy {
            let bytes = try! binaryPropertyListEncoder().encode(cats.value)
            precondition(try! PropertyListDecoder().decode([Cat].self, from: bytes) == cats.value)
        }
        let jsonChecked = Lazy {
            let bytes = try! JSONEncoder().encode(cats.value)
            precondition(try! JSONDecoder().decode([Cat].self, from: bytes) == cats.value)
        }

        Benchmark("KeyedArchiving.encode/\(label)", configuration: encodeConfiguration) { benchmark in
            oursChecked.value
            let value = cats.value
            let encoder = codableArchiveEncoder()
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations {
                blackHole(try encoder.encode(value))
            }
        }

        Benchmark("KeyedArchiving.decode/\(label)", configuration: decodeConfiguration) { benchmark in
            let bytes = ours.value
            let decoder = codableArchiveDecoder()
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations {
                blackHole(try decoder.decode([Cat].self, from: bytes))
            }
        }

        // The floor of the Codable protocols (CodableFloor.swift): no format can be faster.
        let floorTape = Lazy { () -> [FloorToken] in
            let encoder = FloorEncoder()
            try! encoder.encode(CatGenerator.cats(count: count))
            return encoder.tape
        }
        let floorChecked = Lazy {
            precondition(try! FloorDecoder(tape: floorTape.value).decode([Cat].self) == cats.value)
        }

        Benchmark("CodableFloor.encode/\(label)", configuration: encodeConfiguration) { benchmark in
            floorChecked.value
            let value = cats.value
            let encoder = FloorEncoder()
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations {
                try encoder.encode(value)
                blackHole(encoder.tape.count)
            }
        }

        // The walk alone: the same encoder counting scalars instead of keeping them.
        Benchmark("CodableWalk.encode/\(label)", configuration: encodeConfiguration) { benchmark in
            let value = cats.value
            let encoder = FloorEncoder(keepsTape: false)
            try encoder.encode(value)
            precondition(encoder.scalarCount == floorTape.value.count)
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations {
                try encoder.encode(value)
                blackHole(encoder.scalarCount)
            }
        }

        Benchmark("CodableFloor.decode/\(label)", configuration: encodeConfiguration) { benchmark in
            let decoder = FloorDecoder(tape: floorTape.value)
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations {
                blackHole(try decoder.decode([Cat].self))
            }
        }

        Benchmark("PropertyListEncoder.encode/\(label)", configuration: encodeConfiguration) { benchmark in
            propertyListChecked.value
            let value = cats.value
            let encoder = binaryPropertyListEncoder()
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations {
                blackHole(try encoder.encode(value))
            }
        }

        Benchmark("PropertyListDecoder.decode/\(label)", configuration: decodeConfiguration) { benchmark in
            let bytes = propertyList.value
            let decoder = PropertyListDecoder()
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations {
                blackHole(try decoder.decode([Cat].self, from: bytes))
            }
        }

        Benchmark("JSONEncoder.encode/\(label)", configuration: encodeConfiguration) { benchmark in
            jsonChecked.value
            let value = cats.value
            let encoder = JSONEncoder()
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations {
                blackHole(try encoder.encode(value))
            }
        }

        Benchmark("JSONDecoder.decode/\(label)", configuration: decodeConfiguration) { benchmark in
            let bytes = json.value
            let decoder = JSONDecoder()
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations {
                blackHole(try decoder.decode([Cat].self, from: bytes))
            }
        }

        // The same cats with the conformance `@Archivable` generates, through the same coders: the
        // generated code against synthesized `Codable`.
        let archivableCats = Lazy { CatGenerator.cats(count: count).map(ArchivableCat.init) }
        let oursArchivable = Lazy { encodedArchivableCats(count) { try KeyedArchiveEncoder().encode($0) } }
        let jsonArchivable = Lazy { encodedArchivableCats(count) { try JSONEncoder().encode($0) } }
        let propertyListArchivable = Lazy {
            encodedArchivableCats(count) { try binaryPropertyListEncoder().encode($0) }
        }
        let archivableChecked = Lazy {
            let value = archivableCats.value
            let bytes = try! KeyedArchiveEncoder().encode(value)
            // The direct path writes what the Codable path writes, and both read it back.
            precondition(bytes == (try! codableArchiveEncoder().encode(value)))
            precondition(try! KeyedArchiveDecoder().decode([ArchivableCat].self, from: bytes) == value)
            precondition(try! codableArchiveDecoder().decode([ArchivableCat].self, from: bytes) == value)
            precondition(
                try! PropertyListDecoder().decode(
                    [ArchivableCat].self,
                    from: binaryPropertyListEncoder().encode(value)
                ) == value
            )
            precondition(try! JSONDecoder().decode([ArchivableCat].self, from: JSONEncoder().encode(value)) == value)
            // Generated and synthesized conformances write the same JSON (with sorted keys: the
            // order of an unsorted object is unspecified).
            let sorted = JSONEncoder()
            sorted.outputFormatting = .sortedKeys
            precondition(try! sorted.encode(value) == sorted.encode(cats.value))
        }
        let archivableFloorTape = Lazy { () -> [FloorToken] in
            let encoder = FloorEncoder()
            try! encoder.encode(CatGenerator.cats(count: count).map(ArchivableCat.init))
            return encoder.tape
        }

        Benchmark("KeyedArchiving.encodeArchivable/\(label)", configuration: directEncodeConfiguration) { benchmark in
            archivableChecked.value
            let value = archivableCats.value
            let encoder = KeyedArchiveEncoder()
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations {
                blackHole(try encoder.encode(value))
            }
        }

        Benchmark("KeyedArchiving.decodeArchivable/\(label)", configuration: decodeConfiguration) { benchmark in
            let bytes = oursArchivable.value
            let decoder = KeyedArchiveDecoder()
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations {
                blackHole(try decoder.decode([ArchivableCat].self, from: bytes))
            }
        }

        Benchmark("KeyedArchiving.encodeArchivableCodable/\(label)", configuration: encodeConfiguration) {
            benchmark in
            archivableChecked.value
            let value = archivableCats.value
            let encoder = codableArchiveEncoder()
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations {
                blackHole(try encoder.encode(value))
            }
        }

        Benchmark("KeyedArchiving.decodeArchivableCodable/\(label)", configuration: decodeConfiguration) {
            benchmark in
            let bytes = oursArchivable.value
            let decoder = codableArchiveDecoder()
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations {
                blackHole(try decoder.decode([ArchivableCat].self, from: bytes))
            }
        }

        Benchmark("PropertyListEncoder.encodeArchivable/\(label)", configuration: encodeConfiguration) { benchmark in
            archivableChecked.value
            let value = archivableCats.value
            let encoder = binaryPropertyListEncoder()
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations {
                blackHole(try encoder.encode(value))
            }
        }

        Benchmark("PropertyListDecoder.decodeArchivable/\(label)", configuration: decodeConfiguration) { benchmark in
            let bytes = propertyListArchivable.value
            let decoder = PropertyListDecoder()
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations {
                blackHole(try decoder.decode([ArchivableCat].self, from: bytes))
            }
        }

        Benchmark("JSONEncoder.encodeArchivable/\(label)", configuration: encodeConfiguration) { benchmark in
            archivableChecked.value
            let value = archivableCats.value
            let encoder = JSONEncoder()
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations {
                blackHole(try encoder.encode(value))
            }
        }

        Benchmark("JSONDecoder.decodeArchivable/\(label)", configuration: decodeConfiguration) { benchmark in
            let bytes = jsonArchivable.value
            let decoder = JSONDecoder()
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations {
                blackHole(try decoder.decode([ArchivableCat].self, from: bytes))
            }
        }

        Benchmark("CodableFloor.encodeArchivable/\(label)", configuration: encodeConfiguration) { benchmark in
            let value = archivableCats.value
            let encoder = FloorEncoder()
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations {
                try encoder.encode(value)
                blackHole(encoder.tape.count)
            }
        }

        Benchmark("CodableFloor.decodeArchivable/\(label)", configuration: encodeConfiguration) { benchmark in
            let decoder = FloorDecoder(tape: archivableFloorTape.value)
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations {
                blackHole(try decoder.decode([ArchivableCat].self))
            }
        }
    }

    // The direct path against the floor, timed in turns in one process (InterleavedBenchmarks.swift).
    registerInterleavedBenchmarks()

    // The second, app-shaped model (AppBenchmarks.swift).
    registerAppBenchmarks()

    // One small value per archive, timed in turns with the floor and Foundation (SingleBenchmarks.swift).
    registerSingleBenchmarks()

    // One value per archive, as a store's save or a `UserDefaults` helper writes it: 1,000 archives
    // of one cat each per iteration, so the fixed cost of starting and finishing an archive shows.
    let oneConfiguration = configuration(metrics, warmup: 2, seconds: 2, iterations: 200)
    let single = Lazy { CatGenerator.cats(count: 1_000) }
    Benchmark("KeyedArchiving.encodeOne/1k", configuration: oneConfiguration) { benchmark in
        let values = single.value
        let encoder = codableArchiveEncoder()
        precondition(try! codableArchiveDecoder().decode(Cat.self, from: encoder.encode(values[0])) == values[0])
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            for value in values { blackHole(try encoder.encode(value)) }
        }
    }
    Benchmark("KeyedArchiving.decodeOne/1k", configuration: oneConfiguration) { benchmark in
        let encoder = codableArchiveEncoder()
        let archives = try single.value.map { try encoder.encode($0) }
        let decoder = codableArchiveDecoder()
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            for bytes in archives { blackHole(try decoder.decode(Cat.self, from: bytes)) }
        }
    }
    Benchmark("PropertyListEncoder.encodeOne/1k", configuration: oneConfiguration) { benchmark in
        let values = single.value
        let encoder = binaryPropertyListEncoder()
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            for value in values { blackHole(try encoder.encode(value)) }
        }
    }
    Benchmark("PropertyListDecoder.decodeOne/1k", configuration: oneConfiguration) { benchmark in
        let encoder = binaryPropertyListEncoder()
        let archives = try single.value.map { try encoder.encode($0) }
        let decoder = PropertyListDecoder()
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            for bytes in archives { blackHole(try decoder.decode(Cat.self, from: bytes)) }
        }
    }
    Benchmark("JSONEncoder.encodeOne/1k", configuration: oneConfiguration) { benchmark in
        let values = single.value
        let encoder = JSONEncoder()
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            for value in values { blackHole(try encoder.encode(value)) }
        }
    }
    Benchmark("JSONDecoder.decodeOne/1k", configuration: oneConfiguration) { benchmark in
        let archives = try single.value.map { try JSONEncoder().encode($0) }
        let decoder = JSONDecoder()
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            for bytes in archives { blackHole(try decoder.decode(Cat.self, from: bytes)) }
        }
    }

    // NSKeyedArchiver: 1,000 cats take seconds per operation, so few samples and no warm-up there.
    let archiverSizes: [(String, Int, Benchmark.Configuration, Benchmark.Configuration)] = [
        (
            "100", 100, configuration(metrics, warmup: 1, seconds: 3, iterations: 20),
            configuration(decodeMetrics, warmup: 1, seconds: 3, iterations: 20)
        ),
        (
            "1k", 1_000, configuration(metrics, warmup: 0, seconds: 8, iterations: 2),
            configuration(decodeMetrics, warmup: 0, seconds: 8, iterations: 3)
        ),
    ]
    for (label, count, encodeConfiguration, decodeConfiguration) in archiverSizes {
        let objects = Lazy { NSArray(array: CatGenerator.cats(count: count).map(CatNS.init)) }
        let archived = Lazy {
            encodedCats(count) {
                try NSKeyedArchiver.archivedData(
                    withRootObject: NSArray(array: $0.map(CatNS.init)),
                    requiringSecureCoding: false
                )
            }
        }
        let checked = Lazy {
            let bytes = try! NSKeyedArchiver.archivedData(withRootObject: objects.value, requiringSecureCoding: false)
            precondition(unarchiveCats(bytes).compactMap { ($0 as? CatNS)?.cat } == CatGenerator.cats(count: count))
        }

        Benchmark("NSKeyedArchiver.encode/\(label)", configuration: encodeConfiguration) { benchmark in
            checked.value
            let root = objects.value
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations {
                blackHole(try NSKeyedArchiver.archivedData(withRootObject: root, requiringSecureCoding: false))
            }
        }

        Benchmark("NSKeyedUnarchiver.decode/\(label)", configuration: decodeConfiguration) { benchmark in
            let bytes = archived.value
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations {
                blackHole(unarchiveCats(bytes))
            }
        }
    }
}

/// `count` generated cats as `encode` writes them. Only the bytes stay; the memory freed on the
/// way goes back to the system, so that a decoder's peak resident memory is mostly its own.
private func encodedCats(_ count: Int, _ encode: ([Cat]) throws -> Data) -> Data {
    let bytes = try! encode(CatGenerator.cats(count: count))
    releaseFreedMemory()
    return bytes
}

/// `count` generated cats, with the `@Archivable` conformance, as `encode` writes them.
private func encodedArchivableCats(_ count: Int, _ encode: ([ArchivableCat]) throws -> Data) -> Data {
    let bytes = try! encode(CatGenerator.cats(count: count).map(ArchivableCat.init))
    releaseFreedMemory()
    return bytes
}

/// Prints how many bytes each encoder writes for each record count (`CODER_BENCH_SIZES=1`).
private func printEncodedSizes() {
    for count in [100, 1_000, 10_000, 100_000] {
        let cats = CatGenerator.cats(count: count)
        var line = "\(count) cats: KeyedArchiveEncoder \(try! KeyedArchiveEncoder().encode(cats).count) B"
        line += ", PropertyListEncoder \(try! binaryPropertyListEncoder().encode(cats).count) B"
        line += ", JSONEncoder \(try! JSONEncoder().encode(cats).count) B"
        if count <= 1_000 {
            let root = NSArray(array: cats.map(CatNS.init))
            let archived = try! NSKeyedArchiver.archivedData(withRootObject: root, requiringSecureCoding: false)
            line += ", NSKeyedArchiver \(archived.count) B"
        }
        print(line)
    }
}

/// `KeyedArchiveEncoder` on the `Codable` path, whatever conformances the type has.
private func codableArchiveEncoder() -> KeyedArchiveEncoder {
    var encoder = KeyedArchiveEncoder()
    encoder.directArchiving = .disabled
    return encoder
}

/// `KeyedArchiveDecoder` on the `Codable` path, whatever conformances the type has.
private func codableArchiveDecoder() -> KeyedArchiveDecoder {
    var decoder = KeyedArchiveDecoder()
    decoder.directArchiving = .disabled
    return decoder
}

private func binaryPropertyListEncoder() -> PropertyListEncoder {
    let encoder = PropertyListEncoder()
    encoder.outputFormat = .binary
    return encoder
}

/// The root `NSArray` of an `NSKeyedArchiver` archive, as an application would unarchive it.
private func unarchiveCats(_ bytes: Data) -> NSArray {
    let unarchiver = try! NSKeyedUnarchiver(forReadingFrom: bytes)
    unarchiver.requiresSecureCoding = false
    defer { unarchiver.finishDecoding() }
    return unarchiver.decodeObject(forKey: NSKeyedArchiveRootObjectKey) as! NSArray
}

/// Builds a value on first use and keeps it for the rest of the process.
final class Lazy<Value>: @unchecked Sendable {
    // Benchmarks run one at a time, so the lock only guards against the runner changing that.
    private let lock = NSLock()
    private let make: () -> Value
    private var built: Value?

    init(_ make: @escaping () -> Value) {
        self.make = make
    }

    var value: Value {
        self.lock.withLock {
            if let built = self.built { return built }
            let value = self.make()
            self.built = value
            return value
        }
    }
}
