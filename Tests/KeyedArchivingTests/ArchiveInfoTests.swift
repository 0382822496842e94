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

/// Summaries of property list files, checked against the values `SOURCES.md` lists.
@Suite struct ArchiveInfoTests {
    @Test func summarizesABinaryArchive() throws {
        let info = try ArchiveInfo(bytes: Fixtures.apple("NSKeyedUnarchiver-ComplexTest.plist"))
        #expect(info.format == .binary)
        #expect(info.byteCount == 686)
        let layout = try #require(info.binaryLayout)
        #expect(layout.offsetSize == 2)
        #expect(layout.referenceSize == 1)
        #expect(layout.objectCount == 84)
        #expect(layout.topObjectIndex == 0)
        #expect(layout.offsetTableOffset == 486)
        let archive = try #require(info.archive)
        #expect(archive.topKeys == ["root"])
        #expect(archive.objectCount == 23)
        #expect(archive.instanceCount == 7)
        #expect(archive.classDescriptionCount == 5)
        #expect(archive.plainValueCount == 10)
        #expect(
            archive.classes == [
                .init(name: "NSDictionary", count: 2), .init(name: "NSURL", count: 2), .init(name: "NSArray", count: 1),
                .init(name: "NSNull", count: 1), .init(name: "NSUUID", count: 1),
            ]
        )
    }

    @Test func countsTheClassesOfTheLargestFixture() throws {
        let info = try ArchiveInfo(bytes: Fixtures.apple("nsarray_runningprocesses.bplist"))
        let archive = try #require(info.archive)
        #expect(archive.classes.first == .init(name: "NSMutableDictionary", count: 328))
        #expect(Set(archive.classes.map(\.name)) == ["NSMutableDictionary", "NSDate", "NSMutableArray"])
    }

    @Test func summarizesXMLAndPlainPropertyLists() throws {
        let xml = try ArchiveInfo(bytes: Fixtures.apple("NSKeyedUnarchiver-UUIDTest.plist"))
        #expect(xml.format == .xml)
        #expect(xml.binaryLayout == nil)
        #expect(xml.archive?.classes == [.init(name: "NSUUID", count: 1)])

        let value: PropertyListValue = ["a": 1, "b": [true]]
        let plain = try ArchiveInfo(bytes: value.serialized(as: .xml))
        #expect(plain.archive == nil)
        #expect(plain.topLevelSummary == "dictionary (2 entries)")
        #expect(plain.description.hasSuffix("top level: dictionary (2 entries)\nnot a keyed archive"))
    }

    @Test func rejectsWhatIsNotAPropertyListOrABrokenArchive() throws {
        #expect(throws: KeyedArchiveError(.malformedPropertyList)) { try ArchiveInfo(bytes: Data("hello".utf8)) }
        let broken: PropertyListValue = ["$archiver": "NSKeyedArchiver", "$version": 100_000]
        #expect(throws: KeyedArchiveError(.invalidObjects)) { try ArchiveInfo(bytes: broken.serialized()) }
    }
}
