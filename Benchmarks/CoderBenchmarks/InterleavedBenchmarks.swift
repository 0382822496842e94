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

// Issue 16's comparisons made inside one process, in alternation. On a shared host, slow phases
// last minutes and fall on one benchmark's process at a time, so the ratio of two benchmarks' p50s
// moves by up to 2× from run to run; timed in turns, both sides of a ratio see the same phase.
//
// - `Interleaved.encodeArchivable/<records>` / `.decodeArchivable/<records>`: each iteration times
//   the direct path, `CodableFloor`, then Foundation's property list (binary) and JSON coders, on
//   the same `ArchivableCat`s, and records the direct path's time in per mille of the floor's
//   (`directPerMilleOfFloor`; below 1,000 is faster), and Foundation's coders' times in per mille
//   of the direct path's (`plistPerMilleOfDirect`, `jsonPerMilleOfDirect`: 10,000 is 10×).
// - `Interleaved.encodeArchivableScaling/100k` / `.decodeArchivableScaling/100k`: each iteration
//   times 100 runs of the direct path on 1,000 cats and one on 100,000, and records the cost per
//   record of the large one in per mille of the small one's (`perRecordPerMilleOf1k`).
//
// Each coder is timed on its second run in a row, as the other benchmarks time it after their
// warm-up: the first takes back the memory its coder keeps between calls (an encoder keeps a
// large archive's session for a tenth of a second only, less than the floor's encode of 100,000
// cats takes).

/// The direct path's time in per mille of the floor's, from one alternation.
let directPerMilleOfFloor = BenchmarkMetric.custom(
    "directPerMilleOfFloor",
    polarity: .prefersSmaller,
    useScalingFactor: false
)

/// `PropertyListEncoder`'s or `PropertyListDecoder`'s time in per mille of the direct path's.
let plistPerMilleOfDirect = BenchmarkMetric.custom(
    "plistPerMilleOfDirect",
    polarity: .prefersLarger,
    useScalingFactor: false
)

/// `JSONEncoder`'s or `JSONDecoder`'s time in per mille of the direct path's.
let jsonPerMilleOfDirect = BenchmarkMetric.custom(
    "jsonPerMilleOfDirect",
    polarity: .prefersLarger,
    useScalingFactor: false
)

/// The cost per record of 100,000 cats in per mille of the cost per record of 1,000.
let perRecordPerMilleOf1k = BenchmarkMetric.custom(
    "perRecordPerMilleOf1k",
    polarity: .prefersSmaller,
    useScalingFactor: false
)

/// Registers the `Interleaved.*` benchmarks.
func registerInterleavedBenchmarks() {
    // (label, records, max seconds, max iterations): an iteration at 100k takes about 4 s, most of
    // it Foundation's coders'.
    let sizes: [(String, Int, Int, Int)] = [("1k", 1_000, 3, 200), ("10k", 10_000, 5, 40), ("100k", 100_000, 16, 5)]
    let metrics = [directPerMilleOfFloor, plistPerMilleOfDirect, jsonPerMilleOfDirect]
    // Made on first use, once per process (each benchmark runs in a process of its own).
    let inputs = sizes.map { size in Lazy { InterleavedInputs(count: size.1) } }
    for ((label, _, seconds, iterations), sized) in zip(sizes, inputs) {
        let configuration = Benchmark.Configuration(
            metrics: metrics,
            units: [directPerMilleOfFloor: .count, plistPerMilleOfDirect: .count, jsonPerMilleOfDirect: .count],
            warmupIterations: 1,
            maxDuration: .seconds(seconds),
            maxIterations: iterations,
            // Their metrics are ratios; the malloc thresholds of the other benchmarks do not apply.
            thresholds: [:]
        )
        Benchmark("Interleaved.encodeArchivable/\(label)", configuration: configuration) { benchmark in
            let cats = sized.value.cats
            let encoder = KeyedArchiveEncoder()
            let floor = FloorEncoder()
            let plistEncoder = PropertyListEncoder()
            plistEncoder.outputFormat = .binary
            let jsonEncoder = JSONEncoder()
            let direct = try secondOfTwo { try encoder.encode(cats).count }
            let floorTime = try secondOfTwo {
                try floor.encode(cats)
                return floor.tape.count
            }
            let plist = try timed { try plistEncoder.encode(cats).count }
            let json = try timed { try jsonEncoder.encode(cats).count }
            benchmark.measurement(directPerMilleOfFloor, perMille(direct, of: floorTime))
            benchmark.measurement(plistPerMilleOfDirect, perMille(plist, of: direct))
            benchmark.measurement(jsonPerMilleOfDirect, perMille(json, of: direct))
        }
        Benchmark("Interleaved.decodeArchivable/\(label)", configuration: configuration) { benchmark in
            let inputs = sized.value
            let decoder = KeyedArchiveDecoder()
            let floor = FloorDecoder(tape: inputs.tape)
            let plistDecoder = PropertyListDecoder()
            let jsonDecoder = JSONDecoder()
            let direct = try secondOfTwo { try decoder.decode([ArchivableCat].self, from: inputs.bytes).count }
            let floorTime = try secondOfTwo { try floor.decode([ArchivableCat].self).count }
            let plist = try timed { try plistDecoder.decode([ArchivableCat].self, from: inputs.plistBytes).count }
            let json = try timed { try jsonDecoder.decode([ArchivableCat].self, from: inputs.jsonBytes).count }
            benchmark.measurement(directPerMilleOfFloor, perMille(direct, of: floorTime))
            benchmark.measurement(plistPerMilleOfDirect, perMille(plist, of: direct))
            benchmark.measurement(jsonPerMilleOfDirect, perMille(json, of: direct))
        }
    }

    // 1k and 100k cats.
    let (small, large) = (inputs[0], inputs[2])
    let scalingConfiguration = Benchmark.Configuration(
        metrics: [perRecordPerMilleOf1k],
        units: [perRecordPerMilleOf1k: .count],
        warmupIterations: 1,
        maxDuration: .seconds(8),
        maxIterations: 12,
        thresholds: [:]
    )
    Benchmark("Interleaved.encodeArchivableScaling/100k", configuration: scalingConfiguration) { benchmark in
        let (smallCats, largeCats) = (small.value.cats, large.value.cats)
        let encoder = KeyedArchiveEncoder()
        let smallTime = try medianOf100 { try encoder.encode(smallCats).count }
        let largeTime = try secondOfTwo { try encoder.encode(largeCats).count }
        benchmark.measurement(perRecordPerMilleOf1k, perMille(largeTime / 100, of: smallTime))
    }
    Benchmark("Interleaved.decodeArchivableScaling/100k", configuration: scalingConfiguration) { benchmark in
        let (smallBytes, largeBytes) = (small.value.bytes, large.value.bytes)
        let decoder = KeyedArchiveDecoder()
        let smallTime = try medianOf100 { try decoder.decode([ArchivableCat].self, from: smallBytes).count }
        let largeTime = try secondOfTwo { try decoder.decode([ArchivableCat].self, from: largeBytes).count }
        benchmark.measurement(perRecordPerMilleOf1k, perMille(largeTime / 100, of: smallTime))
    }
}

/// The cats of one size, their archive, the floor's tape of them and Foundation's encodings, each
/// checked to read back.
private struct InterleavedInputs {
    let cats: [ArchivableCat]
    let bytes: Data
    let tape: [FloorToken]
    let plistBytes: Data
    let jsonBytes: Data

    init(count: Int) {
        let cats = CatGenerator.cats(count: count).map(ArchivableCat.init)
        let bytes = try! KeyedArchiveEncoder().encode(cats)
        let encoder = FloorEncoder()
        try! encoder.encode(cats)
        let plistEncoder = PropertyListEncoder()
        plistEncoder.outputFormat = .binary
        let plistBytes = try! plistEncoder.encode(cats)
        let jsonBytes = try! JSONEncoder().encode(cats)
        precondition(try! KeyedArchiveDecoder().decode([ArchivableCat].self, from: bytes) == cats)
        precondition(try! FloorDecoder(tape: encoder.tape).decode([ArchivableCat].self) == cats)
        precondition(try! PropertyListDecoder().decode([ArchivableCat].self, from: plistBytes) == cats)
        precondition(try! JSONDecoder().decode([ArchivableCat].self, from: jsonBytes) == cats)
        self.cats = cats
        self.bytes = bytes
        self.tape = encoder.tape
        self.plistBytes = plistBytes
        self.jsonBytes = jsonBytes
    }
}

/// Runs `body` twice in a row and returns the seconds the second run took.
func secondOfTwo(_ body: () throws -> Int) throws -> Double {
    blackHole(try body())
    return try timed(body)
}

/// Runs `body` once and returns the seconds it took.
func timed(_ body: () throws -> Int) throws -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    blackHole(try body())
    return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
}

/// Runs `body` 100 times and returns the median of the seconds each run took.
private func medianOf100(_ body: () throws -> Int) throws -> Double {
    var times: [Double] = []
    times.reserveCapacity(100)
    for _ in 0..<100 {
        let start = DispatchTime.now().uptimeNanoseconds
        blackHole(try body())
        times.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
    }
    return times.sorted()[50]
}

/// `value` in per mille of `reference`, rounded.
func perMille(_ value: Double, of reference: Double) -> Int {
    Int((1_000 * value / reference).rounded())
}
