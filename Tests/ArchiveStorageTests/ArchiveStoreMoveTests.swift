//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-keyed-archive open source project
//
// Licensed under Apache License v2.0
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#if SQLite
import Foundation
import KeyedArchiving
import TestSupport
import Testing

@testable import ArchiveStorage

/// Moving a store between backends: each test's argument is the backend the store starts on.
@Suite struct ArchiveStoreMoveTests {
    // MARK: Moving

    @Test(arguments: testedBackends) func aMoveCopiesEveryEntryRawAndBack(source: ArchiveStoreBackend) throws {
        let directory = TemporaryDirectory("ArchiveStoreMoveTests", backend: source)
        defer { directory.remove() }
        let clock = TestClock()
        let filled = try MoveFixture.fill(directory, clock: clock, count: 300)
        let before = try MoveFixture.rawEntries(directory, keys: filled.allKeys, clock: clock)
        #expect(before.count == filled.allKeys.count)
        let old: ArchiveStore<Profile> = try MoveFixture.open(directory, clock: clock)
        #expect(try old.load(forKey: "entry 0") != nil)

        let target = other(source)
        let result = try ArchiveStoreDirectory.path(directory.path).moveStore(named: "store", to: target)
        #expect(result.previousBackend == source)
        #expect(result.backend == target)
        #expect(result.movedEntryCount == filled.allKeys.count)  // expired entries too
        #expect(result.damagedEntries == [])
        #expect(result.keptDatabasePath == nil)
        #expect(MoveFixture.leftovers(directory, on: target) == [])

        // The configuration still says the old backend; the directory decides.
        let moved: ArchiveStore<Profile> = try MoveFixture.open(directory, clock: clock)
        #expect(moved.backend == target)
        #expect(try MoveFixture.rawEntries(directory, keys: filled.allKeys, clock: clock) == before)
        try MoveFixture.expectValues(filled, in: moved)
        clock.advance(by: 150)  // the entries saved to expire after 100 s expire on the new backend too
        try MoveFixture.expectValues(filled, in: moved, at: clock.now)
        expectError(.storeMoved) { _ = try old.load(forKey: "anything") }

        let back = try ArchiveStoreDirectory.path(directory.path).moveStore(named: "store", to: source)
        #expect(back.previousBackend == target)
        #expect(back.movedEntryCount == filled.allKeys.count)
        #expect(try MoveFixture.rawEntries(directory, keys: filled.allKeys, clock: clock) == before)
        let returned: ArchiveStore<Profile> = try MoveFixture.open(directory, clock: clock)
        #expect(returned.backend == source)
        try MoveFixture.expectValues(filled, in: returned, at: clock.now)
        #expect(MoveFixture.leftovers(directory, on: source) == [])
    }

    @Test(arguments: testedBackends) func movingToTheBackendAStoreHasDoesNothing(
        source: ArchiveStoreBackend
    ) async throws {
        let directory = TemporaryDirectory("ArchiveStoreMoveTests", backend: source)
        defer { directory.remove() }
        let store: ArchiveStore<Int> = try openStore(directory)
        try await store.save(1, forKey: "one")
        let result = try await ArchiveStoreDirectory.path(directory.path).moveStore(named: "store", to: source)
        #expect(result == ArchiveStoreMoveResult(previousBackend: source, backend: source, movedEntryCount: 0))
        // Instances stay usable: nothing moved.
        #expect(try await store.load(forKey: "one") == 1)
        try await store.save(2, forKey: "two")
    }

    /// Opening detects the backend between two reads of the move count, without a lock stripe:
    /// an `update(forKey:)` body that holds stripe 0 can open the same store. (Opening under
    /// stripe 0 waited for that body forever.) Files only: on SQLite, opening sets the writer's
    /// `auto_vacuum`, which waits for the update's own write transaction (up to the busy timeout).
    @Test func anUpdateBodyCanOpenTheSameStore() throws {
        let directory = TemporaryDirectory(backend: .files)
        defer { directory.remove() }
        let store: ArchiveStore<String> = try openStore(directory)
        let key = try #require(
            (0..<100_000).lazy.map { "key\($0)" }
                .first { EntryLocation(key: $0, directory: store.directoryPath).slot == 0 }
        )
        let opened = DispatchSemaphore(value: 0)
        let result = Locked<String?>(nil)
        Thread {
            let loaded = try? store.update(forKey: key) { value -> String? in
                value = "in update"
                let other: ArchiveStore<String>? = try? openStore(directory)
                return try? other?.load(forKey: "absent") ?? "opened"
            }
            result.withLock { $0 = loaded ?? "failed" }
            opened.signal()
        }.start()
        // A deadlocked thread is left behind; the test fails instead of hanging.
        #expect(opened.wait(timeout: .now() + 30) == .success)
        #expect(result.withLock { $0 } == "opened")
        #expect(try store.load(forKey: key) == "in update")
    }

    @Test func movingAStoreThatDoesNotExistThrows() throws {
        let directory = TemporaryDirectory("ArchiveStoreMoveTests")
        defer { directory.remove() }
        let place = ArchiveStoreDirectory.path(directory.path)
        expectError(.storeNotFound) { _ = try place.moveStore(named: "store", to: .sqlite) }
        try FileManager.default.createDirectory(atPath: directory.storePath, withIntermediateDirectories: true)
        let empty = #expect(throws: ArchiveStorageError.self) { try place.moveStore(named: "store", to: .files) }
        #expect(empty?.code == .storeNotFound)
        #expect(empty?.path == directory.storePath)
        #expect(directoryNames(directory.storePath) == [])
        expectError(.invalidConfiguration) { _ = try place.moveStore(named: "a/b", to: .files) }
        expectError(.storeNotFound) {
            _ = try ArchiveStoreDirectory.path(directory.path + "/missing").moveStore(named: "store", to: .files)
        }
    }

    // MARK: Instances opened before a move

    @Test(arguments: testedBackends) func instancesOpenedBeforeAMoveThrowStoreMoved(
        source: ArchiveStoreBackend
    ) async throws {
        let directory = TemporaryDirectory("ArchiveStoreMoveTests", backend: source)
        defer { directory.remove() }
        let first: ArchiveStore<Int> = try openStore(directory)
        let second: ArchiveStore<Int> = try openStore(directory)
        try await first.save(["a": 1, "b": 2])
        #expect(try await second.load(forKey: "a") == 1)  // now in second's memory cache
        try await ArchiveStoreDirectory.path(directory.path).moveStore(named: "store", to: other(source))

        for store in [first, second] {
            expectError(.storeMoved) { _ = try store.load(forKey: "a") }  // a memory hit too
            expectError(.storeMoved) { _ = try store.contains("a") }
            expectError(.storeMoved) { _ = try store.info(forKey: "a") }
            expectError(.storeMoved) { _ = try store.keys() }
            expectError(.storeMoved) { _ = try store.save(3, forKey: "a") }
            expectError(.storeMoved) { _ = try store.save(["c": 3]) }
            expectError(.storeMoved) { _ = try store.remove(forKey: "a") }
            expectError(.storeMoved) { _ = try store.update(forKey: "a") { $0 = 4 } }
            expectError(.storeMoved) { _ = try store.removeAll() }
            expectError(.storeMoved) { _ = try store.purgeExpired() }
            expectError(.storeMoved) { _ = try store.moveCorruptEntriesAside() }
            expectError(.storeMoved) { _ = try store.rewriteOutdatedEntries() }
            expectError(.storeMoved) { _ = try store.verifyIntegrity() }
            await expectErrorAsync(.storeMoved) { _ = try await store.load(forKey: "a") }
        }
        let reopened: ArchiveStore<Int> = try openStore(directory)
        #expect(reopened.backend == other(source))
        #expect(try await reopened.keys() == ["a", "b"])
        #expect(try await reopened.load(forKey: "a") == 1)
        try await reopened.save(5, forKey: "a")
        expectError(.storeMoved) { _ = try first.load(forKey: "a") }
        #expect(try await openStore(directory, as: Int.self).load(forKey: "a") == 5)
    }

    @Test(.enabled(if: ChildProcesses.areAvailable), arguments: testedBackends)
    func aStoreInAnotherProcessThrowsStoreMoved(source: ArchiveStoreBackend) throws {
        let directory = TemporaryDirectory("ArchiveStoreMoveTests", backend: source)
        defer { directory.remove() }
        try openStore(directory, as: String.self).save("before", forKey: "shared")
        let input = Pipe()
        let probe = try StorageProbe.start(
            ["store-save-after-line", directory.path, "shared", "after"],
            input: input
        )
        let opened = try #require(probe.output.fileHandleForReading.readLine())
        #expect(opened == "open")
        try ArchiveStoreDirectory.path(directory.path).moveStore(named: "store", to: other(source))
        input.fileHandleForWriting.write(Data("go\n".utf8))
        let output = probe.output.fileHandleForReading.readDataToEndOfFile()
        probe.process.waitUntilExit()
        #expect(probe.process.terminationStatus == 0)
        #expect(String(decoding: output, as: UTF8.self) == "storeMoved\nstoreMoved\n")
        #expect(try openStore(directory, as: String.self).load(forKey: "shared") == "before")
    }

    @Test(arguments: testedBackends) func writersRacingAMoveLoseNoAcknowledgedSave(source: ArchiveStoreBackend) throws {
        let directory = TemporaryDirectory("ArchiveStoreMoveTests", backend: source)
        defer { directory.remove() }
        let shared: ArchiveStore<Int> = try openStore(directory)
        try shared.save(0, forKey: "seed")
        // One writer has an instance of its own: instances exclude one another as processes do.
        let stores = [shared, shared, try openStore(directory, as: Int.self)]
        let acknowledged = Locked<[String: Int]>([:])
        let failures = Locked<[String]>([])
        let writers = DispatchGroup()
        for (writer, store) in stores.enumerated() {
            writers.enter()
            Thread {
                defer { writers.leave() }
                do {
                    try Self.saveUntilMoved(store, writer: writer, acknowledged: acknowledged)
                } catch {
                    failures.withLock { $0.append("writer \(writer): \(error)") }
                }
            }.start()
        }
        while acknowledged.withLock({ $0.count }) < 30 { usleep(1000) }
        let result = try ArchiveStoreDirectory.path(directory.path).moveStore(named: "store", to: other(source))
        writers.wait()
        #expect(failures.withLock { $0 } == [])
        let moved: ArchiveStore<Int> = try openStore(directory)
        let saved = acknowledged.withLock { $0 }
        let keys = try moved.keys()
        #expect(result.movedEntryCount == keys.count)
        #expect(Set(keys).isSuperset(of: saved.keys))
        // At least as new as the last acknowledged save: a batch that threw `storeMoved` may have
        // written its entries of the stripes it locked before the move (as a batch that fails
        // midway may, on the files backend).
        for (key, value) in saved { #expect(try moved.load(forKey: key) ?? -1 >= value, "\(key)") }
    }

    /// Saves in `store` until it throws ``ArchiveStorageError/Code/storeMoved``, noting every save
    /// that returned.
    private static func saveUntilMoved(
        _ store: ArchiveStore<Int>,
        writer: Int,
        acknowledged: Locked<[String: Int]>
    ) throws {
        for step in 0... {
            let key = "writer\(writer)-\(step % 20)"
            do throws(ArchiveStorageError) {
                if step % 5 == 4 {
                    try store.save([key: step, "\(key)-batch": step])
                    acknowledged.withLock { $0["\(key)-batch"] = step }
                } else {
                    try store.save(step, forKey: key)
                }
                acknowledged.withLock { $0[key] = step }
            } catch {
                guard error.code == .storeMoved else { throw error }
                return
            }
        }
    }

    // MARK: Failures and crashes

    @Test(arguments: testedBackends, StoreMoveStep.allCases)
    func aFailureAfterAnyStepLeavesOneWholeStore(source: ArchiveStoreBackend, step: StoreMoveStep) throws {
        let directory = TemporaryDirectory("ArchiveStoreMoveTests", backend: source)
        defer { directory.remove() }
        let clock = TestClock()
        let filled = try MoveFixture.fill(directory, clock: clock, count: 40)
        let old: ArchiveStore<Profile> = try MoveFixture.open(directory, clock: clock)
        let target = other(source)
        let error = #expect(throws: ArchiveStorageError.self) {
            try ArchiveStoreDirectory.path(directory.path).moveStore(named: "store", to: target) {
                current throws(ArchiveStorageError) in
                if current == step { throw ArchiveStorageError(.fileSystem, reason: "simulated failure") }
            }
        }
        #expect(error?.reason == "simulated failure")
        let flipped = step.isAtOrAfter(.flipped)
        if flipped {
            expectError(.storeMoved) { _ = try old.keys() }
        } else {
            // Undone: the instances open on the source go on, and nothing of the copy is left.
            try MoveFixture.expectValues(filled, in: old)
            #expect(MoveFixture.leftovers(directory, on: source) == [])
        }
        let reopened: ArchiveStore<Profile> = try MoveFixture.open(directory, clock: clock)
        #expect(reopened.backend == (flipped ? target : source))
        try MoveFixture.expectValues(filled, in: reopened)
        reopened.waitForBackgroundMaintenance()
        #expect(MoveFixture.leftovers(directory, on: reopened.backend) == [])

        try ArchiveStoreDirectory.path(directory.path).moveStore(named: "store", to: target)
        let moved: ArchiveStore<Profile> = try MoveFixture.open(directory, clock: clock)
        #expect(moved.backend == target)
        try MoveFixture.expectValues(filled, in: moved)
    }

    /// Ends a second process right after each step of a move, as a crash would (no cleanup, its
    /// locks released by the kernel), and checks what a new instance finds.
    @Test(.enabled(if: ChildProcesses.areAvailable), arguments: testedBackends, StoreMoveStep.allCases)
    func aCrashAfterAnyStepLeavesOneWholeStore(source: ArchiveStoreBackend, step: StoreMoveStep) throws {
        let directory = TemporaryDirectory("ArchiveStoreMoveTests", backend: source)
        defer { directory.remove() }
        let clock = TestClock()
        let filled = try MoveFixture.fill(directory, clock: clock, count: 40)
        let before = try MoveFixture.rawEntries(directory, keys: filled.allKeys, clock: clock)
        let old: ArchiveStore<Profile> = try MoveFixture.open(directory, clock: clock)
        let target = other(source)
        let crashed = try StorageProbe.run(["store-move", directory.path, "\(target)", step.rawValue])
        #expect(crashed.status == 86, "\(crashed.stderr)")
        #expect(crashed.stdout == "moving\n")
        // Interrupted: the old instance cannot know whether the flip happened.
        expectError(.storeMoved) { _ = try old.load(forKey: "anything") }

        let flipped = step.isAtOrAfter(.flipped)
        let reopened: ArchiveStore<Profile> = try MoveFixture.open(directory, clock: clock)
        #expect(reopened.backend == (flipped ? target : source))
        #expect(try MoveFixture.rawEntries(directory, keys: filled.allKeys, clock: clock) == before)
        try MoveFixture.expectValues(filled, in: reopened)
        try reopened.save(Profile(name: "after the crash", visits: 1), forKey: "new")
        // What the crash left is removed in the background when the store opens.
        reopened.waitForBackgroundMaintenance()
        #expect(MoveFixture.leftovers(directory, on: reopened.backend) == [])

        let finished = try StorageProbe.run(["store-move", directory.path, "\(target)"])
        #expect(finished.status == 0, "\(finished.stderr)")
        let moved: ArchiveStore<Profile> = try MoveFixture.open(directory, clock: clock)
        #expect(moved.backend == target)
        #expect(try moved.load(forKey: "new")?.name == "after the crash")
        try moved.remove(forKey: "new")
        try MoveFixture.expectValues(filled, in: moved)
        #expect(MoveFixture.leftovers(directory, on: target) == [])
    }

    /// Kills (`SIGKILL`) a second process at random instants of moves back and forth.
    @Test(.enabled(if: ChildProcesses.areAvailable)) func killingMovesAtRandomInstantsNeverLosesAValue() throws {
        let directory = TemporaryDirectory("ArchiveStoreMoveTests")
        defer { directory.remove() }
        let store: ArchiveStore<String> = try openStore(directory)
        var expected: [String: String] = [:]
        for index in 0..<400 {
            let key = index % 50 == 0 ? String(repeating: "long key \(index) ", count: 30) : "key\(index)"
            expected[key] = crashValue(key: key, sequence: index)
        }
        try store.save(expected)
        // How long each direction takes here, to spread the kills over it.
        var durations: [ArchiveStoreBackend: Double] = [:]
        var current = ArchiveStoreBackend.files
        for target in [ArchiveStoreBackend.sqlite, .files] {
            let start = Date()
            let run = try StorageProbe.run(["store-move", directory.path, "\(target)"])
            #expect(run.status == 0, "\(run.stderr)")
            durations[target] = Date().timeIntervalSince(start)
            current = target
        }
        var outcomes: [String: Int] = [:]
        for run in 0..<16 {
            let target = other(current)
            let probe = try StorageProbe.start(["store-move", directory.path, "\(target)"])
            _ = probe.output.fileHandleForReading.readLine()  // "moving": the probe has started
            usleep(UInt32.random(in: 0...UInt32((durations[target] ?? 0.1) * 1_000_000)))
            kill(probe.process.processIdentifier, SIGKILL)
            probe.process.waitUntilExit()
            let killed = probe.process.terminationReason == .uncaughtSignal
            let reopened: ArchiveStore<String> = try openStore(directory)
            outcomes[
                "\(killed ? "killed" : "finished"), \(reopened.backend == target ? "moved" : "kept")",
                default: 0
            ] += 1
            #expect(killed || reopened.backend == target, "run \(run)")
            #expect(try reopened.keys() == expected.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) })
            for (key, value) in expected where try reopened.load(forKey: key) != value {
                Issue.record("run \(run): \(key.prefix(20)) lost its value")
            }
            current = reopened.backend
        }
        print("killed moves: \(outcomes.sorted { $0.key < $1.key })")
        #expect(outcomes.values.reduce(0, +) == 16)
    }

    @Test func aStaleLogOfARemovedDatabaseIsNotAppliedToANewOne() throws {
        let directory = TemporaryDirectory("ArchiveStoreMoveTests", backend: .sqlite)
        defer { directory.remove() }
        let database = directory.storePath + "/entries.sqlite"
        let store: ArchiveStore<String> = try openStore(directory)
        try store.save(["a": "old a", "b": "old b"])
        // The store is open, so its log is not checkpointed: the commits are in it.
        let log = try Data(contentsOf: URL(fileURLWithPath: database + "-wal"))
        let index = try Data(contentsOf: URL(fileURLWithPath: database + "-shm"))
        #expect(log.count > 4096)
        try ArchiveStoreDirectory.path(directory.path).moveStore(named: "store", to: .files)
        let files: ArchiveStore<String> = try openStore(directory)
        try files.save(["a": "new a", "c": "new c"])
        try files.remove(forKey: "b")
        files.waitForBackgroundMaintenance()
        // What a crash right after the flip of the move to files would have left.
        try log.write(to: URL(fileURLWithPath: database + "-wal"))
        try index.write(to: URL(fileURLWithPath: database + "-shm"))

        try ArchiveStoreDirectory.path(directory.path).moveStore(named: "store", to: .sqlite)
        let moved: ArchiveStore<String> = try openStore(directory)
        #expect(moved.backend == .sqlite)
        #expect(try moved.keys() == ["a", "c"])
        #expect(try moved.load(forKey: "a") == "new a")
        #expect(try sqlite3(database, "PRAGMA integrity_check;") == "ok")
    }

    @Test func staleEntryFilesOfAnInterruptedMoveNeverComeBack() throws {
        let directory = TemporaryDirectory("ArchiveStoreMoveTests", backend: .files)
        defer { directory.remove() }
        try openStore(directory, as: String.self).save(["kept": "1", "gone": "2"])
        // A move to SQLite that stops right after its flip leaves the entry files.
        let stopped = #expect(throws: ArchiveStorageError.self) {
            try ArchiveStoreDirectory.path(directory.path).moveStore(named: "store", to: .sqlite) {
                step throws(ArchiveStorageError) in
                if step == .flipped { throw ArchiveStorageError(.fileSystem, reason: "simulated failure") }
            }
        }
        #expect(stopped?.reason == "simulated failure")
        #expect(directoryNames(directory.storePath).contains(EntryFileName(key: "gone").name))
        // The SQLite store removes the entry, and knows nothing of the file.
        _ = try sqlite3(directory.storePath + "/entries.sqlite", "DELETE FROM entry WHERE key = CAST('gone' AS BLOB);")

        try ArchiveStoreDirectory.path(directory.path).moveStore(named: "store", to: .files)
        let moved: ArchiveStore<String> = try openStore(directory)
        #expect(moved.backend == .files)
        #expect(try moved.keys() == ["kept"])
        #expect(try moved.load(forKey: "gone") == nil)
    }

    // MARK: Damaged entries

    @Test func damagedEntryFilesAreMovedAsideNotCopied() throws {
        let directory = TemporaryDirectory("ArchiveStoreMoveTests", backend: .files)
        defer { directory.remove() }
        let store: ArchiveStore<String> = try openStore(directory)
        let long = String(repeating: "a long key ", count: 30)
        try store.save(["flipped": "x", "intact": "y", "moved": "z", long: "w", "truncated": "v"])
        let names = ["flipped", "moved", "truncated", long].map { EntryFileName(key: $0).name }
        try MoveFixture.damage(directory.storePath + "/" + names[0]) { $0[$0.count / 2] ^= 1 }
        // An intact entry under another key's name.
        try FileManager.default.removeItem(atPath: directory.storePath + "/" + names[1])
        try FileManager.default.copyItem(
            atPath: directory.storePath + "/" + EntryFileName(key: "intact").name,
            toPath: directory.storePath + "/" + names[1]
        )
        try MoveFixture.damage(directory.storePath + "/" + names[2]) { $0.removeLast(3) }
        try MoveFixture.damage(directory.storePath + "/" + names[3]) { $0[40] ^= 1 }
        let damaged = try names.map { try Data(contentsOf: URL(fileURLWithPath: directory.storePath + "/" + $0)) }

        let result = try ArchiveStoreDirectory.path(directory.path).moveStore(named: "store", to: .sqlite)
        #expect(result.movedEntryCount == 1)
        #expect(result.damagedEntries.count == 4)
        #expect(result.keptDatabasePath == nil)
        // Byte for byte in the `Corrupt` folder, named after their files.
        for (name, bytes) in zip(names, damaged) {
            let path = try #require(
                result.damagedEntries.first { $0.hasPrefix(directory.storePath + "/Corrupt/" + name + ".") }
            )
            #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == bytes)
        }
        let moved: ArchiveStore<String> = try openStore(directory)
        #expect(moved.backend == .sqlite)
        #expect(try moved.keys() == ["intact"])
        #expect(try moved.load(forKey: "intact") == "y")
    }

    @Test func damagedRowsAreKeptInACopyOfTheDatabaseNotCopied() throws {
        let directory = TemporaryDirectory("ArchiveStoreMoveTests", backend: .sqlite)
        defer { directory.remove() }
        let database = directory.storePath + "/entries.sqlite"
        let store: ArchiveStore<String> = try openStore(directory)
        try store.save(["checksum": "x", "column": "y", "intact": "z", "quarantined": "w"])
        _ = try sqlite3(database, "UPDATE entry SET checksum = checksum + 1 WHERE key = CAST('checksum' AS BLOB);")
        _ = try sqlite3(database, "UPDATE entry SET schemaVersion = 'seven' WHERE key = CAST('column' AS BLOB);")
        _ = try sqlite3(
            database,
            """
            INSERT INTO entry (key, format, schemaVersion, expiry, checksum, payload)
            SELECT X'FF', format, schemaVersion, expiry, checksum, payload FROM entry WHERE key = CAST('intact' AS BLOB);
            """
        )
        _ = try sqlite3(database, "UPDATE entry SET checksum = checksum + 1 WHERE key = CAST('quarantined' AS BLOB);")
        let fresh: ArchiveStore<String> = try openStore(directory)
        let storage = try #require(fresh.entries as? TableEntryStorage)
        #expect(try storage.quarantine(key: Array("quarantined".utf8), reason: "test", in: fresh))

        let result = try ArchiveStoreDirectory.path(directory.path).moveStore(named: "store", to: .files)
        #expect(result.movedEntryCount == 1)
        #expect(result.damagedEntries == ["checksum", "column", "\u{FFFD}"])
        let kept = try #require(result.keptDatabasePath)
        #expect(kept.hasPrefix(directory.storePath + "/Corrupt/entries.sqlite."))
        #expect(try sqlite3(kept, "SELECT count(*) FROM entry;") == "4")
        #expect(try sqlite3(kept, "SELECT CAST(key AS TEXT) FROM quarantine;") == "quarantined")
        #expect(try sqlite3(kept, "PRAGMA integrity_check;") == "ok")
        let moved: ArchiveStore<String> = try openStore(directory)
        #expect(moved.backend == .files)
        #expect(try moved.keys() == ["intact"])
        #expect(try moved.load(forKey: "intact") == "z")
        #expect(!directoryNames(directory.storePath).contains { $0.hasPrefix("entries.sqlite") })
    }
}

/// Checks that `body` throws an ``ArchiveStorageError`` with `code`.
extension ArchiveStoreMoveTests {
    @Test func quarantinedRowsAloneKeepACopyOfTheDatabase() throws {
        let directory = TemporaryDirectory("ArchiveStoreMoveTests", backend: .sqlite)
        defer { directory.remove() }
        let database = directory.storePath + "/entries.sqlite"
        let store: ArchiveStore<String> = try openStore(directory)
        try store.save(["a": "x", "b": "y"])
        _ = try sqlite3(database, "UPDATE entry SET checksum = checksum + 1 WHERE key = CAST('b' AS BLOB);")
        #expect(try store.moveCorruptEntriesAside() == ["b"])
        // A row no store writes: its key is text, not a blob.
        _ = try sqlite3(
            database,
            """
            INSERT INTO entry (key, format, schemaVersion, expiry, checksum, payload)
            SELECT 'text', format, schemaVersion, expiry, checksum, payload FROM entry;
            """
        )

        let result = try ArchiveStoreDirectory.path(directory.path).moveStore(named: "store", to: .files)
        #expect(result.movedEntryCount == 1)
        #expect(result.damagedEntries == [])
        let kept = try #require(result.keptDatabasePath)
        #expect(try sqlite3(kept, "SELECT count(*) FROM quarantine;") == "1")
        #expect(try sqlite3(kept, "SELECT key FROM entry WHERE typeof(key) = 'text';") == "text")
        #expect(try openStore(directory, as: String.self).keys() == ["a"])
    }
}

private func expectError(
    _ code: ArchiveStorageError.Code,
    sourceLocation: SourceLocation = #_sourceLocation,
    _ body: () throws -> Void
) {
    let error = #expect(throws: ArchiveStorageError.self, sourceLocation: sourceLocation) { try body() }
    #expect(error?.code == code, sourceLocation: sourceLocation)
}

private func expectErrorAsync(
    _ code: ArchiveStorageError.Code,
    sourceLocation: SourceLocation = #_sourceLocation,
    _ body: () async throws -> Void
) async {
    let error = await #expect(throws: ArchiveStorageError.self, sourceLocation: sourceLocation) { try await body() }
    #expect(error?.code == code, sourceLocation: sourceLocation)
}

private func other(_ backend: ArchiveStoreBackend) -> ArchiveStoreBackend {
    backend == .files ? .sqlite : .files
}

extension StoreMoveStep {
    func isAtOrAfter(_ other: StoreMoveStep) -> Bool {
        let all = Self.allCases
        return all.firstIndex(of: self) ?? 0 >= all.firstIndex(of: other) ?? 0
    }
}

extension FileHandle {
    /// One line, read a byte at a time (so nothing after it is consumed); `nil` at the end.
    func readLine() -> String? {
        var bytes: [UInt8] = []
        while true {
            let byte = self.readData(ofLength: 1)
            guard let first = byte.first else { return bytes.isEmpty ? nil : String(decoding: bytes, as: UTF8.self) }
            if first == UInt8(ascii: "\n") { return String(decoding: bytes, as: UTF8.self) }
            bytes.append(first)
        }
    }
}

/// Stores of mixed formats, schema versions, expiries and unusual keys, and what they hold.
enum MoveFixture {
    /// Keys that stress both backends: empty, `/`, dots, escapes, control and non-ASCII
    /// characters, and keys too long for a file name (stored inside the entry).
    static let unusualKeys: [String] = [
        "", "/", "a/b/../c", "..", ".", "%2f", "_a", "Upper Case", "tab\there", "new\nline", "\u{7F}\u{1}",
        "quote\"'\\", "🐈‍⬛ emoji", "\u{E9} precomposed", "e\u{301} combining", "日本語のキー",
        String(repeating: "long key ", count: 40), String(repeating: "\u{E9}", count: 200),
    ]

    struct Filled {
        /// The value of every entry, expired ones included.
        var values: [String: Profile] = [:]
        /// Every entry's expiry, in seconds since 1970.
        var expiries: [String: Double] = [:]
        var allKeys: [String] { self.values.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) } }
    }

    /// Fills the store in `directory` with `count` entries plus the unusual keys, through three
    /// configurations (formats, schema versions, expiries); some entries are expired by then.
    static func fill(_ directory: TemporaryDirectory, clock: TestClock, count: Int) throws -> Filled {
        let configurations: [(ArchiveValueFormat, UInt32, ArchiveExpiration)] = [
            (.keyedArchive, 1, .never),
            (.json, 2, .after(.seconds(100))),
            (.propertyList, 7, .after(.seconds(10_000))),
            (.keyedArchiveXML, 0, .at(clock.now.addingTimeInterval(5))),  // expired before the move
        ]
        let stores = try configurations.map { format, version, expiration in
            try openStore(directory, as: Profile.self) {
                $0.format = format
                $0.schemaVersion = version
                $0.defaultExpiration = expiration
                $0.clock = clock.function
                $0.purgesExpiredEntriesOnOpen = false
            }
        }
        var filled = Filled()
        let keys = (0..<count).map { "entry \($0)" } + Self.unusualKeys
        var batches = [[String: Profile]](repeating: [:], count: stores.count)
        for (index, key) in keys.enumerated() {
            let value = Profile(name: "name \(index)", visits: index, tags: index % 3 == 0 ? ["x", key] : [])
            let which = index % stores.count
            if index % 7 == 0 {
                try stores[which].save(value, forKey: key)
            } else {
                batches[which][key] = value
            }
            filled.values[key] = value
            filled.expiries[key] = configurations[which].2.expiry(savedAt: clock.now)
        }
        for (store, batch) in zip(stores, batches) { try store.save(batch) }
        clock.advance(by: 10)
        return filled
    }

    /// The store in `directory` with `clock`, which leaves expired entries in place when it opens
    /// (a purge in the background would make the counts of entries moved vary).
    static func open(_ directory: TemporaryDirectory, clock: TestClock) throws -> ArchiveStore<Profile> {
        try openStore(directory) {
            $0.clock = clock.function
            $0.purgesExpiredEntriesOnOpen = false
        }
    }

    /// One entry as stored: everything the move must keep, byte for byte.
    struct RawEntry: Equatable {
        var format: String
        var schemaVersion: UInt32
        var expiry: UInt64
        var payload: [UInt8]
    }

    /// The stored entries of `keys`, read without decoding.
    static func rawEntries(
        _ directory: TemporaryDirectory,
        keys: [String],
        clock: TestClock
    ) throws -> [String: RawEntry] {
        let store: ArchiveStore<Profile> = try MoveFixture.open(directory, clock: clock)
        var entries: [String: RawEntry] = [:]
        for key in keys {
            let location = EntryLocation(key: key, directory: store.directoryPath)
            let read = try store.entries.readEntry(key: key, location: location, isLocked: false, in: store)
            guard let (entry, _, _) = read else { continue }
            entries[key] = RawEntry(
                format: entry.formatIdentifier,
                schemaVersion: entry.prefix.schemaVersion,
                expiry: entry.prefix.expiry.bitPattern,
                payload: Array(entry.payload)
            )
        }
        return entries
    }

    /// Checks that `store` holds exactly the unexpired entries of `filled` at `now`.
    static func expectValues(
        _ filled: Filled,
        in store: ArchiveStore<Profile>,
        at now: Date? = nil,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let now = (now ?? store.configuration.clock()).timeIntervalSince1970
        let unexpired = filled.allKeys.filter { (filled.expiries[$0] ?? 0) > now }
        #expect(unexpired.count >= filled.values.count / 3, sourceLocation: sourceLocation)
        #expect(try store.keys() == unexpired, sourceLocation: sourceLocation)
        for key in filled.allKeys {
            let expected = (filled.expiries[key] ?? 0) > now ? filled.values[key] : nil
            #expect(try store.load(forKey: key) == expected, "\(key)", sourceLocation: sourceLocation)
        }
    }

    /// What a move left in the store's directory that a store on `backend` does not use.
    static func leftovers(_ directory: TemporaryDirectory, on backend: ArchiveStoreBackend) -> [String] {
        directoryNames(directory.storePath).filter { name in
            if name.hasPrefix(".tmp-") || name.hasPrefix("entries.sqlite.moving") { return true }
            if backend == .files { return name.hasPrefix("entries.sqlite") }
            return EntryFileName.classify(name) != .other
        }
    }

    static func damage(_ path: String, _ change: (inout [UInt8]) -> Void) throws {
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        change(&bytes)
        try Data(bytes).write(to: URL(fileURLWithPath: path))
    }
}
#endif
