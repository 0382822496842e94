//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-keyed-archive open source project
//
// Licensed under Apache License v2.0
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import PropertyLists
import Testing

/// The pool names strings by their bytes and groups them by `==`; it skips `String` hashing while
/// every string is ASCII, and is emptied for reuse.
@Suite struct BinaryStringPoolTests {
    // U+212A KELVIN SIGN and U+1FEF GREEK VARIA are `==` to the ASCII "K" and "`".
    static let pairs: [(ascii: String, other: String)] = [("K", "\u{212A}"), ("`", "\u{1FEF}")]

    @Test func anEqualStringWithOtherBytesJoinsTheClassOfAnEarlierASCIIString() {
        for (ascii, other) in Self.pairs {
            var pool = BinaryStringPool()
            let first = pool.id(for: ascii)
            let plain = pool.id(for: "plain")
            let second = pool.id(for: other)
            #expect(first != second)
            #expect(pool.canonicalIDs[Int(second)] == first)
            #expect(pool.canonicalIDs[Int(plain)] == plain)
            // Added after the first non-ASCII string, an ASCII string still finds its class.
            let e = pool.id(for: "e\u{301}")
            let composed = pool.id(for: "\u{E9}")
            #expect(pool.canonicalIDs[Int(composed)] == e)
            let later = pool.id(for: "later")
            #expect(pool.canonicalIDs[Int(later)] == later)
        }
    }

    @Test func anASCIIStringJoinsTheClassOfAnEarlierEqualString() {
        var pool = BinaryStringPool()
        let other = pool.id(for: "\u{212A}")
        let ascii = pool.id(for: "K")
        #expect(pool.canonicalIDs[Int(ascii)] == other)
    }

    @Test func distinctASCIIStringsAreDistinctClasses() {
        var pool = BinaryStringPool()
        let ids = ["a", "b", "A", "a ", "", "ab"].map { pool.id(for: $0) }
        #expect(Set(ids).count == 6)
        #expect(ids.map { pool.canonicalIDs[Int($0)] } == ids)
    }

    @Test(arguments: [3, 40, 2_000])
    func anEmptiedPoolKeepsNothingOfItsStrings(count: Int) {
        var pool = BinaryStringPool()
        for index in 0..<count { _ = pool.id(for: "string \(index)") }
        _ = pool.id(for: "\u{212A}")
        pool.removeAll()
        #expect(pool.count == 0)
        // "K" must not join the class of the KELVIN SIGN added before the pool was emptied.
        let k = pool.id(for: "K")
        #expect(k == 0)
        #expect(pool.canonicalIDs == [0])
        let id = pool.id(for: "string 1")
        #expect(id == 1)
        pool.withUTF8View { #expect(Array($0.bytes(of: id)) == Array("string 1".utf8)) }
        #expect(pool.id(for: "\u{212A}") == 2)
        #expect(pool.canonicalIDs[2] == k)
    }

    @Test(arguments: [0, 10, 3_000])
    func theFirstStringsStayWithTheirIdsWhenThePoolIsEmptied(extra: Int) {
        var pool = BinaryStringPool()
        let kept = ["$null", "K", "\u{E9}", "root"]
        for string in kept { _ = pool.id(for: string) }
        for index in 0..<extra { _ = pool.id(for: "extra \(index)") }
        _ = pool.id(for: "\u{212A}")
        pool.removeAll(keepingFirst: kept.count)
        #expect(pool.count == kept.count)
        for (id, string) in kept.enumerated() {
            #expect(pool.id(for: string) == UInt32(id))
            pool.withUTF8View { #expect(Array($0.bytes(of: UInt32(id))) == Array(string.utf8)) }
        }
        // New strings get the next ids and join the classes of kept strings they equal.
        let kelvin = pool.id(for: "\u{212A}")
        #expect(kelvin == UInt32(kept.count))
        #expect(pool.canonicalIDs[Int(kelvin)] == 1)
        let decomposed = pool.id(for: "e\u{301}")
        #expect(pool.canonicalIDs[Int(decomposed)] == 2)
        #expect(pool.id(for: "extra 1") == UInt32(kept.count + 2))
    }
}
