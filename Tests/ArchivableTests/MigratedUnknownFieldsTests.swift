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
import KeyedArchiving
import KeyedArchivingMacros
import PropertyLists
import TestSupport
import Testing

/// Two versions of a note: version 2 renames `text` to `body` through a migration, and either
/// copies the previous version's kept fields by hand (`CopyingNote`) or leaves them
/// (`Note`): the fields a newer app stored survive the migration either way, once.
enum MigratedNotes {
    @Archivable(className: "Note")
    struct NoteV1: Equatable {
        var text: String
        var pinned = false
        var unknownFields = ArchiveUnknownFields()
    }

    @Archivable(version: 2, previousVersion: MigratedNotes.NoteV1.self, className: "Note")
    struct Note: Equatable {
        var body: String
        var pinned = false
        var unknownFields = ArchiveUnknownFields()
    }

    @Archivable(version: 2, previousVersion: MigratedNotes.NoteV1.self, className: "Note")
    struct CopyingNote: Equatable {
        var body: String
        var pinned = false
        var unknownFields = ArchiveUnknownFields()
    }

    /// Version 1's data as a newer app (one that added `color`) stored it.
    static func storedByANewerApp(_ mode: DirectArchiving) throws -> Data {
        let note = NoteV1(
            text: "milk",
            pinned: true,
            unknownFields: ArchiveUnknownFields([ArchivedValue.Field(key: "color", value: .string("yellow"))])
        )
        return try BothPaths.encoder(mode).encode(note)
    }
}

extension MigratedNotes.Note {
    init(migratingFrom old: MigratedNotes.NoteV1) {
        self.init(body: old.text, pinned: old.pinned)
    }
}

extension MigratedNotes.CopyingNote {
    init(migratingFrom old: MigratedNotes.NoteV1) {
        self.init(body: old.text, pinned: old.pinned, unknownFields: old.unknownFields)
    }
}

@Suite struct MigratedUnknownFieldsTests {
    /// A migrated value keeps the stored fields that neither it nor its previous version knows,
    /// and writes them back; the previous version's own fields (`text`) are not kept.
    @Test(arguments: BothPaths.modes)
    func aMigrationKeepsTheFieldsANewerAppStored(mode: DirectArchiving) throws {
        let stored = try MigratedNotes.storedByANewerApp(mode)
        let note = try BothPaths.decoder(mode).decode(MigratedNotes.Note.self, from: stored)
        #expect(note == MigratedNotes.Note(body: "milk", pinned: true))
        #expect(note.unknownFields.keys == ["color"])
        #expect(note.unknownFields["color"] == .string("yellow"))

        let again = try BothPaths.decoder(mode).decode(
            MigratedNotes.Note.self,
            from: try BothPaths.encoder(mode).encode(note)
        )
        #expect(again.unknownFields.keys == ["color"])
        #expect(again.body == "milk")
    }

    /// A migration that copies the previous version's kept fields gets each field once.
    @Test(arguments: BothPaths.modes)
    func fieldsCopiedByTheMigrationAreKeptOnce(mode: DirectArchiving) throws {
        let stored = try MigratedNotes.storedByANewerApp(mode)
        let note = try BothPaths.decoder(mode).decode(MigratedNotes.CopyingNote.self, from: stored)
        #expect(note.unknownFields.keys == ["color"])
        #expect(note.unknownFields["color"] == .string("yellow"))
    }

    /// With JSON (another coder, through `init(from:)`), the same fields are kept.
    @Test func otherCodersKeepThemToo() throws {
        let json = Data(#"{"text": "milk", "pinned": true, "color": "yellow"}"#.utf8)
        let note = try JSONDecoder().decode(MigratedNotes.Note.self, from: json)
        #expect(note.body == "milk")
        #expect(note.unknownFields.keys == ["color"])
        let written = try JSONSerialization.jsonObject(with: try JSONEncoder().encode(note)) as? [String: Any]
        #expect(written?["color"] as? String == "yellow")
        #expect(written?["text"] == nil)
    }
}
