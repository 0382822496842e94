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

/// What `@ArchivableClass` and `@Archivable` generate for classes in a hierarchy: a class that is
/// not final, a subclass of an `@ArchivableClass` class, a final subclass of `NSObject` and one of
/// a plain `Codable` class. Each is given the conformances the compiler asks for: all of them for a root class, none
/// for a subclass of an `@Archivable` class, all but `Codable`'s for a subclass of a `Codable` one.
@Suite struct ArchivableHierarchyExpansionTests {
    /// The `Codable` members and `init(archiveObject:)` go in the body, where a subclass overrides
    /// them; the initializers are `required` and read the fields themselves.
    @Test func rootClassThatIsNotFinal() {
        assertArchivable(
            #"""
            @ArchivableClass
            open class Animal {
                var name: String
                var tags: [String] = []
            }
            """#,
            expandedSource: #"""
                open class Animal {
                    var name: String
                    var tags: [String] = []

                    public required init(from decoder: any Swift.Decoder) throws {
                        let reader = try KeyedArchiving.ArchiveContainerFieldReader<CodingKeys>(decoder)
                        _ = try reader.decodeVersion(of: Animal.self, at: 0)
                        self.name = try reader.decode(at: 1)
                        try reader.decodeIfPresent(into: &self.tags, at: 2)
                    }

                    open func encode(to encoder: any Swift.Encoder) throws {
                        try KeyedArchiving.ArchiveContainerFieldWriter<CodingKeys>.write(to: encoder) {
                            try self.encodeArchiveFields(to: &$0)
                        }
                    }

                    public required init(archiveObject reader: inout KeyedArchiving.ArchiveObjectReader) throws {
                        _ = try reader.decodeVersion(of: Animal.self, at: 0)
                        self.name = try reader.decode(at: 1)
                        try reader.decodeIfPresent(into: &self.tags, at: 2)
                    }
                }

                extension Animal: Swift.Decodable, Swift.Encodable {
                    private enum CodingKeys: Swift.String, KeyedArchiving.ArchiveFieldCodingKey {
                        case name
                        case tags
                        case _archiveVersion = "archiveVersion"

                        init(archiveField index: Swift.Int) {
                            switch index {
                            case 1:
                                self = .name
                            case 2:
                                self = .tags
                            default:
                                self = ._archiveVersion
                            }
                        }
                    }

                    private func encodeArchiveFields<Writer: KeyedArchiving.ArchiveFieldWriter & ~Copyable>(to writer: inout Writer) throws {
                        try writer.encode(self.name, at: 1)
                        try writer.encodeDefaulted(self.tags, at: 2)
                    }
                }

                extension Animal: KeyedArchiving.ArchiveVersioned {
                    public static var archiveVersion: Swift.Int {
                        1
                    }
                }

                extension Animal: KeyedArchiving.ArchiveObjectEncodable, KeyedArchiving.ArchiveObjectDecodable {
                    public static var archiveObjectKeys: KeyedArchiving.ArchiveObjectKeys {
                        KeyedArchiving.ArchiveObjectKeys(["archiveVersion", "name", "tags"])
                    }

                    public func encodeArchiveObject(to writer: inout KeyedArchiving.ArchiveObjectWriter) throws {
                        try self.encodeArchiveFields(to: &writer)
                    }
                }
                """#,
            direct: true
        )
    }

    /// A subclass of an `@Archivable` class writes its superclass's fields first, reads its own
    /// and then its superclass's, and gets no conformance, no version and no direct extension.
    @Test func subclassOfArchivableClass() {
        assertArchivable(
            #"""
            @ArchivableClass
            class Dog: Animal {
                var breed: String
                var isGoodBoy = true
            }
            """#,
            expandedSource: #"""
                class Dog: Animal {
                    var breed: String
                    var isGoodBoy = true

                    required init(from decoder: any Swift.Decoder) throws {
                        let reader = try KeyedArchiving.ArchiveContainerFieldReader<CodingKeys>(decoder)
                        KeyedArchiving.ArchivableSuperclass.check(Animal.self)
                        self.breed = try reader.decode(at: 1)
                        try reader.decodeIfPresent(into: &self.isGoodBoy, at: 2)
                        try super.init(from: decoder)
                    }

                    override func encode(to encoder: any Swift.Encoder) throws {
                        try super.encode(to: encoder)
                        try KeyedArchiving.ArchiveContainerFieldWriter<CodingKeys>.write(to: encoder) {
                            try self.encodeArchiveFields(to: &$0)
                        }
                    }

                    required init(archiveObject reader: inout KeyedArchiving.ArchiveObjectReader) throws {
                        let decoder = reader.decoder
                        do {
                            let reader = try KeyedArchiving.ArchiveContainerFieldReader<CodingKeys>(decoder)
                            KeyedArchiving.ArchivableSuperclass.check(Animal.self)
                            self.breed = try reader.decode(at: 1)
                            try reader.decodeIfPresent(into: &self.isGoodBoy, at: 2)
                        }
                        try super.init(from: decoder)
                    }
                }

                extension Dog {
                    private enum CodingKeys: Swift.String, KeyedArchiving.ArchiveFieldCodingKey {
                        case breed
                        case isGoodBoy
                        case _archiveVersion = "archiveVersion"

                        init(archiveField index: Swift.Int) {
                            switch index {
                            case 1:
                                self = .breed
                            case 2:
                                self = .isGoodBoy
                            default:
                                self = ._archiveVersion
                            }
                        }
                    }

                    private func encodeArchiveFields<Writer: KeyedArchiving.ArchiveFieldWriter & ~Copyable>(to writer: inout Writer) throws {
                        try writer.encode(self.breed, at: 1)
                        try writer.encodeDefaulted(self.isGoodBoy, at: 2)
                    }
                }
                """#,
            conformances: []
        )
    }

    /// A final subclass of `NSObject` is a root class whose initializers call `super.init()`, and
    /// whose `init()` overrides `NSObject`'s.
    @Test func subclassOfNSObject() {
        assertArchivable(
            #"""
            @Archivable
            final class Vet: NSObject {
                var name = ""
            }
            """#,
            expandedSource: #"""
                final class Vet: NSObject {
                    var name = ""

                    required init(from decoder: any Swift.Decoder) throws {
                        let reader = try KeyedArchiving.ArchiveContainerFieldReader<CodingKeys>(decoder)
                        _ = try reader.decodeVersion(of: Vet.self, at: 0)
                        try reader.decodeIfPresent(into: &self.name, at: 1)
                        super.init()
                    }

                    func encode(to encoder: any Swift.Encoder) throws {
                        try KeyedArchiving.ArchiveContainerFieldWriter<CodingKeys>.write(to: encoder) {
                            try self.encodeArchiveFields(to: &$0)
                        }
                    }

                    required init(archiveObject reader: inout KeyedArchiving.ArchiveObjectReader) throws {
                        _ = try reader.decodeVersion(of: Vet.self, at: 0)
                        try reader.decodeIfPresent(into: &self.name, at: 1)
                        super.init()
                    }

                    override init() {
                    }
                }

                extension Vet: Swift.Decodable, Swift.Encodable {
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

                    private func encodeArchiveFields<Writer: KeyedArchiving.ArchiveFieldWriter & ~Copyable>(to writer: inout Writer) throws {
                        try writer.encodeDefaulted(self.name, at: 1)
                    }
                }

                extension Vet: KeyedArchiving.ArchiveVersioned {
                    static var archiveVersion: Swift.Int {
                        1
                    }
                }

                extension Vet: KeyedArchiving.ArchiveObjectEncodable, KeyedArchiving.ArchiveObjectDecodable {
                    static var archiveObjectKeys: KeyedArchiving.ArchiveObjectKeys {
                        KeyedArchiving.ArchiveObjectKeys(["archiveVersion", "name"])
                    }

                    func encodeArchiveObject(to writer: inout KeyedArchiving.ArchiveObjectWriter) throws {
                        try self.encodeArchiveFields(to: &writer)
                    }
                }
                """#,
            direct: true
        )
    }

    /// A subclass of a plain `Codable` class: the compiler asks for every conformance but
    /// `Codable`'s, and each is added, the direct ones through `Codable`
    /// (`ArchiveObjectKeys.throughCodable`), so that the class can be subclassed.
    @Test func subclassOfCodableClass() {
        assertArchivable(
            #"""
            @Archivable
            final class Visit: Record {
                var cost: Double
            }
            """#,
            expandedSource: #"""
                final class Visit: Record {
                    var cost: Double

                    required init(from decoder: any Swift.Decoder) throws {
                        let reader = try KeyedArchiving.ArchiveContainerFieldReader<CodingKeys>(decoder)
                        KeyedArchiving.ArchivableSuperclass.check(Record.self)
                        self.cost = try reader.decode(at: 1)
                        try super.init(from: decoder)
                    }

                    override func encode(to encoder: any Swift.Encoder) throws {
                        try super.encode(to: encoder)
                        try KeyedArchiving.ArchiveContainerFieldWriter<CodingKeys>.write(to: encoder) {
                            try self.encodeArchiveFields(to: &$0)
                        }
                    }

                    required init(archiveObject reader: inout KeyedArchiving.ArchiveObjectReader) throws {
                        let decoder = reader.decoder
                        do {
                            let reader = try KeyedArchiving.ArchiveContainerFieldReader<CodingKeys>(decoder)
                            KeyedArchiving.ArchivableSuperclass.check(Record.self)
                            self.cost = try reader.decode(at: 1)
                        }
                        try super.init(from: decoder)
                    }
                }

                extension Visit {
                    private enum CodingKeys: Swift.String, KeyedArchiving.ArchiveFieldCodingKey {
                        case cost
                        case _archiveVersion = "archiveVersion"

                        init(archiveField index: Swift.Int) {
                            switch index {
                            case 1:
                                self = .cost
                            default:
                                self = ._archiveVersion
                            }
                        }
                    }

                    private func encodeArchiveFields<Writer: KeyedArchiving.ArchiveFieldWriter & ~Copyable>(to writer: inout Writer) throws {
                        try writer.encode(self.cost, at: 1)
                    }
                }

                extension Visit: KeyedArchiving.ArchiveVersioned {
                    static var archiveVersion: Swift.Int {
                        1
                    }
                }

                extension Visit: KeyedArchiving.ArchiveObjectEncodable, KeyedArchiving.ArchiveObjectDecodable {
                    static var archiveObjectKeys: KeyedArchiving.ArchiveObjectKeys {
                        KeyedArchiving.ArchiveObjectKeys.throughCodable
                    }

                    func encodeArchiveObject(to writer: inout KeyedArchiving.ArchiveObjectWriter) throws {
                        throw Swift.EncodingError.invalidValue(
                            self,
                            Swift.EncodingError.Context(
                                codingPath: [],
                                debugDescription: "\(Self.self) is archived through encode(to:)"
                            )
                        )
                    }
                }
                """#,
            conformances: [
                "ArchiveVersioned", "ArchiveMigrating", "ArchivedClassNaming", "ArchiveObjectEncodable",
                "ArchiveObjectDecodable",
            ]
        )
    }

    /// The first inherited type of a class under `@ArchivableClass` is taken for a superclass
    /// unless it is a protocol the macro knows or its name reads as one.
    @Test(arguments: [
        ("Codable", false), ("Swift.Sendable", false), ("@unchecked Sendable", false), ("Identifiable", false),
        ("CustomStringConvertible", false), ("ModelProtocol", false), ("NSObject", true), ("Animal", true),
        ("Foundation.NSObject", true), ("Base", true),
    ])
    func superclassIsReadFromTheInheritanceClause(name: String, isSuperclass: Bool) {
        let expanded = expandArchivable("@ArchivableClass\nclass Box: \(name) {\n    var width = 1\n}").source
        #expect(expanded.contains("super.init") == isSuperclass)
    }

    /// Under `@Archivable`, a final class's first inherited type that could be a protocol of the
    /// app's is taken for a superclass only when the class is `Decodable` through it already (the
    /// compiler does not ask for the conformance): `final class Cat: Pet` keeps today's expansion
    /// when `Pet` is a protocol. `NSObject` is always a superclass.
    @Test func aFinalClassTakesItsFirstInheritedTypeForASuperclassWhenDecodableThroughIt() {
        let source = "@Archivable\nfinal class Cat: Pet {\n    var lives = 9\n}"
        #expect(!expandArchivable(source).source.contains("super."))
        let subclass = expandArchivable(source, conformances: ["ArchiveVersioned", "ArchiveObjectDecodable"]).source
        #expect(subclass.contains("try super.init(from: decoder)"))
        let object = expandArchivable("@Archivable\nfinal class Vet: NSObject {\n    var name = \"\"\n}").source
        #expect(object.contains("super.init()"))
    }
}
