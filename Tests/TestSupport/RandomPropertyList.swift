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
public import PropertyBased
public import PropertyLists

/// A small, fast, seedable generator (SplitMix64) so generated values are reproducible from a seed.
public struct SplitMix64: RandomNumberGenerator, Sendable {
    private var state: UInt64

    /// Creates a generator from a seed.
    public init(seed: UInt64) { self.state = seed }

    /// The next 64 random bits.
    public mutating func next() -> UInt64 {
        self.state &+= 0x9E37_79B9_7F4A_7C15
        var z = self.state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// Random property list values covering every kind and its edge cases.
public enum RandomPropertyList {
    /// What the generated values may contain.
    public struct Options: Sendable {
        /// Generate UIDs.
        public var uids = true
        /// Generate 32-bit floats (XML cannot keep their width).
        public var floats = true
        /// Generate dates with fractional seconds (XML keeps whole seconds only).
        public var fractionalDates = true
        /// Generate characters XML 1.0 cannot carry (controls other than tab and newline, carriage return).
        public var xmlUnsafeCharacters = true
        /// Generate NaN payloads and negative zero, which XML spells as `nan` and `0.0`.
        public var xmlLossyReals = true
        /// The deepest nesting.
        public var maximumDepth = 4

        /// Everything.
        public init() {}

        /// What an XML round trip keeps exactly.
        public static var xmlExact: Options {
            var options = Options()
            options.floats = false
            options.fractionalDates = false
            options.xmlUnsafeCharacters = false
            options.xmlLossyReals = false
            return options
        }
    }

    /// A generator of values, reproducible through the property check's seed.
    public static func generator(
        _ options: Options = Options()
    ) -> Generator<PropertyListValue, Shrink.None<UInt64>> {
        Gen<UInt64>.value(in: 0...UInt64.max).withoutShrink().map { seed in value(seed: seed, options) }
    }

    /// The value for `seed`.
    public static func value(seed: UInt64, _ options: Options = Options()) -> PropertyListValue {
        var rng = SplitMix64(seed: seed)
        return value(&rng, depth: 0, options)
    }

    private static func value(_ rng: inout SplitMix64, depth: Int, _ options: Options) -> PropertyListValue {
        let containers = depth < options.maximumDepth
        switch Int.random(in: 0..<(containers ? 12 : 9), using: &rng) {
        case 0: return .string(string(&rng, options))
        case 1: return .integer(integer(&rng))
        case 2:
            let real = real(&rng)
            if options.xmlLossyReals { return .real(real) }
            return .real(real.isNaN ? .nan : real == 0 ? 0.0 : real)
        case 3:
            return options.floats
                ? .float(Float(bitPattern: UInt32.random(in: 0...UInt32.max, using: &rng))) : .bool(false)
        case 4: return .bool(Bool.random(using: &rng))
        case 5: return .date(date(&rng, options))
        case 6:
            return .data(
                Data((0..<Int.random(in: 0...80, using: &rng)).map { _ in UInt8.random(in: 0...255, using: &rng) })
            )
        case 7:
            return options.uids ? .uid(UID(UInt64.random(in: 0...UInt64(UInt32.max) + 10, using: &rng))) : .string("u")
        case 8: return .string(["", "NS.objects", "$class", "a"].randomElement(using: &rng) ?? "")
        case 9, 10:
            let count = Int.random(in: 0...(Bool.random(using: &rng) ? 20 : 3), using: &rng)
            return .array((0..<count).map { _ in value(&rng, depth: depth + 1, options) })
        default:
            var dictionary = PropertyListDictionary()
            for _ in 0..<Int.random(in: 0...(Bool.random(using: &rng) ? 20 : 4), using: &rng) {
                var key = string(&rng, options)
                if key == "CF$UID" { key += "_" }
                dictionary[key] = value(&rng, depth: depth + 1, options)
            }
            return .dictionary(dictionary)
        }
    }

    private static func integer(_ rng: inout SplitMix64) -> PropertyListInteger {
        switch Int.random(in: 0..<6, using: &rng) {
        case 0: return PropertyListInteger(Int64.random(in: 0...255, using: &rng))
        case 1:
            return [Int64.min, Int64.max, -1, 0, 255, 256, 65_535, 65_536, 4_294_967_295, 4_294_967_296]
                .map { PropertyListInteger($0) }.randomElement(using: &rng) ?? 0
        case 2: return PropertyListInteger(UInt64.random(in: UInt64(Int64.max)...UInt64.max, using: &rng))
        default: return PropertyListInteger(Int64.random(in: Int64.min...Int64.max, using: &rng))
        }
    }

    private static func real(_ rng: inout SplitMix64) -> Double {
        switch Int.random(in: 0..<4, using: &rng) {
        case 0:
            return [0.0, -0.0, .nan, .infinity, -.infinity, .leastNonzeroMagnitude, .greatestFiniteMagnitude, 0.1]
                .randomElement(using: &rng) ?? 0
        case 1: return Double(Int.random(in: -1000...1000, using: &rng))
        case 2: return Double.random(in: -1e6...1e6, using: &rng)
        default: return Double(bitPattern: UInt64.random(in: 0...UInt64.max, using: &rng))
        }
    }

    private static func date(_ rng: inout SplitMix64, _ options: Options) -> Date {
        // Years 0001 to 9999 as CF's XML format can spell them.
        let seconds = Double(Int64.random(in: -63_113_904_000...252_423_993_599, using: &rng))
        let fraction = options.fractionalDates ? Double(Int.random(in: 0..<1_000_000, using: &rng)) / 1_000_000 : 0
        return Date(timeIntervalSinceReferenceDate: seconds + fraction)
    }

    private static let pool: [Unicode.Scalar] = {
        var scalars: [Unicode.Scalar] = []
        for value in 0x20...0x7E { scalars.append(Unicode.Scalar(UInt8(value))) }
        scalars += ["<", ">", "&", "\"", "'", "\t", "\n", "é", "ß", "Ω", "中", "文", "😀", "🐈", "\u{FEFF}", "\u{FFFD}"]
        return scalars
    }()

    private static let xmlUnsafe: [Unicode.Scalar] = ["\u{0}", "\u{1}", "\u{1F}", "\r", "\u{7F}"]

    private static func string(_ rng: inout SplitMix64, _ options: Options) -> String {
        var result = String.UnicodeScalarView()
        let length = Int.random(in: 0...(Bool.random(using: &rng) ? 40 : 8), using: &rng)
        let asciiOnly = Bool.random(using: &rng)
        for _ in 0..<length {
            if options.xmlUnsafeCharacters, Int.random(in: 0..<50, using: &rng) == 0,
                let scalar = xmlUnsafe.randomElement(using: &rng)
            {
                result.append(scalar)
            } else if asciiOnly {
                result.append(Unicode.Scalar(UInt8.random(in: 0x20...0x7E, using: &rng)))
            } else if let scalar = pool.randomElement(using: &rng) {
                result.append(scalar)
            }
        }
        return String(result)
    }
}
