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

/// Strict checks of keyed archives: every Apple fixture passes, every hand-made fault is found.
@Suite struct ArchiveValidatorTests {
    private static let nsArray: PropertyListValue = ["$classname": "NSArray", "$classes": ["NSArray", "NSObject"]]

    private func findings(_ objects: [PropertyListValue], top: [(String, UID)] = [("root", 1)]) -> [String] {
        ArchiveValidator().validate(KeyedArchive(top: top.map { ($0.0, $0.1) }, objects: objects)).map(\.description)
    }

    @Test(arguments: Fixtures.appleFixtureNames.filter { $0 != "circular_archive.plist" })
    func appleFixturesAreValid(name: String) throws {
        #expect(ArchiveValidator().validate(bytes: try Fixtures.apple(name)) == [])
    }

    @Test func cyclesAreFindingsUnlessAllowed() throws {
        let bytes = try Fixtures.apple("circular_archive.plist")
        #expect(
            ArchiveValidator().validate(bytes: bytes).map(\.description) == [
                "cyclicReference at UID 1: an object reaches itself: UID 1 → UID 1"
            ]
        )
        #expect(ArchiveValidator(allowsCycles: true).validate(bytes: bytes) == [])
    }

    @Test func findsReferencesOutOfRange() {
        let result = findings(
            ["$null", ["$class": .uid(2), "NS.objects": [.uid(3), .uid(99)]], Self.nsArray, "x"],
            top: [("root", 1), ("other", 50)]
        )
        #expect(
            result == [
                "invalidReference at UID 50: $top[\"other\"] refers to UID 50, beyond the 4 entries of $objects",
                "invalidReference at UID 1: NS.objects[1] refers to UID 99, beyond the 4 entries of $objects",
            ]
        )
    }

    @Test func findsMalformedClasses() {
        let result = findings([
            "$null",
            ["$class": .uid(3), "a": .uid(4), "b": .uid(5), "c": .uid(6)],
            ["$classname": 7, "$classes": ["X"]],  // 2: name is not a string
            ["$classname": "Good", "$classes": ["Good", "NSObject"]],  // 3
            ["$class": .uid(2)],  // 4: its class is malformed, reported once at 2
            ["$class": "NSArray"],  // 5: $class is not a UID
            ["NS.objects": []],  // 6: no $class
            ["$classname": "NoChain"],  // 7
            ["$class": .uid(9)],  // 8: $class leads to a string
            "not a class",  // 9
        ])
        #expect(
            result == [
                "invalidClass at UID 2: $classname is not a string",
                "invalidClass at UID 5: $class is a string, not a UID",
                "missingClass at UID 6: an object dictionary without $class",
                "invalidClass at UID 7: no $classes array",
                "invalidClass at UID 8: $class refers to UID 9, which is not a class dictionary",
            ]
        )
    }

    @Test func findsObjectsOfTheWrongShape() {
        let nsDictionary: PropertyListValue = ["$classname": "NSDictionary", "$classes": ["NSDictionary", "NSObject"]]
        let result = findings([
            "$null",
            ["$class": .uid(2), "NS.keys": [.uid(4)], "NS.objects": [.uid(4), .uid(4)], "inline": ["a": 1]],
            nsDictionary,
            .uid(4),
            ["x"],
            ["$class": .uid(2), "NS.keys": [], "NS.objects": [], "cls": .uid(2)],
        ])
        #expect(
            result == [
                "unexpectedObject at UID 1: NS.keys has 1 element but NS.objects has 2",
                "unexpectedObject at UID 1: inline is an inline dictionary",
                "unexpectedObject at UID 3: a bare UID where an object belongs",
                "unexpectedObject at UID 4: an array where an object belongs",
                "unexpectedObject at UID 5: cls refers to UID 2, a class dictionary",
            ]
        )
    }

    @Test func findsNestingBeyondTheLimit() {
        var objects: [PropertyListValue] = ["$null", Self.nsArray]
        for index in 2..<30 { objects.append(["$class": .uid(1), "NS.objects": [.uid(UID(UInt64(index + 1)))]]) }
        objects.append("end")
        let archive = KeyedArchive(top: [("root", 2)], objects: objects)
        let validator = ArchiveValidator(limits: PropertyListLimits(maximumDepth: 10))
        #expect(
            validator.validate(archive).map(\.description) == [
                "depthLimitExceeded at UID 2: objects under $top[\"root\"] nest 29 deep, beyond the limit of 10"
            ]
        )
        #expect(ArchiveValidator().validate(archive) == [])
    }

    @Test func findsEveryCycle() {
        let result = findings([
            "$null",
            ["$class": .uid(2), "NS.objects": [.uid(3), .uid(1)]],
            Self.nsArray,
            ["$class": .uid(2), "NS.objects": [.uid(1)]],
        ])
        #expect(
            result == [
                "cyclicReference at UID 1: an object reaches itself: UID 1 → UID 3 → UID 1",
                "cyclicReference at UID 1: an object reaches itself: UID 1 → UID 1",
            ]
        )
    }

    @Test func checksTheEnvelope() {
        let validator = ArchiveValidator()
        #expect(
            validator.validate(propertyList: [1, 2]).map(\.description) == [
                "notAnArchive: the top level is an array, not a dictionary"
            ]
        )
        let envelope: PropertyListValue = [
            "$archiver": "MyArchiver", "$version": 99, "$top": ["root": [1]], "extra": true,
            "$objects": ["not null"],
        ]
        #expect(
            validator.validate(propertyList: envelope).map(\.description) == [
                #"unsupportedArchiver: $archiver is "MyArchiver", not "NSKeyedArchiver""#,
                "unsupportedVersion: $version is 99, not 100000",
                #"notAnArchive: unexpected top-level key "extra""#,
                #"invalidTop: $top["root"] is an array, not a UID or an inline scalar"#,
                #"invalidObjects: $objects does not start with "$null""#,
            ]
        )
        #expect(
            validator.validate(propertyList: ["$objects": ["$null"]]).map(\.code) == [
                .notAnArchive, .notAnArchive, .invalidTop,
            ]
        )
        #expect(
            validator.validate(propertyList: ["a": 1]).map(\.description) == [
                "notAnArchive: a plain property list: no $archiver or $objects key"
            ]
        )
        #expect(validator.validate(bytes: Data("nope".utf8)).map(\.code) == [.malformedPropertyList])
    }

    @Test func reportsWhatResolutionRejects() {
        let nsURL: PropertyListValue = ["$classname": "NSURL", "$classes": ["NSURL", "NSObject"]]
        let result = findings(["$null", ["$class": .uid(2), "NS.base": .uid(0)], nsURL])
        #expect(result == ["unexpectedObject at UID 1: NSURL without NS.relative"])
    }

    @Test func stopsAtTheFindingLimit() {
        var objects: [PropertyListValue] = ["$null"]
        for _ in 0..<50 { objects.append(["NS.objects": []]) }
        let archive = KeyedArchive(top: [("root", 1)], objects: objects)
        #expect(ArchiveValidator(maximumFindingCount: 10).validate(archive).count == 10)
    }
}
