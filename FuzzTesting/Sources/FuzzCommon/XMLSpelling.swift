//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-keyed-archive open source project
//
// Licensed under Apache License v2.0
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation
public import PropertyLists

/// What an XML round trip is documented to keep, so the fuzz targets can check it exactly.
public enum XMLSpelling {
    /// Whether XML can spell `value` up to ``normalized(_:)``: no characters XML 1.0 cannot carry
    /// (controls other than tab and newline, carriage return), no dates outside years 1–9999 or not
    /// finite, and no dictionary that an XML reader would take for a `CF$UID` reference.
    public static func canSpell(_ value: PropertyListValue) -> Bool {
        switch value {
        case .string(let string): return canSpell(string)
        case .date(let date):
            let time = date.timeIntervalSinceReferenceDate
            // 0001-01-01 and 9999-12-31T23:59:59 relative to 2001-01-01.
            return time.isFinite && time >= -63_113_904_000 && time < 252_423_993_600
        case .array(let elements): return elements.allSatisfy(canSpell)
        case .dictionary(let dictionary):
            if dictionary.count == 1, dictionary.first?.key == "CF$UID" { return false }
            return dictionary.allSatisfy { canSpell($0.key) && canSpell($0.value) }
        default: return true
        }
    }

    private static func canSpell(_ string: String) -> Bool {
        string.unicodeScalars.allSatisfy { scalar in
            switch scalar.value {
            case 0x09, 0x0A: return true
            case 0..<0x20, 0x7F, 0xFFFE, 0xFFFF: return false
            default: return true
            }
        }
    }

    /// Whether `reread`, read back from the XML of `original`, is what XML keeps of it: equal to
    /// ``normalized(_:)`` except that a date may also come back one second later, as
    /// CoreFoundation (and so the writer) spells a time a hair below a whole second as second 60
    /// of the minute before, e.g. `-1e-300` as `2000-12-31T23:59:60Z`, which reads as 00:00:00.
    public static func matches(_ reread: PropertyListValue, _ original: PropertyListValue) -> Bool {
        switch (reread, original) {
        case (.date(let r), .date(let o)):
            let floor = o.timeIntervalSinceReferenceDate.rounded(.down)
            let time = r.timeIntervalSinceReferenceDate
            return time == floor || time == floor + 1
        case (.array(let r), .array(let o)):
            return r.count == o.count && zip(r, o).allSatisfy { matches($0, $1) }
        case (.dictionary(let r), .dictionary(let o)):
            return r.count == o.count && o.allSatisfy { key, value in r[key].map { matches($0, value) } ?? false }
        default:
            return reread == normalized(original)
        }
    }

    /// The value an XML round trip yields: floats widen to reals, every NaN becomes the canonical
    /// one, negative zero becomes zero, and dates lose fractional seconds (floored).
    public static func normalized(_ value: PropertyListValue) -> PropertyListValue {
        switch value {
        case .float(let float): return normalized(.real(Double(float)))
        case .real(let real) where real.isNaN: return .real(.nan)
        case .real(let real) where real == 0: return .real(0.0)
        case .date(let date):
            return .date(Date(timeIntervalSinceReferenceDate: date.timeIntervalSinceReferenceDate.rounded(.down)))
        case .array(let elements): return .array(elements.map(normalized))
        case .dictionary(let dictionary):
            return .dictionary(PropertyListDictionary(dictionary.map { ($0.key, normalized($0.value)) }))
        default: return value
        }
    }
}

/// Where two values first differ, as a path and the two values there, for fail-case messages.
public func firstDifference(_ lhs: PropertyListValue, _ rhs: PropertyListValue, path: String = "") -> String? {
    switch (lhs, rhs) {
    case (.array(let l), .array(let r)):
        if l.count != r.count { return "\(path): array of \(l.count) vs \(r.count) elements" }
        for (index, (a, b)) in zip(l, r).enumerated() {
            if let difference = firstDifference(a, b, path: "\(path)[\(index)]") { return difference }
        }
        return nil
    case (.dictionary(let l), .dictionary(let r)):
        if l.count != r.count { return "\(path): dictionary of \(l.count) vs \(r.count) entries" }
        for (key, lv) in l {
            guard let rv = r[key] else { return "\(path): key \(key.debugDescription) only on the left" }
            if let difference = firstDifference(lv, rv, path: "\(path).\(key)") { return difference }
        }
        return nil
    default:
        return lhs == rhs ? nil : "\(path): \(String(reflecting: lhs)) vs \(String(reflecting: rhs))"
    }
}
