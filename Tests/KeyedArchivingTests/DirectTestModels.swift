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

@testable import KeyedArchiving

// Models of DirectArchivingTests: types with hand-written direct conformances, each shaped to
// exercise one case of the direct path.

/// Writes and reads differently on the two paths, so a test can tell which one ran.
struct DirectProbe: Codable, Equatable, ArchiveObjectCodable {
    var value: Int

    static var archiveObjectKeys: ArchiveObjectKeys { ArchiveObjectKeys(["value"]) }

    func encodeArchiveObject(to writer: inout ArchiveObjectWriter) throws {
        try writer.encode(self.value * 2, at: 0)
    }

    init(value: Int) {
        self.value = value
    }

    init(archiveObject reader: inout ArchiveObjectReader) throws {
        self.value = try reader.decode(at: 0) + 1
    }
}

/// Writes a key only for even values, on both paths, so that objects of the type differ in keys.
struct DirectSparse: Codable, Equatable, ArchiveObjectCodable {
    var value: Int

    init(value: Int) {
        self.value = value
    }

    private enum CodingKeys: String, CodingKey {
        case value
        case half
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.value = try container.decode(Int.self, forKey: .value)
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(self.value, forKey: .value)
        if self.value.isMultiple(of: 2) { try container.encode(self.value / 2, forKey: .half) }
    }

    static var archiveObjectKeys: ArchiveObjectKeys { ArchiveObjectKeys(["value", "half"]) }

    func encodeArchiveObject(to writer: inout ArchiveObjectWriter) throws {
        try writer.encode(self.value, at: 0)
        if self.value.isMultiple(of: 2) { try writer.encode(self.value / 2, at: 1) }
    }

    init(archiveObject reader: inout ArchiveObjectReader) throws {
        self.value = try reader.decode(at: 0)
    }
}

/// Several shapes of objects in one archive, direct and Foundation ones.
struct DirectSparseGroup: Codable, Equatable, ArchiveObjectCodable {
    var first: [DirectSparse]
    var second: [DirectSparse]
    var dates: [Date]

    init(first: [DirectSparse], second: [DirectSparse], dates: [Date]) {
        self.first = first
        self.second = second
        self.dates = dates
    }

    static var archiveObjectKeys: ArchiveObjectKeys { ArchiveObjectKeys(["first", "second", "dates"]) }

    func encodeArchiveObject(to writer: inout ArchiveObjectWriter) throws {
        try writer.encode(self.first, at: 0)
        try writer.encode(self.second, at: 1)
        try writer.encode(self.dates, at: 2)
    }

    init(archiveObject reader: inout ArchiveObjectReader) throws {
        self.first = try reader.decode(at: 0)
        self.second = try reader.decode(at: 1)
        self.dates = try reader.decode(at: 2)
    }
}

/// A plain `Codable` value holding direct values.
struct DirectOwner: Codable, Equatable {
    var name: String
    var cats: [DirectCat]
    var byName: [String: DirectCat]
    var favourite: DirectCat?
    var maybeCats: [DirectCat?]
}

/// A direct value holding plain `Codable` values.
struct DirectShelter: Codable, Equatable, ArchiveObjectCodable {
    var owner: DirectOwner
    var cats: [DirectCat]
    var counts: [String: Int]
    var lead: DirectCat?
    var nested: [[DirectCat]]
    var id: UUID?

    init(
        owner: DirectOwner,
        cats: [DirectCat],
        counts: [String: Int],
        lead: DirectCat?,
        nested: [[DirectCat]],
        id: UUID?
    ) {
        self.owner = owner
        self.cats = cats
        self.counts = counts
        self.lead = lead
        self.nested = nested
        self.id = id
    }

    static var archiveObjectKeys: ArchiveObjectKeys {
        ArchiveObjectKeys(["owner", "cats", "counts", "lead", "nested", "id"])
    }

    func encodeArchiveObject(to writer: inout ArchiveObjectWriter) throws {
        try writer.encode(self.owner, at: 0)
        try writer.encode(self.cats, at: 1)
        try writer.encode(self.counts, at: 2)
        try writer.encodeIfPresent(self.lead, at: 3)
        try writer.encode(self.nested, at: 4)
        try writer.encodeIfPresent(self.id, at: 5)
    }

    init(archiveObject reader: inout ArchiveObjectReader) throws {
        self.owner = try reader.decode(at: 0)
        self.cats = try reader.decode(at: 1)
        self.counts = try reader.decode(at: 2)
        self.lead = try reader.decodeIfPresent(at: 3)
        self.nested = try reader.decode(at: 4)
        self.id = try reader.decodeIfPresent(at: 5)
    }
}

/// A final class with a direct conformance, shared and possibly cyclic.
final class DirectLink: Codable, ArchiveObjectCodable {
    var name: String
    var next: DirectLink?

    init(name: String) {
        self.name = name
    }

    static var archiveObjectKeys: ArchiveObjectKeys { ArchiveObjectKeys(["name", "next"]) }

    func encodeArchiveObject(to writer: inout ArchiveObjectWriter) throws {
        try writer.encode(self.name, at: 0)
        try writer.encodeIfPresent(self.next, at: 1)
    }

    init(archiveObject reader: inout ArchiveObjectReader) throws {
        self.name = try reader.decode(at: 0)
        self.next = try reader.decodeIfPresent(at: 1)
    }
}

/// The value twin of ``DirectLink``: a cycle cannot decode into values.
struct DirectLinkValue: Codable, Equatable, ArchiveObjectCodable {
    var name: String
    var next: [DirectLinkValue]?

    private enum CodingKeys: String, CodingKey {
        case name
        case next
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.name = try container.decode(String.self, forKey: .name)
        self.next = try container.decodeIfPresent(DirectLinkValue.self, forKey: .next).map { [$0] }
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(self.name, forKey: .name)
        try container.encodeIfPresent(self.next?.first, forKey: .next)
    }

    static var archiveObjectKeys: ArchiveObjectKeys { ArchiveObjectKeys(["name", "next"]) }

    func encodeArchiveObject(to writer: inout ArchiveObjectWriter) throws {
        try writer.encode(self.name, at: 0)
        try writer.encodeIfPresent(self.next?.first, at: 1)
    }

    init(archiveObject reader: inout ArchiveObjectReader) throws {
        self.name = try reader.decode(at: 0)
        self.next = try reader.decodeIfPresent(DirectLinkValue.self, at: 1).map { [$0] }
    }
}

/// A direct type that declares its class, checked at every reference.
struct DirectNamed: Codable, Equatable, ArchivedClassNaming, ArchiveObjectCodable {
    var value: Int

    init(value: Int) {
        self.value = value
    }

    static var archivedClassName: String { "DirectNamed" }

    static var archiveObjectKeys: ArchiveObjectKeys { ArchiveObjectKeys(["value"]) }

    func encodeArchiveObject(to writer: inout ArchiveObjectWriter) throws {
        try writer.encode(self.value, at: 0)
    }

    init(archiveObject reader: inout ArchiveObjectReader) throws {
        self.value = try reader.decode(at: 0)
    }
}

/// Cats as another writer may have left them, each wrong in one way.
enum DamagedCat: Encodable {
    case missingName
    case weightAsString
    case invalidSex
    case placeAsString
    case tagsAsNumber
    case nullName
    case placeMissingCity

    private enum CodingKeys: String, CodingKey {
        case name, surname, sex, nationality, birthPlace, birthday, tags, weight
    }

    private struct HalfPlace: Encodable {
        var country = "FR"
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        if self != .missingName {
            if self == .nullName {
                try container.encodeNil(forKey: .name)
            } else {
                try container.encode("Tom", forKey: .name)
            }
        }
        try container.encode("Paws", forKey: .surname)
        try container.encode(self == .invalidSex ? "tabby" : "male", forKey: .sex)
        try container.encode("FR", forKey: .nationality)
        switch self {
        case .placeAsString: try container.encode("Paris", forKey: .birthPlace)
        case .placeMissingCity: try container.encode(HalfPlace(), forKey: .birthPlace)
        default: try container.encode(DirectPlace(country: "FR", city: "Paris"), forKey: .birthPlace)
        }
        try container.encode(Date(timeIntervalSinceReferenceDate: 0), forKey: .birthday)
        if self == .tagsAsNumber {
            try container.encode(3, forKey: .tags)
        } else {
            try container.encode(["a"], forKey: .tags)
        }
        if self == .weightAsString {
            try container.encode("heavy", forKey: .weight)
        } else {
            try container.encode(4.5, forKey: .weight)
        }
    }
}

/// A class with a direct conformance whose subclass writes itself through `encode(to:)`: an array
/// or a property of the base type may hold either.
class DirectBase: Codable, ArchiveObjectEncodable {
    let value: Int

    init(value: Int) {
        self.value = value
    }

    static var archiveObjectKeys: ArchiveObjectKeys { ArchiveObjectKeys(["value"]) }

    func encodeArchiveObject(to writer: inout ArchiveObjectWriter) throws {
        try writer.encode(self.value, at: 0)
    }
}

/// A subclass of ``DirectBase`` with a field of its own, which only its `encode(to:)` writes.
final class DirectDerived: DirectBase {
    let extra: String

    private enum CodingKeys: String, CodingKey {
        case extra
    }

    init(value: Int, extra: String) {
        self.extra = extra
        super.init(value: value)
    }

    required init(from decoder: any Decoder) throws {
        self.extra = try decoder.container(keyedBy: CodingKeys.self).decode(String.self, forKey: .extra)
        try super.init(from: decoder)
    }

    override func encode(to encoder: any Encoder) throws {
        try super.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(self.extra, forKey: .extra)
    }
}

/// A direct value holding ``DirectBase``s that may be ``DirectDerived``s.
struct DirectBaseHolder: Encodable, ArchiveObjectEncodable {
    var single: DirectBase
    var optional: DirectBase?
    var all: [DirectBase]

    static var archiveObjectKeys: ArchiveObjectKeys { ArchiveObjectKeys(["single", "optional", "all"]) }

    func encodeArchiveObject(to writer: inout ArchiveObjectWriter) throws {
        try writer.encode(self.single, at: 0)
        try writer.encodeIfPresent(self.optional, at: 1)
        try writer.encode(self.all, at: 2)
    }
}

/// A value whose encoding fails, reporting the coding path it was given.
struct DirectUnencodable: Encodable {
    func encode(to encoder: any Encoder) throws {
        let context = EncodingError.Context(codingPath: encoder.codingPath, debugDescription: "refused")
        throw EncodingError.invalidValue(0, context)
    }
}

/// A direct value that nests others of its type in an array, and may hold a failing value.
struct DirectNest: Encodable, ArchiveObjectEncodable {
    var failing: DirectUnencodable?
    var children: [DirectNest] = []

    static var archiveObjectKeys: ArchiveObjectKeys { ArchiveObjectKeys(["failing", "children"]) }

    func encodeArchiveObject(to writer: inout ArchiveObjectWriter) throws {
        try writer.encodeIfPresent(self.failing, at: 0)
        try writer.encode(self.children, at: 1)
    }
}

/// A direct value holding ``DirectNest``s as a property and as an optional.
struct DirectNestHolder: Encodable, ArchiveObjectEncodable {
    var nest: DirectNest
    var maybe: DirectNest?

    static var archiveObjectKeys: ArchiveObjectKeys { ArchiveObjectKeys(["nest", "maybe"]) }

    func encodeArchiveObject(to writer: inout ArchiveObjectWriter) throws {
        try writer.encode(self.nest, at: 0)
        try writer.encodeIfPresent(self.maybe, at: 1)
    }
}
