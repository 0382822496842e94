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

/// Type-erased resolution of Apple-made archives, checked against the values `SOURCES.md` lists.
@Suite struct ArchivedValueTests {
    private func resolve(_ fixture: String) throws -> ArchivedValue {
        try ArchivedValue(archive: KeyedArchive(parsing: Fixtures.apple(fixture)))
    }

    @Test(arguments: Fixtures.appleFixtureNames)
    func everyFixtureResolves(name: String) throws {
        guard case .top(let fields) = try resolve(name) else {
            Issue.record("not a top-level value")
            return
        }
        #expect(!fields.isEmpty)
    }

    @Test func customClassWithArrayAndDictionary() throws {
        let root = try #require(try resolve("complex_archive.plist")["root"])
        #expect(root.className == "crap.Foo")
        #expect(root["title"] == .string("yo"))
        #expect(root["count"] == .integer(42))
        #expect(root["active"] == .bool(true))
        #expect(root["categories"] == .array([.string("banana"), .string("apple")], className: "NSArray"))
        let metadata = try #require(root["metadata"])
        #expect(metadata.className == "NSDictionary")
        #expect(metadata["fruit"] == .string("kiwi"))
        #expect(metadata["veg"] == .string("asparagus"))
    }

    @Test func cycleBecomesAReference() throws {
        let root = try #require(try resolve("circular_archive.plist")["root"])
        #expect(root["title"] == .string("hello"))
        #expect(root["recursive"] == .reference(UID(1)))
    }

    @Test func foundationValueClasses() throws {
        let root = try #require(try resolve("NSKeyedUnarchiver-ComplexTest.plist")["root"])
        #expect(root.className == "NSDictionary")
        #expect(root["string"] == .string("hello"))
        #expect(
            root["array"]
                == .array(
                    [
                        .null, .string("hello"), .integer(34_545),
                        .dictionary([.init(key: .string("key"), value: .string("val"))], className: "NSDictionary"),
                    ],
                    className: "NSArray"
                )
        )
        #expect(root["url"] == .url("https://www.swift.org/index.xml"))
        #expect(root["uuid"] == .uuid(try #require(UUID(uuidString: "71DC068E-3420-45FF-919E-3A267D55EC22"))))
    }

    @Test func urlWithABase() throws {
        #expect(try resolve("NSKeyedUnarchiver-URLTest.plist")["root"] == .url("https://www.example.com/foo.xml"))
    }

    @Test func uuid() throws {
        let expected = try #require(UUID(uuidString: "0AD863BA-7584-40CF-8896-BD87B3280C34"))
        #expect(try resolve("NSKeyedUnarchiver-UUIDTest.plist")["root"] == .uuid(expected))
    }

    @Test func orderedSetUsesNumberedKeys() throws {
        let root = try resolve("NSKeyedUnarchiver-OrderedSetTest.plist")["root"]
        #expect(root == .array([.string("valgeir"), .string("nico"), .string("puzzle")], className: "NSOrderedSet"))
    }

    @Test func setsAndGenericTopKeys() throws {
        let top = try resolve("arrays.bin")
        #expect(
            top["$1"] == .array([.bool(true), .string("Hello, World!"), .integer(42)], className: "NSMutableArray")
        )
        #expect(top["$2"] == .array([.bool(true)], className: "NSSet"))
        guard case .array(let elements, let className)? = top["$3"] else {
            Issue.record("$3 is not a set")
            return
        }
        #expect(className == "NSMutableSet")
        #expect(Set(elements) == [.integer(42), .bool(true), .string("Hello, World!")])
    }

    @Test func datesInsideALargeArchive() throws {
        let root = try #require(try resolve("nsarray_runningprocesses.bplist")["root"])
        guard case .array(let records, let className) = root else {
            Issue.record("root is not an array")
            return
        }
        #expect(className == "NSMutableArray")
        #expect(records.count == 328)
        #expect(records[0]["name"] == .string("contactsd"))
        #expect(records[0]["pid"] == .integer(84_474))
        #expect(records[0]["isApplication"] == .bool(false))
        #expect(records[0]["startDate"] == .date(Date(timeIntervalSinceReferenceDate: 680_457_815.615284)))
    }

    @Test func mutableStringsAndUnreachableObjects() throws {
        let root = try #require(try resolve("nsdictionary_setconfig.bplist")["root"])
        #expect(root["ur"] == .integer(500))
        #expect(root["rp"] == .integer(10))
        let entry = try #require(root["tc"]?[0])
        #expect(entry["uuid"] == .string("2C46B61A-CDA9-4D59-B901-22E28B08C260"))
        #expect(entry["tk"] == .integer(3))
    }

    @Test func sharingStaysLinear() throws {
        // 30 arrays, each holding the previous one twice: 2^30 leaves if expanded naively.
        var objects: [PropertyListValue] = [
            "$null", "leaf", ["$classname": "NSArray", "$classes": ["NSArray", "NSObject"]],
        ]
        var previous = UID(1)
        for _ in 0..<30 {
            objects.append(["$class": .uid(2), "NS.objects": [.uid(previous), .uid(previous)]])
            previous = UID(UInt64(objects.count - 1))
        }
        let archive = KeyedArchive(top: [("root", previous)], objects: objects)
        // The tree described is far beyond the default decoded-size budget…
        #expect(throws: KeyedArchiveError(.decodedSizeLimitExceeded)) { try ArchivedValue(archive: archive) }
        // …but resolving it stays linear, as a caller who lifts the budget sees.
        var limits = PropertyListLimits.default
        limits.decodedSizeAllowance = .max
        let value = try ArchivedValue(archive: archive, limits: limits)
        var depth = 0
        var cursor = value["root"]
        while case .array(let elements, _)? = cursor {
            depth += 1
            cursor = elements.first
        }
        #expect(depth == 30)
    }

    @Test func malformedGraphsThrow() throws {
        let nsArray: PropertyListValue = ["$classname": "NSArray", "$classes": ["NSArray", "NSObject"]]
        let cases: [([PropertyListValue], KeyedArchiveError.Code)] = [
            (["$null", ["NS.objects": [.uid(9)], "$class": .uid(2)], nsArray], .invalidReference),
            (["$null", ["NS.objects": []]], .missingClass),
            (["$null", ["$class": .uid(0)]], .invalidClass),
            (
                [
                    "$null", ["NS.keys": [.uid(0)], "NS.objects": [], "$class": .uid(2)],
                    ["$classname": "NSDictionary"],
                ], .unexpectedObject
            ),
        ]
        for (objects, code) in cases {
            let archive = KeyedArchive(top: [("root", UID(1))], objects: objects)
            #expect(throws: KeyedArchiveError(code)) { try ArchivedValue(archive: archive) }
        }
        var deep: [PropertyListValue] = ["$null", nsArray]
        for index in 2..<40 { deep.append(["$class": .uid(1), "NS.objects": [.uid(UID(UInt64(index + 1)))]]) }
        deep.append("end")
        let archive = KeyedArchive(top: [("root", UID(2))], objects: deep)
        #expect(throws: KeyedArchiveError(.depthLimitExceeded)) {
            try ArchivedValue(archive: archive, limits: PropertyListLimits(maximumDepth: 10))
        }
    }
}
