//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-keyed-archive open source project
//
// Licensed under Apache License v2.0
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// The one range check for a number read from the input (an object reference, a UID, a position)
/// before it indexes a table: every reader and decoder turns such a number into an `Int` here, so
/// that none is truncated, negative or past the end when it reaches a subscript.
///
/// A reference of 8 bytes, or a UID, can be any `UInt64`; turned into an `Int` with
/// `truncatingIfNeeded`, one of 2^63 or more becomes negative and passes a check of `< count`
/// alone. Both forms here compare as unsigned numbers, so a negative `Int` is out of range too.
@usableFromInline
package enum TableIndex {
    /// `number` as an index into a table of `count` entries, or `nil` if it is not below `count`.
    @inlinable @inline(__always)
    package static func checked(_ number: UInt64, count: Int) -> Int? {
        number < UInt64(UInt(bitPattern: count)) ? Int(truncatingIfNeeded: number) : nil
    }

    /// `number` as an index into a table of `count` entries, or `nil` if it is negative or not
    /// below `count`.
    @inlinable @inline(__always)
    package static func checked(_ number: Int, count: Int) -> Int? {
        UInt(bitPattern: number) < UInt(bitPattern: count) ? number : nil
    }

    /// Whether `number` indexes a table of `count` entries: neither negative nor past the end.
    @inlinable @inline(__always)
    package static func contains(_ number: Int, count: Int) -> Bool {
        UInt(bitPattern: number) < UInt(bitPattern: count)
    }
}

extension UID {
    /// The index of the object this UID refers to in a table of `count` objects, or `nil` if it
    /// refers to none (see ``TableIndex``).
    @inlinable @inline(__always)
    package func index(below count: Int) -> Int? {
        TableIndex.checked(self.rawValue, count: count)
    }
}
