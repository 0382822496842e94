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
import Dispatch
import Foundation
import KeyedArchiving
import TestSupport
import Testing

@testable import ArchiveStorage

/// What only the SQLite backend does: detection of an existing store's backend, damaged rows and
/// databases, the quarantine table. The `sqlite3` command damages the database and reads it back.
@Suite struct SQLiteBackendTests {
    @Test func anExistingStoreKeepsItsBackend() throws {
        let files = TemporaryDirectory()
        defer { files.remove() }
        try (openStore(files) as ArchiveStore<Int>).save(1, forKey: "one")
        let filesAgain: ArchiveStore<Int> = try openStore(files) { $0.backend = .sqlite }
        #expect(filesAgain.backend == .files)
        #expect(try filesAgain.load(forKey: "one") == 1)
        #expect(!directoryNames(files.storePath).contains("entries.sqlite"))

        let sqlite = TemporaryDirectory(backend: .sqlite)
        defer { sqlite.remove() }
        let created: ArchiveStore<Int> = try openStore(sqlite)
        #expect(created.backend == .sqlite)
        try created.save(2, forKey: "two")
        let sqliteAgain: ArchiveStore<Int> = try openStore(sqlite) { $0.backend = .files }
        #expect(sqliteAgain.backend == .sqlite)
        #expect(try sqliteAgain.load(forKey: "two") == 2)
        #expect(try sqliteAgain.keys() == ["two"])
    }

    /// Two instances creating one store at once with different backends agree on one: creation
    /// holds the directory's lock. Before, both could create their own, and a later open took the
    /// files store's entries for a move's leftovers: at `371dd53`, 58 of 300 rounds disagreed in
    /// one run (20 rounds once missed it, hence 200).
    @Test func storesCreatedAtOnceWithDifferentBackendsAgree() throws {
        for round in 0..<200 {
            let directory = TemporaryDirectory()
            defer { directory.remove() }
            let backends = Locked<[ArchiveStoreBackend]>([])
            DispatchQueue.concurrentPerform(iterations: 2) { index in
                let backend: ArchiveStoreBackend = index == 0 ? .files : .sqlite
                do {
                    let store: ArchiveStore<Int> = try openStore(directory) { $0.backend = backend }
                    try store.save(index, forKey: "from \(index)")
                    store.waitForBackgroundMaintenance()
                    backends.withLock { $0.append(store.backend) }
                } catch {
                    Issue.record("round \(round), \(backend): \(error)")
                }
            }
            let seen = backends.withLock { $0 }
            #expect(seen.count == 2 && seen[0] == seen[1], "round \(round): \(seen)")
            let store: ArchiveStore<Int> = try openStore(directory)
            store.waitForBackgroundMaintenance()
            #expect(try store.keys() == ["from 0", "from 1"], "round \(round)")
        }
    }

    /// Loads that miss memory read on connections of their own (`SQLiteReaders`), outside the
    /// pool's transactions: several threads at once each get their own key's value, and none sees
    /// a value older than the last commit before its load began.
    @Test func pointReadsOnManyThreadsSeeEveryCommit() throws {
        let directory = TemporaryDirectory(backend: .sqlite)
        defer { directory.remove() }
        let store: ArchiveStore<Int> = try openStore(directory) { $0.memoryCountLimit = 0 }
        let keys = 16
        for key in 0..<keys { try store.save(0, forKey: "key\(key)") }
        let rounds = 50
        let failures = Locked<[String]>([])
        DispatchQueue.concurrentPerform(iterations: keys) { key in
            do {
                for round in 1...rounds {
                    try store.save(round, forKey: "key\(key)")
                    let loaded = try store.load(forKey: "key\(key)")
                    if loaded != round {
                        failures.withLock { $0.append("key\(key) round \(round): \(String(describing: loaded))") }
                    }
                    _ = try store.contains("key\((key + 1) % keys)")
                }
            } catch {
                failures.withLock { $0.append("key\(key): \(error)") }
            }
        }
        #expect(failures.withLock { $0 } == [])
        for key in 0..<keys { #expect(try store.load(forKey: "key\(key)") == rounds) }
    }

    /// A purge that cannot read an expired row for another reason than the row's own damage (here
    /// a damaged page of the entry table, holding every expired row) throws `corruptStore`. With
    /// the `try?` of `371dd53` restored it throws too: SQLite aborts the transaction on the
    /// damage, and its commit fails; the purge no longer relies on that.
    @Test func aPurgeReportsADamagedPage() throws {
        let directory = TemporaryDirectory(backend: .sqlite)
        defer { directory.remove() }
        let database = directory.storePath + "/entries.sqlite"
        let clock = TestClock()
        do {
            let store: ArchiveStore<String> = try openStore(directory) {
                $0.clock = clock.function
                $0.purgesExpiredEntriesOnOpen = false
            }
            try store.save(
                (0..<400).map { ("key \($0)", "value \($0) " + String(repeating: "x", count: 300)) },
                expiration: .after(.seconds(365 * 86_400))
            )
            store.close()
        }
        // A leaf page of the entry table from the middle of its list, and the keys whose values
        // it holds ("value N " is in the encoded payload).
        let leaves = try sqlite3(
            database,
            "SELECT pageno FROM dbstat WHERE name = 'entry' AND pagetype = 'leaf' ORDER BY pageno;"
        ).split(separator: "\n").compactMap { Int($0) }
        try #require(leaves.count > 4)
        let pageSize = try #require(Int(try sqlite3(database, "PRAGMA page_size;")))
        let start = (leaves[leaves.count / 2] - 1) * pageSize
        let page = [UInt8](try Data(contentsOf: URL(fileURLWithPath: database)))[start..<start + pageSize]
        let keys = (0..<400).filter { index in
            let marker = Array("value \(index) ".utf8)
            return page.indices.dropLast(marker.count).contains { page[$0..<$0 + marker.count].elementsEqual(marker) }
        }
        try #require(!keys.isEmpty)
        let hexKeys = keys.map { "X'" + "key \($0)".utf8.map { String(format: "%02x", $0) }.joined() + "'" }
        // 1.5 is stored as a REAL, as the year's expiry was: no row changes size or page.
        let expire = """
            UPDATE entry SET expiry = 1.5 WHERE key IN (\(hexKeys.joined(separator: ", ")));
            PRAGMA wal_checkpoint(TRUNCATE);
            """
        _ = try sqlite3(database, expire)
        #expect(try sqlite3(database, "SELECT count(*) FROM entry WHERE expiry = 1.5;") == "\(keys.count)")
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: database)))
        for offset in start..<start + 64 { bytes[offset] = 0xA5 }
        try Data(bytes).write(to: URL(fileURLWithPath: database))

        let store: ArchiveStore<String> = try openStore(directory) {
            $0.clock = clock.function
            $0.purgesExpiredEntriesOnOpen = false
        }
        let error = #expect(throws: ArchiveStorageError.self) { try store.purgeExpired() }
        #expect(error?.code == .corruptStore, "\(String(describing: error))")
    }

    @Test func aDamagedRowIsACorruptEntryNamingItsKeyAndCanBeQuarantined() throws {
        let directory = TemporaryDirectory(backend: .sqlite)
        defer { directory.remove() }
        let database = directory.storePath + "/entries.sqlite"
        let store: ArchiveStore<String> = try openStore(directory)
        for key in ["a", "b", "c", "e"] { try store.save("value of \(key)", forKey: key) }
        // A changed payload byte (the checksum stays), and a column of another type.
        let damagePayload = "UPDATE entry SET payload = CAST(X'00' || substr(payload, 2) AS BLOB) WHERE key = X'61';"
        _ = try sqlite3(database, damagePayload)
        _ = try sqlite3(database, "UPDATE entry SET schemaVersion = 'seven' WHERE key = X'62';")
        _ = try sqlite3(database, "UPDATE entry SET expiry = 'soon' WHERE key = X'65';")
        let fresh: ArchiveStore<String> = try openStore(directory)
        let payload = #expect(throws: ArchiveStorageError.self) { try fresh.load(forKey: "a") }
        #expect(payload?.code == .corruptEntry)
        #expect(payload?.key == "a")
        #expect(payload?.path == database)
        #expect(payload?.reason.contains("checksum mismatch") == true)
        let column = #expect(throws: ArchiveStorageError.self) { try fresh.info(forKey: "b") }
        #expect(column?.code == .corruptEntry)
        #expect(column?.key == "b")
        #expect(try fresh.load(forKey: "c") == "value of c")
        // An expiry of another type: `contains` reads only that column, and reports it as a
        // damaged header, as on the files backend.
        let expiry = #expect(throws: ArchiveStorageError.self) { try fresh.contains("e") }
        #expect(expiry?.code == .corruptEntry)
        #expect(expiry?.key == "e")
        #expect(try fresh.contains("c"))
        // Listed, so that a load can report them; moved on demand, and then gone.
        #expect(try fresh.keys() == ["a", "b", "c", "e"])
        #expect(try fresh.moveCorruptEntriesAside() == ["a", "b", "e"])
        #expect(try fresh.moveCorruptEntriesAside() == [])
        #expect(try fresh.load(forKey: "a") == nil)
        #expect(try fresh.keys() == ["c"])
        #expect(try sqlite3(database, "SELECT CAST(key AS TEXT), reason FROM quarantine ORDER BY key;").hasPrefix("a|"))
        #expect(try sqlite3(database, "SELECT count(*) FROM quarantine;") == "3")
    }

    @Test func theMoveAsidePolicyQuarantinesADamagedRowWhenReadOrUpdated() throws {
        let directory = TemporaryDirectory(backend: .sqlite)
        defer { directory.remove() }
        let database = directory.storePath + "/entries.sqlite"
        let store: ArchiveStore<Int> = try openStore(directory) { $0.corruptEntryPolicy = .moveAside }
        try store.save(["read": 1, "updated": 2])
        _ = try sqlite3(database, "UPDATE entry SET checksum = checksum + 1;")
        let fresh: ArchiveStore<Int> = try openStore(directory) { $0.corruptEntryPolicy = .moveAside }
        let read = #expect(throws: ArchiveStorageError.self) { try fresh.load(forKey: "read") }
        #expect(read?.code == .corruptEntry)
        #expect(read?.reason.contains("moved to the quarantine table") == true)
        #expect(try fresh.load(forKey: "read") == nil)
        let updated = #expect(throws: ArchiveStorageError.self) { try fresh.update(forKey: "updated") { $0 = 3 } }
        #expect(updated?.code == .corruptEntry)
        #expect(try fresh.load(forKey: "updated") == nil)
        #expect(try sqlite3(database, "SELECT count(*) FROM quarantine;") == "2")
    }

    @Test func aFileThatIsNotADatabaseIsACorruptStoreAndIsKept() throws {
        // A directory of its own: no open connection of another store can write to the file.
        let directory = TemporaryDirectory(backend: .sqlite)
        defer { directory.remove() }
        try FileManager.default.createDirectory(atPath: directory.storePath, withIntermediateDirectories: true)
        let database = directory.storePath + "/entries.sqlite"
        let garbage = Data((0..<8192).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        try garbage.write(to: URL(fileURLWithPath: database))
        // The configuration says files; the database file decides.
        let error = #expect(throws: ArchiveStorageError.self) {
            try openStore(directory, as: Int.self) { $0.backend = .files }
        }
        #expect(error?.code == .corruptStore)
        #expect(error?.path == database)
        #expect(try Data(contentsOf: URL(fileURLWithPath: database)) == garbage)
    }

    @Test func aTruncatedDatabaseIsACorruptStore() throws {
        let original = TemporaryDirectory(backend: .sqlite)
        defer { original.remove() }
        let store: ArchiveStore<String> = try openStore(original)
        var batch: [String: String] = [:]
        for index in 0..<2000 { batch["key \(index)"] = String(repeating: "x", count: 200) }
        try store.save(batch)
        _ = try sqlite3(original.storePath + "/entries.sqlite", "PRAGMA wal_checkpoint(TRUNCATE);")
        // Half of a copy, in a directory of its own.
        let directory = TemporaryDirectory(backend: .sqlite)
        defer { directory.remove() }
        try FileManager.default.createDirectory(atPath: directory.storePath, withIntermediateDirectories: true)
        let database = directory.storePath + "/entries.sqlite"
        let bytes = try Data(contentsOf: URL(fileURLWithPath: original.storePath + "/entries.sqlite"))
        #expect(bytes.count > 400_000)
        try bytes.prefix(bytes.count / 2).write(to: URL(fileURLWithPath: database))
        let error = #expect(throws: ArchiveStorageError.self) {
            let damaged: ArchiveStore<String> = try openStore(directory)
            for key in try damaged.keys() { _ = try damaged.load(forKey: key) }
        }
        #expect(error?.code == .corruptStore)
        #expect(error?.path == database)
    }

    /// How ``aDamagedDatabaseIsACorruptStoreNamingItAndIsKept(_:)`` damages the database file.
    enum DatabaseDamage: String, CaseIterable, Sendable, CustomTestStringConvertible {
        /// The headers of two b-tree pages in the middle of the file are overwritten.
        case overwrittenPages
        /// The file loses its second half.
        case truncated
        /// Every byte after the first page (the header and the schema) is garbage.
        case garbageAfterTheFirstPage
        /// The expiry index's definition is changed under it, so that none of its rows is where
        /// SQLite looks: its integrity check reports every row.
        case inconsistentExpiryIndex
        /// The root page of the expiry index is overwritten: no read of an entry touches it, so
        /// only SQLite's integrity check finds it.
        case overwrittenExpiryIndex

        var testDescription: String { self.rawValue }
    }

    @Test(arguments: DatabaseDamage.allCases) func aDamagedDatabaseIsACorruptStoreNamingItAndIsKept(
        _ damage: DatabaseDamage
    ) throws {
        let directory = TemporaryDirectory(backend: .sqlite)
        defer { directory.remove() }
        let database = directory.storePath + "/entries.sqlite"
        var expected: [String: String] = [:]
        for index in 0..<400 {
            expected["key \(index)"] = "value \(index) " + String(repeating: "x", count: index % 300)
        }
        do {
            let store: ArchiveStore<String> = try openStore(directory)
            // Expiring in a year, so that the expiry index has pages.
            try store.save(expected, expiration: .after(.seconds(365 * 86_400)))
            #expect(try store.verifyIntegrity() == ArchiveIntegrityReport(checkedEntryCount: 400, damagedEntries: []))
            store.waitForBackgroundMaintenance()
        }
        if damage == .inconsistentExpiryIndex {
            let change = """
                PRAGMA writable_schema = ON;
                UPDATE sqlite_master SET sql = replace(sql, '(expiry, key)', '(key, expiry)') WHERE name = 'entry_expiry';
                """
            _ = try sqlite3(database, change)
        }
        // The store is closed; everything is in the database file, none in its WAL.
        #expect(try sqlite3(database, "PRAGMA wal_checkpoint(TRUNCATE);").hasPrefix("0|"))
        let pageSize = try #require(Int(try sqlite3(database, "PRAGMA page_size;")))
        let indexRoot = try #require(
            Int(try sqlite3(database, "SELECT rootpage FROM sqlite_master WHERE name = 'entry_expiry';"))
        )
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: database)))
        let pages = bytes.count / pageSize
        #expect(pages > 20)
        switch damage {
        case .overwrittenPages:
            // Two leaf pages of the entry table from the middle of its list (dbstat numbers pages
            // from 1): pages picked by position alone may hold an index, and then no load fails.
            let leaves = try sqlite3(
                database,
                "SELECT pageno FROM dbstat WHERE name = 'entry' AND pagetype = 'leaf' ORDER BY pageno;"
            ).split(separator: "\n").compactMap { Int($0) }
            try #require(leaves.count > 4)
            for page in [leaves[leaves.count / 2], leaves[leaves.count / 2 + 1]] {
                let start = (page - 1) * pageSize
                for offset in start..<start + 64 { bytes[offset] = 0xA5 }
            }
        case .truncated:
            bytes.removeLast(bytes.count / 2)
        case .garbageAfterTheFirstPage:
            for offset in pageSize..<bytes.count { bytes[offset] = UInt8(truncatingIfNeeded: offset &* 7919 >> 3) }
        case .overwrittenExpiryIndex:
            let start = (indexRoot - 1) * pageSize
            for offset in start..<start + 64 { bytes[offset] = 0xA5 }
        case .inconsistentExpiryIndex:
            break
        }
        let damaged = Data(bytes)
        try damaged.write(to: URL(fileURLWithPath: database))

        var loaded = 0
        var failed = 0
        do {
            let store: ArchiveStore<String> = try openStore(directory)
            let error = #expect(throws: ArchiveStorageError.self) { try store.verifyIntegrity() }
            #expect(error?.code == .corruptStore)
            #expect(error?.path == database)
            if damage == .inconsistentExpiryIndex {
                // SQLite's first five messages, and a note that there are more.
                let reason = error?.reason ?? ""
                #expect(reason.hasPrefix("PRAGMA integrity_check failed: row "), "\(reason)")
                #expect(reason.components(separatedBy: " missing from index entry_expiry").count == 6, "\(reason)")
                #expect(reason.hasSuffix("; and more"), "\(reason)")
            }
            if damage == .overwrittenExpiryIndex {
                #expect(
                    error?.reason.hasPrefix("PRAGMA integrity_check failed: ") == true,
                    "\(String(describing: error))"
                )
            }
            // Each load finds its value or reports damage: never a wrong value, never none.
            for (key, value) in expected {
                do {
                    #expect(try store.load(forKey: key) == value, "\(key)")
                    loaded += 1
                } catch {
                    #expect(error.code == .corruptEntry || error.code == .corruptStore, "\(key): \(error)")
                    failed += 1
                }
            }
            store.waitForBackgroundMaintenance()
        } catch let error as ArchiveStorageError {
            // Opening reads the first pages only; damage there is found at once.
            #expect(damage == .truncated || damage == .garbageAfterTheFirstPage, "opening found the damage: \(error)")
            #expect(error.code == .corruptStore)
            #expect(error.path == database)
        }
        switch damage {
        case .overwrittenPages:
            // The damage hit entries, and only some.
            #expect(loaded > 0)
            #expect(failed > 0)
        case .overwrittenExpiryIndex, .inconsistentExpiryIndex:
            #expect(loaded == expected.count)
        case .truncated, .garbageAfterTheFirstPage:
            break
        }
        // Kept byte for byte as it was: opening, reading and closing wrote nothing.
        let after = try Data(contentsOf: URL(fileURLWithPath: database))
        #expect(after == damaged, "the store changed the damaged database")
    }

    @Test(.enabled(if: ChildProcesses.areAvailable)) func aSaveWaitsForAnotherProcesssWriteTransactionWhileLoadsGoOn()
        throws
    {
        let directory = TemporaryDirectory(backend: .sqlite)
        defer { directory.remove() }
        let database = directory.storePath + "/entries.sqlite"
        let writer: ArchiveStore<String> = try openStore(directory)
        var values: [String: String] = [:]
        for index in 0..<20 { values["key \(index)"] = "value \(index)" }
        try writer.save(values)
        // Another instance, opened before the lock is taken, with nothing in memory.
        let reader: ArchiveStore<String> = try openStore(directory)

        // The sqlite3 command takes the write lock and holds it until told to commit.
        let sqlite = Process()
        sqlite.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        sqlite.arguments = ["sqlite3", database]
        let input = Pipe()
        let output = Pipe()
        sqlite.standardInput = input
        sqlite.standardOutput = output
        try sqlite.run()
        // `.timeout` first: a store's background purge may hold the lock for a moment.
        input.fileHandleForWriting.write(Data(".timeout 5000\nBEGIN IMMEDIATE;\nSELECT 'locked';\n".utf8))
        var printed = ""
        while !printed.contains("locked") {
            let data = output.fileHandleForReading.availableData
            try #require(!data.isEmpty, "sqlite3 ended before taking the lock")
            printed += String(decoding: data, as: UTF8.self)
        }
        let clock = ContinuousClock()
        let lockedDate = Date()

        let saved = Locked<(result: Result<Void, ArchiveStorageError>, at: ContinuousClock.Instant)?>(nil)
        let done = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            let result = Result { () throws(ArchiveStorageError) in try writer.save("new", forKey: "key 0") }
            saved.withLock { $0 = (result, clock.now) }
            done.signal()
        }
        // Reads are not blocked by the writer (WAL): every load completes while the save waits.
        for index in 1..<20 { #expect(try reader.load(forKey: "key \(index)") == "value \(index)") }
        #expect(try reader.load(forKey: "key 0") == "value 0")
        #expect(saved.withLock { $0 == nil }, "the save did not wait for the lock")

        // Held for about a second, then committed.
        Thread.sleep(until: lockedDate + 1)
        #expect(saved.withLock { $0 == nil }, "the save did not wait for the lock")
        let committed = clock.now
        input.fileHandleForWriting.write(Data("COMMIT;\n".utf8))
        try input.fileHandleForWriting.close()
        sqlite.waitUntilExit()
        #expect(done.wait(timeout: .now() + 30) == .success)
        let outcome = try #require(saved.withLock { $0 })
        if case .failure(let error) = outcome.result { Issue.record("the save failed: \(error)") }
        #expect(outcome.at >= committed)
        #expect(try reader.load(forKey: "key 0") == "new")
        #expect(try writer.verifyIntegrity().isIntact)
    }
}
#endif
