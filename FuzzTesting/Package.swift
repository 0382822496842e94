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

import struct Foundation.URL

// A path dependency's identity is its directory name, not the package's `name`, so derive it
// from this manifest's location instead of hard-coding "swift-keyed-archive".
let root = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent()
    .deletingLastPathComponent()
    .lastPathComponent

// libFuzzer targets. Build with `./do_build.sh`, which passes
// `-Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library`; see README.md.
let package = Package(
    name: "FuzzTesting",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(path: "../")
    ],
    targets: [
        // Declares libFuzzer's driver entry point for Swift.
        .target(name: "CLibFuzzer"),
        .target(
            name: "FuzzCommon",
            dependencies: [
                "CLibFuzzer",
                .product(name: "PropertyLists", package: root),
                .product(name: "KeyedArchiving", package: root),
            ]
        ),
        .executableTarget(
            name: "FuzzBinaryPlist",
            dependencies: ["FuzzCommon", .product(name: "PropertyLists", package: root)]
        ),
        .executableTarget(
            name: "FuzzXMLPlist",
            dependencies: ["FuzzCommon", .product(name: "PropertyLists", package: root)]
        ),
        .executableTarget(
            name: "FuzzKeyedArchive",
            dependencies: [
                "FuzzCommon",
                .product(name: "PropertyLists", package: root),
                .product(name: "KeyedArchiving", package: root),
            ]
        ),
        .executableTarget(
            name: "FuzzCodableDecoder",
            dependencies: [
                "FuzzCommon",
                .product(name: "PropertyLists", package: root),
                .product(name: "KeyedArchiving", package: root),
            ]
        ),
        // The sanitizer flags reach every target, the macro plugin and swift-syntax included.
        .executableTarget(
            name: "FuzzArchivableDecoder",
            dependencies: [
                "FuzzCommon",
                .product(name: "PropertyLists", package: root),
                .product(name: "KeyedArchiving", package: root),
                .product(name: "KeyedArchivingMacros", package: root),
            ]
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
