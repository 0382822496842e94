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
import Testing

/// The decoder reuses coding path nodes from value to value, hands single value containers its
/// own state, and reads arrays of strings in a loop of their own: coding paths, errors and
/// values must come out as if every value had its own.
@Suite struct DecoderStateReuseTests {
    /// A value that records the coding paths its decoder and containers report.
    struct PathProbe: Codable, Equatable {
        var name: String
        var place: Place?
        var tags: [String]

        /// The paths seen while decoding; not encoded.
        var seen: [String] = []

        enum CodingKeys: String, CodingKey { case name, place, tags }

        init(name: String, place: Place?, tags: [String]) {
            self.name = name
            self.place = place
            self.tags = tags
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            self.name = try container.decode(String.self, forKey: .name)
            self.place = try container.decodeIfPresent(Place.self, forKey: .place)
            self.tags = try container.decode([String].self, forKey: .tags)
            // Read after the nested values were decoded, which reuse nodes at deeper levels.
            self.seen = [Self.render(decoder.codingPath), Self.render(container.codingPath)] + (self.place?.seen ?? [])
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(self.name, forKey: .name)
            try container.encodeIfPresent(self.place, forKey: .place)
            try container.encode(self.tags, forKey: .tags)
        }

        static func render(_ path: [any CodingKey]) -> String {
            path.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: "/")
        }
    }

    /// A nested value that records its path, and reads a wrapped single value.
    struct Place: Codable, Equatable {
        var city: Wrapped
        var seen: [String] = []

        enum CodingKeys: String, CodingKey { case city }

        init(city: String) {
            self.city = Wrapped(value: city)
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            self.city = try container.decode(Wrapped.self, forKey: .city)
            self.seen = [PathProbe.render(container.codingPath), self.city.path]
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(self.city, forKey: .city)
        }
    }

    /// A string wrapped in a single value container, remembering the container's path.
    struct Wrapped: Codable, Equatable {
        var value: String
        var path = ""

        init(value: String) {
            self.value = value
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            self.value = try container.decode(String.self)
            self.path = PathProbe.render(container.codingPath)
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(self.value)
        }
    }

    @Test func codingPathsStayRightWhenNodesAreReused() throws {
        let probes = (0..<5).map { index in
            PathProbe(
                name: "cat \(index)",
                place: index % 2 == 0 ? Place(city: "city \(index)") : nil,
                tags: Array(repeating: "tag", count: index)
            )
        }
        let data = try KeyedArchiveEncoder().encode(probes)
        let decoded = try KeyedArchiveDecoder().decode([PathProbe].self, from: data)
        #expect(decoded.map(\.name) == probes.map(\.name))
        #expect(decoded.map(\.tags) == probes.map(\.tags))
        #expect(decoded.map { $0.place?.city.value } == probes.map { $0.place?.city.value })
        for (index, probe) in decoded.enumerated() {
            var expected = ["[\(index)]", "[\(index)]"]
            if index % 2 == 0 { expected += ["[\(index)]/place", "[\(index)]/place/city"] }
            #expect(probe.seen == expected)
        }
    }

    /// An array element whose nested value cannot decode, after elements that could.
    struct Strict: Decodable {
        var place: StrictPlace
    }

    struct StrictPlace: Decodable {
        var city: Int
    }

    struct Loose: Encodable {
        var place: LoosePlace
    }

    struct LoosePlace: Encodable {
        var city: String
    }

    @Test func errorPathsAfterReusedNodesNameTheFailingValue() throws {
        let data = try KeyedArchiveEncoder().encode((0..<4).map { Loose(place: LoosePlace(city: "c\($0)")) })
        do {
            _ = try KeyedArchiveDecoder().decode([Strict].self, from: data)
            Issue.record("expected a type mismatch")
        } catch DecodingError.typeMismatch(_, let context) {
            #expect(PathProbe.render(context.codingPath) == "[0]/place/city")
        }
        // The later elements fail at their own index once the earlier ones decode.
        struct Lenient: Decodable {
            var place: LenientPlace
        }
        struct LenientPlace: Decodable {
            var city: Int
            init(from decoder: any Decoder) throws {
                let container = try decoder.container(keyedBy: CodingKeys.self)
                let text = try container.decode(String.self, forKey: .city)
                guard text != "c2" else {
                    throw DecodingError.dataCorruptedError(forKey: .city, in: container, debugDescription: "c2")
                }
                self.city = 0
            }
            enum CodingKeys: String, CodingKey { case city }
        }
        do {
            _ = try KeyedArchiveDecoder().decode([Lenient].self, from: data)
            Issue.record("expected data corruption")
        } catch DecodingError.dataCorrupted(let context) {
            #expect(PathProbe.render(context.codingPath) == "[2]/place/city")
        }
    }

    enum Sex: String, Codable {
        case female, male
    }

    @Test func singleValueContainersReportTheirValuesErrors() throws {
        let data = try KeyedArchiveEncoder().encode(["female", "male", "neither"])
        #expect(
            try KeyedArchiveDecoder().decode([Sex?].self, from: try KeyedArchiveEncoder().encode(["male"])) == [.male]
        )
        do {
            _ = try KeyedArchiveDecoder().decode([Sex].self, from: data)
            Issue.record("expected data corruption")
        } catch DecodingError.dataCorrupted(let context) {
            #expect(PathProbe.render(context.codingPath) == "[2]")
        }
    }

    @Test func stringArraysDecodeFromEveryCollectionForm() throws {
        let strings = ["a", "b", "é", "東京"]
        let encoder = KeyedArchiveEncoder()
        #expect(try KeyedArchiveDecoder().decode([String].self, from: try encoder.encode(strings)) == strings)
        let set = try KeyedArchiveDecoder().decode([String].self, from: try encoder.encode(Set(strings)))
        #expect(set.sorted() == strings.sorted())
        #expect(try KeyedArchiveDecoder().decode([String].self, from: try encoder.encode([String]())) == [])
    }

    @Test func stringArraysReportTheFailingElement() throws {
        let data = try KeyedArchiveEncoder().encode(Mixed())
        do {
            _ = try KeyedArchiveDecoder().decode(Box.self, from: data)
            Issue.record("expected a type mismatch")
        } catch DecodingError.typeMismatch(let type, let context) {
            #expect(ObjectIdentifier(type) == ObjectIdentifier(String.self))
            #expect(PathProbe.render(context.codingPath) == "values/[1]")
        }
    }

    /// Encodes `values` as an array holding a string, then a number.
    struct Mixed: Encodable {
        enum CodingKeys: String, CodingKey { case values }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            var values = container.nestedUnkeyedContainer(forKey: .values)
            try values.encode("one")
            try values.encode(2)
        }
    }

    struct Box: Decodable {
        var values: [String]
    }
}
