//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-keyed-archive open source project
//
// Licensed under Apache License v2.0
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import ArchiveStorage
import Foundation
import KeyedArchiving
import KeyedArchivingMacros
import PropertyLists
import Testing

// An app that versioned its notes with ArchiveMigrator's `$top` schemaVersion (or a store's
// schema version) before its types carried versions: shape 1 was `text`, shape 2 `title` and
// `body`. It now declares those shapes as versions 1 and 2 of its type, and a version 3.

/// Shape 1, as the app first stored it.
@Archivable
struct NoteV1 {
    var text: String
}

/// Shape 2: the text split into a title and a body.
@Archivable(version: 2, previousVersion: NoteV1.self)
struct NoteV2 {
    var title: String
    var body: String
}

extension NoteV2 {
    init(migratingFrom old: NoteV1) {
        let lines = old.text.split(separator: "\n", maxSplits: 1).map(String.init)
        self.init(title: lines.first ?? "", body: lines.count > 1 ? lines[1] : "")
    }
}

/// The current shape: tags added, with a migration that tags every older note.
@Archivable(version: 3, previousVersion: NoteV2.self)
struct Note: Equatable {
    var title: String
    var body: String
    var tags: [String]
}

extension Note {
    init(migratingFrom old: NoteV2) {
        self.init(title: old.title, body: old.body, tags: ["imported"])
    }
}

/// Shape 2 as the app stored it before: plain `Codable`, so its objects carry no version.
struct LegacyNoteShape2: Codable {
    var title: String
    var body: String
}

/// Shape 1 as the app stored it before.
struct LegacyNoteShape1: Codable {
    var text: String
}

@Suite struct StoredVersionTests {
    static let expected = Note(title: "Groceries", body: "milk, eggs", tags: ["imported"])

    @Test func storesMigratorsAndDefaultsTakeTheTypesVersion() throws {
        #expect(ArchiveMigrator(Note.self).schemaVersion == 3)
        #expect(ArchiveMigrator(LegacyNoteShape1.self).schemaVersion == 1)
        #expect(ArchiveMigrator(Note.self, schemaVersion: 7).schemaVersion == 7)
        try withStore(Note.self) { store in
            try store.save(Self.expected, forKey: "n")
            #expect(try store.info(forKey: "n")?.schemaVersion == 3)
        }
    }

    @Test func aTopSchemaVersionIsTheRootsVersion() throws {
        // Written by ArchiveMigrator as the app used it: shape 2 under `root`, 2 in `$top`.
        let legacy = try ArchiveMigrator(LegacyNoteShape2.self, schemaVersion: 2).encode(
            LegacyNoteShape2(title: "Groceries", body: "milk, eggs")
        )
        #expect(try KeyedArchiveDecoder().decode(Note.self, from: legacy) == Self.expected)
        let result = try ArchiveMigrator(Note.self).decode(from: legacy)
        #expect(result.value == Self.expected)
        #expect(result.didRewrite)
        // The rewritten archive carries version 3 twice: in `$top` and in the note's own object.
        let rewritten = try ArchiveMigrator(Note.self).encode(result.value)
        #expect(try ArchiveMigrator(Note.self).decode(from: rewritten).didRewrite == false)
        let archive = try KeyedArchive(parsing: rewritten)
        #expect(archive.topValue(forKey: "schemaVersion") == .integer(3))
        let root = try archive.object(for: #require(archive.topUID(forKey: "root")))
        #expect(root.dictionaryValue?["archiveVersion"] == .integer(3))

        // Without the `$top` version the same object reads as version 1, which it is not.
        let unversioned = try KeyedArchiveEncoder().encode(LegacyNoteShape2(title: "Groceries", body: "milk, eggs"))
        #expect(throws: DecodingError.self) { try KeyedArchiveDecoder().decode(Note.self, from: unversioned) }
    }

    @Test func aTypeThatWasNeverVersionedIgnoresAStoredSchemaVersion() throws {
        // An app numbered its schema 5 before its types carried versions; the type is version 1.
        let data = try ArchiveMigrator(NoteV1.self, schemaVersion: 5).encode(NoteV1(text: "x"))
        #expect(try KeyedArchiveDecoder().decode(NoteV1.self, from: data).text == "x")
        #expect(try ArchiveMigrator(NoteV1.self, schemaVersion: 5).decode(from: data).value.text == "x")
    }

    @Test func defaultsValuesStoredWithASchemaVersionMigrate() throws {
        let suite = "StoredVersionTests-\(UUID().uuidString)"
        let defaults = try #require(UserDefaults(suiteName: suite))
        defer { defaults.removePersistentDomain(forName: suite) }
        try defaults.set(
            archiving: LegacyNoteShape1(text: "Groceries\nmilk, eggs"),
            forKey: "note",
            schemaVersion: 1
        )
        #expect(try defaults.archivedValue(Note.self, forKey: "note") == Self.expected)
        try defaults.set(
            archiving: LegacyNoteShape2(title: "Groceries", body: "milk, eggs"),
            forKey: "note",
            schemaVersion: 2
        )
        #expect(try defaults.archivedValue(Note.self, forKey: "note") == Self.expected)
        try defaults.set(archiving: Self.expected, forKey: "note")
        #expect(try defaults.archivedValue(Note.self, forKey: "note") == Self.expected)
    }

    @Test func storeEntriesMigrateFromTheirSchemaVersionAndAreRewrittenOnDemand() throws {
        try withStores { legacyShape2, current in
            // A store of the app before, whose entries carry the store's schema version 2.
            try legacyShape2.save(LegacyNoteShape2(title: "Groceries", body: "milk, eggs"), forKey: "old")
            try current.save(Self.expected, forKey: "new")
            #expect(try current.info(forKey: "old")?.schemaVersion == 2)
            #expect(try current.load(forKey: "old") == Self.expected)

            #expect(try current.rewriteOutdatedEntries() == ["old"])
            #expect(try current.info(forKey: "old")?.schemaVersion == 3)
            #expect(try current.load(forKey: "old") == Self.expected)
            #expect(try current.rewriteOutdatedEntries().isEmpty)
        }
    }

    @Test func rewritingLeavesEntriesOfANewerVersionAlone() throws {
        try withStores(legacyVersion: 9) { newer, current in
            try newer.save(LegacyNoteShape2(title: "x", body: "y"), forKey: "future")
            #expect(try current.rewriteOutdatedEntries().isEmpty)
            #expect(try current.info(forKey: "future")?.schemaVersion == 9)
        }
    }

    @Test func storeEntriesOfANewerVersionAreRefused() throws {
        try withStores(legacyVersion: 9) { newer, current in
            try newer.save(LegacyNoteShape2(title: "x", body: "y"), forKey: "future")
            let error = try #require(throws: ArchiveStorageError.self) { try current.load(forKey: "future") }
            #expect(error.code == .decodingFailed)
            #expect((error.underlying as? DecodingError)?.archiveErrorCode == .typeVersionTooNew)
        }
    }

    @Test func rewritingKeepsExpirationDates() async throws {
        try await withStoresAsync { legacyShape2, current in
            let expiry = Date(timeIntervalSinceNow: 3600)
            try await legacyShape2.save(
                LegacyNoteShape2(title: "Groceries", body: "milk, eggs"),
                forKey: "old",
                expiration: .at(expiry)
            )
            #expect(try await current.rewriteOutdatedEntries() == ["old"])
            let info = try #require(try await current.info(forKey: "old"))
            #expect(info.schemaVersion == 3)
            #expect(abs((info.expirationDate ?? .distantPast).timeIntervalSince(expiry)) < 0.001)
        }
    }

    // MARK: Helpers

    private func withStore<T: Codable & Sendable>(
        _ type: T.Type,
        _ body: (ArchiveStore<T>) throws -> Void
    ) throws {
        let directory = NSTemporaryDirectory() + "StoredVersionTests-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try body(ArchiveStore<T>(name: "notes", in: .path(directory)))
    }

    private func stores(
        legacyVersion: UInt32,
        in directory: String
    ) throws -> (ArchiveStore<LegacyNoteShape2>, ArchiveStore<Note>) {
        var legacyConfiguration = ArchiveStoreConfiguration()
        legacyConfiguration.schemaVersion = legacyVersion
        return (
            try ArchiveStore<LegacyNoteShape2>(name: "notes", in: .path(directory), configuration: legacyConfiguration),
            try ArchiveStore<Note>(name: "notes", in: .path(directory))
        )
    }

    private func withStores(
        legacyVersion: UInt32 = 2,
        _ body: (ArchiveStore<LegacyNoteShape2>, ArchiveStore<Note>) throws -> Void
    ) throws {
        let directory = NSTemporaryDirectory() + "StoredVersionTests-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let (legacy, current) = try self.stores(legacyVersion: legacyVersion, in: directory)
        try body(legacy, current)
    }

    private func withStoresAsync(
        _ body: (ArchiveStore<LegacyNoteShape2>, ArchiveStore<Note>) async throws -> Void
    ) async throws {
        let directory = NSTemporaryDirectory() + "StoredVersionTests-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let (legacy, current) = try self.stores(legacyVersion: 2, in: directory)
        try await body(legacy, current)
    }
}
