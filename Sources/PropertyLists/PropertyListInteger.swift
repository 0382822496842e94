//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-keyed-archive open source project
//
// Licensed under Apache License v2.0
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// A property list integer: any value from `Int64.min` through `UInt64.max`.
///
/// Binary property lists store integers above `Int64.max` as 16-byte integers, so neither `Int64`
/// nor `UInt64` alone holds every value a property list can carry. This type does, with exactly one
/// representation per value, so equality and hashing compare numbers.
///
/// ```swift
/// let big: PropertyListInteger = PropertyListInteger(UInt64.max)
/// big.int64Value   // nil
/// big.uint64Value  // 18446744073709551615
/// ```
public struct PropertyListInteger: Hashable, Comparable, Sendable, ExpressibleByIntegerLiteral,
    CustomStringConvertible
{
    /// The two's complement bits when negative, the magnitude otherwise.
    @usableFromInline
    internal let bits: UInt64
    /// Whether the value is below zero.
    public let isNegative: Bool

    /// Creates an integer from a signed 64-bit value.
    @inlinable
    public init(_ value: Int64) {
        self.bits = UInt64(bitPattern: value)
        self.isNegative = value < 0
    }

    /// Creates an integer from an unsigned 64-bit value.
    @inlinable
    public init(_ value: UInt64) {
        self.bits = value
        self.isNegative = false
    }

    /// Creates an integer from any binary integer, or returns `nil` if the value lies outside
    /// `Int64.min...UInt64.max`.
    @inlinable
    public init?(exactly value: some BinaryInteger) {
        if value < 0 {
            guard let signed = Int64(exactly: value) else { return nil }
            self.init(signed)
        } else {
            guard let unsigned = UInt64(exactly: value) else { return nil }
            self.init(unsigned)
        }
    }

    /// Creates an integer from an integer literal.
    @inlinable
    public init(integerLiteral value: Int64) {
        self.init(value)
    }

    /// The value as `Int64`, or `nil` if it is above `Int64.max`.
    @inlinable
    public var int64Value: Int64? {
        if self.isNegative || self.bits <= UInt64(Int64.max) {
            return Int64(bitPattern: self.bits)
        }
        return nil
    }

    /// The value as `UInt64`, or `nil` if it is negative.
    @inlinable
    public var uint64Value: UInt64? {
        self.isNegative ? nil : self.bits
    }

    /// The value converted to `T`, or `nil` if `T` cannot represent it exactly.
    @inlinable
    public func exactly<T: BinaryInteger>(_: T.Type = T.self) -> T? {
        self.isNegative ? T(exactly: Int64(bitPattern: self.bits)) : T(exactly: self.bits)
    }

    public static func < (lhs: Self, rhs: Self) -> Bool {
        if lhs.isNegative != rhs.isNegative { return lhs.isNegative }
        if lhs.isNegative { return Int64(bitPattern: lhs.bits) < Int64(bitPattern: rhs.bits) }
        return lhs.bits < rhs.bits
    }

    /// The value in decimal.
    public var description: String {
        self.isNegative ? String(Int64(bitPattern: self.bits)) : String(self.bits)
    }
}
