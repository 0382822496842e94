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
import Testing
import TestSupport

@testable import ArchiveStorage

/// What the disk byte limit adds to the SQLite layout: the recency column of `entries-2`, and the
/// payload total and recency index that a store keeps once it is opened with a limit. The
/// `sqlite3` command lays out and reads the database.
@Suite struct SQLiteEvictionTests {
    /// The total the triggers keep, and the one counted from the rows.
    static func totals(_ database: String) throws -> (kept: String, counted: String) {
        (
            try sqlite3(database, "SELECT value FROM meta WHERE name = 'byteCount';"),
            try sqlite3(database, "SELECT coalesce(sum(length(payload)), 0) FROM entry;")
        )
    }

    @Test func aStoreOfTheFirstLayoutIsUpgradedOnOpen() throws {
        let directory = TemporaryDirectory(backend: .sqlite)
        defer { directory.remove() }
        let database = directory.storePath + "/entries.sqlite"
        let clock = TestClock()
        do {
            let store: ArchiveStore<String> = try openStore(directory) {
                $0.clock = clock.function
                $0.diskByteLimit = 1 << 30
            }
            for index in 0..<3 { try store.save(String(repeating: "o", count: 200), forKey: "old\(index)") }
            store.waitForBackgroundMaintenance()
        }
        // Back to the layout of entries-1, as a store of an earlier release left it.
        _ = try sqlite3(
            database,
            """
            DROP TRIGGER entry_insert_byteCount; DROP TRIGGER entry_delete_byteCount;
            DROP TRIGGER entry_update_byteCount; DROP TABLE meta; DROP INDEX entry_accessedAt;
            ALTER TABLE entry DROP COLUMN accessedAt;
            DELETE FROM grdb_migrations WHERE identifier IN ('entries-2', 'entries-3');
            """
        )
        #expect(try sqlite3(database, "SELECT identifier FROM grdb_migrations;") == "entries-1")
        #expect(try !sqlite3(database, "SELECT sql FROM sqlite_master WHERE name = 'entry';").contains("accessedAt"))
        #expect(try sqlite3(database, "SELECT count(*) FROM sqlite_master WHERE name = 'meta';") == "0")

        let size = try ArchiveStoreEvictionTests.entrySize(String(repeating: "n", count: 200), on: .sqlite)
        let upgraded: ArchiveStore<String> = try openStore(directory) {
            $0.clock = clock.function
            $0.diskByteLimit = 5 * size + size / 2
        }
        #expect(
            try sqlite3(database, "SELECT identifier FROM grdb_migrations ORDER BY identifier;")
                == "entries-1\nentries-2\nentries-3"
        )
        let totals = try Self.totals(database)
        #expect(totals.kept == totals.counted)
        #expect(Int(totals.kept) == 3 * size)
        #expect(try upgraded.load(forKey: "old1") == String(repeating: "o", count: 200))
        // Rows from before the upgrade have no recency: the least recently used, but for a load.
        for index in 0..<3 {
            clock.advance(by: 1)
            try upgraded.save(String(repeating: "n", count: 200), forKey: "new\(index)")
        }
        #expect(try upgraded.keys() == ["new0", "new1", "new2", "old1"])
    }

    @Test func theKeptTotalFollowsEveryWrite() throws {
        let directory = TemporaryDirectory(backend: .sqlite)
        defer { directory.remove() }
        let database = directory.storePath + "/entries.sqlite"
        let clock = TestClock()
        let store: ArchiveStore<String> = try openStore(directory) {
            $0.clock = clock.function
            $0.purgesExpiredEntriesOnOpen = false
            $0.diskByteLimit = 1 << 30
        }
        func check(sourceLocation: SourceLocation = #_sourceLocation) throws {
            let totals = try Self.totals(database)
            #expect(totals.kept == totals.counted, sourceLocation: sourceLocation)
        }
        try check()
        try store.save("short", forKey: "a")
        try check()
        try store.save(String(repeating: "longer", count: 50), forKey: "a")
        try check()
        try store.save(["b": "bee", "c": "sea", "d": "dee"], expiration: .after(.seconds(5)))
        try check()
        try store.remove(forKey: "b")
        try store.update(forKey: "c") { $0 = nil }
        try store.update(forKey: "e") { $0 = "new" }
        try check()
        clock.advance(by: 10)
        #expect(try store.purgeExpired() == 1)
        try check()
        _ = try sqlite3(database, "UPDATE entry SET checksum = checksum + 1 WHERE key = X'61';")
        #expect(try store.moveCorruptEntriesAside() == ["a"])
        try check()
        #expect(try store.keys() == ["e"])
        try store.removeAll()
        #expect(try Self.totals(database) == ("0", "0"))
    }

    /// The bookkeeping (a trigger per write, an index on recency) only where a limit needs it: a
    /// store of the `entries-2` layout sheds it when opened without a limit, and gets it back,
    /// counted afresh, when opened with one; writes of instances without a limit then keep the
    /// total too, since it is the database that keeps it.
    @Test func onlyAStoreOpenedWithALimitKeepsAByteCount() throws {
        let directory = TemporaryDirectory(backend: .sqlite)
        defer { directory.remove() }
        let database = directory.storePath + "/entries.sqlite"
        let bookkeeping = """
            SELECT count(*) FROM sqlite_master
            WHERE name IN ('entry_insert_byteCount', 'entry_delete_byteCount', 'entry_update_byteCount', 'entry_accessedAt');
            """
        do {
            let limited: ArchiveStore<String> = try openStore(directory) { $0.diskByteLimit = 1 << 30 }
            try limited.save("before", forKey: "a")
        }
        // As the entries-2 layout left every store.
        _ = try sqlite3(database, "DELETE FROM grdb_migrations WHERE identifier = 'entries-3';")
        #expect(try sqlite3(database, bookkeeping) == "4")

        let unlimited: ArchiveStore<String> = try openStore(directory)
        #expect(try sqlite3(database, bookkeeping) == "0")
        #expect(try sqlite3(database, "SELECT count(*) FROM meta WHERE name = 'byteCount';") == "0")
        try unlimited.save(["b": "bee", "c": String(repeating: "sea", count: 40)])

        let limited: ArchiveStore<String> = try openStore(directory) { $0.diskByteLimit = 1 << 30 }
        #expect(try sqlite3(database, bookkeeping) == "4")
        var totals = try Self.totals(database)
        #expect(totals.kept == totals.counted)
        #expect(totals.kept != "0")
        try unlimited.save("changed by the instance without a limit", forKey: "a")
        try unlimited.remove(forKey: "b")
        try limited.save("d", forKey: "d")
        totals = try Self.totals(database)
        #expect(totals.kept == totals.counted)
        // Opening without a limit again leaves it in place.
        _ = try openStore(directory) as ArchiveStore<String>
        #expect(try sqlite3(database, bookkeeping) == "4")
    }

    /// Free pages count toward the limit, and an eviction gives them back before it removes any
    /// entry: removals leave 30 entries' pages free, and a limit above the payloads but below
    /// payloads and free pages together is met by a vacuum alone.
    @Test func freePagesAreGivenBackBeforeAnyEntryIsEvicted() throws {
        let directory = TemporaryDirectory(backend: .sqlite)
        defer { directory.remove() }
        let database = directory.storePath + "/entries.sqlite"
        let value = String(repeating: "f", count: 20_000)
        do {
            let store: ArchiveStore<String> = try openStore(directory) { $0.diskByteLimit = 1 << 30 }
            for index in 0..<40 { try store.save(value, forKey: "key \(index)") }
            for index in 0..<30 { try store.remove(forKey: "key \(index)") }
        }
        let pageSize = try #require(Int(try sqlite3(database, "PRAGMA page_size;")))
        let freePages = try #require(Int(try sqlite3(database, "PRAGMA freelist_count;")))
        #expect(freePages * pageSize > 30 * 19_000)
        let store: ArchiveStore<String> = try openStore(directory) {
            $0.diskByteLimit = 10 * 20_000 + freePages * pageSize / 2
            $0.purgesExpiredEntriesOnOpen = false
        }
        #expect(try store.evictToDiskByteLimit() == 0)
        #expect(try sqlite3(database, "PRAGMA freelist_count;") == "0")
        #expect(try store.keys() == (30..<40).map { "key \($0)" })
        #expect(try sqlite3(database, "PRAGMA integrity_check;") == "ok")
    }

    /// Under continuous saves of values of many sizes (overwrites, and removals now and then), the
    /// limit holds for what is on disk, since the WAL and the free pages count: the database and
    /// its WAL together stay under one and a half times the limit (1.25 measured; the rest is the
    /// keys, the indexes and the unused ends of pages, which the limit does not count). Before the
    /// WAL counted, it alone grew past 4 MiB under a 1 MiB limit.
    @Test func theDatabaseAndItsWALStayWithinTheLimit() throws {
        let directory = TemporaryDirectory(backend: .sqlite)
        defer { directory.remove() }
        let database = directory.storePath + "/entries.sqlite"
        let limit = 1 << 20
        let store: ArchiveStore<String> = try openStore(directory) {
            $0.diskByteLimit = limit
            $0.isDurable = false
            $0.memoryCountLimit = 0
            $0.purgesExpiredEntriesOnOpen = false
        }
        var random = SplitMix64(seed: 32)
        var largest = 0
        for round in 0..<1_500 {
            let key = "key \(random.next() % 200)"
            if round % 50 == 49 {
                try store.remove(forKey: key)
            } else {
                try store.save(String(repeating: "s", count: 500 + Int(random.next() % 30_000)), forKey: key)
            }
            let size =
                (DirectoryListing.fileSize(atPath: database) ?? 0)
                + (DirectoryListing.fileSize(atPath: database + "-wal") ?? 0)
            largest = max(largest, size)
        }
        #expect(largest <= limit + limit / 2, "the database and its WAL reached \(largest) bytes")
        #expect(try sqlite3(database, "PRAGMA integrity_check;") == "ok")
    }
}
#endif
