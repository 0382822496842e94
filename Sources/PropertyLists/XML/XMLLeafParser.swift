//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-keyed-archive open source project
//
// Licensed under Apache License v2.0
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// Parsers for the text of `<integer>`, `<real>` and `<date>` elements. Each returns `nil` for
/// text it does not accept; surrounding XML white space is ignored.
enum XMLLeafParser {
    /// The text without leading and trailing XML white space.
    static func trimmed(_ text: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
        var start = 0
        var end = text.count
        while start < end, XMLScanner.isWhitespace(text[start]) {
            start += 1
        }
        while end > start, XMLScanner.isWhitespace(text[end - 1]) {
            end -= 1
        }
        return UnsafeBufferPointer(rebasing: text[start..<end])
    }

    // MARK: Integers

    /// An optionally signed decimal integer, or hexadecimal after `0x`/`0X` as CoreFoundation
    /// accepts, from `Int64.min` through `UInt64.max`.
    static func integer(_ text: UnsafeBufferPointer<UInt8>) -> PropertyListInteger? {
        let text = Self.trimmed(text)
        var index = 0
        var isNegative = false
        if let sign = text.first, sign == UInt8(ascii: "-") || sign == UInt8(ascii: "+") {
            isNegative = sign == UInt8(ascii: "-")
            index = 1
        }
        var radix: UInt64 = 10
        if text.count - index > 2, text[index] == UInt8(ascii: "0"), text[index + 1] | 0x20 == UInt8(ascii: "x") {
            radix = 16
            index += 2
        }
        guard index < text.count else { return nil }
        var magnitude: UInt64 = 0
        while index < text.count {
            guard let digit = Self.digitValue(text[index]), digit < radix else { return nil }
            let (shifted, overflowA) = magnitude.multipliedReportingOverflow(by: radix)
            let (sum, overflowB) = shifted.addingReportingOverflow(digit)
            guard !overflowA, !overflowB else { return nil }
            magnitude = sum
            index += 1
        }
        guard isNegative, magnitude != 0 else { return PropertyListInteger(magnitude) }
        guard magnitude <= UInt64(Int64.max) + 1 else { return nil }
        return PropertyListInteger(Int64(bitPattern: 0 &- magnitude))
    }

    @inline(__always)
    private static func digitValue(_ byte: UInt8) -> UInt64? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return UInt64(byte &- UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return UInt64(byte &- UInt8(ascii: "a") &+ 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return UInt64(byte &- UInt8(ascii: "A") &+ 10)
        default: return nil
        }
    }

    // MARK: Reals

    /// A decimal number with optional fraction and exponent, or one of CoreFoundation's spellings
    /// `nan`, `inf`, `infinity` with an optional sign on the infinities, in any letter case.
    static func real(_ text: UnsafeBufferPointer<UInt8>) -> Double? {
        let text = Self.trimmed(text)
        guard let first = text.first else { return nil }
        if let special = Self.specialReal(text) { return special }
        let isNegative = first == UInt8(ascii: "-")
        var index = isNegative || first == UInt8(ascii: "+") ? 1 : 0
        // Collect up to 19 significant digits for the exact fast path as the syntax is checked.
        var significand: UInt64 = 0
        var significantDigits = 0
        var decimalExponent = 0
        var isInexact = false
        var digitCount = 0
        var inFraction = false
        while index < text.count {
            let byte = text[index]
            if byte == UInt8(ascii: "."), !inFraction {
                inFraction = true
            } else if byte &- UInt8(ascii: "0") < 10 {
                digitCount += 1
                let digit = UInt64(byte &- UInt8(ascii: "0"))
                if significand == 0 && digit == 0 {
                    if inFraction { decimalExponent -= 1 }
                } else if significantDigits < 19 {
                    significand = significand * 10 + digit
                    significantDigits += 1
                    if inFraction { decimalExponent -= 1 }
                } else {
                    isInexact = true
                    if !inFraction { decimalExponent += 1 }
                }
            } else {
                break
            }
            index += 1
        }
        guard digitCount > 0 else { return nil }
        if index < text.count, text[index] | 0x20 == UInt8(ascii: "e") {
            index += 1
            var exponentIsNegative = false
            if index < text.count, text[index] == UInt8(ascii: "-") || text[index] == UInt8(ascii: "+") {
                exponentIsNegative = text[index] == UInt8(ascii: "-")
                index += 1
            }
            let exponentDigits = Self.countDigits(text, from: index)
            guard exponentDigits > 0 else { return nil }
            var exponent = 0
            for offset in index..<index + exponentDigits where exponent < 100_000 {
                exponent = exponent * 10 + Int(text[offset] &- UInt8(ascii: "0"))
            }
            decimalExponent += exponentIsNegative ? -exponent : exponent
            index += exponentDigits
        }
        guard index == text.count else { return nil }
        if significand == 0 { return isNegative ? -0.0 : 0.0 }
        // Clinger's fast path: both operands exact, so the one rounding is the correct one.
        if !isInexact, significand <= 1 << 53, decimalExponent >= -22, decimalExponent <= 22 {
            let magnitude =
                decimalExponent < 0
                ? Double(significand) / Self.powersOfTen[-decimalExponent]
                : Double(significand) * Self.powersOfTen[decimalExponent]
            return isNegative ? -magnitude : magnitude
        }
        return Double(String(decoding: text, as: UTF8.self))
    }

    private static let powersOfTen: [Double] = (0...22).map { exponent in
        (0..<exponent).reduce(1.0) { value, _ in value * 10 }
    }

    private static func specialReal(_ text: UnsafeBufferPointer<UInt8>) -> Double? {
        guard text.count >= 3, text.count <= 9 else { return nil }
        var sign = 0.0
        var body = text
        if text[0] == UInt8(ascii: "-") || text[0] == UInt8(ascii: "+") {
            sign = text[0] == UInt8(ascii: "-") ? -1 : 1
            body = UnsafeBufferPointer(rebasing: text[1...])
        }
        if sign == 0, Self.equalsIgnoringCase(body, "nan") { return .nan }
        if Self.equalsIgnoringCase(body, "inf") || Self.equalsIgnoringCase(body, "infinity") {
            return sign < 0 ? -.infinity : .infinity
        }
        return nil
    }

    private static func equalsIgnoringCase(_ bytes: UnsafeBufferPointer<UInt8>, _ lowercase: StaticString) -> Bool {
        guard bytes.count == lowercase.utf8CodeUnitCount else { return false }
        for index in 0..<bytes.count where bytes[index] | 0x20 != lowercase.utf8Start[index] {
            return false
        }
        return true
    }

    private static func countDigits(_ text: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        var index = start
        while index < text.count, text[index] &- UInt8(ascii: "0") < 10 {
            index += 1
        }
        return index - start
    }

    // MARK: Dates

    /// The most year digits accepted; enough for every year Foundation writes.
    static var maximumYearDigits: Int { 12 }

    /// An ISO 8601 UTC date as CoreFoundation writes it, `YYYY-MM-DDTHH:MM:SSZ`, as seconds since
    /// 2001-01-01T00:00:00Z.
    ///
    /// Also accepted: a negative or longer year (`-002`, `10000`), as Foundation writes for dates
    /// outside years 0...9999, and fractional seconds. The fields are checked against the proleptic
    /// Gregorian calendar; a second of 60 is allowed for a leap second.
    static func date(_ text: UnsafeBufferPointer<UInt8>) -> Double? {
        let text = Self.trimmed(text)
        var index = 0
        let isNegative = text.first == UInt8(ascii: "-")
        if isNegative { index = 1 }
        let yearDigits = Self.countDigits(text, from: index)
        guard yearDigits >= 1, yearDigits <= Self.maximumYearDigits else { return nil }
        var year: Int64 = 0
        for offset in index..<index + yearDigits {
            year = year * 10 + Int64(text[offset] &- UInt8(ascii: "0"))
        }
        if isNegative { year = -year }
        index += yearDigits
        guard let month = Self.field(text, &index, after: UInt8(ascii: "-")),
            let day = Self.field(text, &index, after: UInt8(ascii: "-"))
        else { return nil }
        guard let hour = Self.field(text, &index, after: UInt8(ascii: "T")),
            let minute = Self.field(text, &index, after: UInt8(ascii: ":")),
            let second = Self.field(text, &index, after: UInt8(ascii: ":"))
        else { return nil }
        var fraction = 0.0
        if index < text.count, text[index] == UInt8(ascii: ".") {
            let digits = Self.countDigits(text, from: index + 1)
            guard digits > 0, let value = Double(String(decoding: text[index..<index + 1 + digits], as: UTF8.self))
            else { return nil }
            fraction = value
            index += 1 + digits
        }
        guard index < text.count, text[index] == UInt8(ascii: "Z") else { return nil }
        index += 1
        guard index == text.count, (1...12).contains(month),
            day >= 1, day <= XMLGregorianCalendar.daysInMonth(month, year: year),
            hour <= 23, minute <= 59, second <= 60
        else { return nil }
        let days = XMLGregorianCalendar.daysSinceReferenceDate(year: year, month: month, day: day)
        let seconds = days * 86_400 + hour * 3600 + minute * 60 + second
        return Double(seconds) + fraction
    }

    /// Two digits after `separator` at `index`.
    private static func field(_ text: UnsafeBufferPointer<UInt8>, _ index: inout Int, after separator: UInt8) -> Int64?
    {
        guard text.count - index >= 3, text[index] == separator else { return nil }
        let tens = text[index + 1] &- UInt8(ascii: "0")
        let ones = text[index + 2] &- UInt8(ascii: "0")
        guard tens < 10, ones < 10 else { return nil }
        index += 3
        return Int64(tens) * 10 + Int64(ones)
    }
}
