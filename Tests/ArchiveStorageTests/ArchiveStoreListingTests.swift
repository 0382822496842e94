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

/// `count`, and keys in pages with a prefix compared byte for byte, on both backends.
///
/// Keys are compared by their UTF-8 bytes throughout: `String`'s `==` takes `"é"` (U+00E9) and
/// `"e\u{301}"` for the same string, and the store does not.
@Suite struct ArchiveStoreListingTests {
    /// Keys with pattern characters, case, both forms of "é", characters of every UTF-8 length,
    /// control characters, the empty key and a key too long for a file name.
    static let oddKeys: [String] = [
        "", "1000", "100%", "100%_done", "10_0", "A*", "E", "a*", "a[1]", "a\\\\", "a\\b", "e", "ex",
        "e\u{301}-decomposed", "\u{E9}-composed", "\u{1}\n\u{7F}", "user/1", "user/2", "user0", "users",
        "\u{FFFE}", "\u{FFFF}", "\u{FFFF}x", "\u{10000}", "\u{10FFFE}", "\u{10FFFF}", "\u{10FFFF}a",
        "中文", "😀", String(repeating: "long/", count: 60) + "end",
    ]

    /// `keys` sorted by their UTF-8 bytes, as UTF-8 bytes.
    static func byteSorted(_ keys: [String]) -> [[UInt8]] {
        keys.map { Array($0.utf8) }.sorted { $0.lexicographicallyPrecedes($1) }
    }

    /// Saves each key on its own (a dictionary would merge keys that `String` takes for equal).
    static func saveEach(_ keys: [String], in store: ArchiveStore<Int>) throws {
        for (index, key) in keys.enumerated() { try store.save(index, forKey: key) }
    }

    /// Every key with `prefix`, from pages of `limit` keys, each page after the last key of the
    /// one before; checks that every page but the last is full.
    static func walk(
        _ store: ArchiveStore<Int>,
        prefix: String = "",
        limit: Int,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> [[UInt8]] {
        var listed: [[UInt8]] = []
        var after: String?
        for _ in 0...1000 {
            let page = try store.keys(withPrefix: prefix, after: after, limit: limit)
            #expect(page.count <= limit, sourceLocation: sourceLocation)
            listed += page.map { Array($0.utf8) }
            guard page.count == limit, let last = page.last else { return listed }
            after = last
        }
        Issue.record("the pages never ended", sourceLocation: sourceLocation)
        return listed
    }

    @Test(arguments: testedBackends, [1, 2, 7, 1000])
    func pagesWalkEveryKeyOnceInByteOrder(backend: ArchiveStoreBackend, limit: Int) throws {
        let directory = TemporaryDirectory(backend: backend)
        defer { directory.remove() }
        let store: ArchiveStore<Int> = try openStore(directory)
        try Self.saveEach(Self.oddKeys, in: store)
        let expected = Self.byteSorted(Self.oddKeys)
        #expect(expected.count == Self.oddKeys.count)
        #expect(try Self.walk(store, limit: limit) == expected)
        #expect(try store.keys().map { Array($0.utf8) } == expected)
        #expect(try store.count() == Self.oddKeys.count)
        // A few fixed points of byte order, which `String`'s `<` does not follow.
        let first = try store.keys(limit: 4).map { Array($0.utf8) }
        #expect(first == [[], [0x01, 0x0A, 0x7F], Array("100%".utf8), Array("100%_done".utf8)])
        let last = try store.keys(after: "😀", limit: 10).map { Array($0.utf8) }
        #expect(last == [[0xF4, 0x8F, 0xBF, 0xBE], [0xF4, 0x8F, 0xBF, 0xBF], [0xF4, 0x8F, 0xBF, 0xBF, 0x61]])
    }

    @Test(arguments: testedBackends)
    func aPrefixMatchesBytesExactlyWithNoPatternSyntax(backend: ArchiveStoreBackend) throws {
        let directory = TemporaryDirectory(backend: backend)
        defer { directory.remove() }
        let store: ArchiveStore<Int> = try openStore(directory)
        try Self.saveEach(Self.oddKeys, in: store)
        let cases: [(prefix: String, keys: [String])] = [
            // `LIKE '100%%'` would also match "1000"; `LIKE '10_%'` all four "10…" keys.
            ("100%", ["100%", "100%_done"]),
            ("10_", ["10_0"]),
            ("100%_", ["100%_done"]),
            // `GLOB 'a*'` would match every key that starts with "a"; `LIKE` ignores ASCII case.
            ("a*", ["a*"]),
            ("A*", ["A*"]),
            ("E", ["E"]),
            ("a[", ["a[1]"]),
            ("a\\", ["a\\\\", "a\\b"]),
            ("a\\\\", ["a\\\\"]),
            // Composed and decomposed forms are different bytes: "e" + U+0301 starts with "e".
            ("\u{E9}", ["\u{E9}-composed"]),
            ("e\u{301}", ["e\u{301}-decomposed"]),
            ("e", ["e", "ex", "e\u{301}-decomposed"]),
            ("user/", ["user/1", "user/2"]),
            ("user", ["user/1", "user/2", "user0", "users"]),
            ("\u{1}\n", ["\u{1}\n\u{7F}"]),
            ("中", ["中文"]),
            ("long/long/", [String(repeating: "long/", count: 60) + "end"]),
            ("nothing", []),
            ("\u{10FFFF}\u{10FFFF}", []),
        ]
        for (prefix, keys) in cases {
            let expected = keys.map { Array($0.utf8) }
            let listed = try store.keys(withPrefix: prefix, limit: 100).map { Array($0.utf8) }
            #expect(listed == expected, "prefix \(Array(prefix.utf8))")
            #expect(try Self.walk(store, prefix: prefix, limit: 1) == expected, "prefix \(Array(prefix.utf8))")
            #expect(try store.count(withPrefix: prefix) == keys.count, "prefix \(Array(prefix.utf8))")
        }
        // The empty prefix lists everything, the empty key first.
        #expect(try store.keys(withPrefix: "", limit: 100).map { Array($0.utf8) } == Self.byteSorted(Self.oddKeys))
        #expect(try store.count(withPrefix: "") == Self.oddKeys.count)
    }

    @Test(arguments: testedBackends)
    func aPrefixEndingInHighBytesStopsAtItsLastKey(backend: ArchiveStoreBackend) throws {
        let directory = TemporaryDirectory(backend: backend)
        defer { directory.remove() }
        let store: ArchiveStore<Int> = try openStore(directory)
        try Self.saveEach(Self.oddKeys, in: store)
        // UTF-8 EF BF BE, EF BF BF, F4 8F BF BE, F4 8F BF BF: the range's upper bound increments
        // the last byte (EF BF BF, EF BF C0, F4 8F BF BF, F4 8F BF C0); every key after it is out.
        let cases: [(prefix: String, keys: [String])] = [
            ("\u{FFFE}", ["\u{FFFE}"]),
            ("\u{FFFF}", ["\u{FFFF}", "\u{FFFF}x"]),
            ("\u{10FFFE}", ["\u{10FFFE}"]),
            ("\u{10FFFF}", ["\u{10FFFF}", "\u{10FFFF}a"]),
            ("😀", ["😀"]),
        ]
        for (prefix, keys) in cases {
            let expected = keys.map { Array($0.utf8) }
            #expect(try store.keys(withPrefix: prefix, limit: 100).map { Array($0.utf8) } == expected)
            #expect(try store.count(withPrefix: prefix) == keys.count)
        }
    }

    @Test(arguments: testedBackends)
    func afterNeedNotBeAStoredKey(backend: ArchiveStoreBackend) throws {
        let directory = TemporaryDirectory(backend: backend)
        defer { directory.remove() }
        let store: ArchiveStore<Int> = try openStore(directory)
        try Self.saveEach(["", "a", "b", "ba", "d"], in: store)
        #expect(try store.keys(after: "c", limit: 10) == ["d"])
        #expect(try store.keys(after: "b", limit: 10) == ["ba", "d"])
        #expect(try store.keys(after: "a0", limit: 10) == ["b", "ba", "d"])
        // Strictly after: "" itself is left out.
        #expect(try store.keys(after: "", limit: 10) == ["a", "b", "ba", "d"])
        #expect(try store.keys(limit: 10) == ["", "a", "b", "ba", "d"])
        #expect(try store.keys(after: "z", limit: 10) == [])
        // `after` before the prefix starts at the prefix; after its keys, nothing.
        #expect(try store.keys(withPrefix: "b", after: "a", limit: 10) == ["b", "ba"])
        #expect(try store.keys(withPrefix: "b", after: "b", limit: 10) == ["ba"])
        #expect(try store.keys(withPrefix: "b", after: "c", limit: 10) == [])
        #expect(try store.keys(withPrefix: "a", after: "b", limit: 10) == [])
    }

    @Test(arguments: testedBackends)
    func aZeroLimitListsNothingAndANegativeLimitThrows(backend: ArchiveStoreBackend) throws {
        let directory = TemporaryDirectory(backend: backend)
        defer { directory.remove() }
        let store: ArchiveStore<Int> = try openStore(directory)
        try Self.saveEach(["a", "b"], in: store)
        #expect(try store.keys(limit: 0) == [])
        #expect(try store.keys(withPrefix: "a", after: "", limit: 0) == [])
        // A negative LIMIT means no limit to SQLite: it must never get that far.
        let error = #expect(throws: ArchiveStorageError.self) { try store.keys(limit: -1) }
        #expect(error?.code == .invalidConfiguration)
        #expect(throws: ArchiveStorageError.self) { try store.keys(withPrefix: "a", limit: Int.min) }
    }

    @Test(arguments: testedBackends)
    func theAsyncFormsListAndCountAsTheSynchronousOnes(backend: ArchiveStoreBackend) async throws {
        let directory = TemporaryDirectory(backend: backend)
        defer { directory.remove() }
        let clock = TestClock()
        let store: ArchiveStore<Int> = try openStore(directory) { $0.clock = clock.function }
        #expect(try await store.count() == 0)
        try await store.save(["a/1": 1, "a/2": 2, "b": 3])
        try await store.save(4, forKey: "a/3", expiration: .after(.seconds(1)))
        clock.advance(by: 1)
        #expect(try await store.count() == 3)
        #expect(try await store.count(withPrefix: "a/") == 2)
        #expect(try await store.keys(withPrefix: "a/", limit: 1) == ["a/1"])
        #expect(try await store.keys(withPrefix: "a/", after: "a/1", limit: 5) == ["a/2"])
        #expect(try await store.keys(limit: 0) == [])
        let error = await #expect(throws: ArchiveStorageError.self) { try await store.keys(limit: -1) }
        #expect(error?.code == .invalidConfiguration)
    }

    @Test(arguments: testedBackends)
    func countsAndPagesLeaveOutExpiredEntries(backend: ArchiveStoreBackend) throws {
        let directory = TemporaryDirectory(backend: backend)
        defer { directory.remove() }
        let clock = TestClock()
        let store: ArchiveStore<Int> = try openStore(directory) {
            $0.clock = clock.function
            $0.purgesExpiredEntriesOnOpen = false
        }
        #expect(try store.count() == 0)
        for index in 0..<10 {
            let expiration: ArchiveExpiration = index.isMultiple(of: 2) ? .after(.seconds(60)) : .never
            try store.save(index, forKey: "key\(index)", expiration: expiration)
        }
        try store.save(10, forKey: "other", expiration: .after(.seconds(120)))
        #expect(try store.count() == 11)
        #expect(try store.count(withPrefix: "key") == 10)
        clock.advance(by: 60)
        // Expired but still on disk: not counted, not listed, and pages stay full.
        #expect(try isPhysicallyStored("key0", in: directory))
        #expect(try store.count() == 6)
        #expect(try store.count(withPrefix: "key") == 5)
        #expect(try store.keys(withPrefix: "key", limit: 2) == ["key1", "key3"])
        #expect(try store.keys(withPrefix: "key", after: "key3", limit: 2) == ["key5", "key7"])
        #expect(try store.keys(withPrefix: "key", after: "key7", limit: 2) == ["key9"])
        #expect(try Self.walk(store, limit: 2).count == 6)
        clock.advance(by: 60)
        #expect(try store.count() == 5)
        #expect(try store.keys(withPrefix: "o", limit: 5) == [])
        #expect(try store.purgeExpired() == 6)
        #expect(try store.count() == 5)
        try store.removeAll()
        #expect(try store.count() == 0)
    }

    @Test(arguments: testedBackends)
    func damagedEntriesAreCountedAsTheyAreListed(backend: ArchiveStoreBackend) throws {
        let directory = TemporaryDirectory(backend: backend)
        defer { directory.remove() }
        let store: ArchiveStore<Int> = try openStore(directory)
        try Self.saveEach(["a", "b", "c", "d"], in: store)
        if backend == .files {
            // A header that does not decode is listed; a file that is no entry is not.
            let path = directory.storePath + "/k-b"
            var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
            bytes[0] = 0
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            try Data([1, 2, 3]).write(to: URL(fileURLWithPath: directory.storePath + "/k-%61"))
        } else {
            let database = directory.storePath + "/entries.sqlite"
            _ = try sqlite3(database, "UPDATE entry SET expiry = 'soon' WHERE key = X'62';")
            _ = try sqlite3(database, "UPDATE entry SET schemaVersion = 'seven' WHERE key = X'63';")
        }
        let fresh: ArchiveStore<Int> = try openStore(directory)
        #expect(try fresh.keys() == ["a", "b", "c", "d"])
        #expect(try fresh.count() == 4)
        #expect(try fresh.keys(after: "a", limit: 2) == ["b", "c"])
        #expect(try fresh.moveCorruptEntriesAside().count == (backend == .files ? 1 : 2))
        #expect(try fresh.count() == (backend == .files ? 3 : 2))
        #expect(try fresh.count() == fresh.keys().count)
    }

    @Test func aPrefixRangeEndsAfterItsLastByteBelow0xFF() {
        #expect(KeyPrefixRange(prefix: []).upperBound == nil)
        #expect(KeyPrefixRange(prefix: [0x61]).upperBound == [0x62])
        #expect(KeyPrefixRange(prefix: [0x00]).upperBound == [0x01])
        #expect(KeyPrefixRange(prefix: [0x61, 0xFE]).upperBound == [0x61, 0xFF])
        #expect(KeyPrefixRange(prefix: [0x61, 0xFF, 0xFF]).upperBound == [0x62])
        #expect(KeyPrefixRange(prefix: [0xFF, 0xFF]).upperBound == nil)
        #expect(KeyPrefixRange(prefix: [0xEF, 0xBF, 0xBF]).upperBound == [0xEF, 0xBF, 0xC0])
        let range = KeyPrefixRange(prefix: Array("ab".utf8))
        #expect(range.lowerBound == Array("ab".utf8))
        #expect(range.contains("abc".utf8))
        #expect(range.contains("ab".utf8))
        #expect(!range.contains("a".utf8))
        #expect(!range.contains("b".utf8))
    }

    #if SQLite
    @Test func sqlitePagesSkipKeysThatAreNotUTF8AndStillFillUp() throws {
        let directory = TemporaryDirectory(backend: .sqlite)
        defer { directory.remove() }
        let store: ArchiveStore<Int> = try openStore(directory)
        try Self.saveEach(["a", "b", "c"], in: store)
        let database = directory.storePath + "/entries.sqlite"
        // Copies of b's row under a key that is not UTF-8 (62 FF, between "b" and "c"), and
        // under a TEXT key, which no lookup by the key's bytes finds.
        for key in ["X'62FF'", "X'62FE'", "'bb'"] {
            _ = try sqlite3(
                database,
                """
                INSERT INTO entry (key, format, schemaVersion, expiry, checksum, payload)
                SELECT \(key), format, schemaVersion, expiry, checksum, payload FROM entry WHERE key = X'62';
                """
            )
        }
        #expect(try store.keys() == ["a", "b", "c"])
        #expect(try store.keys(after: "b", limit: 1) == ["c"])
        #expect(try store.keys(withPrefix: "b", limit: 1) == ["b"])
        #expect(try store.keys(withPrefix: "b", after: "b", limit: 1) == [])
        #expect(try Self.walk(store, limit: 1) == Self.byteSorted(["a", "b", "c"]))
        // A BLOB key that is not UTF-8 is counted (documented); a TEXT key is not.
        #expect(try store.count() == 5)
        #expect(try store.count(withPrefix: "b") == 3)
    }

    @Test func sqliteListingIsARangeOfThePrimaryKey() throws {
        let directory = TemporaryDirectory(backend: .sqlite)
        defer { directory.remove() }
        let store: ArchiveStore<Int> = try openStore(directory)
        try store.save(1, forKey: "a")
        let database = directory.storePath + "/entries.sqlite"
        let queries = [
            (SQLiteEntryTable.keysQuery(isStrict: false, isBounded: true), "(key>? AND key<?)"),
            (SQLiteEntryTable.keysQuery(isStrict: true, isBounded: true), "(key>? AND key<?)"),
            (SQLiteEntryTable.keysQuery(isStrict: true, isBounded: false), "(key>?)"),
            (SQLiteEntryTable.countQuery(isBounded: true), "(key>? AND key<?)"),
        ]
        for (query, range) in queries {
            #expect(!query.uppercased().contains("LIKE") && !query.uppercased().contains("GLOB"))
            let plan = try sqlite3(database, "EXPLAIN QUERY PLAN " + query + ";")
            #expect(plan.contains("SEARCH entry USING PRIMARY KEY \(range)"), "\(plan)")
            #expect(!plan.contains("TEMP B-TREE"), "\(plan)")
        }
    }
    #endif
}
