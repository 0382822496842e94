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
import KeyedArchivingMacros

// A pet clinic's model layer, a class hierarchy as an app writes it: an `@ArchivableClass` root
// class, an `@ArchivableClass` subclass of it and a final `@Archivable` one of that, a final class
// holding them where their root class is declared, an `NSObject` subclass and its subclass, and a
// subclass of a plain `Codable` class. Each has its twin in ``PetsTwin``: a hand-written `Codable`
// conformance that calls `super.encode(to:)` on the same encoder and `super.init(from:)`, and
// declares its class chain, under the same class names.

enum Pets {
    /// The root class of the animals.
    @ArchivableClass
    class Animal {
        var name: String
        var born: Date
        var tags: [String] = []

        init(name: String, born: Date, tags: [String] = []) {
            self.name = name
            self.born = born
            self.tags = tags
        }
    }

    /// A subclass with its own properties, itself subclassed.
    @ArchivableClass
    class Dog: Animal {
        var breed: String
        var isGoodBoy = true

        init(name: String, born: Date, breed: String) {
            self.breed = breed
            super.init(name: name, born: born)
        }
    }

    /// A final subclass of the subclass: a chain of three.
    @Archivable
    final class Puppy: Dog {
        var weeks: Int
        var nickname: String?

        init(name: String, born: Date, breed: String, weeks: Int) {
            self.weeks = weeks
            super.init(name: name, born: born, breed: breed)
        }
    }

    /// A final class, as today's, that holds animals where their root class is declared.
    @Archivable
    final class Household {
        var owner: String
        var pets: [Animal]
        var favorite: Animal?

        init(owner: String, pets: [Animal], favorite: Animal?) {
            self.owner = owner
            self.pets = pets
            self.favorite = favorite
        }
    }

    /// A subclass of Foundation's `NSObject`.
    @ArchivableClass
    class Vet: NSObject {
        var name: String
        var clinic: String?

        init(name: String, clinic: String?) {
            self.name = name
            self.clinic = clinic
        }
    }

    /// A subclass of an `@Archivable` subclass of `NSObject`.
    @Archivable
    final class Surgeon: Vet {
        var specialty: String

        init(name: String, clinic: String?, specialty: String) {
            self.specialty = specialty
            super.init(name: name, clinic: clinic)
        }
    }

    /// A plain `Codable` class, with the conformance Swift synthesizes.
    class Record: Codable {
        var number: Int
        var note: String

        init(number: Int, note: String) {
            self.number = number
            self.note = note
        }
    }

    /// An `@Archivable` subclass of the plain `Codable` class.
    @Archivable
    final class Visit: Record {
        var cost: Double
        var paid = false

        init(number: Int, note: String, cost: Double) {
            self.cost = cost
            super.init(number: number, note: note)
        }
    }

    /// A subclass of the plain `Codable` class that is itself subclassed.
    @ArchivableClass
    class Exam: Record {
        var room = 1

        override init(number: Int, note: String) {
            super.init(number: number, note: note)
        }
    }

    /// A final subclass of that subclass.
    @Archivable
    final class Xray: Exam {
        var film: String

        init(number: Int, note: String, film: String) {
            self.film = film
            super.init(number: number, note: note)
        }
    }
}

/// The twins of ``Pets``: each class's hand-written `Codable` conformance, calling its
/// superclass's on the same encoder and decoder, and its class chain declared.
enum PetsTwin {
    class Animal: Codable, ArchivedClassNaming {
        class var archivedClassName: String { "Animal" }
        class var archivedClassChain: [String] { ["Animal", "NSObject"] }

        var name: String
        var born: Date
        var tags: [String] = []

        private enum CodingKeys: String, CodingKey {
            case name, born, tags
        }

        init(name: String, born: Date, tags: [String] = []) {
            self.name = name
            self.born = born
            self.tags = tags
        }

        required init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            self.name = try container.decode(String.self, forKey: .name)
            self.born = try container.decode(Date.self, forKey: .born)
            self.tags = try container.decodeIfPresent([String].self, forKey: .tags) ?? []
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(self.name, forKey: .name)
            try container.encode(self.born, forKey: .born)
            try container.encode(self.tags, forKey: .tags)
        }
    }

    class Dog: Animal {
        override class var archivedClassName: String { "Dog" }
        override class var archivedClassChain: [String] { ["Dog", "Animal", "NSObject"] }

        var breed: String
        var isGoodBoy = true

        private enum CodingKeys: String, CodingKey {
            case breed, isGoodBoy
        }

        init(name: String, born: Date, breed: String) {
            self.breed = breed
            super.init(name: name, born: born)
        }

        required init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            self.breed = try container.decode(String.self, forKey: .breed)
            self.isGoodBoy = try container.decodeIfPresent(Bool.self, forKey: .isGoodBoy) ?? true
            try super.init(from: decoder)
        }

        override func encode(to encoder: any Encoder) throws {
            try super.encode(to: encoder)
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(self.breed, forKey: .breed)
            try container.encode(self.isGoodBoy, forKey: .isGoodBoy)
        }
    }

    final class Puppy: Dog {
        override class var archivedClassName: String { "Puppy" }
        override class var archivedClassChain: [String] { ["Puppy", "Dog", "Animal", "NSObject"] }

        var weeks: Int
        var nickname: String?

        private enum CodingKeys: String, CodingKey {
            case weeks, nickname
        }

        init(name: String, born: Date, breed: String, weeks: Int) {
            self.weeks = weeks
            super.init(name: name, born: born, breed: breed)
        }

        required init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            self.weeks = try container.decode(Int.self, forKey: .weeks)
            self.nickname = try container.decodeIfPresent(String.self, forKey: .nickname)
            try super.init(from: decoder)
        }

        override func encode(to encoder: any Encoder) throws {
            try super.encode(to: encoder)
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(self.weeks, forKey: .weeks)
            try container.encodeIfPresent(self.nickname, forKey: .nickname)
        }
    }

    final class Household: Codable {
        var owner: String
        var pets: [Animal]
        var favorite: Animal?

        init(owner: String, pets: [Animal], favorite: Animal?) {
            self.owner = owner
            self.pets = pets
            self.favorite = favorite
        }
    }

    class Vet: NSObject, Codable {
        var name: String
        var clinic: String?

        private enum CodingKeys: String, CodingKey {
            case name, clinic
        }

        init(name: String, clinic: String?) {
            self.name = name
            self.clinic = clinic
        }

        required init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            self.name = try container.decode(String.self, forKey: .name)
            self.clinic = try container.decodeIfPresent(String.self, forKey: .clinic)
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(self.name, forKey: .name)
            try container.encodeIfPresent(self.clinic, forKey: .clinic)
        }
    }

    final class Surgeon: Vet {
        var specialty: String

        private enum CodingKeys: String, CodingKey {
            case specialty
        }

        init(name: String, clinic: String?, specialty: String) {
            self.specialty = specialty
            super.init(name: name, clinic: clinic)
        }

        required init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            self.specialty = try container.decode(String.self, forKey: .specialty)
            try super.init(from: decoder)
        }

        override func encode(to encoder: any Encoder) throws {
            try super.encode(to: encoder)
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(self.specialty, forKey: .specialty)
        }
    }

    final class Visit: Pets.Record {
        var cost: Double
        var paid = false

        private enum CodingKeys: String, CodingKey {
            case cost, paid
        }

        init(number: Int, note: String, cost: Double) {
            self.cost = cost
            super.init(number: number, note: note)
        }

        required init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            self.cost = try container.decode(Double.self, forKey: .cost)
            self.paid = try container.decodeIfPresent(Bool.self, forKey: .paid) ?? false
            try super.init(from: decoder)
        }

        override func encode(to encoder: any Encoder) throws {
            try super.encode(to: encoder)
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(self.cost, forKey: .cost)
            try container.encode(self.paid, forKey: .paid)
        }
    }

    class Exam: Pets.Record {
        var room = 1

        private enum CodingKeys: String, CodingKey {
            case room
        }

        override init(number: Int, note: String) {
            super.init(number: number, note: note)
        }

        required init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            self.room = try container.decodeIfPresent(Int.self, forKey: .room) ?? 1
            try super.init(from: decoder)
        }

        override func encode(to encoder: any Encoder) throws {
            try super.encode(to: encoder)
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(self.room, forKey: .room)
        }
    }

    final class Xray: Exam {
        var film: String

        private enum CodingKeys: String, CodingKey {
            case film
        }

        init(number: Int, note: String, film: String) {
            self.film = film
            super.init(number: number, note: note)
        }

        required init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            self.film = try container.decode(String.self, forKey: .film)
            try super.init(from: decoder)
        }

        override func encode(to encoder: any Encoder) throws {
            try super.encode(to: encoder)
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(self.film, forKey: .film)
        }
    }
}
