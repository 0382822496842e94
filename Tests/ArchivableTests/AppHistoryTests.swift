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

/// Data written by every version of a model (``AppV1``, ``AppV2``, ``AppV3``) read by every version:
/// later versions read it with the expected values, earlier ones ignore (and keep) what they do not
/// know, and refuse data of a newer type version.
@Suite struct AppHistoryTests {
    /// The forms stored data takes.
    enum StoredForm: String, CaseIterable, Sendable {
        /// This package's binary archive.
        case archive
        /// This package's XML archive.
        case xmlArchive
        /// Foundation's `NSKeyedArchiver`, from the app version's `NSCoding` class.
        case foundation
        /// `JSONEncoder`.
        case json
    }

    /// What version `version` of the app stored, in `form`.
    static func stored(version: Int, as form: StoredForm) throws -> Data {
        switch (form, version) {
        case (.foundation, _): return try Fixtures.foundation("app-history-v\(version).archive")
        case (.json, 1): return try JSONEncoder().encode(AppHistory.v1)
        case (.json, 2): return try JSONEncoder().encode(AppHistory.v2)
        case (.json, _): return try JSONEncoder().encode(AppHistory.v3)
        case (_, 1): return try Self.encoder(form).encode(AppHistory.v1)
        case (_, 2): return try Self.encoder(form).encode(AppHistory.v2)
        default: return try Self.encoder(form).encode(AppHistory.v3)
        }
    }

    static func encoder(_ form: StoredForm) -> KeyedArchiveEncoder {
        var encoder = KeyedArchiveEncoder()
        encoder.outputFormat = form == .xmlArchive ? .xml : .binary
        return encoder
    }

    /// Decodes with the decoder for `form`, reporting fallbacks to `recorder`.
    static func decode<T: Decodable>(
        _ type: T.Type,
        from data: Data,
        as form: StoredForm,
        recorder: ArchiveFallbackRecorder = ArchiveFallbackRecorder()
    ) throws -> T {
        if form == .json {
            let decoder = JSONDecoder()
            decoder.userInfo[.archiveFallbackRecorder] = recorder
            return try decoder.decode(type, from: data)
        }
        var decoder = KeyedArchiveDecoder()
        decoder.userInfo[.archiveFallbackRecorder] = recorder
        return try decoder.decode(type, from: data)
    }

    // MARK: Later versions read earlier data

    @Test(arguments: StoredForm.allCases)
    func everyVersionReadsItsOwnData(form: StoredForm) throws {
        #expect(try Self.decode(AppV1.Cat.self, from: Self.stored(version: 1, as: form), as: form) == AppHistory.v1)
        #expect(try Self.decode(AppV2.Cat.self, from: Self.stored(version: 2, as: form), as: form) == AppHistory.v2)
        #expect(try Self.decode(AppV3.Cat.self, from: Self.stored(version: 3, as: form), as: form) == AppHistory.v3)
    }

    @Test(arguments: StoredForm.allCases)
    func version2ReadsVersion1(form: StoredForm) throws {
        let recorder = ArchiveFallbackRecorder()
        let cat = try Self.decode(AppV2.Cat.self, from: Self.stored(version: 1, as: form), as: form, recorder: recorder)
        // `colour` read through its former key, `nickname` nil to its initial value, `lives` absent.
        let expected = AppV2.Cat(
            name: "Tom",
            color: "ginger",
            nickname: "",
            toy: "mouse",
            weight: 4,
            lives: 9,
            mood: .playful,
            tags: "tabby,lazy"
        )
        #expect(cat == expected)
        // The removed `age` is kept, not lost.
        #expect(cat.unknownFields.keys == ["age"])
        #expect(cat.unknownFields["age"] == .integer(3))
        #expect(recorder.fallbacks.isEmpty)
    }

    @Test(arguments: StoredForm.allCases)
    func version3ReadsVersion1ThroughTheMigration(form: StoredForm) throws {
        let cat = try Self.decode(AppV3.Cat.self, from: Self.stored(version: 1, as: form), as: form)
        let expected = AppV3.Cat(
            name: "Tom",
            color: "ginger",
            nickname: "",
            toy: "mouse",
            weight: 4,
            lives: 9,
            mood: .playful,
            tags: ["tabby", "lazy"]
        )
        #expect(cat == expected)
        // The removed `age`, which neither version 3 nor its previous version knows, is kept
        // through the migration, as version 2 keeps it.
        #expect(cat.unknownFields.keys == ["age"])
        #expect(cat.unknownFields["age"] == .integer(3))
    }

    @Test(arguments: StoredForm.allCases)
    func version3ReadsVersion2ThroughTheMigration(form: StoredForm) throws {
        let cat = try Self.decode(AppV3.Cat.self, from: Self.stored(version: 2, as: form), as: form)
        let expected = AppV3.Cat(
            name: "Felix",
            color: "black",
            nickname: "Fee",
            toy: nil,
            weight: 5,
            lives: 7,
            mood: .sleepy,
            tags: ["black", "sleek"]
        )
        #expect(cat == expected)
        // Every field version 2 stored is one that version 3 or version 2 knows.
        #expect(cat.unknownFields.isEmpty)
    }

    // MARK: Earlier versions read later data

    @Test(arguments: StoredForm.allCases)
    func version1ReadsVersion2AndKeepsWhatItDoesNotKnow(form: StoredForm) throws {
        let recorder = ArchiveFallbackRecorder()
        let old = try Self.decode(AppV1.Cat.self, from: Self.stored(version: 2, as: form), as: form, recorder: recorder)
        let expected = AppV1.Cat(
            name: "Felix",
            colour: "tabby",
            age: 0,
            nickname: "Fee",
            toy: "ball",
            weight: 5,
            mood: .unknown,
            tags: "black,sleek"
        )
        #expect(old == expected)
        #expect(Set(old.unknownFields.keys) == ["color", "lives"])
        #expect(old.unknownFields["color"] == .string("black"))
        #expect(old.unknownFields["lives"] == .integer(7))
        // The mood version 1 does not know is reported, not silently replaced.
        #expect(recorder.fallbacks.map(\.kind) == [.unknownCase])
        #expect(recorder.fallbacks.first?.key == "sleepy")

        // Version 1 saves the cat again: version 2 finds its own fields intact.
        let rewritten: Data
        if form == .json {
            rewritten = try JSONEncoder().encode(old)
        } else {
            rewritten = try Self.encoder(form).encode(old)
        }
        let readForm: StoredForm = form == .foundation ? .archive : form
        let again = try Self.decode(AppV2.Cat.self, from: rewritten, as: readForm)
        #expect(again.color == "black")
        #expect(again.lives == 7)
        #expect(again.nickname == "Fee")
        #expect(again.mood == .unknown)
    }

    @Test(arguments: StoredForm.allCases)
    func earlierVersionsRefuseDataOfANewerTypeVersion(form: StoredForm) throws {
        let data = try Self.stored(version: 3, as: form)
        for read in [
            { _ = try Self.decode(AppV1.Cat.self, from: data, as: form) },
            { _ = try Self.decode(AppV2.Cat.self, from: data, as: form) },
        ] as [() throws -> Void] {
            let error = try #require(throws: DecodingError.self) { try read() }
            // Archives name the renamed class, which versions 1 and 2 do not accept; JSON has no
            // class names, and the type version refuses it.
            let expected: KeyedArchiveError.Code = form == .json ? .typeVersionTooNew : .classMismatch
            #expect(error.archiveErrorCode == expected)
        }
    }

    // MARK: Stores and Foundation

    @Test func storeEntriesSavedByVersion1LoadUnderVersion3() throws {
        let directory = NSTemporaryDirectory() + "AppHistoryTests-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let old = try ArchiveStore<AppV1.Cat>(name: "cats", in: .path(directory))
        try old.save(AppHistory.v1, forKey: "tom")
        let current = try ArchiveStore<AppV3.Cat>(name: "cats", in: .path(directory))
        let cat = try #require(try current.load(forKey: "tom"))
        #expect(cat.name == "Tom")
        #expect(cat.color == "ginger")
        #expect(cat.weight == 4)
        #expect(cat.tags == ["tabby", "lazy"])
    }

    /// Foundation's `NSKeyedUnarchiver` reads what both of our paths write (the direct one is the
    /// default for `@Archivable` types).
    @Test(arguments: BothPaths.modes)
    func foundationReadsTheNewestVersionIntoAnNSCodingClass(mode: DirectArchiving) throws {
        let data = try BothPaths.encoder(mode).encode(AppHistory.v3)
        let unarchiver = try NSKeyedUnarchiver(forReadingFrom: data)
        unarchiver.requiresSecureCoding = false
        unarchiver.setClass(PetAppCatReader.self, forClassName: "PetApp.Cat")
        let cat = try #require(unarchiver.decodeObject(forKey: NSKeyedArchiveRootObjectKey) as? PetAppCatReader)
        #expect(cat.archiveVersion == 2)
        #expect(cat.name == "Luna")
        #expect(cat.color == "grey")
        #expect(cat.weight == 3.75)
        #expect(cat.lives == 8)
        #expect(cat.tags == ["grey", "small"])
        #expect(cat.mood == "calm")
        #expect(cat.toy == "laser")
    }
}

/// How version 3 of the app reads a cat with `NSCoding`.
final class PetAppCatReader: NSObject, NSCoding {
    let archiveVersion: Int
    let name: String?
    let color: String?
    let weight: Double
    let lives: Int
    let tags: [String]?
    let mood: String?
    let toy: String?

    init?(coder: NSCoder) {
        self.archiveVersion = coder.decodeInteger(forKey: "archiveVersion")
        self.name = coder.decodeObject(forKey: "name") as? String
        self.color = coder.decodeObject(forKey: "color") as? String
        self.weight = coder.decodeDouble(forKey: "weight")
        self.lives = coder.decodeInteger(forKey: "lives")
        self.tags = coder.decodeObject(forKey: "tags") as? [String]
        self.mood = coder.decodeObject(forKey: "mood") as? String
        self.toy = coder.decodeObject(forKey: "toy") as? String
    }

    func encode(with coder: NSCoder) {}
}

extension DecodingError {
    /// The code of the ``KeyedArchiveError`` beneath this error, if any.
    var archiveErrorCode: KeyedArchiveError.Code? {
        switch self {
        case .dataCorrupted(let context), .typeMismatch(_, let context), .valueNotFound(_, let context),
            .keyNotFound(_, let context):
            return (context.underlyingError as? KeyedArchiveError)?.code
        @unknown default:
            return nil
        }
    }
}
