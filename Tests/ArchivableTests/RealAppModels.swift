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

// A recipe app's model layer, written as an app writes it (identifiers, dates, URLs, raw-value and
// associated-value enums, optionals, sets, dictionaries, small integers and floats, nested values,
// a `#if` property, a final class holding values), each with its twin: the same declaration with
// synthesized `Codable`, under the same class name.

enum Kitchen {
    @Archivable
    enum Difficulty: String, Equatable {
        case easy, medium, hard
    }

    @Archivable
    enum Quantity: Equatable {
        case grams(Double)
        case pieces(Int)
        case cups(Double, heaped: Bool)
        case toTaste
    }

    @Archivable(className: "Ingredient")
    struct Ingredient: Equatable, Identifiable {
        var id: UUID
        var name: String
        var quantity: Quantity
        var isOptional = false
    }

    @Archivable(className: "Step")
    struct Step: Equatable {
        var text: String
        var timer: TimeInterval?
        var picture: URL?
    }

    @Archivable(className: "Recipe")
    struct Recipe: Equatable, Identifiable {
        var id: UUID
        var title: String
        var created: Date
        var difficulty: Difficulty = .easy
        var servings: Int16 = 2
        var rating: Float?
        var ingredients: [Ingredient]
        var steps: [Step] = []
        var tags: Set<String> = []
        var nutrition: [String: Double] = [:]
        var thumbnail: Data?
        var source: URL?
        var revision: UInt64 = 0
        #if os(iOS)
        var widgetSize = "small"
        #else
        var windowWidth = 640.0
        #endif
    }

    @Archivable(className: "Cookbook")
    final class Cookbook {
        var name: String
        var recipes: [Recipe]
        var owner: String?
        var favorites: [UUID] = []

        init(name: String, recipes: [Recipe], owner: String?, favorites: [UUID] = []) {
            self.name = name
            self.recipes = recipes
            self.owner = owner
            self.favorites = favorites
        }
    }
}

/// ``Kitchen``'s twins, with synthesized `Codable`.
enum KitchenTwin {
    enum Difficulty: String, Codable, Equatable {
        case easy, medium, hard
    }

    enum Quantity: Codable, Equatable, ArchivedClassNaming {
        static var archivedClassName: String { "Quantity" }
        case grams(Double)
        case pieces(Int)
        case cups(Double, heaped: Bool)
        case toTaste
    }

    struct Ingredient: Codable, Equatable, ArchivedClassNaming {
        static var archivedClassName: String { "Ingredient" }
        var id: UUID
        var name: String
        var quantity: Quantity
        var isOptional = false
    }

    struct Step: Codable, Equatable, ArchivedClassNaming {
        static var archivedClassName: String { "Step" }
        var text: String
        var timer: TimeInterval?
        var picture: URL?
    }

    struct Recipe: Codable, Equatable, ArchivedClassNaming {
        static var archivedClassName: String { "Recipe" }
        var id: UUID
        var title: String
        var created: Date
        var difficulty: Difficulty = .easy
        var servings: Int16 = 2
        var rating: Float?
        var ingredients: [Ingredient]
        var steps: [Step] = []
        var tags: Set<String> = []
        var nutrition: [String: Double] = [:]
        var thumbnail: Data?
        var source: URL?
        var revision: UInt64 = 0
        #if os(iOS)
        var widgetSize = "small"
        #else
        var windowWidth = 640.0
        #endif
    }

    final class Cookbook: Codable, ArchivedClassNaming {
        static var archivedClassName: String { "Cookbook" }
        var name: String
        var recipes: [Recipe]
        var owner: String?
        var favorites: [UUID] = []

        init(name: String, recipes: [Recipe], owner: String?, favorites: [UUID] = []) {
            self.name = name
            self.recipes = recipes
            self.owner = owner
            self.favorites = favorites
        }
    }
}
