//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-keyed-archive open source project
//
// Licensed under Apache License v2.0
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// Date arithmetic in the proleptic Gregorian calendar in UTC, with astronomical year numbering
/// (year 0 is 1 BC), measured from the reference date 2001-01-01T00:00:00Z.
///
/// Reading composes a time from fields. Writing reproduces CoreFoundation's
/// `CFAbsoluteTimeGetGregorianDate` and the integer conversions its XML writer applies, so that
/// every `Double`, including ones far outside any calendar's range, prints as Foundation prints it.
enum XMLGregorianCalendar {
    /// The fields CoreFoundation's XML writer prints for a date.
    struct Fields: Equatable {
        var year: Int32
        var month: Int32
        var day: Int32
        var hour: Int32
        var minute: Int32
        var second: Int32
    }

    static func isLeapYear(_ year: Int64) -> Bool {
        year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
    }

    static func daysInMonth(_ month: Int64, year: Int64) -> Int64 {
        switch month {
        case 2: return self.isLeapYear(year) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// The number of days from 2001-01-01 to the given day; `month` must be 1...12.
    ///
    /// Works for any year whose day count fits comfortably in `Int64` (|year| < 10^15).
    static func daysSinceReferenceDate(year: Int64, month: Int64, day: Int64) -> Int64 {
        let shiftedYear = month <= 2 ? year - 1 : year
        let era = (shiftedYear >= 0 ? shiftedYear : shiftedYear - 399) / 400
        let yearOfEra = shiftedYear - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        // 719_468 days from 0000-03-01 to 1970-01-01, and 11_323 more to 2001-01-01.
        return era * 146_097 + dayOfEra - 719_468 - 11_323
    }

    // MARK: CoreFoundation's writer

    /// The fields CoreFoundation writes for `time` seconds since the reference date.
    ///
    /// This follows `CFAbsoluteTimeGetGregorianDate` step by step, including its floating-point
    /// modulo, its 8-bit hour and minute fields and the x86-64 results of its out-of-range
    /// float-to-integer conversions, so that even absurd times (NaN, ±infinity, |t| > 10^17)
    /// print exactly as `PropertyListSerialization` prints them.
    static func coreFoundationFields(_ time: Double) -> Fields {
        let absolute = Self.x86Int64((time / 86_400).rounded(.down))
        let (year, month, day) = Self.yearMonthDay(absolute)
        let clampedYear = min(year, Int64(Int32.max) - 2001)
        let hour = Self.modulo(toInt: (time / 3600).rounded(.down), 24)
        let minute = Self.modulo(toInt: (time / 60).rounded(.down), 60)
        var second = time - (time / 60).rounded(.down) * 60
        if second < 0 { second += 60 }
        return Fields(
            year: Int32(truncatingIfNeeded: clampedYear) &+ 2001,
            month: Int32(month),
            day: Int32(day),
            hour: Int32(Int8(truncatingIfNeeded: hour)),
            minute: Int32(Int8(truncatingIfNeeded: minute)),
            second: Self.x86Int32(second)
        )
    }

    /// `__CFDoubleModToInt`: the floored remainder, converted through `Float` to `Int32`.
    private static func modulo(toInt value: Double, _ modulus: Int32) -> Int32 {
        let divisor = Double(modulus)
        let remainder = (value - (value / divisor).rounded(.down) * divisor).rounded(.down)
        var result = Self.x86Int32(Float(remainder))
        if result < 0 { result &+= modulus }
        return result
    }

    /// `__CFYMDFromAbsolute`: year (0 = 2001), month and day of a day number (0 = 2001-01-01).
    private static func yearMonthDay(_ dayNumber: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let cycles = dayNumber / 146_097
        var year = cycles * 400
        var remaining = dayNumber - cycles * 146_097
        while remaining < 0 {
            year -= 1
            remaining += Self.daysInCoreFoundationYear(year)
        }
        var yearDays = Self.daysInCoreFoundationYear(year)
        while yearDays <= remaining {
            year += 1
            remaining -= yearDays
            yearDays = Self.daysInCoreFoundationYear(year)
        }
        let leap = yearDays == 366
        var month = remaining / 33 + 1
        while month < 12, Self.daysBeforeMonth(month + 1, leap: leap) <= remaining {
            month += 1
        }
        return (year, month, remaining - Self.daysBeforeMonth(month, leap: leap) + 1)
    }

    /// Days in a year counted from 2001 (CoreFoundation's "absolute year").
    private static func daysInCoreFoundationYear(_ year: Int64) -> Int64 {
        self.isLeapYear(year &+ 2001) ? 366 : 365
    }

    private static let daysBeforeMonthTable: [Int64] = [0, 0, 31, 59, 90, 120, 151, 181, 212, 243, 273, 304, 334, 365]

    private static func daysBeforeMonth(_ month: Int64, leap: Bool) -> Int64 {
        guard month >= 1, month <= 13 else { return 0 }
        return Self.daysBeforeMonthTable[Int(month)] + (month > 2 && leap ? 1 : 0)
    }

    /// `cvttsd2si` to 64 bits: truncation, or `Int64.min` when out of range or NaN.
    private static func x86Int64(_ value: Double) -> Int64 {
        guard value >= -9_223_372_036_854_775_808.0, value < 9_223_372_036_854_775_808.0 else { return .min }
        return Int64(value)
    }

    /// `cvttsd2si` to 32 bits: truncation, or `Int32.min` when out of range or NaN.
    private static func x86Int32(_ value: Double) -> Int32 {
        guard value > -2_147_483_649.0, value < 2_147_483_648.0 else { return .min }
        return Int32(value)
    }

    /// `cvttss2si` to 32 bits: truncation, or `Int32.min` when out of range or NaN.
    private static func x86Int32(_ value: Float) -> Int32 {
        guard value >= -2_147_483_648.0, value < 2_147_483_648.0 else { return .min }
        return Int32(value)
    }
}
