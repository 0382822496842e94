//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-keyed-archive open source project
//
// Licensed under Apache License v2.0
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

public import Foundation

/// The model `FuzzCodableDecoder` decodes into: strings, optionals, arrays, dictionaries, sets,
/// `Date`, `Data`, `UUID`, `URL`, nested structs, a class reachable from several places, and
/// enums with payloads.
public struct FuzzModel: Codable, Equatable, Sendable {
    public var name: String
    public var nickname: String?
    public var count: Int
    public var ratio: Double
    public var flag: Bool
    public var numbers: [Int]
    public var tags: Set<String>
    public var scores: [String: Double]
    public var created: Date
    public var payload: Data
    public var id: UUID
    public var link: URL?
    public var child: Child
    public var children: [Child]
    public var first: Node
    public var second: Node
    public var nodes: [Node]
    public var shape: Shape
    public var shapes: [Shape]
    public var kind: Kind

    public init(
        name: String,
        nickname: String?,
        count: Int,
        ratio: Double,
        flag: Bool,
        numbers: [Int],
        tags: Set<String>,
        scores: [String: Double],
        created: Date,
        payload: Data,
        id: UUID,
        link: URL?,
        child: Child,
        children: [Child],
        first: Node,
        second: Node,
        nodes: [Node],
        shape: Shape,
        shapes: [Shape],
        kind: Kind
    ) {
        self.name = name
        self.nickname = nickname
        self.count = count
        self.ratio = ratio
        self.flag = flag
        self.numbers = numbers
        self.tags = tags
        self.scores = scores
        self.created = created
        self.payload = payload
        self.id = id
        self.link = link
        self.child = child
        self.children = children
        self.first = first
        self.second = second
        self.nodes = nodes
        self.shape = shape
        self.shapes = shapes
        self.kind = kind
    }

    /// A nested struct, itself holding optionals and a nested collection.
    public struct Child: Codable, Equatable, Sendable {
        public var label: String
        public var value: Int64?
        public var bytes: [UInt8]
        public var grandchildren: [Child]

        public init(label: String, value: Int64?, bytes: [UInt8], grandchildren: [Child] = []) {
            self.label = label
            self.value = value
            self.bytes = bytes
            self.grandchildren = grandchildren
        }
    }

    /// A class, so one instance can be archived once and referenced several times.
    public final class Node: Codable, Equatable, @unchecked Sendable {
        public var title: String
        public var weight: Float
        public var next: Node?

        public init(title: String, weight: Float, next: Node? = nil) {
            self.title = title
            self.weight = weight
            self.next = next
        }

        public static func == (lhs: Node, rhs: Node) -> Bool {
            lhs === rhs || (lhs.title == rhs.title && lhs.weight == rhs.weight && lhs.next == rhs.next)
        }
    }

    /// An enum with payloads.
    public enum Shape: Codable, Equatable, Sendable {
        case point
        case circle(radius: Double)
        case rectangle(width: Int, height: Int)
        case labelled(String, Child)
        case polygon([Double])
    }

    /// An enum with a raw value.
    public enum Kind: String, Codable, Equatable, Sendable {
        case small
        case large
    }
}

extension FuzzModel {
    /// A few model values that cover every field shape, for the seed corpus.
    public static var samples: [FuzzModel] {
        let shared = Node(title: "shared", weight: 1.5, next: Node(title: "tail", weight: -2))
        let child = Child(label: "child", value: 42, bytes: [1, 2, 3])
        let full = FuzzModel(
            name: "full",
            nickname: "nick",
            count: -7,
            ratio: 0.25,
            flag: true,
            numbers: [1, 2, 3, Int.max, Int.min],
            tags: ["a", "b", "ünïcødé"],
            scores: ["x": 1.0, "y": -0.5],
            created: Date(timeIntervalSinceReferenceDate: 700_000_000.5),
            payload: Data([0, 1, 2, 0xFF]),
            id: UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!,
            link: URL(string: "https://example.com/path?q=1"),
            child: Child(label: "outer", value: nil, bytes: [], grandchildren: [child]),
            children: [child, child],
            first: shared,
            second: shared,
            nodes: [shared, Node(title: "other", weight: 0)],
            shape: .labelled("label", child),
            shapes: [.point, .circle(radius: 2), .rectangle(width: 3, height: 4), .polygon([1, 2, 3])],
            kind: .large
        )
        let node = Node(title: "n", weight: 0)
        let minimal = FuzzModel(
            name: "",
            nickname: nil,
            count: 0,
            ratio: 0,
            flag: false,
            numbers: [],
            tags: [],
            scores: [:],
            created: Date(timeIntervalSinceReferenceDate: 0),
            payload: Data(),
            id: UUID(uuidString: "00000000-0000-0000-0000-000000000000")!,
            link: nil,
            child: Child(label: "", value: nil, bytes: []),
            children: [],
            first: node,
            second: Node(title: "n", weight: 0),
            nodes: [],
            shape: .point,
            shapes: [],
            kind: .small
        )
        return [full, minimal]
    }
}
