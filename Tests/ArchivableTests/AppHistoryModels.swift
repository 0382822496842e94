//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-keyed-archive open source project
//
// Licensed under Apache License v2.0
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import KeyedArchivingMacros

// Three versions of one model, as a pet app shipped them. Foundation-made archives of each are in
// Tests/TestSupport/Fixtures/foundation/app-history-v*.archive (dev/app-history/Cat.swift).

/// Version 1 (module CatApp): every property that later versions drop or rename has an initial
/// value, so that this version still reads what later versions write.
enum AppV1 {
    @Archivable(className: "CatApp.Cat")
    struct Cat: Equatable {
        var name: String
        var colour = "tabby"
        var age = 0
        var nickname: String?
        var toy = "ball"
        var weight: Int
        var mood: Mood
        var tags: String
        var unknownFields = ArchiveUnknownFields()
    }

    @Archivable
    enum Mood: String {
        case calm, playful
        @ArchiveUnknownCase case unknown
    }
}

/// Version 2 (module CatApp): `colour` renamed `color`, `age` removed, `nickname` no longer
/// optional, `toy` now optional, `lives` added with a default, a `sleepy` mood added. No
/// migration is needed, so the type's version stays 1.
enum AppV2 {
    @Archivable(className: "CatApp.Cat")
    struct Cat: Equatable {
        var name: String
        @ArchiveKey("color", "colour") var color: String
        var nickname = ""
        var toy: String? = "ball"
        var weight: Int
        var lives = 9
        var mood: Mood
        var tags: String
        var unknownFields = ArchiveUnknownFields()
    }

    @Archivable
    enum Mood: String {
        case calm, playful, sleepy
        @ArchiveUnknownCase case unknown
    }
}

/// Version 3 (module PetApp): the class renamed `PetApp.Cat`, `weight` widened to `Double`, and
/// `tags` a list instead of comma-separated text: a change that needs a migration, so the type's
/// version is 2 and version 2 of the app (type version 1) is its previous version.
enum AppV3 {
    @Archivable(version: 2, previousVersion: AppV2.Cat.self, className: "PetApp.Cat", formerClassNames: ["CatApp.Cat"])
    struct Cat: Equatable {
        var name: String
        @ArchiveKey("color", "colour") var color: String
        var nickname = ""
        var toy: String? = "ball"
        var weight: Double
        var lives = 9
        var mood: AppV2.Mood
        var tags: [String]
        var unknownFields = ArchiveUnknownFields()
    }
}

extension AppV3.Cat {
    init(migratingFrom old: AppV2.Cat) {
        self.init(
            name: old.name,
            color: old.color,
            nickname: old.nickname,
            toy: old.toy,
            weight: Double(old.weight),
            lives: old.lives,
            mood: old.mood,
            tags: old.tags.split(separator: ",").map(String.init)
        )
    }
}

/// The value each version saved: the same cats the Foundation-made fixtures hold.
enum AppHistory {
    static let v1 = AppV1.Cat(
        name: "Tom",
        colour: "ginger",
        age: 3,
        nickname: nil,
        toy: "mouse",
        weight: 4,
        mood: .playful,
        tags: "tabby,lazy"
    )
    static let v2 = AppV2.Cat(
        name: "Felix",
        color: "black",
        nickname: "Fee",
        toy: nil,
        weight: 5,
        lives: 7,
        mood: .sleepy,
        tags: "black,sleek"
    )
    static let v3 = AppV3.Cat(
        name: "Luna",
        color: "grey",
        nickname: "Lu",
        toy: "laser",
        weight: 3.75,
        lives: 8,
        mood: .calm,
        tags: ["grey", "small"]
    )
}
