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
import PropertyLists
import Testing

/// Replays the fuzzers' fail cases (`FuzzTesting/FailCases/<Target>/`) through the same calls the
/// property-list fuzz targets make: each file must throw or parse, and what parses must round-trip.
/// A regression shows up as a trap, which stops the test run.
@Suite struct FailCaseReplayTests {
    /// `FuzzTesting/FailCases`, found from this file so the test needs no resources.
    static let directory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()
        .deletingLastPathComponent()
        .deletingLastPathComponent()
        .appendingPathComponent("FuzzTesting/FailCases")

    /// The fail cases of one fuzz target, sorted by name; none if the target has no folder.
    static func failCases(_ target: String) throws -> [(name: String, bytes: [UInt8])] {
        let folder = Self.directory.appendingPathComponent(target)
        guard FileManager.default.fileExists(atPath: folder.path) else { return [] }
        return try FileManager.default.contentsOfDirectory(atPath: folder.path)
            .filter { !$0.hasPrefix(".") }
            .sorted()
            .map { ($0, [UInt8](try Data(contentsOf: folder.appendingPathComponent($0)))) }
    }

    @Test func failCasesDirectoryExists() {
        var isDirectory: ObjCBool = false
        #expect(FileManager.default.fileExists(atPath: Self.directory.path, isDirectory: &isDirectory))
        #expect(isDirectory.boolValue)
    }

    @Test func binaryPropertyListFailCases() throws {
        let cases = try Self.failCases("FuzzBinaryPlist")
        #expect(cases.contains { $0.name == "self-referencing-array.bplist" })
        for (name, bytes) in cases {
            let value: PropertyListValue
            do {
                value = try BinaryPropertyListReader(bytes: bytes).topLevelValue()
            } catch {
                continue
            }
            Self.expectRoundTrips(value, name)
        }
    }

    @Test func selfReferencingArrayIsAnError() throws {
        let bytes = try #require(
            try Self.failCases("FuzzBinaryPlist").first { $0.name == "self-referencing-array.bplist" }
        )
        #expect(throws: PropertyListError.self) { try BinaryPropertyListReader(bytes: bytes.bytes).topLevelValue() }
        #expect(throws: PropertyListError.self) { try PropertyListValue(parsing: bytes.bytes) }
    }

    /// Found by `FuzzBinaryPlist`: a date a hair below the reference date. CoreFoundation's calendar
    /// arithmetic, which the XML writer follows, spells it as second 60 of the minute before, which
    /// reads back as the whole second after its floor. The fuzz target's XML check allows that.
    @Test func dateAHairBelowAWholeSecondSpellsSecondSixty() throws {
        let file = try #require(
            try Self.failCases("FuzzBinaryPlist").first { $0.name == "date-a-hair-below-a-whole-second.bplist" }
        )
        let value = try BinaryPropertyListReader(bytes: file.bytes).topLevelValue()
        #expect(value == .date(Date(timeIntervalSinceReferenceDate: -2.884599991100689e-306)))
        let xml = XMLPropertyListWriter().write(value)
        #expect(String(decoding: xml, as: UTF8.self).contains("<date>2000-12-31T23:59:60Z</date>"))
        #expect(try XMLPropertyListReader().read(xml) == .date(Date(timeIntervalSinceReferenceDate: 0)))
    }

    /// Found by the `FuzzBinaryPlist` smoke run: 166 bytes of two-element arrays that share their
    /// elements 16 levels deep. Within the default budget they read as 2^17 - 1 values; a budget
    /// of 256 KiB (the fuzz targets') refuses them before building any.
    @Test func sharedArraysExpandWithinTheBudgetOnly() throws {
        let file = try #require(
            try Self.failCases("FuzzBinaryPlist").first { $0.name == "shared-arrays-within-a-megabyte.bplist" }
        )
        func count(_ value: PropertyListValue) -> Int {
            guard case .array(let elements) = value else { return 1 }
            return elements.reduce(1) { $0 + count($1) }
        }
        let value = try BinaryPropertyListReader(bytes: file.bytes).topLevelValue()
        #expect(count(value) == 131_071)

        var limits = PropertyListLimits.default
        limits.decodedSizeAllowance = 1 << 18
        limits.maximumExpansion = 16
        let error = #expect(throws: PropertyListError.self) {
            try BinaryPropertyListReader(bytes: file.bytes, limits: limits).topLevelValue()
        }
        #expect(error?.code == .decodedSizeLimitExceeded)
    }

    /// Found by `FuzzKeyedArchive`: an 8-byte object reference of 2^63 or more read as a negative
    /// index, passed the `index < objectCount` check and trapped on the cache subscript.
    @Test func negativeObjectReferenceIsAnInvalidReference() throws {
        let file = try #require(
            try Self.failCases("FuzzBinaryPlist").first { $0.name == "negative-object-reference.bplist" }
        )
        #expect(throws: PropertyListError(.invalidReference)) {
            try BinaryPropertyListReader(bytes: file.bytes).topLevelValue()
        }
        #expect(throws: PropertyListError(.invalidReference)) { try PropertyListValue(parsing: file.bytes) }
    }

    @Test func xmlPropertyListFailCases() throws {
        for (name, bytes) in try Self.failCases("FuzzXMLPlist") {
            let value: PropertyListValue
            do {
                value = try XMLPropertyListReader().read(bytes)
            } catch {
                continue
            }
            Self.expectRoundTrips(value, name)
        }
    }

    /// A parsed value survives a binary write and read exactly; its XML parses again.
    static func expectRoundTrips(_ value: PropertyListValue, _ name: String) {
        let binary = BinaryPropertyListWriter().write(value)
        #expect((try? BinaryPropertyListReader(bytes: binary).topLevelValue()) == value, "\(name)")
        _ = try? XMLPropertyListReader().read(XMLPropertyListWriter().write(value))
    }
}
