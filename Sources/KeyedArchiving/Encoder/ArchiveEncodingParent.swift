//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-keyed-archive open source project
//
// Licensed under Apache License v2.0
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// Where a value is encoded: the coding path of its parent, as a node or as the encoder whose path
/// it is, so that the node is made only when a path is asked for (usually for an error).
///
/// An encoder keeps its parent encoder only while it is encoding; ``ArchiveEncodingSession`` turns
/// the reference into a node, or drops it, once the value is complete, so that a parent is never
/// kept alive, or from reuse, by a child.
internal struct ArchiveEncodingParent {
    /// The parent's path when ``encoder`` is `nil`.
    let node: CodingPathNode
    /// The encoder whose coding path is the parent's.
    let encoder: _ArchiveEncoder?

    /// A parent known by its path.
    init(_ node: CodingPathNode) {
        self.node = node
        self.encoder = nil
    }

    /// A parent known by its encoder.
    init(encoder: _ArchiveEncoder) {
        self.node = .root
        self.encoder = encoder
    }

    /// The parent's coding path.
    var path: CodingPathNode { self.encoder?.codingPathNode ?? self.node }

    /// The parent's coding path extended by `key`.
    func appending(_ key: (any CodingKey)?) -> CodingPathNode {
        self.path.appending(key)
    }
}
