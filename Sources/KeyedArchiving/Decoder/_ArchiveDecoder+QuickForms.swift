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

// The quick forms read the commonest shapes at a key's reference (the UID of a string object, of
// an array of strings, of a date; an inline number or Boolean; whether a UID is nil) without the
// coding path node or position the general path makes, and return `nil` for anything else,
// faults included, which the general path then decodes or reports from the same reference.
extension _ArchiveDecoder {
    /// The string at a key, when it is the UID of a string object.
    @inline(__always)
    func quickString(at reference: Int) -> String? {
        guard let uid = self.session.reader.quickUID(at: reference), uid.rawValue != 0,
            let region = self.stringRegion(at: uid)
        else { return nil }
        return try? self.session.string(region)
    }

    /// The region of the string object `uid` refers to, a short ASCII one read without the
    /// general object reader; `nil` for any other object.
    @inline(__always)
    private func stringRegion(at uid: UID) -> InPlaceRegion? {
        if let region = self.session.quickShortString(at: uid) { return region }
        guard case .string(let region)? = try? self.session.object(at: uid) else { return nil }
        return region
    }

    /// The strings at a key, when it is the UID of an `NSArray` (or `NSSet`) of string objects
    /// that decodes as `[String]` within the limits at `depth`, the array's own.
    ///
    /// It is what ``decodeStringArray()`` returns for that object after ``decodeComposite(_:typeInfo:object:uid:at:reentrant:)``'s
    /// checks, without a coding path node: anything else returns `nil` before the decoded-size
    /// budget is charged, and the general path then decodes or reports it.
    func quickStringArray(at reference: Int, depth: Int) -> [String]? {
        self.quickArray(at: reference, depth: depth) { self.quickString(at: $0) }
    }

    /// The elements of the `NSArray` (or `NSSet`) a key's UID refers to, each read by `element`
    /// from its reference, within the limits at `depth`, the array's own; `nil` as soon as
    /// anything is not what the quick forms read, before the decoded-size budget is charged.
    @inline(__always)
    private func quickArray<Element>(
        at reference: Int,
        depth: Int,
        element: (Int) -> Element?
    ) -> [Element]? {
        let session = self.session
        guard self.allows(depth: depth),
            let uid = session.reader.quickUID(at: reference), uid.rawValue != 0, !session.isInProgress(uid),
            let stored = self.field(ArchiveFormatKey.nsObjects, of: uid, accepts: { $0 == .array || $0 == .set })
        else { return nil }
        let elements: InPlaceRegion
        switch stored {
        case .array(let region): elements = region
        case .uid(let objects):
            guard case .array(let region)? = try? session.object(at: objects) else { return nil }
            elements = region
        default: return nil
        }
        var values: [Element] = []
        values.reserveCapacity(elements.count)
        for index in 0..<elements.count {
            guard let value = element(session.reader.element(of: elements, at: index)) else { return nil }
            values.append(value)
        }
        // Charged as `unkeyedElements` charges; past the budget, the general path throws.
        guard session.charge(elements.count) else { return nil }
        return values
    }

    /// The number or Boolean object an array element's UID refers to; `nil` for anything else.
    @inline(__always)
    private func quickNumberElement(at reference: Int) -> InPlaceValue? {
        guard let uid = self.session.reader.quickUID(at: reference), uid.rawValue != 0,
            let object = try? self.session.object(at: uid), Self.isNumberOrBoolean(object)
        else { return nil }
        return object
    }

    /// An array of a standard number type or of `Bool` at a key, when ``isScalarArray(_:)`` and
    /// it is an `NSArray` (or `NSSet`) whose elements are number objects that convert by the
    /// general path's rules; `otherwise` for anything else, which the general path then reads or
    /// reports. Each branch names its element type, so that no generic optional is made.
    func quickScalarArray<T>(
        _ type: T.Type,
        at reference: Int,
        depth: Int,
        otherwise: () throws -> T
    ) rethrows -> T {
        if T.self == [Int].self {
            let values = self.quickArray(at: reference, depth: depth) {
                self.quickNumberElement(at: $0).flatMap { Self.exactInteger(Int.self, $0) }
            }
            guard let values else { return try otherwise() }
            return unsafeBitCast(values, to: T.self)
        }
        if T.self == [Double].self {
            let values = self.quickArray(at: reference, depth: depth) {
                self.quickNumberElement(at: $0).flatMap { Self.exactDouble($0) }
            }
            guard let values else { return try otherwise() }
            return unsafeBitCast(values, to: T.self)
        }
        if T.self == [Bool].self {
            let values = self.quickArray(at: reference, depth: depth) {
                self.quickNumberElement(at: $0).flatMap { Self.exactBool($0) }
            }
            guard let values else { return try otherwise() }
            return unsafeBitCast(values, to: T.self)
        }
        if T.self == [Float].self {
            let values = self.quickArray(at: reference, depth: depth) {
                self.quickNumberElement(at: $0).flatMap { Self.exactFloat($0) }
            }
            guard let values else { return try otherwise() }
            return unsafeBitCast(values, to: T.self)
        }
        if T.self == [Int64].self {
            let values = self.quickArray(at: reference, depth: depth) {
                self.quickNumberElement(at: $0).flatMap { Self.exactInteger(Int64.self, $0) }
            }
            guard let values else { return try otherwise() }
            return unsafeBitCast(values, to: T.self)
        }
        if T.self == [UInt64].self {
            let values = self.quickArray(at: reference, depth: depth) {
                self.quickNumberElement(at: $0).flatMap { Self.exactInteger(UInt64.self, $0) }
            }
            guard let values else { return try otherwise() }
            return unsafeBitCast(values, to: T.self)
        }
        if T.self == [Int32].self {
            let values = self.quickArray(at: reference, depth: depth) {
                self.quickNumberElement(at: $0).flatMap { Self.exactInteger(Int32.self, $0) }
            }
            guard let values else { return try otherwise() }
            return unsafeBitCast(values, to: T.self)
        }
        if T.self == [UInt32].self {
            let values = self.quickArray(at: reference, depth: depth) {
                self.quickNumberElement(at: $0).flatMap { Self.exactInteger(UInt32.self, $0) }
            }
            guard let values else { return try otherwise() }
            return unsafeBitCast(values, to: T.self)
        }
        if T.self == [Int16].self {
            let values = self.quickArray(at: reference, depth: depth) {
                self.quickNumberElement(at: $0).flatMap { Self.exactInteger(Int16.self, $0) }
            }
            guard let values else { return try otherwise() }
            return unsafeBitCast(values, to: T.self)
        }
        if T.self == [UInt16].self {
            let values = self.quickArray(at: reference, depth: depth) {
                self.quickNumberElement(at: $0).flatMap { Self.exactInteger(UInt16.self, $0) }
            }
            guard let values else { return try otherwise() }
            return unsafeBitCast(values, to: T.self)
        }
        if T.self == [Int8].self {
            let values = self.quickArray(at: reference, depth: depth) {
                self.quickNumberElement(at: $0).flatMap { Self.exactInteger(Int8.self, $0) }
            }
            guard let values else { return try otherwise() }
            return unsafeBitCast(values, to: T.self)
        }
        if T.self == [UInt8].self {
            let values = self.quickArray(at: reference, depth: depth) {
                self.quickNumberElement(at: $0).flatMap { Self.exactInteger(UInt8.self, $0) }
            }
            guard let values else { return try otherwise() }
            return unsafeBitCast(values, to: T.self)
        }
        if T.self == [UInt].self {
            let values = self.quickArray(at: reference, depth: depth) {
                self.quickNumberElement(at: $0).flatMap { Self.exactInteger(UInt.self, $0) }
            }
            guard let values else { return try otherwise() }
            return unsafeBitCast(values, to: T.self)
        }
        return try otherwise()
    }

    /// Whether ``quickScalarArray(_:at:depth:otherwise:)`` reads values of `type`.
    @inline(__always)
    static func isScalarArray<T>(_ type: T.Type) -> Bool {
        T.self == [Int].self || T.self == [Double].self || T.self == [Bool].self || T.self == [Float].self
            || T.self == [Int64].self || T.self == [UInt64].self || T.self == [Int32].self || T.self == [UInt32].self
            || T.self == [Int16].self || T.self == [UInt16].self || T.self == [Int8].self || T.self == [UInt8].self
            || T.self == [UInt].self
    }

    /// The stored value of `key` in the object `uid` refers to, when its class is of a kind
    /// `accepts` takes: read from the pair of a one-field Foundation object when it is one
    /// (``ArchiveDecodingSession/quickField(_:of:)``), else from the object; `nil` otherwise.
    @inline(__always)
    private func field(
        _ key: StaticString,
        of uid: UID,
        accepts: (DecodedClassInfo.Kind) -> Bool
    ) -> InPlaceValue? {
        let session = self.session
        if let (field, kind) = session.quickField(key, of: uid) {
            return accepts(kind) ? try? session.read(field) : nil
        }
        guard case .dictionary(let dictionary)? = try? session.object(at: uid),
            let kind = try? session.classKind(of: dictionary, uid: uid), accepts(kind)
        else { return nil }
        return try? session.value(forKey: key, in: dictionary)
    }

    /// The string at a key, when it is the UID of a string object that a value read from it at
    /// `depth` would get, after the checks ``decodeComposite(_:typeInfo:object:uid:at:reentrant:)``
    /// makes (the depth; no cycle through it); with its object.
    func quickRawString(at reference: Int, depth: Int) -> (raw: String, object: InPlaceValue, uid: UID)? {
        guard self.allows(depth: depth),
            let uid = self.session.reader.quickUID(at: reference), uid.rawValue != 0,
            !self.session.isInProgress(uid), let region = self.stringRegion(at: uid),
            let raw = try? self.session.string(region)
        else { return nil }
        return (raw, .string(region), uid)
    }

    /// The type an enum read from its raw string is, when `type` is one that declares no class
    /// names: its value then needs no coding path node, only the checks of
    /// ``quickRawString(at:depth:)``.
    @inline(__always)
    func quickRawValueType<T: Decodable>(_ type: T.Type) -> (any ArchiveRawValueCodable.Type)? {
        let typeInfo = self.session.typeInfo(type)
        return typeInfo.declaresClassNames ? nil : typeInfo.rawValueDecoder
    }

    /// The date at a key, when it is the UID of an `NSDate` object whose `NS.time` is a 64-bit
    /// real stored inline.
    func quickDate(at reference: Int) -> Date? {
        guard let uid = self.session.reader.quickUID(at: reference), uid.rawValue != 0,
            case .real(let seconds)? = self.field(ArchiveFormatKey.nsTime, of: uid, accepts: { $0 == .date })
        else { return nil }
        return Date(timeIntervalSinceReferenceDate: seconds)
    }

    /// Whether the value at a key is `nil` (UID 0 or an `NSNull`), when it is the UID of a valid
    /// object; `nil` for an inline value or a fault, which the general path then reads or reports.
    func quickIsNil(at reference: Int) -> Bool? {
        guard let uid = self.session.reader.quickUID(at: reference) else { return nil }
        if uid.rawValue == 0 { return true }
        guard let object = try? self.session.object(at: uid) else { return nil }
        if self.isNil(object, uid: uid) { return true }
        self.notePresent(object, uid: uid, at: reference)
        return false
    }

    /// The real at a key, when it is stored inline as a 64-bit real.
    @inline(__always)
    func quickDouble(at reference: Int) -> Double? {
        guard case .real(let value)? = try? self.session.reader.value(at: reference) else { return nil }
        return value
    }

    /// The value stored inline at a key (a number, a Boolean), for the types
    /// ``exactScalar(_:_:otherwise:)`` reads; `nil` for a UID or a fault, which the general path
    /// then reads or reports.
    @inline(__always)
    func quickInlineScalar(at reference: Int) -> InPlaceValue? {
        switch try? self.session.reader.value(at: reference) {
        case let object? where Self.isNumberOrBoolean(object): object
        default: nil
        }
    }

    @inline(__always)
    static func isNumberOrBoolean(_ object: InPlaceValue) -> Bool {
        switch object {
        case .bool, .integer, .real, .float: true
        default: false
        }
    }

    /// The integer at a key, when it is stored inline and fits.
    @inline(__always)
    func quickInt(at reference: Int) -> Int? {
        guard case .integer(let value)? = try? self.session.reader.value(at: reference) else { return nil }
        return value.exactly(Int.self)
    }

    /// The Boolean at a key, when it is stored inline as one.
    @inline(__always)
    func quickBool(at reference: Int) -> Bool? {
        guard case .bool(let value)? = try? self.session.reader.value(at: reference) else { return nil }
        return value
    }
}
