//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-keyed-archive open source project
//
// Licensed under Apache License v2.0
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// A coding path as a persistent linked list: pushing a key is one allocation, and the
/// `[any CodingKey]` array is built only when asked for (usually for an error).
///
/// A node never changes while anything but its creator refers to it: the decoder reuses a node
/// only once `isKnownUniquelyReferenced` shows that nothing else holds it (see ``reset(parent:key:)``),
/// and never the shared ``root``. That is what makes the unchecked `Sendable` sound.
internal final class CodingPathNode: @unchecked Sendable {
    // No access to these overlaps another, and `@exclusivity(unchecked)` drops the dynamic checks,
    // which cost more than reusing the node saves.

    /// The path this node extends; `nil` for the root.
    @exclusivity(unchecked) private(set) var parent: CodingPathNode?
    /// The last key of the path; `nil` for the root.
    @exclusivity(unchecked) private(set) var key: (any CodingKey)?
    /// The number of keys in the path.
    @exclusivity(unchecked) private(set) var depth: Int

    /// The empty path.
    static let root = CodingPathNode()

    private init() {
        self.parent = nil
        self.key = nil
        self.depth = 0
    }

    private init(parent: CodingPathNode, key: any CodingKey) {
        self.parent = parent
        self.key = key
        self.depth = parent.depth + 1
    }

    /// This path extended by `key`.
    func appending(_ key: any CodingKey) -> CodingPathNode {
        CodingPathNode(parent: self, key: key)
    }

    /// This path extended by `key`, or this path when `key` is `nil`.
    func appending(_ key: (any CodingKey)?) -> CodingPathNode {
        guard let key else { return self }
        return CodingPathNode(parent: self, key: key)
    }

    /// Makes this node the path `parent` extended by `key`, saving an allocation.
    ///
    /// Only for a node that nothing else refers to: its owner must have checked it with
    /// `isKnownUniquelyReferenced`.
    func reset(parent: CodingPathNode, key: any CodingKey) {
        self.parent = parent
        self.key = key
        self.depth = parent.depth + 1
    }

    /// Lets go of this node's parent until the node is reset: the node then stands for no path,
    /// and its key, kept, is replaced by the reset.
    ///
    /// Only for a node that nothing else refers to, as for ``reset(parent:key:)``.
    func detach() {
        self.parent = nil
    }

    /// The keys from the root.
    var path: [any CodingKey] {
        var keys: [any CodingKey] = []
        keys.reserveCapacity(self.depth)
        var node: CodingPathNode? = self
        while let current = node, let key = current.key {
            keys.append(key)
            node = current.parent
        }
        return keys.reversed()
    }
}

/// A coding key made at run time: a string key, or an array index.
internal struct ArchiveCodingKey: CodingKey, Sendable {
    var stringValue: String
    var intValue: Int?

    init(stringValue: String) {
        self.stringValue = stringValue
        self.intValue = nil
    }

    init(intValue: Int) {
        self.stringValue = "Index \(intValue)"
        self.intValue = intValue
    }

    init(index: Int) {
        self.init(intValue: index)
    }

    /// The key Codable uses for `super`.
    static let `super` = ArchiveCodingKey(stringValue: "super")
}
