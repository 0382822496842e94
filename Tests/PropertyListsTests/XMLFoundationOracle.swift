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
import TestSupport

/// Foundation's `PropertyListSerialization`, used as the reference for XML output, plus a seeded
/// generator of UID-free values to feed it.
enum XMLFoundationOracle {
    /// The XML Foundation writes for `value`.
    static func xml(_ value: PropertyListValue) throws -> [UInt8] {
        [UInt8](try FoundationOracle.serialize(value, as: .xml))
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

    /// Where two XML documents read back differently (ours on the left), or `nil`: read by this package,
    /// whose dictionaries keep their document order, which must agree too, and read by Foundation. Used
    /// where Foundation's exact spelling is not expected (Apple's Foundation).
    static func readingDifference(_ ours: [UInt8], _ theirs: [UInt8]) throws -> String? {
        let read = (try XMLPropertyListReader().read(ours), try XMLPropertyListReader().read(theirs))
        if let difference = ValueDifference.firstIncludingKeyOrder(read.0, read.1) {
            return "read by this package, \(difference)"
        }
        let parsed = (try FoundationOracle.parse(Data(ours)), try FoundationOracle.parse(Data(theirs)))
        guard let left = parsed.0, let right = parsed.1 else {
            return parsed.0 == nil && parsed.1 == nil ? nil : "read by Foundation, only one is a property list value"
        }
        return ValueDifference.first(left, right).map { "read by Foundation, \($0)" }
    }

    /// The times among `times` whose XML spelling the writer tests compare with Foundation's.
    ///
    /// All of them with swift-corelibs-foundation: the writer reproduces the spelling CoreFoundation gives every
    /// `Double` on x86-64, where the Linux jobs run. With Apple's, the finite ones within ±10^17 s: beyond them
    /// CoreFoundation's calendar arithmetic converts out-of-range doubles to integers, which arm64 (Apple silicon)
    /// does differently from x86-64, so Foundation's spelling depends on the CPU there.
    static func comparableTimes(_ times: [Double]) -> [Double] {
        switch FoundationImplementation.current {
        case .corelibs: return times
        case .apple: return times.filter { $0.isFinite && abs($0) <= 1e17 }
        }
    }
}

/// Reproducible random XML test inputs, drawn from ``SplitMix64``.
struct XMLTestRandom {
    private var generator: SplitMix64

    init(state: UInt64) {
        self.generator = SplitMix64(seed: state)
    }

    mutating func next() -> UInt64 {
        self.generator.next()
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
