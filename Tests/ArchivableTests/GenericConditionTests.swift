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
import TestSupport
import Testing

/// A unit that is only a type: not `Codable`.
enum Meters {}

/// A measure tagged with its unit, a phantom parameter: archivable whatever the unit is.
@Archivable
struct TaggedAmount<Unit>: Equatable {
    var amount: Double
    var label = ""
}

/// ``TaggedAmount``'s twin, with synthesized `Codable`, unconditional as its author would write it.
struct TaggedAmountTwin<Unit>: Codable, Equatable {
    var amount: Double
    var label = ""
}

/// An identifier whose tag is a phantom: `Codable` whatever the tag.
struct PhantomID<Tag>: Codable, Hashable, Sendable {
    var raw: Int
}

/// A record whose parameter appears only inside an always-`Codable` identifier: no condition,
/// stated with `codableParameters: []`.
@Archivable(codableParameters: [])
struct Record<Tag>: Equatable {
    var id: PhantomID<Tag>
    var name: String
}

/// A box whose parameter is archived: `Codable` only when its content is.
@Archivable
struct Box<Content, Tag>: Equatable where Content: Equatable {
    var content: Content
    @ArchiveIgnored var note: Tag? = nil

    static func == (lhs: Self, rhs: Self) -> Bool { lhs.content == rhs.content }
}

@Suite struct GenericConditionTests {
    /// A phantom parameter, a parameter inside an always-`Codable` type (stated), and one that only
    /// an ignored property uses leave the type archivable with a non-`Codable` argument, on both
    /// paths and with JSON, as its synthesized twin is.
    @Test(arguments: BothPaths.modes)
    func parametersThatAreNotArchivedDoNotCondition(mode: DirectArchiving) throws {
        let measure = TaggedAmount<Meters>(amount: 2.5, label: "rope")
        let archive = try BothPaths.encoder(mode).encode(measure)
        #expect(try BothPaths.decoder(mode).decode(TaggedAmount<Meters>.self, from: archive) == measure)
        #expect(try KeyedArchiveDecoder().decode(TaggedAmountTwin<Meters>.self, from: archive).amount == 2.5)
        let json = JSONEncoder()
        json.outputFormatting = .sortedKeys
        #expect(try json.encode(measure) == json.encode(TaggedAmountTwin<Meters>(amount: 2.5, label: "rope")))

        let record = Record<Meters>(id: PhantomID(raw: 7), name: "seven")
        let recordArchive = try BothPaths.encoder(mode).encode(record)
        #expect(try BothPaths.decoder(mode).decode(Record<Meters>.self, from: recordArchive) == record)

        let box = Box<[Int], Meters>(content: [1, 2, 3])
        let boxArchive = try BothPaths.encoder(mode).encode(box)
        #expect(try BothPaths.decoder(mode).decode(Box<[Int], Meters>.self, from: boxArchive) == box)
    }

    /// An archived parameter still conditions the conformance: `Box` is `Codable` only when its
    /// content is.
    @Test func anArchivedParameterStillConditions() {
        #expect((Box<Int, Meters>.self as Any.Type) is any Codable.Type)
        #expect(!((Box<NotCodable, Meters>.self as Any.Type) is any Codable.Type))
    }
}

/// A content that is not `Codable`.
struct NotCodable: Equatable {}
