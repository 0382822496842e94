//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-keyed-archive open source project
//
// Licensed under Apache License v2.0
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Testing

@testable import ArchiveStorage

@Suite struct EntryFileNameTests {
    @Test(arguments: [
        ("", "k-"),
        ("abc-1.2", "k-abc-1.2"),
        ("Hello", "k-_hello"),
        ("a/b", "k-a%2fb"),
        ("..", "k-.."),
        ("_%", "k-%5f%25"),
        ("a\u{0}b", "k-a%00b"),
        ("é", "k-%c3%a9"),
        ("🐱", "k-%f0%9f%90%b1"),
    ])
    func encodesKeysAsDocumented(key: String, name: String) {
        let encoded = EntryFileName(key: key)
        #expect(encoded.name == name)
        #expect(!encoded.isHashed)
        #expect(EntryFileName.classify(name) == .encoded(key: key))
    }

    @Test func roundTripsRandomKeysWithSafeNames() {
        var generator = SystemRandomNumberGenerator()
        let alphabet: [Unicode.Scalar] = ["a", "Z", "/", ".", "_", "%", "-", "\0", "é", "ß", "🐱", "\u{301}", " ", "\n"]
        var namesSeen: [String: String] = [:]
        for _ in 0..<2000 {
            let length = Int.random(in: 0...120, using: &generator)
            var key = ""
            for _ in 0..<length {
                key.unicodeScalars.append(
                    Bool.random(using: &generator)
                        ? alphabet.randomElement(using: &generator) ?? "a"
                        : Unicode.Scalar(UInt8.random(in: 0x20...0x7E, using: &generator))
                )
            }
            let name = EntryFileName(key: key)
            #expect(name.name.utf8.count <= EntryFileName.maximumLength)
            #expect(!name.name.hasPrefix("."))
            #expect(!name.name.utf8.contains(UInt8(ascii: "/")))
            // Only lower-case ASCII: a case-insensitive file system keeps every name apart.
            #expect(name.name.utf8.allSatisfy { $0 < 0x80 && !(UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0) })
            if name.isHashed {
                #expect(EntryFileName.classify(name.name) == .hashed)
            } else {
                guard case .encoded(let decoded) = EntryFileName.classify(name.name) else {
                    Issue.record("\(name.name) does not classify as an entry")
                    continue
                }
                #expect(Array(decoded.utf8) == Array(key.utf8))
            }
            // Different keys (by bytes) never share a name, even ignoring case.
            let folded = name.name.lowercased()
            if let other = namesSeen[folded] { #expect(Array(other.utf8) == Array(key.utf8)) }
            namesSeen[folded] = key
        }
    }

    @Test func longKeysGetHashedNamesOfFixedLength() {
        let fits = String(repeating: "a", count: 253)
        #expect(EntryFileName(key: fits).name == "k-" + fits)
        let long = String(repeating: "a", count: 254)
        let hashed = EntryFileName(key: long)
        #expect(hashed.isHashed)
        #expect(hashed.name.utf8.count == 66)
        #expect(hashed.name.hasPrefix("h-"))
        #expect(EntryFileName(key: long + "b").name != hashed.name)
        // 100 upper-case letters take 200 bytes; 100 emoji would take 1,200.
        #expect(!EntryFileName(key: String(repeating: "A", count: 100)).isHashed)
        #expect(EntryFileName(key: String(repeating: "🐱", count: 100)).isHashed)
        #expect(EntryFileName(key: String(repeating: "x", count: 100_000)).name.utf8.count == 66)
    }

    @Test func slotOfAKeyIsTheSlotOfItsFileName() {
        var keys = [
            "", "a", "Hello", "a/b", "_%", "a\u{0}b", "é", "🐱", String(repeating: "a", count: 253),
            String(repeating: "a", count: 254), String(repeating: "A", count: 126), String(repeating: "A", count: 127),
            String(repeating: "/", count: 84), String(repeating: "/", count: 85), String(repeating: "🐱", count: 100),
            String(repeating: "x", count: 10_000),
        ]
        var generator = SystemRandomNumberGenerator()
        let alphabet: [Character] = ["a", "Z", "/", ".", "_", "%", "-", "é", "🐱", " "]
        for _ in 0..<500 {
            keys.append(
                String(
                    (0..<Int.random(in: 0...150, using: &generator)).map { _ in
                        alphabet.randomElement(using: &generator) ?? "a"
                    }
                )
            )
        }
        for key in keys {
            #expect(
                EntryFileName.slot(forKey: key) == StoreControlFile.slot(forFileName: EntryFileName(key: key).name),
                "\(key.debugDescription)"
            )
        }
    }

    @Test(arguments: [
        ".archive-store", ".tmp-1-2", "Corrupt", "k-A", "k-%61", "k-%2F", "k-_", "k-%c3", "k-%", "h-abc",
        "h-" + String(repeating: "g", count: 64), "x-abc", "k", "",
    ])
    func foreignNamesAreNotEntries(name: String) {
        #expect(EntryFileName.classify(name) == .other)
    }
}
