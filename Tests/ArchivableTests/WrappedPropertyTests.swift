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

/// Property wrappers, with and without `init(wrappedValue:)`, `Codable` or not (``Speaker``,
/// ``Playlist``, ``Tally``): archived on both paths as their twins archive them, read back through
/// the wrappers, and archives written before wrappers were archived as such still read.
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

    /// Every coder writes the twin's bytes: JSON, property lists, and the keyed archive on both
    /// paths (each wrapper a value of its own, as synthesized `Codable` encodes it); each reads
    /// the other's archive.
    @Test func everyCoderWritesWhatTheTwinReads() throws {
        let speaker = Self.speaker(volume: 7, room: "Den")
        let twin = Self.twin(volume: 7, room: "Den")
        try Self.expectTwinBytes(speaker, twin, className: "Speaker")
    }

    static func fullPlaylist() -> Playlist {
        var playlist = Playlist(
            title: "Road",
            rating: 4,
            nickname: "R",
            note: "Loud",
            tags: ["a", "b"],
            volume: 9,
            room: Lowercased()
        )
        playlist.room = "Attic"
        return playlist
    }

    static func fullPlaylistTwin() -> PlaylistTwin {
        var twin = PlaylistTwin(
            title: "Road",
            rating: 4,
            nickname: "R",
            note: "Loud",
            tags: ["a", "b"],
            volume: 9,
            room: Lowercased()
        )
        twin.room = "Attic"
        return twin
    }

    static func sparsePlaylist() -> Playlist {
        var playlist = Playlist(title: "", note: nil, room: Lowercased())
        playlist.room = "den"
        return playlist
    }

    static func sparsePlaylistTwin() -> PlaylistTwin {
        var twin = PlaylistTwin(title: "", note: nil, room: Lowercased())
        twin.room = "den"
        return twin
    }

    static func tally() -> Tally {
        var tally = Tally()
        tally.count = 3
        tally.owner = "Ann"
        tally.label = " x "
        return tally
    }

    static func tallyTwin() -> TallyTwin {
        var twin = TallyTwin()
        twin.count = 3
        twin.owner = "Ann"
        twin.label = " x "
        return twin
    }

    /// Expects `value` and `twin` to be written alike by every coder, and each to read what the
    /// other wrote: JSON, property lists, and the keyed archive on both paths.
    static func expectTwinBytes<Value: Codable & Equatable, Twin: Codable & Equatable>(
        _ value: Value,
        _ twin: Twin,
        className: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let json = JSONEncoder()
        json.outputFormatting = .sortedKeys
        #expect(try json.encode(value) == json.encode(twin), sourceLocation: sourceLocation)
        #expect(
            try PropertyListEncoder().encode(value) == PropertyListEncoder().encode(twin),
            sourceLocation: sourceLocation
        )
        var encoder = KeyedArchiveEncoder()
        encoder.setClassName(className, for: Twin.self)
        let twinArchive = try encoder.encode(twin)
        for mode in BothPaths.modes {
            let archive = try BothPaths.encoder(mode).encode(value)
            #expect(archive == twinArchive, "\(mode)", sourceLocation: sourceLocation)
            #expect(try KeyedArchiveDecoder().decode(Twin.self, from: archive) == twin, sourceLocation: sourceLocation)
            #expect(
                try BothPaths.decoder(mode).decode(Value.self, from: twinArchive) == value,
                "\(mode)",
                sourceLocation: sourceLocation
            )
        }
        #expect(try JSONDecoder().decode(Value.self, from: json.encode(twin)) == value, sourceLocation: sourceLocation)
    }

    /// Keyed (synthesized) and single-value (hand-written) `Codable` wrappers, around optionals,
    /// with and without `init(wrappedValue:)`, set and at their initial values.
    @Test func codableWrappersAreArchivedAsTheTwinArchivesThem() throws {
        try Self.expectTwinBytes(Self.fullPlaylist(), Self.fullPlaylistTwin(), className: "Playlist")
        try Self.expectTwinBytes(Self.sparsePlaylist(), Self.sparsePlaylistTwin(), className: "Playlist")
    }

    /// `@ArchiveUnwrapped` wrapped properties are archived as the twin without wrappers archives
    /// its plain properties, on both paths, and read back through the wrapper: a value the twin
    /// stores out of ``Clamped``'s range is clamped.
    @Test(arguments: BothPaths.modes)
    func unwrappedPropertiesArchiveTheirValues(mode: DirectArchiving) throws {
        var twinEncoder = KeyedArchiveEncoder()
        twinEncoder.setClassName("Thermostat", for: ThermostatTwin.self)
        var thermostat = Thermostat(target: 21, room: "hall")
        thermostat.fan = 4
        let archive = try BothPaths.encoder(mode).encode(thermostat)
        let twin = ThermostatTwin(target: 21, fan: 4, room: "hall")
        #expect(archive == (try twinEncoder.encode(twin)))
        #expect(try BothPaths.decoder(mode).decode(Thermostat.self, from: archive) == thermostat)
        let loud = try twinEncoder.encode(ThermostatTwin(target: 19, fan: 12))
        let decoded = try BothPaths.decoder(mode).decode(Thermostat.self, from: loud)
        #expect(decoded.target == 19)
        #expect(decoded.fan == 10)
        #expect(try JSONDecoder().decode(Thermostat.self, from: JSONEncoder().encode(twin)) == thermostat)
    }

    /// Wrappers that are not `Codable`, with and without `init(wrappedValue:)`: their wrapped
    /// values, as the hand-written twin writes them, and as the expansion before wrappers were
    /// archived wrote them.
    @Test func otherWrappersArchiveTheirWrappedValues() throws {
        try Self.expectTwinBytes(Self.tally(), Self.tallyTwin(), className: "Tally")
        for mode in BothPaths.modes {
            #expect(try BothPaths.encoder(mode).encode(Self.tally()) == WrappedPropertyArchivesAtMain.tally)
        }
    }

    /// A wrapper that is only `Encodable` archives its wrapped value, and reads it back.
    @Test(arguments: BothPaths.modes)
    func aWrapperCodableOneWayArchivesItsWrappedValue(mode: DirectArchiving) throws {
        struct Stored: Codable, Equatable {
            var brightness: Int
        }
        var encoder = KeyedArchiveEncoder()
        encoder.setClassName("Display", for: Stored.self)
        let archive = try BothPaths.encoder(mode).encode(Display(brightness: 8))
        #expect(archive == (try encoder.encode(Stored(brightness: 8))))
        #expect(try BothPaths.decoder(mode).decode(Display.self, from: archive) == Display(brightness: 8))
    }

    /// Wrapped properties with initial values before required ones.
    @Test func wrappedPropertiesWithInitialValuesMayComeFirst() throws {
        try Self.expectTwinBytes(
            Cassette(volume: 12, plays: 2, title: "Road", artist: "Ann"),
            CassetteTwin(volume: 12, plays: 2, title: "Road", artist: "Ann"),
            className: "Cassette"
        )
    }

    /// Generic types' wrappers whose conformances are conditional (on the wrapped value, on a
    /// parameter only the wrapper's type names), and classes, final and open.
    @Test func conditionalWrappersAndClassesAreArchivedAsTheTwinArchivesThem() throws {
        try Self.expectTwinBytes(
            Labeled(value: 7, label: "seven"),
            LabeledTwin(value: 7, label: "seven"),
            className: "Labeled<Int>"
        )
        try Self.expectTwinBytes(
            Score<String>(points: 3),
            ScoreTwin<String>(points: 3),
            className: "Score<String>"
        )
        let mixer = Mixer()
        mixer.level = 8
        mixer.name = "Main"
        let mixerTwin = MixerTwin()
        mixerTwin.level = 8
        mixerTwin.name = "Main"
        let channel = Channel()
        channel.gain = 3
        channel.mutes = 2
        let channelTwin = ChannelTwin()
        channelTwin.gain = 3
        channelTwin.mutes = 2
        var encoder = KeyedArchiveEncoder()
        encoder.setClassName("Mixer", for: MixerTwin.self)
        encoder.setClassName("Channel", for: ChannelTwin.self)
        for mode in BothPaths.modes {
            let mixerArchive = try BothPaths.encoder(mode).encode(mixer)
            #expect(mixerArchive == (try encoder.encode(mixerTwin)), "\(mode)")
            let mixerCopy = try BothPaths.decoder(mode).decode(Mixer.self, from: mixerArchive)
            #expect(mixerCopy.level == 8 && mixerCopy.name == "Main")
            let channelArchive = try BothPaths.encoder(mode).encode(channel)
            #expect(channelArchive == (try encoder.encode(channelTwin)), "\(mode)")
            let channelCopy = try BothPaths.decoder(mode).decode(Channel.self, from: channelArchive)
            #expect(channelCopy.gain == 3 && channelCopy.mutes == 2)
        }
    }

    /// Archives written before `Codable` wrappers were archived as such (the wrapped value under
    /// the key, inline where it is a number; an optional left out when `nil`) still decode, on
    /// both paths: a key holding the wrapped value is read through the wrapper's
    /// `init(wrappedValue:)`, or its setter when it has none.
    @Test(arguments: BothPaths.modes)
    func archivesWrittenBeforeWrappersStillDecode(mode: DirectArchiving) throws {
        let decoder = BothPaths.decoder(mode)
        #expect(
            try decoder.decode(Speaker.self, from: WrappedPropertyArchivesAtMain.speaker)
                == Self.speaker(volume: 7, room: "Den")
        )
        #expect(
            try decoder.decode(Playlist.self, from: WrappedPropertyArchivesAtMain.fullPlaylist) == Self.fullPlaylist()
        )
        #expect(
            try decoder.decode(Playlist.self, from: WrappedPropertyArchivesAtMain.sparsePlaylist)
                == Self.sparsePlaylist()
        )
        #expect(try decoder.decode(Tally.self, from: WrappedPropertyArchivesAtMain.tally) == Self.tally())
    }

    /// JSON written before `Codable` wrappers were archived as such: a keyed wrapper's key holds
    /// the wrapped value, which is read through the wrapper.
    @Test func jsonWrittenBeforeWrappersStillDecodes() throws {
        let decoder = JSONDecoder()
        #expect(
            try decoder.decode(Playlist.self, from: WrappedPropertyArchivesAtMain.fullPlaylistJSON)
                == Self.fullPlaylist()
        )
        #expect(
            try decoder.decode(Playlist.self, from: WrappedPropertyArchivesAtMain.sparsePlaylistJSON)
                == Self.sparsePlaylist()
        )
    }

    /// A wrapper's own failure, deeper than its key, is reported, not taken for a wrapped value.
    @Test(arguments: BothPaths.modes)
    func aWrappersOwnFailureIsReported(mode: DirectArchiving) throws {
        struct Stored: Codable {
            struct Box: Codable { var wrappedValue: Int }
            var title = Box(wrappedValue: 1)
            var room = "den"
        }
        var encoder = BothPaths.encoder(mode)
        encoder.setClassName("Playlist", for: Stored.self)
        for (name, decode) in [
            ("archive", { try BothPaths.decoder(mode).decode(Playlist.self, from: encoder.encode(Stored())) }),
            ("JSON", { try JSONDecoder().decode(Playlist.self, from: JSONEncoder().encode(Stored())) }),
        ] as [(String, () throws -> Playlist)] {
            do {
                _ = try decode()
                Issue.record("\(name): decoded")
            } catch DecodingError.typeMismatch(_, let context) {
                #expect(context.codingPath.map(\.stringValue) == ["title", "wrappedValue"], "\(name)")
            }
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
