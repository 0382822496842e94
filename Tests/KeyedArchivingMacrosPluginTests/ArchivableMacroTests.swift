//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-keyed-archive open source project
//
// Licensed under Apache License v2.0
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Testing

/// The expansions of `@Archivable`: one test per rule.
@Suite struct ArchivableMacroTests {
    /// Rule 1: a property without initial value that is not optional is decoded with `decode`.
    @Test func requiredProperty() {
        assertArchivable(
            #"""
            @Archivable
            struct Cat {
                var name: String
            }
            """#,
            expandedSource: #"""
                struct Cat {
                    var name: String
                }

                nonisolated extension Cat: Swift.Decodable, Swift.Encodable {
                    private enum CodingKeys: Swift.String, KeyedArchiving.ArchiveFieldCodingKey {
                        case name
                        case _archiveVersion = "archiveVersion"

                        init(archiveField index: Swift.Int) {
                            switch index {
                            case 1:
                                self = .name
                            default:
                                self = ._archiveVersion
                            }
                        }
                    }

                    init(from decoder: any Swift.Decoder) throws {
                        self = try KeyedArchiving.ArchiveContainerFieldReader<CodingKeys>.read(from: decoder) {
                            try Self(archiveFields: &$0)
                        }
                    }

                    func encode(to encoder: any Swift.Encoder) throws {
                        try KeyedArchiving.ArchiveContainerFieldWriter<CodingKeys>.write(to: encoder) {
                            try self.encodeArchiveFields(to: &$0)
                        }
                    }

                    private init<Reader: KeyedArchiving.ArchiveFieldReader & ~Copyable>(archiveFields reader: inout Reader) throws {
                        _ = try reader.decodeVersion(of: Self.self, at: 0)
                        self.name = try reader.decode(at: 1)
                    }

                    private func encodeArchiveFields<Writer: KeyedArchiving.ArchiveFieldWriter & ~Copyable>(to writer: inout Writer) throws {
                        try writer.encode(self.name, at: 1)
                    }
                }

                nonisolated extension Cat: KeyedArchiving.ArchiveVersioned {
                    static var archiveVersion: Swift.Int {
                        1
                    }
                }
                """#
        )
    }

    /// Rule 2: an optional without initial value, or `nil`, uses `decodeIfPresent`.
    @Test func optionalProperty() {
        assertArchivable(
            #"""
            @Archivable
            struct Cat {
                var color: String?
                let tag: Optional<Int>
                var owner: String! = nil
            }
            """#,
            expandedSource: #"""
                struct Cat {
                    var color: String?
                    let tag: Optional<Int>
                    var owner: String! = nil
                }

                nonisolated extension Cat: Swift.Decodable, Swift.Encodable {
                    private enum CodingKeys: Swift.String, KeyedArchiving.ArchiveFieldCodingKey {
                        case color
                        case tag
                        case owner
                        case _archiveVersion = "archiveVersion"

                        init(archiveField index: Swift.Int) {
                            switch index {
                            case 1:
                                self = .color
                            case 2:
                                self = .tag
                            case 3:
                                self = .owner
                            default:
                                self = ._archiveVersion
                            }
                        }
                    }

                    init(from decoder: any Swift.Decoder) throws {
                        self = try KeyedArchiving.ArchiveContainerFieldReader<CodingKeys>.read(from: decoder) {
                            try Self(archiveFields: &$0)
                        }
                    }

                    func encode(to encoder: any Swift.Encoder) throws {
                        try KeyedArchiving.ArchiveContainerFieldWriter<CodingKeys>.write(to: encoder) {
                            try self.encodeArchiveFields(to: &$0)
                        }
                    }

                    private init<Reader: KeyedArchiving.ArchiveFieldReader & ~Copyable>(archiveFields reader: inout Reader) throws {
                        _ = try reader.decodeVersion(of: Self.self, at: 0)
                        self.color = try reader.decodeIfPresent(at: 1)
                        self.tag = try reader.decodeIfPresent(at: 2)
                        self.owner = try reader.decodeIfPresent(at: 3)
                    }

                    private func encodeArchiveFields<Writer: KeyedArchiving.ArchiveFieldWriter & ~Copyable>(to writer: inout Writer) throws {
                        try writer.encodeIfPresent(self.color, at: 1)
                        try writer.encodeIfPresent(self.tag, at: 2)
                        try writer.encodeIfPresent(self.owner, at: 3)
                    }
                }

                nonisolated extension Cat: KeyedArchiving.ArchiveVersioned {
                    static var archiveVersion: Swift.Int {
                        1
                    }
                }
                """#
        )
    }

    /// Rule 3: an initial value is kept when the key is absent.
    @Test func defaultedProperty() {
        assertArchivable(
            #"""
            @Archivable
            public struct Cat {
                public var lives = 9
                var weight: Double = 4
            }
            """#,
            expandedSource: #"""
                public struct Cat {
                    public var lives = 9
                    var weight: Double = 4
                }

                nonisolated extension Cat: Swift.Decodable, Swift.Encodable {
                    private enum CodingKeys: Swift.String, KeyedArchiving.ArchiveFieldCodingKey {
                        case lives
                        case weight
                        case _archiveVersion = "archiveVersion"

                        init(archiveField index: Swift.Int) {
                            switch index {
                            case 1:
                                self = .lives
                            case 2:
                                self = .weight
                            default:
                                self = ._archiveVersion
                            }
                        }
                    }

                    public init(from decoder: any Swift.Decoder) throws {
                        self = try KeyedArchiving.ArchiveContainerFieldReader<CodingKeys>.read(from: decoder) {
                            try Self(archiveFields: &$0)
                        }
                    }

                    public func encode(to encoder: any Swift.Encoder) throws {
                        try KeyedArchiving.ArchiveContainerFieldWriter<CodingKeys>.write(to: encoder) {
                            try self.encodeArchiveFields(to: &$0)
                        }
                    }

                    private init<Reader: KeyedArchiving.ArchiveFieldReader & ~Copyable>(archiveFields reader: inout Reader) throws {
                        _ = try reader.decodeVersion(of: Self.self, at: 0)
                        try reader.decodeIfPresent(into: &self.lives, at: 1)
                        try reader.decodeIfPresent(into: &self.weight, at: 2)
                    }

                    private func encodeArchiveFields<Writer: KeyedArchiving.ArchiveFieldWriter & ~Copyable>(to writer: inout Writer) throws {
                        try writer.encodeDefaulted(self.lives, at: 1)
                        try writer.encodeDefaulted(self.weight, at: 2)
                    }
                }

                nonisolated extension Cat: KeyedArchiving.ArchiveVersioned {
                    public static var archiveVersion: Swift.Int {
                        1
                    }
                }
                """#
        )
    }

    /// Rule 4: an optional with a non-nil initial value uses `decodeOptional` and `encodeOptional`.
    @Test func optionalDefaultedProperty() {
        assertArchivable(
            #"""
            @Archivable
            struct Cat {
                var nickname: String? = "Kitty"
            }
            """#,
            expandedSource: #"""
                struct Cat {
                    var nickname: String? = "Kitty"
                }

                nonisolated extension Cat: Swift.Decodable, Swift.Encodable {
                    private enum CodingKeys: Swift.String, KeyedArchiving.ArchiveFieldCodingKey {
                        case nickname
                        case _archiveVersion = "archiveVersion"

                        init(archiveField index: Swift.Int) {
                            switch index {
                            case 1:
                                self = .nickname
                            default:
                                self = ._archiveVersion
                            }
                        }
                    }

                    init(from decoder: any Swift.Decoder) throws {
                        self = try KeyedArchiving.ArchiveContainerFieldReader<CodingKeys>.read(from: decoder) {
                            try Self(archiveFields: &$0)
                        }
                    }

                    func encode(to encoder: any Swift.Encoder) throws {
                        try KeyedArchiving.ArchiveContainerFieldWriter<CodingKeys>.write(to: encoder) {
                            try self.encodeArchiveFields(to: &$0)
                        }
                    }

                    private init<Reader: KeyedArchiving.ArchiveFieldReader & ~Copyable>(archiveFields reader: inout Reader) throws {
                        _ = try reader.decodeVersion(of: Self.self, at: 0)
                        try reader.decodeOptional(into: &self.nickname, at: 1)
                    }

                    private func encodeArchiveFields<Writer: KeyedArchiving.ArchiveFieldWriter & ~Copyable>(to writer: inout Writer) throws {
                        try writer.encodeDefaulted(self.nickname, at: 1)
                    }
                }

                nonisolated extension Cat: KeyedArchiving.ArchiveVersioned {
                    static var archiveVersion: Swift.Int {
                        1
                    }
                }
                """#
        )
    }

    /// Rule 5: `@ArchiveFallback` wraps the decoding and records the fallback.
    @Test func fallbackProperty() {
        assertArchivable(
            #"""
            @Archivable
            struct Cat {
                @ArchiveFallback var mood = 1
            }
            """#,
            expandedSource: #"""
                struct Cat {
                    var mood = 1
                }

                nonisolated extension Cat: Swift.Decodable, Swift.Encodable {
                    private enum CodingKeys: Swift.String, KeyedArchiving.ArchiveFieldCodingKey {
                        case mood
                        case _archiveVersion = "archiveVersion"

                        init(archiveField index: Swift.Int) {
                            switch index {
                            case 1:
                                self = .mood
                            default:
                                self = ._archiveVersion
                            }
                        }
                    }

                    init(from decoder: any Swift.Decoder) throws {
                        self = try KeyedArchiving.ArchiveContainerFieldReader<CodingKeys>.read(from: decoder) {
                            try Self(archiveFields: &$0)
                        }
                    }

                    func encode(to encoder: any Swift.Encoder) throws {
                        try KeyedArchiving.ArchiveContainerFieldWriter<CodingKeys>.write(to: encoder) {
                            try self.encodeArchiveFields(to: &$0)
                        }
                    }

                    private init<Reader: KeyedArchiving.ArchiveFieldReader & ~Copyable>(archiveFields reader: inout Reader) throws {
                        _ = try reader.decodeVersion(of: Self.self, at: 0)
                        do {
                            try reader.decodeIfPresent(into: &self.mood, at: 1)
                        } catch {
                            try reader.recordFallback(error, decoding: Self.self, at: 1)
                        }
                    }

                    private func encodeArchiveFields<Writer: KeyedArchiving.ArchiveFieldWriter & ~Copyable>(to writer: inout Writer) throws {
                        try writer.encodeDefaulted(self.mood, at: 1)
                    }
                }

                nonisolated extension Cat: KeyedArchiving.ArchiveVersioned {
                    static var archiveVersion: Swift.Int {
                        1
                    }
                }
                """#
        )
    }

    /// `@ArchiveUnwrapped` properties are archived as properties without attributes are, whatever
    /// else they carry: no storage (`_target`) is named.
    @Test func unwrappedProperties() {
        assertArchivable(
            #"""
            @Archivable
            struct Thermostat {
                @ArchiveUnwrapped @Boxed var target: Int
                @Indexed @ArchiveUnwrapped var room = ""
            }
            """#,
            expandedSource: #"""
                struct Thermostat {
                    @Boxed var target: Int
                    @Indexed var room = ""
                }

                extension Thermostat: Swift.Decodable, Swift.Encodable {
                    private enum CodingKeys: Swift.String, KeyedArchiving.ArchiveFieldCodingKey {
                        case target
                        case room
                        case _archiveVersion = "archiveVersion"

                        init(archiveField index: Swift.Int) {
                            switch index {
                            case 1:
                                self = .target
                            case 2:
                                self = .room
                            default:
                                self = ._archiveVersion
                            }
                        }
                    }

                    init(from decoder: any Swift.Decoder) throws {
                        self = try KeyedArchiving.ArchiveContainerFieldReader<CodingKeys>.read(from: decoder) {
                            try Self(archiveFields: &$0)
                        }
                    }

                    func encode(to encoder: any Swift.Encoder) throws {
                        try KeyedArchiving.ArchiveContainerFieldWriter<CodingKeys>.write(to: encoder) {
                            try self.encodeArchiveFields(to: &$0)
                        }
                    }

                    private init<Reader: KeyedArchiving.ArchiveFieldReader & ~Copyable>(archiveFields reader: inout Reader) throws {
                        _ = try reader.decodeVersion(of: Self.self, at: 0)
                        self.target = try reader.decode(at: 1)
                        try reader.decodeIfPresent(into: &self.room, at: 2)
                    }

                    private func encodeArchiveFields<Writer: KeyedArchiving.ArchiveFieldWriter & ~Copyable>(to writer: inout Writer) throws {
                        try writer.encode(self.target, at: 1)
                        try writer.encodeDefaulted(self.room, at: 2)
                    }
                }

                extension Thermostat: KeyedArchiving.ArchiveVersioned {
                    static var archiveVersion: Swift.Int {
                        1
                    }
                }
                """#
        )
    }

    /// Wrapped properties: the storage (`_volume`) when the wrapper is `Codable`, as synthesized
    /// `Codable` archives it, else the wrapped value by the property's rule; read as the wrapper,
    /// or as the wrapped value where the key holds that. Attributes that are not wrappers (the
    /// compiler's, global actors) leave a property as it is.
    @Test func wrappedProperties() {
        assertArchivable(
            #"""
            @Archivable
            struct Speaker {
                @Clamped(to: 0...10) var volume = 5
                @Lowercased @ArchiveKey("place", "room") var location: String
                @Boxed var nickname: String?
                @ArchiveFallback @Boxed var mood = 1
                @available(*, deprecated) var name = ""
                @MainActor var owner = ""
            }
            """#,
            expandedSource: #"""
                struct Speaker {
                    @Clamped(to: 0...10) var volume = 5
                    @Lowercased var location: String
                    @Boxed var nickname: String?
                    @Boxed var mood = 1
                    @available(*, deprecated) var name = ""
                    @MainActor var owner = ""
                }

                extension Speaker: Swift.Decodable, Swift.Encodable {
                    private enum CodingKeys: Swift.String, KeyedArchiving.ArchiveFieldCodingKey {
                        case volume
                        case location = "place"
                        case nickname
                        case mood
                        case name
                        case owner
                        case location_1 = "room"
                        case _archiveVersion = "archiveVersion"

                        init(archiveField index: Swift.Int) {
                            switch index {
                            case 1:
                                self = .volume
                            case 2:
                                self = .location
                            case 3:
                                self = .nickname
                            case 4:
                                self = .mood
                            case 5:
                                self = .name
                            case 6:
                                self = .owner
                            case 7:
                                self = .location_1
                            default:
                                self = ._archiveVersion
                            }
                        }
                    }

                    init(from decoder: any Swift.Decoder) throws {
                        self = try KeyedArchiving.ArchiveContainerFieldReader<CodingKeys>.read(from: decoder) {
                            try Self(archiveFields: &$0)
                        }
                    }

                    func encode(to encoder: any Swift.Encoder) throws {
                        try KeyedArchiving.ArchiveContainerFieldWriter<CodingKeys>.write(to: encoder) {
                            try self.encodeArchiveFields(to: &$0)
                        }
                    }

                    private init<Reader: KeyedArchiving.ArchiveFieldReader & ~Copyable>(archiveFields reader: inout Reader) throws {
                        _ = try reader.decodeVersion(of: Self.self, at: 0)
                        if let wrapper = try reader.decodeWrapper(at: 1, of: { (value: Self) in
                                value._volume
                            }) {
                            self._volume = wrapper
                        } else {
                            try reader.decodeIfPresent(into: &self._volume.wrappedValue, at: 1)
                        }
                        if let wrapper = try reader.decodeWrapper(at: reader.firstPresent(2, 7), of: { (value: Self) in
                                value._location
                            }) {
                            self._location = wrapper
                        } else {
                            self.location = try reader.decode(at: reader.firstPresent(2, 7))
                        }
                        if let wrapper = try reader.decodeWrapper(at: 3, of: { (value: Self) in
                                value._nickname
                            }) {
                            self._nickname = wrapper
                        } else {
                            self.nickname = try reader.decodeIfPresent(at: 3)
                        }
                        do {
                            if let wrapper = try reader.decodeWrapper(at: 4, of: { (value: Self) in
                                    value._mood
                                }) {
                                self._mood = wrapper
                            } else {
                                try reader.decodeIfPresent(into: &self._mood.wrappedValue, at: 4)
                            }
                        } catch {
                            try reader.recordFallback(error, decoding: Self.self, at: 4)
                        }
                        try reader.decodeIfPresent(into: &self.name, at: 5)
                        try reader.decodeIfPresent(into: &self.owner, at: 6)
                    }

                    private func encodeArchiveFields<Writer: KeyedArchiving.ArchiveFieldWriter & ~Copyable>(to writer: inout Writer) throws {
                        if try !writer.encodeWrapper(self._volume, at: 1) {
                            try writer.encodeDefaulted(self.volume, at: 1)
                        }
                        if try !writer.encodeWrapper(self._location, at: 2) {
                            try writer.encode(self.location, at: 2)
                        }
                        if try !writer.encodeWrapper(self._nickname, at: 3) {
                            try writer.encodeIfPresent(self.nickname, at: 3)
                        }
                        if try !writer.encodeWrapper(self._mood, at: 4) {
                            try writer.encodeDefaulted(self.mood, at: 4)
                        }
                        try writer.encodeDefaulted(self.name, at: 5)
                        try writer.encodeDefaulted(self.owner, at: 6)
                    }
                }

                extension Speaker: KeyedArchiving.ArchiveVersioned {
                    static var archiveVersion: Swift.Int {
                        1
                    }
                }
                """#
        )
    }

    /// Rule 6: `@ArchiveIgnored` properties, static and computed properties are not archived.
    @Test func ignoredProperty() {
        assertArchivable(
            #"""
            @Archivable
            struct Cat {
                @ArchiveIgnored var cache: [Int] = []
                static var shared = 1
                var computed: Int { 1 }
            }
            """#,
            expandedSource: #"""
                struct Cat {
                    var cache: [Int] = []
                    static var shared = 1
                    var computed: Int { 1 }
                }

                nonisolated extension Cat: Swift.Decodable, Swift.Encodable {
                    private enum CodingKeys: Swift.String, KeyedArchiving.ArchiveFieldCodingKey {
                        case _archiveVersion = "archiveVersion"

                        init(archiveField index: Swift.Int) {
                            switch index {
                            default:
                                self = ._archiveVersion
                            }
                        }
                    }

                    init(from decoder: any Swift.Decoder) throws {
                        self = try KeyedArchiving.ArchiveContainerFieldReader<CodingKeys>.read(from: decoder) {
                            try Self(archiveFields: &$0)
                        }
                    }

                    func encode(to encoder: any Swift.Encoder) throws {
                        try KeyedArchiving.ArchiveContainerFieldWriter<CodingKeys>.write(to: encoder) {
                            try self.encodeArchiveFields(to: &$0)
                        }
                    }

                    private init<Reader: KeyedArchiving.ArchiveFieldReader & ~Copyable>(archiveFields reader: inout Reader) throws {
                        _ = try reader.decodeVersion(of: Self.self, at: 0)
                    }

                    private func encodeArchiveFields<Writer: KeyedArchiving.ArchiveFieldWriter & ~Copyable>(to writer: inout Writer) throws {
                    }
                }

                nonisolated extension Cat: KeyedArchiving.ArchiveVersioned {
                    static var archiveVersion: Swift.Int {
                        1
                    }
                }
                """#
        )
    }

    /// Rule 7: an `ArchiveUnknownFields` property is read last and written last.
    @Test func unknownFieldsProperty() {
        assertArchivable(
            #"""
            @Archivable(version: 2, unversionedVersion: 2)
            struct Cat {
                var name: String
                @ArchiveKey("color", "colour") var color = ""
                var unknownFields = ArchiveUnknownFields()
            }
            """#,
            expandedSource: #"""
                struct Cat {
                    var name: String
                    var color = ""
                    var unknownFields = ArchiveUnknownFields()
                }

                nonisolated extension Cat: Swift.Decodable, Swift.Encodable {
                    private enum CodingKeys: Swift.String, KeyedArchiving.ArchiveFieldCodingKey {
                        case name
                        case color
                        case color_1 = "colour"
                        case _archiveVersion = "archiveVersion"

                        init(archiveField index: Swift.Int) {
                            switch index {
                            case 1:
                                self = .name
                            case 2:
                                self = .color
                            case 3:
                                self = .color_1
                            default:
                                self = ._archiveVersion
                            }
                        }
                    }

                    init(from decoder: any Swift.Decoder) throws {
                        self = try KeyedArchiving.ArchiveContainerFieldReader<CodingKeys>.read(from: decoder) {
                            try Self(archiveFields: &$0)
                        }
                    }

                    func encode(to encoder: any Swift.Encoder) throws {
                        try KeyedArchiving.ArchiveContainerFieldWriter<CodingKeys>.write(to: encoder) {
                            try self.encodeArchiveFields(to: &$0)
                        }
                    }

                    private init<Reader: KeyedArchiving.ArchiveFieldReader & ~Copyable>(archiveFields reader: inout Reader) throws {
                        _ = try reader.decodeVersion(of: Self.self, at: 0)
                        self.name = try reader.decode(at: 1)
                        try reader.decodeIfPresent(into: &self.color, at: reader.firstPresent(2, 3))
                        self.unknownFields = try KeyedArchiving.ArchiveUnknownFields(from: reader.decoder, knownKeys: ["name", "color", "colour", "archiveVersion"])
                    }

                    private func encodeArchiveFields<Writer: KeyedArchiving.ArchiveFieldWriter & ~Copyable>(to writer: inout Writer) throws {
                        try writer.encode(self.name, at: 1)
                        try writer.encodeDefaulted(self.color, at: 2)
                        try writer.encodeUnknownFields(self.unknownFields)
                    }
                }

                nonisolated extension Cat: KeyedArchiving.ArchiveVersioned {
                    static var archiveVersion: Swift.Int {
                        2
                    }

                    static var unversionedArchiveVersion: Swift.Int {
                        2
                    }
                }
                """#
        )
    }

    /// `@ArchiveKey` renames a key and reads former keys under uniqued case names.
    @Test func formerKeys() {
        assertArchivable(
            #"""
            @Archivable
            struct Cat {
                @ArchiveKey("colour", "color", "tint") var color: String
                var color_1 = 0
                @ArchiveKey("default") var `default` = false
            }
            """#,
            expandedSource: #"""
                struct Cat {
                    var color: String
                    var color_1 = 0
                    var `default` = false
                }

                nonisolated extension Cat: Swift.Decodable, Swift.Encodable {
                    private enum CodingKeys: Swift.String, KeyedArchiving.ArchiveFieldCodingKey {
                        case color = "colour"
                        case color_1
                        case `default`
                        case color_1_ = "color"
                        case color_2 = "tint"
                        case _archiveVersion = "archiveVersion"

                        init(archiveField index: Swift.Int) {
                            switch index {
                            case 1:
                                self = .color
                            case 2:
                                self = .color_1
                            case 3:
                                self = .`default`
                            case 4:
                                self = .color_1_
                            case 5:
                                self = .color_2
                            default:
                                self = ._archiveVersion
                            }
                        }
                    }

                    init(from decoder: any Swift.Decoder) throws {
                        self = try KeyedArchiving.ArchiveContainerFieldReader<CodingKeys>.read(from: decoder) {
                            try Self(archiveFields: &$0)
                        }
                    }

                    func encode(to encoder: any Swift.Encoder) throws {
                        try KeyedArchiving.ArchiveContainerFieldWriter<CodingKeys>.write(to: encoder) {
                            try self.encodeArchiveFields(to: &$0)
                        }
                    }

                    private init<Reader: KeyedArchiving.ArchiveFieldReader & ~Copyable>(archiveFields reader: inout Reader) throws {
                        _ = try reader.decodeVersion(of: Self.self, at: 0)
                        self.color = try reader.decode(at: reader.firstPresent(1, 4, 5))
                        try reader.decodeIfPresent(into: &self.color_1, at: 2)
                        try reader.decodeIfPresent(into: &self.`default`, at: 3)
                    }

                    private func encodeArchiveFields<Writer: KeyedArchiving.ArchiveFieldWriter & ~Copyable>(to writer: inout Writer) throws {
                        try writer.encode(self.color, at: 1)
                        try writer.encodeDefaulted(self.color_1, at: 2)
                        try writer.encodeDefaulted(self.`default`, at: 3)
                    }
                }

                nonisolated extension Cat: KeyedArchiving.ArchiveVersioned {
                    static var archiveVersion: Swift.Int {
                        1
                    }
                }
                """#
        )
    }

    /// A type without coded properties creates its containers without binding them.
    @Test func emptyType() {
        assertArchivable(
            #"""
            @Archivable
            struct Empty {
            }
            """#,
            expandedSource: #"""
                struct Empty {
                }

                nonisolated extension Empty: Swift.Decodable, Swift.Encodable {
                    private enum CodingKeys: Swift.String, KeyedArchiving.ArchiveFieldCodingKey {
                        case _archiveVersion = "archiveVersion"

                        init(archiveField index: Swift.Int) {
                            switch index {
                            default:
                                self = ._archiveVersion
                            }
                        }
                    }

                    init(from decoder: any Swift.Decoder) throws {
                        self = try KeyedArchiving.ArchiveContainerFieldReader<CodingKeys>.read(from: decoder) {
                            try Self(archiveFields: &$0)
                        }
                    }

                    func encode(to encoder: any Swift.Encoder) throws {
                        try KeyedArchiving.ArchiveContainerFieldWriter<CodingKeys>.write(to: encoder) {
                            try self.encodeArchiveFields(to: &$0)
                        }
                    }

                    private init<Reader: KeyedArchiving.ArchiveFieldReader & ~Copyable>(archiveFields reader: inout Reader) throws {
                        _ = try reader.decodeVersion(of: Self.self, at: 0)
                    }

                    private func encodeArchiveFields<Writer: KeyedArchiving.ArchiveFieldWriter & ~Copyable>(to writer: inout Writer) throws {
                    }
                }

                nonisolated extension Empty: KeyedArchiving.ArchiveVersioned {
                    static var archiveVersion: Swift.Int {
                        1
                    }
                }
                """#
        )
    }

    /// A version with a previous version reads the version and migrates older data.
    @Test func versionWithMigration() {
        assertArchivable(
            #"""
            @Archivable(version: 3, previousVersion: CatV2.self, versionKey: "v")
            package struct Cat {
                var name: String
            }
            """#,
            expandedSource: #"""
                package struct Cat {
                    var name: String
                }

                nonisolated extension Cat: Swift.Decodable, Swift.Encodable {
                    private enum CodingKeys: Swift.String, KeyedArchiving.ArchiveFieldCodingKey {
                        case name
                        case _archiveVersion = "v"

                        init(archiveField index: Swift.Int) {
                            switch index {
                            case 1:
                                self = .name
                            default:
                                self = ._archiveVersion
                            }
                        }
                    }

                    package init(from decoder: any Swift.Decoder) throws {
                        self = try KeyedArchiving.ArchiveContainerFieldReader<CodingKeys>.read(from: decoder) {
                            try Self(archiveFields: &$0)
                        }
                    }

                    package func encode(to encoder: any Swift.Encoder) throws {
                        try KeyedArchiving.ArchiveContainerFieldWriter<CodingKeys>.write(to: encoder) {
                            try self.encodeArchiveFields(to: &$0)
                        }
                    }

                    private init<Reader: KeyedArchiving.ArchiveFieldReader & ~Copyable>(archiveFields reader: inout Reader) throws {
                        let version = try reader.decodeVersion(of: Self.self, at: 0)
                        if version < Self.archiveVersion {
                            self = try reader.migrate(Self.self)
                            return
                        }
                        self.name = try reader.decode(at: 1)
                    }

                    private func encodeArchiveFields<Writer: KeyedArchiving.ArchiveFieldWriter & ~Copyable>(to writer: inout Writer) throws {
                        try writer.encodeVersion(of: Self.self, at: 0)
                        try writer.encode(self.name, at: 1)
                    }
                }

                nonisolated extension Cat: KeyedArchiving.ArchiveVersioned {
                    package static var archiveVersion: Swift.Int {
                        3
                    }

                    package static var archiveVersionKey: Swift.String {
                        "v"
                    }
                }

                nonisolated extension Cat: KeyedArchiving.ArchiveMigrating {
                    package typealias PreviousArchiveVersion = CatV2
                }
                """#
        )
    }

    /// A version without a previous version still refuses newer data.
    @Test func versionWithoutMigration() {
        assertArchivable(
            #"""
            @Archivable(version: 2)
            struct Cat {
                var name: String
            }
            """#,
            expandedSource: #"""
                struct Cat {
                    var name: String
                }

                nonisolated extension Cat: Swift.Decodable, Swift.Encodable {
                    private enum CodingKeys: Swift.String, KeyedArchiving.ArchiveFieldCodingKey {
                        case name
                        case _archiveVersion = "archiveVersion"

                        init(archiveField index: Swift.Int) {
                            switch index {
                            case 1:
                                self = .name
                            default:
                                self = ._archiveVersion
                            }
                        }
                    }

                    init(from decoder: any Swift.Decoder) throws {
                        self = try KeyedArchiving.ArchiveContainerFieldReader<CodingKeys>.read(from: decoder) {
                            try Self(archiveFields: &$0)
                        }
                    }

                    func encode(to encoder: any Swift.Encoder) throws {
                        try KeyedArchiving.ArchiveContainerFieldWriter<CodingKeys>.write(to: encoder) {
                            try self.encodeArchiveFields(to: &$0)
                        }
                    }

                    private init<Reader: KeyedArchiving.ArchiveFieldReader & ~Copyable>(archiveFields reader: inout Reader) throws {
                        _ = try reader.decodeVersion(of: Self.self, at: 0)
                        self.name = try reader.decode(at: 1)
                    }

                    private func encodeArchiveFields<Writer: KeyedArchiving.ArchiveFieldWriter & ~Copyable>(to writer: inout Writer) throws {
                        try writer.encodeVersion(of: Self.self, at: 0)
                        try writer.encode(self.name, at: 1)
                    }
                }

                nonisolated extension Cat: KeyedArchiving.ArchiveVersioned {
                    static var archiveVersion: Swift.Int {
                        2
                    }
                }
                """#
        )
    }

    /// `className:` and `formerClassNames:` conform to `ArchivedClassNaming`.
    @Test func classNaming() {
        assertArchivable(
            #"""
            @Archivable(className: "App.Cat", formerClassNames: ["Old.Cat"])
            struct Cat {
                var name: String
            }
            """#,
            expandedSource: #"""
                struct Cat {
                    var name: String
                }

                nonisolated extension Cat: Swift.Decodable, Swift.Encodable {
                    private enum CodingKeys: Swift.String, KeyedArchiving.ArchiveFieldCodingKey {
                        case name
                        case _archiveVersion = "archiveVersion"

                        init(archiveField index: Swift.Int) {
                            switch index {
                            case 1:
                                self = .name
                            default:
                                self = ._archiveVersion
                            }
                        }
                    }

                    init(from decoder: any Swift.Decoder) throws {
                        self = try KeyedArchiving.ArchiveContainerFieldReader<CodingKeys>.read(from: decoder) {
                            try Self(archiveFields: &$0)
                        }
                    }

                    func encode(to encoder: any Swift.Encoder) throws {
                        try KeyedArchiving.ArchiveContainerFieldWriter<CodingKeys>.write(to: encoder) {
                            try self.encodeArchiveFields(to: &$0)
                        }
                    }

                    private init<Reader: KeyedArchiving.ArchiveFieldReader & ~Copyable>(archiveFields reader: inout Reader) throws {
                        _ = try reader.decodeVersion(of: Self.self, at: 0)
                        self.name = try reader.decode(at: 1)
                    }

                    private func encodeArchiveFields<Writer: KeyedArchiving.ArchiveFieldWriter & ~Copyable>(to writer: inout Writer) throws {
                        try writer.encode(self.name, at: 1)
                    }
                }

                nonisolated extension Cat: KeyedArchiving.ArchiveVersioned {
                    static var archiveVersion: Swift.Int {
                        1
                    }
                }

                nonisolated extension Cat: KeyedArchiving.ArchivedClassNaming {
                    static var archivedClassName: Swift.String {
                        "App.Cat"
                    }

                    static var acceptedArchivedClassNames: Swift.Set<Swift.String> {
                        ["App.Cat", "Old.Cat"]
                    }
                }
                """#
        )
    }

    /// A final class gets `init(from:)` in its body, and `init()` when it declares none.
    @Test func finalClassWithoutInitializer() {
        assertArchivable(
            #"""
            @Archivable
            public final class Box {
                public var width = 1
                var title: String?
            }
            """#,
            expandedSource: #"""
                public final class Box {
                    public var width = 1
                    var title: String?

                    public convenience init(from decoder: any Swift.Decoder) throws {
                        var reader = try KeyedArchiving.ArchiveContainerFieldReader<CodingKeys>(decoder)
                        try self.init(archiveFields: &reader)
                    }

                    private init<Reader: KeyedArchiving.ArchiveFieldReader & ~Copyable>(archiveFields reader: inout Reader) throws {
                        _ = try reader.decodeVersion(of: Self.self, at: 0)
                        try reader.decodeIfPresent(into: &self.width, at: 1)
                        self.title = try reader.decodeIfPresent(at: 2)
                    }

                    public init() {
                    }
                }

                extension Box: Swift.Decodable, Swift.Encodable {
                    private enum CodingKeys: Swift.String, KeyedArchiving.ArchiveFieldCodingKey {
                        case width
                        case title
                        case _archiveVersion = "archiveVersion"

                        init(archiveField index: Swift.Int) {
                            switch index {
                            case 1:
                                self = .width
                            case 2:
                                self = .title
                            default:
                                self = ._archiveVersion
                            }
                        }
                    }

                    public func encode(to encoder: any Swift.Encoder) throws {
                        try KeyedArchiving.ArchiveContainerFieldWriter<CodingKeys>.write(to: encoder) {
                            try self.encodeArchiveFields(to: &$0)
                        }
                    }

                    private func encodeArchiveFields<Writer: KeyedArchiving.ArchiveFieldWriter & ~Copyable>(to writer: inout Writer) throws {
                        try writer.encodeDefaulted(self.width, at: 1)
                        try writer.encodeIfPresent(self.title, at: 2)
                    }
                }

                extension Box: KeyedArchiving.ArchiveVersioned {
                    public static var archiveVersion: Swift.Int {
                        1
                    }
                }
                """#
        )
    }

    /// A final class with an initializer keeps it and gets no `init()`.
    @Test func finalClassWithInitializer() {
        assertArchivable(
            #"""
            @Archivable
            final class Box {
                var name: String
                init(name: String) { self.name = name }
            }
            """#,
            expandedSource: #"""
                final class Box {
                    var name: String
                    init(name: String) { self.name = name }

                    convenience init(from decoder: any Swift.Decoder) throws {
                        var reader = try KeyedArchiving.ArchiveContainerFieldReader<CodingKeys>(decoder)
                        try self.init(archiveFields: &reader)
                    }

                    private init<Reader: KeyedArchiving.ArchiveFieldReader & ~Copyable>(archiveFields reader: inout Reader) throws {
                        _ = try reader.decodeVersion(of: Self.self, at: 0)
                        self.name = try reader.decode(at: 1)
                    }
                }

                extension Box: Swift.Decodable, Swift.Encodable {
                    private enum CodingKeys: Swift.String, KeyedArchiving.ArchiveFieldCodingKey {
                        case name
                        case _archiveVersion = "archiveVersion"

                        init(archiveField index: Swift.Int) {
                            switch index {
                            case 1:
                                self = .name
                            default:
                                self = ._archiveVersion
                            }
                        }
                    }

                    func encode(to encoder: any Swift.Encoder) throws {
                        try KeyedArchiving.ArchiveContainerFieldWriter<CodingKeys>.write(to: encoder) {
                            try self.encodeArchiveFields(to: &$0)
                        }
                    }

                    private func encodeArchiveFields<Writer: KeyedArchiving.ArchiveFieldWriter & ~Copyable>(to writer: inout Writer) throws {
                        try writer.encode(self.name, at: 1)
                    }
                }

                extension Box: KeyedArchiving.ArchiveVersioned {
                    static var archiveVersion: Swift.Int {
                        1
                    }
                }
                """#
        )
    }

    /// A versioned final class copies every property from the migrated value.
    @Test func finalClassMigration() {
        assertArchivable(
            #"""
            @Archivable(version: 2, previousVersion: BoxV1.self)
            final class Box {
                var name: String
                let id: Int
                @ArchiveIgnored let kind = 1
                @ArchiveIgnored var cache = 0
            }
            """#,
            expandedSource: #"""
                final class Box {
                    var name: String
                    let id: Int
                    let kind = 1
                    var cache = 0

                    convenience init(from decoder: any Swift.Decoder) throws {
                        var reader = try KeyedArchiving.ArchiveContainerFieldReader<CodingKeys>(decoder)
                        try self.init(archiveFields: &reader)
                    }

                    private init<Reader: KeyedArchiving.ArchiveFieldReader & ~Copyable>(archiveFields reader: inout Reader) throws {
                        let version = try reader.decodeVersion(of: Self.self, at: 0)
                        if version < Self.archiveVersion {
                            let migrated = try reader.migrate(Self.self)
                            self.name = migrated.name
                            self.id = migrated.id
                            self.cache = migrated.cache
                            return
                        }
                        self.name = try reader.decode(at: 1)
                        self.id = try reader.decode(at: 2)
                    }
                }

                extension Box: Swift.Decodable, Swift.Encodable {
                    private enum CodingKeys: Swift.String, KeyedArchiving.ArchiveFieldCodingKey {
                        case name
                        case id
                        case _archiveVersion = "archiveVersion"

                        init(archiveField index: Swift.Int) {
                            switch index {
                            case 1:
                                self = .name
                            case 2:
                                self = .id
                            default:
                                self = ._archiveVersion
                            }
                        }
                    }

                    func encode(to encoder: any Swift.Encoder) throws {
                        try KeyedArchiving.ArchiveContainerFieldWriter<CodingKeys>.write(to: encoder) {
                            try self.encodeArchiveFields(to: &$0)
                        }
                    }

                    private func encodeArchiveFields<Writer: KeyedArchiving.ArchiveFieldWriter & ~Copyable>(to writer: inout Writer) throws {
                        try writer.encodeVersion(of: Self.self, at: 0)
                        try writer.encode(self.name, at: 1)
                        try writer.encode(self.id, at: 2)
                    }
                }

                extension Box: KeyedArchiving.ArchiveVersioned {
                    static var archiveVersion: Swift.Int {
                        2
                    }
                }

                extension Box: KeyedArchiving.ArchiveMigrating {
                    typealias PreviousArchiveVersion = BoxV1
                }
                """#
        )
    }

    /// A generic type's Codable extension requires `Codable` generic parameters.
    @Test func genericStruct() {
        assertArchivable(
            #"""
            @Archivable
            struct Page<Element, Index> {
                var items: [Element]
                var next: Index?
            }
            """#,
            expandedSource: #"""
                struct Page<Element, Index> {
                    var items: [Element]
                    var next: Index?
                }

                nonisolated extension Page: Swift.Decodable, Swift.Encodable where Element: Swift.Codable, Index: Swift.Codable {
                    private enum CodingKeys: Swift.String, KeyedArchiving.ArchiveFieldCodingKey {
                        case items
                        case next
                        case _archiveVersion = "archiveVersion"

                        init(archiveField index: Swift.Int) {
                            switch index {
                            case 1:
                                self = .items
                            case 2:
                                self = .next
                            default:
                                self = ._archiveVersion
                            }
                        }
                    }

                    init(from decoder: any Swift.Decoder) throws {
                        self = try KeyedArchiving.ArchiveContainerFieldReader<CodingKeys>.read(from: decoder) {
                            try Self(archiveFields: &$0)
                        }
                    }

                    func encode(to encoder: any Swift.Encoder) throws {
                        try KeyedArchiving.ArchiveContainerFieldWriter<CodingKeys>.write(to: encoder) {
                            try self.encodeArchiveFields(to: &$0)
                        }
                    }

                    private init<Reader: KeyedArchiving.ArchiveFieldReader & ~Copyable>(archiveFields reader: inout Reader) throws {
                        _ = try reader.decodeVersion(of: Self.self, at: 0)
                        self.items = try reader.decode(at: 1)
                        self.next = try reader.decodeIfPresent(at: 2)
                    }

                    private func encodeArchiveFields<Writer: KeyedArchiving.ArchiveFieldWriter & ~Copyable>(to writer: inout Writer) throws {
                        try writer.encode(self.items, at: 1)
                        try writer.encodeIfPresent(self.next, at: 2)
                    }
                }

                nonisolated extension Page: KeyedArchiving.ArchiveVersioned {
                    static var archiveVersion: Swift.Int {
                        1
                    }
                }
                """#
        )
    }

    /// A generic final class's `init(from:)` has the same requirement.
    @Test func genericFinalClass() {
        assertArchivable(
            #"""
            @Archivable
            final class Holder<Value> {
                var value: Value
                init(value: Value) { self.value = value }
            }
            """#,
            expandedSource: #"""
                final class Holder<Value> {
                    var value: Value
                    init(value: Value) { self.value = value }

                    convenience init(from decoder: any Swift.Decoder) throws where Value: Swift.Codable {
                        var reader = try KeyedArchiving.ArchiveContainerFieldReader<CodingKeys>(decoder)
                        try self.init(archiveFields: &reader)
                    }

                    private init<Reader: KeyedArchiving.ArchiveFieldReader & ~Copyable>(archiveFields reader: inout Reader) throws where Value: Swift.Codable {
                        _ = try reader.decodeVersion(of: Self.self, at: 0)
                        self.value = try reader.decode(at: 1)
                    }
                }

                extension Holder: Swift.Decodable, Swift.Encodable where Value: Swift.Codable {
                    private enum CodingKeys: Swift.String, KeyedArchiving.ArchiveFieldCodingKey {
                        case value
                        case _archiveVersion = "archiveVersion"

                        init(archiveField index: Swift.Int) {
                            switch index {
                            case 1:
                                self = .value
                            default:
                                self = ._archiveVersion
                            }
                        }
                    }

                    func encode(to encoder: any Swift.Encoder) throws {
                        try KeyedArchiving.ArchiveContainerFieldWriter<CodingKeys>.write(to: encoder) {
                            try self.encodeArchiveFields(to: &$0)
                        }
                    }

                    private func encodeArchiveFields<Writer: KeyedArchiving.ArchiveFieldWriter & ~Copyable>(to writer: inout Writer) throws {
                        try writer.encode(self.value, at: 1)
                    }
                }

                extension Holder: KeyedArchiving.ArchiveVersioned {
                    static var archiveVersion: Swift.Int {
                        1
                    }
                }
                """#
        )
    }

    /// A raw-value enum decodes its raw value and throws the standard library's error.
    @Test func rawValueEnum() {
        assertArchivable(
            #"""
            @Archivable
            public enum Mood: Swift.String {
                case calm
                case grumpy
            }
            """#,
            expandedSource: #"""
                public enum Mood: Swift.String {
                    case calm
                    case grumpy
                }

                nonisolated extension Mood: Swift.Decodable, Swift.Encodable {
                    public init(from decoder: any Swift.Decoder) throws {
                        let container = try decoder.singleValueContainer()
                        let rawValue = try container.decode(RawValue.self)
                        guard let value = Self(rawValue: rawValue) else {
                            throw Swift.DecodingError.dataCorrupted(
                                Swift.DecodingError.Context(
                                    codingPath: decoder.codingPath,
                                    debugDescription: "Cannot initialize \(Self.self) from invalid \(RawValue.self) value \(rawValue)"
                                )
                            )
                        }
                        self = value
                    }

                    public func encode(to encoder: any Swift.Encoder) throws {
                        var container = encoder.singleValueContainer()
                        try container.encode(self.rawValue)
                    }
                }

                nonisolated extension Mood: KeyedArchiving.ArchiveVersioned {
                    public static var archiveVersion: Swift.Int {
                        1
                    }
                }
                """#
        )
    }

    /// A raw-value enum with an unknown case decodes unknown raw values to it.
    @Test func rawValueEnumUnknownCase() {
        assertArchivable(
            #"""
            @Archivable
            enum Level: Int {
                case low = 1
                @ArchiveUnknownCase case unknown
            }
            """#,
            expandedSource: #"""
                enum Level: Int {
                    case low = 1
                    case unknown
                }

                nonisolated extension Level: Swift.Decodable, Swift.Encodable {
                    init(from decoder: any Swift.Decoder) throws {
                        let container = try decoder.singleValueContainer()
                        let rawValue = try container.decode(RawValue.self)
                        guard let value = Self(rawValue: rawValue) else {
                            KeyedArchiving.ArchiveEvolution.recordUnknownCase("\(rawValue)", decoding: Self.self, decoder: decoder)
                            self = .unknown
                            return
                        }
                        self = value
                    }

                    func encode(to encoder: any Swift.Encoder) throws {
                        var container = encoder.singleValueContainer()
                        try container.encode(self.rawValue)
                    }
                }

                nonisolated extension Level: KeyedArchiving.ArchiveVersioned {
                    static var archiveVersion: Swift.Int {
                        1
                    }
                }
                """#
        )
    }

    /// An enum with associated values is coded as synthesized `Codable` does.
    @Test func enumWithAssociatedValues() {
        assertArchivable(
            #"""
            @Archivable
            enum Shape {
                case dot
                case line(Int, label: String?)
                @ArchiveKey("square", "box") case square
                @ArchiveUnknownCase case unknown
            }
            """#,
            expandedSource: #"""
                enum Shape {
                    case dot
                    case line(Int, label: String?)
                    case square
                    case unknown
                }

                nonisolated extension Shape: Swift.Decodable, Swift.Encodable {
                    private enum CodingKeys: Swift.String, Swift.CodingKey {
                        case dot
                        case line
                        case square
                        case unknown
                        case square_1 = "box"

                        enum DotCodingKeys: Swift.CodingKey {
                        }

                        enum LineCodingKeys: Swift.String, Swift.CodingKey {
                            case _0
                            case label
                        }

                        enum SquareCodingKeys: Swift.CodingKey {
                        }

                        enum UnknownCodingKeys: Swift.CodingKey {
                        }
                    }

                    init(from decoder: any Swift.Decoder) throws {
                        let container = try decoder.container(keyedBy: CodingKeys.self)
                        if container.allKeys.count != 1 {
                            if container.allKeys.isEmpty {
                                KeyedArchiving.ArchiveEvolution.recordUnknownCase(
                                    KeyedArchiving.ArchiveEvolution.storedCaseNames(in: decoder),
                                    decoding: Self.self,
                                    decoder: decoder
                                )
                                self = .unknown
                                return
                            }
                            throw Swift.DecodingError.typeMismatch(
                                Self.self,
                                Swift.DecodingError.Context(
                                    codingPath: container.codingPath,
                                    debugDescription: "Invalid number of keys found, expected one."
                                )
                            )
                        }
                        switch container.allKeys[0] {
                        case .dot:
                            _ = try container.nestedContainer(keyedBy: CodingKeys.DotCodingKeys.self, forKey: .dot)
                            self = .dot
                        case .line:
                            let nested = try container.nestedContainer(keyedBy: CodingKeys.LineCodingKeys.self, forKey: .line)
                            self = .line(
                                try KeyedArchiving.ArchiveEvolution.decode(from: nested, forKey: ._0),
                                label: try KeyedArchiving.ArchiveEvolution.decodeIfPresent(from: nested, forKey: .label)
                            )
                        case .square, .square_1:
                            _ = try container.nestedContainer(keyedBy: CodingKeys.SquareCodingKeys.self, forKey: container.allKeys[0])
                            self = .square
                        case .unknown:
                            _ = try container.nestedContainer(keyedBy: CodingKeys.UnknownCodingKeys.self, forKey: .unknown)
                            self = .unknown
                        }
                    }

                    func encode(to encoder: any Swift.Encoder) throws {
                        var container = encoder.container(keyedBy: CodingKeys.self)
                        switch self {
                        case .dot:
                            _ = container.nestedContainer(keyedBy: CodingKeys.DotCodingKeys.self, forKey: .dot)
                        case let .line(value0, value1):
                            var nested = container.nestedContainer(keyedBy: CodingKeys.LineCodingKeys.self, forKey: .line)
                            try nested.encode(value0, forKey: ._0)
                            try nested.encodeIfPresent(value1, forKey: .label)
                        case .square:
                            _ = container.nestedContainer(keyedBy: CodingKeys.SquareCodingKeys.self, forKey: .square)
                        case .unknown:
                            _ = container.nestedContainer(keyedBy: CodingKeys.UnknownCodingKeys.self, forKey: .unknown)
                        }
                    }
                }

                nonisolated extension Shape: KeyedArchiving.ArchiveVersioned {
                    static var archiveVersion: Swift.Int {
                        1
                    }
                }
                """#
        )
    }

    /// Without an unknown case, any key count but one throws `typeMismatch`.
    @Test func enumWithoutUnknownCase() {
        assertArchivable(
            #"""
            @Archivable
            enum Choice {
                case one(x: Int)
            }
            """#,
            expandedSource: #"""
                enum Choice {
                    case one(x: Int)
                }

                nonisolated extension Choice: Swift.Decodable, Swift.Encodable {
                    private enum CodingKeys: Swift.String, Swift.CodingKey {
                        case one

                        enum OneCodingKeys: Swift.String, Swift.CodingKey {
                            case x
                        }
                    }

                    init(from decoder: any Swift.Decoder) throws {
                        let container = try decoder.container(keyedBy: CodingKeys.self)
                        if container.allKeys.count != 1 {
                            throw Swift.DecodingError.typeMismatch(
                                Self.self,
                                Swift.DecodingError.Context(
                                    codingPath: container.codingPath,
                                    debugDescription: "Invalid number of keys found, expected one."
                                )
                            )
                        }
                        switch container.allKeys[0] {
                        case .one:
                            let nested = try container.nestedContainer(keyedBy: CodingKeys.OneCodingKeys.self, forKey: .one)
                            self = .one(x: try KeyedArchiving.ArchiveEvolution.decode(from: nested, forKey: .x))
                        }
                    }

                    func encode(to encoder: any Swift.Encoder) throws {
                        var container = encoder.container(keyedBy: CodingKeys.self)
                        switch self {
                        case let .one(value0):
                            var nested = container.nestedContainer(keyedBy: CodingKeys.OneCodingKeys.self, forKey: .one)
                            try nested.encode(value0, forKey: .x)
                        }
                    }
                }

                nonisolated extension Choice: KeyedArchiving.ArchiveVersioned {
                    static var archiveVersion: Swift.Int {
                        1
                    }
                }
                """#
        )
    }
}
