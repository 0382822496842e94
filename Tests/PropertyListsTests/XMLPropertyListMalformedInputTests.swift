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

/// One malformed document and the error code reading it must fail with.
struct MalformedXMLCase: Sendable, CustomTestStringConvertible {
    var name: String
    var bytes: [UInt8]
    var code: PropertyListError.Code

    init(_ name: String, _ xml: String, _ code: PropertyListError.Code) {
        self.init(name, Array(xml.utf8), code)
    }

    init(_ name: String, _ bytes: [UInt8], _ code: PropertyListError.Code) {
        self.name = name
        self.bytes = bytes
        self.code = code
    }

    var testDescription: String { self.name }
}

@Suite struct XMLPropertyListMalformedInputTests {
    /// Reads `bytes` and checks that it fails with `code`, an offset and a line.
    func expectFailure(
        _ bytes: [UInt8],
        _ code: PropertyListError.Code,
        limits: PropertyListLimits = .default,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        do {
            let value = try XMLPropertyListReader(limits: limits).read(bytes)
            Issue.record("read \(value) instead of failing with \(code)", sourceLocation: sourceLocation)
        } catch {
            #expect(error.code == code, "\(error)", sourceLocation: sourceLocation)
            #expect(error.offset != nil && error.line != nil, sourceLocation: sourceLocation)
            if let offset = error.offset {
                #expect(offset >= 0 && offset <= bytes.count, sourceLocation: sourceLocation)
            }
        }
    }

    static func document(_ body: String) -> String {
        XMLPropertyListReaderTests.document(body)
    }

    static let cases: [MalformedXMLCase] = [
        // Structure.
        .init("empty input", "", .truncated),
        .init("only white space", " \n\t", .truncated),
        .init("unclosed array", "<plist><array><true/>", .truncated),
        .init("unclosed string", "<plist><string>abc", .truncated),
        .init("unclosed plist", "<plist><true/>", .truncated),
        .init("unclosed start tag", "<plist><array", .truncated),
        .init("unclosed comment", "<plist><!-- never ends", .truncated),
        .init("unclosed CDATA", "<plist><string><![CDATA[x</string></plist>", .truncated),
        .init("unclosed DOCTYPE", "<!DOCTYPE plist [ <!ENTITY x 'y'>", .truncated),
        .init("mismatched containers", "<plist><array></dict></plist>", .malformedXML),
        .init("mismatched leaf", Self.document("<string>a</key>"), .malformedXML),
        .init("end tag for nothing", "<plist></array></plist>", .malformedXML),
        .init("text in array", Self.document("<array>x</array>"), .malformedXML),
        .init("text before root", "x<plist><true/></plist>", .malformedXML),
        .init("two values in plist", "<plist><true/><false/></plist>", .malformedXML),
        .init("empty plist", "<plist></plist>", .malformedXML),
        .init("self-closing plist", "<plist/>", .malformedXML),
        .init("unquoted attribute", "<plist version=1.0><true/></plist>", .malformedXML),
        .init("'<' in attribute", "<plist version=\"<\"><true/></plist>", .malformedXML),
        .init("content in true", Self.document("<true>yes</true>"), .malformedXML),
        .init("markup in integer", Self.document("<integer>1<!--c--></integer>"), .malformedXML),
        .init("broken empty tag", Self.document("<array/ >"), .malformedXML),
        // Elements.
        .init("unknown element", Self.document("<foo/>"), .unexpectedElement),
        .init("unknown element in array", Self.document("<array><true/><nil/></array>"), .unexpectedElement),
        .init("element inside string", Self.document("<string>a<b/></string>"), .unexpectedElement),
        .init("nested plist", Self.document("<array><plist/></array>"), .unexpectedElement),
        .init("key in array", Self.document("<array><key>a</key></array>"), .unexpectedElement),
        .init("key at top level", Self.document("<key>a</key>"), .unexpectedElement),
        .init("dict value without key", Self.document("<dict><true/></dict>"), .unexpectedElement),
        .init(
            "dict container without key",
            Self.document("<dict><key>a</key><true/><array/></dict>"),
            .unexpectedElement
        ),
        .init("key without value", Self.document("<dict><key>a</key></dict>"), .malformedXML),
        .init("key after key", Self.document("<dict><key>a</key><key>b</key><true/></dict>"), .malformedXML),
        .init("negative CF$UID", Self.document("<dict><key>CF$UID</key><integer>-1</integer></dict>"), .invalidUID),
        // Prolog.
        .init(
            "UTF-16 declared",
            "<?xml version=\"1.0\" encoding=\"UTF-16\"?><plist><true/></plist>",
            .unsupportedEncoding
        ),
        .init(
            "Latin-1 declared",
            "<?xml version='1.0' encoding='ISO-8859-1'?><plist><true/></plist>",
            .unsupportedEncoding
        ),
        .init("misplaced declaration", "<plist><?xml version='1.0'?><true/></plist>", .invalidHeader),
        .init("two DOCTYPEs", "<!DOCTYPE plist><!DOCTYPE plist><plist><true/></plist>", .invalidHeader),
        .init("malformed declaration", "<?xml version?><plist><true/></plist>", .invalidHeader),
        .init("unknown markup declaration", "<!ELEMENT plist ANY><plist><true/></plist>", .malformedXML),
        // Trailing content.
        .init("element after plist", Self.document("<true/>") + "<true/>", .trailingContent),
        .init("text after plist", "<plist><true/></plist>x", .trailingContent),
        .init("second plist", "<plist><true/></plist><plist><true/></plist>", .trailingContent),
        .init("text after bare value", "<true/> x", .trailingContent),
        .init("DOCTYPE after plist", "<plist><true/></plist><!DOCTYPE plist>", .trailingContent),
        // Entities.
        .init("unknown entity", Self.document("<string>&nbsp;</string>"), .invalidEntity),
        .init("entity without semicolon", Self.document("<string>&amp</string>"), .invalidEntity),
        .init(
            "external entity declared and used",
            "<!DOCTYPE plist [<!ENTITY xxe SYSTEM \"file:///etc/passwd\">]><plist><string>&xxe;</string></plist>",
            .invalidEntity
        ),
        .init(
            "internal entity declared and used",
            "<!DOCTYPE plist [<!ENTITY e \"x\">]><plist><string>&e;</string></plist>",
            .invalidEntity
        ),
        .init("entity in a key", Self.document("<dict><key>&e;</key><true/></dict>"), .invalidEntity),
        .init("entity in an attribute", "<plist version=\"&e;\"><true/></plist>", .invalidEntity),
        .init("reference to U+0000", Self.document("<string>&#0;</string>"), .invalidEntity),
        .init("reference to a surrogate", Self.document("<string>&#xD800;</string>"), .invalidEntity),
        .init("reference beyond Unicode", Self.document("<string>&#x110000;</string>"), .invalidEntity),
        .init("huge reference", Self.document("<string>&#99999999999999999999;</string>"), .invalidEntity),
        .init("reference without digits", Self.document("<string>&#;</string>"), .invalidEntity),
        .init("reference with bad digits", Self.document("<string>&#xZZ;</string>"), .invalidEntity),
        .init("uppercase X reference", Self.document("<string>&#X41;</string>"), .invalidEntity),
        // UTF-8.
        .init(
            "invalid byte",
            Array("<plist><string>a".utf8) + [0xFF] + Array("</string></plist>".utf8),
            .invalidString
        ),
        .init(
            "overlong form",
            Array("<plist><string>".utf8) + [0xC0, 0xAF] + Array("</string></plist>".utf8),
            .invalidString
        ),
        .init(
            "surrogate",
            Array("<plist><string>".utf8) + [0xED, 0xA0, 0x80] + Array("</string></plist>".utf8),
            .invalidString
        ),
        .init("truncated sequence", Array("<plist><string>".utf8) + [0xE2, 0x82], .invalidString),
        .init("invalid byte in comment", Array("<!-- ".utf8) + [0x80] + Array(" --><true/>".utf8), .invalidString),
    ]

    @Test(arguments: Self.cases)
    func malformedDocumentsFailWithTheExpectedCode(_ testCase: MalformedXMLCase) {
        self.expectFailure(testCase.bytes, testCase.code)
    }

    @Test(arguments: [
        "12a", "", " ", "0x", "1.5", "- 1", "1 2", "0b1", "&#49;", "18446744073709551616", "-9223372036854775809",
        "0x10000000000000000",
    ])
    func badIntegersAreInvalidInteger(_ text: String) {
        self.expectFailure(Array(Self.document("<integer>\(text)</integer>").utf8), .invalidInteger)
    }

    @Test(arguments: ["abc", "", "1e", "1.2.3", "0x1p3", "nanx", "-nan", "--1", "1,5", ".", "e5", "infinit", "1e+"])
    func badRealsAreInvalidReal(_ text: String) {
        self.expectFailure(Array(Self.document("<real>\(text)</real>").utf8), .invalidReal)
    }

    @Test(arguments: [
        "2001-13-01T00:00:00Z", "2001-00-10T00:00:00Z", "2001-02-30T00:00:00Z", "2001-02-29T00:00:00Z",
        "1900-02-29T00:00:00Z", "2001-04-31T00:00:00Z", "2001-01-00T00:00:00Z", "2001-01-01T24:00:00Z",
        "2001-01-01T00:60:00Z", "2001-01-01T00:00:61Z", "2001-1-01T00:00:00Z", "garbage", "",
        "2001-01-01T00:00:00+01:00", "2001-01-01T00:00Z", "2001-01-01T00:00:00.Z", "2001-01-01T00:00:00ZZ",
        "1234567890123-01-01T00:00:00Z", "2001-01-02", "2001-01-01T00:01:00", "2001-01-01 00:00:00Z",
    ])
    func badDatesAreInvalidDate(_ text: String) {
        self.expectFailure(Array(Self.document("<date>\(text)</date>").utf8), .invalidDate)
    }

    @Test(arguments: ["AA*A", "A", "AAAAA", "AA==AA", "AAA===", "=AAA", "A===", "AA&#65;A"])
    func badBase64IsInvalidData(_ text: String) {
        self.expectFailure(Array(Self.document("<data>\(text)</data>").utf8), .invalidData)
    }

    @Test func nestingBeyondASmallLimitFails() {
        let limits = PropertyListLimits(maximumDepth: 3)
        let four = String(repeating: "<array>", count: 4) + String(repeating: "</array>", count: 4)
        self.expectFailure(Array(four.utf8), .depthLimitExceeded, limits: limits)
        self.expectFailure(
            Array("<array><dict><key>k</key><array><dict/></array></dict></array>".utf8),
            .depthLimitExceeded,
            limits: limits
        )
        self.expectFailure(Array("<array/>".utf8), .depthLimitExceeded, limits: PropertyListLimits(maximumDepth: 0))
    }

    @Test func hundredThousandNestedArraysFailWithoutOverflowingTheStack() {
        let count = 100_000
        let open = String(repeating: "<array>", count: count)
        self.expectFailure(Array((open + String(repeating: "</array>", count: count)).utf8), .depthLimitExceeded)
        self.expectFailure(Array(open.utf8), .depthLimitExceeded)
        let dictionaries = String(repeating: "<dict><key>k</key>", count: count)
        self.expectFailure(Array(("<plist>" + dictionaries).utf8), .depthLimitExceeded)
    }

    @Test func inputAboveTheSizeLimitFails() {
        self.expectFailure(Array("<true/>".utf8), .sizeLimitExceeded, limits: PropertyListLimits(maximumInputSize: 6))
    }

    @Test func everyTruncationOfTheXMLFixturesFails() throws {
        let names = XMLPropertyListReaderTests.xmlFixtureNames
        #expect(!names.isEmpty)
        for name in names {
            let bytes = [UInt8](try Fixtures.apple(name))
            let marker = Array("</plist>".utf8)
            let start = try #require(bytes.indices.first { bytes[$0...].starts(with: marker) })
            let end = start + marker.count
            for length in 0..<bytes.count {
                let prefix = Array(bytes[..<length])
                if length < end {
                    #expect(throws: PropertyListError.self, "\(name) cut at \(length)") {
                        try XMLPropertyListReader().read(prefix)
                    }
                } else {
                    #expect(throws: Never.self, "\(name) cut at \(length)") { try XMLPropertyListReader().read(prefix) }
                }
            }
        }
    }

    @Test func everySingleByteCorruptionOfAFixtureIsHandled() throws {
        let bytes = [UInt8](try Fixtures.apple("NSKeyedUnarchiver-UUIDTest.plist"))
        for index in bytes.indices {
            for replacement: UInt8 in [0x00, 0x3C, 0x3E, 0x26, 0x2F, 0xFF] {
                var corrupted = bytes
                corrupted[index] = replacement
                _ = try? XMLPropertyListReader().read(corrupted)
            }
        }
    }

    @Test func parameterEntitiesInTheInternalSubsetAreNeverResolved() throws {
        let xml = "<!DOCTYPE plist [<!ENTITY % p SYSTEM \"http://example.invalid/x.dtd\"> %p;]><plist><true/></plist>"
        #expect(try XMLPropertyListReader().read(Array(xml.utf8)) == true)
    }
}
