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
import KeyedArchivingMacros

// Issue 33's `Single.*` rows: one small value per archive, as a store's save or a `UserDefaults`
// helper writes it, timed in turns in one process as the `Interleaved.*` rows are. Each iteration
// times 1,000 archives of the value alone on the direct path, `CodableFloor`, then Foundation's
// property list (binary) and JSON coders, and records the direct path's time in per mille of the
// floor's, Foundation's coders' in per mille of the direct path's, and the direct path's
// nanoseconds per value. Values: the 6-field profile of the issue, a lone `String`, an `[Int]`
// of 16, and a value nested three structs deep.

/// The direct path's nanoseconds per value, from one alternation.
let directNanosecondsPerValue = BenchmarkMetric.custom(
    "directNanosecondsPerValue",
    polarity: .prefersSmaller,
    useScalingFactor: false
)

/// The small value: 6 fields.
@Archivable
struct SingleProfile: Equatable {
    var name: String
    var visits: Int
    var email: String?
    var lastSeen: Date
    var tags: [String]
    var score: Double
}

/// The outer of three nested values.
@Archivable
struct SingleOuter: Equatable {
    var middle: SingleMiddle
    var name: String
}

/// The middle of three nested values.
@Archivable
struct SingleMiddle: Equatable {
    var inner: SingleInner
    var count: Int
}

/// The inner of three nested values.
@Archivable
struct SingleInner: Equatable {
    var flag: Bool
    var value: Double
}

/// Registers the `Single.*` benchmarks.
func registerSingleBenchmarks() {
    let profile = SingleProfile(
        name: "Ada Lovelace",
        visits: 42,
        email: "ada@example.com",
        lastSeen: Date(timeIntervalSinceReferenceDate: 786_000_000),
        tags: ["admin", "beta", "math"],
        score: 97.5
    )
    registerSingle("profile", profile)
    registerSingle("string", "a note of some forty characters, or so.")
    registerSingle("ints16", Array(0..<16).map { $0 * 1_000 })
    registerSingle(
        "nested3",
        SingleOuter(middle: SingleMiddle(inner: SingleInner(flag: true, value: 2.5), count: 3), name: "outer")
    )
}

/// Registers `Single.encode/<label>` and `Single.decode/<label>` for `value`.
private func registerSingle<Value: Codable & Equatable>(_ label: String, _ value: Value) {
    let metrics = [directPerMilleOfFloor, plistPerMilleOfDirect, jsonPerMilleOfDirect, directNanosecondsPerValue]
    let configuration = Benchmark.Configuration(
        metrics: metrics,
        units: [
            directPerMilleOfFloor: .count, plistPerMilleOfDirect: .count, jsonPerMilleOfDirect: .count,
            directNanosecondsPerValue: .count,
        ],
        warmupIterations: 2,
        maxDuration: .seconds(3),
        maxIterations: 200,
        // Their metrics are ratios; the malloc thresholds of the other benchmarks do not apply.
        thresholds: [:]
    )
    let count = 1_000
    Benchmark("Single.encode/\(label)", configuration: configuration) { benchmark in
        let encoder = KeyedArchiveEncoder()
        let floor = FloorEncoder()
        let plistEncoder = PropertyListEncoder()
        plistEncoder.outputFormat = .binary
        let jsonEncoder = JSONEncoder()
        let direct = try secondOfTwo {
            var bytes = 0
            for _ in 0..<count { bytes &+= try encoder.encode(value).count }
            return bytes
        }
        let floorTime = try secondOfTwo {
            for _ in 0..<count { try floor.encode(value) }
            return floor.tape.count
        }
        // swift-corelibs-foundation's property list encoder refuses a lone string at the top.
        let plist =
            (try? plistEncoder.encode(value)) == nil
            ? nil
            : try timed {
                var bytes = 0
                for _ in 0..<count { bytes &+= try plistEncoder.encode(value).count }
                return bytes
            }
        let json = try timed {
            var bytes = 0
            for _ in 0..<count { bytes &+= try jsonEncoder.encode(value).count }
            return bytes
        }
        benchmark.measurement(directPerMilleOfFloor, perMille(direct, of: floorTime))
        if let plist { benchmark.measurement(plistPerMilleOfDirect, perMille(plist, of: direct)) }
        benchmark.measurement(jsonPerMilleOfDirect, perMille(json, of: direct))
        benchmark.measurement(directNanosecondsPerValue, Int((direct * 1e9 / Double(count)).rounded()))
    }
    Benchmark("Single.decode/\(label)", configuration: configuration) { benchmark in
        let bytes = try KeyedArchiveEncoder().encode(value)
        let floorEncoder = FloorEncoder()
        try floorEncoder.encode(value)
        let plistEncoder = PropertyListEncoder()
        plistEncoder.outputFormat = .binary
        let plistBytes = try? plistEncoder.encode(value)
        let jsonBytes = try JSONEncoder().encode(value)
        let decoder = KeyedArchiveDecoder()
        let floor = FloorDecoder(tape: floorEncoder.tape)
        let plistDecoder = PropertyListDecoder()
        let jsonDecoder = JSONDecoder()
        guard try decoder.decode(Value.self, from: bytes) == value, try floor.decode(Value.self) == value,
            try plistBytes.map({ try plistDecoder.decode(Value.self, from: $0) == value }) ?? true,
            try jsonDecoder.decode(Value.self, from: jsonBytes) == value
        else { throw SingleBenchmarkMismatch(label: label) }
        let direct = try secondOfTwo {
            var matches = 0
            for _ in 0..<count where try decoder.decode(Value.self, from: bytes) == value { matches &+= 1 }
            return matches
        }
        let floorTime = try secondOfTwo {
            var matches = 0
            for _ in 0..<count where try floor.decode(Value.self) == value { matches &+= 1 }
            return matches
        }
        let plist = try plistBytes.map { plistBytes in
            try timed {
                var matches = 0
                for _ in 0..<count where try plistDecoder.decode(Value.self, from: plistBytes) == value {
                    matches &+= 1
                }
                return matches
            }
        }
        let json = try timed {
            var matches = 0
            for _ in 0..<count where try jsonDecoder.decode(Value.self, from: jsonBytes) == value { matches &+= 1 }
            return matches
        }
        benchmark.measurement(directPerMilleOfFloor, perMille(direct, of: floorTime))
        if let plist { benchmark.measurement(plistPerMilleOfDirect, perMille(plist, of: direct)) }
        benchmark.measurement(jsonPerMilleOfDirect, perMille(json, of: direct))
        benchmark.measurement(directNanosecondsPerValue, Int((direct * 1e9 / Double(count)).rounded()))
    }
}

/// A coder that read back something other than the value it was given.
struct SingleBenchmarkMismatch: Error {
    let label: String
}
