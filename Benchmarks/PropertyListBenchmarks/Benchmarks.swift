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
import PropertyLists

// Our parser and writer against Foundation's `PropertyListSerialization`, on the same bytes.
//
// Names are "<Impl>.<operation>/<input>":
// - `parse`: bytes to a full value tree (ours: `PropertyListValue`; Foundation: `Any`).
// - `write`: that tree back to bytes in the input's format.
// Wall clock and throughput are informational; `mallocCountTotal` is deterministic and is what
// `Thresholds/` gates on.
let benchmarks: @Sendable () -> Void = {
    if ProcessInfo.processInfo.environment["PLIST_BENCH_VERIFY"] != nil {
        BenchmarkInputs.verify()
    }

    let metrics: [BenchmarkMetric] = [.wallClock, .throughput, .mallocCountTotal]
    // Checked against Thresholds/<toolchain>/ by `benchmark thresholds check`. The count is the same on
    // every run, so 1% only gives large counts a little room; a small count must match exactly.
    let thresholds: [BenchmarkMetric: BenchmarkThresholds] = [.mallocCountTotal: .init(relative: [.p90: 1.0])]
    Benchmark.defaultConfiguration = .init(metrics: metrics, thresholds: thresholds)

    // The 10,000 records take 20 ms to 2 s per operation: a few samples each, at most 5 s.
    let large = Benchmark.Configuration(
        metrics: metrics,
        timeUnits: .microseconds,
        warmupIterations: 1,
        maxDuration: .seconds(5),
        maxIterations: 40,
        thresholds: thresholds
    )

    // The 74 KB fixture takes milliseconds per operation: more samples in less time.
    let small = Benchmark.Configuration(
        metrics: metrics,
        timeUnits: .microseconds,
        warmupIterations: 3,
        maxDuration: .seconds(2),
        maxIterations: 500,
        thresholds: thresholds
    )

    // Each input: its name, its configuration, whether to benchmark writing it, and how to build it.
    let inputs: [(String, Benchmark.Configuration, Bool, @Sendable () -> BenchmarkInput)] = [
        ("records10k.binary", large, true, { BenchmarkInputs.records(.binary) }),
        ("records10k.xml", large, true, { BenchmarkInputs.records(.xml) }),
        // The same tree as above, so only parsing differs.
        ("records10k-ours.binary", large, false, { BenchmarkInputs.recordsOurs(.binary) }),
        ("records10k-ours.xml", large, false, { BenchmarkInputs.recordsOurs(.xml) }),
        ("runningprocesses.binary", small, true, { BenchmarkInputs.runningProcesses(.binary) }),
        ("runningprocesses.xml", small, true, { BenchmarkInputs.runningProcesses(.xml) }),
    ]

    for (name, configuration, benchmarksWriting, make) in inputs {
        // Inputs are built lazily, once per process, and only for the benchmarks that run. The parse
        // benchmarks keep only the bytes: the trees the write benchmarks need are freed before
        // measuring, so that both parsers allocate in a heap that holds their input and not three
        // other trees of the same records (as the coder benchmarks' decoders do).
        let input = Lazy(make)
        let parseBytes = Lazy { make().bytes }

        Benchmark("PropertyLists.parse/\(name)", configuration: configuration) { benchmark in
            let bytes = parseBytes.value
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations {
                blackHole(try PropertyListValue(parsing: bytes))
            }
        }

        Benchmark("Foundation.parse/\(name)", configuration: configuration) { benchmark in
            let bytes = parseBytes.value
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations {
                blackHole(try PropertyListSerialization.propertyList(from: bytes, options: [], format: nil))
            }
        }

        guard benchmarksWriting else { continue }

        Benchmark("PropertyLists.write/\(name)", configuration: configuration) { benchmark in
            let tree = input.value.ours
            let format = input.value.format
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations {
                blackHole(tree.serialized(as: format))
            }
        }

        Benchmark("Foundation.write/\(name)", configuration: configuration) { benchmark in
            let tree = input.value.foundation
            let format = input.value.foundationFormat
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations {
                blackHole(try PropertyListSerialization.data(fromPropertyList: tree, format: format, options: 0))
            }
        }
    }
}

/// Builds an input on first use and keeps it for the rest of the process.
private final class Lazy<Value>: @unchecked Sendable {
    // Benchmarks run one at a time, so the lock only guards against the runner changing that.
    private let lock = NSLock()
    private let make: @Sendable () -> Value
    private var built: Value?

    init(_ make: @escaping @Sendable () -> Value) {
        self.make = make
    }

    var value: Value {
        self.lock.withLock {
            if let built = self.built { return built }
            let input = self.make()
            self.built = input
            return input
        }
    }
}
