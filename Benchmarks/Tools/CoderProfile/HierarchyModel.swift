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

// Issue 34's speed report for class hierarchies: a final `@Archivable` subclass of an
// `@ArchivableClass` root (`pet-` workloads), beside a final class with the same five fields and
// no superclass (`flatpet-` workloads), so that the difference is what the hierarchy costs.

/// The root class: a pet's name, birth date and tags.
@ArchivableClass
class ProfiledPet {
    var name: String
    var born: Date
    var tags: [String]

    init(name: String, born: Date, tags: [String]) {
        self.name = name
        self.born = born
        self.tags = tags
    }
}

/// A subclass with two fields of its own.
@Archivable
final class ProfiledDog: ProfiledPet, Equatable {
    var breed: String
    var weight: Double

    init(name: String, born: Date, tags: [String], breed: String, weight: Double) {
        self.breed = breed
        self.weight = weight
        super.init(name: name, born: born, tags: tags)
    }

    static func == (lhs: ProfiledDog, rhs: ProfiledDog) -> Bool {
        lhs.name == rhs.name && lhs.born == rhs.born && lhs.tags == rhs.tags && lhs.breed == rhs.breed
            && lhs.weight == rhs.weight
    }
}

/// The same five fields in one final class.
@Archivable
final class FlatDog: Equatable {
    var name: String
    var born: Date
    var tags: [String]
    var breed: String
    var weight: Double

    init(name: String, born: Date, tags: [String], breed: String, weight: Double) {
        self.name = name
        self.born = born
        self.tags = tags
        self.breed = breed
        self.weight = weight
    }

    static func == (lhs: FlatDog, rhs: FlatDog) -> Bool {
        lhs.name == rhs.name && lhs.born == rhs.born && lhs.tags == rhs.tags && lhs.breed == rhs.breed
            && lhs.weight == rhs.weight
    }
}

enum DogGenerator {
    private static let breeds = ["beagle", "collie", "poodle", "terrier", "husky"]

    /// `count` dogs as the subclass; the same arguments always give the same dogs.
    static func dogs(count: Int) -> [ProfiledDog] {
        let allTags = ["calm", "trained", "chipped"]
        return (0..<count).map { (index: Int) -> ProfiledDog in
            let seconds = Double(600_000_000 + index * 3_600)
            let tags = Array(allTags.prefix(index % 4))
            return ProfiledDog(
                name: "dog \(index % 997)",
                born: Date(timeIntervalSinceReferenceDate: seconds),
                tags: tags,
                breed: Self.breeds[index % Self.breeds.count],
                weight: Double(index % 40) + 0.5
            )
        }
    }

    /// The same dogs as the flat class.
    static func flatDogs(count: Int) -> [FlatDog] {
        Self.dogs(count: count).map {
            FlatDog(name: $0.name, born: $0.born, tags: $0.tags, breed: $0.breed, weight: $0.weight)
        }
    }
}
