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

import CompilerPluginSupport
import PackageDescription

import class Foundation.ProcessInfo

let package = Package(
    name: "swift-keyed-archive",
    platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9), .visionOS(.v1)],
    products: [
        .library(name: "PropertyLists", targets: ["PropertyLists"]),
        .library(name: "KeyedArchiving", targets: ["KeyedArchiving"]),
        .library(name: "ArchiveStorage", targets: ["ArchiveStorage"]),
        // Its own product, so that only its users build swift-syntax.
        .library(name: "KeyedArchivingMacros", targets: ["KeyedArchivingMacros"]),
        .executable(name: "karchive", targets: ["karchive"]),
    ],
    traits: [
        // ArchiveStore's SQLite backend (`ArchiveStoreBackend.sqlite`), on GRDB. On by default; a
        // package that uses the files backend only can turn it off (`traits: []`) and build
        // neither GRDB nor SQLite.
        .trait(name: "SQLite", description: "ArchiveStore's SQLite backend, on GRDB and the system SQLite."),
        .default(enabledTraits: ["SQLite"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.0"),
        // The macro plugin only. A range, so that the version an app already resolves is accepted.
        .package(url: "https://github.com/swiftlang/swift-syntax", "600.0.0"..<"604.0.0"),
        // ArchiveStorage's SQLite backend only, behind the SQLite trait.
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
    ],
    targets: [
        // Libraries, lowest layer first. The core uses the toolchain only.
        .target(name: "PropertyLists"),
        .target(name: "KeyedArchiving", dependencies: ["PropertyLists"]),
        .target(
            name: "ArchiveStorage",
            dependencies: [
                "KeyedArchiving",
                "PropertyLists",
                .product(name: "GRDB", package: "GRDB.swift", condition: .when(traits: ["SQLite"])),
            ],
            // The reasons for the required-reason APIs it calls (file timestamps, UserDefaults),
            // which App Store review reads from the app's bundle.
            resources: [.copy("PrivacyInfo.xcprivacy")]
        ),

        // `@Archivable` and its attributes: the declarations (KeyedArchivingMacros), the compiler
        // plugin that lists the macros, and their implementation in a library of its own. The
        // expansion tests depend on that library, not on the macro target: a test target that
        // depends on a macro target makes SwiftPM build the whole test product a second time for
        // the host, an executable's module (karchive) included, which then fails to import. The
        // runtime support the expansions call lives in KeyedArchiving.
        .target(
            name: "ArchivableMacroSupport",
            dependencies: [
                .product(name: "SwiftDiagnostics", package: "swift-syntax"),
                .product(name: "SwiftParser", package: "swift-syntax"),
                .product(name: "SwiftSyntax", package: "swift-syntax"),
                .product(name: "SwiftSyntaxBuilder", package: "swift-syntax"),
                .product(name: "SwiftSyntaxMacros", package: "swift-syntax"),
            ]
        ),
        .macro(
            name: "KeyedArchivingMacrosPlugin",
            dependencies: [
                "ArchivableMacroSupport",
                .product(name: "SwiftCompilerPlugin", package: "swift-syntax"),
                .product(name: "SwiftSyntaxMacros", package: "swift-syntax"),
            ]
        ),
        .target(name: "KeyedArchivingMacros", dependencies: ["KeyedArchiving", "KeyedArchivingMacrosPlugin"]),

        // Command-line tool: argument parsing and printing only; format logic lives in the libraries.
        .executableTarget(
            name: "karchive",
            dependencies: [
                "PropertyLists",
                "KeyedArchiving",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),

        // Test-only helpers: fixture loading, generators, round-trip assertions.
        .target(
            name: "TestSupport",
            dependencies: [
                "PropertyLists",
                "KeyedArchiving",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ],
            path: "Tests/TestSupport",
            resources: [.copy("Fixtures")]
        ),
        // CI's gate on the coders' allocations, in a release build: the test process's `malloc`
        // family counted (glibc only) while 1,000 cats are encoded and decoded on both paths, and
        // their property list parsed, written and rewritten.
        .target(name: "AllocationCounter", path: "Tests/AllocationCounter"),
        .executableTarget(
            name: "allocation-budget",
            dependencies: ["PropertyLists", "KeyedArchiving", "AllocationCounter"],
            path: "Tests/AllocationBudget"
        ),
        .testTarget(
            name: "PropertyListsTests",
            dependencies: [
                "PropertyLists",
                "TestSupport",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ]
        ),
        .testTarget(
            name: "KeyedArchivingTests",
            dependencies: ["KeyedArchiving", "TestSupport"]
        ),
        // The expansions and diagnostics of the macros, as source text.
        .testTarget(
            name: "KeyedArchivingMacrosPluginTests",
            dependencies: [
                "ArchivableMacroSupport",
                .product(name: "SwiftSyntaxMacrosGenericTestSupport", package: "swift-syntax"),
            ]
        ),
        // What `@Archivable` types do: with every coder, across an app's history, with Foundation.
        .testTarget(
            name: "ArchivableTests",
            dependencies: ["KeyedArchivingMacros", "KeyedArchiving", "ArchiveStorage", "PropertyLists", "TestSupport"]
        ),
        // A second process for the storage tests: crash, lock and preferences scenarios.
        .executableTarget(
            name: "storage-probe",
            dependencies: ["ArchiveStorage", "KeyedArchiving"],
            path: "Tests/StorageProbe"
        ),
        .testTarget(
            name: "ArchiveStorageTests",
            dependencies: [
                "ArchiveStorage", "KeyedArchiving", "PropertyLists", "TestSupport", "storage-probe",
                // SQLite's errors, to check how the backend reports them.
                .product(name: "GRDB", package: "GRDB.swift", condition: .when(traits: ["SQLite"])),
            ]
        ),
        .testTarget(
            name: "karchiveTests",
            dependencies: [
                "karchive",
                "KeyedArchiving",
                "PropertyLists",
                "TestSupport",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            // Expected outputs, read through #filePath so `KARCHIVE_UPDATE_EXPECTED=1 swift test` can rewrite them.
            exclude: ["Expected"]
        ),
    ]
)

// Swift 6 language mode is the default for tools-version 6.x; these tighten it further.
for target in package.targets where target.name != "AllocationCounter" {
    var settings = target.swiftSettings ?? []
    settings.append(.enableUpcomingFeature("ExistentialAny"))
    settings.append(.enableUpcomingFeature("MemberImportVisibility"))
    settings.append(.enableUpcomingFeature("InternalImportsByDefault"))
    target.swiftSettings = settings
}

// Documentation: `BUILD_DOCS=1 swift package --disable-sandbox generate-documentation --target PropertyLists`.
if ProcessInfo.processInfo.environment["BUILD_DOCS"] != nil {
    package.dependencies.append(.package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.4.0"))
}
