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

/// Foundation's `NSKeyedArchiver` stores integers, reals and Booleans encoded at the top level
/// inline in `$top`; every reader accepts them.
@Suite struct TopInlineValueTests {
    private static let fixture = "top-inline-scalars.archive"

    private func archive() throws -> KeyedArchive {
        try KeyedArchive(parsing: Fixtures.foundation(Self.fixture))
    }

    @Test func parsesInlineScalarsInArchiveOrder() throws {
        let bytes = try Fixtures.foundation(Self.fixture)
        let archive = try KeyedArchive(parsing: bytes)
        let stored = try #require(try PropertyListValue(parsing: bytes)["$top"]?.dictionaryValue)
        #expect(archive.top.map(\.key) == stored.keys)
        #expect(archive.topUID(forKey: "root") == UID(1))
        #expect(archive.topValue(forKey: "count") == 42)
        #expect(archive.topValue(forKey: "flag") == true)
        #expect(archive.topValue(forKey: "ratio") == 2.5)
        #expect(archive.topUID(forKey: "count") == nil)
        #expect(archive.top.first { $0.key == "count" }?.uid == nil)
    }

    @Test func validatorAcceptsInlineScalars() throws {
        #expect(ArchiveValidator().validate(bytes: try Fixtures.foundation(Self.fixture)).isEmpty)
        #expect(ArchiveValidator().validate(try self.archive()).isEmpty)
    }

    @Test func validatorRejectsInlineContainers() {
        let objects: PropertyListValue = ["$null"]
        let envelope: PropertyListValue = [
            "$archiver": "NSKeyedArchiver", "$version": 100_000, "$objects": objects, "$top": ["list": [1, 2]],
        ]
        #expect(ArchiveValidator().validate(propertyList: envelope).map(\.code) == [.invalidTop])
        #expect(throws: KeyedArchiveError(.invalidTop)) { try KeyedArchive(propertyList: envelope) }
    }

    @Test func resolvesInlineScalars() throws {
        let value = try ArchivedValue(archive: self.archive())
        #expect(value["count"] == .integer(42))
        #expect(value["flag"] == .bool(true))
        #expect(value["ratio"] == .real(2.5))
        #expect(
            value["root"] == .array([.string("tabby"), .string("tabby"), .string("striped")], className: "NSArray")
        )
        let graph = try ArchivedObjectGraph(archive: self.archive())
        #expect(graph.top.first { $0.key == "count" }?.value == .integer(42))
    }

    @Test func unarchiverDecodesInlineScalars() throws {
        let unarchiver = try KeyedUnarchiver(data: Fixtures.foundation(Self.fixture))
        #expect(try unarchiver.decode(Int.self, forKey: "count") == 42)
        #expect(try unarchiver.decode(Bool.self, forKey: "flag") == true)
        #expect(try unarchiver.decode(Double.self, forKey: "ratio") == 2.5)
        #expect(try unarchiver.decodeRootObject([String].self) == ["tabby", "tabby", "striped"])
        #expect(unarchiver.containsValue(forKey: "flag"))
        #expect(Set(unarchiver.allKeys) == ["root", "count", "flag", "ratio"])
        #expect(try KeyedArchiveDecoder().decode(Int.self, forKey: "count", from: self.archive()) == 42)
    }

    @Test func inlineScalarOfTheWrongTypeIsATypeMismatch() throws {
        let unarchiver = try KeyedUnarchiver(data: Fixtures.foundation(Self.fixture))
        do {
            _ = try unarchiver.decode(String.self, forKey: "count")
            Issue.record("decoded an integer as a string")
        } catch DecodingError.typeMismatch(_, let context) {
            #expect(context.codingPath.map(\.stringValue) == ["count"])
        }
    }

    @Test(arguments: PropertyListFormat.allCases)
    func roundTripsThroughThePropertyList(format: PropertyListFormat) throws {
        let archive = try self.archive()
        #expect(try KeyedArchive(propertyList: archive.propertyList) == archive)
        let again = try KeyedArchive(parsing: archive.serialized(as: format))
        #expect(again == archive)
        // Binary keeps the entries in order; XML, like Foundation's, sorts dictionary keys.
        let order = format == .binary ? archive.top.map(\.key) : archive.top.map(\.key).sorted()
        #expect(again.top.map(\.key) == order)
    }

    @Test func foundationArchiverOnThisMachineWritesWhatWeRead() throws {
        let archiver = NSKeyedArchiver(requiringSecureCoding: false)
        archiver.encode(-7, forKey: "delta")
        archiver.encode(false, forKey: "done")
        archiver.encode(0.125, forKey: "share")
        archiver.encode(NSString(string: "cat"), forKey: "name")
        archiver.finishEncoding()
        let unarchiver = try KeyedUnarchiver(data: archiver.encodedData)
        #expect(try unarchiver.decode(Int.self, forKey: "delta") == -7)
        #expect(try unarchiver.decode(Bool.self, forKey: "done") == false)
        #expect(try unarchiver.decode(Double.self, forKey: "share") == 0.125)
        #expect(try unarchiver.decode(String.self, forKey: "name") == "cat")
        #expect(unarchiver.archive.topValue(forKey: "delta") == -7)
        // And Foundation reads the archive back after it went through the model.
        let rewritten = try NSKeyedUnarchiver(forReadingFrom: unarchiver.archive.serialized())
        rewritten.requiresSecureCoding = false
        #expect(rewritten.decodeInteger(forKey: "delta") == -7)
        #expect(rewritten.decodeDouble(forKey: "share") == 0.125)
    }

    @Test func tablePrinterShowsInlineScalars() throws {
        let table = KeyedArchiveTablePrinter().string(from: try self.archive())
        #expect(table.contains("  count: 42"))
        #expect(table.contains("  flag: true"))
        #expect(table.contains("  ratio: 2.5"))
        #expect(table.contains("  root: UID 1"))
    }
}
