//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-keyed-archive open source project
//
// Licensed under Apache License v2.0
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// How a ``BinaryTreeBuilder`` packs the state of each object, adds up decoded sizes, and builds
/// the errors of its checks.
extension BinaryTreeBuilder {
    /// The slot of an object kept as `entry`: positive, with `isDistinctASCII` in the low bit. An
    /// entry is distinct ASCII when it is an ASCII string that no other entry has the bytes of, so
    /// that keys with different such entries are different strings.
    @inline(__always)
    static func slot(entry: Int, isDistinctASCII: Bool) -> Slot {
        Slot(truncatingIfNeeded: entry &* 2 &+ (isDistinctASCII ? 3 : 2))
    }

    /// The entry a positive slot names.
    @inline(__always)
    static func entry(ofSlot slot: Slot) -> Int {
        (Int(truncatingIfNeeded: slot) &- 2) >> 1
    }

    /// The error for a reference to an object past the offset table.
    @inline(never)
    static func invalidReference(_ index: Int, objectCount: Int) -> PropertyListError {
        PropertyListError(
            .invalidReference,
            reason: "object reference \(UInt(bitPattern: index)) is not below the object count \(objectCount)"
        )
    }

    /// Adds a child's decoded size to its container's, saturating far above any budget.
    @inline(__always)
    static func adding(_ child: Int, to size: Int) -> Int {
        min(size &+ child, Int.max / 4)
    }

    /// The error for a container whose decoded size exceeds the budget.
    @inline(never)
    static func decodedSizeExceeded(budget: Int, at offset: Int) -> PropertyListError {
        PropertyListError(
            .decodedSizeLimitExceeded,
            offset: offset,
            reason: "with shared objects repeated, the value would exceed \(budget) decoded bytes"
        )
    }
}
