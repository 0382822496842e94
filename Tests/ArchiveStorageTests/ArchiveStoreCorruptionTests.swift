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

@Suite struct ArchiveStoreCorruptionTests {
    private func damage(_ path: String, _ change: (inout [UInt8]) -> Void) throws {
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        change(&bytes)
        try Data(bytes).write(to: URL(fileURLWithPath: path))
    }

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

    @Test func corruptEntriesCanBeMovedAsideOnDemandOrOnRead() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let store: ArchiveStore<Int> = try openStore(directory)
        for key in ["a", "b", "c"] { try store.save(1, forKey: key) }
        try self.damage(directory.storePath + "/k-a") { $0[40] ^= 1 }
        try self.damage(directory.storePath + "/k-b") { $0.removeLast(3) }
        let moved = try store.moveCorruptEntriesAside()
        #expect(moved.count == 2)
        #expect(moved.allSatisfy { $0.hasPrefix(directory.storePath + "/Corrupt/k-") })
        #expect(try store.keys() == ["c"])
        #expect(try store.load(forKey: "a") == nil)
        #expect(directoryNames(directory.storePath + "/Corrupt").count == 2)

        let policy: ArchiveStore<Int> = try openStore(directory) { $0.corruptEntryPolicy = .moveAside }
        try self.damage(directory.storePath + "/k-c") { $0[0] = 0 }
        let error = #expect(throws: ArchiveStorageError.self) { try policy.load(forKey: "c") }
        #expect(error?.code == .corruptEntry)
        #expect(error?.reason.contains("moved to") == true)
        #expect(try policy.load(forKey: "c") == nil)
        #expect(directoryNames(directory.storePath + "/Corrupt").count == 3)
        // The key is usable again.
        try policy.save(2, forKey: "c")
        #expect(try policy.load(forKey: "c") == 2)
    }

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
