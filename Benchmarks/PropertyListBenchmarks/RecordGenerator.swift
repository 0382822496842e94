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

/// SplitMix64: a tiny, seeded generator, so every run benchmarks the same records.
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) {
        self.state = seed
    }

    mutating func next() -> UInt64 {
        self.state &+= 0x9E37_79B9_7F4A_7C15
        var z = self.state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    mutating func pick<T>(_ choices: [T]) -> T {
        choices[Int(self.next() % UInt64(choices.count))]
    }
}

/// One generated user record, held as plain Swift values so both trees are built from the same data.
struct Record {
    var id: Int
    var name: String
    var email: String
    var score: Double
    var active: Bool
    var created: Date
    var tags: [String]
    var avatar: Data
    var street: String
    var city: String
    var zip: String
}

enum RecordGenerator {
    private static let firstNames = [
        "Ada", "Alan", "Grace", "Linus", "Margaret", "Dennis", "Barbara", "Ken", "Frances", "Edsger",
        "Radia", "Donald", "Hedy", "John", "Katherine", "Niklaus", "Zoë", "José", "Søren", "Ørjan",
    ]
    private static let lastNames = [
        "Lovelace", "Turing", "Hopper", "Torvalds", "Hamilton", "Ritchie", "Liskov", "Thompson", "Allen",
        "Dijkstra", "Perlman", "Knuth", "Lamarr", "Backus", "Johnson", "Wirth", "Müller", "García", "Øberg",
    ]
    private static let tagPool = [
        "admin", "beta", "premium", "trial", "staff", "verified", "mobile", "desktop", "newsletter", "legacy",
        "eu", "us", "apac", "early-adopter", "support", "billing",
    ]
    private static let streets = [
        "Main Street", "High Street", "Infinite Loop", "Market Street", "Baker Street", "Elm Avenue",
        "Königsallee", "Rue de Rivoli", "Calle Mayor", "Nevsky Prospekt",
    ]
    private static let cities = [
        "Cupertino", "London", "Berlin", "Paris", "Madrid", "Zürich", "Kraków", "São Paulo", "Tokyo", "東京",
        "Oslo", "Reykjavík",
    ]

    /// Generates `count` records from `seed`; the same arguments always give the same records.
    static func records(count: Int, seed: UInt64 = 0x504C_4953_5421) -> [Record] {
        var rng = SeededGenerator(seed: seed)
        // Whole seconds, so the XML encoding (which stores dates to the second) round-trips exactly.
        let epoch = 694_224_000.0  // 2023-01-01T00:00:00Z as seconds since 2001-01-01.
        return (0..<count).map { index in
            let first = rng.pick(Self.firstNames)
            let last = rng.pick(Self.lastNames)
            var avatar = Data(count: 32)
            for byte in 0..<32 { avatar[byte] = UInt8(truncatingIfNeeded: rng.next()) }
            return Record(
                id: 1_000_000 + index,
                name: "\(first) \(last)",
                email: "\(first.lowercased()).\(last.lowercased()).\(index)@example.com",
                score: Double(rng.next() % 1_000_000) / 100,
                active: rng.next() % 4 != 0,
                created: Date(timeIntervalSinceReferenceDate: epoch + Double(rng.next() % 60_000_000)),
                tags: (0..<3).map { _ in rng.pick(Self.tagPool) },
                avatar: avatar,
                street: "\(rng.next() % 9_999 + 1) \(rng.pick(Self.streets))",
                city: rng.pick(Self.cities),
                zip: String(format: "%05d", Int(rng.next() % 100_000))
            )
        }
    }
}

extension Record {
    /// The record as our value tree.
    var propertyListValue: PropertyListValue {
        [
            "id": .integer(PropertyListInteger(Int64(self.id))),
            "name": .string(self.name),
            "email": .string(self.email),
            "score": .real(self.score),
            "active": .bool(self.active),
            "created": .date(self.created),
            "tags": .array(self.tags.map(PropertyListValue.string)),
            "avatar": .data(self.avatar),
            "address": ["street": .string(self.street), "city": .string(self.city), "zip": .string(self.zip)],
        ]
    }

    /// The record as the `Any` tree that `PropertyListSerialization` takes.
    var foundationValue: [String: Any] {
        [
            "id": self.id,
            "name": self.name,
            "email": self.email,
            "score": self.score,
            "active": self.active,
            "created": self.created,
            "tags": self.tags,
            "avatar": self.avatar,
            "address": ["street": self.street, "city": self.city, "zip": self.zip],
        ]
    }
}
