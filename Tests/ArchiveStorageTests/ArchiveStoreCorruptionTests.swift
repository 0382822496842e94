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

/// Damaged entries on both backends (``damageEntry(_:in:_:)`` damages a file or a row); tests of
/// the entry file format are files only, each saying why.
@Suite struct ArchiveStoreCorruptionTests {
    private func damage(_ path: String, _ change: (inout [UInt8]) -> Void) throws {
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        change(&bytes)
        try Data(bytes).write(to: URL(fileURLWithPath: path))
    }

    /// Files only: it walks the bytes of the entry file format (SQLiteBackendTests damages rows).
    @Test func flippedBytesAndTruncationsAreCorruptEntriesNamingKeyAndPath() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let store: ArchiveStore<Profile> = try openStore(directory)
        let value = Profile(name: "Ada", visits: 1, tags: ["a"])
        try store.save(value, forKey: "victim")
        try store.save(value, forKey: "bystander")
        let path = directory.storePath + "/k-victim"
        let original = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        var damages: [(String, [UInt8])] = []
        for index in stride(from: 0, to: original.count, by: 5) {
            var flipped = original
            flipped[index] ^= 0x20
            damages.append(("flip at \(index)", flipped))
        }
        for length in [0, 3, 20, 31, 32, original.count / 2, original.count - 1] {
            damages.append(("truncated to \(length)", Array(original[..<length])))
        }
        damages.append(("bad magic", [0x62, 0x70] + original.dropFirst(2)))
        for (label, bytes) in damages {
            try self.damage(path) { $0 = bytes }
            let error = #expect(throws: ArchiveStorageError.self, "\(label)") { try store.load(forKey: "victim") }
            #expect(error?.code == .corruptEntry, "\(label)")
            #expect(error?.key == "victim")
            #expect(error?.path == path)
            #expect(try store.load(forKey: "bystander") == value)
        }
        try self.damage(path) { $0 = original }
        #expect(try store.load(forKey: "victim") == value)
    }

    /// Files only: the header of an entry file named by its key's hash.
    @Test func hostileHeadersOfLongKeyEntriesAreSkippedWithoutHugeReads() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let store: ArchiveStore<Int> = try openStore(directory)
        let longKey = String(repeating: "long", count: 100)
        try store.save(1, forKey: longKey)
        try store.save(2, forKey: "short")
        let hashed = try #require(directoryNames(directory.storePath).first { $0.hasPrefix("h-") })
        // Claim a 4 GiB key: listing must neither trust it nor fail.
        try self.damage(directory.storePath + "/" + hashed) { bytes in
            for index in 12..<16 { bytes[index] = 0xFF }
        }
        #expect(try store.keys() == ["short"])
        let error = #expect(throws: ArchiveStorageError.self) { try store.load(forKey: longKey) }
        #expect(error?.code == .corruptEntry)
        #expect(try store.moveCorruptEntriesAside().count == 1)
        #expect(try store.load(forKey: longKey) == nil)
    }

    /// Files only: a row's key is its primary key, and cannot disagree with itself.
    @Test func anEntryRenamedToAnotherKeysNameIsCorrupt() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let store: ArchiveStore<Int> = try openStore(directory)
        try store.save(1, forKey: "a")
        try FileManager.default.copyItem(atPath: directory.storePath + "/k-a", toPath: directory.storePath + "/k-b")
        let error = #expect(throws: ArchiveStorageError.self) { try store.load(forKey: "b") }
        #expect(error?.code == .corruptEntry)
        #expect(error?.reason.contains("another key") == true)
        #expect(throws: ArchiveStorageError.self) { try store.contains("b") }
    }

    @Test(arguments: testedBackends) func corruptEntriesCanBeMovedAsideOnDemandOrOnRead(
        backend: ArchiveStoreBackend
    ) throws {
        let directory = TemporaryDirectory(backend: backend)
        defer { directory.remove() }
        let store: ArchiveStore<Int> = try openStore(directory)
        for key in ["a", "b", "c"] { try store.save(1, forKey: key) }
        try damageEntry("a", in: directory)
        try damageEntry("b", in: directory, .truncated)
        let moved = try store.moveCorruptEntriesAside()
        if backend == .files {
            #expect(moved.count == 2)
            #expect(moved.allSatisfy { $0.hasPrefix(directory.storePath + "/Corrupt/k-") })
        } else {
            #expect(moved == ["a", "b"])
        }
        #expect(try store.keys() == ["c"])
        #expect(try store.load(forKey: "a") == nil)
        #expect(try movedAsideCount(in: directory) == 2)

        let policy: ArchiveStore<Int> = try openStore(directory) { $0.corruptEntryPolicy = .moveAside }
        try damageEntry("c", in: directory)
        let error = #expect(throws: ArchiveStorageError.self) { try policy.load(forKey: "c") }
        #expect(error?.code == .corruptEntry)
        #expect(error?.key == "c")
        #expect(error?.reason.contains("moved to") == true)
        #expect(try policy.load(forKey: "c") == nil)
        #expect(try movedAsideCount(in: directory) == 3)
        // The key is usable again.
        try policy.save(2, forKey: "c")
        #expect(try policy.load(forKey: "c") == 2)
    }

    @Test(arguments: testedBackends) func verifyIntegrityReportsDamagedEntriesAndChangesNothing(
        backend: ArchiveStoreBackend
    ) async throws {
        let directory = TemporaryDirectory(backend: backend)
        defer { directory.remove() }
        let clock = TestClock()
        // Under the moveAside policy too, verifying only reports.
        let store: ArchiveStore<String> = try openStore(directory) {
            $0.corruptEntryPolicy = .moveAside
            $0.clock = clock.function
            $0.purgesExpiredEntriesOnOpen = false
        }
        // On the files backend, a key this long is stored under its hash; the report still names it.
        let longKey = String(repeating: "long key ", count: 40)
        for key in ["a", "b", "c", "d", longKey] { try await store.save("value of \(key)", forKey: key) }
        try await store.save("soon gone", forKey: "expired", expiration: .after(.seconds(10)))
        clock.advance(by: 60)
        #expect(try await store.verifyIntegrity() == ArchiveIntegrityReport(checkedEntryCount: 6, damagedEntries: []))

        try damageEntry("d", in: directory)
        try damageEntry("b", in: directory, .truncated)
        try damageEntry(longKey, in: directory)
        let before = try storedFiles(in: directory)
        // The synchronous form (the closure is not async), then the async one.
        let report = try { try store.verifyIntegrity() }()
        #expect(!report.isIntact)
        #expect(report.checkedEntryCount == 6)
        #expect(report.damagedKeys == ["b", "d", longKey])
        for entry in report.damagedEntries {
            let key = try #require(entry.key)
            let path =
                backend == .files
                ? directory.storePath + "/" + EntryFileName(key: key).name : directory.storePath + "/entries.sqlite"
            #expect(entry.path == path)
            #expect(!entry.reason.isEmpty)
        }
        #expect(try await store.verifyIntegrity() == report)
        // Nothing moved, nothing rewritten: the damaged entries are still there to be reported.
        #expect(try storedFiles(in: directory) == before)
        #expect(try movedAsideCount(in: directory) == 0)
        #expect(try await store.keys() == ["a", "b", "c", "d", longKey])
        // moveCorruptEntriesAside() finds the same entries with the same scan.
        #expect(try await store.moveCorruptEntriesAside().count == 3)
        #expect(try await store.verifyIntegrity() == ArchiveIntegrityReport(checkedEntryCount: 3, damagedEntries: []))
    }

    /// Files only: the files backend keeps temporary files of writers; SQLite keeps none.
    @Test func leftoverTemporaryFilesOfDeadWritersAreRemovedOnOpen() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let store: ArchiveStore<Int> = try openStore(directory)
        try store.save(1, forKey: "a")
        // A process identifier far above any default pid_max, so no such process exists.
        let dead = directory.storePath + "/.tmp-2147483000-123"
        let alive = directory.storePath + "/.tmp-\(ProcessInfo.processInfo.processIdentifier)-456"
        let foreign = directory.storePath + "/notes.txt"
        for path in [dead, alive, foreign] { _ = FileManager.default.createFile(atPath: path, contents: Data([1, 2])) }
        let reopened: ArchiveStore<Int> = try openStore(directory)
        reopened.waitForBackgroundMaintenance()
        let names = directoryNames(directory.storePath)
        #expect(!names.contains(".tmp-2147483000-123"))
        #expect(names.contains(".tmp-\(ProcessInfo.processInfo.processIdentifier)-456"))
        #expect(names.contains("notes.txt"))
        #expect(try reopened.keys() == ["a"])
    }
}
