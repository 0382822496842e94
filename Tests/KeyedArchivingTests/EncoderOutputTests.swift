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
import Testing

@testable import KeyedArchiving

/// The encoder writes binary archives straight from its object table; these tests check that the
/// bytes are exactly those of the archive model serialized through the tree writer.
@Suite struct EncoderOutputTests {
    /// A value of random shape, encoded through every kind of container.
    fileprivate indirect enum Shape: Encodable {
        case string(String)
        case int(Int)
        case int8(Int8)
        case uint64(UInt64)
        case double(Double)
        case float(Float)
        case bool(Bool)
        case data(Data)
        case date(Date)
        case uuid(UUID)
        case url(URL)
        case null
        case array([Shape])
        case object([(key: String, value: Shape)])
        case nested([(key: String, value: Shape)])
        case dictionary([String: Shape])
        case intDictionary([Int: Shape])
        case set(Set<String>)
        case shared(Box)

        func encode(to encoder: any Encoder) throws {
            switch self {
            case .string(let value): try Self.single(encoder, value)
            case .int(let value): try Self.single(encoder, value)
            case .int8(let value): try Self.single(encoder, value)
            case .uint64(let value): try Self.single(encoder, value)
            case .double(let value): try Self.single(encoder, value)
            case .float(let value): try Self.single(encoder, value)
            case .bool(let value): try Self.single(encoder, value)
            case .data(let value): try Self.single(encoder, value)
            case .date(let value): try Self.single(encoder, value)
            case .uuid(let value): try Self.single(encoder, value)
            case .url(let value): try Self.single(encoder, value)
            case .null:
                var container = encoder.singleValueContainer()
                try container.encodeNil()
            case .array(let elements):
                var container = encoder.unkeyedContainer()
                for element in elements { try Self.append(element, to: &container) }
            case .object(let entries):
                var container = encoder.container(keyedBy: DynamicKey.self)
                for entry in entries { try Self.store(entry.value, forKey: DynamicKey(entry.key), in: &container) }
            case .nested(let entries):
                var outer = encoder.container(keyedBy: DynamicKey.self)
                var inner = outer.nestedContainer(keyedBy: DynamicKey.self, forKey: DynamicKey("inner"))
                for entry in entries { try Self.store(entry.value, forKey: DynamicKey(entry.key), in: &inner) }
                var list = outer.nestedUnkeyedContainer(forKey: DynamicKey("list"))
                for entry in entries { try Self.append(entry.value, to: &list) }
                try entries.first?.value.encode(to: outer.superEncoder())
            case .dictionary(let dictionary): try Self.single(encoder, dictionary)
            case .intDictionary(let dictionary): try Self.single(encoder, dictionary)
            case .set(let set): try Self.single(encoder, set)
            case .shared(let box): try Self.single(encoder, box)
            }
        }

        private static func single(_ encoder: any Encoder, _ value: some Encodable) throws {
            var container = encoder.singleValueContainer()
            try container.encode(value)
        }

        /// Stores scalars through their own overloads, so they land inline.
        private static func store(
            _ value: Shape,
            forKey key: DynamicKey,
            in container: inout KeyedEncodingContainer<DynamicKey>
        ) throws {
            switch value {
            case .string(let string): try container.encode(string, forKey: key)
            case .int(let int): try container.encode(int, forKey: key)
            case .int8(let int): try container.encode(int, forKey: key)
            case .uint64(let int): try container.encode(int, forKey: key)
            case .double(let double): try container.encode(double, forKey: key)
            case .float(let float): try container.encode(float, forKey: key)
            case .bool(let bool): try container.encode(bool, forKey: key)
            case .null: try container.encodeNil(forKey: key)
            default: try container.encode(value, forKey: key)
            }
        }

        private static func append(_ value: Shape, to container: inout any UnkeyedEncodingContainer) throws {
            switch value {
            case .string(let string): try container.encode(string)
            case .int(let int): try container.encode(int)
            case .double(let double): try container.encode(double)
            case .float(let float): try container.encode(float)
            case .bool(let bool): try container.encode(bool)
            case .null: try container.encodeNil()
            default: try container.encode(value)
            }
        }
    }

    /// A class instance, stored once however often it is reached.
    fileprivate final class Box: Encodable {
        let value: Shape

        init(_ value: Shape) {
            self.value = value
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: DynamicKey.self)
            try container.encode(self.value, forKey: DynamicKey("value"))
        }
    }

    fileprivate struct DynamicKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }

        init(_ string: String) {
            self.stringValue = string
        }

        init?(stringValue: String) {
            self.stringValue = stringValue
        }

        init?(intValue: Int) {
            nil
        }
    }

    /// SplitMix64, so every run checks the same values.
    fileprivate struct Generator {
        var state: UInt64

        mutating func next() -> UInt64 {
            self.state &+= 0x9E37_79B9_7F4A_7C15
            var z = self.state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }

        mutating func below(_ bound: Int) -> Int {
            Int(self.next() % UInt64(bound))
        }

        mutating func pick<T>(_ choices: [T]) -> T {
            choices[self.below(choices.count)]
        }
    }

    /// Strings that stress uniquing: `$` prefixes, canonically equivalent spellings (`é` composed
    /// and decomposed, the Kelvin sign and `K`), non-ASCII, long strings and the archive's own keys.
    private static let strings = [
        "", "a", "name", "$class", "$$class", "$null", "NS.objects", "root", "é", "e\u{301}", "K", "\u{212A}", "東京",
        "Zoë", "a fairly long string that is not small", "NSArray", "NSObject", "super", "$0", "Index 1", "😀",
    ]

    private static func shape(_ generator: inout Generator, depth: Int) -> Shape {
        let leafKinds = 12
        let kind = depth >= 4 ? generator.below(leafKinds) : generator.below(leafKinds + 7)
        switch kind {
        case 0, 1:
            return .string(generator.pick(Self.strings) + (generator.below(3) == 0 ? "\(generator.below(4))" : ""))
        case 2: return .int(generator.pick([0, 1, -1, 255, 256, 65_535, 65_536, Int.max, Int.min, 100_000]))
        case 3: return .int8(Int8(truncatingIfNeeded: generator.below(256)))
        case 4: return .uint64(generator.pick([0, 1, UInt64.max, UInt64(Int64.max) + 1, 100_000]))
        case 5: return .double(generator.pick([0, -0.0, 1, 1.5, .nan, .infinity, 100_000, 2.25]))
        case 6: return .float(generator.pick([0, 1, 1.5, -2]))
        case 7: return .bool(generator.below(2) == 0)
        case 8: return .data(Data(generator.pick(Self.strings).utf8))
        case 9: return .date(Date(timeIntervalSinceReferenceDate: Double(generator.below(5)) * 1.5))
        case 10:
            if generator.below(2) == 0 { return .null }
            return .uuid(UUID(uuid: (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, UInt8(generator.below(3)))))
        case 11:
            let base = URL(string: "https://example.com/a/")
            return .url(URL(string: generator.pick(["b", "c/d", "é"]), relativeTo: base) ?? URL(fileURLWithPath: "/"))
        case 12: return .array((0..<generator.below(5)).map { _ in Self.shape(&generator, depth: depth + 1) })
        case 13, 14:
            let entries = (0..<generator.below(6)).map { _ in
                (key: generator.pick(Self.strings), value: Self.shape(&generator, depth: depth + 1))
            }
            return kind == 13 ? .object(entries) : .nested(entries)
        case 15:
            var dictionary: [String: Shape] = [:]
            for _ in 0..<generator.below(4) {
                dictionary[generator.pick(Self.strings)] = Self.shape(&generator, depth: depth + 1)
            }
            return .dictionary(dictionary)
        case 16:
            var dictionary: [Int: Shape] = [:]
            for _ in 0..<generator.below(4) {
                dictionary[generator.below(9) - 4] = Self.shape(&generator, depth: depth + 1)
            }
            return .intDictionary(dictionary)
        case 17: return .set(Set((0..<generator.below(4)).map { _ in generator.pick(Self.strings) }))
        default:
            let box = Box(Self.shape(&generator, depth: depth + 1))
            return .array([.shared(box), .string("between"), .shared(box)])
        }
    }

    private static func expectSameBytes(
        _ value: some Encodable,
        encoder: KeyedArchiveEncoder = KeyedArchiveEncoder(),
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let direct = try encoder.encode(value)
        let archive = try encoder.encodeArchive(value)
        let throughTree = Data(BinaryPropertyListWriter().write(archive.propertyList))
        #expect(direct == throughTree, sourceLocation: sourceLocation)
        #expect(try KeyedArchive(parsing: direct) == archive, sourceLocation: sourceLocation)
    }

    @Test(arguments: 0..<200)
    func randomValuesEncodeToTheBytesOfTheirArchive(seed: Int) throws {
        var generator = Generator(state: UInt64(seed))
        let value = Self.shape(&generator, depth: 0)
        try Self.expectSameBytes(value)
    }

    @Test func manyObjectsWidenReferencesLikeTheTreeWriter() throws {
        var generator = Generator(state: 42)
        let values = (0..<3000).map { index in
            Shape.object([
                (key: "index", value: .int(index)),
                (key: "name", value: .string("name \(index % 700)")),
                (key: "child", value: Self.shape(&generator, depth: 3)),
            ])
        }
        try Self.expectSameBytes(values)
    }

    @Test func aRecycledSessionKeepsKeysAndClassNamesWithoutChangingABit() throws {
        // One session, recycled through a pool of its own, archives value after value: the keys
        // and class names it keeps from archive to archive (until too many) change no byte.
        let pool = ArchiveEncodingSessionPool(keptCapacity: 1 << 24, largeCapacity: 1 << 24) { _ in }
        var encoder = KeyedArchiveEncoder()
        encoder.setClassName("K", for: Box.self)
        let fixedCount = ArchiveEncodingTable.FixedKey.allCases.count
        func object(_ keys: [String], _ value: (Int) -> Shape) -> Shape {
            .object(keys.enumerated().map { (key: $0.element, value: value($0.offset)) })
        }
        let first = ["name", "K", "$class", "a", "é"]
        let many = (0..<700).map { "key \($0)" }
        let others = (0..<700).map { "other \($0)" }
        let chained = [Chained("K"), Chained("Sub")]
        let rounds: [(value: any Encodable, keeps: Bool)] = [
            (object(first) { .string(["\u{212A}", "name", "x", "e\u{301}", "K"][$0]) }, true),
            // Values equal to kept keys and class names, canonically equal ones, a class named "K",
            // a class chain.
            (
                WithChained(
                    shape: .array([object(first.reversed()) { _ in .string("K") }, .shared(Box(.string("\u{212A}")))]),
                    chained: chained
                ), true
            ),
            (object(many) { .int($0) }, true),
            // Past the limit: only the fixed strings stay, and no cached key may survive.
            (object(others) { .string("\u{212A}\($0 % 3)") }, false),
            (
                Shape.array([
                    object(first) { .int($0) }, .nested([(key: "K", value: object(many.suffix(3)) { .int($0) })]),
                ]), true
            ),
            (
                WithChained(
                    shape: .array([object(first) { .string(first[$0]) }, .shared(Box(.string("K")))]),
                    chained: chained
                ), true
            ),
            (WithChained(shape: .string("Base"), chained: chained.reversed()), true),
            // A key first met as a value is not kept: its cached key must go with the archive.
            (Shape.array([.string("late"), object(["late"]) { _ in .int(1) }]), true),
            (Shape.array([.string("early"), object(["late", "early"]) { _ in .string("value") }]), true),
        ]
        for (round, (value, keeps)) in rounds.enumerated() {
            let session = ArchiveEncodingSession.make(options: encoder.options, from: pool)
            let uid = try session.encodeObject(value)
            let bytes = try session.finishBinary(top: [(key: "root", value: .uid(uid.rawValue))])
            session.recycle(into: pool)
            // A new session, through the tree writer, knows nothing of earlier archives.
            let fresh = ArchiveEncodingSession(options: encoder.options)
            let freshUID = try fresh.encodeObject(value)
            let archive = try fresh.finish(top: [(key: "root", value: .uid(freshUID.rawValue))])
            let expected = Data(BinaryPropertyListWriter().write(archive.propertyList))
            #expect(bytes == expected, "round \(round)")
            #expect((session.table.keptStringCount > fixedCount) == keeps, "round \(round)")
            #expect(pool.take() === session)
            pool.keep(session, capacity: 0)
        }
    }

    @Test func keysMadeAfreshEachTimeStillMatch() throws {
        // Long keys built at run time live on the heap, so their storage can be reused between calls.
        let entries = (0..<500).map { index in
            (key: "a key long enough for the heap \(index % 37)", value: Shape.int(index))
        }
        try Self.expectSameBytes(Shape.array([.object(entries), .nested(entries)]))
    }

    @Test func classNamesAndCanonicallyEqualStringsMatch() throws {
        var encoder = KeyedArchiveEncoder()
        encoder.setClassName("NSObject", for: Box.self)
        let value = Shape.array([
            .shared(Box(.string("NSObject"))), .string("e\u{301}"), .string("é"), .string("\u{212A}"), .string("K"),
            .object([
                (key: "é", value: .int(1)), (key: "e\u{301}", value: .int(2)), (key: "K", value: .string("\u{212A}")),
            ]),
        ])
        try Self.expectSameBytes(value, encoder: encoder)
    }

    /// Records the coding path of every encoder it is encoded with, and keeps the encoders.
    fileprivate final class PathRecorder: @unchecked Sendable {
        var paths: [[String]] = []
        var encoders: [any Encoder] = []
    }

    fileprivate struct Recorded: Encodable {
        let recorder: PathRecorder
        let child: [Recorded]

        func encode(to encoder: any Encoder) throws {
            self.recorder.paths.append(encoder.codingPath.map(\.stringValue))
            self.recorder.encoders.append(encoder)
            var container = encoder.container(keyedBy: DynamicKey.self)
            try container.encode(self.child, forKey: DynamicKey("child"))
            try container.encode(Wrapper(inner: self.child.first), forKey: DynamicKey("wrapped"))
        }
    }

    fileprivate struct Wrapper: Encodable {
        let inner: Recorded?

        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(self.inner)
        }
    }

    @Test func nestedEncodersReportTheirPathsDuringAndAfterEncoding() throws {
        let recorder = PathRecorder()
        let leaf = Recorded(recorder: recorder, child: [])
        let value = [Recorded(recorder: recorder, child: [leaf])]
        try Self.expectSameBytes(value)
        let expected = [
            ["Index 0"], ["Index 0", "child", "Index 0"], ["Index 0", "wrapped"],
        ]
        // Twice: once for `encode(_:)`, once for `encodeArchive(_:)`.
        #expect(recorder.paths == expected + expected)
        // The encoders were kept, so their paths must survive their parents being reused.
        #expect(recorder.encoders.map { $0.codingPath.map(\.stringValue) } == expected + expected)
    }

    @Test func builderWritesWhatTheTreeWriterWritesForItsTree() {
        var builder = BinaryPropertyListBuilder()
        var leaves: [BinaryPropertyListBuilder.Value] = [
            .integer(Int64(-5)), .integer(UInt64.max), .integer(UInt64(Int64.max) + 1), .real(-0.0), .real(.nan),
            .float(1.5), .bool(true), .bool(false), .uid(3), .uid(70_000), .uid(1 << 25), .uid(UInt64(UInt32.max) + 1),
            BinaryPropertyListBuilder.Value(kind: .date, payload: (12.5).bitPattern),
            BinaryPropertyListBuilder.Value(kind: .data, payload: UInt64(builder.dataID(for: Data([1, 2, 3])))),
            builder.string("é"), builder.string("e\u{301}"), builder.string("\u{212A}"), builder.string("K"),
            builder.string(String(repeating: "long ", count: 40)), builder.string("東京"),
        ]
        leaves += (0..<300).map { .uid(UInt64($0 % 97)) }
        let shared = builder.array(leaves)
        let keys = [builder.string("a"), builder.string("K"), builder.string("b")]
        // The same array twice: the writer numbers its contents twice, as the tree writer does.
        let root = builder.dictionary(keys: keys, values: [shared, shared, .uid(5)])
        let expected = BinaryPropertyListWriter().write(builder.propertyList(root))
        #expect(builder.write(root: root) == expected)
        #expect(builder.writeData(root: root) == Data(expected))
    }

    @Test func equalDataGetsOneIdAndNewDataTheNext() {
        var builder = BinaryPropertyListBuilder()
        let sixteen = Data((0..<16).map { UInt8($0) })
        #expect(builder.dataID(for: sixteen) == 0)
        #expect(builder.dataID(for: Data()) == 1)
        #expect(builder.dataID(for: Data(sixteen)) == 0)
        #expect(builder.dataID(for: Data([1])) == 2)
        #expect(builder.dataID(for: Data()) == 1)
        let stored = (0..<builder.data.count).map { id in builder.data.withBytes(of: UInt32(id)) { Data($0) } }
        #expect(stored == [sixteen, Data(), Data([1])])
    }

    @Test func dictionariesSharingTheirKeysWriteWhatTheTreeWriterWrites() {
        var builder = BinaryPropertyListBuilder()
        let keysStart = builder.items.count
        builder.items += [builder.string("name"), builder.string("size"), builder.string("é")]
        var dictionaries: [BinaryPropertyListBuilder.Value] = []
        for index in 0..<20 {
            let valuesStart = builder.items.count
            builder.items += [builder.string("item \(index % 7)"), .integer(Int64(index)), .bool(index > 9)]
            // Every third shares only the first two keys.
            let count = index.isMultiple(of: 3) ? 2 : 3
            let shared = builder.dictionary(sharingKeysAt: keysStart, valuesAt: valuesStart, count: count)
            dictionaries.append(shared ?? .bool(false))
        }
        let inline = builder.dictionary(keys: [builder.string("size")], values: [.integer(Int64(3))])
        let root = builder.array(dictionaries + [inline, dictionaries[4]])
        let tree = builder.propertyList(root)
        guard case .array(let elements) = tree, case .dictionary(let fifth) = elements[4] else {
            Issue.record("unexpected tree \(tree)")
            return
        }
        #expect(fifth == ["name": "item 4", "size": 4, "é": false])
        #expect(elements[3] == .dictionary(["name": "item 3", "size": 3]))
        #expect(builder.writeData(root: root) == Data(BinaryPropertyListWriter().write(tree)))
    }

    /// The writer repeats the references of a run of shared keys it has numbered, remembered by
    /// the run's start in a small table: runs whose starts share a slot of it, interleaved, must
    /// each keep their own keys.
    @Test func runsOfSharedKeysInTheSameSlotKeepTheirOwnKeys() {
        var builder = BinaryPropertyListBuilder()
        var runs: [(start: Int, count: Int)] = []
        for run in 0..<6 {
            // Starts 64 items apart (after padding), with their own keys, some shorter.
            while builder.items.count % 64 != 5 { builder.items.append(.integer(Int64(builder.items.count))) }
            let count = 2 + run % 3
            runs.append((builder.items.count, count))
            builder.items += (0..<count).map { builder.string("key \(run).\($0)") }
        }
        var dictionaries: [BinaryPropertyListBuilder.Value] = []
        for index in 0..<60 {
            let run = runs[(index * 7) % runs.count]
            let valuesStart = builder.items.count
            builder.items += (0..<run.count).map { .integer(Int64(index * 10 + $0)) }
            // Every fifth shares a shorter part of its run.
            let count = index.isMultiple(of: 5) ? run.count - 1 : run.count
            let shared = builder.dictionary(sharingKeysAt: run.start, valuesAt: valuesStart, count: count)
            dictionaries.append(shared ?? .bool(false))
        }
        let root = builder.array(dictionaries)
        let tree = builder.propertyList(root)
        guard case .array(let elements) = tree, case .dictionary(let eighth) = elements[8] else {
            Issue.record("unexpected tree \(tree)")
            return
        }
        #expect(eighth == ["key 2.0": 80, "key 2.1": 81, "key 2.2": 82, "key 2.3": 83])
        #expect(builder.write(root: root) == BinaryPropertyListWriter().write(tree))
    }

    /// More objects than the 2^20 the builder's writer first makes room for: its buffer grows.
    @Test func builderWritesMoreObjectsThanItFirstMakesRoomFor() {
        var builder = BinaryPropertyListBuilder()
        let root = builder.array((0..<1_100_000).map { .integer(Int64($0)) })
        let expected = BinaryPropertyListWriter().write(builder.propertyList(root))
        #expect(builder.writeData(root: root) == Data(expected))
    }

    /// A builder emptied and filled again writes its next file in the buffers of the last one:
    /// larger or smaller, with its strings, UIDs and numbers numbered afresh.
    @Test func aBuilderWritingAgainWritesEachFileAsAFreshOneWould() {
        var builder = BinaryPropertyListBuilder()
        for (round, size) in [3000, 40, 5000, 0, 700].enumerated() {
            builder.removeAll()
            // Strings get ids from 0 again; UIDs and numbers repeat across files.
            var values = (0..<size).map { builder.string("s\(($0 * 7 + round) % (size / 2 + 1))") }
            values += (0..<size).map { .uid(UInt64(($0 * 13 + round) % (size + 3))) }
            values += (0..<size).map { .real(Double(($0 + round) % 50) / 4) }
            values.append(.uid(UInt64(200 * size)))
            let keys = [builder.string("round"), builder.string("values")]
            let root = builder.dictionary(keys: keys, values: [.integer(Int64(round)), builder.array(values)])
            let expected = BinaryPropertyListWriter().write(builder.propertyList(root))
            #expect(builder.writeData(root: root, uidCount: size / 2) == Data(expected), "round \(round)")
        }
    }

    @Test func topLevelScalarsAndEmptyValuesMatch() throws {
        try Self.expectSameBytes(1)
        try Self.expectSameBytes("root")
        try Self.expectSameBytes([Int]())
        try Self.expectSameBytes([String: Int]())
        try Self.expectSameBytes(Shape.null)
        try Self.expectSameBytes(Shape.object([]))
    }
}

/// A class with a class chain of its own, for archives that hold its dictionary.
private final class Chained: Encodable, ArchivedClassNaming {
    static var archivedClassName: String { "Sub" }
    static var archivedClassChain: [String] { ["Sub", "Base", "NSObject"] }
    let name: String

    init(_ name: String) { self.name = name }
}

/// A value of random shape beside instances of ``Chained``.
private struct WithChained: Encodable {
    fileprivate var shape: EncoderOutputTests.Shape
    var chained: [Chained]
}
