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
import PropertyLists
import TestSupport
import Testing

@testable import KeyedArchiving

/// Types with an ``ArchiveObjectCodable`` conformance against the `Codable` path: the same
/// bytes, the same values and the same errors.
@Suite struct DirectArchivingTests {
    // MARK: - Helpers

    /// Expects both paths to write the same bytes, and both decoders to read them to `value`.
    static func expectSamePaths<T: Codable & Equatable>(
        _ value: T,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let direct = try BothPaths.encoder(.enabled).encode(value)
        let codable = try BothPaths.encoder(.disabled).encode(value)
        #expect(direct == codable, "archives differ", sourceLocation: sourceLocation)
        for mode in [DirectArchiving.enabled, .disabled] {
            #expect(BothPaths.outcome(T.self, from: direct, mode) == .value(value), sourceLocation: sourceLocation)
        }
    }

    // MARK: - Bytes and values

    @Test(arguments: [0, 1, 2, 3, 5, 8, 13, 100, 1_000])
    func catsArchiveToTheSameBytesOnBothPaths(count: Int) throws {
        for seed in 0..<UInt64(count < 100 ? 20 : 3) {
            try Self.expectSamePaths(DirectCatGenerator.cats(count: count, seed: seed))
        }
    }

    @Test func aSingleCatArchivesToTheSameBytesOnBothPaths() throws {
        for cat in DirectCatGenerator.cats(count: 200, seed: 7) {
            try Self.expectSamePaths(cat)
            try Self.expectSamePaths(cat.birthPlace)
        }
    }

    @Test func keyedArchiverAndUnarchiverUseTheDirectPath() throws {
        let probes = [DirectProbe(value: 1), DirectProbe(value: 2)]
        let archiver = KeyedArchiver(encoder: BothPaths.encoder(.enabled))
        try archiver.encode(probes, forKey: "probes")
        let archive = try KeyedArchive(parsing: try archiver.finishEncoding())
        // The direct conformance doubles the value it writes and adds one to the value it reads.
        let codable = KeyedUnarchiver(archive: archive, decoder: BothPaths.decoder(.disabled))
        #expect(
            try codable.decode([DirectProbe].self, forKey: "probes") == [DirectProbe(value: 2), DirectProbe(value: 4)]
        )
        let direct = KeyedUnarchiver(archive: archive, decoder: BothPaths.decoder(.enabled))
        #expect(
            try direct.decode([DirectProbe].self, forKey: "probes") == [DirectProbe(value: 3), DirectProbe(value: 5)]
        )
    }

    @Test func theOptionForcesTheCodablePath() throws {
        let probe = DirectProbe(value: 10)
        let direct = try BothPaths.encoder(.enabled).encode(probe)
        let codable = try BothPaths.encoder(.disabled).encode(probe)
        #expect(try BothPaths.decoder(.disabled).decode(DirectProbe.self, from: direct) == DirectProbe(value: 20))
        #expect(try BothPaths.decoder(.disabled).decode(DirectProbe.self, from: codable) == DirectProbe(value: 10))
        #expect(try BothPaths.decoder(.enabled).decode(DirectProbe.self, from: codable) == DirectProbe(value: 11))
        // A recycled encoder session switches paths with the option.
        #expect(try BothPaths.encoder(.enabled).encode(probe) == direct)
    }

    @Test func objectsOfATypeThatWriteDifferentKeysArchiveAsOnTheCodablePath() throws {
        // Objects of one type share their keys in the writer's table while they write the same ones:
        // the key set changes here from object to object, and back.
        let values = [1, 2, 3, 5, 4, 7, 9, 6, 6, 11].map { DirectSparse(value: $0) }
        try Self.expectSamePaths(values)
        try Self.expectSamePaths(DirectSparse(value: 8))
        let mixed = DirectSparseGroup(first: values, second: values.reversed(), dates: [Date(timeIntervalSince1970: 5)])
        try Self.expectSamePaths(mixed)
        // The archive Foundation reads has the keys each object wrote.
        let archive = try KeyedArchive(parsing: try BothPaths.encoder(.enabled).encode(values))
        let keySets = archive.objects.compactMap { object -> [String]? in
            guard case .dictionary(let entries) = object, entries["value"] != nil else { return nil }
            return entries.keys.sorted()
        }
        #expect(keySets.count == values.count)
        for (keys, value) in zip(keySets, values) {
            let expected = value.value.isMultiple(of: 2) ? ["$class", "half", "value"] : ["$class", "value"]
            #expect(keys == expected)
        }
    }

    // MARK: - Mixing

    @Test func directTypesInsideCodableValuesAndTheReverse() throws {
        let cats = DirectCatGenerator.cats(count: 12, seed: 3)
        let owner = DirectOwner(
            name: "Ann",
            cats: cats,
            byName: Dictionary(cats.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first }),
            favourite: cats.first,
            maybeCats: [cats[1], nil, cats[2]]
        )
        let shelter = DirectShelter(
            owner: owner,
            cats: cats,
            counts: ["FR": 2, "$class": 1],
            lead: cats[4],
            nested: [[cats[5]], [], [cats[6], cats[7]]],
            id: UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")
        )
        try Self.expectSamePaths(owner)
        try Self.expectSamePaths(shelter)
        try Self.expectSamePaths([shelter, shelter])
        try Self.expectSamePaths(["a": shelter])
    }

    @Test func subclassInstancesWhereTheirDirectBaseClassIsExpectedArchiveAsOnTheCodablePath() throws {
        // The first element decides nothing: the subclass writes its own field through `encode(to:)`.
        let all = [DirectBase(value: 1), DirectDerived(value: 2, extra: "two"), DirectBase(value: 3)]
        let holders = [
            DirectBaseHolder(single: DirectDerived(value: 4, extra: "four"), optional: nil, all: all),
            DirectBaseHolder(single: DirectBase(value: 5), optional: DirectDerived(value: 6, extra: "six"), all: []),
        ]
        for value in [all, Array(all.reversed())] {
            let direct = try BothPaths.encoder(.enabled).encode(value)
            #expect(direct == (try BothPaths.encoder(.disabled).encode(value)))
        }
        let direct = try BothPaths.encoder(.enabled).encode(holders)
        #expect(direct == (try BothPaths.encoder(.disabled).encode(holders)))
        let archive = try KeyedArchive(parsing: direct)
        let extras = archive.objects.compactMap { object -> PropertyListValue? in
            guard case .dictionary(let entries) = object, let extra = entries["extra"] else { return nil }
            return archive.objects[Int(extra.uidValue?.rawValue ?? 0)]
        }
        #expect(extras == ["four", "two", "six"])
    }

    @Test func encodingErrorsInsideDirectValuesCarryTheSamePathOnBothPaths() throws {
        let failing = DirectNest(failing: DirectUnencodable())
        let cases: [(DirectNestHolder, [String])] = [
            (DirectNestHolder(nest: failing), ["nest", "failing"]),
            (DirectNestHolder(nest: DirectNest(), maybe: failing), ["maybe", "failing"]),
            (
                DirectNestHolder(nest: DirectNest(children: [DirectNest(), DirectNest(children: [failing])])),
                ["nest", "children", "Index 1", "children", "Index 0", "failing"]
            ),
        ]
        for (value, path) in cases {
            for mode in BothPaths.modes {
                for root in [[value], [DirectNestHolder(nest: DirectNest()), value]] as [[DirectNestHolder]] {
                    do {
                        _ = try BothPaths.encoder(mode).encode(root)
                        Issue.record("\(mode): encoded \(path)")
                    } catch EncodingError.invalidValue(_, let context) {
                        let index = "Index \(root.count - 1)"
                        #expect(context.codingPath.map(\.stringValue) == [index] + path, "\(mode)")
                    }
                }
            }
        }
    }

    @Test func sharedInstancesAndCyclesOfADirectFinalClass() throws {
        let first = DirectLink(name: "first")
        let second = DirectLink(name: "second")
        first.next = second
        let list = [first, second, first]
        let direct = try BothPaths.encoder(.enabled).encode(list)
        #expect(direct == (try BothPaths.encoder(.disabled).encode(list)))
        for mode in [DirectArchiving.enabled, .disabled] {
            let decoded = try BothPaths.decoder(mode).decode([DirectLink].self, from: direct)
            #expect(decoded.map(\.name) == ["first", "second", "first"])
            #expect(decoded[0] === decoded[2])
            #expect(decoded[0].next === decoded[1])
        }

        second.next = first
        defer { second.next = nil }
        let cyclic = try BothPaths.encoder(.enabled).encode(first)
        #expect(cyclic == (try BothPaths.encoder(.disabled).encode(first)))
        let onDirect = BothPaths.outcome(DirectLinkValue.self, from: cyclic, .enabled)
        #expect(onDirect == BothPaths.outcome(DirectLinkValue.self, from: cyclic, .disabled))
        guard case .failure(let description) = onDirect else {
            Issue.record("a cycle decoded")
            return
        }
        #expect(description.contains("cyclicReference"))
    }

    /// Dates and arrays of strings are read without the general path when their object holds its
    /// field and `$class` only, in either order, with a class met before; every other such object
    /// goes the general way. Both paths read each variant alike.
    @Test func foundationObjectsInEitherKeyOrderAndOfAnyClassReadAlikeOnBothPaths() throws {
        let cats = DirectCatGenerator.cats(count: 8, seed: 3)
        let archive = try KeyedArchive(parsing: KeyedArchiveEncoder().encode(cats))
        func fields(_ object: PropertyListValue) -> PropertyListDictionary? {
            guard case .dictionary(let dictionary) = object else { return nil }
            return dictionary
        }
        let dates = archive.objects.indices.filter { fields(archive.objects[$0])?["NS.time"] != nil }
        let arrays = archive.objects.indices.filter { fields(archive.objects[$0])?["NS.objects"] != nil }
        let dateClass = try #require(dates.first.flatMap { fields(archive.objects[$0])?["$class"] })
        let arrayClass = try #require(arrays.first.flatMap { fields(archive.objects[$0])?["$class"] })
        #expect(dates.count == cats.count)

        typealias Change = (PropertyListDictionary) -> PropertyListDictionary
        /// The archive with `change` made to the objects at `indexes` from the second on (the first
        /// is read the general way, and teaches the quick one its keys).
        func variant(_ indexes: [Int], _ change: Change) -> Data {
            var changed = archive
            for index in indexes.dropFirst() {
                guard let dictionary = fields(changed.objects[index]) else { continue }
                changed.objects[index] = .dictionary(change(dictionary))
            }
            return changed.serialized()
        }
        let reversed = { (dictionary: PropertyListDictionary) in
            PropertyListDictionary(dictionary.keys.reversed().compactMap { key in dictionary[key].map { (key, $0) } })
        }
        func replacing(_ key: String, with value: PropertyListValue) -> Change {
            { dictionary in
                var dictionary = dictionary
                dictionary[key] = value
                return dictionary
            }
        }
        let decoded: [(Data, Bool)] = [
            (variant(dates, reversed), true),
            (variant(arrays, reversed), true),
            // Whole seconds as an integer, which only the general path reads.
            (
                variant(dates) { date in
                    let seconds = PropertyListInteger(Int64(date["NS.time"]?.doubleValue ?? 0))
                    return replacing("NS.time", with: .integer(seconds))(date)
                }, true
            ),
            // A field under another key.
            (
                variant(dates) { date in
                    PropertyListDictionary(date.keys.map { ($0 == "NS.time" ? "NS.when" : $0, date[$0] ?? 0) })
                }, false
            ),
            (variant(dates, replacing("$class", with: arrayClass)), false),
            (variant(arrays, replacing("$class", with: dateClass)), false),
            (variant(dates) { reversed(replacing("$class", with: arrayClass)($0)) }, false),
        ]
        for (data, decodes) in decoded {
            let direct = BothPaths.outcome([DirectCat].self, from: data, .enabled)
            #expect(direct == BothPaths.outcome([DirectCat].self, from: data, .disabled))
            #expect((direct == .value(cats)) == decodes, "\(direct)")
        }
    }

    // MARK: - Errors

    /// Archives that do not hold valid cats fail alike on both paths.
    @Test func damagedCatsFailAlikeOnBothPaths() throws {
        let damaged: [Data] = [
            try KeyedArchiveEncoder().encode([DamagedCat.missingName]),
            try KeyedArchiveEncoder().encode([DamagedCat.missingName, DamagedCat.weightAsString]),
            try KeyedArchiveEncoder().encode([DamagedCat.weightAsString]),
            try KeyedArchiveEncoder().encode([DamagedCat.invalidSex]),
            try KeyedArchiveEncoder().encode([DamagedCat.placeAsString]),
            try KeyedArchiveEncoder().encode([DamagedCat.tagsAsNumber]),
            try KeyedArchiveEncoder().encode([DamagedCat.nullName]),
            try KeyedArchiveEncoder().encode([DamagedCat.placeMissingCity]),
            try KeyedArchiveEncoder().encode(["not": "a cat"]),
            try KeyedArchiveEncoder().encode(["a string, not a cat"]),
        ]
        for data in damaged {
            let direct = BothPaths.outcome([DirectCat].self, from: data, .enabled)
            #expect(direct == BothPaths.outcome([DirectCat].self, from: data, .disabled))
            guard case .failure = direct else {
                Issue.record("damaged cats decoded: \(direct)")
                continue
            }
        }
    }

    /// Every byte of an archive of cats changed, one at a time: both paths decode the same cats
    /// or fail with the same error.
    @Test(arguments: [0x01, 0x80, 0xFF] as [UInt8])
    func everyDamagedByteFailsAlikeOnBothPaths(mask: UInt8) throws {
        let data = try KeyedArchiveEncoder().encode(DirectCatGenerator.cats(count: 3, seed: 11))
        let (differences, failures) = BothPaths.damagedByteDifferences([DirectCat].self, in: data, mask: mask)
        #expect(differences.isEmpty, "\(differences.prefix(5))")
        #expect(failures > data.count / 4)
    }

    /// An array of direct values reads each element as the `Codable` path does: an element that is
    /// the array itself (a cycle), `nil`, an inline value, a string, a class dictionary or no object
    /// fails alike on both paths.
    @Test func arraysOfDirectValuesFailAlikeOnBothPaths() throws {
        let data = try KeyedArchiveEncoder().encode(DirectCatGenerator.cats(count: 3, seed: 2))
        let archive = try KeyedArchive(parsing: data)
        let arrayUID = try #require(archive.topUID(forKey: "root"))
        var array = try #require(try archive.object(for: arrayUID).dictionaryValue)
        let elements = try #require(array["NS.objects"]?.arrayValue)
        let cat = try archive.object(for: try #require(elements[0].uidValue))
        let classUID = try #require(cat["$class"]?.uidValue)
        let stringUID = try #require(cat["name"]?.uidValue)
        let replacements: [(String, PropertyListValue)] = [
            ("itself", .uid(arrayUID)),
            ("nil", .uid(0)),
            ("inline", 3),
            ("a string", .uid(stringUID)),
            ("a class", .uid(classUID)),
            ("no object", .uid(UID(UInt64(archive.objects.count + 5)))),
        ]
        for (name, replacement) in replacements {
            var damaged = archive
            var changed = elements
            changed[1] = replacement
            array["NS.objects"] = .array(changed)
            damaged.objects[Int(arrayUID.rawValue)] = .dictionary(array)
            let bytes = damaged.serialized()
            let direct = BothPaths.outcome([DirectCat].self, from: bytes, .enabled)
            #expect(direct == BothPaths.outcome([DirectCat].self, from: bytes, .disabled), "\(name)")
            guard case .failure(let description) = direct else {
                Issue.record("\(name): decoded")
                continue
            }
            #expect(description.contains("[1]"), "\(name): \(description)")
            if name == "itself" { #expect(description.contains("cyclicReference"), "\(description)") }
        }
    }

    @Test func limitsHoldOnTheDirectPath() throws {
        let cats = DirectCatGenerator.cats(count: 50, seed: 5)
        let data = try KeyedArchiveEncoder().encode([cats])
        // (limits, whether they fail): the places are at depth 3, under the arrays and the cats.
        var cases: [(PropertyListLimits, Bool)] = []
        for depth in 1...4 {
            var limits = PropertyListLimits.default
            limits.maximumDepth = depth
            cases.append((limits, depth < 3))
        }
        var small = PropertyListLimits.default
        small.decodedSizeAllowance = 500
        small.maximumExpansion = 0
        cases.append((small, true))
        // Budgets running out at every point of the decoding, inside the cats included.
        for allowance in stride(from: 600, through: 12_000, by: 150) {
            var limits = small
            limits.decodedSizeAllowance = allowance
            cases.append((limits, false))
        }
        for (limits, fails) in cases {
            let direct = BothPaths.outcome([[DirectCat]].self, from: data, .enabled, limits: limits)
            #expect(direct == BothPaths.outcome([[DirectCat]].self, from: data, .disabled, limits: limits))
            if case .failure = direct { continue }
            #expect(!fails, "decoded past the limits \(limits)")
        }
    }

    @Test func classChecksHoldAtEveryReferenceOnTheDirectPath() throws {
        let named = [DirectNamed(value: 1), DirectNamed(value: 2)]
        try Self.expectSamePaths(named)
        var encoder = KeyedArchiveEncoder()
        encoder.setClassName("SomethingElse", for: DirectNamed.self)
        let renamed = try encoder.encode(named)
        let direct = BothPaths.outcome([DirectNamed].self, from: renamed, .enabled)
        #expect(direct == BothPaths.outcome([DirectNamed].self, from: renamed, .disabled))
        guard case .failure(let description) = direct else {
            Issue.record("a renamed class decoded")
            return
        }
        #expect(description.contains("classMismatch"))
    }
}
