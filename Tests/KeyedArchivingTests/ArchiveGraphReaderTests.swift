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
import TestSupport
import Testing

@testable import KeyedArchiving

/// One reader of an archive's graph: reading a tree, decoding the bytes in place and validating
/// report a broken graph with the same code and the same words.
@Suite struct ArchiveGraphReaderTests {
    private struct Probe: Decodable {
        var value: Int?
    }

    /// The `KeyedArchiveError` a `DecodingError` wraps.
    private func underlying(_ error: any Error) -> KeyedArchiveError? {
        switch error as? DecodingError {
        case .dataCorrupted(let context)?, .typeMismatch(_, let context)?:
            return context.underlyingError as? KeyedArchiveError
        default: return nil
        }
    }

    /// The error decoding `bytes` in place throws.
    private func decodingError(_ bytes: Data) -> KeyedArchiveError? {
        do {
            _ = try KeyedArchiveDecoder().decode(Probe.self, from: bytes)
            return nil
        } catch {
            return self.underlying(error)
        }
    }

    private static let validEnvelope: PropertyListDictionary = [
        "$archiver": "NSKeyedArchiver", "$version": 100_000, "$top": [:], "$objects": ["$null"],
    ]

    private static func envelope(_ key: String, _ value: PropertyListValue) -> PropertyListValue {
        var dictionary = Self.validEnvelope
        dictionary[key] = value
        return .dictionary(dictionary)
    }

    static let brokenEnvelopes: [(PropertyListValue, String)] = [
        ([1], "notAnArchive: the top level is an array, not a dictionary"),
        (
            envelope("$archiver", "MyArchiver"),
            #"unsupportedArchiver: $archiver is "MyArchiver", not "NSKeyedArchiver""#
        ),
        (envelope("$version", 99), "unsupportedVersion: $version is 99, not 100000"),
        (envelope("$objects", ["x"]), #"invalidObjects: $objects does not start with "$null""#),
        (envelope("$objects", 7), "invalidObjects: $objects is missing or not an array"),
        (envelope("$top", ["root": [1]]), #"invalidTop: $top["root"] is an array, not a UID or an inline scalar"#),
        (envelope("$top", 3), "invalidTop: $top is missing or not a dictionary"),
    ]

    @Test(arguments: Self.brokenEnvelopes)
    func everyPathReportsABrokenEnvelopeAlike(value: PropertyListValue, finding: String) throws {
        let bytes = value.serialized(as: .binary)
        let tree = #expect(throws: KeyedArchiveError.self) { try KeyedArchive(propertyList: value) }
        let inPlace = try #require(self.decodingError(bytes))
        #expect(inPlace.code == tree?.code)
        #expect(inPlace.reason == tree?.reason)
        #expect(ArchiveValidator().validate(bytes: bytes).map(\.description) == [finding])
        #expect(finding == "\(inPlace.code): \(inPlace.reason)")
    }

    static let brokenClasses: [([PropertyListValue], KeyedArchiveError.Code, String)] = [
        (["$null", ["value": 1]], .missingClass, "an object dictionary without $class"),
        (["$null", ["$class": "Cat", "value": 1]], .invalidClass, "$class is a string, not a UID"),
        (["$null", ["$class": .uid(9), "value": 1]], .invalidReference, "UID 9 is not below the object count 2"),
        (
            ["$null", ["$class": .uid(2)], "Cat"], .invalidClass,
            "$class refers to UID 2, which is not a class dictionary"
        ),
        (["$null", ["$class": .uid(2)], ["$classname": 7]], .invalidClass, "$classname is not a string"),
        (
            ["$null", ["$class": .uid(2)], ["$classname": "Cat", "$classes": ["Cat", 7]]], .invalidClass,
            "$classes is not an array of strings"
        ),
    ]

    @Test(arguments: Self.brokenClasses)
    func readingAndDecodingReportABrokenClassAlike(
        objects: [PropertyListValue],
        code: KeyedArchiveError.Code,
        reason: String
    ) throws {
        let archive = KeyedArchive(top: [("root", UID(1))], objects: objects)
        let tree = #expect(throws: KeyedArchiveError.self) { try archive.archivedClass(of: archive.objects[1]) }
        #expect(tree?.code == code)
        #expect(tree?.reason == reason)
        let inPlace = try #require(self.decodingError(archive.serialized()))
        #expect(inPlace.code == code)
        #expect(inPlace.reason == reason)
    }

    /// Whether every string in a value is ASCII, so that a tree's UTF-8 length of each is the
    /// length it is stored with in a binary property list.
    private static func isASCII(_ value: PropertyListValue) -> Bool {
        switch value {
        case .string(let string): string.utf8.allSatisfy { $0 < 0x80 }
        case .array(let elements): elements.allSatisfy(Self.isASCII)
        case .dictionary(let dictionary):
            dictionary.allSatisfy { Self.isASCII(.string($0.key)) && Self.isASCII($0.value) }
        default: true
        }
    }

    @Test(arguments: Fixtures.appleFixtureNames)
    func theDecodedSizeBaselineIsTheSameInPlaceAndInATree(name: String) throws {
        let bytes = try Fixtures.apple(name)
        let archive = try KeyedArchive(parsing: bytes)
        guard archive.objects.allSatisfy(Self.isASCII) else { return }
        let limits = PropertyListLimits.default
        let session = try ArchiveDecodingSession(
            checking: ArchiveDecodingSession.list(copying: bytes, limits: limits, into: nil),
            options: KeyedArchiveDecoder().options
        )
        #expect(session.distinctDecodedSize() == archive.graph.distinctDecodedSize(maximumDepth: limits.maximumDepth))
    }

    @Test func aClassDictionaryIsReadLenientlyAndValidatedStrictly() throws {
        let archive = KeyedArchive(
            top: [("root", UID(1))],
            objects: ["$null", ["$class": .uid(2), "value": 1], ["$classname": "Cat", "$classhints": [3]]]
        )
        let archivedClass = try #require(try archive.archivedClass(of: archive.objects[1]))
        #expect(archivedClass == ArchivedClass(name: "Cat", classes: ["Cat"], hints: []))
        #expect(try KeyedArchiveDecoder().decode(Probe.self, from: archive.serialized()).value == 1)
        #expect(
            ArchiveValidator().validate(archive).map(\.description) == [
                "invalidClass at UID 2: no $classes array",
                "invalidClass at UID 2: $classhints is not an array of strings",
            ]
        )
    }
}
