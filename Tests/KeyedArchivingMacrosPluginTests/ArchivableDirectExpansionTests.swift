//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-keyed-archive open source project
//
// Licensed under Apache License v2.0
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import SwiftDiagnostics
import Testing

/// The direct conformances `@Archivable` adds to structs and final classes, beside the `Codable`
/// members the other tests show.
@Suite struct ArchivableDirectExpansionTests {
    @Test func structWithEveryRule() {
        assertArchivable(
            #"""
            @Archivable(version: 2, previousVersion: NoteV1.self)
            public struct Note {
                @ArchiveKey("heading") public var title: String
                var subtitle: String?
                var tags: [String] = []
                @ArchiveKey("color", "colour") var color: String
                var accent: String? = "blue"
                @ArchiveFallback var priority = 3
                @ArchiveIgnored var cache = 0
                var unknownFields = ArchiveUnknownFields()
            }
            """#,
            expandedSource: #"""
                public struct Note {
                    public var title: String
                    var subtitle: String?
                    var tags: [String] = []
                    var color: String
                    var accent: String? = "blue"
                    var priority = 3
                    var cache = 0
                    var unknownFields = ArchiveUnknownFields()
                }

                nonisolated extension Note: Swift.Decodable, Swift.Encodable {
                    private enum CodingKeys: Swift.String, KeyedArchiving.ArchiveFieldCodingKey {
                        case title = "heading"
                        case subtitle
                        case tags
                        case color
                        case accent
                        case priority
                        case color_1 = "colour"
                        case _archiveVersion = "archiveVersion"

                        init(archiveField index: Swift.Int) {
                            switch index {
                            case 1:
                                self = .title
                            case 2:
                                self = .subtitle
                            case 3:
                                self = .tags
                            case 4:
                                self = .color
                            case 5:
                                self = .accent
                            case 6:
                                self = .priority
                            case 7:
                                self = .color_1
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
                        let version = try reader.decodeVersion(of: Self.self, at: 0)
                        if version < Self.archiveVersion {
                            self = try reader.migrate(Self.self)
                            self.unknownFields = try KeyedArchiving.ArchiveUnknownFields(migrated: self.unknownFields, from: reader.decoder, knownKeys: ["heading", "subtitle", "tags", "color", "colour", "accent", "priority", "archiveVersion"], of: Self.self)
                            return
                        }
                        self.title = try reader.decode(at: 1)
                        self.subtitle = try reader.decodeIfPresent(at: 2)
                        try reader.decodeIfPresent(into: &self.tags, at: 3)
                        self.color = try reader.decode(at: reader.firstPresent(4, 7))
                        try reader.decodeOptional(into: &self.accent, at: 5)
                        do {
                            try reader.decodeIfPresent(into: &self.priority, at: 6)
                        } catch {
                            try reader.recordFallback(error, decoding: Self.self, at: 6)
                        }
                        self.unknownFields = try KeyedArchiving.ArchiveUnknownFields(from: reader.decoder, knownKeys: ["heading", "subtitle", "tags", "color", "colour", "accent", "priority", "archiveVersion"])
                    }

                    private func encodeArchiveFields<Writer: KeyedArchiving.ArchiveFieldWriter & ~Copyable>(to writer: inout Writer) throws {
                        try writer.encodeVersion(of: Self.self, at: 0)
                        try writer.encode(self.title, at: 1)
                        try writer.encodeIfPresent(self.subtitle, at: 2)
                        try writer.encodeDefaulted(self.tags, at: 3)
                        try writer.encode(self.color, at: 4)
                        try writer.encodeDefaulted(self.accent, at: 5)
                        try writer.encodeDefaulted(self.priority, at: 6)
                        try writer.encodeUnknownFields(self.unknownFields)
                    }
                }

                nonisolated extension Note: KeyedArchiving.ArchiveVersioned {
                    public static var archiveVersion: Swift.Int {
                        2
                    }
                }

                nonisolated extension Note: KeyedArchiving.ArchiveMigrating {
                    public typealias PreviousArchiveVersion = NoteV1
                }

                nonisolated extension Note: KeyedArchiving.ArchiveObjectEncodable, KeyedArchiving.ArchiveObjectDecodable {
                    public static var archiveObjectKeys: KeyedArchiving.ArchiveObjectKeys {
                        KeyedArchiving.ArchiveObjectKeys(["archiveVersion", "heading", "subtitle", "tags", "color", "accent", "priority", "colour"])
                    }

                    public func encodeArchiveObject(to writer: inout KeyedArchiving.ArchiveObjectWriter) throws {
                        try self.encodeArchiveFields(to: &writer)
                    }

                    public init(archiveObject reader: inout KeyedArchiving.ArchiveObjectReader) throws {
                        try self.init(archiveFields: &reader)
                    }
                }
                """#,
            direct: true
        )
    }

    /// A final class gets `init(archiveObject:)` in its body, beside `init(from:)`, and copies the
    /// migrated properties.
    @Test func finalClassWithMigration() {
        assertArchivable(
            #"""
            @Archivable(version: 2, previousVersion: BoxV1.self)
            final class Box {
                var name: String
                let id: Int
                var count = 0
                @ArchiveIgnored var cache = 0
            }
            """#,
            expandedSource: #"""
                final class Box {
                    var name: String
                    let id: Int
                    var count = 0
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
                            self.count = migrated.count
                            self.cache = migrated.cache
                            return
                        }
                        self.name = try reader.decode(at: 1)
                        self.id = try reader.decode(at: 2)
                        try reader.decodeIfPresent(into: &self.count, at: 3)
                    }

                    convenience init(archiveObject reader: inout KeyedArchiving.ArchiveObjectReader) throws {
                        try self.init(archiveFields: &reader)
                    }
                }

                extension Box: Swift.Decodable, Swift.Encodable {
                    private enum CodingKeys: Swift.String, KeyedArchiving.ArchiveFieldCodingKey {
                        case name
                        case id
                        case count
                        case _archiveVersion = "archiveVersion"

                        init(archiveField index: Swift.Int) {
                            switch index {
                            case 1:
                                self = .name
                            case 2:
                                self = .id
                            case 3:
                                self = .count
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
                        try writer.encodeDefaulted(self.count, at: 3)
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

                extension Box: KeyedArchiving.ArchiveObjectEncodable, KeyedArchiving.ArchiveObjectDecodable {
                    static var archiveObjectKeys: KeyedArchiving.ArchiveObjectKeys {
                        KeyedArchiving.ArchiveObjectKeys(["archiveVersion", "name", "id", "count"])
                    }

                    func encodeArchiveObject(to writer: inout KeyedArchiving.ArchiveObjectWriter) throws {
                        try self.encodeArchiveFields(to: &writer)
                    }
                }
                """#,
            direct: true
        )
    }

    /// The conformances of a generic type are conditioned on the parameters its archived
    /// properties' (or cases' values') types mention, as synthesized `Codable` needs them: a
    /// phantom parameter, or one only an ignored property uses, is not; a property wrapper's type
    /// counts, as the storage's; `codableParameters:` names them instead; a property whose type is
    /// not written out conditions on all.
    @Test func genericConditionsFollowTheArchivedTypes() {
        func whereClauses(_ source: String) -> Set<String> {
            let expanded = expandArchivable(source)
            #expect(expanded.diagnostics.isEmpty, "\(expanded.diagnostics.map(\.message))")
            return Set(
                expanded.source.split(separator: "\n").compactMap { line in
                    line.firstRange(of: " where ").map { String(line[$0.upperBound...].dropLast(2)) }
                }
            )
        }
        #expect(
            whereClauses(
                "@Archivable\nstruct Tagged<Tag, Value> {\n    var value: [String: Value]\n    "
                    + "@ArchiveIgnored var tag: Tag? = nil\n}"
            ) == ["Value: Swift.Codable"]
        )
        #expect(whereClauses("@Archivable\nstruct Measure<Unit> {\n    var amount: Double\n}").isEmpty)
        #expect(
            whereClauses("@Archivable\nenum Outcome<Success, Tag> {\n    case done(Success)\n    case failed\n}")
                == ["Success: Swift.Codable"]
        )
        #expect(
            whereClauses(
                "@Archivable(codableParameters: [])\nstruct Item<Tag> {\n    var id: PhantomID<Tag>\n}"
            ).isEmpty
        )
        #expect(
            whereClauses("@Archivable\nstruct Pair<A, B> {\n    var first: A\n    var count = 0\n}")
                == ["A: Swift.Codable"]
        )
        #expect(
            whereClauses("@Archivable\nstruct Pair<A, B> {\n    var first: A\n    var second = B.zero\n}")
                == ["A: Swift.Codable, B: Swift.Codable"]
        )
        // A wrapper's type is the storage's: its parameters condition too.
        #expect(
            whereClauses("@Archivable\nstruct Score<Mark> {\n    @Marked<Mark> var points: Int\n}")
                == ["Mark: Swift.Codable"]
        )
        #expect(whereClauses("@Archivable\nstruct Score<Mark> {\n    @MainActor var points: Int\n}").isEmpty)
    }

    /// A generic type's direct extension has the `Codable` extension's requirements, and so has a
    /// generic final class's `init(archiveObject:)`.
    @Test func genericTypes() {
        assertArchivable(
            #"""
            @Archivable
            public struct Page<Element> {
                public var items: [Element]
                public var next: Int?
            }

            @Archivable
            final class Holder<Value> {
                var value: Value
            }
            """#,
            expandedSource: #"""
                public struct Page<Element> {
                    public var items: [Element]
                    public var next: Int?
                }
                final class Holder<Value> {
                    var value: Value

                    convenience init(from decoder: any Swift.Decoder) throws where Value: Swift.Codable {
                        var reader = try KeyedArchiving.ArchiveContainerFieldReader<CodingKeys>(decoder)
                        try self.init(archiveFields: &reader)
                    }

                    private init<Reader: KeyedArchiving.ArchiveFieldReader & ~Copyable>(archiveFields reader: inout Reader) throws where Value: Swift.Codable {
                        _ = try reader.decodeVersion(of: Self.self, at: 0)
                        self.value = try reader.decode(at: 1)
                    }

                    convenience init(archiveObject reader: inout KeyedArchiving.ArchiveObjectReader) throws where Value: Swift.Codable {
                        try self.init(archiveFields: &reader)
                    }
                }

                nonisolated extension Page: Swift.Decodable, Swift.Encodable where Element: Swift.Codable {
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
                        self.items = try reader.decode(at: 1)
                        self.next = try reader.decodeIfPresent(at: 2)
                    }

                    private func encodeArchiveFields<Writer: KeyedArchiving.ArchiveFieldWriter & ~Copyable>(to writer: inout Writer) throws {
                        try writer.encode(self.items, at: 1)
                        try writer.encodeIfPresent(self.next, at: 2)
                    }
                }

                nonisolated extension Page: KeyedArchiving.ArchiveVersioned {
                    public static var archiveVersion: Swift.Int {
                        1
                    }
                }

                nonisolated extension Page: KeyedArchiving.ArchiveObjectEncodable, KeyedArchiving.ArchiveObjectDecodable where Element: Swift.Codable {
                    public static var archiveObjectKeys: KeyedArchiving.ArchiveObjectKeys {
                        KeyedArchiving.ArchiveObjectKeys(["archiveVersion", "items", "next"])
                    }

                    public func encodeArchiveObject(to writer: inout KeyedArchiving.ArchiveObjectWriter) throws {
                        try self.encodeArchiveFields(to: &writer)
                    }

                    public init(archiveObject reader: inout KeyedArchiving.ArchiveObjectReader) throws {
                        try self.init(archiveFields: &reader)
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

                extension Holder: KeyedArchiving.ArchiveObjectEncodable, KeyedArchiving.ArchiveObjectDecodable where Value: Swift.Codable {
                    static var archiveObjectKeys: KeyedArchiving.ArchiveObjectKeys {
                        KeyedArchiving.ArchiveObjectKeys(["archiveVersion", "value"])
                    }

                    func encodeArchiveObject(to writer: inout KeyedArchiving.ArchiveObjectWriter) throws {
                        try self.encodeArchiveFields(to: &writer)
                    }
                }
                """#,
            direct: true
        )
    }

    /// A type with nothing to archive still reads its version, so that newer data is refused.
    @Test func emptyType() {
        assertArchivable(
            #"""
            @Archivable
            struct Marker {
                @ArchiveIgnored var cache = 0
            }
            """#,
            expandedSource: #"""
                struct Marker {
                    var cache = 0
                }

                nonisolated extension Marker: Swift.Decodable, Swift.Encodable {
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

                nonisolated extension Marker: KeyedArchiving.ArchiveVersioned {
                    static var archiveVersion: Swift.Int {
                        1
                    }
                }

                nonisolated extension Marker: KeyedArchiving.ArchiveObjectEncodable, KeyedArchiving.ArchiveObjectDecodable {
                    static var archiveObjectKeys: KeyedArchiving.ArchiveObjectKeys {
                        KeyedArchiving.ArchiveObjectKeys(["archiveVersion"])
                    }

                    func encodeArchiveObject(to writer: inout KeyedArchiving.ArchiveObjectWriter) throws {
                        try self.encodeArchiveFields(to: &writer)
                    }

                    init(archiveObject reader: inout KeyedArchiving.ArchiveObjectReader) throws {
                        try self.init(archiveFields: &reader)
                    }
                }
                """#,
            direct: true
        )
    }

    /// An enum with `String` raw values conforms to `ArchiveRawValueCodable`: it is stored as its raw
    /// string, and a string none of its cases has is what `init(from:)` makes of it.
    @Test func rawStringEnums() {
        assertArchivable(
            #"""
            @Archivable
            enum Mood: String {
                case calm, playful
            }

            @Archivable
            public enum Size: Swift.String {
                case small
                @ArchiveUnknownCase case unknown
            }
            """#,
            expandedSource: #"""
                enum Mood: String {
                    case calm, playful
                }
                public enum Size: Swift.String {
                    case small
                    case unknown
                }

                nonisolated extension Mood: Swift.Decodable, Swift.Encodable {
                    init(from decoder: any Swift.Decoder) throws {
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

                    func encode(to encoder: any Swift.Encoder) throws {
                        var container = encoder.singleValueContainer()
                        try container.encode(self.rawValue)
                    }
                }

                nonisolated extension Mood: KeyedArchiving.ArchiveVersioned {
                    static var archiveVersion: Swift.Int {
                        1
                    }
                }

                nonisolated extension Mood: KeyedArchiving.ArchiveRawValueCodable {
                    init(archiveRawValue rawValue: Swift.String, decoder: @autoclosure () -> any Swift.Decoder) throws {
                        if let value = Self(rawValue: rawValue) {
                            self = value
                            return
                        }
                        throw Swift.DecodingError.dataCorrupted(
                            Swift.DecodingError.Context(
                                codingPath: decoder().codingPath,
                                debugDescription: "Cannot initialize \(Self.self) from invalid \(RawValue.self) value \(rawValue)"
                            )
                        )
                    }
                }

                nonisolated extension Size: Swift.Decodable, Swift.Encodable {
                    public init(from decoder: any Swift.Decoder) throws {
                        let container = try decoder.singleValueContainer()
                        let rawValue = try container.decode(RawValue.self)
                        guard let value = Self(rawValue: rawValue) else {
                            KeyedArchiving.ArchiveEvolution.recordUnknownCase("\(rawValue)", decoding: Self.self, decoder: decoder)
                            self = .unknown
                            return
                        }
                        self = value
                    }

                    public func encode(to encoder: any Swift.Encoder) throws {
                        var container = encoder.singleValueContainer()
                        try container.encode(self.rawValue)
                    }
                }

                nonisolated extension Size: KeyedArchiving.ArchiveVersioned {
                    public static var archiveVersion: Swift.Int {
                        1
                    }
                }

                nonisolated extension Size: KeyedArchiving.ArchiveRawValueCodable {
                    public init(archiveRawValue rawValue: Swift.String, decoder: @autoclosure () -> any Swift.Decoder) throws {
                        if let value = Self(rawValue: rawValue) {
                            self = value
                            return
                        }
                        KeyedArchiving.ArchiveEvolution.recordUnknownCase(rawValue, decoding: Self.self, decoder: decoder())
                        self = .unknown
                    }
                }
                """#,
            direct: true
        )
    }

    /// Other enums keep the `Codable` path: they get no direct extension.
    @Test func otherEnumsGetNoDirectExtension() {
        assertArchivable(
            #"""
            @Archivable
            enum Level: Int {
                case low = 1
            }

            @Archivable
            enum Event {
                case opened(at: Int)
            }
            """#,
            expandedSource: #"""
                enum Level: Int {
                    case low = 1
                }
                enum Event {
                    case opened(at: Int)
                }

                nonisolated extension Level: Swift.Decodable, Swift.Encodable {
                    init(from decoder: any Swift.Decoder) throws {
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

                nonisolated extension Event: Swift.Decodable, Swift.Encodable {
                    private enum CodingKeys: Swift.String, Swift.CodingKey {
                        case opened

                        enum OpenedCodingKeys: Swift.String, Swift.CodingKey {
                            case at
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
                        case .opened:
                            let nested = try container.nestedContainer(keyedBy: CodingKeys.OpenedCodingKeys.self, forKey: .opened)
                            self = .opened(at: try KeyedArchiving.ArchiveEvolution.decode(from: nested, forKey: .at))
                        }
                    }

                    func encode(to encoder: any Swift.Encoder) throws {
                        var container = encoder.container(keyedBy: CodingKeys.self)
                        switch self {
                        case let .opened(value0):
                            var nested = container.nestedContainer(keyedBy: CodingKeys.OpenedCodingKeys.self, forKey: .opened)
                            try nested.encode(value0, forKey: .at)
                        }
                    }
                }

                nonisolated extension Event: KeyedArchiving.ArchiveVersioned {
                    static var archiveVersion: Swift.Int {
                        1
                    }
                }
                """#,
            direct: true
        )
    }

    /// Properties inside `#if`: each field's statements under its condition (nested blocks joined
    /// with `&&`, a property declared in two clauses under either), and the known keys of the
    /// unknown fields only where a property is declared.
    @Test func conditionalProperties() {
        assertArchivable(
            #"""
            @Archivable
            struct Cat {
                var name: String
                #if os(iOS)
                #if DEBUG
                var note: String?
                #endif
                #elseif os(macOS)
                var level = 1
                #else
                var level = 2
                #endif
                var unknownFields = ArchiveUnknownFields()
            }
            """#,
            expandedSource: #"""
                struct Cat {
                    var name: String
                    #if os(iOS)
                    #if DEBUG
                    var note: String?
                    #endif
                    #elseif os(macOS)
                    var level = 1
                    #else
                    var level = 2
                    #endif
                    var unknownFields = ArchiveUnknownFields()
                }

                nonisolated extension Cat: Swift.Decodable, Swift.Encodable {
                    private enum CodingKeys: Swift.String, KeyedArchiving.ArchiveFieldCodingKey {
                        case name
                        case note
                        case level
                        case _archiveVersion = "archiveVersion"

                        init(archiveField index: Swift.Int) {
                            switch index {
                            case 1:
                                self = .name
                            case 2:
                                self = .note
                            case 3:
                                self = .level
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
                        #if ((os(iOS))) && (DEBUG)
                        self.note = try reader.decodeIfPresent(at: 2)
                        #endif
                        #if (!(os(iOS)) && (os(macOS))) || (!(os(iOS)) && !(os(macOS)))
                        try reader.decodeIfPresent(into: &self.level, at: 3)
                        #endif
                        var knownKeys: Swift.Set<Swift.String> = ["name", "archiveVersion"]
                        #if ((os(iOS))) && (DEBUG)
                        knownKeys.insert("note")
                        #endif
                        #if (!(os(iOS)) && (os(macOS))) || (!(os(iOS)) && !(os(macOS)))
                        knownKeys.insert("level")
                        #endif
                        self.unknownFields = try KeyedArchiving.ArchiveUnknownFields(from: reader.decoder, knownKeys: knownKeys)
                    }

                    private func encodeArchiveFields<Writer: KeyedArchiving.ArchiveFieldWriter & ~Copyable>(to writer: inout Writer) throws {
                        try writer.encode(self.name, at: 1)
                        #if ((os(iOS))) && (DEBUG)
                        try writer.encodeIfPresent(self.note, at: 2)
                        #endif
                        #if (!(os(iOS)) && (os(macOS))) || (!(os(iOS)) && !(os(macOS)))
                        try writer.encodeDefaulted(self.level, at: 3)
                        #endif
                        try writer.encodeUnknownFields(self.unknownFields)
                    }
                }

                nonisolated extension Cat: KeyedArchiving.ArchiveVersioned {
                    static var archiveVersion: Swift.Int {
                        1
                    }
                }

                nonisolated extension Cat: KeyedArchiving.ArchiveObjectEncodable, KeyedArchiving.ArchiveObjectDecodable {
                    static var archiveObjectKeys: KeyedArchiving.ArchiveObjectKeys {
                        KeyedArchiving.ArchiveObjectKeys(["archiveVersion", "name", "note", "level"])
                    }

                    func encodeArchiveObject(to writer: inout KeyedArchiving.ArchiveObjectWriter) throws {
                        try self.encodeArchiveFields(to: &writer)
                    }

                    init(archiveObject reader: inout KeyedArchiving.ArchiveObjectReader) throws {
                        try self.init(archiveFields: &reader)
                    }
                }
                """#,
            direct: true
        )
    }
}
