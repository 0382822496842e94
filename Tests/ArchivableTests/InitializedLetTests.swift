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
import TestSupport
import Testing

/// `let` properties with an initial value (``Reminder``): written by every coder, on both paths, as
/// their synthesized-`Codable` twin writes them, and left at their initial value when read.
@Suite struct InitializedLetTests {
    /// The stored form of a reminder whose constants differ from any new instance's: `kind` and
    /// `id` as an older release (or another app) wrote them.
    static func stored(kind: String, id: UUID, title: String) throws -> Data {
        let json = #"{"kind":"\#(kind)","id":"\#(id.uuidString)","title":"\#(title)","done":true}"#
        let value = try JSONDecoder().decode(StoredReminder.self, from: Data(json.utf8))
        return try KeyedArchiveEncoder().encode(value)
    }

    /// The four fields with every one decoded, to write archives that hold other constants.
    struct StoredReminder: Codable {
        var kind: String
        var id: UUID
        var title: String
        var done: Bool
    }

    @Test func everyCoderWritesTheConstantAsTheTwinDoes() throws {
        let label = Label(name: "urgent")
        let twin = LabelTwin(name: "urgent")
        var encoder = KeyedArchiveEncoder()
        encoder.setClassName("Label", for: LabelTwin.self)
        let twinArchive = try encoder.encode(twin)
        for mode in BothPaths.modes {
            #expect(try BothPaths.encoder(mode).encode(label) == twinArchive, "\(mode)")
        }
        let json = JSONEncoder()
        json.outputFormatting = .sortedKeys
        #expect(try json.encode(label) == json.encode(twin))
        #expect(try PropertyListEncoder().encode(label) == PropertyListEncoder().encode(twin))
    }

    @Test func bothPathsWriteAnIdentifierMadeAtCreation() throws {
        let reminder = Reminder(title: "Feed the cat")
        let direct = try BothPaths.encoder(.enabled).encode(reminder)
        #expect(direct == (try BothPaths.encoder(.disabled).encode(reminder)))
        let fields = try KeyedArchiveDecoder().decode(StoredReminder.self, from: direct)
        #expect(fields.kind == "reminder")
        #expect(fields.id == reminder.id)
        #expect(fields.title == "Feed the cat")
        #expect(!fields.done)
    }

    @Test func decodingKeepsTheInitialValuesAsTheTwinDoes() throws {
        let storedID = UUID(uuid: (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16))
        let data = try Self.stored(kind: "note", id: storedID, title: "Old")
        let twin = try KeyedArchiveDecoder().decode(ReminderTwin.self, from: data)
        #expect(twin.kind == "reminder")
        #expect(twin.id != storedID)
        for mode in BothPaths.modes {
            let reminder = try BothPaths.decoder(mode).decode(Reminder.self, from: data)
            #expect(reminder.kind == twin.kind, "\(mode)")
            #expect(reminder.id != storedID, "\(mode): a fresh identifier, as the twin's")
            #expect(reminder.title == "Old", "\(mode)")
            #expect(reminder.done, "\(mode)")
        }
        // Foundation's coders agree: JSON and property lists.
        let json = try JSONEncoder().encode(StoredReminder(kind: "note", id: storedID, title: "Old", done: true))
        let fromJSON = try JSONDecoder().decode(Reminder.self, from: json)
        #expect(fromJSON.kind == "reminder" && fromJSON.id != storedID && fromJSON.title == "Old")
        let plist = try PropertyListEncoder().encode(
            StoredReminder(kind: "note", id: storedID, title: "Old", done: true)
        )
        let fromPlist = try PropertyListDecoder().decode(Reminder.self, from: plist)
        #expect(fromPlist.kind == "reminder" && fromPlist.id != storedID && fromPlist.title == "Old")
    }
}
