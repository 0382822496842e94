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

// Issue 33's `UserDefaults` rows: one small value written and read through the package's helpers
// (`set(archiving:forKey:)`, `archivedValue(_:forKey:)`) against what an app writes without them,
// `JSONEncoder` into `Data` and `set(_:forKey:)`, `data(forKey:)` and `JSONDecoder`. The value is
// issue 33's six-field one, `@Archivable` (`Record`, on the direct path); the defaults are a
// suite of their own, removed after each benchmark. 1,000 writes or reads per measurement,
// reported per call:
// - `Preferences.set/archive`, `Preferences.set/json`
// - `Preferences.get/archive`, `Preferences.get/json`

/// A defaults suite of its own, removed when the benchmark ends.
private struct PreferencesSuite {
    let name = "StorageBenchmarks.\(UUID().uuidString)"
    let defaults: UserDefaults

    init() throws {
        guard let defaults = UserDefaults(suiteName: self.name) else {
            throw PreferencesBenchmarkError(reason: "no defaults suite \(self.name)")
        }
        self.defaults = defaults
    }

    func remove() {
        self.defaults.removePersistentDomain(forName: self.name)
    }
}

private struct PreferencesBenchmarkError: Error, CustomStringConvertible {
    let reason: String
    var description: String { self.reason }
}

/// `Preferences.set/<format>` and `Preferences.get/<format>`.
func registerPreferencesBenchmarks() {
    let perCall = configuration(seconds: 2, iterations: 1000, timeUnits: .nanoseconds, scaling: .kilo)
    let value = Record.sample
    let key = "profile"

    Benchmark("Preferences.set/archive", configuration: perCall) { benchmark in
        let suite = try PreferencesSuite()
        defer { suite.remove() }
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            try suite.defaults.set(archiving: value, forKey: key)
        }
        benchmark.stopMeasurement()
    }

    Benchmark("Preferences.set/json", configuration: perCall) { benchmark in
        let suite = try PreferencesSuite()
        defer { suite.remove() }
        let encoder = JSONEncoder()
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            suite.defaults.set(try encoder.encode(value), forKey: key)
        }
        benchmark.stopMeasurement()
    }

    Benchmark("Preferences.get/archive", configuration: perCall) { benchmark in
        let suite = try PreferencesSuite()
        defer { suite.remove() }
        try suite.defaults.set(archiving: value, forKey: key)
        guard try suite.defaults.archivedValue(Record.self, forKey: key) == value else {
            throw PreferencesBenchmarkError(reason: "the archived value does not read back")
        }
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            blackHole(try suite.defaults.archivedValue(Record.self, forKey: key))
        }
        benchmark.stopMeasurement()
    }

    Benchmark("Preferences.get/json", configuration: perCall) { benchmark in
        let suite = try PreferencesSuite()
        defer { suite.remove() }
        let decoder = JSONDecoder()
        suite.defaults.set(try JSONEncoder().encode(value), forKey: key)
        guard let stored = suite.defaults.data(forKey: key),
            try decoder.decode(Record.self, from: stored) == value
        else {
            throw PreferencesBenchmarkError(reason: "the JSON value does not read back")
        }
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            guard let data = suite.defaults.data(forKey: key) else {
                throw PreferencesBenchmarkError(reason: "the JSON value is gone")
            }
            blackHole(try decoder.decode(Record.self, from: data))
        }
        benchmark.stopMeasurement()
    }
}
