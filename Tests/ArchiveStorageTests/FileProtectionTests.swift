//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-keyed-archive open source project
//
// Licensed under Apache License v2.0
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Testing

@testable import ArchiveStorage

/// The decisions behind a store's data protection and its App Group placement, which only Apple
/// platforms act on, tested here through the same functions.
@Suite struct FileProtectionTests {
    /// Stores default to the class an app's background work can use; the mapped files (control
    /// file, SQLite's `-shm`) never get a class that makes their pages unreadable while locked.
    @Test func mappedFilesAreNeverProtectedBeyondFirstUnlock() {
        #expect(ArchiveStoreConfiguration().fileProtection == .completeUntilFirstUserAuthentication)
        let mapped = [".archive-store", "entries.sqlite-shm"]
        #expect(ArchiveFileProtection.mappedFileNames == Set(mapped))
        for protection in [ArchiveFileProtection.complete, .completeUnlessOpen] {
            for name in mapped {
                #expect(protection.protection(forFileNamed: name) == .completeUntilFirstUserAuthentication)
            }
            for name in ["entries.sqlite", "entries.sqlite-wal", "00/ab.entry", "Corrupt/x"] {
                #expect(protection.protection(forFileNamed: name) == protection, "\(name)")
            }
        }
        for protection in [ArchiveFileProtection.none, .completeUntilFirstUserAuthentication] {
            #expect(protection.protection(forFileNamed: ".archive-store") == protection)
        }
        #expect(
            [ArchiveFileProtection.none, .completeUntilFirstUserAuthentication, .completeUnlessOpen, .complete]
                .map(\.description) == [
                    "none", "completeUntilFirstUserAuthentication", "completeUnlessOpen", "complete",
                ]
        )
    }

    /// Opening a store changes every file's class only when its directory's differs from the
    /// configured one (or is unknown); otherwise only the mapped files', which may be new.
    @Test func everyFileIsReclassifiedOnlyWhenTheDirectoryDiffers() {
        #expect(ArchiveFileProtection.complete.plan(directoryProtection: .complete) == .mappedFiles)
        #expect(ArchiveFileProtection.complete.plan(directoryProtection: .completeUnlessOpen) == .everything)
        #expect(ArchiveFileProtection.none.plan(directoryProtection: nil) == .everything)
        #expect(
            ArchiveFileProtection.completeUntilFirstUserAuthentication.plan(
                directoryProtection: .completeUntilFirstUserAuthentication
            ) == .mappedFiles
        )
    }

    /// An App Group store lives in the group container's Application Support; a group without a
    /// container (no entitlement, or no App Groups on the platform) is a configuration error that
    /// names the group.
    @Test func appGroupStoresLiveInTheContainersApplicationSupport() throws {
        #expect(
            try ArchiveStoreDirectory.appGroupPath(identifier: "group.com.example", container: "/containers/G1")
                == "/containers/G1/Library/Application Support"
        )
        #expect(
            try ArchiveStoreDirectory.appGroupPath(identifier: "group.com.example", container: "/containers/G1/")
                == "/containers/G1/Library/Application Support"
        )
        for (identifier, container) in [("group.com.example", nil), ("group.com.example", "relative"), ("", "/c")] {
            let error = #expect(throws: ArchiveStorageError.self) {
                try ArchiveStoreDirectory.appGroupPath(identifier: identifier, container: container)
            }
            #expect(error?.code == .invalidConfiguration)
            if !identifier.isEmpty { #expect(error?.reason.contains("group.com.example") == true) }
        }
    }
}
