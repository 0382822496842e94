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

// The coders on the second model, `AppItem` (AppModel.swift), whose scalar types the cat lacks:
// "<Impl>.encodeApp/<records>" and "<Impl>.decodeApp/<records>". `KeyedArchiving.*App` is the
// direct path `@Archivable` generates, `KeyedArchiving.*AppCodable` the same type through its
// generated `Codable` members (`directArchiving = .disabled`), to the same bytes;
// `KeyedArchiving.*AppOne/1k` writes or reads 1,000 archives of one item each.

/// Registers the app model's benchmarks.
func registerAppBenchmarks() {
    let metrics: [BenchmarkMetric] = [.wallClock, .throughput, .mallocCountTotal]
    let thresholds: [BenchmarkMetric: BenchmarkThresholds] = [.mallocCountTotal: .init(relative: [.p90: 1.0])]

    func configuration(warmup: Int, seconds: Int, iterations: Int) -> Benchmark.Configuration {
        .init(
            metrics: metrics,
            timeUnits: .microseconds,
            warmupIterations: warmup,
            maxDuration: .seconds(seconds),
            maxIterations: iterations,
            thresholds: thresholds
        )
    }

    for (label, count, warmup, seconds, iterations) in [("1k", 1_000, 2, 2, 200), ("10k", 10_000, 1, 3, 30)] {
        let measured = configuration(warmup: warmup, seconds: seconds, iterations: iterations)
        let items = Lazy { AppItemGenerator.items(count: count) }
        let checked = Lazy {
            let value = items.value
            let bytes = try! KeyedArchiveEncoder().encode(value)
            var codable = KeyedArchiveEncoder()
            codable.directArchiving = .disabled
            // Both paths write the same bytes and read them back.
            precondition(bytes == (try! codable.encode(value)))
            var codableDecoder = KeyedArchiveDecoder()
            codableDecoder.directArchiving = .disabled
            precondition(try! KeyedArchiveDecoder().decode([AppItem].self, from: bytes) == value)
            precondition(try! codableDecoder.decode([AppItem].self, from: bytes) == value)
            precondition(try! JSONDecoder().decode([AppItem].self, from: JSONEncoder().encode(value)) == value)
            let floor = FloorEncoder()
            try! floor.encode(value)
            precondition(try! FloorDecoder(tape: floor.tape).decode([AppItem].self) == value)
            return bytes
        }

        for direct in [true, false] {
            let suffix = direct ? "App" : "AppCodable"
            Benchmark("KeyedArchiving.encode\(suffix)/\(label)", configuration: measured) { benchmark in
                _ = checked.value
                let value = items.value
                var encoder = KeyedArchiveEncoder()
                encoder.directArchiving = direct ? .enabled : .disabled
                benchmark.startMeasurement()
                for _ in benchmark.scaledIterations {
                    blackHole(try encoder.encode(value))
                }
            }
            Benchmark("KeyedArchiving.decode\(suffix)/\(label)", configuration: measured) { benchmark in
                let bytes = checked.value
                var decoder = KeyedArchiveDecoder()
                decoder.directArchiving = direct ? .enabled : .disabled
                benchmark.startMeasurement()
                for _ in benchmark.scaledIterations {
                    blackHole(try decoder.decode([AppItem].self, from: bytes))
                }
            }
        }

        Benchmark("CodableFloor.encodeApp/\(label)", configuration: measured) { benchmark in
            let value = items.value
            let encoder = FloorEncoder()
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations {
                try encoder.encode(value)
                blackHole(encoder.tape.count)
            }
        }

        Benchmark("CodableFloor.decodeApp/\(label)", configuration: measured) { benchmark in
            let encoder = FloorEncoder()
            try encoder.encode(items.value)
            let decoder = FloorDecoder(tape: encoder.tape)
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations {
                blackHole(try decoder.decode([AppItem].self))
            }
        }

        Benchmark("JSONEncoder.encodeApp/\(label)", configuration: measured) { benchmark in
            let value = items.value
            let encoder = JSONEncoder()
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations {
                blackHole(try encoder.encode(value))
            }
        }

        Benchmark("JSONDecoder.decodeApp/\(label)", configuration: measured) { benchmark in
            let bytes = try JSONEncoder().encode(items.value)
            let decoder = JSONDecoder()
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations {
                blackHole(try decoder.decode([AppItem].self, from: bytes))
            }
        }
    }

    // One item per archive, 1,000 archives per iteration.
    let one = configuration(warmup: 2, seconds: 2, iterations: 200)
    let single = Lazy { AppItemGenerator.items(count: 1_000) }
    Benchmark("KeyedArchiving.encodeAppOne/1k", configuration: one) { benchmark in
        let values = single.value
        let encoder = KeyedArchiveEncoder()
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            for value in values { blackHole(try encoder.encode(value)) }
        }
    }
    Benchmark("KeyedArchiving.decodeAppOne/1k", configuration: one) { benchmark in
        let archives = try single.value.map { try KeyedArchiveEncoder().encode($0) }
        let decoder = KeyedArchiveDecoder()
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            for bytes in archives { blackHole(try decoder.decode(AppItem.self, from: bytes)) }
        }
    }
}
