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

// The benchmark's cat (Benchmarks/CoderBenchmarks/CatModel.swift) with the direct conformance
// `@Archivable` is to generate, written by hand: the same properties, keys and order as its
// synthesized `Codable` conformance.

enum DirectSex: String, Codable {
    case female
    case male
}

struct DirectPlace: Codable, Equatable {
    var country: String
    var city: String
}

struct DirectCat: Codable, Equatable {
    var name: String
    var surname: String?
    var sex: DirectSex
    var nationality: String
    var birthPlace: DirectPlace?
    var birthday: Date
    var tags: [String]
    var weight: Double
}

extension DirectPlace: ArchiveObjectCodable {
    static var archiveObjectKeys: ArchiveObjectKeys { ArchiveObjectKeys(["country", "city"]) }

    func encodeArchiveObject(to writer: inout ArchiveObjectWriter) throws {
        try writer.encode(self.country, at: 0)
        try writer.encode(self.city, at: 1)
    }

    init(archiveObject reader: inout ArchiveObjectReader) throws {
        self.country = try reader.decode(at: 0)
        self.city = try reader.decode(at: 1)
    }
}

extension DirectCat: ArchiveObjectCodable {
    static var archiveObjectKeys: ArchiveObjectKeys {
        ArchiveObjectKeys(["name", "surname", "sex", "nationality", "birthPlace", "birthday", "tags", "weight"])
    }

    func encodeArchiveObject(to writer: inout ArchiveObjectWriter) throws {
        try writer.encode(self.name, at: 0)
        try writer.encodeIfPresent(self.surname, at: 1)
        try writer.encodeRawValue(self.sex, at: 2)
        try writer.encode(self.nationality, at: 3)
        try writer.encodeIfPresent(self.birthPlace, at: 4)
        try writer.encode(self.birthday, at: 5)
        try writer.encode(self.tags, at: 6)
        try writer.encode(self.weight, at: 7)
    }

    init(archiveObject reader: inout ArchiveObjectReader) throws {
        self.name = try reader.decode(at: 0)
        self.surname = try reader.decodeIfPresent(at: 1)
        self.sex = try reader.decodeRawValue(at: 2)
        self.nationality = try reader.decode(at: 3)
        self.birthPlace = try reader.decodeIfPresent(at: 4)
        self.birthday = try reader.decode(at: 5)
        self.tags = try reader.decode(at: 6)
        self.weight = try reader.decode(at: 7)
    }
}

/// Seeded cats, as the benchmark's `CatGenerator` makes them (SplitMix64).
enum DirectCatGenerator {
    private struct SplitMix64: RandomNumberGenerator {
        var state: UInt64

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

    private static let names = ["Tom", "Felix", "Chloé", "Zoë", "Søren", "$class", "", "Kuro", "東京", "NS.objects"]
    private static let surnames = ["Whiskers", "von Schnurr", "Müller", "Le Chat", "Tom"]
    private static let nationalities = ["FR", "DE", "JP", "Tom", "US"]
    private static let cities = ["Paris", "東京", "São Paulo", "FR", "Zürich"]
    private static let tags = ["grey", "lazy", "Tom", "$null", "kitten", "FR"]

    /// `count` cats from `seed`; equal strings recur across fields, so uniquing is exercised.
    static func cats(count: Int, seed: UInt64) -> [DirectCat] {
        var random = SplitMix64(state: seed)
        return (0..<count).map { _ in
            let nationality = random.pick(Self.nationalities)
            let hasSurname = random.next() % 3 != 0
            let hasBirthPlace = random.next() % 4 != 0
            let weights = [0.0, -1.5, 4.25, Double(random.next() % 1000) / 100, 1e300]
            return DirectCat(
                name: random.pick(Self.names),
                surname: hasSurname ? random.pick(Self.surnames) : nil,
                sex: random.next() % 2 == 0 ? .female : .male,
                nationality: nationality,
                birthPlace: hasBirthPlace ? DirectPlace(country: nationality, city: random.pick(Self.cities)) : nil,
                birthday: Date(timeIntervalSinceReferenceDate: Double(random.next() % 600_000_000) - 1e8),
                tags: (0..<Int(random.next() % 5)).map { _ in random.pick(Self.tags) },
                weight: random.pick(weights)
            )
        }
    }
}
