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

@Suite struct XMLPropertyListWriterTests {
    /// Checks our XML for `value` against Foundation's: byte for byte with swift-corelibs-foundation.
    /// With Apple's, whose spelling cannot be checked here, the two documents must read back (by this
    /// package, keys in document order, and by Foundation) as the same value.
    func expectSameAsFoundation(
        _ value: PropertyListValue,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let ours = XMLPropertyListWriter().write(value)
        let theirs = try XMLFoundationOracle.xml(value)
        switch FoundationImplementation.current {
        case .corelibs:
            let identical = ours == theirs
            #expect(identical, "\(XMLFoundationOracle.firstDifference(ours, theirs))", sourceLocation: sourceLocation)
        case .apple:
            let difference = try XMLFoundationOracle.readingDifference(ours, theirs)
            #expect(difference == nil, "\(difference ?? "")", sourceLocation: sourceLocation)
        }
    }

    /// The body lines between `<plist version="1.0">` and `</plist>`.
    func body(_ value: PropertyListValue) -> String {
        let text = String(decoding: XMLPropertyListWriter().write(value), as: UTF8.self)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        return lines[3..<(lines.count - 2)].joined(separator: "\n")
    }

    static let scalars: [PropertyListValue] = [
        "", "plain", "  spaces kept  ", "a<b>c&d\"e'f", "&amp; stays escaped", "]]>", "\u{0}\u{1}\u{1F}\u{7F}",
        "line\nbreak\r\nwindows\ttab", "é e\u{301} ß 中文 😀 \u{FEFF} \u{E000} \u{FFFD}",
        0, 1, -1, 42, .integer(PropertyListInteger(Int64.max)), .integer(PropertyListInteger(Int64.min)),
        .integer(PropertyListInteger(UInt64(Int64.max) + 1)), .integer(PropertyListInteger(UInt64.max)),
        .real(0), .real(-0.0), .real(3), .real(0.1), .real(-2.5e-5), .real(1e300), .real(.nan), .real(.infinity),
        .real(-.infinity), .real(.leastNonzeroMagnitude), .real(.greatestFiniteMagnitude), .real(1e16), .real(1e17),
        .real(9_007_199_254_740_994), .real(123_456_789_012_345_680), .real(0.000_1), .real(0.000_01),
        .real(pow(2, -25)), .real(.pi), .real(-.ulpOfOne), .float(0.1), .float(.nan), .float(-.infinity),
        .float(.leastNonzeroMagnitude), .float(3.402_823_5e38), true, false,
    ]

    @Test(arguments: Self.scalars)
    func scalarsMatchFoundation(_ value: PropertyListValue) throws {
        try self.expectSameAsFoundation(value)
        try self.expectSameAsFoundation(["nested": [value]])
    }

    @Test func emptyContainersAreSelfClosing() throws {
        let value: PropertyListValue = ["a": [], "d": .dictionary([:]), "s": "", "x": .data(Data())]
        try self.expectSameAsFoundation(value)
        try self.expectSameAsFoundation([])
        try self.expectSameAsFoundation(.dictionary([:]))
        #expect(self.body([]) == "<array/>")
        #expect(self.body(.dictionary([:])) == "<dict/>")
    }

    @Test func headerAndIndentationMatchCoreFoundation() {
        let text = String(decoding: XMLPropertyListWriter().write(["k": [1, [true]]]), as: UTF8.self)
        #expect(
            text == """
                <?xml version="1.0" encoding="UTF-8"?>
                <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
                <plist version="1.0">
                <dict>
                \t<key>k</key>
                \t<array>
                \t\t<integer>1</integer>
                \t\t<array>
                \t\t\t<true/>
                \t\t</array>
                \t</array>
                </dict>
                </plist>

                """
        )
    }

    @Test func keysAreSortedByUTF16CodeUnits() throws {
        let keys = [
            "b", "B", "a", "A", "_", "é", "\u{1F600}", "\u{E000}", "\u{FFFD}", "\u{FF21}", "ab", "", "Z", "z", "10",
            "9", "\u{0}", "\u{7F}", "\u{80}", "a\u{0}b", "a\u{0}", "\u{10FFFF}", "\u{10000}", "\u{D7FF}", "中",
        ]
        let dictionary = PropertyListDictionary(
            keys.enumerated().map { ($0.element, .integer(PropertyListInteger(Int64($0.offset)))) }
        )
        try self.expectSameAsFoundation(.dictionary(dictionary))
    }

    @Test func datesAreWholeSecondsRoundedDown() throws {
        #expect(self.body(.date(Date(timeIntervalSinceReferenceDate: 1.75))) == "<date>2001-01-01T00:00:01Z</date>")
        #expect(self.body(.date(Date(timeIntervalSinceReferenceDate: -1.25))) == "<date>2000-12-31T23:59:58Z</date>")
        let times: [Double] = [
            0, 1.75, -1.25, -1e-300, 1e-300, -.leastNonzeroMagnitude, -978_307_200, 59.999_999_999_999_99, -0.0, 1e11,
            -1e11, 1e12,
            -1e12, -63e9, -64e9, -63.5e9, -62_135_596_800, -62_135_596_801, 1e15, -1e15, 1e17, -1e17, 6.7e16, -6.7e16,
            1e18, -1e18, 9.2e18, 7.9e23, 8e23, -7.9e23, -8e23, 1e20, -1e20, 1e30, -1e30, .greatestFiniteMagnitude,
            -.greatestFiniteMagnitude, .nan, .infinity, -.infinity,
        ]
        let compared = XMLFoundationOracle.comparableTimes(times)
        try self.expectSameAsFoundation(.array(compared.map { .date(Date(timeIntervalSinceReferenceDate: $0)) }))
    }

    @Test func randomDatesMatchFoundation() throws {
        var random = XMLTestRandom(state: 7)
        for magnitude in [1e4, 1e9, 1e11, 1e13, 1e16, 1e19, 1e25] {
            let times = (0..<400).map { _ in (random.double().truncatingRemainder(dividingBy: 1)) * magnitude }
            let compared = XMLFoundationOracle.comparableTimes(times)
            try self.expectSameAsFoundation(.array(compared.map { .date(Date(timeIntervalSinceReferenceDate: $0)) }))
        }
    }

    @Test func randomRealsMatchFoundation() throws {
        var random = XMLTestRandom(state: 42)
        for _ in 0..<20 {
            let values = (0..<1000).map { _ in random.double() }
            try self.expectSameAsFoundation(.array(values.map(PropertyListValue.real)))
            try self.expectSameAsFoundation(.array(values.map { .float(Float($0)) }))
        }
    }

    @Test(arguments: [0, 1, 2, 7, 8, 9, 10, 12])
    func dataLinesMatchFoundationAtDepth(_ depth: Int) throws {
        var elements: [PropertyListValue] = []
        for length in [
            0, 1, 2, 3, 4, 5, 6, 8, 9, 10, 11, 12, 36, 47, 48, 50, 51, 56, 57, 58, 59, 60, 114, 115, 200, 1000,
        ] {
            elements.append(.data(Data((0..<length).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) })))
        }
        guard depth > 0 else {
            for element in elements {
                try self.expectSameAsFoundation(element)
            }
            return
        }
        var value = PropertyListValue.array(elements)
        for _ in 0..<(depth - 1) {
            value = ["level": value]
        }
        try self.expectSameAsFoundation(value)
    }

    @Test func uidsUseCoreFoundationsDictionaryForm() {
        #expect(
            self.body(["$top": ["root": .uid(1)], "u": .uid(UID(UInt64.max))]) == """
                <dict>
                \t<key>$top</key>
                \t<dict>
                \t\t<key>root</key>
                \t\t<dict>
                \t\t\t<key>CF$UID</key>
                \t\t\t<integer>1</integer>
                \t\t</dict>
                \t</dict>
                \t<key>u</key>
                \t<dict>
                \t\t<key>CF$UID</key>
                \t\t<integer>18446744073709551615</integer>
                \t</dict>
                </dict>
                """
        )
        #expect(self.body(.uid(0)) == "<dict>\n\t<key>CF$UID</key>\n\t<integer>0</integer>\n</dict>")
    }

    @Test func randomTreesMatchFoundation() throws {
        var random = XMLTestRandom(state: 2024)
        for _ in 0..<300 {
            try self.expectSameAsFoundation(random.value(depth: 4))
        }
    }

    @Test func outputReadsBackAsTheSameValue() throws {
        var random = XMLTestRandom(state: 99)
        for _ in 0..<200 {
            let value = random.value(depth: 4)
            let read = try XMLPropertyListReader().read(XMLPropertyListWriter().write(value))
            #expect(read == FoundationOracle.asXMLSpellsIt(value))
        }
        let uids: PropertyListValue = ["$objects": [.uid(0), .uid(UID(UInt64.max)), ["CF$UID": "not an integer"]]]
        #expect(try XMLPropertyListReader().read(XMLPropertyListWriter().write(uids)) == uids)
    }
}
