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

// Models for ArchivableRulesTests: each rule of `@Archivable`, and twins with synthesized Codable.

/// Synthesized `Codable`: the reference for ``Twin``.
struct SynthesizedTwin: Codable, Equatable {
    var name: String
    var count: Int
    var ratio: Double
    var note: String?
    var tags: [String]
    var scores: [String: Int]
    var when: Date
    var shape: SynthesizedTwinShape
    var shapes: [SynthesizedTwinShape]
    var flag: Bool
}

/// Synthesized `Codable` for an enum with associated values.
enum SynthesizedTwinShape: Codable, Equatable {
    case point
    case circle(radius: Double)
    case rectangle(Double, Double)
    case labelled(String, size: Int, note: String?)
}

/// `@Archivable` with no attribute and no initial value: must code exactly as ``SynthesizedTwin``.
@Archivable
struct Twin: Equatable {
    var name: String
    var count: Int
    var ratio: Double
    var note: String?
    var tags: [String]
    var scores: [String: Int]
    var when: Date
    var shape: Shape
    var shapes: [Shape]
    var flag: Bool
}

/// `@Archivable` twin of ``SynthesizedTwinShape``.
@Archivable
enum Shape: Equatable {
    case point
    case circle(radius: Double)
    case rectangle(Double, Double)
    case labelled(String, size: Int, note: String?)
}

/// Initial values, optionals, keys, ignored and fallback properties.
@Archivable
struct Settings: Equatable {
    var theme: String
    var fontSize = 12
    var nickname: String?
    var accent: String? = "blue"
    @ArchiveKey("volume", "soundLevel", "level") var volume = 5
    @ArchiveIgnored var cache: [String] = ["warm"]
    @ArchiveIgnored let build = "1.0"
    @ArchiveFallback var mode: Mode = .light
}

/// A raw-value enum with a case for values it does not know.
@Archivable
enum Mode: String, Equatable {
    case light, dark
    @ArchiveUnknownCase case unknown
}

/// An enum with associated values and a case for cases it does not know.
@Archivable
enum Event: Equatable {
    case opened(at: Int)
    case closed
    @ArchiveUnknownCase case unknown
}

/// Settings as an older type stored them, with only a theme.
struct ThemeOnly: Codable {
    var theme: String
}

/// A class name, and the one the type had before.
@Archivable(className: "MyApp.Pet", formerClassNames: ["OldApp.Pet"])
struct Pet: Equatable {
    var name: String
}

/// The same pet as an older app archived it.
@Archivable(className: "OldApp.Pet")
struct OldPet: Equatable {
    var name: String
}

/// A pet of some other app.
@Archivable(className: "Other.Pet")
struct OtherPet: Equatable {
    var name: String
}

/// A generic type.
@Archivable
struct Listing<Element>: Equatable where Element: Equatable {
    var items: [Element]
    var next: Int?
    var title = "page"
}

/// A final class whose instances are shared.
@Archivable
final class Owner {
    var name: String
    var visits = 0

    init(name: String) {
        self.name = name
    }
}

/// A final class with no initializer of its own: `Node()` must stay available.
@Archivable
final class Node {
    var label = "root"
    var children: [Node] = []
}

/// Holds two references to one owner.
@Archivable
struct Household {
    var first: Owner
    var second: Owner
}

/// A versioned type nested in another: each object carries its own version.
@Archivable(version: 3)
struct Measure: Equatable {
    var value: Double
}

/// Holds versioned values.
@Archivable
struct Log: Equatable {
    var measures: [Measure]
}

/// A type that keeps the fields it does not know.
@Archivable(className: "MyApp.Profile")
struct SlimProfile: Equatable {
    var name: String
    var unknownFields = ArchiveUnknownFields()
}

/// A newer shape of ``SlimProfile``, with fields of every kind.
@Archivable(className: "MyApp.Profile")
struct FullProfile: Equatable {
    var name: String
    var age: Int
    var weight: Double
    var born: Date
    var photo: Data
    var id: UUID
    var tags: [String]
    var scores: [String: Int]
    var owner: Pet
    var friends: [Pet]
    var note: String?
}

/// Keys that need escapes, or start with `$` (which archives escape), or are not identifiers.
@Archivable
struct OddKeys: Equatable {
    @ArchiveKey("say \"hi\"") var greeting = ""
    @ArchiveKey("$price", "price") var price = 0
    @ArchiveKey("first name") var firstName = ""
}

/// Synthesized `Codable` over every standard scalar: the reference for ``Scalars``.
struct SynthesizedScalars: Codable, Equatable {
    var bool: Bool
    var string: String
    var double: Double
    var float: Float
    var int: Int
    var int8: Int8
    var int16: Int16
    var int32: Int32
    var int64: Int64
    var uint: UInt
    var uint8: UInt8
    var uint16: UInt16
    var uint32: UInt32
    var uint64: UInt64
    var optionalString: String?
    var optionalInt: Int?
    var date: Date
}

/// `@Archivable` twin of ``SynthesizedScalars``.
@Archivable
struct Scalars: Equatable {
    var bool: Bool
    var string: String
    var double: Double
    var float: Float
    var int: Int
    var int8: Int8
    var int16: Int16
    var int32: Int32
    var int64: Int64
    var uint: UInt
    var uint8: UInt8
    var uint16: UInt16
    var uint32: UInt32
    var uint64: UInt64
    var optionalString: String?
    var optionalInt: Int?
    var date: Date
}
