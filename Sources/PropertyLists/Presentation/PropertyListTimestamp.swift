//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-keyed-archive open source project
//
// Licensed under Apache License v2.0
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// The text forms of numbers and dates that ``PropertyListJSONWriter`` and ``PropertyListTreePrinter`` share.
///
/// Dates are written as ISO 8601 UTC timestamps computed from the interval since the reference date
/// (2001-01-01T00:00:00Z) with the proleptic Gregorian calendar, without `DateFormatter`.
enum PropertyListTimestamp {
    /// The farthest a date may lie from the reference date, in seconds, to be written as a calendar
    /// timestamp (about 31.7 million years). Farther and non-finite dates are written as their interval.
    static let calendarRange: ClosedRange<Double> = -1e15...1e15

    /// Seconds from 1970-01-01T00:00:00Z to 2001-01-01T00:00:00Z.
    private static let referenceDateUnixTime: Int64 = 978_307_200

    /// Appends the timestamp for `interval` seconds since the reference date.
    ///
    /// Within ``calendarRange`` this is `YYYY-MM-DDThh:mm:ssZ`, with a fraction of up to six digits
    /// (microseconds, trailing zeros trimmed) when the interval has one. Years outside 0000...9999 use
    /// the ISO 8601 expanded form (`+10000`, `-0001`; year 0 is 1 BC). Other intervals are written as
    /// ``appendReal(_:to:)`` writes them (`nan`, `inf`, `-inf`, `1e+300`); those never contain a `T`.
    static func append(interval: Double, to output: inout [UInt8]) {
        guard interval.isFinite, calendarRange.contains(interval) else {
            appendReal(interval, to: &output)
            return
        }
        let wholeSeconds = interval.rounded(.down)
        var seconds = Int64(wholeSeconds)
        var microseconds = Int64(((interval - wholeSeconds) * 1_000_000).rounded())
        if microseconds >= 1_000_000 {
            seconds += 1
            microseconds -= 1_000_000
        }
        let unixTime = seconds + referenceDateUnixTime
        let (days, secondOfDay) = floorDivide(unixTime, 86_400)
        let (year, month, day) = civil(fromDays: days)

        if year < 0 {
            output.append(UInt8(ascii: "-"))
            appendPadded(-year, width: 4, to: &output)
        } else if year > 9999 {
            output.append(UInt8(ascii: "+"))
            appendPadded(year, width: 4, to: &output)
        } else {
            appendPadded(year, width: 4, to: &output)
        }
        output.append(UInt8(ascii: "-"))
        appendPadded(month, width: 2, to: &output)
        output.append(UInt8(ascii: "-"))
        appendPadded(day, width: 2, to: &output)
        output.append(UInt8(ascii: "T"))
        appendPadded(secondOfDay / 3600, width: 2, to: &output)
        output.append(UInt8(ascii: ":"))
        appendPadded(secondOfDay / 60 % 60, width: 2, to: &output)
        output.append(UInt8(ascii: ":"))
        appendPadded(secondOfDay % 60, width: 2, to: &output)
        if microseconds > 0 {
            var digits = 6
            while microseconds % 10 == 0 {
                microseconds /= 10
                digits -= 1
            }
            output.append(UInt8(ascii: "."))
            appendPadded(microseconds, width: digits, to: &output)
        }
        output.append(UInt8(ascii: "Z"))
    }

    /// The timestamp for `interval` seconds since the reference date; see ``append(interval:to:)``.
    static func string(interval: Double) -> String {
        var output: [UInt8] = []
        output.reserveCapacity(32)
        append(interval: interval, to: &output)
        return String(decoding: output, as: UTF8.self)
    }

    /// Appends a real number in the shortest form that reads back as the same value (Swift's
    /// `description`), or `nan`, `inf` or `-inf`.
    static func appendReal(_ value: Double, to output: inout [UInt8]) {
        if let name = nonFiniteName(value) {
            output.append(contentsOf: name.utf8)
        } else {
            output.append(contentsOf: value.description.utf8)
        }
    }

    /// `nan`, `inf` or `-inf` for a non-finite value, `nil` otherwise.
    static func nonFiniteName(_ value: some BinaryFloatingPoint) -> String? {
        if value.isNaN { return "nan" }
        if value.isInfinite { return value < 0 ? "-inf" : "inf" }
        return nil
    }

    /// Quotient and remainder rounded towards negative infinity, so the remainder is never negative.
    private static func floorDivide(_ value: Int64, _ divisor: Int64) -> (quotient: Int64, remainder: Int64) {
        var quotient = value / divisor
        var remainder = value % divisor
        if remainder < 0 {
            quotient -= 1
            remainder += divisor
        }
        return (quotient, remainder)
    }

    /// The proleptic Gregorian date of a day number counted from 1970-01-01 (Howard Hinnant's
    /// `civil_from_days`).
    private static func civil(fromDays days: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let shifted = days + 719_468
        let era = floorDivide(shifted, 146_097).quotient
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shiftedMonth = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
        let month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        return (year, month, day)
    }

    /// Appends a non-negative number in decimal, zero-padded to at least `width` digits.
    private static func appendPadded(_ value: Int64, width: Int, to output: inout [UInt8]) {
        var divisor: Int64 = 1
        var digitCount = 1
        while divisor <= value / 10 {
            divisor *= 10
            digitCount += 1
        }
        if digitCount < width {
            output.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: width - digitCount))
        }
        while divisor > 0 {
            output.append(UInt8(ascii: "0") + UInt8(truncatingIfNeeded: value / divisor % 10))
            divisor /= 10
        }
    }
}
