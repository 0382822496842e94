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

// Optionals spelled through a `typealias`: the macro cannot see that they are optional, the
// compiler can (issue 34). Each model has a twin written as synthesized `Codable` would be, and a
// sibling that spells its optionals with `?`.

typealias MaybeCount = Int?
typealias MaybeLabel = String?

/// Optionals under other names: one required (no initial value), one with an initial value.
@Archivable
struct AliasedOptionals: Equatable {
    var name: String
    var count: MaybeCount
    var label: MaybeLabel = "none"
}

/// ``AliasedOptionals`` with synthesized `Codable`, under the same class name.
struct AliasedOptionalsTwin: Codable, Equatable, ArchivedClassNaming {
    static var archivedClassName: String { "AliasedOptionals" }
    var name: String
    var count: MaybeCount
    var label: MaybeLabel = "none"
}

/// ``AliasedOptionals`` with its optionals spelled `Int?` and `String?`.
@Archivable(className: "AliasedOptionals")
struct SpelledOptionals: Equatable {
    var name: String
    var count: Int?
    var label: String? = "none"
}

/// An older form of ``AliasedOptionals`` that had only its name.
@Archivable(className: "AliasedOptionals")
struct NameOnly: Equatable {
    var name: String
}
