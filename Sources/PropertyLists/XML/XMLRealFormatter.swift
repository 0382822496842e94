//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-keyed-archive open source project
//
// Licensed under Apache License v2.0
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// Formats `<real>` text exactly as CoreFoundation does: `nan`, `+infinity`, `-infinity`, `0.0`
/// for either zero, and otherwise C's `%.17g`.
///
/// `%.17g` is computed here rather than through `printf`, so the result does not depend on the C
/// locale: the exact binary value is rounded to 17 significant digits (ties to even, as glibc
/// does) with small fixed-size big-integer arithmetic on the stack.
enum XMLRealFormatter {
    static func append(_ value: Double, to output: inout [UInt8]) {
        if value.isNaN {
            Self.append("nan", to: &output)
            return
        }
        if value.isInfinite {
            Self.append(value < 0 ? "-infinity" : "+infinity", to: &output)
            return
        }
        if value == 0 {
            Self.append("0.0", to: &output)
            return
        }
        if value < 0 { output.append(UInt8(ascii: "-")) }
        let magnitude = value.magnitude
        if magnitude < 9_007_199_254_740_992, magnitude.rounded(.towardZero) == magnitude {
            Self.appendDecimal(UInt64(magnitude), to: &output)
            return
        }
        let (digits, exponent) = Self.seventeenDigits(magnitude)
        Self.appendGeneral(digits: digits, exponent: exponent, to: &output)
    }

    private static func append(_ text: StaticString, to output: inout [UInt8]) {
        output.append(contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    /// Appends `value` in decimal.
    static func appendDecimal(_ value: UInt64, to output: inout [UInt8]) {
        if value < 10 {
            output.append(UInt8(truncatingIfNeeded: value) &+ UInt8(ascii: "0"))
            return
        }
        var remaining = value
        var digitCount = 0
        var probe = value
        while probe > 0 {
            digitCount += 1
            probe /= 10
        }
        let start = output.count
        output.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: digitCount))
        var index = start + digitCount - 1
        while remaining > 0 {
            output[index] = UInt8(truncatingIfNeeded: remaining % 10) &+ UInt8(ascii: "0")
            remaining /= 10
            index -= 1
        }
    }

    // MARK: %g layout

    /// Lays out `digits` (17 of them, 10^16 ≤ digits < 10^17) times 10^(exponent - 16) as `%g` does
    /// with precision 17: plain notation when -4 ≤ exponent < 17, else `d.ddde±XX`; trailing zeros
    /// of the fraction and a bare decimal point are dropped.
    private static func appendGeneral(digits: UInt64, exponent: Int, to output: inout [UInt8]) {
        var significand = digits
        var significant = 17
        while significand % 10 == 0 {
            significand /= 10
            significant -= 1
        }
        let start = output.count
        if exponent < -4 || exponent >= 17 {
            Self.appendDecimal(significand, to: &output)
            if significant > 1 { output.insert(UInt8(ascii: "."), at: start + 1) }
            output.append(UInt8(ascii: "e"))
            output.append(exponent < 0 ? UInt8(ascii: "-") : UInt8(ascii: "+"))
            if exponent.magnitude < 10 { output.append(UInt8(ascii: "0")) }
            Self.appendDecimal(UInt64(exponent.magnitude), to: &output)
        } else if exponent >= 0 {
            Self.appendDecimal(significand, to: &output)
            if significant > exponent + 1 {
                output.insert(UInt8(ascii: "."), at: start + exponent + 1)
            } else {
                output.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: exponent + 1 - significant))
            }
        } else {
            output.append(UInt8(ascii: "0"))
            output.append(UInt8(ascii: "."))
            output.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: -exponent - 1))
            Self.appendDecimal(significand, to: &output)
        }
    }

    // MARK: Exact digits

    /// The 17 significant digits of a finite, positive `value`, correctly rounded (ties to even),
    /// and the decimal exponent of the first digit.
    static func seventeenDigits(_ value: Double) -> (digits: UInt64, exponent: Int) {
        let bits = value.bitPattern
        let biasedExponent = Int(bits >> 52 & 0x7FF)
        let fraction = bits & (1 << 52 - 1)
        let significand = biasedExponent == 0 ? fraction : fraction | 1 << 52
        let binaryExponent = biasedExponent == 0 ? -1074 : biasedExponent - 1075
        let log2Floor = binaryExponent + (64 - significand.leadingZeroBitCount) - 1
        // floor(log10(value)) is this estimate or one more.
        var exponent = Int((Double(log2Floor) * 0.301_029_995_663_981_2).rounded(.down))
        while true {
            let (quotient, roundsUp) = Self.scaled(significand, binaryExponent, decimalShift: 16 - exponent)
            if quotient >= 100_000_000_000_000_000 {
                exponent += 1
                continue
            }
            if roundsUp {
                if quotient + 1 == 100_000_000_000_000_000 { return (10_000_000_000_000_000, exponent + 1) }
                return (quotient + 1, exponent)
            }
            return (quotient, exponent)
        }
    }

    /// floor(significand × 2^binaryExponent × 10^decimalShift), which must be below 10^18, and
    /// whether rounding to nearest (ties to even) goes up.
    private static func scaled(_ significand: UInt64, _ binaryExponent: Int, decimalShift: Int) -> (UInt64, Bool) {
        withUnsafeTemporaryAllocation(of: UInt32.self, capacity: XMLBigUnsigned.capacity) { storage in
            var number = XMLBigUnsigned(storage: storage, value: significand)
            if decimalShift >= 0 {
                number.multiply(byPowerOfTen: decimalShift)
                if binaryExponent >= 0 {
                    number.shiftLeft(binaryExponent)
                    return (number.bits(from: 0), false)
                }
                let shift = -binaryExponent
                let quotient = number.bits(from: shift)
                let half = number.bit(shift - 1)
                let sticky = number.hasBits(below: shift - 1)
                return (quotient, half && (sticky || quotient & 1 == 1))
            }
            // A large integer divided by 10^t: first by 10^(t-1) noting any remainder, then by 10.
            number.shiftLeft(binaryExponent)
            var sticky = false
            var remainingDigits = -decimalShift - 1
            while remainingDigits > 0 {
                let step = min(remainingDigits, 9)
                sticky = number.divide(by: XMLBigUnsigned.powersOfTen[step]) != 0 || sticky
                remainingDigits -= step
            }
            let roundingDigit = number.divide(by: 10)
            let quotient = number.bits(from: 0)
            let roundsUp = roundingDigit > 5 || (roundingDigit == 5 && (sticky || quotient & 1 == 1))
            return (quotient, roundsUp)
        }
    }
}

/// An unsigned integer of up to 1,280 bits in caller-provided limbs (little-endian `UInt32`s).
/// Large enough for every `Double` scaled to 17 digits (at most about 1,190 bits).
private struct XMLBigUnsigned {
    static let capacity = 40
    static let powersOfTen: [UInt32] = [
        1, 10, 100, 1000, 10000, 100_000, 1_000_000, 10_000_000, 100_000_000, 1_000_000_000,
    ]

    var storage: UnsafeMutableBufferPointer<UInt32>
    var count: Int

    init(storage: UnsafeMutableBufferPointer<UInt32>, value: UInt64) {
        self.storage = storage
        storage[0] = UInt32(truncatingIfNeeded: value)
        storage[1] = UInt32(truncatingIfNeeded: value >> 32)
        self.count = storage[1] == 0 ? 1 : 2
    }

    mutating func multiply(by factor: UInt32) {
        var carry: UInt64 = 0
        for index in 0..<self.count {
            let product = UInt64(self.storage[index]) * UInt64(factor) + carry
            self.storage[index] = UInt32(truncatingIfNeeded: product)
            carry = product >> 32
        }
        if carry != 0 {
            self.storage[self.count] = UInt32(truncatingIfNeeded: carry)
            self.count += 1
        }
    }

    mutating func multiply(byPowerOfTen exponent: Int) {
        var remaining = exponent
        while remaining > 0 {
            let step = min(remaining, 9)
            self.multiply(by: Self.powersOfTen[step])
            remaining -= step
        }
    }

    mutating func shiftLeft(_ bits: Int) {
        guard bits > 0 else { return }
        let words = bits / 32
        let shift = bits % 32
        if shift == 0 {
            for index in stride(from: self.count - 1, through: 0, by: -1) {
                self.storage[index + words] = self.storage[index]
            }
            self.count += words
        } else {
            self.storage[self.count + words] = self.storage[self.count - 1] >> (32 - shift)
            for index in stride(from: self.count - 1, to: 0, by: -1) {
                self.storage[index + words] =
                    self.storage[index] << shift | self.storage[index - 1] >> (32 - shift)
            }
            self.storage[words] = self.storage[0] << shift
            self.count += words + 1
        }
        for index in 0..<words {
            self.storage[index] = 0
        }
        self.trim()
    }

    /// Divides in place and returns the remainder.
    mutating func divide(by divisor: UInt32) -> UInt32 {
        var remainder: UInt64 = 0
        for index in stride(from: self.count - 1, through: 0, by: -1) {
            let current = remainder << 32 | UInt64(self.storage[index])
            self.storage[index] = UInt32(truncatingIfNeeded: current / UInt64(divisor))
            remainder = current % UInt64(divisor)
        }
        self.trim()
        return UInt32(truncatingIfNeeded: remainder)
    }

    private mutating func trim() {
        while self.count > 1, self.storage[self.count - 1] == 0 {
            self.count -= 1
        }
    }

    /// The low 64 bits of `self >> shift`.
    func bits(from shift: Int) -> UInt64 {
        let word = shift / 32
        let offset = UInt64(shift % 32)
        let low = UInt64(self.limb(word)) | UInt64(self.limb(word + 1)) << 32
        let high = UInt64(self.limb(word + 2))
        return offset == 0 ? low : low >> offset | high << (64 - offset)
    }

    private func limb(_ index: Int) -> UInt32 {
        index < self.count ? self.storage[index] : 0
    }

    func bit(_ position: Int) -> Bool {
        guard position >= 0 else { return false }
        let word = position / 32
        guard word < self.count else { return false }
        return self.storage[word] >> UInt32(position % 32) & 1 == 1
    }

    /// Whether any bit below `position` is set.
    func hasBits(below position: Int) -> Bool {
        guard position > 0 else { return false }
        let fullWords = min(position / 32, self.count)
        for index in 0..<fullWords where self.storage[index] != 0 {
            return true
        }
        guard fullWords < self.count, position % 32 != 0 else { return false }
        return self.storage[fullWords] & (1 << UInt32(position % 32) - 1) != 0
    }
}
