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

/// Property wrappers, with and without `init(wrappedValue:)` (``Speaker``): archived on both paths
/// as the synthesized-`Codable` twin archives them, and read back through the wrapper.
@Suite struct WrappedPropertyTests {
    static func speaker(volume: Int, room: String) -> Speaker {
        var speaker = Speaker()
        speaker.volume = volume
        speaker.room = room
        speaker.name = "Kitchen"
        return speaker
    }

    static func twin(volume: Int, room: String) -> SpeakerTwin {
        var twin = SpeakerTwin()
        twin.volume = volume
        twin.room = room
        twin.name = "Kitchen"
        return twin
    }

    /// JSON and property lists get the twin's bytes; both paths write one archive, which the twin
    /// reads, and the twin's archive reads as a `Speaker`. The keyed archives differ: synthesized
    /// `Codable` encodes the wrapper, a value of its own that the archive stores as an object
    /// (`volume` a UID), where `@Archivable` writes the wrapped `Int` inline.
    @Test func everyCoderWritesWhatTheTwinReads() throws {
        let speaker = Self.speaker(volume: 7, room: "Den")
        let twin = Self.twin(volume: 7, room: "Den")
        let json = JSONEncoder()
        json.outputFormatting = .sortedKeys
        #expect(try json.encode(speaker) == json.encode(twin))
        #expect(try PropertyListEncoder().encode(speaker) == PropertyListEncoder().encode(twin))

        let archive = try BothPaths.encoder(.enabled).encode(speaker)
        #expect(archive == (try BothPaths.encoder(.disabled).encode(speaker)))
        #expect(try KeyedArchiveDecoder().decode(SpeakerTwin.self, from: archive) == twin)
        var encoder = KeyedArchiveEncoder()
        encoder.setClassName("Speaker", for: SpeakerTwin.self)
        let twinArchive = try encoder.encode(twin)
        for mode in BothPaths.modes {
            #expect(try BothPaths.decoder(mode).decode(Speaker.self, from: twinArchive) == speaker, "\(mode)")
        }
    }

    /// A stored value the wrappers would not hold (a volume of 50, a room in capitals) comes back
    /// through them, as the twin's does.
    @Test(arguments: BothPaths.modes)
    func decodingGoesThroughTheWrappers(mode: DirectArchiving) throws {
        struct Stored: Codable {
            var volume: Int
            var room: String
            var name: String
        }
        var encoder = KeyedArchiveEncoder()
        encoder.setClassName("Speaker", for: Stored.self)
        let data = try encoder.encode(Stored(volume: 50, room: "DEN", name: "Kitchen"))
        let twin = try KeyedArchiveDecoder().decode(SpeakerTwin.self, from: data)
        let speaker = try BothPaths.decoder(mode).decode(Speaker.self, from: data)
        #expect(speaker == Self.speaker(volume: 10, room: "den"))
        #expect(speaker.volume == twin.volume)
        #expect(speaker.room == twin.room)
        #expect(
            try BothPaths.decoder(mode).decode(Speaker.self, from: BothPaths.encoder(mode).encode(speaker)) == speaker
        )
    }
}
