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
        switch object {
        case .integer(let value):
            if let exact = value.exactly(I.self) { return exact }
        case .real(let value):
            if let exact = I(exactly: value) { return exact }
        case .float(let value):
            if let exact = I(exactly: value) { return exact }
        case .bool(let value):
            return value ? 1 : 0
        default:
            break
        }
        throw self.numberMismatch(type, object, uid: uid, at: position)
    }

    /// `Double`: from a real, a 32-bit real, or an integer that converts exactly.
    @inline(__always)
    func unboxDouble(
        _ object: InPlaceValue,
        uid: UID?,
        at position: ArchiveDecodingPosition
    ) throws -> Double {
        switch object {
        case .real(let value):
            return value
        case .float(let value):
            return Double(value)
        case .integer(let value):
            if let exact = Self.floatingPoint(Double.self, exactly: value) { return exact }
        default:
            break
        }
        throw self.numberMismatch(Double.self, object, uid: uid, at: position)
    }

    /// `Float`: from a 32-bit real, a real that converts exactly (or is NaN or infinite), or an
    /// integer that converts exactly.
    @inline(__always)
    func unboxFloat(
        _ object: InPlaceValue,
        uid: UID?,
        at position: ArchiveDecodingPosition
    ) throws -> Float {
        switch object {
        case .float(let value):
            return value
        case .real(let value):
            if value.isNaN { return .nan }
            if let exact = Float(exactly: value) { return exact }
        case .integer(let value):
            if let exact = Self.floatingPoint(Float.self, exactly: value) { return exact }
        default:
            break
        }
        throw self.numberMismatch(Float.self, object, uid: uid, at: position)
    }

    /// `Bool`: from a Boolean, or an integer that is 0 or 1.
    @inline(__always)
    func unboxBool(
        _ object: InPlaceValue,
        uid: UID?,
        at position: ArchiveDecodingPosition
    ) throws -> Bool {
        switch object {
        case .bool(let value):
            return value
        case .integer(let value):
            if value == 0 { return false }
            if value == 1 { return true }
        default:
            break
        }
        throw self.numberMismatch(Bool.self, object, uid: uid, at: position)
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
