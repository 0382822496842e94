//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-keyed-archive open source project
//
// Licensed under Apache License v2.0
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import PropertyLists

/// The encoder a keyed container's `superEncoder()` returns.
///
/// A keyed container from it writes into the same object dictionary, as `super.encode(with:)` does
/// with `NSCoder`, so a class hierarchy archives as one object whose `$classes` lists the
/// superclasses. Asking it for an unkeyed or single-value container instead stores that value as a
/// separate object under the key `super`.
///
/// Like every encoder, it may escape `encode(to:)`; writes made through it before the session
/// finishes still land in the archive.
internal final class _ArchiveSuperEncoder: Encoder {
    private let target: _ArchiveEncoder
    /// The coding path of the keyed container `superEncoder()` was called on.
    private let containerNode: CodingPathNode
    private let node: CodingPathNode
    /// The encoder of a separate `super` object, once an unkeyed or single-value container is asked for.
    private var separate: _ArchiveEncoder?

    init(target: _ArchiveEncoder, containerNode: CodingPathNode) {
        self.target = target
        self.containerNode = containerNode
        self.node = containerNode.appending(ArchiveCodingKey.super)
    }

    var codingPath: [any CodingKey] { self.node.path }

    var userInfo: [CodingUserInfoKey: Any] { self.target.session.userInfo }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        if let separate { return separate.container(keyedBy: type) }
        return KeyedEncodingContainer(_ArchiveKeyedEncodingContainer(owner: self.target, node: self.node))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        self.separateEncoder().unkeyedContainer()
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        self.separateEncoder().singleValueContainer()
    }

    private func separateEncoder() -> _ArchiveEncoder {
        if let separate { return separate }
        let key = self.target.session.table.key(ArchiveCodingKey.super.stringValue)
        let encoder = self.target.makeReferencingChild(
            parentNode: self.containerNode,
            key: ArchiveCodingKey.super,
            slot: .key(key)
        )
        self.target.setEntry(.uid(0), forKey: key)
        self.separate = encoder
        return encoder
    }
}
