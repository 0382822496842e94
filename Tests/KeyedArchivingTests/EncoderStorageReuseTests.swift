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

/// The encoder keeps its largest arrays between calls, emptied, for the next call: what one
/// encoding leaves must never show in another.
@Suite struct EncoderStorageReuseTests {
    struct Pet: Codable, Equatable {
        var name: String
        var tags: [String]
        var born: Date
        var friend: Friend?
    }

    struct Friend: Codable, Equatable {
        var name: String
        var age: Int
    }

    static func pets(_ count: Int, prefix: String) -> [Pet] {
        (0..<count).map { index in
            Pet(
                name: "\(prefix) \(index)",
                tags: (0..<(index % 4)).map { "\(prefix) tag \($0)" },
                born: Date(timeIntervalSinceReferenceDate: Double(index * 86_400)),
                friend: index % 3 == 0 ? nil : Friend(name: "\(prefix) friend \(index % 7)", age: index % 20)
            )
        }
    }

    @Test func aValueEncodesToTheSameBytesBeforeAndAfterOthers() throws {
        let encoder = KeyedArchiveEncoder()
        let small = Self.pets(3, prefix: "small")
        let first = try encoder.encode(small)
        // Larger and smaller archives in between, so the kept arrays hold more than `small` needs.
        _ = try encoder.encode(Self.pets(2_000, prefix: "large"))
        _ = try encoder.encode(["just", "strings"])
        #expect(try encoder.encode(small) == first)
        #expect(try KeyedArchiveDecoder().decode([Pet].self, from: first) == small)
    }

    /// A value in a type of its own: each level of nesting is another type.
    struct Layer<Inner: Codable & Equatable>: Codable, Equatable {
        var inner: Inner
        var depth: Int
    }

    @Test func valuesOfMoreTypesThanTheTypeCacheHoldsRoundTrip() throws {
        // 48 types, structs and arrays in turn, every one met on each element: more than the
        // encoder's cache of recent types holds, so some share its slots and evict others. Each
        // struct type has a class name of its own, which a mix-up in the cache would show.
        var encoder = KeyedArchiveEncoder()
        try Self.nest("leaf", depth: 48, encoder: &encoder)
    }

    private static func nest<T: Codable & Equatable>(
        _ value: T,
        depth: Int,
        encoder: inout KeyedArchiveEncoder
    ) throws {
        guard depth > 0 else {
            let values = [value, value, value]
            for mode in [DirectArchiving.enabled, .disabled] {
                encoder.directArchiving = mode
                let data = try encoder.encode(values)
                #expect(try KeyedArchiveDecoder().decode([T].self, from: data) == values)
                // Each level as its own type writes it: a struct's fields and class, an array.
                let root = try ArchivedValue(archive: KeyedArchive(parsing: data))["root"]
                for index in values.indices {
                    var level = root?[index]
                    var levels = 0
                    while case .array(let elements, let className) = level, elements.count == 1 {
                        #expect(className == "NSArray")
                        guard case .object(let name, _, let fields) = elements[0] else { break }
                        levels += 2
                        #expect(name == "Layer\(levels)")
                        #expect(fields.map(\.key) == ["inner", "depth"])
                        level = fields.first?.value
                    }
                    #expect(level == .string("leaf"))
                    #expect(levels == 48)
                }
            }
            return
        }
        if depth.isMultiple(of: 2) {
            encoder.setClassName("Layer\(depth)", for: Layer<T>.self)
            try Self.nest(Layer(inner: value, depth: depth), depth: depth - 1, encoder: &encoder)
        } else {
            try Self.nest([value], depth: depth - 1, encoder: &encoder)
        }
    }

    @Test func anArchiveAfterALargerOneHoldsOnlyItsOwnObjects() throws {
        let encoder = KeyedArchiveEncoder()
        _ = try encoder.encode(Self.pets(2_000, prefix: "large"))
        let archive = try KeyedArchive(parsing: encoder.encode(Friend(name: "Ada", age: 3)))
        // $null, the Friend object, its name, its class.
        #expect(archive.objects.count == 4)
        #expect(archive.objects.contains(.string("Ada")))
    }

    @Test func concurrentEncodingsMatchSerialOnes() async throws {
        let inputs = (0..<8).map { Self.pets(50 + $0 * 40, prefix: "task \($0)") }
        let serial = try inputs.map { try KeyedArchiveEncoder().encode($0) }
        let concurrent = try await withThrowingTaskGroup(of: (Int, [Data]).self) { group in
            for (index, input) in inputs.enumerated() {
                group.addTask {
                    (index, try (0..<10).map { _ in try KeyedArchiveEncoder().encode(input) })
                }
            }
            var results = [[Data]](repeating: [], count: inputs.count)
            for try await (index, outputs) in group { results[index] = outputs }
            return results
        }
        for (index, outputs) in concurrent.enumerated() {
            #expect(outputs.allSatisfy { $0 == serial[index] }, "task \(index)")
        }
    }
}

/// The encoder reuses a finished encoding's session (its tables, caches and encoders) for the next
/// one; these check that nothing of one encoding reaches another.
@Suite struct EncoderSessionReuseTests {
    typealias Friend = EncoderStorageReuseTests.Friend

    /// Keeps the container its `encode(to:)` was given, to write to it after encoding returned.
    struct Escaping: Encodable {
        // Used by one test only.
        nonisolated(unsafe) static var kept: KeyedEncodingContainer<Key>?

        enum Key: CodingKey { case name, late }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Key.self)
            try container.encode("escaping", forKey: .name)
            Self.kept = container
        }
    }

    /// Writes a key, then throws.
    struct Failing: Encodable {
        struct Failure: Error {}
        enum Key: CodingKey { case name }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Key.self)
            try container.encode("half written", forKey: .name)
            throw Failure()
        }
    }

    final class Token: Sendable {}

    @Test func aContainerKeptPastItsEncodingNeverWritesIntoALaterArchive() throws {
        let value = EncoderStorageReuseTests.pets(5, prefix: "reference")
        let encoder = KeyedArchiveEncoder()
        let reference = try encoder.encode(value)
        _ = try encoder.encode(Escaping())
        #expect(try encoder.encode(value) == reference)
        try Escaping.kept?.encode("written late", forKey: .late)
        Escaping.kept = nil
        #expect(try encoder.encode(value) == reference)
        #expect(try encoder.encode(value) == reference)
    }

    @Test func anEncodingThatThrowsLeavesNothingBehind() throws {
        let value = EncoderStorageReuseTests.pets(5, prefix: "reference")
        let encoder = KeyedArchiveEncoder()
        let reference = try encoder.encode(value)
        #expect(throws: Failing.Failure.self) {
            try encoder.encode([AnyEncodable(Friend(name: "first", age: 1)), AnyEncodable(Failing())])
        }
        #expect(try encoder.encode(value) == reference)
    }

    @Test func classNamesOfOneEncoderDoNotCarryOverToTheNext() throws {
        var renaming = KeyedArchiveEncoder()
        renaming.setClassName("Renamed", for: Friend.self)
        let plain = KeyedArchiveEncoder()
        let friend = Friend(name: "Ada", age: 3)
        // Whether the archive names the class "Renamed", in a class dictionary's `$classname`.
        let className = { (bytes: Data) in
            try KeyedArchive(parsing: bytes).objects.contains {
                guard case .dictionary(let dictionary) = $0 else { return false }
                return dictionary["$classname"] == .string("Renamed")
            }
        }
        #expect(try className(renaming.encode(friend)))
        #expect(try !className(plain.encode(friend)))
        #expect(try className(renaming.encode(friend)))
        #expect(try !className(plain.encode([friend])))
    }

    @Test func userInfoIsNotKeptAfterEncoding() throws {
        weak var weakToken: Token?
        try {
            let token = Token()
            weakToken = token
            var encoder = KeyedArchiveEncoder()
            encoder.userInfo[CodingUserInfoKey(rawValue: "token")!] = token
            _ = try encoder.encode(Friend(name: "Ada", age: 3))
        }()
        #expect(weakToken == nil)
    }
}

/// Any encodable value, to put values of several types in one array.
private struct AnyEncodable: Encodable {
    let value: any Encodable
    init(_ value: any Encodable) { self.value = value }
    func encode(to encoder: any Encoder) throws { try self.value.encode(to: encoder) }
}
