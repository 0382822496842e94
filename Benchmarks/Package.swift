// swift-tools-version: 6.1
//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-keyed-archive open source project
//
// Licensed under Apache License v2.0
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import PackageDescription

import class Foundation.ProcessInfo
import struct Foundation.URL

// A path dependency's identity is its directory name, not the package's `name`, so derive it
// from this manifest's location instead of hard-coding "swift-keyed-archive" (a clone into any
// other folder would otherwise fail with "unknown package").
let root = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent()
    .deletingLastPathComponent()
    .lastPathComponent

// The malloc interposer counts allocations (`mallocCountTotal`, which `thresholds.sh` gates on) by
// putting a 16-byte header in front of every allocation in the process. It also changes wall-clock
// times, and not evenly: it made `KeyedArchiveEncoder` 1.4 times slower (21.9 → 30 ms for 10,000
// cats) and left Foundation's encoders as they were. `BENCHMARK_DISABLE_MALLOC_INTERPOSER=1`, the
// variable ordo-one/benchmark itself reads, builds without it; `compare.sh` measures wall clock
// that way (in `.build-wallclock`) and counts allocations with it.
let benchmarkTraits: Set<Package.Dependency.Trait> =
    ProcessInfo.processInfo.environment["BENCHMARK_DISABLE_MALLOC_INTERPOSER"] == nil ? ["MallocInterposer"] : []

let package = Package(
    name: "benchmarks",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(path: "../"),
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.0", traits: benchmarkTraits),
        // StorageBenchmarks' baseline: a plain GRDB table holding the same rows as the sqlite backend.
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
    ],
    targets: [
        // The BenchmarkPlugin only picks up executable targets whose folder sits in a folder named
        // `Benchmarks`, which this package's own directory is.
        .executableTarget(
            name: "PropertyListBenchmarks",
            dependencies: [
                .product(name: "PropertyLists", package: root),
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "PropertyListBenchmarks",
            resources: [.copy("Fixtures")],
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        .executableTarget(
            name: "CoderBenchmarks",
            dependencies: [
                .product(name: "KeyedArchiving", package: root),
                .product(name: "KeyedArchivingMacros", package: root),
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "CoderBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        .executableTarget(
            name: "StorageBenchmarks",
            dependencies: [
                .product(name: "ArchiveStorage", package: root),
                .product(name: "KeyedArchiving", package: root),
                .product(name: "KeyedArchivingMacros", package: root),
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "GRDB", package: "GRDB.swift"),
            ],
            path: "StorageBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        // Not a benchmark (the plugin takes only executables whose folder is directly in
        // `Benchmarks/`): a driver for profiling the coders with valgrind or perf, and for
        // alternating two coders in one process (Tools/CoderProfile/main.swift).
        .executableTarget(
            name: "coder-profile",
            dependencies: [
                .product(name: "KeyedArchiving", package: root),
                .product(name: "KeyedArchivingMacros", package: root),
                .product(name: "PropertyLists", package: root),
            ],
            path: "Tools/CoderProfile"
        ),
    ]
)

// The same upcoming features as the library package.
for target in package.targets {
    var settings = target.swiftSettings ?? []
    settings.append(.enableUpcomingFeature("ExistentialAny"))
    settings.append(.enableUpcomingFeature("MemberImportVisibility"))
    settings.append(.enableUpcomingFeature("InternalImportsByDefault"))
    target.swiftSettings = settings
}
