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
                    private enum CodingKeys: Swift.String, Swift.CodingKey {
                        case name
                        case _archiveVersion = "archiveVersion"
                    }

                    init(from decoder: any Swift.Decoder) throws {
                        let container = try decoder.container(keyedBy: CodingKeys.self)
                        _ = try KeyedArchiving.ArchiveEvolution.decodeVersion(
                            of: Self.self,
                            from: container,
                            forKey: ._archiveVersion,
                            decoder: decoder
                        )
                        self.name = try KeyedArchiving.ArchiveEvolution.decode(from: container, forKey: .name)
                    }

                    func encode(to encoder: any Swift.Encoder) throws {
                        var container = encoder.container(keyedBy: CodingKeys.self)
                        try KeyedArchiving.ArchiveEvolution.encode(self.name, to: &container, forKey: .name)
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
                    private enum CodingKeys: Swift.String, Swift.CodingKey {
                        case color
                        case tag
                        case owner
                        case _archiveVersion = "archiveVersion"
                    }

                    init(from decoder: any Swift.Decoder) throws {
                        let container = try decoder.container(keyedBy: CodingKeys.self)
                        _ = try KeyedArchiving.ArchiveEvolution.decodeVersion(
                            of: Self.self,
                            from: container,
                            forKey: ._archiveVersion,
                            decoder: decoder
                        )
                        self.color = try KeyedArchiving.ArchiveEvolution.decodeIfPresent(from: container, forKey: .color)
                        self.tag = try KeyedArchiving.ArchiveEvolution.decodeIfPresent(from: container, forKey: .tag)
                        self.owner = try KeyedArchiving.ArchiveEvolution.decodeIfPresent(from: container, forKey: .owner)
                    }

                    func encode(to encoder: any Swift.Encoder) throws {
                        var container = encoder.container(keyedBy: CodingKeys.self)
                        try container.encodeIfPresent(self.color, forKey: .color)
                        try container.encodeIfPresent(self.tag, forKey: .tag)
                        try container.encodeIfPresent(self.owner, forKey: .owner)
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
                    private enum CodingKeys: Swift.String, Swift.CodingKey {
                        case lives
                        case weight
                        case _archiveVersion = "archiveVersion"
                    }

                    public init(from decoder: any Swift.Decoder) throws {
                        let container = try decoder.container(keyedBy: CodingKeys.self)
                        _ = try KeyedArchiving.ArchiveEvolution.decodeVersion(
                            of: Self.self,
                            from: container,
                            forKey: ._archiveVersion,
                            decoder: decoder
                        )
                        try KeyedArchiving.ArchiveEvolution.decodeIfPresent(into: &self.lives, from: container, forKey: .lives)
                        try KeyedArchiving.ArchiveEvolution.decodeIfPresent(into: &self.weight, from: container, forKey: .weight)
                    }

                    public func encode(to encoder: any Swift.Encoder) throws {
                        var container = encoder.container(keyedBy: CodingKeys.self)
                        try container.encode(self.lives, forKey: .lives)
                        try container.encode(self.weight, forKey: .weight)
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
                    private enum CodingKeys: Swift.String, Swift.CodingKey {
                        case nickname
                        case _archiveVersion = "archiveVersion"
                    }

                    init(from decoder: any Swift.Decoder) throws {
                        let container = try decoder.container(keyedBy: CodingKeys.self)
                        _ = try KeyedArchiving.ArchiveEvolution.decodeVersion(
                            of: Self.self,
                            from: container,
                            forKey: ._archiveVersion,
                            decoder: decoder
                        )
                        try KeyedArchiving.ArchiveEvolution.decodeOptional(into: &self.nickname, from: container, forKey: .nickname)
                    }

                    func encode(to encoder: any Swift.Encoder) throws {
                        var container = encoder.container(keyedBy: CodingKeys.self)
                        try KeyedArchiving.ArchiveEvolution.encodeOptional(self.nickname, to: &container, forKey: .nickname)
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
                    private enum CodingKeys: Swift.String, Swift.CodingKey {
                        case mood
                        case _archiveVersion = "archiveVersion"
                    }

                    init(from decoder: any Swift.Decoder) throws {
                        let container = try decoder.container(keyedBy: CodingKeys.self)
                        _ = try KeyedArchiving.ArchiveEvolution.decodeVersion(
                            of: Self.self,
                            from: container,
                            forKey: ._archiveVersion,
                            decoder: decoder
                        )
                        do {
                            try KeyedArchiving.ArchiveEvolution.decodeIfPresent(into: &self.mood, from: container, forKey: .mood)
                        } catch {
                            try KeyedArchiving.ArchiveEvolution.recordFallback(
                                from: error,
                                decoding: Self.self,
                                key: "mood",
                                codingPath: container.codingPath + [CodingKeys.mood],
                                decoder: decoder
                            )
                        }
                    }

                    func encode(to encoder: any Swift.Encoder) throws {
                        var container = encoder.container(keyedBy: CodingKeys.self)
                        try container.encode(self.mood, forKey: .mood)
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
                    private enum CodingKeys: Swift.String, Swift.CodingKey {
                        case _archiveVersion = "archiveVersion"
                    }

                    init(from decoder: any Swift.Decoder) throws {
                        let container = try decoder.container(keyedBy: CodingKeys.self)
                        _ = try KeyedArchiving.ArchiveEvolution.decodeVersion(
                            of: Self.self,
                            from: container,
                            forKey: ._archiveVersion,
                            decoder: decoder
                        )
                    }

                    func encode(to encoder: any Swift.Encoder) throws {
                        _ = encoder.container(keyedBy: CodingKeys.self)
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
                    private enum CodingKeys: Swift.String, Swift.CodingKey {
                        case name
                        case color
                        case color_1 = "colour"
                        case _archiveVersion = "archiveVersion"
                    }

                    init(from decoder: any Swift.Decoder) throws {
                        let container = try decoder.container(keyedBy: CodingKeys.self)
                        _ = try KeyedArchiving.ArchiveEvolution.decodeVersion(
                            of: Self.self,
                            from: container,
                            forKey: ._archiveVersion,
                            decoder: decoder
                        )
                        self.name = try KeyedArchiving.ArchiveEvolution.decode(from: container, forKey: .name)
                        try KeyedArchiving.ArchiveEvolution.decodeIfPresent(into: &self.color, from: container, forKey: KeyedArchiving.ArchiveEvolution.firstPresentKey(of: [.color, .color_1], in: container))
                        self.unknownFields = try KeyedArchiving.ArchiveUnknownFields(from: decoder, knownKeys: ["name", "color", "colour", "archiveVersion"])
                    }

                    func encode(to encoder: any Swift.Encoder) throws {
                        var container = encoder.container(keyedBy: CodingKeys.self)
                        try KeyedArchiving.ArchiveEvolution.encode(self.name, to: &container, forKey: .name)
                        try container.encode(self.color, forKey: .color)
                        try self.unknownFields.encode(to: encoder)
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
                    private enum CodingKeys: Swift.String, Swift.CodingKey {
                        case color = "colour"
                        case color_1
                        case `default`
                        case color_1_ = "color"
                        case color_2 = "tint"
                        case _archiveVersion = "archiveVersion"
                    }

                    init(from decoder: any Swift.Decoder) throws {
                        let container = try decoder.container(keyedBy: CodingKeys.self)
                        _ = try KeyedArchiving.ArchiveEvolution.decodeVersion(
                            of: Self.self,
                            from: container,
                            forKey: ._archiveVersion,
                            decoder: decoder
                        )
                        self.color = try KeyedArchiving.ArchiveEvolution.decode(from: container, forKey: KeyedArchiving.ArchiveEvolution.firstPresentKey(of: [.color, .color_1_, .color_2], in: container))
                        try KeyedArchiving.ArchiveEvolution.decodeIfPresent(into: &self.color_1, from: container, forKey: .color_1)
                        try KeyedArchiving.ArchiveEvolution.decodeIfPresent(into: &self.`default`, from: container, forKey: .`default`)
                    }

                    func encode(to encoder: any Swift.Encoder) throws {
                        var container = encoder.container(keyedBy: CodingKeys.self)
                        try KeyedArchiving.ArchiveEvolution.encode(self.color, to: &container, forKey: .color)
                        try container.encode(self.color_1, forKey: .color_1)
                        try container.encode(self.`default`, forKey: .`default`)
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
                    private enum CodingKeys: Swift.String, Swift.CodingKey {
                        case _archiveVersion = "archiveVersion"
                    }

                    init(from decoder: any Swift.Decoder) throws {
                        let container = try decoder.container(keyedBy: CodingKeys.self)
                        _ = try KeyedArchiving.ArchiveEvolution.decodeVersion(
                            of: Self.self,
                            from: container,
                            forKey: ._archiveVersion,
                            decoder: decoder
                        )
                    }

                    func encode(to encoder: any Swift.Encoder) throws {
                        _ = encoder.container(keyedBy: CodingKeys.self)
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
                    private enum CodingKeys: Swift.String, Swift.CodingKey {
                        case name
                        case _archiveVersion = "v"
                    }

                    package init(from decoder: any Swift.Decoder) throws {
                        let container = try decoder.container(keyedBy: CodingKeys.self)
                        let version = try KeyedArchiving.ArchiveEvolution.decodeVersion(
                            of: Self.self,
                            from: container,
                            forKey: ._archiveVersion,
                            decoder: decoder
                        )
                        if version < Self.archiveVersion {
                            self = try KeyedArchiving.ArchiveEvolution.migrate(Self.self, from: decoder)
                            return
                        }
                        self.name = try KeyedArchiving.ArchiveEvolution.decode(from: container, forKey: .name)
                    }

                    package func encode(to encoder: any Swift.Encoder) throws {
                        var container = encoder.container(keyedBy: CodingKeys.self)
                        try KeyedArchiving.ArchiveEvolution.encodeVersion(of: Self.self, to: &container, forKey: ._archiveVersion)
                        try KeyedArchiving.ArchiveEvolution.encode(self.name, to: &container, forKey: .name)
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
                    private enum CodingKeys: Swift.String, Swift.CodingKey {
                        case name
                        case _archiveVersion = "archiveVersion"
                    }

                    init(from decoder: any Swift.Decoder) throws {
                        let container = try decoder.container(keyedBy: CodingKeys.self)
                        _ = try KeyedArchiving.ArchiveEvolution.decodeVersion(
                            of: Self.self,
                            from: container,
                            forKey: ._archiveVersion,
                            decoder: decoder
                        )
                        self.name = try KeyedArchiving.ArchiveEvolution.decode(from: container, forKey: .name)
                    }

                    func encode(to encoder: any Swift.Encoder) throws {
                        var container = encoder.container(keyedBy: CodingKeys.self)
                        try KeyedArchiving.ArchiveEvolution.encodeVersion(of: Self.self, to: &container, forKey: ._archiveVersion)
                        try KeyedArchiving.ArchiveEvolution.encode(self.name, to: &container, forKey: .name)
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
                    private enum CodingKeys: Swift.String, Swift.CodingKey {
                        case name
                        case _archiveVersion = "archiveVersion"
                    }

                    init(from decoder: any Swift.Decoder) throws {
                        let container = try decoder.container(keyedBy: CodingKeys.self)
                        _ = try KeyedArchiving.ArchiveEvolution.decodeVersion(
                            of: Self.self,
                            from: container,
                            forKey: ._archiveVersion,
                            decoder: decoder
                        )
                        self.name = try KeyedArchiving.ArchiveEvolution.decode(from: container, forKey: .name)
                    }

                    func encode(to encoder: any Swift.Encoder) throws {
                        var container = encoder.container(keyedBy: CodingKeys.self)
                        try KeyedArchiving.ArchiveEvolution.encode(self.name, to: &container, forKey: .name)
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

                    public init(from decoder: any Swift.Decoder) throws {
                        let container = try decoder.container(keyedBy: CodingKeys.self)
                        _ = try KeyedArchiving.ArchiveEvolution.decodeVersion(
                            of: Self.self,
                            from: container,
                            forKey: ._archiveVersion,
                            decoder: decoder
                        )
                        try KeyedArchiving.ArchiveEvolution.decodeIfPresent(into: &self.width, from: container, forKey: .width)
                        self.title = try KeyedArchiving.ArchiveEvolution.decodeIfPresent(from: container, forKey: .title)
                    }

                    public init() {
                    }
                }

                extension Box: Swift.Decodable, Swift.Encodable {
                    private enum CodingKeys: Swift.String, Swift.CodingKey {
                        case width
                        case title
                        case _archiveVersion = "archiveVersion"
                    }

                    public func encode(to encoder: any Swift.Encoder) throws {
                        var container = encoder.container(keyedBy: CodingKeys.self)
                        try container.encode(self.width, forKey: .width)
                        try container.encodeIfPresent(self.title, forKey: .title)
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

                    init(from decoder: any Swift.Decoder) throws {
                        let container = try decoder.container(keyedBy: CodingKeys.self)
                        _ = try KeyedArchiving.ArchiveEvolution.decodeVersion(
                            of: Self.self,
                            from: container,
                            forKey: ._archiveVersion,
                            decoder: decoder
                        )
                        self.name = try KeyedArchiving.ArchiveEvolution.decode(from: container, forKey: .name)
                    }
                }

                extension Box: Swift.Decodable, Swift.Encodable {
                    private enum CodingKeys: Swift.String, Swift.CodingKey {
                        case name
                        case _archiveVersion = "archiveVersion"
                    }

                    func encode(to encoder: any Swift.Encoder) throws {
                        var container = encoder.container(keyedBy: CodingKeys.self)
                        try KeyedArchiving.ArchiveEvolution.encode(self.name, to: &container, forKey: .name)
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

                    init(from decoder: any Swift.Decoder) throws {
                        let container = try decoder.container(keyedBy: CodingKeys.self)
                        let version = try KeyedArchiving.ArchiveEvolution.decodeVersion(
                            of: Self.self,
                            from: container,
                            forKey: ._archiveVersion,
                            decoder: decoder
                        )
                        if version < Self.archiveVersion {
                            let migrated = try KeyedArchiving.ArchiveEvolution.migrate(Self.self, from: decoder)
                            self.name = migrated.name
                            self.id = migrated.id
                            self.cache = migrated.cache
                            return
                        }
                        self.name = try KeyedArchiving.ArchiveEvolution.decode(from: container, forKey: .name)
                        self.id = try KeyedArchiving.ArchiveEvolution.decode(from: container, forKey: .id)
                    }
                }

                extension Box: Swift.Decodable, Swift.Encodable {
                    private enum CodingKeys: Swift.String, Swift.CodingKey {
                        case name
                        case id
                        case _archiveVersion = "archiveVersion"
                    }

                    func encode(to encoder: any Swift.Encoder) throws {
                        var container = encoder.container(keyedBy: CodingKeys.self)
                        try KeyedArchiving.ArchiveEvolution.encodeVersion(of: Self.self, to: &container, forKey: ._archiveVersion)
                        try KeyedArchiving.ArchiveEvolution.encode(self.name, to: &container, forKey: .name)
                        try KeyedArchiving.ArchiveEvolution.encode(self.id, to: &container, forKey: .id)
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
                    private enum CodingKeys: Swift.String, Swift.CodingKey {
                        case items
                        case next
                        case _archiveVersion = "archiveVersion"
                    }

                    init(from decoder: any Swift.Decoder) throws {
                        let container = try decoder.container(keyedBy: CodingKeys.self)
                        _ = try KeyedArchiving.ArchiveEvolution.decodeVersion(
                            of: Self.self,
                            from: container,
                            forKey: ._archiveVersion,
                            decoder: decoder
                        )
                        self.items = try KeyedArchiving.ArchiveEvolution.decode(from: container, forKey: .items)
                        self.next = try KeyedArchiving.ArchiveEvolution.decodeIfPresent(from: container, forKey: .next)
                    }

                    func encode(to encoder: any Swift.Encoder) throws {
                        var container = encoder.container(keyedBy: CodingKeys.self)
                        try KeyedArchiving.ArchiveEvolution.encode(self.items, to: &container, forKey: .items)
                        try container.encodeIfPresent(self.next, forKey: .next)
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

                    init(from decoder: any Swift.Decoder) throws where Value: Swift.Codable {
                        let container = try decoder.container(keyedBy: CodingKeys.self)
                        _ = try KeyedArchiving.ArchiveEvolution.decodeVersion(
                            of: Self.self,
                            from: container,
                            forKey: ._archiveVersion,
                            decoder: decoder
                        )
                        self.value = try KeyedArchiving.ArchiveEvolution.decode(from: container, forKey: .value)
                    }
                }

                extension Holder: Swift.Decodable, Swift.Encodable where Value: Swift.Codable {
                    private enum CodingKeys: Swift.String, Swift.CodingKey {
                        case value
                        case _archiveVersion = "archiveVersion"
                    }

                    func encode(to encoder: any Swift.Encoder) throws {
                        var container = encoder.container(keyedBy: CodingKeys.self)
                        try KeyedArchiving.ArchiveEvolution.encode(self.value, to: &container, forKey: .value)
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
