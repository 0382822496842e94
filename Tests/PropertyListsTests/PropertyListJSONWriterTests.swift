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

@Suite struct PropertyListJSONWriterTests {
    private func compact(_ value: PropertyListValue) -> String {
        PropertyListJSONWriter().string(from: value)
    }

    private func date(_ interval: TimeInterval) -> PropertyListValue {
        .date(Date(timeIntervalSinceReferenceDate: interval))
    }

    @Test func writesScalarsAsJSONValues() {
        #expect(compact("Tom") == #""Tom""#)
        #expect(compact(9) == "9")
        #expect(compact(-42) == "-42")
        #expect(compact(true) == "true")
        #expect(compact(false) == "false")
        #expect(compact(.uid(7)) == #"{"$uid":7}"#)
        #expect(compact(.uid(UID(UInt64.max))) == #"{"$uid":18446744073709551615}"#)
    }

    @Test func writesEveryIntegerExactly() {
        #expect(compact(.integer(PropertyListInteger(Int64.min))) == "-9223372036854775808")
        #expect(compact(.integer(PropertyListInteger(Int64.max))) == "9223372036854775807")
        // Above Int64.max: binary property lists store these as 16-byte integers.
        #expect(compact(.integer(PropertyListInteger(UInt64(Int64.max) + 1))) == "9223372036854775808")
        #expect(compact(.integer(PropertyListInteger(UInt64.max))) == "18446744073709551615")
        #expect(compact(0) == "0")
    }

    @Test(arguments: [
        (4.5, "4.5"),
        (1.0, "1.0"),
        (-0.0, "-0.0"),
        (0.1, "0.1"),
        (1e-7, "1e-07"),
        (1e16, "1e+16"),
        (123_456_789.125, "123456789.125"),
        (Double.leastNonzeroMagnitude, "5e-324"),
        (Double.greatestFiniteMagnitude, "1.7976931348623157e+308"),
    ])
    func writesRealsInShortestRoundTripForm(value: Double, expected: String) {
        #expect(compact(.real(value)) == expected)
        #expect(Double(expected) == value)
    }

    @Test func writesFloatsWithTheirOwnShortestForm() {
        #expect(compact(.float(0.1)) == "0.1")
        #expect(compact(.float(1.5)) == "1.5")
        #expect(compact(.float(3.4028235e38)) == "3.4028235e+38")
    }

    @Test func writesNonFiniteRealsAsTaggedStrings() {
        #expect(compact(.real(.nan)) == #"{"$real":"nan"}"#)
        #expect(compact(.real(-.nan)) == #"{"$real":"nan"}"#)
        #expect(compact(.real(.signalingNaN)) == #"{"$real":"nan"}"#)
        #expect(compact(.real(.infinity)) == #"{"$real":"inf"}"#)
        #expect(compact(.real(-.infinity)) == #"{"$real":"-inf"}"#)
        #expect(compact(.float(.nan)) == #"{"$real":"nan"}"#)
        #expect(compact(.float(-.infinity)) == #"{"$real":"-inf"}"#)
    }

    @Test func escapesStrings() {
        #expect(compact(#"say "hi" \ bye"#) == #""say \"hi\" \\ bye""#)
        #expect(compact("a\nb\rc\td\u{08}e\u{0C}f") == #""a\nb\rc\td\be\ff""#)
        #expect(compact("\u{00}\u{01}\u{1F}") == #""\u0000\u0001\u001f""#)
        #expect(compact("/ and \u{7F}") == "\"/ and \u{7F}\"")
    }

    @Test func writesNonASCIIAsUTF8() {
        let text = "Café 猫 🐈‍⬛ \u{2028}"
        #expect(PropertyListJSONWriter().write(.string(text)) == Array("\"\(text)\"".utf8))
    }

    @Test(arguments: 0..<8)
    func writesDataAsPaddedBase64(length: Int) {
        let bytes = Data((0..<length).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 250) })
        #expect(compact(.data(bytes)) == #"{"$data":""# + bytes.base64EncodedString() + #""}"#)
    }

    @Test func writesLargeDataWithoutLineBreaks() {
        let bytes = Data((0..<1000).map { UInt8(truncatingIfNeeded: $0) })
        #expect(compact(.data(bytes)) == #"{"$data":""# + bytes.base64EncodedString() + #""}"#)
        #expect(compact(.data(Data([0xFB, 0xFF]))) == #"{"$data":"+/8="}"#)
        #expect(compact(.data(Data("Man".utf8))) == #"{"$data":"TWFu"}"#)
        #expect(compact(.data(Data("Ma".utf8))) == #"{"$data":"TWE="}"#)
        #expect(compact(.data(Data("M".utf8))) == #"{"$data":"TQ=="}"#)
    }

    @Test(arguments: [
        (680_457_815.615284, "2022-07-25T16:03:35.615284Z"),
        (0, "2001-01-01T00:00:00Z"),
        (0.5, "2001-01-01T00:00:00.5Z"),
        (0.25, "2001-01-01T00:00:00.25Z"),
        (1e-7, "2001-01-01T00:00:00Z"),
        (0.999_999_6, "2001-01-01T00:00:01Z"),
        (59.000_001, "2001-01-01T00:00:59.000001Z"),
        (-1.5, "2000-12-31T23:59:58.5Z"),
        (-26_524_800, "2000-02-29T00:00:00Z"),
        (-978_307_200, "1970-01-01T00:00:00Z"),
        (-978_393_600, "1969-12-31T00:00:00Z"),
        (-978_307_200.25, "1969-12-31T23:59:59.75Z"),
        (-3_182_198_400, "1900-03-01T00:00:00Z"),
        (-12_649_305_600, "1600-02-29T00:00:00Z"),
        (252_423_907_200, "9999-12-31T00:00:00Z"),
        (252_423_993_600, "+10000-01-01T00:00:00Z"),
        (-63_113_904_000, "0001-01-01T00:00:00Z"),
        (-63_113_990_400, "0000-12-31T00:00:00Z"),
        (-63_177_062_400, "-0001-01-01T00:00:00Z"),
    ])
    func writesDatesAsISO8601InUTC(interval: TimeInterval, expected: String) {
        #expect(compact(date(interval)) == #"{"$date":""# + expected + #""}"#)
    }

    @Test func writesDistantDatesInTheProlepticGregorianCalendar() {
        // Foundation prints distantPast as 0001-01-01 in the Julian calendar; ISO 8601 is proleptic Gregorian.
        #expect(compact(.date(.distantPast)) == #"{"$date":"0000-12-30T00:00:00Z"}"#)
        #expect(compact(.date(.distantFuture)) == #"{"$date":"4001-01-01T00:00:00Z"}"#)
    }

    @Test func writesUncalendarableDatesAsTheirInterval() {
        #expect(compact(date(.nan)) == #"{"$date":"nan"}"#)
        #expect(compact(date(.infinity)) == #"{"$date":"inf"}"#)
        #expect(compact(date(-.infinity)) == #"{"$date":"-inf"}"#)
        #expect(compact(date(1e300)) == #"{"$date":"1e+300"}"#)
        #expect(compact(date(-1e16)) == #"{"$date":"-1e+16"}"#)
    }

    @Test func writesContainersCompactly() {
        #expect(compact([]) == "[]")
        #expect(compact([:]) == "{}")
        #expect(compact([1, "two", [3.5]]) == #"[1,"two",[3.5]]"#)
        #expect(compact(["b": 1, "a": [:], "c": []]) == #"{"b":1,"a":{},"c":[]}"#)
    }

    @Test func sortsKeysByCodePointWhenAsked() {
        let value: PropertyListValue = ["b": 1, "a": ["z": 1, "y": 2], "B": 3, "é": 4, "e": 5]
        let writer = PropertyListJSONWriter(outputFormatting: .sortedKeys)
        #expect(writer.string(from: value) == #"{"B":3,"a":{"y":2,"z":1},"b":1,"e":5,"é":4}"#)
        #expect(compact(value) == #"{"b":1,"a":{"z":1,"y":2},"B":3,"é":4,"e":5}"#)
    }

    @Test func prettyPrintsWithTwoSpaceIndentAndInlineTags() {
        let value: PropertyListValue = [
            "name": "Tom",
            "tags": ["cat", []],
            "empty": [:],
            "owner": .uid(1),
            "photo": .data(Data([0x89, 0x50, 0x4E, 0x47])),
            "born": .date(Date(timeIntervalSinceReferenceDate: 680_457_815.615284)),
            "nested": ["weight": 4.5, "bad": .real(.nan)],
        ]
        let expected = """
            {
              "name": "Tom",
              "tags": [
                "cat",
                []
              ],
              "empty": {},
              "owner": {"$uid": 1},
              "photo": {"$data": "iVBORw=="},
              "born": {"$date": "2022-07-25T16:03:35.615284Z"},
              "nested": {
                "weight": 4.5,
                "bad": {"$real": "nan"}
              }
            }
            """
        #expect(PropertyListJSONWriter(outputFormatting: .prettyPrinted).string(from: value) == expected)
    }

    @Test func prettyPrintsScalarsAtTopLevelOnOneLine() {
        let writer = PropertyListJSONWriter(outputFormatting: [.prettyPrinted, .sortedKeys])
        #expect(writer.string(from: "x") == #""x""#)
        #expect(writer.string(from: .uid(3)) == #"{"$uid": 3}"#)
        #expect(writer.string(from: []) == "[]")
    }

    @Test func wrapsDictionariesThatLookLikeTaggedValues() {
        #expect(compact(["$uid": 1]) == #"{"$dict":{"$uid":1}}"#)
        #expect(compact(["$data": "x"]) == #"{"$dict":{"$data":"x"}}"#)
        #expect(compact(["$dict": [:]]) == #"{"$dict":{"$dict":{}}}"#)
        #expect(compact(["$uid": 1, "other": 2]) == #"{"$uid":1,"other":2}"#)
        #expect(compact(["$archiver": "NSKeyedArchiver"]) == #"{"$archiver":"NSKeyedArchiver"}"#)
    }

    @Test func producesJSONThatFoundationReadsBack() throws {
        let value: PropertyListValue = [
            "s": "q\"\\\n\u{01}é",
            "i": .integer(PropertyListInteger(UInt64.max)),
            "r": 0.1,
            "b": true,
            "a": [1, [2, [3]]],
            "d": .data(Data([1, 2, 3, 4, 5])),
        ]
        for formatting: PropertyListJSONWriter.OutputFormatting in [[], .prettyPrinted, [.prettyPrinted, .sortedKeys]] {
            let json = PropertyListJSONWriter(outputFormatting: formatting).write(value)
            let object = try #require(try JSONSerialization.jsonObject(with: Data(json)) as? [String: Any])
            #expect(object["s"] as? String == "q\"\\\n\u{01}é")
            #expect(object["r"] as? Double == 0.1)
            #expect((object["d"] as? [String: String])?["$data"] == "AQIDBAU=")
            #expect((object["a"] as? [Any])?.count == 2)
        }
    }
}
