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

/// Where a value being decoded sits: the container's coding path, the key or index within it, and
/// the object that holds it. The value's own coding path node is made only when it is needed (to
/// decode a nested type, or for an error), so decoding a scalar allocates nothing.
internal struct ArchiveDecodingPosition {
    /// The coding path of the container.
    ///
    /// Unowned: a position lives only for the call that decodes one value, while its container
    /// (or the decoder's state, or the caller) holds the node, and not counting the reference
    /// saves a retain and a release per value.
    unowned(unsafe) let parent: CodingPathNode
    /// The key or index within the container; `nil` for a single value container's own value.
    let key: (any CodingKey)?
    /// The object whose container holds the value, if it is an object.
    let owner: UID?

    /// The coding path of the value.
    @inline(__always)
    var node: CodingPathNode {
        self.parent.appending(self.key)
    }

    /// Describes the position for an error message, such as
    /// `at key "age" of object UID(3) (class Cat)`.
    @inline(never)
    func describe(in session: ArchiveDecodingSession) -> String {
        guard let key else { return "" }
        var text: String
        if let indexKey = key as? ArchiveDecodingIndexKey {
            text = " at index \(indexKey.index)"
        } else {
            text = " at key \"\(key.stringValue)\""
        }
        if let owner { text += " of " + session.describe(owner) }
        return text
    }
}

/// The coding key of an array element: `Index 3`, with the string made only when asked for.
internal struct ArchiveDecodingIndexKey: CodingKey {
    /// The element's position.
    let index: Int

    init(_ index: Int) {
        self.index = index
    }

    init?(stringValue: String) {
        return nil
    }

    init?(intValue: Int) {
        self.index = intValue
    }

    var stringValue: String { "Index \(self.index)" }

    var intValue: Int? { self.index }
}
