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

@testable import ArchiveStorage

/// What the disk byte limit adds to the SQLite layout: the `entries-2` migration and the payload
/// total its triggers keep. The `sqlite3` command lays out and reads the database.
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
            let store: ArchiveStore<String> = try openStore(directory) { $0.clock = clock.function }
            for index in 0..<3 { try store.save(String(repeating: "o", count: 200), forKey: "old\(index)") }
            store.waitForBackgroundMaintenance()
        }
        // Back to the layout of entries-1, as a store of the previous release left it.
        _ = try sqlite3(
            database,
            """
            DROP TRIGGER entry_insert_byteCount; DROP TRIGGER entry_delete_byteCount;
            DROP TRIGGER entry_update_byteCount; DROP TABLE meta; DROP INDEX entry_accessedAt;
            ALTER TABLE entry DROP COLUMN accessedAt; DELETE FROM grdb_migrations WHERE identifier = 'entries-2';
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
                == "entries-1\nentries-2"
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
}
#endif
