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
import PropertyLists

/// Foundation's `PropertyListSerialization`, used as the reference for XML output, plus a seeded
/// generator of UID-free values to feed it.
enum XMLFoundationOracle {
    /// `value` as a Foundation property list object. UIDs have no Foundation form.
    static func object(_ value: PropertyListValue) -> Any {
        switch value {
        case .string(let string): return string
        case .integer(let number):
            if let signed = number.int64Value { return NSNumber(value: signed) }
            return NSNumber(value: number.uint64Value ?? 0)
        case .real(let number): return NSNumber(value: number)
        case .float(let number): return NSNumber(value: number)
        case .bool(let flag): return flag
        case .date(let date): return date
        case .data(let data): return data
        case .array(let elements): return elements.map(Self.object)
        case .dictionary(let dictionary):
            var result: [String: Any] = [:]
            for (key, element) in dictionary {
                result[key] = Self.object(element)
            }
            return result
        case .uid(let uid): return ["CF$UID": NSNumber(value: uid.rawValue)]
        }
    }

    /// The XML Foundation writes for `value`.
    static func xml(_ value: PropertyListValue) throws -> [UInt8] {
        [UInt8](try PropertyListSerialization.data(fromPropertyList: Self.object(value), format: .xml, options: 0))
    }

    /// The value reading Foundation's XML for `value` must give: floats widen to doubles, NaNs
    /// become the canonical NaN, negative zero becomes zero, and dates lose their fraction.
    static func expectedAfterXMLRoundTrip(_ value: PropertyListValue) -> PropertyListValue {
        switch value {
        case .float(let number): return Self.expectedAfterXMLRoundTrip(.real(Double(number)))
        case .real(let number):
            if number.isNaN { return .real(.nan) }
            return .real(number == 0 ? 0 : number)
        case .date(let date):
            return .date(Date(timeIntervalSinceReferenceDate: date.timeIntervalSinceReferenceDate.rounded(.down)))
        case .array(let elements): return .array(elements.map(Self.expectedAfterXMLRoundTrip))
        case .dictionary(let dictionary):
            return .dictionary(
                PropertyListDictionary(dictionary.map { ($0.key, Self.expectedAfterXMLRoundTrip($0.value)) })
            )
        default: return value
        }
    }

    /// The first line where two documents differ, for readable failures.
    static func firstDifference(_ ours: [UInt8], _ theirs: [UInt8]) -> String {
        let left = String(decoding: ours, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        let right = String(decoding: theirs, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        for index in 0..<max(left.count, right.count) {
            let l = index < left.count ? String(left[index]) : "<none>"
            let r = index < right.count ? String(right[index]) : "<none>"
            if l != r { return "line \(index + 1): ours \(l.debugDescription), Foundation \(r.debugDescription)" }
        }
        return "identical"
    }
}

/// A small deterministic generator (SplitMix64) for reproducible random inputs.
struct XMLTestRandom {
    var state: UInt64

    mutating func next() -> UInt64 {
        self.state &+= 0x9E37_79B9_7F4A_7C15
        var z = self.state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    mutating func below(_ bound: Int) -> Int {
        Int(self.next() % UInt64(bound))
    }

    /// A double from a mix of uniformly random bit patterns and human-scale values.
    mutating func double() -> Double {
        switch self.below(4) {
        case 0: return Double(bitPattern: self.next())
        case 1: return Double(Int64(bitPattern: self.next()) % 1_000_000) / 1000
        case 2: return Double(bitPattern: self.next() & 0x3FFF_FFFF_FFFF_FFFF | 0x3000_0000_0000_0000)
        default: return (Double(self.next() % 1_000_000_000) - 5e8) * pow(10, Double(self.below(40)) - 20)
        }
    }

    static let characters: [String] = [
        "a", "b", "Z", " ", "\t", "\n", "\r", "<", ">", "&", "\"", "'", "]]>", "\u{0}", "\u{1}", "\u{7F}", "é",
        "e\u{301}", "ß", "中", "😀", "\u{E000}", "\u{FFFD}", "\u{FEFF}", "&amp;", "CF$UID", "$",
    ]

    mutating func string() -> String {
        (0..<self.below(8)).map { _ in Self.characters[self.below(Self.characters.count)] }.joined()
    }

    /// A random value without UIDs, at most `depth` containers deep.
    mutating func value(depth: Int) -> PropertyListValue {
        switch self.below(depth > 0 ? 10 : 7) {
        case 0: return .string(self.string())
        case 1:
            let raw = self.next()
            return .integer(self.below(2) == 0 ? PropertyListInteger(raw) : PropertyListInteger(Int64(bitPattern: raw)))
        case 2: return .real(self.double())
        case 3: return .float(Float(self.double()))
        case 4: return .bool(self.below(2) == 0)
        case 5:
            let quarterSeconds = Int64(bitPattern: self.next()) % 4_000_000_000_000_000
            return .date(Date(timeIntervalSinceReferenceDate: Double(quarterSeconds) / 4))
        case 6: return .data(Data((0..<self.below(120)).map { _ in UInt8(truncatingIfNeeded: self.next()) }))
        case 7, 8: return .array((0..<self.below(5)).map { _ in self.value(depth: depth - 1) })
        default:
            return .dictionary(
                PropertyListDictionary((0..<self.below(6)).map { _ in (self.string(), self.value(depth: depth - 1)) })
            )
        }
    }
}
