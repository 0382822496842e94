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
    /// The path itself, or the encoder standing for it: one reference either way, so that passing
    /// and storing a parent retains one object.
    private enum Storage {
        /// The parent's path.
        case node(CodingPathNode)
        /// The encoder whose coding path is the parent's.
        case encoder(_ArchiveEncoder)
        /// The object a direct conformance is writing, whose coding path is the parent's.
        case frame(ArchiveObjectFrame)
    }

    /// The node or the encoder.
    private let storage: Storage

    /// A parent known by its path.
    init(_ node: CodingPathNode) {
        self.storage = .node(node)
    }

    /// A parent known by its encoder.
    init(encoder: _ArchiveEncoder) {
        self.storage = .encoder(encoder)
    }

    /// A parent known by the frame of a directly written object.
    init(frame: ArchiveObjectFrame) {
        self.storage = .frame(frame)
    }

    /// Whether the parent is known by an encoder or a frame, which are reused once their value is
    /// complete, rather than by its path.
    var isTransient: Bool {
        if case .node = self.storage { return false }
        return true
    }

    /// The parent's coding path.
    var path: CodingPathNode {
        switch self.storage {
        case .node(let node): return node
        case .encoder(let encoder): return encoder.codingPathNode
        case .frame(let frame): return frame.path
        }
    }

    /// The parent's coding path extended by `key`.
    func appending(_ key: (any CodingKey)?) -> CodingPathNode {
        self.path.appending(key)
    }
}
