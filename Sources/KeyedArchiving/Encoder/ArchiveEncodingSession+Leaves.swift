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

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension ArchiveEncodingSession {
    /// A value stored as a plain leaf object: a string, data, or a number or Boolean.
    enum Leaf {
        case string(String)
        case data(Data)
        case scalar(ArchiveEncodingTable.Value)
    }

    /// The property list value of a scalar (`Bool`, any integer, `Float`, `Double`), or `nil` for
    /// any other type. Scalars are stored inline in an object's own dictionary.
    ///
    /// An `Int128` or `UInt128` outside `Int64.min...UInt64.max` is not a scalar here; its
    /// `encode(to:)` reaches a container that throws with the coding path.
    @inline(__always)
    static func scalarValue<T>(_ value: T) -> ArchiveEncodingTable.Value? {
        if T.self == Int.self, case let value = Self.reinterpret(value, as: Int.self) { return .integer(Int64(value)) }
        if T.self == Double.self, case let value = Self.reinterpret(value, as: Double.self) { return .real(value) }
        if T.self == Bool.self, case let value = Self.reinterpret(value, as: Bool.self) { return .bool(value) }
        return Self.uncommonScalarValue(value)
    }

    private static func uncommonScalarValue<T>(_ value: T) -> ArchiveEncodingTable.Value? {
        if T.self == Float.self, case let value = Self.reinterpret(value, as: Float.self) { return .float(value) }
        if T.self == Int64.self, case let value = Self.reinterpret(value, as: Int64.self) { return .integer(value) }
        if T.self == Int32.self, case let value = Self.reinterpret(value, as: Int32.self) {
            return .integer(Int64(value))
        }
        if T.self == Int16.self, case let value = Self.reinterpret(value, as: Int16.self) {
            return .integer(Int64(value))
        }
        if T.self == Int8.self, case let value = Self.reinterpret(value, as: Int8.self) {
            return .integer(Int64(value))
        }
        if T.self == UInt.self, case let value = Self.reinterpret(value, as: UInt.self) {
            return .integer(UInt64(value))
        }
        if T.self == UInt64.self, case let value = Self.reinterpret(value, as: UInt64.self) { return .integer(value) }
        if T.self == UInt32.self, case let value = Self.reinterpret(value, as: UInt32.self) {
            return .integer(UInt64(value))
        }
        if T.self == UInt16.self, case let value = Self.reinterpret(value, as: UInt16.self) {
            return .integer(UInt64(value))
        }
        if T.self == UInt8.self, case let value = Self.reinterpret(value, as: UInt8.self) {
            return .integer(UInt64(value))
        }
        if #available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *) {
            if T.self == Int128.self, case let value = Self.reinterpret(value, as: Int128.self),
                let integer = PropertyListInteger(exactly: value)
            {
                return .integer(integer)
            }
            if T.self == UInt128.self, case let value = Self.reinterpret(value, as: UInt128.self),
                let integer = PropertyListInteger(exactly: value)
            {
                return .integer(integer)
            }
        }
        return nil
    }

    /// `value` as the type it is, `U`, which the caller has checked `T` to be: a reinterpretation
    /// with no runtime cast, which `as?` would make where `T` is not specialised (a call from
    /// generated code in another module).
    @inline(__always)
    static func reinterpret<T, U>(_ value: T, as type: U.Type) -> U {
        unsafeBitCast(value, to: U.self)
    }

    /// The leaf a value is stored as (string, scalar, data), or `nil` for any other type.
    @inline(__always)
    static func leafValue<T>(_ value: T) -> Leaf? {
        if T.self == String.self, case let value = Self.reinterpret(value, as: String.self) { return .string(value) }
        if let scalar = Self.scalarValue(value) { return .scalar(scalar) }
        if T.self == Data.self, case let value = Self.reinterpret(value, as: Data.self) { return .data(value) }
        return nil
    }
}
