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

// Number coercion. A stored number decodes into the requested type only when the type represents
// it exactly; anything else is a type mismatch (see "Numbers" in ArchiveFormat.md).

extension _ArchiveDecoder {
    /// An integer type: from an integer it holds, an integral real in range, or a Boolean as 0 or 1.
    @inline(__always)
    func unboxInteger<I: FixedWidthInteger>(
        _ type: I.Type,
        _ object: InPlaceValue,
        uid: UID?,
        at position: ArchiveDecodingPosition
    ) throws -> I {
        if let exact = Self.exactInteger(type, object) { return exact }
        throw self.numberMismatch(type, object, uid: uid, at: position)
    }

    /// The rule of ``unboxInteger(_:_:uid:at:)``: the value, or `nil` where it throws.
    @inline(__always)
    static func exactInteger<I: FixedWidthInteger>(_ type: I.Type, _ object: InPlaceValue) -> I? {
        switch object {
        case .integer(let value): value.exactly(I.self)
        case .real(let value): I(exactly: value)
        case .float(let value): I(exactly: value)
        case .bool(let value): value ? 1 : 0
        default: nil
        }
    }

    /// `Double`: from a real, a 32-bit real, or an integer that converts exactly.
    @inline(__always)
    func unboxDouble(
        _ object: InPlaceValue,
        uid: UID?,
        at position: ArchiveDecodingPosition
    ) throws -> Double {
        if let exact = Self.exactDouble(object) { return exact }
        throw self.numberMismatch(Double.self, object, uid: uid, at: position)
    }

    /// The rule of ``unboxDouble(_:uid:at:)``: the value, or `nil` where it throws.
    @inline(__always)
    static func exactDouble(_ object: InPlaceValue) -> Double? {
        switch object {
        case .real(let value): value
        case .float(let value): Double(value)
        case .integer(let value): Self.floatingPoint(Double.self, exactly: value)
        default: nil
        }
    }

    /// `Float`: from a 32-bit real, a real that converts exactly (or is NaN or infinite), or an
    /// integer that converts exactly.
    @inline(__always)
    func unboxFloat(
        _ object: InPlaceValue,
        uid: UID?,
        at position: ArchiveDecodingPosition
    ) throws -> Float {
        if let exact = Self.exactFloat(object) { return exact }
        throw self.numberMismatch(Float.self, object, uid: uid, at: position)
    }

    /// The rule of ``unboxFloat(_:uid:at:)``: the value, or `nil` where it throws.
    @inline(__always)
    static func exactFloat(_ object: InPlaceValue) -> Float? {
        switch object {
        case .float(let value): value
        case .real(let value): value.isNaN ? .nan : Float(exactly: value)
        case .integer(let value): Self.floatingPoint(Float.self, exactly: value)
        default: nil
        }
    }

    /// `Bool`: from a Boolean, or an integer that is 0 or 1.
    @inline(__always)
    func unboxBool(
        _ object: InPlaceValue,
        uid: UID?,
        at position: ArchiveDecodingPosition
    ) throws -> Bool {
        if let exact = Self.exactBool(object) { return exact }
        throw self.numberMismatch(Bool.self, object, uid: uid, at: position)
    }

    /// The rule of ``unboxBool(_:uid:at:)``: the value, or `nil` where it throws.
    @inline(__always)
    static func exactBool(_ object: InPlaceValue) -> Bool? {
        switch object {
        case .bool(let value): value
        case .integer(let value) where value == 0: false
        case .integer(let value) where value == 1: true
        default: nil
        }
    }

    /// A standard number or Boolean type's value of `object` (`Int`, `Int8`…`Int64`, `UInt`,
    /// `UInt8`…`UInt64`, `Float`, `Double`, `Bool`, which ``isScalar(_:)`` tells), by the rules of
    /// the unboxing methods above; `otherwise` where they would throw. The rule is chosen by the
    /// metatype, with no runtime cast, and the value is returned as `T` itself: an optional `T`
    /// would cost a metadata lookup on every call where `T` is not specialised.
    @inline(__always)
    static func exactScalar<T>(_ type: T.Type, _ object: InPlaceValue, otherwise: () throws -> T) rethrows -> T {
        // Each branch converts to a concrete type and reinterprets it: a generic helper here would
        // look up the metadata of its own optional on every call.
        if T.self == Int.self {
            guard let value = Self.exactInteger(Int.self, object) else { return try otherwise() }
            return unsafeBitCast(value, to: T.self)
        }
        if T.self == Double.self {
            guard let value = Self.exactDouble(object) else { return try otherwise() }
            return unsafeBitCast(value, to: T.self)
        }
        if T.self == Bool.self {
            guard let value = Self.exactBool(object) else { return try otherwise() }
            return unsafeBitCast(value, to: T.self)
        }
        if T.self == Float.self {
            guard let value = Self.exactFloat(object) else { return try otherwise() }
            return unsafeBitCast(value, to: T.self)
        }
        if T.self == Int64.self {
            guard let value = Self.exactInteger(Int64.self, object) else { return try otherwise() }
            return unsafeBitCast(value, to: T.self)
        }
        if T.self == UInt64.self {
            guard let value = Self.exactInteger(UInt64.self, object) else { return try otherwise() }
            return unsafeBitCast(value, to: T.self)
        }
        if T.self == Int32.self {
            guard let value = Self.exactInteger(Int32.self, object) else { return try otherwise() }
            return unsafeBitCast(value, to: T.self)
        }
        if T.self == UInt32.self {
            guard let value = Self.exactInteger(UInt32.self, object) else { return try otherwise() }
            return unsafeBitCast(value, to: T.self)
        }
        if T.self == Int16.self {
            guard let value = Self.exactInteger(Int16.self, object) else { return try otherwise() }
            return unsafeBitCast(value, to: T.self)
        }
        if T.self == UInt16.self {
            guard let value = Self.exactInteger(UInt16.self, object) else { return try otherwise() }
            return unsafeBitCast(value, to: T.self)
        }
        if T.self == Int8.self {
            guard let value = Self.exactInteger(Int8.self, object) else { return try otherwise() }
            return unsafeBitCast(value, to: T.self)
        }
        if T.self == UInt8.self {
            guard let value = Self.exactInteger(UInt8.self, object) else { return try otherwise() }
            return unsafeBitCast(value, to: T.self)
        }
        if T.self == UInt.self {
            guard let value = Self.exactInteger(UInt.self, object) else { return try otherwise() }
            return unsafeBitCast(value, to: T.self)
        }
        return try otherwise()
    }

    /// Whether ``exactScalar(_:_:otherwise:)`` reads values of `type`.
    @inline(__always)
    static func isScalar<T>(_ type: T.Type) -> Bool {
        T.self == Int.self || T.self == Double.self || T.self == Bool.self || T.self == Float.self
            || T.self == Int64.self || T.self == UInt64.self || T.self == Int32.self || T.self == UInt32.self
            || T.self == Int16.self || T.self == UInt16.self || T.self == Int8.self || T.self == UInt8.self
            || T.self == UInt.self
    }

    private static func floatingPoint<F: BinaryFloatingPoint>(
        _: F.Type,
        exactly value: PropertyListInteger
    ) -> F? {
        if let signed = value.int64Value { return F(exactly: signed) }
        if let unsigned = value.uint64Value { return F(exactly: unsigned) }
        return nil
    }

    /// A number that the type cannot hold exactly, or a value that is not a number.
    @inline(never)
    private func numberMismatch(
        _ type: Any.Type,
        _ object: InPlaceValue,
        uid: UID?,
        at position: ArchiveDecodingPosition
    ) -> DecodingError {
        let detail: String
        switch object {
        case .integer, .real, .float, .bool: detail = "\(type) cannot represent it exactly"
        default: detail = ""
        }
        return self.mismatch(type, object: object, uid: uid, at: position, detail: detail)
    }
}
