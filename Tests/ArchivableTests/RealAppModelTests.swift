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
import PropertyLists
import TestSupport
import Testing

/// A recipe app's model (``Kitchen``), archived as its synthesized-`Codable` twin
/// (``KitchenTwin``) is: the same keyed archive on both paths, the same JSON and property list,
/// each side reading the other's, and Foundation's `NSKeyedUnarchiver` reading it into `NSCoding`
/// classes.
@Suite struct RealAppModelTests {
    static let created = Date(timeIntervalSinceReferenceDate: 786_000_000.25)

    static let recipe = Kitchen.Recipe(
        id: UUID(uuidString: "6F9619FF-8B86-D011-B42D-00C04FC964FF")!,
        title: "Pancakes",
        created: Self.created,
        difficulty: .medium,
        servings: 4,
        rating: 4.5,
        ingredients: [
            Kitchen.Ingredient(
                id: UUID(uuidString: "00000000-0000-0000-0000-000000000001")!,
                name: "flour",
                quantity: .grams(200)
            ),
            Kitchen.Ingredient(
                id: UUID(uuidString: "00000000-0000-0000-0000-000000000002")!,
                name: "eggs",
                quantity: .pieces(2)
            ),
            Kitchen.Ingredient(
                id: UUID(uuidString: "00000000-0000-0000-0000-000000000003")!,
                name: "sugar",
                quantity: .cups(0.5, heaped: true),
                isOptional: true
            ),
            Kitchen.Ingredient(
                id: UUID(uuidString: "00000000-0000-0000-0000-000000000004")!,
                name: "salt",
                quantity: .toTaste
            ),
        ],
        steps: [
            Kitchen.Step(text: "Mix", timer: nil, picture: URL(string: "https://example.com/mix.jpg")),
            Kitchen.Step(text: "Fry", timer: 90, picture: nil),
        ],
        tags: ["breakfast", "sweet"],
        nutrition: ["kcal": 227.5, "protein": 6.4],
        thumbnail: Data((0..<16).map { UInt8($0 * 7) }),
        source: URL(string: "https://example.com/pancakes?lang=en"),
        revision: 1 << 40
    )

    static func twin(of recipe: Kitchen.Recipe) -> KitchenTwin.Recipe {
        var twin = KitchenTwin.Recipe(
            id: recipe.id,
            title: recipe.title,
            created: recipe.created,
            difficulty: KitchenTwin.Difficulty(rawValue: recipe.difficulty.rawValue)!,
            servings: recipe.servings,
            rating: recipe.rating,
            ingredients: recipe.ingredients.map { ingredient in
                let quantity: KitchenTwin.Quantity
                switch ingredient.quantity {
                case .grams(let grams): quantity = .grams(grams)
                case .pieces(let pieces): quantity = .pieces(pieces)
                case .cups(let cups, let heaped): quantity = .cups(cups, heaped: heaped)
                case .toTaste: quantity = .toTaste
                }
                return KitchenTwin.Ingredient(
                    id: ingredient.id,
                    name: ingredient.name,
                    quantity: quantity,
                    isOptional: ingredient.isOptional
                )
            },
            steps: recipe.steps.map { KitchenTwin.Step(text: $0.text, timer: $0.timer, picture: $0.picture) },
            tags: recipe.tags,
            nutrition: recipe.nutrition,
            thumbnail: recipe.thumbnail,
            source: recipe.source,
            revision: recipe.revision
        )
        #if os(iOS)
        twin.widgetSize = recipe.widgetSize
        #else
        twin.windowWidth = recipe.windowWidth
        #endif
        return twin
    }

    static var cookbook: Kitchen.Cookbook {
        Kitchen.Cookbook(name: "Weekend", recipes: [Self.recipe, Self.recipe], owner: nil, favorites: [Self.recipe.id])
    }

    static var cookbookTwin: KitchenTwin.Cookbook {
        let twin = Self.twin(of: Self.recipe)
        return KitchenTwin.Cookbook(name: "Weekend", recipes: [twin, twin], owner: nil, favorites: [twin.id])
    }

    /// Both paths write the twin's keyed archive, byte for byte, and read it back.
    @Test(arguments: BothPaths.modes)
    func theKeyedArchiveIsTheTwins(mode: DirectArchiving) throws {
        let archive = try BothPaths.encoder(mode).encode(Self.recipe)
        let twinArchive = try BothPaths.encoder(.disabled).encode(Self.twin(of: Self.recipe))
        #expect(archive == twinArchive)
        #expect(try BothPaths.decoder(mode).decode(Kitchen.Recipe.self, from: twinArchive) == Self.recipe)
        #expect(
            try BothPaths.decoder(.disabled).decode(KitchenTwin.Recipe.self, from: archive)
                == Self.twin(of: Self.recipe)
        )

        let book = try BothPaths.encoder(mode).encode(Self.cookbook)
        #expect(book == (try BothPaths.encoder(.disabled).encode(Self.cookbookTwin)))
        let decoded = try BothPaths.decoder(mode).decode(Kitchen.Cookbook.self, from: book)
        #expect(decoded.name == "Weekend" && decoded.owner == nil && decoded.recipes == [Self.recipe, Self.recipe])
        #expect(decoded.favorites == [Self.recipe.id])
    }

    /// JSON and property lists: the twin's bytes, and each side reads the other's.
    @Test func otherCodersWriteWhatTheTwinWrites() throws {
        let json = JSONEncoder()
        json.outputFormatting = .sortedKeys
        let twin = Self.twin(of: Self.recipe)
        #expect(try json.encode(Self.recipe) == json.encode(twin))
        #expect(try JSONDecoder().decode(Kitchen.Recipe.self, from: json.encode(twin)) == Self.recipe)
        let plist = PropertyListEncoder()
        plist.outputFormat = .binary
        #expect(try plist.encode(Self.recipe) == plist.encode(twin))
        #expect(try PropertyListDecoder().decode(Kitchen.Recipe.self, from: plist.encode(twin)) == Self.recipe)
        #expect(try json.encode(Self.cookbook) == json.encode(Self.cookbookTwin))
    }

    /// Foundation's `NSKeyedUnarchiver` reads the archive into `NSCoding` classes registered for
    /// its class names, as an app that still has them would.
    @Test(arguments: BothPaths.modes)
    func foundationReadsItIntoNSCodingClasses(mode: DirectArchiving) throws {
        let data = try BothPaths.encoder(mode).encode(Self.recipe)
        let unarchiver = try NSKeyedUnarchiver(forReadingFrom: data)
        unarchiver.requiresSecureCoding = false
        unarchiver.setClass(RecipeReader.self, forClassName: "Recipe")
        unarchiver.setClass(IngredientReader.self, forClassName: "Ingredient")
        let recipe = try #require(unarchiver.decodeObject(forKey: NSKeyedArchiveRootObjectKey) as? RecipeReader)
        #expect(recipe.title == "Pancakes")
        #expect(recipe.id == Self.recipe.id)
        #expect(recipe.created == Self.created)
        #expect(recipe.servings == 4)
        #expect(recipe.rating == 4.5)
        #expect(recipe.difficulty == "medium")
        #expect(recipe.tags == ["breakfast", "sweet"])
        #expect(recipe.nutrition == ["kcal": 227.5, "protein": 6.4])
        #expect(recipe.thumbnail == Self.recipe.thumbnail)
        #expect(recipe.source == Self.recipe.source)
        #expect(recipe.revision == 1 << 40)
        #expect(recipe.ingredients.map(\.name) == ["flour", "eggs", "sugar", "salt"])
        #expect(recipe.ingredients.map(\.isOptional) == [false, false, true, false])
        #expect(recipe.ingredients.first?.id == Self.recipe.ingredients.first?.id)
    }
}

/// How an `NSCoding` app reads a ``Kitchen/Recipe``.
final class RecipeReader: NSObject, NSCoding {
    let id: UUID?
    let title: String?
    let created: Date?
    let difficulty: String?
    let servings: Int
    let rating: Float
    let ingredients: [IngredientReader]
    let tags: Set<String>?
    let nutrition: [String: Double]?
    let thumbnail: Data?
    let source: URL?
    let revision: Int64

    init?(coder: NSCoder) {
        self.id = coder.decodeObject(forKey: "id") as? UUID
        self.title = coder.decodeObject(forKey: "title") as? String
        self.created = coder.decodeObject(forKey: "created") as? Date
        self.difficulty = coder.decodeObject(forKey: "difficulty") as? String
        self.servings = coder.decodeInteger(forKey: "servings")
        self.rating = coder.decodeFloat(forKey: "rating")
        self.ingredients = coder.decodeObject(forKey: "ingredients") as? [IngredientReader] ?? []
        self.tags = (coder.decodeObject(forKey: "tags") as? NSSet).map { Set($0.compactMap { $0 as? String }) }
        self.nutrition = coder.decodeObject(forKey: "nutrition") as? [String: Double]
        self.thumbnail = coder.decodeObject(forKey: "thumbnail") as? Data
        self.source = coder.decodeObject(forKey: "source") as? URL
        self.revision = coder.decodeInt64(forKey: "revision")
    }

    func encode(with coder: NSCoder) {}
}

/// How an `NSCoding` app reads a ``Kitchen/Ingredient``.
final class IngredientReader: NSObject, NSCoding {
    let id: UUID?
    let name: String?
    let isOptional: Bool

    init?(coder: NSCoder) {
        self.id = coder.decodeObject(forKey: "id") as? UUID
        self.name = coder.decodeObject(forKey: "name") as? String
        self.isOptional = coder.decodeBool(forKey: "isOptional")
    }

    func encode(with coder: NSCoder) {}
}
