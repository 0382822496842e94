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
import PropertyLists
import TestSupport
import Testing

@Suite struct KeyedArchiveTests {
    @Test(arguments: Fixtures.appleFixtureNames)
    func everyAppleFixtureIsAKeyedArchive(name: String) throws {
        let archive = try KeyedArchive(parsing: Fixtures.apple(name))
        #expect(!archive.top.isEmpty)
        for entry in archive.top {
            _ = try archive.object(for: try #require(entry.uid))
        }
    }

    @Test func readsTopKeysClassesAndObjects() throws {
        let archive = try KeyedArchive(parsing: Fixtures.apple("complex_archive.plist"))
        let root = try archive.object(for: try #require(archive.topUID(forKey: "root")))
        let archivedClass = try #require(try archive.archivedClass(of: root))
        #expect(archivedClass.name == "crap.Foo")
        #expect(archivedClass.classes == ["crap.Foo", "NSCoder", "NSObject"])
        #expect(archivedClass.isKind(of: "NSObject"))
        #expect(root["count"] == 42)
        #expect(try archive.object(for: #require(root["title"]?.uidValue)) == "yo")
        #expect(try archive.archivedClass(of: "yo") == nil)
    }

    @Test func genericTopKeys() throws {
        let archive = try KeyedArchive(parsing: Fixtures.apple("primitives.bin"))
        #expect(archive.top.map(\.key).sorted() == (0...11).map { "$\($0)" }.sorted())
    }

    @Test func writesAndReadsBack() throws {
        var archive = KeyedArchive()
        archive.objects.append("hello")
        archive.top = [KeyedArchive.TopEntry(key: "root", uid: 1)]
        for format in PropertyListFormat.allCases {
            let read = try KeyedArchive(parsing: archive.serialized(as: format))
            #expect(read == archive)
        }
    }

    @Test func escapesDollarKeys() {
        #expect(KeyedArchive.escapedKey("name") == "name")
        #expect(KeyedArchive.escapedKey("$class") == "$$class")
        #expect(KeyedArchive.unescapedKey("$$class") == "$class")
        #expect(KeyedArchive.unescapedKey("$class") == nil)
        #expect(KeyedArchive.unescapedKey("$0") == nil)
        #expect(KeyedArchive.unescapedKey("name") == "name")
    }

    @Test func rejectsWhatIsNotAnArchive() {
        let cases: [(PropertyListValue, KeyedArchiveError.Code)] = [
            ([1], .notAnArchive),
            (["$version": 100_000], .notAnArchive),
            (["$archiver": "NSKeyedArchiverX", "$version": 100_000], .unsupportedArchiver),
            (["$archiver": "NSKeyedArchiver", "$version": 99], .unsupportedVersion),
            (["$archiver": "NSKeyedArchiver", "$version": 100_000, "$objects": "x"], .invalidObjects),
            (["$archiver": "NSKeyedArchiver", "$version": 100_000, "$objects": ["x"]], .invalidObjects),
            (["$archiver": "NSKeyedArchiver", "$version": 100_000, "$objects": ["$null"]], .invalidTop),
            (
                ["$archiver": "NSKeyedArchiver", "$version": 100_000, "$objects": ["$null"], "$top": ["root": [1]]],
                .invalidTop
            ),
        ]
        for (value, code) in cases {
            #expect(throws: KeyedArchiveError(code)) { try KeyedArchive(propertyList: value) }
        }
        #expect(throws: KeyedArchiveError(.malformedPropertyList)) { try KeyedArchive(parsing: [UInt8]("nope".utf8)) }
    }

    @Test func referencesOutOfRangeThrow() throws {
        let archive = try KeyedArchive(parsing: Fixtures.apple("integer_10.bplist"))
        #expect(throws: KeyedArchiveError(.invalidReference)) { try archive.object(for: UID(2)) }
        #expect(throws: KeyedArchiveError(.missingClass)) { try archive.archivedClass(of: ["a": 1]) }
        #expect(throws: KeyedArchiveError(.invalidClass)) { try archive.archivedClass(of: ["$class": .uid(1)]) }
    }
}
