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

/// The direct conformances `@Archivable` generates, against its `Codable` ones through the same
/// coders: the same bytes, the same values, the same errors and the same fallbacks, across an
/// app's history and on damaged data.
@Suite struct DirectPathTests {
    static let when = Date(timeIntervalSinceReferenceDate: 700_000_000.5)

    static let settings = Settings(theme: "dark", fontSize: 14, nickname: "n", accent: nil, volume: 7, mode: .dark)

    static let profile = FullProfile(
        name: "Ada",
        age: 36,
        weight: 61.5,
        born: when,
        photo: Data([1, 2, 3]),
        id: UUID(uuid: (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16)),
        tags: ["a", "b"],
        scores: ["x": 1],
        owner: Pet(name: "Rex"),
        friends: [Pet(name: "Tom"), Pet(name: "Kit")],
        note: "hi"
    )

    static let scalars = Scalars(
        bool: true,
        string: "s",
        double: 0.5,
        float: 1.5,
        int: -1,
        int8: -8,
        int16: -16,
        int32: -32,
        int64: -64,
        uint: 1,
        uint8: 8,
        uint16: 16,
        uint32: 32,
        uint64: .max,
        optionalString: nil,
        optionalInt: 3,
        date: when
    )

    /// Expects both paths to write the same bytes, and both decoders to read them to `value`.
    static func expectSamePaths<T: Codable & Equatable>(
        _ value: T,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let direct = try BothPaths.encoder(.enabled).encode(value)
        #expect(
            direct == (try BothPaths.encoder(.disabled).encode(value)),
            "archives differ",
            sourceLocation: sourceLocation
        )
        for mode in BothPaths.modes {
            #expect(BothPaths.outcome(T.self, from: direct, mode) == .value(value), sourceLocation: sourceLocation)
        }
    }

    /// The archive each path writes of what each path reads from `data`: equal when both paths read
    /// the same value, kept fields included (which take no part in `==`).
    static func rewritten<T: Codable>(_ type: T.Type, from data: Data) throws -> [Data] {
        try BothPaths.modes.map { mode in
            try BothPaths.encoder(mode).encode(BothPaths.decoder(mode).decode(type, from: data))
        }
    }

    // MARK: Conformances

    @Test func structsAndFinalClassesGetTheDirectConformances() {
        let direct: [Any.Type] = [
            Twin.self, Settings.self, Pet.self, Listing<Int>.self, Owner.self, Node.self, Household.self,
            Measure.self, Log.self, SlimProfile.self, FullProfile.self, OddKeys.self, Scalars.self, AppV1.Cat.self,
            AppV2.Cat.self, AppV3.Cat.self,
        ]
        for type in direct {
            #expect(type is any ArchiveObjectEncodable.Type, "\(type)")
            #expect(type is any ArchiveObjectDecodable.Type, "\(type)")
        }
        // Enums keep the Codable path, but for those with `String` raw values.
        for type in [Shape.self, Mode.self, Event.self, AppV2.Mood.self] as [Any.Type] {
            #expect(!(type is any ArchiveObjectEncodable.Type), "\(type)")
        }
        for type in [Mode.self, AppV1.Mood.self, AppV2.Mood.self] as [Any.Type] {
            #expect(type is any ArchiveRawValueCodable.Type, "\(type)")
        }
        for type in [Shape.self, Event.self] as [Any.Type] {
            #expect(!(type is any ArchiveRawValueCodable.Type), "\(type)")
        }
        #expect(
            AppV3.Cat.archiveObjectKeys.names.map(\.description) == [
                "archiveVersion", "name", "color", "nickname", "toy", "weight", "lives", "mood", "tags", "colour",
            ]
        )
    }

    // MARK: Bytes and values

    @Test func everyModelArchivesToTheSameBytesOnBothPaths() throws {
        try Self.expectSamePaths(ArchivableRulesTests.twin)
        try Self.expectSamePaths(Self.settings)
        try Self.expectSamePaths(Settings(theme: "light"))
        try Self.expectSamePaths([Pet(name: "Rex"), Pet(name: "Rex")])
        try Self.expectSamePaths(Listing(items: [1, 2, 3], next: 2))
        try Self.expectSamePaths(Listing(items: [Pet(name: "a")], next: nil, title: "pets"))
        try Self.expectSamePaths(Log(measures: [Measure(value: 1), Measure(value: 2.5)]))
        try Self.expectSamePaths(Self.profile)
        try Self.expectSamePaths(OddKeys(greeting: "hello", price: 3, firstName: "Ada"))
        try Self.expectSamePaths(Self.scalars)
        try Self.expectSamePaths([AppHistory.v1])
        try Self.expectSamePaths(AppHistory.v2)
        try Self.expectSamePaths(AppHistory.v3)
    }

    @Test func sharedInstancesAndCyclesOfFinalClassesMatch() throws {
        let owner = Owner(name: "Ann")
        owner.visits = 3
        let household = Household(first: owner, second: owner)
        let archive = try BothPaths.encoder(.enabled).encode(household)
        #expect(archive == (try BothPaths.encoder(.disabled).encode(household)))
        for mode in BothPaths.modes {
            let decoded = try BothPaths.decoder(mode).decode(Household.self, from: archive)
            #expect(decoded.first === decoded.second, "\(mode)")
            #expect(decoded.first.name == "Ann" && decoded.first.visits == 3)
        }

        let root = Node()
        let leaf = Node()
        leaf.label = "leaf"
        root.children = [leaf, leaf]
        let tree = try BothPaths.encoder(.enabled).encode(root)
        #expect(tree == (try BothPaths.encoder(.disabled).encode(root)))
        #expect(Set(try Self.rewritten(Node.self, from: tree)).count == 1)
        for mode in BothPaths.modes {
            let decoded = try BothPaths.decoder(mode).decode(Node.self, from: tree)
            #expect(decoded.children.count == 2 && decoded.children[0] === decoded.children[1])
        }

        // A cycle through a final class: refused alike.
        root.children = [root]
        let cycle = try BothPaths.encoder(.enabled).encode(root)
        #expect(cycle == (try BothPaths.encoder(.disabled).encode(root)))
        var failures: [String] = []
        for mode in BothPaths.modes {
            do {
                _ = try BothPaths.decoder(mode).decode(Node.self, from: cycle)
            } catch {
                failures.append(BothPaths.describe(error))
            }
        }
        #expect(failures.count == 2)
        #expect(Set(failures).count == 1, "\(failures)")
        root.children = []
    }

    // MARK: Evolution

    /// Every version's data, as this package and as Foundation's `NSKeyedArchiver` stored it, read
    /// by every version: the same value or error on both paths, and the same archive written back,
    /// kept fields included.
    @Test(arguments: [AppHistoryTests.StoredForm.archive, .xmlArchive, .foundation])
    func everyVersionReadsEveryVersionAlikeOnBothPaths(form: AppHistoryTests.StoredForm) throws {
        for version in 1...3 {
            let data = try AppHistoryTests.stored(version: version, as: form)
            try Self.expectSameReading(AppV1.Cat.self, from: data, "v\(version) as v1")
            try Self.expectSameReading(AppV2.Cat.self, from: data, "v\(version) as v2")
            try Self.expectSameReading(AppV3.Cat.self, from: data, "v\(version) as v3")
        }
    }

    /// What each path makes of `data`: the value or error, and the fallbacks reported.
    static func readings<T: Codable & Equatable>(
        _ type: T.Type,
        from data: Data
    ) -> [(outcome: BothPaths.Outcome<T>, fallbacks: [String])] {
        BothPaths.modes.map { mode in
            let recorder = ArchiveFallbackRecorder()
            var decoder = BothPaths.decoder(mode)
            decoder.userInfo[.archiveFallbackRecorder] = recorder
            let outcome: BothPaths.Outcome<T>
            do {
                outcome = .value(try decoder.decode(type, from: data))
            } catch {
                outcome = .failure(BothPaths.describe(error))
            }
            return (outcome, recorder.fallbacks.map { "\($0) at \($0.codingPath)" })
        }
    }

    static func expectSameReading<T: Codable & Equatable>(
        _ type: T.Type,
        from data: Data,
        _ comment: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let readings = Self.readings(type, from: data)
        #expect(readings[0].outcome == readings[1].outcome, "\(comment)", sourceLocation: sourceLocation)
        #expect(readings[0].fallbacks == readings[1].fallbacks, "\(comment)", sourceLocation: sourceLocation)
        let outcomes = readings.map(\.outcome)
        guard case .value = outcomes[0] else { return }
        let rewritten = try Self.rewritten(type, from: data)
        #expect(
            rewritten[0] == rewritten[1],
            "\(comment): archives written back differ",
            sourceLocation: sourceLocation
        )
    }

    @Test func keptFieldsAreWrittenBackAlike() throws {
        let full = try BothPaths.encoder(.disabled).encode(Self.profile)
        let rewritten = try Self.rewritten(SlimProfile.self, from: full)
        #expect(rewritten[0] == rewritten[1])
        for mode in BothPaths.modes {
            #expect(try BothPaths.decoder(mode).decode(FullProfile.self, from: rewritten[0]) == Self.profile)
        }
        // A kept field under a key the type writes replaces its value, as `setArchivedFields` does.
        var slim = try BothPaths.decoder(.enabled).decode(SlimProfile.self, from: full)
        slim.unknownFields = ArchiveUnknownFields(
            [.init(key: "note", value: .string("a")), .init(key: "name", value: .string("b"))]
                + slim.unknownFields.fields + [.init(key: "note", value: .string("c"))]
        )
        let direct = try BothPaths.encoder(.enabled).encode(slim)
        #expect(direct == (try BothPaths.encoder(.disabled).encode(slim)))
        let read = try BothPaths.decoder(.enabled).decode(FullProfile.self, from: direct)
        #expect(read.name == "b" && read.note == "c")
    }

    @Test func fallbacksAreReportedAlikeOnBothPaths() throws {
        let archive = try KeyedArchiveEncoder().encode([OddMode(theme: "dark", mode: 42)])
        var reports: [[String]] = []
        for mode in BothPaths.modes {
            let recorder = ArchiveFallbackRecorder()
            var decoder = BothPaths.decoder(mode)
            decoder.userInfo[.archiveFallbackRecorder] = recorder
            #expect(try decoder.decode([Settings].self, from: archive) == [Settings(theme: "dark")])
            reports.append(recorder.fallbacks.map { "\($0) \($0.codingPath) \(String(describing: $0.error))" })
        }
        #expect(reports[0].count == 1)
        #expect(reports[0] == reports[1])
    }

    @Test func newerVersionsAndRootVersionsAreReadAlike() throws {
        // A version newer than the type's, nested: refused at the same path.
        let newer = try KeyedArchiveEncoder().encode(["measures": [NewerMeasure(value: 1, archiveVersion: 4)]])
        let outcome = BothPaths.outcome(Log.self, from: newer, .enabled)
        #expect(outcome == BothPaths.outcome(Log.self, from: newer, .disabled))
        guard case .failure(let failure) = outcome else {
            Issue.record("a newer version was read: \(outcome)")
            return
        }
        #expect(failure.contains("measures.[0].archiveVersion") && failure.contains("typeVersionTooNew"), "\(failure)")

        // Unversioned data of a versioned root: its version comes from beside the data, and only
        // at the root.
        let v2 = try KeyedArchiveEncoder().encode(AppHistory.v2)
        let nested = try KeyedArchiveEncoder().encode([AppHistory.v2])
        for root in [nil, 1, 2, 3] as [Int?] {
            ArchiveEvolution.$rootVersion.withValue(root) {
                let outcomes = BothPaths.modes.map { BothPaths.outcome(AppV3.Cat.self, from: v2, $0) }
                #expect(outcomes[0] == outcomes[1], "root version \(String(describing: root))")
                let nestedOutcomes = BothPaths.modes.map { BothPaths.outcome([AppV3.Cat].self, from: nested, $0) }
                #expect(nestedOutcomes[0] == nestedOutcomes[1], "root version \(String(describing: root)), nested")
                #expect(nestedOutcomes[0] == .value([AppV3.Cat(migratingFrom: AppHistory.v2)]))
            }
        }
    }

    @Test func rawStringEnumsAreReadAlikeOnBothPaths() throws {
        try Self.expectSamePaths(Snack(flavor: .sour, flavors: [.sweet, .sour], mode: .dark))
        let stored: [Data] = try [
            KeyedArchiveEncoder().encode(LooseSnack(flavor: "sweet", flavors: ["sour"], mode: "dark")),
            // None of the raw values, with and without an unknown case.
            KeyedArchiveEncoder().encode(LooseSnack(flavor: "bitter", flavors: [], mode: "dark")),
            KeyedArchiveEncoder().encode(LooseSnack(flavor: "sweet", flavors: ["salty"], mode: "dark")),
            KeyedArchiveEncoder().encode(LooseSnack(flavor: "sweet", flavors: [], mode: "neon")),
            // Not strings.
            KeyedArchiveEncoder().encode(NumericSnack(flavor: 1, flavors: [], mode: 3)),
            KeyedArchiveEncoder().encode(NumericSnack(flavor: 1, flavors: [2], mode: 3)),
        ]
        var failures = 0
        for (index, data) in stored.enumerated() {
            let readings = Self.readings(Snack.self, from: data)
            #expect(readings[0].outcome == readings[1].outcome, "archive \(index)")
            #expect(readings[0].fallbacks == readings[1].fallbacks, "archive \(index)")
            if case .failure = readings[0].outcome { failures += 1 }
        }
        #expect(failures == 4)
        let neon = Self.readings(Snack.self, from: stored[3])
        #expect(neon[0].outcome == .value(Snack(flavor: .sweet, flavors: [], mode: .unknown)))
        #expect(neon[0].fallbacks.count == 1)
    }

    /// Nested `@Archivable` values, arrays of them and raw-value enums, in every form a property
    /// takes (the reader's overloads for them), present, absent, `nil` or of the wrong kind.
    @Test func nestedValuesInEveryFormAreReadAlikeOnBothPaths() throws {
        let full = Kennel(
            resident: Pet(name: "Rex"),
            guest: Pet(name: "Kit"),
            spare: Pet(name: "Tom"),
            former: nil,
            flavor: .sour,
            lastFlavor: .sweet,
            pets: [Pet(name: "a"), Pet(name: "b")]
        )
        try Self.expectSamePaths(full)
        try Self.expectSamePaths(Kennel(resident: Pet(name: "Rex"), guest: nil, flavor: .sweet, lastFlavor: nil))

        let resident: (String, LooseField) = ("resident", .pet("Rex"))
        let flavor: (String, LooseField) = ("flavor", .string("sour"))
        // Absent keys keep the initial values; `nil` ones give `nil` where the property may be.
        let absent = try KeyedArchiveEncoder().encode(LooseObject(resident, flavor))
        #expect(
            try KeyedArchiveDecoder().decode(Kennel.self, from: absent)
                == Kennel(resident: Pet(name: "Rex"), guest: nil, flavor: .sour, lastFlavor: nil)
        )
        let stored: [(String, LooseObject)] = [
            ("absent", LooseObject(resident, flavor)),
            ("nil", LooseObject(resident, flavor, ("guest", .null), ("former", .null), ("lastFlavor", .null))),
            // Initial values kept, as for an absent key.
            ("nil where not optional", LooseObject(resident, flavor, ("spare", .null), ("pets", .null))),
            ("resident nil", LooseObject(("resident", .null), flavor)),
            ("resident absent", LooseObject(flavor)),
            ("resident a string", LooseObject(("resident", .string("Rex")), flavor)),
            ("resident of another class", LooseObject(("resident", .measure), flavor)),
            ("former pet's class", LooseObject(("resident", .oldPet("Rex")), flavor)),
            ("guest of another class", LooseObject(resident, flavor, ("guest", .measure))),
            ("spare a number", LooseObject(resident, flavor, ("spare", .number(3)))),
            ("former a string", LooseObject(resident, flavor, ("former", .string("x")))),
            ("flavor unknown", LooseObject(resident, ("flavor", .string("bitter")))),
            ("last flavor a number", LooseObject(resident, flavor, ("lastFlavor", .number(1)))),
            ("pets", LooseObject(resident, flavor, ("pets", .pets(["a", "b", "c"])))),
            ("pets with nil", LooseObject(resident, flavor, ("pets", .pets(["a", nil])))),
            ("pets of another class", LooseObject(resident, flavor, ("pets", .measures(2)))),
            ("pets a string", LooseObject(resident, flavor, ("pets", .string("a")))),
        ]
        var failures: [String] = []
        for (name, object) in stored {
            let data = try KeyedArchiveEncoder().encode(object)
            try Self.expectSameReading(Kennel.self, from: data, name)
            if case .failure = Self.readings(Kennel.self, from: data)[0].outcome { failures.append(name) }
        }
        #expect(
            failures == [
                "resident nil", "resident absent", "resident a string",
                "resident of another class", "guest of another class", "spare a number", "former a string",
                "flavor unknown", "last flavor a number", "pets with nil", "pets of another class", "pets a string",
            ]
        )
    }

    // MARK: Damaged data

    @Test(arguments: [0x01, 0x80, 0xFF] as [UInt8])
    func everyDamagedByteFailsAlikeOnBothPaths(mask: UInt8) throws {
        let archives: [(String, Data, (Data, UInt8) -> (differences: [String], failures: Int))] = [
            (
                "settings", try KeyedArchiveEncoder().encode([Self.settings]),
                { BothPaths.damagedByteDifferences([Settings].self, in: $0, mask: $1) }
            ),
            (
                "v3", try KeyedArchiveEncoder().encode(AppHistory.v3),
                { BothPaths.damagedByteDifferences(AppV3.Cat.self, in: $0, mask: $1) }
            ),
            (
                "v2 as v3", try KeyedArchiveEncoder().encode(AppHistory.v2),
                { BothPaths.damagedByteDifferences(AppV3.Cat.self, in: $0, mask: $1) }
            ),
            (
                "profile", try KeyedArchiveEncoder().encode(Self.profile),
                { BothPaths.damagedByteDifferences(FullProfile.self, in: $0, mask: $1) }
            ),
            (
                "scalars", try KeyedArchiveEncoder().encode(Self.scalars),
                { BothPaths.damagedByteDifferences(Scalars.self, in: $0, mask: $1) }
            ),
        ]
        for (name, data, compare) in archives {
            let (differences, failures) = compare(data, mask)
            #expect(differences.isEmpty, "\(name): \(differences.prefix(3))")
            #expect(failures > data.count / 8, "\(name): only \(failures) of \(data.count) failed")
        }
    }
}

/// A raw-value enum without a case for values it does not know.
@Archivable
enum Flavor: String, Equatable {
    case sweet, sour
}

/// Holds raw-value enums, alone, in an array, and with a fallback.
@Archivable
struct Snack: Equatable {
    var flavor: Flavor
    var flavors: [Flavor] = []
    @ArchiveFallback var mode: Mode = .light
}

/// ``Snack`` with strings where it has enums.
struct LooseSnack: Codable {
    var flavor: String
    var flavors: [String]
    var mode: String
}

/// ``Snack`` with numbers where it has enums.
struct NumericSnack: Codable {
    var flavor: Int
    var flavors: [Int]
    var mode: Int
}

/// Nested `@Archivable` values, arrays of them and raw-value enums, in every form a property takes.
@Archivable
struct Kennel: Equatable {
    var resident: Pet
    var guest: Pet?
    var spare = Pet(name: "spare")
    var former: Pet? = Pet(name: "former")
    var flavor: Flavor
    var lastFlavor: Flavor?
    var pets: [Pet] = []
}

/// A value to store under a key of a ``LooseObject``.
enum LooseField {
    case pet(String)
    case oldPet(String)
    case measure
    case pets([String?])
    case measures(Int)
    case string(String)
    case number(Int)
    case null
}

/// An object with any keys holding anything, to store what a type does not write itself.
struct LooseObject: Encodable {
    var fields: [(String, LooseField)]

    init(_ fields: (String, LooseField)...) {
        self.fields = fields
    }

    struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        for (name, field) in self.fields {
            let key = Key(stringValue: name)
            switch field {
            case .pet(let name): try container.encode(Pet(name: name), forKey: key)
            case .oldPet(let name): try container.encode(OldPet(name: name), forKey: key)
            case .measure: try container.encode(Measure(value: 1), forKey: key)
            case .pets(let names): try container.encode(names.map { $0.map { Pet(name: $0) } }, forKey: key)
            case .measures(let count):
                try container.encode(Array(repeating: Measure(value: 2), count: count), forKey: key)
            case .string(let string): try container.encode(string, forKey: key)
            case .number(let number): try container.encode(number, forKey: key)
            case .null: try container.encodeNil(forKey: key)
            }
        }
    }
}
