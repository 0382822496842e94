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

/// A type that archives itself by hand, as an `NSCoding` class would.
private struct Toy: ArchiveCoding, Equatable {
    var name: String
    var squeaks: Bool

    init(name: String, squeaks: Bool) {
        self.name = name
        self.squeaks = squeaks
    }

    init?(coder: ArchiveCoder) {
        guard let name: String = coder.decode(forKey: "name") else { return nil }
        self.name = name
        self.squeaks = coder.decodeBool(forKey: "squeaks")
    }

    func encode(with coder: ArchiveCoder) {
        coder.encode(self.name, forKey: "name")
        coder.encode(self.squeaks, forKey: "squeaks")
    }
}

/// Each test gets its own suite, removed afterwards.
@Suite final class PreferencesTests {
    private let suiteName = "ArchiveStorageTests.Preferences.\(UUID().uuidString)"
    private let defaults: UserDefaults

    init() throws {
        self.defaults = try #require(UserDefaults(suiteName: self.suiteName))
    }

    deinit {
        self.defaults.removePersistentDomain(forName: self.suiteName)
    }

    @Test func storesAndReadsCodableValuesAndArrays() throws {
        try self.defaults.set(archiving: MigrationCat.tom, forKey: "cat")
        #expect(try self.defaults.archivedValue(MigrationCat.self, forKey: "cat") == .tom)

        var kitten = MigrationCat.tom
        kitten.name = "Kitten"
        try self.defaults.set(archiving: [MigrationCat.tom, kitten], forKey: "cats")
        let cats: [MigrationCat] = try self.defaults.archivedValue(forKey: "cats")
        #expect(cats == [.tom, kitten])

        // The stored object is keyed-archive Data, readable by any keyed-archive reader.
        let stored = try #require(self.defaults.data(forKey: "cat"))
        #expect(try KeyedArchiveDecoder().decode(MigrationCat.self, from: stored) == .tom)
        #expect(stored.starts(with: Array("bplist00".utf8)))
    }

    @Test func storesAndReadsArchiveCodingValuesAndArrays() throws {
        let toys = [Toy(name: "mouse", squeaks: true), Toy(name: "ball", squeaks: false)]
        try self.defaults.set(archiving: toys[0], forKey: "toy")
        try self.defaults.set(archiving: toys, forKey: "toys")
        #expect(try self.defaults.archivedValue(Toy.self, forKey: "toy") == toys[0])
        #expect(try self.defaults.archivedValue([Toy].self, forKey: "toys") == toys)
    }

    @Test func encoderSettingsAndSchemaVersionAreHonoured() throws {
        var encoder = KeyedArchiveEncoder()
        encoder.outputFormat = .xml
        try self.defaults.set(archiving: MigrationCat.tom, forKey: "cat", schemaVersion: 3, encoder: encoder)
        let stored = try #require(self.defaults.data(forKey: "cat"))
        #expect(
            try MigrationSource(recognizing: stored).format
                == .versionedArchive(schemaVersion: 3, propertyListFormat: .xml)
        )
        #expect(try self.defaults.archivedValue(MigrationCat.self, forKey: "cat") == .tom)
    }

    @Test func readsArchivesWrittenByFoundationsNSKeyedArchiver() throws {
        self.defaults.set(try MigrationCat.legacyArchive(), forKey: "legacy")
        #expect(try self.defaults.archivedValue(MigrationCat.self, forKey: "legacy") == .tom)
    }

    @Test func missingValueThrowsValueNotFoundOrReturnsNil() throws {
        let error = #expect(throws: ArchiveStorageError.self) {
            try self.defaults.archivedValue(MigrationCat.self, forKey: "absent")
        }
        #expect(error?.code == .valueNotFound)
        #expect(error?.key == "absent")
        #expect(try self.defaults.archivedValueIfPresent(MigrationCat.self, forKey: "absent") == nil)

        try self.defaults.set(archiving: 42, forKey: "answer")
        #expect(try self.defaults.archivedValueIfPresent(Int.self, forKey: "answer") == 42)
        self.defaults.removeObject(forKey: "answer")
        #expect(try self.defaults.archivedValueIfPresent(Int.self, forKey: "answer") == nil)
    }

    @Test func storedObjectThatIsNotDataIsATypeMismatch() throws {
        self.defaults.set("a string", forKey: "text")
        for read in [
            { try self.defaults.archivedValue(MigrationCat.self, forKey: "text") },
            { try self.defaults.archivedValueIfPresent(MigrationCat.self, forKey: "text") },
        ] as [() throws -> MigrationCat?] {
            let error = #expect(throws: ArchiveStorageError.self) { try read() }
            #expect(error?.code == .typeMismatch)
            #expect(error?.key == "text")
        }
    }

    @Test func undecodableDataIsADecodingFailureCarryingTheDecodingError() throws {
        self.defaults.set(Data([1, 2, 3]), forKey: "junk")
        let junk = #expect(throws: ArchiveStorageError.self) {
            try self.defaults.archivedValue(MigrationCat.self, forKey: "junk")
        }
        #expect(junk?.code == .decodingFailed)
        #expect(junk?.underlying is DecodingError)

        try self.defaults.set(archiving: ["not", "a", "cat"], forKey: "strings")
        let wrongType = #expect(throws: ArchiveStorageError.self) {
            try self.defaults.archivedValueIfPresent(MigrationCat.self, forKey: "strings")
        }
        #expect(wrongType?.code == .decodingFailed)
        guard case .keyNotFound(let key, _)? = wrongType?.underlying as? DecodingError else {
            Issue.record("expected DecodingError.keyNotFound, got \(String(describing: wrongType?.underlying))")
            return
        }
        #expect(key.stringValue == "name")
    }

    @Test func unencodableValueThrowsEncodingFailedAndStoresNothing() throws {
        let error = #expect(throws: ArchiveStorageError.self) {
            try self.defaults.set(archiving: Int128.max, forKey: "huge")
        }
        #expect(error?.code == .encodingFailed)
        #expect(error?.underlying is EncodingError)
        #expect(self.defaults.object(forKey: "huge") == nil)
    }
}

/// `UserDefaults` across processes, with `storage-probe` processes as the other side.
///
/// corelibs Foundation keeps each suite as an XML property list `<suite>.plist` in `$XDG_CONFIG_HOME`,
/// which it reads once when the process starts, so the probes are started with `XDG_CONFIG_HOME` set
/// and this process reads and writes that file. Apple's Foundation keeps every suite in `cfprefsd`,
/// shared by the user's processes and written to disk when it chooses, so there this process reads
/// and writes the suite through `UserDefaults`.
@Suite final class PreferencesCrossProcessTests {
    private let configHome: String

    init() throws {
        self.configHome = NSTemporaryDirectory() + "PreferencesCrossProcessTests-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: self.configHome, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(atPath: self.configHome)
        if FoundationImplementation.current == .apple {
            UserDefaults.standard.removePersistentDomain(forName: self.suite)
        }
    }
    private let suite = "com.example.ArchiveStorageTests.\(UUID().uuidString)"

    private var environment: [String: String] { ["XDG_CONFIG_HOME": self.configHome] }

    /// The file corelibs Foundation keeps the suite in.
    private var suiteFile: URL { URL(fileURLWithPath: self.configHome + "/" + self.suite + ".plist") }

    /// The suite's values as the probe left them: read from its file, or from `cfprefsd`.
    private func storedSuite() throws -> [String: Any] {
        switch FoundationImplementation.current {
        case .corelibs:
            let plist = try PropertyListSerialization.propertyList(
                from: Data(contentsOf: self.suiteFile),
                options: [],
                format: nil
            )
            return try #require(plist as? [String: Any])
        case .apple:
            return try #require(UserDefaults.standard.persistentDomain(forName: self.suite))
        }
    }

    @Test(.enabled(if: ChildProcesses.areAvailable)) func valueSetInOneProcessIsReadInAnother() throws {
        let set = try StorageProbe.run(["prefs-set", self.suite, "cat", "Tom", "9"], environment: self.environment)
        #expect(set.status == 0, "\(set.stderr)")

        let dictionary: [String: Any]
        switch FoundationImplementation.current {
        case .corelibs:
            // The file Foundation wrote: an XML property list whose value is the archive's Data.
            let file = try Data(contentsOf: self.suiteFile)
            #expect(String(decoding: file.prefix(5), as: UTF8.self) == "<?xml")
            var format = PropertyListSerialization.PropertyListFormat.binary
            let plist = try PropertyListSerialization.propertyList(from: file, options: [], format: &format)
            #expect(format == .xml)
            dictionary = try #require(plist as? [String: Any])
        case .apple:
            // The suite as `cfprefsd` keeps it: its only value is the archive's Data.
            dictionary = try self.storedSuite()
        }
        #expect(Array(dictionary.keys) == ["cat"])
        let stored = try #require(dictionary["cat"] as? Data)
        let cat = try KeyedArchiveDecoder().decode(ProbeCatTwin.self, from: stored)
        #expect(cat == ProbeCatTwin(name: "Tom", lives: 9))

        let get = try StorageProbe.run(["prefs-get", self.suite, "cat"], environment: self.environment)
        #expect(get.status == 0, "\(get.stderr)")
        #expect(get.stdout == "Tom 9\n")
    }

    @Test(.enabled(if: ChildProcesses.areAvailable)) func valueWrittenByThisProcessIsReadByAnother() throws {
        // The other direction: this process stores, as Foundation would, an archive made by
        // Foundation's NSKeyedArchiver from an NSCoding object.
        let object = MigrationLegacyCat(name: "Felix", lives: 3, toys: [], birthday: Date())
        let archive = try NSKeyedArchiver.archivedData(withRootObject: object, requiringSecureCoding: false)
        switch FoundationImplementation.current {
        case .corelibs:
            // The suite's file, written as Foundation writes it.
            let plist = try PropertyListSerialization.data(fromPropertyList: ["cat": archive], format: .xml, options: 0)
            try plist.write(to: self.suiteFile)
        case .apple:
            let defaults = try #require(UserDefaults(suiteName: self.suite))
            defaults.set(archive, forKey: "cat")
            #expect(defaults.synchronize())
        }

        let get = try StorageProbe.run(["prefs-get", self.suite, "cat"], environment: self.environment)
        #expect(get.status == 0, "\(get.stderr)")
        #expect(get.stdout == "Felix 3\n")
    }

    @Test(.enabled(if: ChildProcesses.areAvailable)) func schemaVersionSurvivesTheRoundTripThroughTheFile() throws {
        let set = try StorageProbe.run(
            ["prefs-set", self.suite, "cat", "Tom", "9", "4"],
            environment: self.environment
        )
        #expect(set.status == 0, "\(set.stderr)")
        let stored = try #require(try self.storedSuite()["cat"] as? Data)
        let result = try ArchiveMigrator(ProbeCatTwin.self, schemaVersion: 4).decode(from: stored)
        #expect(result.value == ProbeCatTwin(name: "Tom", lives: 9))
        #expect(result.sourceFormat == .versionedArchive(schemaVersion: 4, propertyListFormat: .binary))
    }
}

/// The same fields as the probe's `ProbeCat`.
private struct ProbeCatTwin: Codable, Equatable {
    var name: String
    var lives: Int
}
