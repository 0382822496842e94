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
import PropertyLists
import TestSupport
import Testing

/// A legacy `NSCoding` class, archived by this machine's Foundation `NSKeyedArchiver`.
///
/// Top-level and internal: corelibs Foundation cannot archive private classes.
final class MigrationLegacyCat: NSObject, NSCoding {
    let name: String
    let lives: Int
    let toys: [String]
    let birthday: Date

    init(name: String, lives: Int, toys: [String], birthday: Date) {
        self.name = name
        self.lives = lives
        self.toys = toys
        self.birthday = birthday
    }

    init?(coder: NSCoder) { nil }

    func encode(with coder: NSCoder) {
        coder.encode(self.name, forKey: "name")
        coder.encode(self.lives, forKey: "lives")
        coder.encode(self.toys, forKey: "toys")
        coder.encode(self.birthday, forKey: "birthday")
    }
}

/// The current, `Codable` model of ``MigrationLegacyCat``.
struct MigrationCat: Codable, Equatable, Sendable {
    var name: String
    var lives: Int
    var toys: [String]
    var birthday: Date

    static let tom = MigrationCat(
        name: "Tom",
        lives: 9,
        toys: ["mouse", "ball of wool"],
        birthday: Date(timeIntervalSinceReferenceDate: 700_000_000)
    )

    /// Tom, archived by Foundation's `NSKeyedArchiver` from the legacy class.
    static func legacyArchive(_ cat: MigrationCat = .tom) throws -> Data {
        let object = MigrationLegacyCat(name: cat.name, lives: cat.lives, toys: cat.toys, birthday: cat.birthday)
        return try NSKeyedArchiver.archivedData(withRootObject: object, requiringSecureCoding: false)
    }

    /// The interim form: `PropertyListEncoder` output archived as the root `NSData`.
    static func interimArchive(
        _ cat: MigrationCat = .tom,
        format: PropertyListSerialization.PropertyListFormat
    ) throws
        -> Data
    {
        let encoder = PropertyListEncoder()
        encoder.outputFormat = format
        return try NSKeyedArchiver.archivedData(withRootObject: encoder.encode(cat), requiringSecureCoding: false)
    }
}

@Suite struct MigrationTests {
    let migrator = ArchiveMigrator(MigrationCat.self)

    // MARK: - Recognised formats

    @Test func readsArchiveOfNSCodingObjectsWrittenByFoundation() throws {
        let legacy = try MigrationCat.legacyArchive()
        let result = try migrator.decode(from: legacy)
        #expect(result == MigrationResult(value: .tom, sourceFormat: .keyedArchive(.binary), didRewrite: true))
    }

    @Test func readsXMLArchiveOfNSCodingObjects() throws {
        let archiver = NSKeyedArchiver(requiringSecureCoding: false)
        archiver.outputFormat = .xml
        let tom = MigrationCat.tom
        archiver.encode(
            MigrationLegacyCat(name: tom.name, lives: tom.lives, toys: tom.toys, birthday: tom.birthday),
            forKey: NSKeyedArchiveRootObjectKey
        )
        archiver.finishEncoding()
        let result = try migrator.decode(from: archiver.encodedData)
        #expect(result.sourceFormat == .keyedArchive(.xml))
        #expect(result.value == tom)
    }

    @Test(arguments: [PropertyListSerialization.PropertyListFormat.binary, .xml])
    func readsPropertyListEncoderOutputInsideAnArchive(format: PropertyListSerialization.PropertyListFormat) throws {
        let interim = try MigrationCat.interimArchive(format: format)
        let result = try migrator.decode(from: interim)
        #expect(result.sourceFormat == .archivedPropertyList(format == .binary ? .binary : .xml))
        #expect(result.value == .tom)
        #expect(result.didRewrite)
    }

    @Test func readsPropertyListEncoderOutputInsideAnArchivedMutableData() throws {
        let plist = try PropertyListEncoder().encode(MigrationCat.tom)
        let interim = try NSKeyedArchiver.archivedData(
            withRootObject: NSMutableData(data: plist),
            requiringSecureCoding: false
        )
        let result = try migrator.decode(from: interim)
        #expect(result == MigrationResult(value: .tom, sourceFormat: .archivedPropertyList(.binary), didRewrite: true))
    }

    @Test func readsPlainPropertyListEncoderOutput() throws {
        let encoder = PropertyListEncoder()
        encoder.outputFormat = .xml
        let result = try migrator.decode(from: encoder.encode(MigrationCat.tom))
        #expect(result == MigrationResult(value: .tom, sourceFormat: .propertyList(.xml), didRewrite: true))
    }

    @Test func readsJSONEncoderOutput() throws {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        var migrator = self.migrator
        migrator.jsonDecoder = decoder
        let result = try migrator.decode(from: encoder.encode(MigrationCat.tom))
        #expect(result == MigrationResult(value: .tom, sourceFormat: .json, didRewrite: true))
        // A top-level fragment is JSON too.
        let number = try ArchiveMigrator(Int.self).decode(from: Data(" 42\n".utf8))
        #expect(number == MigrationResult(value: 42, sourceFormat: .json, didRewrite: true))
    }

    @Test(arguments: [PropertyListFormat.binary, .xml])
    func readsThisPackagesArchives(format: PropertyListFormat) throws {
        var encoder = KeyedArchiveEncoder()
        encoder.outputFormat = format
        let plain = try migrator.decode(from: encoder.encode(MigrationCat.tom))
        #expect(plain == MigrationResult(value: .tom, sourceFormat: .keyedArchive(format), didRewrite: true))

        var current = self.migrator
        current.encoder.outputFormat = format
        let versioned = try migrator.decode(from: current.encode(.tom))
        #expect(
            versioned
                == MigrationResult(
                    value: .tom,
                    sourceFormat: .versionedArchive(schemaVersion: 1, propertyListFormat: format),
                    didRewrite: false
                )
        )
    }

    @Test func archiveOfDataThatIsNotAPropertyListIsAnOrdinaryArchive() throws {
        let archived = try NSKeyedArchiver.archivedData(
            withRootObject: Data("not a plist".utf8),
            requiringSecureCoding: false
        )
        let result = try ArchiveMigrator(Data.self).decode(from: archived)
        #expect(
            result
                == MigrationResult(
                    value: Data("not a plist".utf8),
                    sourceFormat: .keyedArchive(.binary),
                    didRewrite: true
                )
        )
    }

    // MARK: - Apple-made fixtures

    struct Foo: Codable, Equatable {
        var title: String
        var count: Int
        var active: Bool
        var categories: [String]
        var metadata: [String: String]
    }

    struct Stamped: Codable, Equatable {
        var title: String
        var stamp: Date
    }

    struct Dict: Codable, Equatable {
        var int: Int
        var string: String
    }

    @Test func migratesAppleFixturesOfCustomClasses() throws {
        let foo = try ArchiveMigrator(Foo.self).decode(from: Fixtures.apple("complex_archive.plist"))
        let expected = Foo(
            title: "yo",
            count: 42,
            active: true,
            categories: ["banana", "apple"],
            metadata: ["fruit": "kiwi", "veg": "asparagus"]
        )
        #expect(foo == MigrationResult(value: expected, sourceFormat: .keyedArchive(.binary), didRewrite: true))

        let stamped = try ArchiveMigrator(Stamped.self).decode(from: Fixtures.apple("date_archive.plist"))
        #expect(
            stamped.value == Stamped(title: "hello", stamp: Date(timeIntervalSinceReferenceDate: 509_523_358.684097))
        )
    }

    @Test func migratesAppleFixturesOfFoundationValues() throws {
        let strings = try ArchiveMigrator([String].self).decode(
            from: Fixtures.apple("NSKeyedUnarchiver-ArrayTest.plist")
        )
        #expect(strings.value == ["baa", "baa", "black", "sheep"])
        #expect(strings.sourceFormat == .keyedArchive(.xml))

        let dict = try ArchiveMigrator(Dict.self).decode(from: Fixtures.apple("dict.xml"))
        #expect(
            dict
                == MigrationResult(
                    value: Dict(int: 1, string: "string"),
                    sourceFormat: .keyedArchive(.xml),
                    didRewrite: true
                )
        )

        let number = try ArchiveMigrator(Int.self).decode(from: Fixtures.apple("integer_10.bplist"))
        #expect(number == MigrationResult(value: 10, sourceFormat: .keyedArchive(.binary), didRewrite: true))
    }

    @Test func rewrittenAppleFixtureReadsBackAsTheSameValue() throws {
        let migrator = ArchiveMigrator(Foo.self, schemaVersion: 4)
        let original = try migrator.decode(from: Fixtures.apple("complex_archive.plist"))
        let rewritten = try migrator.decode(from: migrator.encode(original.value))
        #expect(rewritten.value == original.value)
        #expect(rewritten.sourceFormat == .versionedArchive(schemaVersion: 4, propertyListFormat: .binary))
        #expect(!rewritten.didRewrite)
    }

    // MARK: - The versioned format

    @Test func versionedArchiveIsReadableByFoundationsNSKeyedUnarchiver() throws {
        let migrator = ArchiveMigrator([String].self, schemaVersion: 7)
        let data = try migrator.encode(["a", "b"])
        let unarchiver = try NSKeyedUnarchiver(forReadingFrom: data)
        unarchiver.requiresSecureCoding = false
        let root = unarchiver.decodeObject(forKey: NSKeyedArchiveRootObjectKey) as? [String]
        #expect(root == ["a", "b"])
        #expect(unarchiver.decodeInteger(forKey: "schemaVersion") == 7)
        // And plain decoders see the value as the root object.
        #expect(try KeyedArchiveDecoder().decode([String].self, from: data) == ["a", "b"])
    }

    /// The version is written inline; archives holding it as an integer object are read as well.
    @Test func readsTheSchemaVersionInlineOrAsAnObject() throws {
        let inline = try KeyedArchive(parsing: ArchiveMigrator([String].self, schemaVersion: 5).encode(["x"]))
        #expect(inline.topValue(forKey: "schemaVersion") == .integer(5))

        var asObject = inline
        asObject.objects.append(.integer(5))
        asObject.top = [
            KeyedArchive.TopEntry(key: "root", value: inline.topValue(forKey: "root") ?? .uid(0)),
            KeyedArchive.TopEntry(key: "schemaVersion", uid: UID(UInt64(asObject.objects.count - 1))),
        ]
        let source = try MigrationSource(recognizing: asObject.serialized(as: .binary))
        #expect(source.schemaVersion == 5)
        #expect(try source.decode([String].self) == ["x"])
    }

    @Test func recognisesTheSchemaVersion() throws {
        let data = try ArchiveMigrator(MigrationCat.self, schemaVersion: 3).encode(.tom)
        let source = try MigrationSource(recognizing: data)
        #expect(source.schemaVersion == 3)
        #expect(try source.decode(MigrationCat.self) == .tom)
        #expect(try MigrationSource(recognizing: MigrationCat.legacyArchive()).schemaVersion == nil)
    }

    @Test func recognisesAnInlineSchemaVersionWrittenByFoundation() throws {
        // Foundation's NSKeyedArchiver stores a top-level integer inline in `$top`, not as an object.
        let archiver = NSKeyedArchiver(requiringSecureCoding: false)
        archiver.encode(["a", "b"] as NSArray, forKey: NSKeyedArchiveRootObjectKey)
        archiver.encode(3, forKey: "schemaVersion")
        archiver.finishEncoding()
        let source = try MigrationSource(recognizing: archiver.encodedData)
        #expect(source.format == .versionedArchive(schemaVersion: 3, propertyListFormat: .binary))
        #expect(try source.decode([String].self) == ["a", "b"])
    }

    // MARK: - Schema versions and upgrades

    /// The schema-1 model: one name field, later split.
    struct CatV1: Codable {
        var fullName: String
    }

    /// The schema-2 model.
    struct CatV2: Codable, Equatable {
        var firstName: String
        var lastName: String
    }

    static let upgradingMigrator = ArchiveMigrator(CatV2.self, schemaVersion: 2) { source in
        let old = try source.decode(CatV1.self)
        let parts = old.fullName.split(separator: " ", maxSplits: 1).map(String.init)
        return CatV2(firstName: parts.first ?? "", lastName: parts.count > 1 ? parts[1] : "")
    }

    @Test func upgradeClosureConvertsOlderAndUnversionedData() throws {
        let old = try ArchiveMigrator(CatV1.self, schemaVersion: 1).encode(CatV1(fullName: "Tom Cat"))
        let upgraded = try Self.upgradingMigrator.decode(from: old)
        #expect(upgraded.value == CatV2(firstName: "Tom", lastName: "Cat"))
        #expect(upgraded.sourceFormat == .versionedArchive(schemaVersion: 1, propertyListFormat: .binary))
        #expect(upgraded.didRewrite)

        let unversioned = try JSONEncoder().encode(CatV1(fullName: "Felix"))
        #expect(try Self.upgradingMigrator.decode(from: unversioned).value == CatV2(firstName: "Felix", lastName: ""))

        // Current data is decoded directly, without the closure.
        let current = try Self.upgradingMigrator.encode(CatV2(firstName: "A", lastName: "B"))
        let read = try Self.upgradingMigrator.decode(from: current)
        #expect(
            read
                == MigrationResult(
                    value: CatV2(firstName: "A", lastName: "B"),
                    sourceFormat: read.sourceFormat,
                    didRewrite: false
                )
        )
    }

    @Test func newerSchemaVersionIsRefused() throws {
        let newer = try ArchiveMigrator(CatV2.self, schemaVersion: 3).encode(CatV2(firstName: "A", lastName: "B"))
        let error = #expect(throws: ArchiveStorageError.self) { try Self.upgradingMigrator.decode(from: newer) }
        #expect(error?.code == .unsupportedSchemaVersion)
    }

    @Test func upgradeErrorsAreDecodingFailures() throws {
        struct Refusal: Error {}
        let migrator = ArchiveMigrator(CatV2.self, schemaVersion: 2) { _ in throw Refusal() }
        let error = #expect(throws: ArchiveStorageError.self) {
            try migrator.decode(from: JSONEncoder().encode(CatV1(fullName: "x")))
        }
        #expect(error?.code == .decodingFailed)
        #expect(error?.underlying is Refusal)
    }

    // MARK: - Failures

    @Test(arguments: [
        Data(), Data("hello".utf8), Data([0xFF, 0x00, 0x13]), Data("{not json".utf8),
        Data("<html><body/></html>".utf8),
    ])
    func unrecognisedDataIsReported(data: Data) throws {
        let error = #expect(throws: ArchiveStorageError.self) { try migrator.decode(from: data) }
        #expect(error?.code == .unrecognizedFormat)
    }

    @Test func truncatedBinaryArchiveIsCorrupt() throws {
        let legacy = try MigrationCat.legacyArchive()
        let error = #expect(throws: ArchiveStorageError.self) {
            try migrator.decode(from: legacy.prefix(legacy.count - 9))
        }
        #expect(error?.code == .corruptEntry)
    }

    @Test func wrongTypeIsADecodingFailureWithTheDecodingError() throws {
        let error = #expect(throws: ArchiveStorageError.self) {
            try ArchiveMigrator(CatV2.self).decode(from: MigrationCat.legacyArchive())
        }
        #expect(error?.code == .decodingFailed)
        #expect(error?.underlying is DecodingError)
    }
}
