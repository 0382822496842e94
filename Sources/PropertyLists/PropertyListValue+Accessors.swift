//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-keyed-archive open source project
//
// Licensed under Apache License v2.0
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

extension PropertyListValue {
    /// The string, if this is a ``string(_:)``.
    @inlinable
    public var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    /// The integer, if this is an ``integer(_:)``.
    @inlinable
    public var integerValue: PropertyListInteger? {
        if case .integer(let value) = self { return value }
        return nil
    }

    /// The integer as `Int`, if this is an ``integer(_:)`` that `Int` can represent.
    @inlinable
    public var intValue: Int? {
        self.integerValue?.exactly(Int.self)
    }

    /// The number as `Double`, if this is a ``real(_:)`` or ``float(_:)``.
    @inlinable
    public var doubleValue: Double? {
        switch self {
        case .real(let value): return value
        case .float(let value): return Double(value)
        default: return nil
        }
    }

    /// The Boolean, if this is a ``bool(_:)``.
    @inlinable
    public var boolValue: Bool? {
        if case .bool(let value) = self { return value }
        return nil
    }

    /// The date, if this is a ``date(_:)``.
    @inlinable
    public var dateValue: Date? {
        if case .date(let value) = self { return value }
        return nil
    }

    /// The bytes, if this is ``data(_:)``.
    @inlinable
    public var dataValue: Data? {
        if case .data(let value) = self { return value }
        return nil
    }

    /// The elements, if this is an ``array(_:)``.
    @inlinable
    public var arrayValue: [PropertyListValue]? {
        if case .array(let value) = self { return value }
        return nil
    }

    /// The dictionary, if this is a ``dictionary(_:)``.
    @inlinable
    public var dictionaryValue: PropertyListDictionary? {
        if case .dictionary(let value) = self { return value }
        return nil
    }

    /// The reference, if this is a ``uid(_:)``.
    @inlinable
    public var uidValue: UID? {
        if case .uid(let value) = self { return value }
        return nil
    }

    /// The value for `key`, if this is a dictionary that holds it.
    public subscript(key: String) -> PropertyListValue? {
        self.dictionaryValue?[key]
    }

    /// The element at `index`, if this is an array and `index` is within it.
    public subscript(index: Int) -> PropertyListValue? {
        guard case .array(let elements) = self, elements.indices.contains(index) else { return nil }
        return elements[index]
    }

    /// The name of the value's kind: `string`, `integer`, `real`, `float`, `bool`, `date`, `data`,
    /// `array`, `dictionary` or `uid`.
    public var kindName: String {
        switch self {
        case .string: return "string"
        case .integer: return "integer"
        case .real: return "real"
        case .float: return "float"
        case .bool: return "bool"
        case .date: return "date"
        case .data: return "data"
        case .array: return "array"
        case .dictionary: return "dictionary"
        case .uid: return "uid"
        }
    }
}

extension PropertyListValue {
    /// A string value.
    public init(_ value: String) { self = .string(value) }
    /// An integer value.
    public init(_ value: Int) { self = .integer(PropertyListInteger(Int64(value))) }
    /// An integer value.
    public init(_ value: Int64) { self = .integer(PropertyListInteger(value)) }
    /// An integer value.
    public init(_ value: UInt64) { self = .integer(PropertyListInteger(value)) }
    /// A 64-bit real value.
    public init(_ value: Double) { self = .real(value) }
    /// A Boolean value.
    public init(_ value: Bool) { self = .bool(value) }
    /// A date value.
    public init(_ value: Date) { self = .date(value) }
    /// A data value.
    public init(_ value: Data) { self = .data(value) }
}

extension PropertyListValue: ExpressibleByStringLiteral {
    /// A string value from a literal.
    public init(stringLiteral value: String) { self = .string(value) }
}

extension PropertyListValue: ExpressibleByIntegerLiteral {
    /// An integer value from a literal.
    public init(integerLiteral value: Int64) { self = .integer(PropertyListInteger(value)) }
}

extension PropertyListValue: ExpressibleByFloatLiteral {
    /// A 64-bit real value from a literal.
    public init(floatLiteral value: Double) { self = .real(value) }
}

extension PropertyListValue: ExpressibleByBooleanLiteral {
    /// A Boolean value from a literal.
    public init(booleanLiteral value: Bool) { self = .bool(value) }
}

extension PropertyListValue: ExpressibleByArrayLiteral {
    /// An array value from a literal.
    public init(arrayLiteral elements: PropertyListValue...) { self = .array(elements) }
}

extension PropertyListValue: ExpressibleByDictionaryLiteral {
    /// A dictionary value from a literal; a repeated key keeps its last value.
    public init(dictionaryLiteral elements: (String, PropertyListValue)...) {
        self = .dictionary(PropertyListDictionary(elements))
    }
}
