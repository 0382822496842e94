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

/// Every Apple-made fixture parses, and re-encodes in both formats to a value equal to the one read.
@Suite struct FixtureRoundTripTests {
    @Test func everyFixtureIsPresent() {
        #expect(Fixtures.appleFixtureNames.count == 40)
    }

    @Test(arguments: Fixtures.appleFixtureNames)
    func fixtureParsesAndReencodesInBothFormats(name: String) throws {
        let bytes = try Fixtures.apple(name)
        let (value, format) = try PropertyListValue.parse(bytes)
        #expect(format == (bytes.starts(with: Array("bplist00".utf8)) ? .binary : .xml))
        #expect(value["$archiver"] == "NSKeyedArchiver")
        #expect(value["$objects"]?.arrayValue?.first == "$null")
        #expect(try PropertyListValue(parsing: value.serialized(as: .binary)) == value)
        #expect(
            try PropertyListValue(parsing: value.serialized(as: .xml)) == FoundationOracle.asXMLSpellsIt(value)
        )
    }

    @Test(arguments: Fixtures.appleFixtureNames)
    func foundationReadsTheFixtureTheSameWay(name: String) throws {
        let bytes = try Fixtures.apple(name)
        let ours = try PropertyListValue(parsing: bytes)
        // Foundation turns UIDs into its own objects, so compare via our XML, which spells them as CF$UID dictionaries.
        let foundation = try PropertyListSerialization.propertyList(from: bytes, options: [], format: nil)
        let foundationXML = try PropertyListSerialization.data(fromPropertyList: foundation, format: .xml, options: 0)
        let reread = try PropertyListValue(parsing: foundationXML)
        #expect(reread == FoundationOracle.asXMLSpellsIt(ours))
    }
}
