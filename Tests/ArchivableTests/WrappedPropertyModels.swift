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
import KeyedArchivingMacros

/// A user-written wrapper with `init(wrappedValue:)` that keeps a value between 0 and 10, and
/// archives as its value alone (a single-value container), as most wrappers do.
@propertyWrapper
struct Clamped: Codable, Equatable, Sendable {
    private var value: Int

    var wrappedValue: Int {
        get { self.value }
        set { self.value = min(max(newValue, 0), 10) }
    }

    init(wrappedValue: Int) {
        self.value = min(max(wrappedValue, 0), 10)
    }

    init(from decoder: any Decoder) throws {
        self.init(wrappedValue: try decoder.singleValueContainer().decode(Int.self))
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(self.value)
    }
}

/// A wrapper without `init(wrappedValue:)`: it starts from `init()`, and lowercases what it holds.
@propertyWrapper
struct Lowercased: Codable, Equatable, Sendable {
    private var value = ""

    var wrappedValue: String {
        get { self.value }
        set { self.value = newValue.lowercased() }
    }

    init() {}

    init(from decoder: any Decoder) throws {
        self.value = try decoder.singleValueContainer().decode(String.self).lowercased()
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(self.value)
    }
}

/// Wrapped properties of both kinds, `Codable` wrappers that archive as their values: archived as
/// synthesized `Codable` archives them, each wrapper by its own `encode(to:)`.
@Archivable
struct Speaker: Equatable {
    @Clamped var volume = 5
    @Lowercased var room: String
    var name = ""
}

/// ``Speaker``'s twin, with synthesized `Codable`.
struct SpeakerTwin: Codable, Equatable {
    @Clamped var volume = 5
    @Lowercased var room: String
    var name = ""
}

/// Wrapped properties marked `@ArchiveUnwrapped`: archived as the values they read, as the twin
/// without wrappers archives them, and assigned when decoded (through ``Clamped``'s setter).
@Archivable
struct Thermostat: Equatable {
    @ArchiveUnwrapped @Boxed var target: Int
    @ArchiveUnwrapped @Clamped var fan = 3
    var room = ""
}

/// ``Thermostat``'s twin, without wrappers, with synthesized `Codable`.
struct ThermostatTwin: Codable, Equatable {
    var target: Int
    var fan = 3
    var room = ""
}

/// A generic wrapper with synthesized `Codable`, conditional on its value's: a keyed object whose
/// one key is `wrappedValue`, the shape a wrapper written in a minute has.
@propertyWrapper
struct Boxed<Value> {
    var wrappedValue: Value
}

extension Boxed: Codable where Value: Codable {}
extension Boxed: Equatable where Value: Equatable {}
extension Boxed: Sendable where Value: Sendable {}

/// A wrapper around an optional string that keeps no empty string, archived as its value (a null
/// for `nil`), with a hand-written single-value `Codable`.
@propertyWrapper
struct NonEmpty: Codable, Equatable, Sendable {
    private var value: String?

    var wrappedValue: String? {
        get { self.value }
        set { self.value = newValue?.isEmpty == true ? nil : newValue }
    }

    init(wrappedValue: String?) {
        self.value = wrappedValue?.isEmpty == true ? nil : wrappedValue
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        self.init(wrappedValue: container.decodeNil() ? nil : try container.decode(String.self))
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        if let value { try container.encode(value) } else { try container.encodeNil() }
    }
}

/// A collection that starts empty, as BetterCodable's `@DefaultEmptyArray` and the like: archived
/// as the collection (a single-value container).
@propertyWrapper
struct DefaultEmpty<Value: Codable & Equatable & RangeReplaceableCollection>: Codable, Equatable {
    var wrappedValue: Value

    init(wrappedValue: Value = Value()) {
        self.wrappedValue = wrappedValue
    }

    init(from decoder: any Decoder) throws {
        self.wrappedValue = try decoder.singleValueContainer().decode(Value.self)
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(self.wrappedValue)
    }
}

extension DefaultEmpty: Sendable where Value: Sendable {}

/// `Codable` wrappers of every shape: keyed (synthesized), single-value (hand-written), around an
/// optional, with and without `init(wrappedValue:)`, required and with initial values. Archived
/// as synthesized `Codable` archives them: the wrapper, by its own `encode(to:)`.
@Archivable
struct Playlist: Equatable {
    @Boxed var title: String
    @Boxed var rating = 3
    @Boxed var nickname: String? = nil
    @NonEmpty var note: String?
    @DefaultEmpty var tags: [String] = []
    @Clamped var volume = 5
    @Lowercased var room: String
}

/// ``Playlist``'s twin, with synthesized `Codable`.
struct PlaylistTwin: Codable, Equatable {
    @Boxed var title: String
    @Boxed var rating = 3
    @Boxed var nickname: String? = nil
    @NonEmpty var note: String?
    @DefaultEmpty var tags: [String] = []
    @Clamped var volume = 5
    @Lowercased var room: String
}

/// A wrapper that is not `Codable` and has `init(wrappedValue:)`: it counts the changes made to
/// its value.
@propertyWrapper
struct Counted<Value> {
    var wrappedValue: Value {
        didSet { self.changes += 1 }
    }
    private(set) var changes = 0

    init(wrappedValue: Value) {
        self.wrappedValue = wrappedValue
    }
}

extension Counted: Equatable where Value: Equatable {
    /// Equal values, however many changes led to them.
    static func == (lhs: Self, rhs: Self) -> Bool { lhs.wrappedValue == rhs.wrappedValue }
}
extension Counted: Sendable where Value: Sendable {}

/// A wrapper that is not `Codable` and has no `init(wrappedValue:)`: it trims what it holds.
@propertyWrapper
struct Trimmed: Equatable, Sendable {
    private var value = ""

    var wrappedValue: String {
        get { self.value }
        set { self.value = newValue.trimmingCharacters(in: .whitespaces) }
    }

    init() {}
}

/// Wrappers that are not `Codable`, which synthesized `Codable` refuses: `@Archivable` archives
/// their wrapped values under the properties' names, by the rules of the properties' types.
@Archivable
struct Tally: Equatable {
    @Counted var count = 0
    @Counted var owner: String? = nil
    @Trimmed var label: String
}

/// ``Tally``'s twin: the `Codable` conformance an app writes when its wrappers are not `Codable`,
/// with the wrapped values under the properties' names.
struct TallyTwin: Codable, Equatable {
    @Counted var count = 0
    @Counted var owner: String? = nil
    @Trimmed var label: String

    private enum CodingKeys: String, CodingKey {
        case count, owner, label
    }

    init() {}

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.count = try container.decodeIfPresent(Int.self, forKey: .count) ?? 0
        self.owner = try container.decodeIfPresent(String.self, forKey: .owner)
        self.label = try container.decode(String.self, forKey: .label)
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(self.count, forKey: .count)
        try container.encodeIfPresent(self.owner, forKey: .owner)
        try container.encode(self.label, forKey: .label)
    }
}

/// A generic value whose wrapper's `Codable` conformance holds where the value's does: the
/// wrapper is archived where the type's conformance holds, which is where the wrapper's does.
@Archivable
struct Labeled<Value: Equatable>: Equatable {
    @Boxed var value: Value
    var label = ""
}

/// ``Labeled``'s twin, with synthesized `Codable`.
struct LabeledTwin<Value: Equatable>: Equatable {
    @Boxed var value: Value
    var label = ""
}

extension LabeledTwin: Codable where Value: Codable {}

/// A final class with wrapped properties.
@Archivable
final class Mixer {
    @Clamped var level = 5
    @Boxed var name = ""
}

/// ``Mixer``'s twin, with synthesized `Codable`.
final class MixerTwin: Codable {
    @Clamped var level = 5
    @Boxed var name = ""

    init() {}
}

/// A class open to subclasses, with a wrapped property: its members are in its body.
@ArchivableClass
class Channel {
    @Boxed var gain = 1
    @Counted var mutes = 0
}

/// ``Channel``'s twin: synthesized `Codable` for the `Codable` wrapper, the wrapped value for the
/// other, as an app writes it.
class ChannelTwin: Codable {
    @Boxed var gain = 1
    @Counted var mutes = 0

    init() {}

    private enum CodingKeys: String, CodingKey {
        case gain, mutes
    }

    required init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self._gain = try container.decode(Boxed<Int>.self, forKey: .gain)
        self.mutes = try container.decode(Int.self, forKey: .mutes)
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(self._gain, forKey: .gain)
        try container.encode(self.mutes, forKey: .mutes)
    }
}

/// Wrapped properties with initial values before required ones, wrapped and not: read into the
/// wrappers' storage, which is initialized already, rather than through the properties.
@Archivable
struct Cassette: Equatable {
    @Clamped var volume = 5
    @Counted var plays = 0
    @Boxed var title: String
    var artist: String
}

/// ``Cassette``'s twin: synthesized `Codable` for the `Codable` wrappers, the wrapped value for the
/// other, as an app writes it.
struct CassetteTwin: Codable, Equatable {
    @Clamped var volume = 5
    @Counted var plays = 0
    @Boxed var title: String
    var artist: String

    private enum CodingKeys: String, CodingKey {
        case volume, plays, title, artist
    }

    init(volume: Int, plays: Int, title: String, artist: String) {
        self.title = title
        self.artist = artist
        self.volume = volume
        self.plays = plays
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self._volume = try container.decode(Clamped.self, forKey: .volume)
        self._title = try container.decode(Boxed<String>.self, forKey: .title)
        self.artist = try container.decode(String.self, forKey: .artist)
        self.plays = try container.decode(Int.self, forKey: .plays)
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(self._volume, forKey: .volume)
        try container.encode(self.plays, forKey: .plays)
        try container.encode(self._title, forKey: .title)
        try container.encode(self.artist, forKey: .artist)
    }
}

/// A wrapper generic over a phantom tag, `Codable` where the tag is.
@propertyWrapper
struct Marked<Mark>: Equatable {
    var wrappedValue: Int
}

extension Marked: Codable where Mark: Codable {}

/// A generic type whose parameter appears only in a wrapper's type: its conformances are
/// conditioned on it, as the wrapper's storage needs, so the wrapper is archived.
@Archivable
struct Score<Mark>: Equatable {
    @Marked<Mark> var points: Int
}

/// ``Score``'s twin, with synthesized `Codable` conditioned as the wrapper's conformance is.
struct ScoreTwin<Mark>: Equatable {
    @Marked<Mark> var points: Int
}

extension ScoreTwin: Codable where Mark: Codable {}

/// A wrapper that is only `Encodable`, which synthesized `Codable` refuses in a `Codable` type:
/// treated as a wrapper that is not `Codable`, so that what is written is what is read.
@propertyWrapper
struct Shown: Encodable, Equatable {
    var wrappedValue: Int
}

/// A wrapped property whose wrapper is only `Encodable`: its wrapped value is archived.
@Archivable
struct Display: Equatable {
    @Shown var brightness = 3
}
