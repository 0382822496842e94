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
import TestSupport
import Testing

/// An optional spelled through a `typealias` is archived as the same optional spelled with `?`:
/// a required one as synthesized `Codable` writes and reads it (its key left out when `nil`,
/// `nil` when its key is absent), one with an initial value as `@Archivable` treats `T? = value`.
@Suite struct AliasedOptionalTests {
    static let values: [(AliasedOptionals, SpelledOptionals)] = [
        (AliasedOptionals(name: "a", count: 3, label: "b"), SpelledOptionals(name: "a", count: 3, label: "b")),
        (AliasedOptionals(name: "a", count: nil, label: nil), SpelledOptionals(name: "a", count: nil, label: nil)),
        (AliasedOptionals(name: "a", count: nil), SpelledOptionals(name: "a", count: nil)),
    ]

    @Test func everyCoderWritesWhatTheSpelledOptionalsWrite() throws {
        let json = JSONEncoder()
        json.outputFormatting = .sortedKeys
        for (aliased, spelled) in Self.values {
            #expect(try json.encode(aliased) == json.encode(spelled))
            #expect(try PropertyListEncoder().encode(aliased) == PropertyListEncoder().encode(spelled))
            for mode in BothPaths.modes {
                let encoder = BothPaths.encoder(mode)
                #expect(try encoder.encode(aliased) == encoder.encode(spelled), "\(mode)")
            }
        }
    }

    @Test func aRequiredOneIsWrittenAsSynthesizedCodableWritesIt() throws {
        let json = JSONEncoder()
        json.outputFormatting = .sortedKeys
        let aliased = AliasedOptionals(name: "a", count: nil, label: "b")
        let twin = AliasedOptionalsTwin(name: "a", count: nil, label: "b")
        // No `count` key: `encodeIfPresent`, as the twin writes it.
        #expect(try json.encode(aliased) == json.encode(twin))
        #expect(String(decoding: try json.encode(aliased), as: UTF8.self) == #"{"label":"b","name":"a"}"#)
        #expect(try JSONDecoder().decode(AliasedOptionals.self, from: json.encode(twin)) == aliased)
    }

    @Test(arguments: BothPaths.modes)
    func anAbsentKeyGivesNilOrTheInitialValue(mode: DirectArchiving) throws {
        let older = try BothPaths.encoder(mode).encode(NameOnly(name: "a"))
        let expected = AliasedOptionals(name: "a", count: nil, label: "none")
        #expect(try BothPaths.decoder(mode).decode(AliasedOptionals.self, from: older) == expected)
        #expect(try BothPaths.decoder(mode).decode(SpelledOptionals.self, from: older) == SpelledOptionals(name: "a"))
        let json = try JSONEncoder().encode(NameOnly(name: "a"))
        #expect(try JSONDecoder().decode(AliasedOptionals.self, from: json) == expected)
    }

    @Test(arguments: BothPaths.modes)
    func aStoredNilReplacesTheInitialValue(mode: DirectArchiving) throws {
        let archive = try BothPaths.encoder(mode).encode(SpelledOptionals(name: "a", count: 2, label: nil))
        let decoded = try BothPaths.decoder(mode).decode(AliasedOptionals.self, from: archive)
        #expect(decoded == AliasedOptionals(name: "a", count: 2, label: nil))
        let json = try JSONEncoder().encode(SpelledOptionals(name: "a", count: nil, label: nil))
        #expect(
            try JSONDecoder().decode(AliasedOptionals.self, from: json)
                == AliasedOptionals(name: "a", count: nil, label: nil)
        )
    }
}
