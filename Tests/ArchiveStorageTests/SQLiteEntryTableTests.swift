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
import GRDB
import KeyedArchiving
import TestSupport
import Testing

@testable import ArchiveStorage

/// How the SQLite backend uses its database: the settings its writer commits with, what opening
/// writes (nothing, unless it creates the database), and how large the WAL gets.
@Suite struct SQLiteEntryTableTests {
    /// The writer's settings as SQLite reports them, after GRDB set up the connection.
    @Test(arguments: [true, false]) func theWriterCommitsWithTheConfiguredDurability(isDurable: Bool) throws {
        let directory = TemporaryDirectory(backend: .sqlite)
        defer { directory.remove() }
        let store: ArchiveStore<Int> = try openStore(directory) { $0.isDurable = isDurable }
        try store.save(1, forKey: "one")
        let table = try #require((store.entries as? TableEntryStorage)?.table as? SQLiteEntryTable)
        let names = ["synchronous", "fullfsync", "checkpoint_fullfsync", "journal_size_limit", "journal_mode"]
        let values = try table.writerPragmas(names)
        // synchronous: 2 is FULL, 1 NORMAL.
        let expected = isDurable ? ["2", "1", "1", "4194304", "wal"] : ["1", "0", "0", "4194304", "wal"]
        #expect(values == expected)
    }

    /// A read inside a read of the same thread (a value whose decoding, which runs on the reader
    /// connection, loads from a store) gets a connection of its own instead of waiting for the
    /// one it holds.
    @Test func aReadInsideAReadOfTheSameThreadDoesNotWaitForItself() throws {
        let directory = TemporaryDirectory(backend: .sqlite)
        defer { directory.remove() }
        let store: ArchiveStore<Int> = try openStore(directory)
        try store.save(1, forKey: "one")
        let table = try #require((store.entries as? TableEntryStorage)?.table as? SQLiteEntryTable)
        let readers = SQLiteReaders(path: table.path, count: 1)
        defer { readers.close() }
        let count = try readers.read { outer in
            let first = try Int.fetchOne(outer, sql: "SELECT count(*) FROM entry") ?? 0
            let second = try readers.transaction { inner in try Int.fetchOne(inner, sql: "SELECT count(*) FROM entry") }
            return first + (second ?? 0)
        }
        #expect(count == 2)
        // The connection is free again afterwards.
        #expect(try readers.read { db in try Int.fetchOne(db, sql: "SELECT 1") } == 1)
    }

    /// Opening an existing store, reading it and closing it leaves its database file byte for
    /// byte as it was: no setting, no migration and no empty commit is written.
    @Test func openingAnExistingStoreWritesNothing() throws {
        let directory = TemporaryDirectory(backend: .sqlite)
        defer { directory.remove() }
        let database = directory.storePath + "/entries.sqlite"
        do {
            let store: ArchiveStore<String> = try openStore(directory) { $0.diskByteLimit = 1 << 20 }
            try store.save("value", forKey: "key")
            store.waitForBackgroundMaintenance()
        }
        #expect(try sqlite3(database, "PRAGMA wal_checkpoint(TRUNCATE);").hasPrefix("0|"))
        let before = try Data(contentsOf: URL(fileURLWithPath: database))
        do {
            let store: ArchiveStore<String> = try openStore(directory) { $0.diskByteLimit = 1 << 20 }
            #expect(try store.load(forKey: "key") == "value")
            #expect(try store.keys() == ["key"])
            store.waitForBackgroundMaintenance()
        }
        // Whatever the store left in the WAL is copied into the database first.
        #expect(try sqlite3(database, "PRAGMA wal_checkpoint(TRUNCATE);").hasPrefix("0|"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: database)) == before)
    }

    /// Opening takes no write lock: it does not wait for another process's write transaction.
    @Test(.enabled(if: ChildProcesses.areAvailable)) func openingDoesNotWaitForAnotherProcesssWrite() throws {
        let directory = TemporaryDirectory(backend: .sqlite)
        defer { directory.remove() }
        let database = directory.storePath + "/entries.sqlite"
        do {
            let store: ArchiveStore<String> = try openStore(directory)
            try store.save("value", forKey: "key")
            store.waitForBackgroundMaintenance()
        }
        // The sqlite3 command takes the write lock, writes, and holds it for three seconds.
        let sqlite = Process()
        sqlite.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        sqlite.arguments = ["sqlite3", database]
        let input = Pipe()
        let output = Pipe()
        sqlite.standardInput = input
        sqlite.standardOutput = output
        try sqlite.run()
        input.fileHandleForWriting.write(
            Data("BEGIN IMMEDIATE;\nDELETE FROM quarantine;\nSELECT 'locked';\n".utf8)
        )
        var printed = ""
        while !printed.contains("locked") {
            let data = output.fileHandleForReading.availableData
            try #require(!data.isEmpty, "sqlite3 ended before taking the lock")
            printed += String(decoding: data, as: UTF8.self)
        }
        defer {
            input.fileHandleForWriting.write(Data("SELECT 1;\n".utf8))
            Thread.sleep(forTimeInterval: 3)
            input.fileHandleForWriting.write(Data("COMMIT;\n".utf8))
            try? input.fileHandleForWriting.close()
            sqlite.waitUntilExit()
        }
        let clock = ContinuousClock()
        let start = clock.now
        let store: ArchiveStore<String> = try openStore(directory) { $0.purgesExpiredEntriesOnOpen = false }
        #expect(try store.load(forKey: "key") == "value")
        #expect(clock.now - start < .seconds(2), "opening waited for the other process's write")
    }

    /// A large write checkpoints, and the next write truncates the WAL to its limit: the file does
    /// not keep the size of the largest transaction.
    @Test func theWALShrinksAfterALargeWrite() throws {
        let directory = TemporaryDirectory(backend: .sqlite)
        defer { directory.remove() }
        let wal = directory.storePath + "/entries.sqlite-wal"
        let store: ArchiveStore<String> = try openStore(directory)
        var batch: [String: String] = [:]
        for index in 0..<300 { batch["key \(index)"] = String(repeating: "\(index % 10)", count: 40_000) }
        try store.save(batch)
        try store.save("small", forKey: "small")
        let size = try #require(DirectoryListing.fileSize(atPath: wal))
        #expect(size <= SQLiteEntryTable.walSizeLimit, "the WAL is \(size) bytes")
    }

    /// Under continuous writes, with readers listing keys all along, the WAL and the database
    /// stay within a stated size: the WAL under twice its checkpoint threshold, the database under
    /// four times its live data plus the WAL limit.
    @Test func aStoreUnderContinuousWritesStaysBounded() throws {
        let directory = TemporaryDirectory(backend: .sqlite)
        defer { directory.remove() }
        let wal = directory.storePath + "/entries.sqlite-wal"
        let database = directory.storePath + "/entries.sqlite"
        let store: ArchiveStore<String> = try openStore(directory) { $0.memoryCountLimit = 0 }
        let value = String(repeating: "v", count: 8_000)
        let keys = 50
        let stop = Locked(false)
        let largest = Locked(0)
        let reader = Thread {
            while !stop.withLock({ $0 }) {
                _ = try? store.keys()
                let size = DirectoryListing.fileSize(atPath: wal) ?? 0
                largest.withLock { $0 = max($0, size) }
            }
        }
        reader.start()
        for round in 0..<3_000 { try store.save(value + "\(round)", forKey: "key \(round % keys)") }
        stop.withLock { $0 = true }
        let walLimit = 2 * SQLiteEntryTable.walCheckpointThreshold
        #expect(largest.withLock { $0 } <= walLimit, "the WAL reached \(largest.withLock { $0 }) bytes")
        let databaseSize = try #require(DirectoryListing.fileSize(atPath: database))
        let databaseLimit = 4 * keys * 8_000 + SQLiteEntryTable.walSizeLimit
        #expect(databaseSize <= databaseLimit, "the database is \(databaseSize) bytes")
    }

    /// A purge gives every freed page back, in bounded steps.
    @Test func aPurgeGivesFreedPagesBack() throws {
        let directory = TemporaryDirectory(backend: .sqlite)
        defer { directory.remove() }
        let database = directory.storePath + "/entries.sqlite"
        let clock = TestClock()
        let store: ArchiveStore<String> = try openStore(directory) {
            $0.clock = clock.function
            $0.purgesExpiredEntriesOnOpen = false
        }
        var batch: [String: String] = [:]
        for index in 0..<2_000 { batch["key \(index)"] = String(repeating: "x", count: 2_000) }
        try store.save(batch, expiration: .after(.seconds(60)))
        clock.advance(by: 120)
        #expect(try store.purgeExpired() == 2_000)
        #expect(try sqlite3(database, "PRAGMA freelist_count;") == "0")
        #expect(try sqlite3(database, "PRAGMA integrity_check;") == "ok")
    }

    /// Rewriting outdated entries commits a transaction per page of entries, not per entry: the
    /// WAL holds one commit frame for 50 rewritten rows.
    @Test func rewritingOutdatedEntriesCommitsOncePerPage() throws {
        let directory = TemporaryDirectory(backend: .sqlite)
        defer { directory.remove() }
        let database = directory.storePath + "/entries.sqlite"
        let old: ArchiveStore<Int> = try openStore(directory) { $0.schemaVersion = 1 }
        try old.save((0..<50).map { ("key \($0)", $0) })
        old.close()
        #expect(try sqlite3(database, "PRAGMA wal_checkpoint(TRUNCATE);").hasPrefix("0|"))
        let store: ArchiveStore<Int> = try openStore(directory) {
            $0.schemaVersion = 2
            $0.purgesExpiredEntriesOnOpen = false
        }
        store.waitForBackgroundMaintenance()
        #expect(try store.rewriteOutdatedEntries().count == 50)
        #expect(try walCommitCount(database + "-wal") == 1)
        #expect(try store.info(forKey: "key 7")?.schemaVersion == 2)
    }

    /// The number of commits in the WAL file at `path`: its frames, of the WAL's current salt,
    /// whose header gives the database size (which only a commit's last frame does).
    private func walCommitCount(_ path: String) throws -> Int {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        func word(_ offset: Int) -> UInt32 {
            bytes[offset..<offset + 4].reduce(0) { $0 << 8 | UInt32($1) }
        }
        guard bytes.count >= 32 else { return 0 }
        let pageSize = Int(word(8))
        let salts = (word(16), word(20))
        var commits = 0
        var offset = 32
        while offset + 24 + pageSize <= bytes.count {
            guard (word(offset + 8), word(offset + 12)) == salts else { break }
            if word(offset + 4) != 0 { commits += 1 }
            offset += 24 + pageSize
        }
        return commits
    }
}
#endif
