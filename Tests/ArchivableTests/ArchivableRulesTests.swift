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
import PropertyLists
import Testing

/// The rules of `@Archivable`, checked with this package's coders, `JSONEncoder`/`JSONDecoder` and
/// `PropertyListEncoder`/`PropertyListDecoder`.
@Suite struct ArchivableRulesTests {
    static let when = Date(timeIntervalSinceReferenceDate: 700_000_000.5)

    static let synthesized = SynthesizedTwin(
        name: "Tom",
        count: 9,
        ratio: 0.25,
        note: nil,
        tags: ["tabby", "lazy"],
        scores: ["speed": 3],
        when: when,
        shape: .labelled("box", size: 2, note: nil),
        shapes: [.point, .circle(radius: 1.5), .rectangle(2, 3), .labelled("x", size: 1, note: "n")],
        flag: true
    )

    static let twin = Twin(
        name: "Tom",
        count: 9,
        ratio: 0.25,
        note: nil,
        tags: ["tabby", "lazy"],
        scores: ["speed": 3],
        when: when,
        shape: .labelled("box", size: 2, note: nil),
        shapes: [.point, .circle(radius: 1.5), .rectangle(2, 3), .labelled("x", size: 1, note: "n")],
        flag: true
    )

    static func json(_ value: some Encodable) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return try encoder.encode(value)
    }

    static func archive(_ value: some Encodable) throws -> Data {
        var encoder = KeyedArchiveEncoder()
        for type in [SynthesizedTwin.self, Twin.self] as [Any.Type] { encoder.setClassName("Twin", for: type) }
        for type in [SynthesizedTwinShape.self, Shape.self] as [Any.Type] { encoder.setClassName("Shape", for: type) }
        return try encoder.encode(value)
    }

    // MARK: Synthesized parity

    @Test func writesWhatSynthesizedCodableWritesWithEveryCoder() throws {
        #expect(try Self.json(Self.twin) == Self.json(Self.synthesized))
        let plist = PropertyListEncoder()
        plist.outputFormat = .binary
        #expect(try plist.encode(Self.twin) == plist.encode(Self.synthesized))
        plist.outputFormat = .xml
        #expect(try plist.encode(Self.twin) == plist.encode(Self.synthesized))
        #expect(try Self.archive(Self.twin) == Self.archive(Self.synthesized))
    }

    @Test func readsWhatSynthesizedCodableWritesWithEveryCoder() throws {
        #expect(try JSONDecoder().decode(Twin.self, from: Self.json(Self.synthesized)) == Self.twin)
        #expect(
            try PropertyListDecoder().decode(Twin.self, from: PropertyListEncoder().encode(Self.synthesized))
                == Self.twin
        )
        #expect(try KeyedArchiveDecoder().decode(Twin.self, from: Self.archive(Self.synthesized)) == Self.twin)
    }

    @Test func callsTheContainerOverloadsSynthesizedCodableCalls() throws {
        let value = SynthesizedScalars(
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
            uint64: 64,
            optionalString: "o",
            optionalInt: nil,
            date: Self.when
        )
        let json = try Self.json(value)
        let archive = try KeyedArchiveEncoder().encode(value)
        let synthesized = try JSONDecoder().decode(RecordedCalls<SynthesizedScalars>.self, from: json).calls
        #expect(synthesized.contains("decode(Float) float"))
        #expect(synthesized.contains("decodeIfPresent(String) optionalString"))
        // The version comes first; then the very calls synthesized code makes.
        let expected = ["contains archiveVersion"] + synthesized
        #expect(try JSONDecoder().decode(RecordedCalls<Scalars>.self, from: json).calls == expected)
        #expect(try KeyedArchiveDecoder().decode(RecordedCalls<Scalars>.self, from: archive).calls == expected)
        #expect(
            try KeyedArchiveDecoder().decode(RecordedCalls<SynthesizedScalars>.self, from: archive).calls == synthesized
        )
    }

    @Test func failsWhereSynthesizedCodableFails() throws {
        let json = Data(#"{"name":"Tom","count":"nine"}"#.utf8)
        let expected = try #require(throws: DecodingError.self) {
            try JSONDecoder().decode(SynthesizedTwin.self, from: json)
        }
        let actual = try #require(throws: DecodingError.self) { try JSONDecoder().decode(Twin.self, from: json) }
        #expect(Self.summary(actual) == Self.summary(expected))

        let missingCase = Data(
            #"{"name":"x","count":1,"ratio":1,"tags":[],"scores":{},"when":0,"flag":true,"shapes":[],"shape":{}}"#.utf8
        )
        let expectedCase = try #require(throws: DecodingError.self) {
            try JSONDecoder().decode(SynthesizedTwin.self, from: missingCase)
        }
        let actualCase = try #require(throws: DecodingError.self) {
            try JSONDecoder().decode(Twin.self, from: missingCase)
        }
        #expect(Self.summary(actualCase) == Self.summary(expectedCase))
    }

    /// The kind of a decoding error and its coding path.
    static func summary(_ error: DecodingError) -> String {
        switch error {
        case .typeMismatch(_, let context): return "typeMismatch \(context.codingPath.map(\.stringValue))"
        case .valueNotFound(_, let context): return "valueNotFound \(context.codingPath.map(\.stringValue))"
        case .keyNotFound(let key, let context):
            return "keyNotFound \(key.stringValue) \(context.codingPath.map(\.stringValue))"
        case .dataCorrupted(let context): return "dataCorrupted \(context.codingPath.map(\.stringValue))"
        @unknown default: return "unknown"
        }
    }

    // MARK: Initial values and optionals

    @Test func absentKeysTakeTheInitialValues() throws {
        let settings = try JSONDecoder().decode(Settings.self, from: Data(#"{"theme":"dark"}"#.utf8))
        #expect(settings == Settings(theme: "dark"))
        #expect(settings.accent == "blue")
        #expect(settings.nickname == nil)
        let plist = try PropertyListEncoder().encode(["theme": "dark"])
        #expect(try PropertyListDecoder().decode(Settings.self, from: plist) == Settings(theme: "dark"))
        // Our encoder writes a nil optional as `$null`, as `NSKeyedArchiver` does: an explicit nil.
        let archive = try KeyedArchiveEncoder().encode(ThemeOnly(theme: "dark"))
        #expect(try KeyedArchiveDecoder().decode(Settings.self, from: archive) == Settings(theme: "dark"))
    }

    @Test func nullTakesTheInitialValueOfANonOptionalAndNilOfAnOptional() throws {
        let json = Data(#"{"theme":"dark","fontSize":null,"accent":null,"nickname":null,"volume":null}"#.utf8)
        let settings = try JSONDecoder().decode(Settings.self, from: json)
        #expect(settings.fontSize == 12)
        #expect(settings.volume == 5)
        #expect(settings.accent == nil)
        #expect(settings.nickname == nil)

        // `$null` in our archives: written by a type whose optionals are nil.
        var explicitNulls = try KeyedArchiveEncoder().encodeArchive(Settings(theme: "dark", accent: nil))
        #expect(try KeyedArchiveDecoder().decode(Settings.self, from: explicitNulls).accent == nil)
        // An NSNull object, as Foundation writes `NSNull()`, under `fontSize`.
        let archiver = NSKeyedArchiver(requiringSecureCoding: false)
        archiver.encode(NullsNS(), forKey: NSKeyedArchiveRootObjectKey)
        archiver.finishEncoding()
        explicitNulls = try KeyedArchive(parsing: archiver.encodedData)
        let fromFoundation = try KeyedArchiveDecoder().decode(Settings.self, from: explicitNulls)
        #expect(fromFoundation.fontSize == 12)
        #expect(fromFoundation.accent == nil)
    }

    @Test func anOptionalWithAnInitialValueRoundTripsNil() throws {
        let value = Settings(theme: "dark", accent: nil)
        #expect(try JSONDecoder().decode(Settings.self, from: JSONEncoder().encode(value)) == value)
        #expect(try KeyedArchiveDecoder().decode(Settings.self, from: KeyedArchiveEncoder().encode(value)) == value)
        let json = try Self.json(value)
        #expect(String(decoding: json, as: UTF8.self).contains(#""accent":null"#))
        // A nil optional without an initial value is left out, as synthesized Codable does.
        #expect(!String(decoding: json, as: UTF8.self).contains("nickname"))
    }

    // MARK: Keys, ignored properties, fallbacks

    @Test func aPropertyIsWrittenUnderItsFirstKeyAndReadFromTheFirstPresent() throws {
        let json = try Self.json(Settings(theme: "dark", volume: 7))
        #expect(String(decoding: json, as: UTF8.self).contains(#""volume":7"#))
        #expect(!String(decoding: json, as: UTF8.self).contains("soundLevel"))
        let former = Data(#"{"theme":"dark","level":3}"#.utf8)
        #expect(try JSONDecoder().decode(Settings.self, from: former).volume == 3)
        let both = Data(#"{"theme":"dark","level":3,"soundLevel":4}"#.utf8)
        #expect(try JSONDecoder().decode(Settings.self, from: both).volume == 4)
        let all = Data(#"{"theme":"dark","level":3,"soundLevel":4,"volume":8}"#.utf8)
        #expect(try JSONDecoder().decode(Settings.self, from: all).volume == 8)
    }

    @Test func keysNeedingEscapesRoundTripWithEveryCoder() throws {
        let value = OddKeys(greeting: "hello", price: 3, firstName: "Ada")
        let json = try JSONSerialization.jsonObject(with: JSONEncoder().encode(value)) as? [String: Any]
        #expect(Set(json?.keys.map { $0 } ?? []) == ["say \"hi\"", "$price", "first name"])
        #expect(try JSONDecoder().decode(OddKeys.self, from: JSONEncoder().encode(value)) == value)
        #expect(try KeyedArchiveDecoder().decode(OddKeys.self, from: KeyedArchiveEncoder().encode(value)) == value)
        #expect(try JSONDecoder().decode(OddKeys.self, from: Data(#"{"price":7}"#.utf8)).price == 7)
        // NSKeyedArchiver escapes a key starting with `$` with another `$`; so does our encoder.
        let archive = try KeyedArchiveEncoder().encodeArchive(value)
        #expect(archive.objects.contains { $0.dictionaryValue?["$$price"] == .integer(3) })
    }

    @Test func ignoredPropertiesAreNeitherWrittenNorRead() throws {
        var settings = Settings(theme: "dark")
        settings.cache = ["hot"]
        let json = String(decoding: try Self.json(settings), as: UTF8.self)
        #expect(!json.contains("cache"))
        #expect(!json.contains("build"))
        let stored = Data(#"{"theme":"dark","cache":["stale"],"build":"0.1"}"#.utf8)
        let decoded = try JSONDecoder().decode(Settings.self, from: stored)
        #expect(decoded.cache == ["warm"])
        #expect(decoded.build == "1.0")
    }

    @Test func aFallbackIsReportedByEveryDecoder() throws {
        let recorder = ArchiveFallbackRecorder()
        let json = Data(#"{"theme":"dark","mode":42}"#.utf8)
        let jsonDecoder = JSONDecoder()
        jsonDecoder.userInfo[.archiveFallbackRecorder] = recorder
        #expect(try jsonDecoder.decode(Settings.self, from: json).mode == .light)

        let plistDecoder = PropertyListDecoder()
        plistDecoder.userInfo[.archiveFallbackRecorder] = recorder
        let plist = try PropertyListEncoder().encode(OddMode(theme: "dark", mode: 42))
        #expect(try plistDecoder.decode(Settings.self, from: plist).mode == .light)

        var archiveDecoder = KeyedArchiveDecoder()
        archiveDecoder.userInfo[.archiveFallbackRecorder] = recorder
        let archive = try KeyedArchiveEncoder().encode([OddMode(theme: "dark", mode: 42)])
        #expect(try archiveDecoder.decode([Settings].self, from: archive).first?.mode == .light)

        let fallbacks = recorder.fallbacks
        #expect(fallbacks.count == 3)
        #expect(fallbacks.allSatisfy { $0.kind == .initialValue && $0.typeName == "Settings" && $0.key == "mode" })
        #expect(fallbacks.allSatisfy { $0.error is DecodingError })
        #expect(fallbacks[0].codingPath == ["mode"])
        #expect(fallbacks[2].codingPath == ["0", "mode"])
    }

    @Test func aFallbackDoesNotHideALimitBreach() throws {
        var decoder = KeyedArchiveDecoder()
        decoder.limits.maximumDepth = 2
        let archive = try KeyedArchiveEncoder().encode([[OddMode(theme: "dark", mode: 42)]])
        #expect(throws: DecodingError.self) { try decoder.decode([[Settings]].self, from: archive) }
    }

    // MARK: Enums

    @Test func unknownCasesDecodeToTheMarkedCaseAndAreReported() throws {
        let recorder = ArchiveFallbackRecorder()
        let decoder = JSONDecoder()
        decoder.userInfo[.archiveFallbackRecorder] = recorder
        #expect(try decoder.decode([Mode].self, from: Data(#"["dark","sepia"]"#.utf8)) == [.dark, .unknown])
        #expect(
            try decoder.decode([Event].self, from: Data(#"[{"closed":{}},{"renamed":{"to":"x"}}]"#.utf8)) == [
                .closed, .unknown,
            ]
        )
        #expect(recorder.fallbacks.map(\.key) == ["sepia", "renamed"])
        #expect(recorder.fallbacks.allSatisfy { $0.kind == .unknownCase })

        var archiveDecoder = KeyedArchiveDecoder()
        archiveDecoder.userInfo[.archiveFallbackRecorder] = recorder
        let events: [Event] = [.opened(at: 3), .closed]
        #expect(try archiveDecoder.decode([Event].self, from: KeyedArchiveEncoder().encode(events)) == events)
        #expect(try archiveDecoder.decode(Mode.self, from: KeyedArchiveEncoder().encode("sepia")) == .unknown)
        #expect(recorder.fallbacks.count == 3)
    }

    @Test func anEnumWithoutAnUnknownCaseRejectsAnUnknownValue() {
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(Shape.self, from: Data(#"{"hexagon":{}}"#.utf8))
        }
    }

    // MARK: Class names

    @Test func classNamesAreWrittenAndFormerOnesAccepted() throws {
        let data = try KeyedArchiveEncoder().encode(Pet(name: "Rex"))
        let archive = try KeyedArchive(parsing: data)
        let root = try archive.object(for: #require(archive.topUID(forKey: "root")))
        #expect(try archive.archivedClass(of: root)?.name == "MyApp.Pet")

        let old = try KeyedArchiveEncoder().encode(OldPet(name: "Rex"))
        #expect(try KeyedArchiveDecoder().decode(Pet.self, from: old) == Pet(name: "Rex"))

        let other = try KeyedArchiveEncoder().encode(OtherPet(name: "Rex"))
        let error = try #require(throws: DecodingError.self) { try KeyedArchiveDecoder().decode(Pet.self, from: other) }
        #expect(error.archiveErrorCode == .classMismatch)
    }

    // MARK: Generics and classes

    @Test func genericTypesConformWhereTheirParametersDo() throws {
        let page = Listing(items: [1, 2, 3], next: 2)
        #expect(try KeyedArchiveDecoder().decode(Listing<Int>.self, from: KeyedArchiveEncoder().encode(page)) == page)
        let pets = Listing(items: [Pet(name: "a")], next: nil, title: "pets")
        #expect(try JSONDecoder().decode(Listing<Pet>.self, from: JSONEncoder().encode(pets)) == pets)
    }

    @Test func classesKeepTheirIdentityAndInitializers() throws {
        let owner = Owner(name: "Ada")
        owner.visits = 3
        let household = try KeyedArchiveDecoder().decode(
            Household.self,
            from: KeyedArchiveEncoder().encode(Household(first: owner, second: owner))
        )
        #expect(household.first === household.second)
        #expect(household.first.visits == 3)

        let tree = Node()
        tree.children = [Node(), Node()]
        tree.children[1].label = "leaf"
        let decoded = try JSONDecoder().decode(Node.self, from: JSONEncoder().encode(tree))
        #expect(decoded.children.map(\.label) == ["root", "leaf"])
    }

    // MARK: Versions

    @Test func eachNestedValueCarriesItsOwnVersion() throws {
        let log = Log(measures: [Measure(value: 1), Measure(value: 2)])
        let archive = try KeyedArchiveEncoder().encodeArchive(log)
        let versions = archive.objects.compactMap { object -> PropertyListValue? in
            object.dictionaryValue?["archiveVersion"]
        }
        #expect(versions == [.integer(3), .integer(3)])
        #expect(try KeyedArchiveDecoder().decode(Log.self, from: archive) == log)
        let json = try JSONSerialization.jsonObject(with: JSONEncoder().encode(log)) as? [String: [[String: Any]]]
        #expect(json?["measures"]?.first?["archiveVersion"] as? Int == 3)
    }

    @Test func dataOfANewerVersionIsRefusedWithEveryCoder() throws {
        let json = Data(#"{"value":1,"archiveVersion":4}"#.utf8)
        let error = try #require(throws: DecodingError.self) { try JSONDecoder().decode(Measure.self, from: json) }
        #expect(error.archiveErrorCode == .typeVersionTooNew)
        // Even a type that was never versioned refuses a value a newer version wrote.
        let newer = Data(#"{"name":"Rex","archiveVersion":2}"#.utf8)
        let unversioned = try #require(throws: DecodingError.self) { try JSONDecoder().decode(Pet.self, from: newer) }
        #expect(unversioned.archiveErrorCode == .typeVersionTooNew)
        let newerLog = try KeyedArchiveEncoder().encode(["measures": [NewerMeasure(value: 1, archiveVersion: 4)]])
        let archiveError = try #require(throws: DecodingError.self) {
            try KeyedArchiveDecoder().decode(Log.self, from: newerLog)
        }
        #expect(archiveError.archiveErrorCode == .typeVersionTooNew)
        #expect(archiveError.codingPathDescription == "measures.0.archiveVersion")
    }

    // MARK: Unknown fields

    @Test func unknownFieldsSurviveAnOlderTypeWithOurCoders() throws {
        let full = FullProfile(
            name: "Ada",
            age: 36,
            weight: 61.5,
            born: Self.when,
            photo: Data([1, 2, 3]),
            id: UUID(uuid: (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16)),
            tags: ["a", "b"],
            scores: ["x": 1],
            owner: Pet(name: "Rex"),
            friends: [Pet(name: "Tom"), Pet(name: "Kit")],
            note: "hi"
        )
        for format in [PropertyListFormat.binary, .xml] {
            var encoder = KeyedArchiveEncoder()
            encoder.outputFormat = format
            let slim = try KeyedArchiveDecoder().decode(SlimProfile.self, from: encoder.encode(full))
            #expect(slim.name == "Ada")
            #expect(slim.unknownFields.keys.count == 10)
            if case .object(let className, _, _)? = slim.unknownFields["owner"] {
                #expect(className == "MyApp.Pet")
            } else {
                Issue.record("owner is not kept as an object: \(String(describing: slim.unknownFields["owner"]))")
            }
            // Saved again by the older type, read by the newer: nothing lost.
            var renamed = slim
            renamed.name = "Ada L."
            var expected = full
            expected.name = "Ada L."
            #expect(try KeyedArchiveDecoder().decode(FullProfile.self, from: encoder.encode(renamed)) == expected)
        }
    }

    @Test func unknownFieldsSurviveAnOlderTypeWithJSON() throws {
        let json = Data(#"{"name":"Ada","age":36,"tags":["a","b"],"owner":{"name":"Rex"},"note":null,"ok":true}"#.utf8)
        let slim = try JSONDecoder().decode(SlimProfile.self, from: json)
        #expect(Set(slim.unknownFields.keys) == ["age", "tags", "owner", "note", "ok"])
        let again = try JSONSerialization.jsonObject(with: JSONEncoder().encode(slim)) as? NSDictionary
        let original = try JSONSerialization.jsonObject(with: json) as? NSDictionary
        #expect(again == original)
    }

    @Test func unknownFieldsTakeNoPartInEquality() {
        var first = SlimProfile(name: "Ada")
        first.unknownFields = ArchiveUnknownFields([ArchivedValue.Field(key: "age", value: .integer(3))])
        #expect(first == SlimProfile(name: "Ada"))
        var hasherA = Hasher()
        first.unknownFields.hash(into: &hasherA)
        var hasherB = Hasher()
        ArchiveUnknownFields().hash(into: &hasherB)
        #expect(hasherA.finalize() == hasherB.finalize())
    }
}

/// A settings value whose `mode` has another type.
struct OddMode: Codable {
    var theme: String
    var mode: Int
}

/// A measure written by a newer version.
struct NewerMeasure: Codable {
    var value: Double
    var archiveVersion: Int
}

/// Writes `NSNull` under `fontSize` and `accent`, as an `NSCoding` class can.
final class NullsNS: NSObject, NSCoding {
    override init() {}

    init?(coder: NSCoder) { nil }

    func encode(with coder: NSCoder) {
        coder.encode("dark", forKey: "theme")
        coder.encode(NSNull(), forKey: "fontSize")
        coder.encode(NSNull(), forKey: "accent")
    }
}

extension DecodingError {
    /// The coding path, joined with dots.
    var codingPathDescription: String {
        switch self {
        case .dataCorrupted(let context), .typeMismatch(_, let context), .valueNotFound(_, let context),
            .keyNotFound(_, let context):
            return context.codingPath.map { $0.intValue.map(String.init) ?? $0.stringValue }.joined(separator: ".")
        @unknown default:
            return ""
        }
    }
}
