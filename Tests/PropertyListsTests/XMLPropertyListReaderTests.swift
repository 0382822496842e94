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

@Suite struct XMLPropertyListReaderTests {
    /// Reads `xml` and checks the result.
    func expectRead(
        _ xml: String,
        _ expected: PropertyListValue,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        do {
            let value = try XMLPropertyListReader().read(Array(xml.utf8))
            #expect(value == expected, sourceLocation: sourceLocation)
        } catch {
            Issue.record("unexpected \(error)", sourceLocation: sourceLocation)
        }
    }

    /// `body` inside the standard prolog and `<plist>`.
    static func document(_ body: String) -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0">
        \(body)
        </plist>

        """
    }

    /// The names of the Apple fixtures that are XML property lists.
    static var xmlFixtureNames: [String] {
        Fixtures.appleFixtureNames.filter { name in
            guard let data = try? Fixtures.apple(name) else { return false }
            return data.starts(with: Array("<?xml".utf8))
        }
    }

    @Test func readsFoundationOutputForABroadValue() throws {
        let value: PropertyListValue = [
            "strings": ["", "a<b>&c", "  kept  \n\t", "\u{0}\u{1}", "é 中 😀", "]]>", "'\""],
            "integers": [0, -1, .integer(PropertyListInteger(Int64.min)), .integer(PropertyListInteger(UInt64.max))],
            "reals": [.real(0.1), .real(-0.0), .real(1e300), .real(.nan), .real(-.infinity), .float(0.1)],
            "dates": [
                .date(Date(timeIntervalSinceReferenceDate: 0)), .date(Date(timeIntervalSinceReferenceDate: -1.25)),
                .date(Date(timeIntervalSinceReferenceDate: -63_500_000_000)),
                .date(Date(timeIntervalSinceReferenceDate: 1e12)),
            ],
            "data": [.data(Data()), .data(Data(0..<200))],
            "empty": [[], .dictionary([:])],
            "bools": [true, false],
        ]
        let read = try XMLPropertyListReader().read(try XMLFoundationOracle.xml(value))
        #expect(read == FoundationOracle.asXMLSpellsIt(value))
    }

    @Test func readsRandomFoundationOutput() throws {
        var random = XMLTestRandom(state: 5)
        for _ in 0..<300 {
            let value = random.value(depth: 4)
            let read = try XMLPropertyListReader().read(try XMLFoundationOracle.xml(value))
            #expect(read == FoundationOracle.asXMLSpellsIt(value))
        }
    }

    @Test func readsEveryXMLFixture() throws {
        let names = Self.xmlFixtureNames
        #expect(names.count >= 12)
        for name in names {
            let value = try XMLPropertyListReader().read([UInt8](try Fixtures.apple(name)))
            #expect(value["$archiver"] == "NSKeyedArchiver", "\(name)")
            #expect(value["$objects"]?[0] == "$null", "\(name)")
        }
    }

    @Test func fixtureUIDDictionariesBecomeUIDs() throws {
        let value = try XMLPropertyListReader().read([UInt8](try Fixtures.apple("NSKeyedUnarchiver-UUIDTest.plist")))
        #expect(value["$top"] == ["root": .uid(1)])
        #expect(value["$version"] == 100_000)
        #expect(value["$objects"]?[1]?["$class"] == .uid(2))
        let uuid: [UInt8] = [
            0x0A, 0xD8, 0x63, 0xBA, 0x75, 0x84, 0x40, 0xCF, 0x88, 0x96, 0xBD, 0x87, 0xB3, 0x28, 0x0C, 0x34,
        ]
        #expect(value["$objects"]?[1]?["NS.uuidbytes"] == .data(Data(uuid)))
        #expect(value["$objects"]?[2]?["$classes"] == ["NSUUID", "NSObject"])
        let primitives = try XMLPropertyListReader().read([UInt8](try Fixtures.apple("primitives.xml")))
        #expect(primitives["$top"]?["$10"] == .uid(9))
        #expect(primitives["$objects"]?[3] == .real(1.5))
        #expect(primitives["$objects"]?[4] == .data(Data("asdfasdfadsfadsf".utf8)))
    }

    @Test(arguments: ["arrays", "dict", "primitives"])
    func xmlFixturesMatchTheirBinaryTwins(_ name: String) throws {
        let xml = try XMLPropertyListReader().read([UInt8](try Fixtures.apple("\(name).xml")))
        let binary = try PropertyListValue(parsing: try Fixtures.apple("\(name).bin"))
        #expect(xml == binary)
    }

    @Test func acceptsTheOptionalPartsOfTheProlog() {
        expectRead("<string>bare</string>", "bare")
        expectRead("\u{FEFF}<?xml version='1.0'?><plist><true/></plist>", true)
        expectRead("  \n<?xml version=\"1.0\" encoding=\"utf-8\" standalone=\"yes\"?>\n<plist><false/></plist>", false)
        expectRead(
            "<!-- c --><?pi x?><!DOCTYPE plist SYSTEM \"x.dtd\"><!-- d --><plist><integer>1</integer></plist>",
            1
        )
        expectRead(
            """
            <!DOCTYPE plist [
              <!ENTITY x "a > b ] c">
              <!-- ] > -->
              <?pi ] > ?>
              <!ELEMENT plist ANY>
            ]>
            <plist version="1.0"><string>ok</string></plist>
            """,
            "ok"
        )
        expectRead("<plist version=\"1.0\" x='&lt;'  ><string>a</string></plist>  <!-- end -->\n<?pi?>\n", "a")
    }

    @Test func commentsAndProcessingInstructionsMayAppearBetweenElements() {
        expectRead(
            Self.document("<!--a--><dict><!--b--><key>k</key><?pi?><array><!--c--><true/><?p?></array><!--d--></dict>"),
            ["k": [true]]
        )
    }

    @Test func stringsKeepWhiteSpaceAndResolveReferencesAndCDATA() {
        expectRead(Self.document("<string>  a\r\n\tb  </string>"), "  a\r\n\tb  ")
        expectRead(Self.document("<string>&lt;&gt;&amp;&quot;&apos;</string>"), "<>&\"'")
        expectRead(Self.document("<string>&#65;&#x42;&#x1F600;&#233;&#1;</string>"), "AB😀é\u{1}")
        expectRead(Self.document("<string><![CDATA[<not> &markup;]]>x<![CDATA[]]></string>"), "<not> &markup;x")
        expectRead(Self.document("<string>a<!-- gone -->b<?pi gone?>c</string>"), "abc")
        expectRead(Self.document("<string>\u{0}raw control</string>"), "\u{0}raw control")
        expectRead(Self.document("<dict><key>&lt;k&gt;</key><string>v</string></dict>"), ["<k>": "v"])
    }

    @Test func selfClosingFormsAreEmptyValues() {
        expectRead(
            Self.document("<dict><key/><array/><key>d</key><dict/><key>s</key><string/><key>x</key><data/></dict>"),
            ["": [], "d": .dictionary([:]), "s": "", "x": .data(Data())]
        )
        expectRead(Self.document("<array><true></true><false> </false></array>"), [true, false])
    }

    @Test func integersAcceptSignsHexAndTheFullRange() {
        expectRead(Self.document("<integer> -42 </integer>"), -42)
        expectRead(Self.document("<integer>+7</integer>"), 7)
        expectRead(Self.document("<integer>0x1F</integer>"), 31)
        expectRead(Self.document("<integer>-0X10</integer>"), -16)
        expectRead(Self.document("<integer>-0</integer>"), 0)
        expectRead(Self.document("<integer>-9223372036854775808</integer>"), .integer(PropertyListInteger(Int64.min)))
        expectRead(Self.document("<integer>18446744073709551615</integer>"), .integer(PropertyListInteger(UInt64.max)))
        expectRead(Self.document("<integer>0xFFFFFFFFFFFFFFFF</integer>"), .integer(PropertyListInteger(UInt64.max)))
        expectRead(Self.document("<integer>000123</integer>"), 123)
    }

    @Test func realsAcceptDecimalExponentAndCoreFoundationSpellings() {
        expectRead(Self.document("<real>1.5</real>"), .real(1.5))
        expectRead(Self.document("<real> -2.5e-3 </real>"), .real(-2.5e-3))
        expectRead(Self.document("<real>.5</real>"), .real(0.5))
        expectRead(Self.document("<real>5.</real>"), .real(5))
        expectRead(Self.document("<real>1E+2</real>"), .real(100))
        expectRead(Self.document("<real>0.10000000000000001</real>"), .real(0.1))
        expectRead(Self.document("<real>1e400</real>"), .real(.infinity))
        for spelling in ["nan", "NaN", "NAN"] {
            expectRead(Self.document("<real>\(spelling)</real>"), .real(.nan))
        }
        for spelling in ["inf", "+infinity", "Infinity", "+INF"] {
            expectRead(Self.document("<real>\(spelling)</real>"), .real(.infinity))
        }
        for spelling in ["-inf", "-infinity", "-Infinity"] {
            expectRead(Self.document("<real>\(spelling)</real>"), .real(-.infinity))
        }
    }

    @Test func realsAreCorrectlyRounded() throws {
        var random = XMLTestRandom(state: 11)
        var texts: [String] = []
        for _ in 0..<3000 {
            let value = random.double()
            guard value.isFinite else { continue }
            texts.append("\(value)")
            let written = String(decoding: XMLPropertyListWriter().write(.real(value)), as: UTF8.self)
            let start = try #require(written.range(of: "<real>")).upperBound
            let end = try #require(written.range(of: "</real>")).lowerBound
            texts.append(String(written[start..<end]))
            let digits = String(random.next() % 10_000_000_000_000_000_000)
            let exponent = random.below(60) - 30
            texts.append(
                "\(random.below(2) == 0 ? "-" : "")\(digits.prefix(random.below(digits.count) + 1)).\(digits.suffix(random.below(8)))e\(exponent)"
            )
        }
        for text in texts {
            let expected = try #require(Double(text), "\(text)")
            expectRead("<real>\(text)</real>", .real(expected))
        }
    }

    @Test func datesAreUTCInTheProlepticGregorianCalendar() {
        func date(_ seconds: Double) -> PropertyListValue { .date(Date(timeIntervalSinceReferenceDate: seconds)) }
        expectRead(Self.document("<date>2001-01-01T00:00:00Z</date>"), date(0))
        expectRead(Self.document("<date>2001-01-01T00:00:01Z</date>"), date(1))
        expectRead(Self.document("<date>1970-01-01T00:00:00Z</date>"), date(-978_307_200))
        expectRead(Self.document("<date>2000-12-31T23:59:58Z</date>"), date(-2))
        expectRead(Self.document("<date>2000-12-31T23:59:60Z</date>"), date(0))
        expectRead(Self.document("<date>2024-02-29T12:30:45Z</date>"), date(730_902_645))
        expectRead(Self.document("<date>2001-01-01T00:00:01.25Z</date>"), date(1.25))
        expectRead(Self.document("<date> 2001-01-02T00:00:00Z\n</date>"), date(86_400))
        expectRead(Self.document("<date>0000-03-01T00:00:00Z</date>"), date(-63_140_342_400))
        expectRead(Self.document("<date>-002-12-29T00:00:00Z</date>"), date(-63_177_321_600))
        expectRead(Self.document("<date>-29688-04-06T22:13:20Z</date>"), date(-1e12))
        expectRead(Self.document("<date>0004-08-11T08:00:00Z</date>"), date(-63e9))
        expectRead(Self.document("<date>33689-09-27T01:46:40Z</date>"), date(1e12))
    }

    @Test func dataIgnoresWhiteSpaceAndAcceptsMissingPadding() {
        expectRead(Self.document("<data>\n\tAAEC\n\tAw==\n</data>"), .data(Data([0, 1, 2, 3])))
        expectRead(Self.document("<data>AAECAw</data>"), .data(Data([0, 1, 2, 3])))
        expectRead(Self.document("<data> A A E C A w = = </data>"), .data(Data([0, 1, 2, 3])))
        expectRead(Self.document("<data>+/+/</data>"), .data(Data([0xFB, 0xFF, 0xBF])))
    }

    @Test func repeatedKeysKeepTheFirstPositionAndTheLastValue() throws {
        let value = try XMLPropertyListReader().read(
            Array(
                Self.document(
                    "<dict><key>a</key><integer>1</integer><key>b</key><integer>2</integer><key>a</key><integer>3</integer></dict>"
                ).utf8
            )
        )
        #expect(value.dictionaryValue?.keys == ["a", "b"])
        #expect(value["a"] == 3)
    }

    @Test func keysOfEveryLengthAndSpellingAreReadAndRepeatsMerged() throws {
        // Small dictionaries (at most 12 entries, checked without hashing): keys of lengths around
        // the eight-byte words keys are compared in, a repeat spelled with a reference, plain
        // repeats, and two canonically equivalent spellings of "é", which are equal strings.
        let keys =
            ["", "a", "abcdefg", "abcdefgh", "abcdefghi", String(repeating: "k", count: 16)]
            + [String(repeating: "k", count: 17), String(repeating: "x", count: 40)]
        var body = "<array><dict>"
        for (index, key) in keys.enumerated() { body += "<key>\(key)</key><integer>\(index)</integer>" }
        body += "<key>&#97;</key><integer>100</integer><key>abcdefgh</key><integer>101</integer>"
        body += "<key/><integer>102</integer></dict>"
        body += "<dict><key>e\u{301}</key><integer>1</integer><key>\u{E9}</key><integer>2</integer></dict></array>"
        let value = try XMLPropertyListReader().read(Array(Self.document(body).utf8))
        let first = try #require(value[0]?.dictionaryValue)
        #expect(first.keys.map { Array($0.utf8) } == keys.map { Array($0.utf8) })
        #expect(first["a"] == 100)
        #expect(first["abcdefgh"] == 101)
        #expect(first[""] == 102)
        #expect(first[String(repeating: "k", count: 17)] == 6)
        let second = try #require(value[1]?.dictionaryValue)
        #expect(second.keys.map { Array($0.utf8) } == [Array("e\u{301}".utf8)])
        #expect(second["\u{E9}"] == 2)
    }

    @Test func manyDistinctKeysAndLargeDictionariesAreReadExactly() throws {
        // More distinct keys than the reader interns at once, in dictionaries small and large.
        var expected: [PropertyListValue] = []
        var body = "<array>"
        for index in 0..<1500 {
            let count = index % 40 == 0 ? 30 : 3
            var entries: [(String, PropertyListValue)] = []
            body += "<dict>"
            for entry in 0..<count {
                let key = entry == 0 ? "shared" : "key\(index)-\(entry)"
                entries.append((key, .integer(PropertyListInteger(Int64(index * 100 + entry)))))
                body += "<key>\(key)</key><integer>\(index * 100 + entry)</integer>"
            }
            if count > 12 {
                entries[0].1 = -1
                body += "<key>shared</key><integer>-1</integer>"
            }
            body += "</dict>"
            expected.append(.dictionary(PropertyListDictionary(entries)))
        }
        body += "</array>"
        let value = try XMLPropertyListReader().read(Array(Self.document(body).utf8))
        #expect(value == .array(expected))
        #expect(value[0]?.dictionaryValue?.keys.first == "shared")
        #expect(value[0]?.dictionaryValue?.count == 30)
    }

    @Test func dataDecodesWithWhiteSpaceAnywhere() throws {
        let bytes = Data((0..<200).map { UInt8(truncatingIfNeeded: $0 &* 37) })
        let encoded = Array(bytes.base64EncodedString())
        for stride in [1, 3, 4, 5, 76] {
            var text = ""
            for (index, character) in encoded.enumerated() {
                if index % stride == 0 { text += index % 2 == 0 ? "\n\t" : " " }
                text.append(character)
            }
            expectRead(Self.document("<data>\(text)\n</data>"), .data(bytes))
        }
    }

    @Test func onlyASingleIntegerCFUIDEntryMakesAUID() {
        expectRead(Self.document("<dict><key>CF$UID</key><integer>7</integer></dict>"), .uid(7))
        expectRead(
            Self.document("<dict><key>CF$UID</key><integer>18446744073709551615</integer></dict>"),
            .uid(UID(UInt64.max))
        )
        expectRead(Self.document("<dict><key>CF$UID</key><string>7</string></dict>"), ["CF$UID": "7"])
        expectRead(
            Self.document("<dict><key>CF$UID</key><integer>7</integer><key>x</key><true/></dict>"),
            ["CF$UID": 7, "x": true]
        )
    }

    @Test func depthUpToTheLimitIsAccepted() throws {
        let xml = String(repeating: "<array>", count: 3) + String(repeating: "</array>", count: 3)
        let reader = XMLPropertyListReader(limits: PropertyListLimits(maximumDepth: 3))
        #expect(try reader.read(Array(xml.utf8)) == [[[]]])
        let deep = String(repeating: "<array>", count: 512) + "<array/>" + String(repeating: "</array>", count: 512)
        #expect(throws: PropertyListError(.depthLimitExceeded)) { try XMLPropertyListReader().read(Array(deep.utf8)) }
        let limit = String(repeating: "<array>", count: 511) + "<dict/>" + String(repeating: "</array>", count: 511)
        #expect(throws: Never.self) { try XMLPropertyListReader().read(Array(limit.utf8)) }
    }

    @Test func errorsCarryTheLineAndByteOffset() throws {
        let xml = "<plist>\n<array>\n  <integer>x</integer>\n</array>\n</plist>"
        let error = try #require(throws: PropertyListError.self) { try XMLPropertyListReader().read(Array(xml.utf8)) }
        #expect(error.code == .invalidInteger)
        #expect(error.line == 3)
        #expect(error.offset == 27)
    }

    @Test func parsingDetectsXML() throws {
        let value = try PropertyListValue.parse(Data(Self.document("<string>x</string>").utf8))
        #expect(value.format == .xml)
        #expect(value.value == "x")
    }
}
