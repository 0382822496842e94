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
}
#endif
