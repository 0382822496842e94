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
import KeyedArchivingMacros

/// The seeds-like model of the benchmark: a plain `Codable` struct, as an application would write it.
struct Cat: Codable, Equatable {
    var name: String
    var surname: String?
    var sex: Sex
    var nationality: String
    var birthPlace: Place?
    var birthday: Date
    var tags: [String]
    var weight: Double
}

enum Sex: String, Codable {
    case female
    case male
}

struct Place: Codable, Equatable {
    var country: String
    var city: String
}

/// SplitMix64: a tiny, seeded generator, so every run benchmarks the same cats.
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

enum CatGenerator {
    private static let names = [
        "Tom", "Felix", "Luna", "Milo", "Nala", "Oliver", "Simba", "Chloé", "Mochi", "Zoë", "Garfield", "Kitty",
        "Søren", "Mia", "Leo", "Tigrou", "Minou", "Kuro", "Pixel", "Salem",
    ]
    private static let surnames = [
        "Whiskers", "Paws", "Tabby", "von Schnurr", "Moustache", "Müller", "García", "Le Chat", "Ginger", "Smoky",
    ]
    private static let nationalities = ["FR", "DE", "GB", "US", "JP", "ES", "IT", "NO", "BR", "PL"]
    private static let cities = [
        "Paris", "Berlin", "London", "New York", "東京", "Madrid", "Roma", "Oslo", "São Paulo", "Kraków", "Zürich",
        "Lyon",
    ]
    private static let tagPool = [
        "grey", "lazy", "playful", "indoor", "outdoor", "fluffy", "shorthair", "vaccinated", "neutered", "senior",
        "kitten", "friendly", "shy", "hunter",
    ]

    /// Generates `count` cats from `seed`; the same arguments always give the same cats. About a
    /// third have no surname and a quarter no birth place.
    static func cats(count: Int, seed: UInt64 = 0x4341_5453) -> [Cat] {
        var rng = SeededGenerator(seed: seed)
        // Whole seconds since 2001, from 2005 to 2024.
        let start = 126_230_400.0
        return (0..<count).map { _ in
            let nationality = rng.pick(Self.nationalities)
            let hasSurname = rng.next() % 3 != 0
            let hasBirthPlace = rng.next() % 4 != 0
            return Cat(
                name: rng.pick(Self.names),
                surname: hasSurname ? rng.pick(Self.surnames) : nil,
                sex: rng.next() % 2 == 0 ? .female : .male,
                nationality: nationality,
                birthPlace: hasBirthPlace ? Place(country: nationality, city: rng.pick(Self.cities)) : nil,
                birthday: Date(timeIntervalSinceReferenceDate: start + Double(rng.next() % 600_000_000)),
                tags: (0..<Int(rng.next() % 4)).map { _ in rng.pick(Self.tagPool) },
                weight: Double(200 + rng.next() % 800) / 100
            )
        }
    }
}

/// The `NSCoding` twin of `Place`, for `NSKeyedArchiver`. Top level and not private, so that
/// swift-corelibs-foundation can find the class by its archived name when unarchiving.
final class PlaceNS: NSObject, NSCoding {
    let country: String
    let city: String

    init(_ place: Place) {
        self.country = place.country
        self.city = place.city
    }

    init?(coder: NSCoder) {
        guard let country = coder.decodeObject(forKey: "country") as? String,
            let city = coder.decodeObject(forKey: "city") as? String
        else { return nil }
        self.country = country
        self.city = city
    }

    func encode(with coder: NSCoder) {
        coder.encode(self.country, forKey: "country")
        coder.encode(self.city, forKey: "city")
    }
}

/// The `NSCoding` twin of `Cat`, for `NSKeyedArchiver`.
final class CatNS: NSObject, NSCoding {
    let name: String
    let surname: String?
    let sex: String
    let nationality: String
    let birthPlace: PlaceNS?
    let birthday: Date
    let tags: [String]
    let weight: Double

    init(_ cat: Cat) {
        self.name = cat.name
        self.surname = cat.surname
        self.sex = cat.sex.rawValue
        self.nationality = cat.nationality
        self.birthPlace = cat.birthPlace.map(PlaceNS.init)
        self.birthday = cat.birthday
        self.tags = cat.tags
        self.weight = cat.weight
    }

    init?(coder: NSCoder) {
        guard let name = coder.decodeObject(forKey: "name") as? String,
            let sex = coder.decodeObject(forKey: "sex") as? String,
            let nationality = coder.decodeObject(forKey: "nationality") as? String,
            let birthday = coder.decodeObject(forKey: "birthday") as? Date,
            let tags = coder.decodeObject(forKey: "tags") as? [String]
        else { return nil }
        self.name = name
        self.surname = coder.decodeObject(forKey: "surname") as? String
        self.sex = sex
        self.nationality = nationality
        self.birthPlace = coder.decodeObject(forKey: "birthPlace") as? PlaceNS
        self.birthday = birthday
        self.tags = tags
        self.weight = coder.decodeDouble(forKey: "weight")
    }

    func encode(with coder: NSCoder) {
        coder.encode(self.name, forKey: "name")
        coder.encode(self.surname, forKey: "surname")
        coder.encode(self.sex, forKey: "sex")
        coder.encode(self.nationality, forKey: "nationality")
        coder.encode(self.birthPlace, forKey: "birthPlace")
        coder.encode(self.birthday, forKey: "birthday")
        coder.encode(self.tags, forKey: "tags")
        coder.encode(self.weight, forKey: "weight")
    }

    /// The `Cat` this object holds, to check the round trip.
    var cat: Cat? {
        guard let sex = Sex(rawValue: self.sex) else { return nil }
        return Cat(
            name: self.name,
            surname: self.surname,
            sex: sex,
            nationality: self.nationality,
            birthPlace: self.birthPlace.map { Place(country: $0.country, city: $0.city) },
            birthday: self.birthday,
            tags: self.tags,
            weight: self.weight
        )
    }
}

/// The same cat with an `@Archivable` conformance instead of a synthesized one: the benchmark's
/// `*Archivable` rows compare the generated code with synthesized `Codable`, coder by coder.
@Archivable
struct ArchivableCat: Equatable {
    var name: String
    var surname: String?
    var sex: ArchivableSex
    var nationality: String
    var birthPlace: ArchivablePlace?
    var birthday: Date
    var tags: [String]
    var weight: Double
}

@Archivable
enum ArchivableSex: String {
    case female
    case male
}

@Archivable
struct ArchivablePlace: Equatable {
    var country: String
    var city: String
}

extension ArchivableCat {
    init(_ cat: Cat) {
        self.init(
            name: cat.name,
            surname: cat.surname,
            sex: cat.sex == .female ? .female : .male,
            nationality: cat.nationality,
            birthPlace: cat.birthPlace.map { ArchivablePlace(country: $0.country, city: $0.city) },
            birthday: cat.birthday,
            tags: cat.tags,
            weight: cat.weight
        )
    }
}
