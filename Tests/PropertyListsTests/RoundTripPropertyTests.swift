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
import PropertyBased
import PropertyLists
import TestSupport
import Testing

/// Generated values survive a write and a read in both encodings.
///
/// Values come from a seed (see ``RandomPropertyList``), so a failure's `.fixedSeed(…)` reproduces it.
@Suite struct RoundTripPropertyTests {
    @Test func binaryRoundTripIsExact() async {
        await propertyCheck(count: 300, input: RandomPropertyList.generator()) { value in
            #expect(Self.read(value.serialized(as: .binary)) == value)
        }
    }

    @Test func binaryOutputIsAFixedPoint() async {
        await propertyCheck(count: 100, input: RandomPropertyList.generator()) { value in
            let bytes = value.serialized(as: .binary)
            #expect(Self.read(bytes)?.serialized(as: .binary) == bytes)
        }
    }

    @Test func xmlRoundTripIsExactForWhatXMLCanSpell() async {
        await propertyCheck(count: 300, input: RandomPropertyList.generator(.xmlExact)) { value in
            let read = Self.read(value.serialized(as: .xml))
            #expect(read == value, "\(read.flatMap { ValueDifference.first($0, value) } ?? "")")
        }
    }

    @Test func xmlRoundTripKeepsEverythingButFloatWidthAndSubsecondDates() async {
        var options = RandomPropertyList.Options()
        options.xmlUnsafeCharacters = false
        await propertyCheck(count: 200, input: RandomPropertyList.generator(options)) { value in
            #expect(Self.read(value.serialized(as: .xml)) == FoundationOracle.asXMLSpellsIt(value))
        }
    }

    @Test func binaryAndXMLAgree() async {
        await propertyCheck(count: 200, input: RandomPropertyList.generator(.xmlExact)) { value in
            let viaBinary = Self.read(value.serialized(as: .binary))
            #expect(viaBinary.flatMap { Self.read($0.serialized(as: .xml)) } == value)
        }
    }

    /// Reads `bytes`, recording an issue (with the error) if they do not parse.
    static func read(_ bytes: Data, sourceLocation: SourceLocation = #_sourceLocation) -> PropertyListValue? {
        do {
            return try PropertyListValue(parsing: bytes)
        } catch {
            Issue.record("read failed: \(error)", sourceLocation: sourceLocation)
            return nil
        }
    }
}
