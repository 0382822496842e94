//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-keyed-archive open source project
//
// Licensed under Apache License v2.0
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// The byte strings that start with a prefix, as a half-open range in byte order: what a prefix
/// filter reads from an index sorted by key bytes, with no pattern syntax (`LIKE` and `GLOB` would
/// treat `%`, `_`, `*` and `[` in a key as wildcards, and `LIKE` ignores ASCII case).
struct KeyPrefixRange: Equatable, Sendable {
    /// The prefix: the least byte string in the range.
    let lowerBound: [UInt8]
    /// The least byte string after every string with the prefix: the prefix without its trailing
    /// 0xFF bytes, its last byte incremented. `nil` when there is none (an empty prefix, or one of
    /// 0xFF bytes only), and every string from ``lowerBound`` on is in the range.
    let upperBound: [UInt8]?

    /// The range of the byte strings that start with `prefix`.
    init(prefix: some Collection<UInt8>) {
        self.lowerBound = Array(prefix)
        var successor = self.lowerBound
        while let last = successor.last, last == 0xFF { successor.removeLast() }
        if let last = successor.last {
            successor[successor.count - 1] = last + 1
            self.upperBound = successor
        } else {
            self.upperBound = nil
        }
    }

    /// Whether `key` starts with the prefix.
    func contains(_ key: some Sequence<UInt8>) -> Bool {
        key.starts(with: self.lowerBound)
    }
}
