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

/// The `@Archivable` model `FuzzArchivableDecoder` decodes into: every evolution rule in play
/// (initial values, optionals with and without them, former keys, ignored and fallback
/// properties, kept unknown fields, class names, a version with a two-step migration, enums with
/// unknown cases, a generic type, a shared final class, a property wrapper, a class hierarchy). No
/// floating-point values, so that `==` compares exactly; a date, whose time interval may be NaN, is
/// compared by its bits.
@Archivable(
    version: 3,
    previousVersion: ArchivableFuzzModelV2.self,
    className: "Fuzz.Model",
    formerClassNames: ["Fuzz.OldModel"]
)
struct ArchivableFuzzModel: Equatable {
    var name: String
    var count = 0
    var nickname: String?
    var motto: String? = "purr"
    @ArchiveKey("tags", "labels") var tags: [String] = []
    @ArchiveIgnored var scratch = 0
    @ArchiveFallback var mood: Mood = .calm
    var events: [Event] = []
    var page = Page<Int>(items: [])
    /// Nested values read directly: an array of them, and one without an initial value.
    var shelf: [Page<Int>] = []
    var cover: Page<String>?
    var owner: Owner?
    var friend: Owner?
    var created = Date(timeIntervalSinceReferenceDate: 0)
    @Bounded var level = 5
    /// A class hierarchy: a subclass held where its root class is declared, and as itself.
    var pet: Pet?
    var kitten: Kitten?
    var unknownFields = ArchiveUnknownFields()

    static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.name == rhs.name && lhs.count == rhs.count && lhs.nickname == rhs.nickname && lhs.motto == rhs.motto
            && lhs.tags == rhs.tags && lhs.mood == rhs.mood && lhs.events == rhs.events && lhs.page == rhs.page
            && lhs.shelf == rhs.shelf && lhs.cover == rhs.cover
            && lhs.owner?.name == rhs.owner?.name && lhs.friend?.name == rhs.friend?.name
            && lhs.created.timeIntervalSinceReferenceDate.bitPattern
                == rhs.created.timeIntervalSinceReferenceDate.bitPattern
            && lhs.level == rhs.level && lhs.pet?.name == rhs.pet?.name && lhs.pet?.age == rhs.pet?.age
            && lhs.kitten?.name == rhs.kitten?.name && lhs.kitten?.toys == rhs.kitten?.toys
    }
}

/// A property wrapper that keeps a value between 0 and 100, archived as its value.
@propertyWrapper
struct Bounded: Codable, Equatable {
    private var value: Int

    var wrappedValue: Int {
        get { self.value }
        set { self.value = min(max(newValue, 0), 100) }
    }

    init(wrappedValue: Int) {
        self.value = min(max(wrappedValue, 0), 100)
    }

    init(from decoder: any Decoder) throws {
        self.init(wrappedValue: try decoder.singleValueContainer().decode(Int.self))
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(self.value)
    }
}

extension ArchivableFuzzModel {
    init(migratingFrom old: ArchivableFuzzModelV2) {
        self.init(name: old.name, count: old.count, tags: old.labels.split(separator: " ").map(String.init))
    }
}

/// Version 2 of the model: tags were one string.
@Archivable(version: 2, previousVersion: ArchivableFuzzModelV1.self)
struct ArchivableFuzzModelV2 {
    var name: String
    var count = 0
    var labels = ""
}

extension ArchivableFuzzModelV2 {
    init(migratingFrom old: ArchivableFuzzModelV1) throws {
        guard old.title.utf8.count < 1000 else { throw MigrationRefused() }
        self.init(name: old.title, count: old.count ?? 0)
    }
}

/// Version 1 of the model.
@Archivable
struct ArchivableFuzzModelV1: Equatable {
    var title: String
    var count: Int?
}

/// A migration that refuses its input.
struct MigrationRefused: Error {}

/// A raw-value enum with an unknown case.
@Archivable
enum Mood: String, Equatable {
    case calm, playful
    @ArchiveUnknownCase case unknown
}

/// An enum with associated values and an unknown case.
@Archivable
enum Event: Equatable {
    case fed(grams: Int, by: String?)
    case slept(Int, Int)
    case purred
    @ArchiveUnknownCase case unknown
}

/// A generic type.
@Archivable
struct Page<Element>: Equatable where Element: Equatable {
    var items: [Element]
    var next: Int?
}

/// A class reachable from several places.
@Archivable(className: "Fuzz.Owner")
final class Owner {
    var name = ""
    var pets: [String] = []
}

/// The root class of a hierarchy.
@ArchivableClass
class Pet {
    var name = ""
    var age = 0
}

/// A final subclass: its object holds its superclass's fields and its own.
@Archivable
final class Kitten: Pet {
    var toys: [String] = []

    override init() {
        super.init()
    }
}

extension ArchivableFuzzModel {
    /// Values whose archives seed the corpus.
    static var samples: [ArchivableFuzzModel] {
        let owner = Owner()
        owner.name = "Ada"
        owner.pets = ["Tom", "Kit"]
        let kitten = Kitten()
        kitten.name = "Mia"
        kitten.age = 1
        kitten.toys = ["ball"]
        return [
            ArchivableFuzzModel(name: "Tom"),
            ArchivableFuzzModel(
                name: "Kit",
                count: 3,
                nickname: "K",
                motto: nil,
                tags: ["a", "b"],
                mood: .playful,
                events: [.fed(grams: 40, by: nil), .slept(1, 2), .purred],
                page: Page(items: [1, 2], next: 2),
                shelf: [Page(items: [3], next: nil), Page(items: [], next: 1)],
                cover: Page(items: ["front"], next: nil),
                owner: owner,
                friend: owner,
                created: Date(timeIntervalSinceReferenceDate: 700_000_000),
                level: 42,
                pet: kitten,
                kitten: kitten
            ),
        ]
    }
}
