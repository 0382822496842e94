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

/// The same fields as the probe's `ProbeCat`.
private struct ProbeCat: Codable, Equatable {
    var name: String
    var lives: Int
}

/// Each test works in its own temporary directory, removed afterwards.
@Suite final class MigrationFileTests {
    private let directory: String

    init() throws {
        self.directory = NSTemporaryDirectory() + "MigrationFileTests-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: self.directory, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(atPath: self.directory)
    }

    private func write(_ data: Data, to name: String, mode: Int = 0o600) throws -> String {
        let path = self.directory + "/" + name
        try data.write(to: URL(fileURLWithPath: path))
        try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: path)
        return path
    }

    private func contents(of path: String) throws -> Data { try Data(contentsOf: URL(fileURLWithPath: path)) }

    private func directoryListing() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: self.directory).sorted()
    }

    // MARK: - Rewriting files

    @Test func migratesAFileInPlaceKeepingPermissionsAndABackup() throws {
        let legacy = try MigrationCat.legacyArchive()
        let path = try write(legacy, to: "cat.archive")
        var migrator = ArchiveMigrator(MigrationCat.self, schemaVersion: 2)
        migrator.backupSuffix = ".legacy"

        let result = try migrator.migrateFile(atPath: path)
        #expect(result == MigrationResult(value: .tom, sourceFormat: .keyedArchive(.binary), didRewrite: true))
        #expect(try contents(of: path + ".legacy") == legacy)
        let rewritten = try contents(of: path)
        #expect(
            try MigrationSource(recognizing: rewritten).format
                == .versionedArchive(schemaVersion: 2, propertyListFormat: .binary)
        )
        #expect(try KeyedArchiveDecoder().decode(MigrationCat.self, from: rewritten) == .tom)
        for file in [path, path + ".legacy"] {
            let attributes = try FileManager.default.attributesOfItem(atPath: file)
            #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        }
        #expect(try directoryListing() == ["cat.archive", "cat.archive.legacy"])

        // A second run finds the current format and leaves the file alone.
        let again = try migrator.migrateFile(atPath: path)
        #expect(!again.didRewrite)
        #expect(try contents(of: path) == rewritten)
    }

    @Test(arguments: ["interim", "json", "propertyList", "ownXML"])
    func migratesEveryFormatToTheVersionedArchive(kind: String) throws {
        let data: Data
        switch kind {
        case "interim": data = try MigrationCat.interimArchive(format: .binary)
        case "json": data = try JSONEncoder().encode(MigrationCat.tom)
        case "propertyList": data = try PropertyListEncoder().encode(MigrationCat.tom)
        default:
            var encoder = KeyedArchiveEncoder()
            encoder.outputFormat = .xml
            data = try encoder.encode(MigrationCat.tom)
        }
        let path = try write(data, to: kind)
        let result = try ArchiveMigrator(MigrationCat.self).migrateFile(atPath: path)
        #expect(result.value == .tom)
        #expect(result.didRewrite)
        let source = try MigrationSource(recognizing: contents(of: path))
        #expect(source.format == .versionedArchive(schemaVersion: 1, propertyListFormat: .binary))
        #expect(try directoryListing() == [kind])
    }

    @Test func missingFileIsAFileSystemError() throws {
        let error = #expect(throws: ArchiveStorageError.self) {
            try ArchiveMigrator(MigrationCat.self).migrateFile(atPath: self.directory + "/missing")
        }
        #expect(error?.code == .fileSystem)
        #expect(error?.path == self.directory + "/missing")
    }

    @Test func undecodableFileIsLeftUntouched() throws {
        let path = try write(Data("garbage".utf8), to: "garbage")
        let error = #expect(throws: ArchiveStorageError.self) {
            try ArchiveMigrator(MigrationCat.self).migrateFile(atPath: path)
        }
        #expect(error?.code == .unrecognizedFormat)
        #expect(error?.path == path)
        #expect(try contents(of: path) == Data("garbage".utf8))
        #expect(try directoryListing() == ["garbage"])
    }

    // MARK: - Crash safety

    @Test(arguments: [FileMigrationStep.backupWritten, .replacementWritten])
    func failureBeforeTheRenameLeavesTheOriginalAndNoTemporaryFile(step: FileMigrationStep) throws {
        let legacy = try MigrationCat.legacyArchive()
        let path = try write(legacy, to: "cat")
        var migrator = ArchiveMigrator(MigrationCat.self)
        migrator.backupSuffix = ".bak"
        migrator.stepObserver = { current throws(ArchiveStorageError) in
            if current == step { throw ArchiveStorageError(.fileSystem, reason: "simulated failure") }
        }
        let error = #expect(throws: ArchiveStorageError.self) { try migrator.migrateFile(atPath: path) }
        #expect(error?.reason == "simulated failure")
        #expect(try contents(of: path) == legacy)
        #expect(try directoryListing() == ["cat", "cat.bak"])
        // Retrying succeeds.
        migrator.stepObserver = nil
        #expect(try migrator.migrateFile(atPath: path).didRewrite)
        #expect(try ArchiveMigrator(MigrationCat.self).migrateFile(atPath: path).didRewrite == false)
    }

    /// Kills a second process right after each step and checks that the file still reads as the
    /// cat, in the old or the new format, and that a new migration completes the job.
    @Test(.enabled(if: ChildProcesses.areAvailable), arguments: FileMigrationStep.allCases)
    func crashAfterAnyStepLeavesAReadableFile(step: FileMigrationStep) throws {
        let legacy = try KeyedArchiveEncoder().encode(ProbeCat(name: "Felix", lives: 7))
        let path = try write(legacy, to: "probe-cat")
        let crashed = try StorageProbe.run(["migrate-file", path, ".bak", step.rawValue])
        #expect(crashed.status == 86, "\(crashed.stderr)")

        let afterCrash = try ArchiveMigrator(ProbeCat.self).decode(from: contents(of: path))
        #expect(afterCrash.value == ProbeCat(name: "Felix", lives: 7))
        let renamed = step == .renamed || step == .directorySynced
        #expect(afterCrash.didRewrite == !renamed)
        #expect(try contents(of: path + ".bak") == legacy)
        // Only a crash between writing the new bytes and renaming them leaves a temporary file.
        let leftovers = try directoryListing().filter { $0.hasPrefix(".tmp-") }
        #expect(leftovers.count == (step == .replacementWritten ? 1 : 0))

        let finished = try StorageProbe.run(["migrate-file", path, "-"])
        #expect(finished.status == 0, "\(finished.stderr)")
        #expect(
            finished.stdout == (renamed ? "versioned archive v1 (binary) false\n" : "keyed archive (binary) true\n")
        )
        #expect(try ArchiveMigrator(ProbeCat.self).decode(from: contents(of: path)).didRewrite == false)
    }
}

@Suite final class DefaultsMigrationTests {
    private let suiteName = "ArchiveStorageTests.DefaultsMigration.\(UUID().uuidString)"
    private let defaults: UserDefaults

    init() throws {
        self.defaults = try #require(UserDefaults(suiteName: self.suiteName))
    }

    deinit {
        self.defaults.removePersistentDomain(forName: self.suiteName)
    }

    @Test func migratesAValueInPlaceWithABackup() throws {
        let legacy = try MigrationCat.legacyArchive()
        self.defaults.set(legacy, forKey: "cat")
        var migrator = ArchiveMigrator(MigrationCat.self, schemaVersion: 5)
        migrator.backupSuffix = ".legacy"

        let result = try migrator.migrateValue(forKey: "cat", in: self.defaults)
        #expect(result == MigrationResult(value: .tom, sourceFormat: .keyedArchive(.binary), didRewrite: true))
        #expect(self.defaults.data(forKey: "cat.legacy") == legacy)
        let stored = try #require(self.defaults.data(forKey: "cat"))
        #expect(try MigrationSource(recognizing: stored).schemaVersion == 5)
        #expect(try self.defaults.archivedValue(MigrationCat.self, forKey: "cat") == .tom)
        #expect(try migrator.migrateValue(forKey: "cat", in: self.defaults).didRewrite == false)
    }

    @Test func missingAndMistypedValuesAreReportedAndNothingIsWritten() throws {
        let migrator = ArchiveMigrator(MigrationCat.self)
        let missing = #expect(throws: ArchiveStorageError.self) {
            try migrator.migrateValue(forKey: "absent", in: self.defaults)
        }
        #expect(missing?.code == .valueNotFound)
        #expect(missing?.key == "absent")

        self.defaults.set("a string", forKey: "text")
        let mistyped = #expect(throws: ArchiveStorageError.self) {
            try migrator.migrateValue(forKey: "text", in: self.defaults)
        }
        #expect(mistyped?.code == .typeMismatch)

        self.defaults.set(Data("junk".utf8), forKey: "junk")
        let junk = #expect(throws: ArchiveStorageError.self) {
            try migrator.migrateValue(forKey: "junk", in: self.defaults)
        }
        #expect(junk?.code == .unrecognizedFormat)
        #expect(junk?.key == "junk")
        #expect(self.defaults.data(forKey: "junk") == Data("junk".utf8))
    }
}
