//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-keyed-archive open source project
//
// Licensed under Apache License v2.0
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation
import Testing

@testable import ArchiveStorage

@Suite struct ArchiveStoreDirectoryTests {
    @Test func explicitFoldersAreUsedAsGiven() throws {
        #expect(try ArchiveStoreDirectory.path("/srv/data").resolvedPath(environment: [:]) == "/srv/data")
        let url = URL(fileURLWithPath: "/srv/with space")
        #expect(try ArchiveStoreDirectory.url(url).resolvedPath(environment: [:]) == "/srv/with space")
        let error = #expect(throws: ArchiveStorageError.self) {
            try ArchiveStoreDirectory.path("").resolvedPath(environment: [:])
        }
        #expect(error?.code == .invalidConfiguration)
    }

    #if !canImport(Darwin)
    @Test func linuxDefaultsFollowTheXDGBaseDirectorySpecification() throws {
        let home = ["HOME": "/home/ada"]
        #expect(
            try ArchiveStoreDirectory.applicationSupport.resolvedPath(environment: home) == "/home/ada/.local/share"
        )
        #expect(try ArchiveStoreDirectory.caches.resolvedPath(environment: home) == "/home/ada/.cache")
        let xdg = ["HOME": "/home/ada", "XDG_DATA_HOME": "/data", "XDG_CACHE_HOME": "/fast/cache"]
        #expect(try ArchiveStoreDirectory.applicationSupport.resolvedPath(environment: xdg) == "/data")
        #expect(try ArchiveStoreDirectory.caches.resolvedPath(environment: xdg) == "/fast/cache")
        // A relative XDG value is ignored, as the specification asks.
        let relative = ["HOME": "/home/ada", "XDG_DATA_HOME": "relative/data"]
        #expect(
            try ArchiveStoreDirectory.applicationSupport.resolvedPath(environment: relative) == "/home/ada/.local/share"
        )
    }

    @Test func aStoreOpensUnderXDGDataHome() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let resolved = try ArchiveStoreDirectory.xdgDirectory(
            "XDG_DATA_HOME",
            fallback: ".local/share",
            environment: ["XDG_DATA_HOME": directory.path + "/xdg"]
        )
        let store = try ArchiveStore<Int>(name: "com.example.test", in: .path(resolved))
        try store.save(1, forKey: "one")
        #expect(store.directoryPath == directory.path + "/xdg/com.example.test")
        #expect(FileManager.default.fileExists(atPath: directory.path + "/xdg/com.example.test/k-one"))
    }
    #endif
}
