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

/// The direct reader reads an array of strings and a raw-value enum without the general path's
/// coding path node, and hands anything unusual to the general path. These check that it gives
/// what the `Codable` path gives on every shape it can meet: other collections, wrong elements,
/// references to an object still being decoded, and the depth and decoded-size limits.
@Suite struct QuickReadTests {
    static let crate = Crate(tags: ["a", "b", "a"], flavor: .sour, shelf: Shelf(flavor: .sweet, tags: ["x"]))

    /// Both paths' outcomes for `data`, direct first.
    static func outcomes(
        _ data: Data,
        limits: PropertyListLimits = .default
    ) -> [BothPaths.Outcome<Crate>] {
        BothPaths.modes.map { BothPaths.outcome(Crate.self, from: data, $0, limits: limits) }
    }

    /// `data` with the value of `key` in the object with UID `owner` replaced by a reference to
    /// `target`; `owner` and `target` are picked from the root's UID and the shelf's.
    static func rewired(
        _ data: Data,
        key: String,
        owner: (_ root: UID, _ shelf: UID) -> UID,
        target: (_ root: UID, _ shelf: UID) -> UID
    ) throws -> Data {
        var archive = try KeyedArchive(parsing: data)
        let root = try #require(archive.topUID(forKey: "root"))
        let shelf = try #require(archive.objects[Int(root.rawValue)]["shelf"]?.uidValue)
        let index = Int(owner(root, shelf).rawValue)
        var object = try #require(archive.objects[index].dictionaryValue)
        object[key] = .uid(target(root, shelf))
        archive.objects[index] = .dictionary(object)
        return archive.serialized()
    }

    @Test func storedFormsAreReadAlike() throws {
        let encoder = KeyedArchiveEncoder()
        let stored: [(String, Data, succeeds: Bool)] = [
            ("crate", try encoder.encode(Self.crate), true),
            ("a set of strings", try encoder.encode(LooseCrate(tags: Set(["p", "q"]))), true),
            ("numbers", try encoder.encode(LooseCrate(tags: [1, 2])), false),
            ("a nil element", try encoder.encode(LooseCrate(tags: ["p", nil] as [String?])), false),
            ("a string", try encoder.encode(LooseCrate(tags: "p")), false),
            ("an unknown flavor", try encoder.encode(LooseCrate(tags: ["p"], flavor: "bitter")), false),
            ("an unknown inner flavor", try encoder.encode(LooseCrate(tags: ["p"], innerFlavor: "bitter")), false),
            ("a number for a flavor", try encoder.encode(LooseCrate(tags: ["p"], flavor: 1)), false),
        ]
        for (name, data, succeeds) in stored {
            let outcomes = Self.outcomes(data)
            #expect(outcomes[0] == outcomes[1], "\(name)")
            if case .value = outcomes[0] { #expect(succeeds, "\(name)") } else { #expect(!succeeds, "\(name)") }
        }
        let unknown = Self.outcomes(try encoder.encode(LooseCrate(tags: ["p"], innerFlavor: "bitter")))[0]
        #expect(
            unknown
                == .failure(
                    "dataCorrupted at shelf.flavor: Cannot initialize Flavor from invalid String value bitter"
                )
        )
    }

    @Test func datesAreReadAlike() throws {
        let encoder = KeyedArchiveEncoder()
        var dating = KeyedArchiveEncoder()
        dating.setClassName("NSDate", for: FakeDate<Int>.self)
        let when = Date(timeIntervalSinceReferenceDate: 700_000_000.25)
        let stored: [(String, Data, succeeds: Bool)] = [
            ("a date", try encoder.encode(Stamp(when: when)), true),
            ("another class with NS.time", try encoder.encode(LooseStamp(when: FakeDate(time: 5.5))), false),
            ("an NSDate with an integer NS.time", try dating.encode(LooseStamp(when: FakeDate(time: 5))), true),
            ("a number", try encoder.encode(LooseStamp(when: 5.0)), false),
            ("a string", try encoder.encode(LooseStamp(when: "now")), false),
        ]
        for (name, data, succeeds) in stored {
            let outcomes = BothPaths.modes.map { BothPaths.outcome(Stamp.self, from: data, $0) }
            #expect(outcomes[0] == outcomes[1], "\(name)")
            if case .value = outcomes[0] { #expect(succeeds, "\(name)") } else { #expect(!succeeds, "\(name)") }
        }
    }

    /// Properties with initial values are read through the generic helpers, which pick the same
    /// quick reads: the same outcomes under every limit.
    @Test func propertiesWithInitialValuesAreReadAlike() throws {
        let drawer = Drawer(tags: ["a", "b"], when: Date(timeIntervalSinceReferenceDate: 5), flavor: .sour)
        let encoder = KeyedArchiveEncoder()
        let stored: [(String, Data, succeeds: Bool)] = [
            ("a drawer", try encoder.encode([[[[drawer]]]]), true),
            ("a set of strings", try encoder.encode([[[[LooseDrawer(tags: Set(["p"]))]]]]), true),
            ("numbers", try encoder.encode([[[[LooseDrawer(tags: [1])]]]]), false),
            ("a number for a date", try encoder.encode([[[[LooseDrawer(tags: ["p"], when: 5.0)]]]]), false),
        ]
        for (name, data, succeeds) in stored {
            var outcomes: [BothPaths.Outcome<[[[[Drawer]]]]>] = []
            for depth in 4...6 {
                for allowance in [0, 64, 128, 192, 256, 1 << 26] {
                    var limits = PropertyListLimits.default
                    limits.maximumDepth = depth
                    limits.decodedSizeAllowance = allowance
                    limits.maximumExpansion = 0
                    let both = BothPaths.modes.map {
                        BothPaths.outcome([[[[Drawer]]]].self, from: data, $0, limits: limits)
                    }
                    #expect(both[0] == both[1], "\(name), depth \(depth), allowance \(allowance)")
                    outcomes.append(both[0])
                }
            }
            let decoded = outcomes.contains { if case .value = $0 { true } else { false } }
            #expect(decoded == succeeds, "\(name)")
        }
    }

    @Test func referencesToObjectsBeingDecodedAndBrokenReferencesFailAlike() throws {
        let data = try KeyedArchiveEncoder().encode(Self.crate)
        let count = UInt64(try KeyedArchive(parsing: data).objects.count)
        let cases: [(String, String, (UID, UID) -> UID, (UID, UID) -> UID)] = [
            ("tags to the root", "tags", { root, _ in root }, { root, _ in root }),
            ("flavor to the root", "flavor", { root, _ in root }, { root, _ in root }),
            ("inner tags to the shelf", "tags", { _, shelf in shelf }, { _, shelf in shelf }),
            ("inner flavor to the root", "flavor", { _, shelf in shelf }, { root, _ in root }),
            ("tags to $null", "tags", { root, _ in root }, { _, _ in UID(0) }),
            ("flavor to $null", "flavor", { root, _ in root }, { _, _ in UID(0) }),
            ("tags past the objects", "tags", { root, _ in root }, { _, _ in UID(count) }),
            ("flavor past the objects", "flavor", { root, _ in root }, { _, _ in UID(count + 5) }),
        ]
        for (name, key, owner, target) in cases {
            let outcomes = Self.outcomes(try Self.rewired(data, key: key, owner: owner, target: target))
            #expect(outcomes[0] == outcomes[1], "\(name)")
            if case .value = outcomes[0] { Issue.record("\(name): decoded") }
        }
    }

    @Test func nullsAndOptionalsAreReadAlike() throws {
        let data = try KeyedArchiveEncoder().encode(Tray(shelf: Shelf(flavor: .sour, tags: []), label: "l"))
        var archive = try KeyedArchive(parsing: data)
        let root = Int(try #require(archive.topUID(forKey: "root")).rawValue)
        // An NSNull instance, as Foundation archives `NSNull()`.
        archive.objects.append(["$classname": "NSNull", "$classes": ["NSNull", "NSObject"]])
        archive.objects.append(["$class": .uid(UID(UInt64(archive.objects.count - 1)))])
        let null = UID(UInt64(archive.objects.count - 1))
        let targets: [(String, UID)] = [
            ("$null", UID(0)), ("an NSNull", null), ("the root", UID(UInt64(root))),
            ("past the objects", UID(UInt64(archive.objects.count))),
        ]
        var outcomes: [String: BothPaths.Outcome<Tray>] = [:]
        for key in ["shelf", "label"] {
            for (name, target) in targets {
                var edited = archive
                var object = try #require(edited.objects[root].dictionaryValue)
                object[key] = .uid(target)
                edited.objects[root] = .dictionary(object)
                let both = BothPaths.modes.map { BothPaths.outcome(Tray.self, from: edited.serialized(), $0) }
                #expect(both[0] == both[1], "\(key) to \(name)")
                outcomes["\(key) to \(name)"] = both[0]
            }
        }
        #expect(outcomes["shelf to an NSNull"] == .value(Tray(shelf: nil, label: "l")))
        #expect(outcomes["label to an NSNull"] == .value(Tray(shelf: Shelf(flavor: .sour, tags: []), label: nil)))
    }

    /// The crate sits four arrays down, so that decoding, not parsing the flat object table, meets
    /// the limit: its tags (first) at depth 5, the shelf's flavor (first) at depth 6.
    @Test(arguments: 4...7)
    func theDepthLimitIsMetAlike(maximumDepth: Int) throws {
        var limits = PropertyListLimits.default
        limits.maximumDepth = maximumDepth
        let nested = [[[[Self.crate]]]]
        let data = try KeyedArchiveEncoder().encode(nested)
        let outcomes = BothPaths.modes.map { BothPaths.outcome([[[[Crate]]]].self, from: data, $0, limits: limits) }
        #expect(outcomes[0] == outcomes[1])
        #expect((outcomes[0] == .value(nested)) == (maximumDepth >= 6))
    }

    @Test func theDecodedSizeBudgetIsMetAlike() throws {
        let data = try KeyedArchiveEncoder().encode(Self.crate)
        var values = 0
        var failures = 0
        for allowance in stride(from: 0, through: 400, by: 4) {
            var limits = PropertyListLimits.default
            limits.decodedSizeAllowance = allowance
            limits.maximumExpansion = 0
            let outcomes = Self.outcomes(data, limits: limits)
            #expect(outcomes[0] == outcomes[1], "allowance \(allowance)")
            if case .value = outcomes[0] { values += 1 } else { failures += 1 }
        }
        #expect(values > 0 && failures > 0)
    }
}

/// Arrays of strings and raw-value enums, at the root and one level down; the tags come first, so
/// that they meet the depth limit first.
@Archivable
struct Crate: Equatable {
    var tags: [String]
    var flavor: Flavor
    var shelf: Shelf
}

/// Its flavor comes first, so that the flavor, not the tags, meets the depth limit first.
@Archivable
struct Shelf: Equatable {
    var flavor: Flavor
    var tags: [String]
}

/// ``Crate`` with anything for its tags and flavors.
struct LooseCrate<Tags: Codable, Flavor: Codable>: Codable {
    var tags: Tags
    var flavor: Flavor
    var shelf: LooseShelf<Flavor>

    init(tags: Tags, flavor: Flavor = "sweet", innerFlavor: Flavor = "sour") where Flavor == String {
        self.tags = tags
        self.flavor = flavor
        self.shelf = LooseShelf(tags: ["s"], flavor: innerFlavor)
    }

    init(tags: Tags, flavor: Flavor) where Flavor == Int {
        self.tags = tags
        self.flavor = flavor
        self.shelf = LooseShelf(tags: ["s"], flavor: flavor)
    }
}

struct LooseShelf<Flavor: Codable>: Codable {
    var tags: [String]
    var flavor: Flavor
}

@Archivable
struct Stamp: Equatable {
    var when: Date
}

/// ``Stamp`` with anything for its date.
struct LooseStamp<When: Codable>: Codable {
    var when: When
}

/// An object with an `NS.time` key, as an `NSDate` has, but of its own class.
struct FakeDate<Time: Codable>: Codable {
    var time: Time

    enum CodingKeys: String, CodingKey {
        case time = "NS.time"
    }
}

/// Optionals, to be pointed at `$null`, an `NSNull` and worse.
@Archivable
struct Tray: Equatable {
    var shelf: Shelf?
    var label: String?
}

/// Every property with an initial value, so that generated code reads each through
/// `decodeIfPresent(into:at:)`.
@Archivable
struct Drawer: Equatable {
    var tags: [String] = []
    var when = Date(timeIntervalSinceReferenceDate: 0)
    var flavor: Flavor = .sweet
}

/// ``Drawer`` with anything for its tags and date.
struct LooseDrawer<Tags: Codable, When: Codable>: Codable {
    var tags: Tags
    var when: When
    var flavor = "sour"

    init(tags: Tags, when: When = Date(timeIntervalSinceReferenceDate: 1)) {
        self.tags = tags
        self.when = when
    }
}

/// Every standard number type and `Bool`, read by the direct reader's quick scalar form.
@Archivable
struct Numbers: Equatable {
    var wide: Int64
    var small: UInt8
    var signed: Int8
    var unsigned: UInt64
    var half: Float
    var flag: Bool
}

/// ``Numbers`` with anything in each field.
struct LooseNumbers<Value: Codable>: Codable {
    var wide: Value
    var small: Value
    var signed: Value
    var unsigned: Value
    var half: Value
    var flag: Value
}

@Suite struct QuickScalarReadTests {
    /// Each stored form in every field: both paths give the same value or the same error.
    @Test func everyStoredFormOfANumberIsReadAlike() throws {
        let encoder = KeyedArchiveEncoder()
        func all<V: Codable>(_ value: V) throws -> Data {
            try encoder.encode(
                LooseNumbers(wide: value, small: value, signed: value, unsigned: value, half: value, flag: value)
            )
        }
        let forms: [(String, Data)] = [
            ("zero", try all(0)),
            ("one", try all(1)),
            ("minus one", try all(-1)),
            ("300", try all(300)),
            ("UInt64.max", try all(UInt64.max)),
            ("2.0", try all(2.0)),
            ("0.5", try all(0.5)),
            ("0.1", try all(0.1)),
            ("NaN", try all(Double.nan)),
            ("Float 1.5", try all(Float(1.5))),
            ("true", try all(true)),
            ("false", try all(false)),
            ("a string", try all("1")),
            ("nil", try all(Int?.none)),
        ]
        var decoded: [String] = []
        for (name, data) in forms {
            let outcomes = BothPaths.modes.map { BothPaths.outcome(Numbers.self, from: data, $0) }
            #expect(outcomes[0] == outcomes[1], "\(name)")
            if case .value = outcomes[0] { decoded.append(name) }
        }
        // Only 0 and 1 suit every field (`Bool` takes no other number, `Float` no Boolean).
        #expect(decoded == ["zero", "one"])
        #expect(
            BothPaths.outcome(Numbers.self, from: forms[1].1, .enabled)
                == .value(Numbers(wide: 1, small: 1, signed: 1, unsigned: 1, half: 1, flag: true))
        )
    }
}

/// Arrays of standard number types and of `Bool`, read by the direct reader's quick array form.
@Archivable
struct NumberLists: Equatable {
    var wide: [Int64]
    var small: [UInt8]
    var flags: [Bool]
    var halves: [Float]
}

/// ``NumberLists`` with anything in each field.
struct LooseNumberLists<Value: Codable>: Codable {
    var wide: Value
    var small: Value
    var flags: Value
    var halves: Value
}

extension QuickScalarReadTests {
    /// Each stored form of an array in every field: both paths give the same value or error.
    @Test func everyStoredFormOfANumberArrayIsReadAlike() throws {
        let encoder = KeyedArchiveEncoder()
        func all<V: Codable>(_ value: V) throws -> Data {
            try encoder.encode(LooseNumberLists(wide: value, small: value, flags: value, halves: value))
        }
        let forms: [(String, Data)] = [
            ("empty", try all([Int]())),
            ("zeros and ones", try all([0, 1, 1, 0])),
            ("a set", try all(Set([0, 1]))),
            ("300", try all([300])),
            ("minus one", try all([-1])),
            ("reals", try all([1.0, 0.0])),
            ("a fraction", try all([0.5])),
            ("Booleans", try all([true, false])),
            ("strings", try all(["1"])),
            ("a nil element", try all([1, nil] as [Int?])),
            ("nested arrays", try all([[1]])),
            ("a number", try all(1)),
            ("a string", try all("1")),
        ]
        var decoded: [String] = []
        for (name, data) in forms {
            for depth in [1, 2, 3] {
                var limits = PropertyListLimits.default
                limits.maximumDepth = depth
                let outcomes = BothPaths.modes.map {
                    BothPaths.outcome(NumberLists.self, from: data, $0, limits: limits)
                }
                #expect(outcomes[0] == outcomes[1], "\(name), depth \(depth)")
                if depth == 3, case .value = outcomes[0] { decoded.append(name) }
            }
            for allowance in [0, 64, 256] {
                var limits = PropertyListLimits.default
                limits.decodedSizeAllowance = allowance
                limits.maximumExpansion = 0
                let outcomes = BothPaths.modes.map {
                    BothPaths.outcome(NumberLists.self, from: data, $0, limits: limits)
                }
                #expect(outcomes[0] == outcomes[1], "\(name), allowance \(allowance)")
            }
        }
        // Reals suit every field but `flags` (`Bool` takes only 0, 1 and Booleans).
        #expect(decoded == ["empty", "zeros and ones", "a set"])
        #expect(
            BothPaths.outcome(NumberLists.self, from: forms[1].1, .enabled)
                == .value(
                    NumberLists(
                        wide: [0, 1, 1, 0],
                        small: [0, 1, 1, 0],
                        flags: [false, true, true, false],
                        halves: [0, 1, 1, 0]
                    )
                )
        )
    }
}

extension QuickScalarReadTests {
    /// The direct writer's arrays of numbers are the bytes the general path writes, shared leaves
    /// and all, and read back on both paths.
    @Test func numberArraysAreWrittenAsTheGeneralPathWritesThem() throws {
        let values = [
            NumberLists(wide: [], small: [], flags: [], halves: []),
            NumberLists(
                wide: [1, -1, .max, .min, 1],
                small: [0, 255, 1],
                flags: [true, false, true],
                halves: [1, 0.5]
            ),
            NumberLists(wide: [1, 2], small: [1, 2], flags: [true], halves: [1, 2]),
        ]
        for value in [values, [values[1], values[1]]] {
            let bytes = try BothPaths.encoder(.enabled).encode(value)
            #expect(bytes == (try BothPaths.encoder(.disabled).encode(value)))
            for mode in BothPaths.modes {
                #expect(try BothPaths.decoder(mode).decode([NumberLists].self, from: bytes) == value)
            }
        }
    }
}
