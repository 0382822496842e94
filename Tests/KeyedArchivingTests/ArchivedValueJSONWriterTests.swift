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

/// The JSON form of resolved archives, rule by rule, as `JSONForm.md` documents it.
@Suite struct ArchivedValueJSONWriterTests {
    private func compact(_ value: ArchivedValue) throws -> String {
        try ArchivedValueJSONWriter().string(from: value)
    }

    private static let nsArray: PropertyListValue = ["$classname": "NSArray", "$classes": ["NSArray", "NSObject"]]

    @Test func writesScalars() throws {
        #expect(try compact(.string("Tom \"the\" cat\n")) == #""Tom \"the\" cat\n""#)
        #expect(try compact(.integer(9)) == "9")
        #expect(try compact(.integer(PropertyListInteger(UInt64.max))) == "18446744073709551615")
        #expect(try compact(.real(4.25)) == "4.25")
        #expect(try compact(.float(0.1)) == "0.1")
        #expect(try compact(.bool(true)) == "true")
        #expect(try compact(.null) == "null")
    }

    @Test(arguments: [(Double.nan, "nan"), (.infinity, "inf"), (-.infinity, "-inf")])
    func writesNonFiniteRealsAsTags(value: Double, name: String) throws {
        #expect(try compact(.real(value)) == #"{"$real":"\#(name)"}"#)
        #expect(try compact(.float(Float(value))) == #"{"$real":"\#(name)"}"#)
    }

    @Test func writesFoundationValuesAsTags() throws {
        #expect(
            try compact(.date(Date(timeIntervalSinceReferenceDate: 680_457_815.615284)))
                == #"{"$date":"2022-07-25T16:03:35.615284Z"}"#
        )
        #expect(try compact(.date(Date(timeIntervalSinceReferenceDate: 0))) == #"{"$date":"2001-01-01T00:00:00Z"}"#)
        #expect(try compact(.data(Data([0, 1, 2, 3]))) == #"{"$data":"AAECAw=="}"#)
        let uuid = try #require(UUID(uuidString: "71DC068E-3420-45FF-919E-3A267D55EC22"))
        #expect(try compact(.uuid(uuid)) == #"{"$uuid":"71DC068E-3420-45FF-919E-3A267D55EC22"}"#)
        #expect(try compact(.url("https://www.swift.org/index.xml")) == #"{"$url":"https://www.swift.org/index.xml"}"#)
        #expect(try compact(.reference(UID(7))) == #"{"$ref":7}"#)
    }

    @Test func writesDatesNumbersAndDataExactlyAsThePropertyListForm() throws {
        let values: [(ArchivedValue, PropertyListValue)] = [
            (
                .date(Date(timeIntervalSinceReferenceDate: -63_114_076_800.5)),
                .date(Date(timeIntervalSinceReferenceDate: -63_114_076_800.5))
            ),
            (.date(Date(timeIntervalSinceReferenceDate: 1e300)), .date(Date(timeIntervalSinceReferenceDate: 1e300))),
            (.real(1e-7), .real(1e-7)),
            (.real(-0.0), .real(-0.0)),
            (.float(3.4e38), .float(3.4e38)),
            (.integer(PropertyListInteger(Int64.min)), .integer(PropertyListInteger(Int64.min))),
            (.data(Data(0...255)), .data(Data(0...255))),
            (.string("tab\tquote\"é\u{1}"), .string("tab\tquote\"é\u{1}")),
        ]
        for (archived, plain) in values {
            #expect(try compact(archived) == PropertyListJSONWriter().string(from: plain))
        }
    }

    @Test func writesCollections() throws {
        #expect(try compact(.array([.integer(1), .string("a")], className: "NSMutableSet")) == #"[1,"a"]"#)
        #expect(try compact(.array([], className: "NSArray")) == "[]")
        let strings: ArchivedValue = .dictionary(
            [.init(key: .string("b"), value: .integer(1)), .init(key: .string("a"), value: .null)],
            className: "NSDictionary"
        )
        #expect(try compact(strings) == #"{"b":1,"a":null}"#)
        let mixed: ArchivedValue = .dictionary(
            [.init(key: .integer(1), value: .string("one")), .init(key: .string("two"), value: .integer(2))],
            className: "NSMutableDictionary"
        )
        #expect(try compact(mixed) == #"{"$entries":[[1,"one"],["two",2]]}"#)
        #expect(try compact(.dictionary([], className: "NSDictionary")) == "{}")
    }

    @Test func wrapsDictionariesThatReadAsTags() throws {
        let tagLike: ArchivedValue = .dictionary(
            [.init(key: .string("$ref"), value: .integer(1))],
            className: "NSDictionary"
        )
        #expect(try compact(tagLike) == #"{"$dict":{"$ref":1}}"#)
        let classLike: ArchivedValue = .dictionary(
            [.init(key: .string("$class"), value: .string("Cat")), .init(key: .string("name"), value: .string("Tom"))],
            className: "NSDictionary"
        )
        #expect(try compact(classLike) == #"{"$dict":{"$class":"Cat","name":"Tom"}}"#)
    }

    @Test func writesObjectsWithTheirClassFirst() throws {
        let object: ArchivedValue = .object(
            className: "MyApp.Cat",
            classes: ["MyApp.Cat", "NSObject"],
            fields: [
                .init(key: "name", value: .string("Tom")),
                .init(key: "$class", value: .string("a coder key")),
                .init(key: "$0", value: .integer(1)),
            ]
        )
        #expect(try compact(object) == #"{"$class":"MyApp.Cat","name":"Tom","$$class":"a coder key","$0":1}"#)
        let top: ArchivedValue = .top([.init(key: "root", value: object), .init(key: "count", value: .integer(2))])
        #expect(try compact(top).hasPrefix(#"{"root":{"$class":"MyApp.Cat","#))
        #expect(try compact(top).hasSuffix(#","count":2}"#))
    }

    @Test func prettyPrintsAndSortsKeys() throws {
        let object: ArchivedValue = .top([
            .init(
                key: "root",
                value: .object(
                    className: "Cat",
                    classes: ["Cat", "NSObject"],
                    fields: [
                        .init(key: "tags", value: .array([.string("a")], className: "NSArray")),
                        .init(key: "born", value: .date(Date(timeIntervalSinceReferenceDate: 0))),
                    ]
                )
            )
        ])
        let writer = ArchivedValueJSONWriter(outputFormatting: [.prettyPrinted, .sortedKeys])
        let expected = """
            {
              "root": {
                "$class": "Cat",
                "born": {"$date": "2001-01-01T00:00:00Z"},
                "tags": [
                  "a"
                ]
              }
            }
            """
        #expect(try writer.string(from: object) == expected)
    }

    @Test func resolvesArchivesAndCyclesBecomeReferences() throws {
        let archive = try KeyedArchive(parsing: Fixtures.apple("circular_archive.plist"))
        let json = String(decoding: try ArchivedValueJSONWriter().write(archive), as: UTF8.self)
        #expect(json == #"{"root":{"$class":"crap.Foo","recursive":{"$ref":1},"title":"hello"}}"#)
    }

    @Test func writesPlainPropertyListsWithThePropertyListForm() throws {
        let value: PropertyListValue = ["a": [1, .uid(3)], "$date": "not a date"]
        let json = try ArchivedValueJSONWriter().write(propertyList: value)
        #expect(json == PropertyListJSONWriter().write(value))
    }

    @Test func stopsWhenSharingWouldMakeTheOutputHuge() throws {
        // 40 arrays, each holding the previous one twice: 2^40 leaves if written out.
        var objects: [PropertyListValue] = ["$null", "leaf", Self.nsArray]
        var previous = UID(1)
        for _ in 0..<40 {
            objects.append(["$class": .uid(2), "NS.objects": [.uid(previous), .uid(previous)]])
            previous = UID(UInt64(objects.count - 1))
        }
        let archive = KeyedArchive(top: [("root", previous)], objects: objects)
        // Resolving it is refused by the decoded-size budget…
        #expect(throws: KeyedArchiveError(.decodedSizeLimitExceeded)) { try ArchivedValueJSONWriter().write(archive) }
        // …and with the budget lifted, writing stops at the output limit.
        var limits = PropertyListLimits.default
        limits.decodedSizeAllowance = .max
        let writer = ArchivedValueJSONWriter(maximumOutputSize: 1 << 20, limits: limits)
        #expect(throws: KeyedArchiveError(.outputLimitExceeded)) { try writer.write(archive) }
    }

    @Test func unpacksNestedPropertyListsWhenAsked() throws {
        let inner = KeyedArchive(
            top: [("root", UID(1))],
            objects: ["$null", ["$class": .uid(2), "NS.objects": [.uid(3)]], Self.nsArray, "x"]
        )
        let outer: PropertyListValue = [
            "archive": .data(inner.serialized(as: .binary)),
            "plist": .data(PropertyListValue.dictionary(["k": 1]).serialized(as: .xml)),
            "bytes": .data(Data("<not xml".utf8)),
        ]
        let writer = ArchivedValueJSONWriter(expandsNestedData: true)
        let json = String(decoding: try writer.write(propertyList: outer), as: UTF8.self)
        #expect(
            json
                == #"{"archive":{"$archive":{"root":["x"]}},"plist":{"$plist":{"k":1}},"bytes":{"$data":"PG5vdCB4bWw="}}"#
        )
        let flat = String(decoding: try ArchivedValueJSONWriter().write(propertyList: outer), as: UTF8.self)
        #expect(flat.hasPrefix(#"{"archive":{"$data":"YnBsaXN0MD"#))
    }

    @Test func boundsNestingOfDataInData() throws {
        var value: PropertyListValue = "core"
        for _ in 0..<40 { value = .data(value.serialized(as: .binary)) }
        let json = String(
            decoding: try ArchivedValueJSONWriter(expandsNestedData: true).write(propertyList: value),
            as: UTF8.self
        )
        #expect(json.components(separatedBy: "$plist").count - 1 == 16)
        #expect(json.contains("$data"))
    }
}
