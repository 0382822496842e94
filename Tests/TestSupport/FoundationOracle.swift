//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-keyed-archive open source project
//
// Licensed under Apache License v2.0
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

public import Foundation
public import PropertyLists

/// Conversions between ``PropertyListValue`` and Foundation's property list objects, so tests can use
/// Foundation's `PropertyListSerialization` as an independent oracle.
public enum FoundationOracle {
    /// The Foundation object for a UID-free value: `String`, `NSNumber`, `Date`, `Data`, `[Any]`, `NSDictionary`.
    public static func object(_ value: PropertyListValue) -> Any {
        switch value {
        case .string(let string): return string
        case .integer(let integer):
            if let signed = integer.int64Value { return NSNumber(value: signed) }
            return NSNumber(value: integer.uint64Value ?? 0)
        case .real(let real): return NSNumber(value: real)
        case .float(let float): return NSNumber(value: float)
        case .bool(let bool): return NSNumber(value: bool)
        case .date(let date): return date
        case .data(let data): return data
        case .array(let elements): return elements.map(object)
        case .dictionary(let dictionary):
            let result = NSMutableDictionary()
            for (key, value) in dictionary { result[key] = object(value) }
            return result
        case .uid(let uid):
            // Foundation has no UID type to write; the CF$UID dictionary is how XML spells one.
            return ["CF$UID": NSNumber(value: uid.rawValue)]
        }
    }

    /// The value of a Foundation property list object.
    public static func value(_ object: Any) -> PropertyListValue? {
        if let string = object as? String { return .string(string) }
        if let data = object as? Data { return .data(data) }
        if let date = object as? Date { return .date(date) }
        if let number = object as? NSNumber {
            switch String(cString: number.objCType) {
            case "c", "B": return .bool(number.boolValue)
            case "f": return .float(number.floatValue)
            case "d": return .real(number.doubleValue)
            case "Q", "L", "I", "S", "C":
                return .integer(PropertyListInteger(number.uint64Value))
            default: return .integer(PropertyListInteger(number.int64Value))
            }
        }
        if let array = object as? [Any] {
            var elements = [PropertyListValue]()
            for element in array {
                guard let value = value(element) else { return nil }
                elements.append(value)
            }
            return .array(elements)
        }
        if let dictionary = object as? [AnyHashable: Any] {
            var result = PropertyListDictionary()
            for (key, element) in dictionary {
                guard let key = key.base as? String, let value = value(element) else { return nil }
                result[key] = value
            }
            return .dictionary(result)
        }
        return nil
    }

    /// Foundation's encoding of a UID-free value.
    public static func serialize(_ value: PropertyListValue, as format: PropertyListFormat) throws -> Data {
        try PropertyListSerialization.data(
            fromPropertyList: object(value),
            format: format == .binary ? .binary : .xml,
            options: 0
        )
    }

    /// The value that reading `value`'s XML gives, as Foundation's XML also spells it: floats widen to
    /// reals, every NaN becomes the canonical one, negative zero becomes zero, and dates lose
    /// fractional seconds (floored).
    public static func asXMLSpellsIt(_ value: PropertyListValue) -> PropertyListValue {
        switch value {
        case .float(let float): return asXMLSpellsIt(.real(Double(float)))
        case .real(let real) where real.isNaN: return .real(.nan)
        case .real(let real) where real == 0: return .real(0.0)
        case .date(let date):
            return .date(Date(timeIntervalSinceReferenceDate: date.timeIntervalSinceReferenceDate.rounded(.down)))
        case .array(let elements): return .array(elements.map(asXMLSpellsIt))
        case .dictionary(let dictionary):
            return .dictionary(PropertyListDictionary(dictionary.map { ($0.key, asXMLSpellsIt($0.value)) }))
        default: return value
        }
    }

    /// Foundation's reading of property list bytes, converted back to a value.
    public static func parse(_ bytes: Data) throws -> PropertyListValue? {
        value(try PropertyListSerialization.propertyList(from: bytes, options: [], format: nil))
    }
}
