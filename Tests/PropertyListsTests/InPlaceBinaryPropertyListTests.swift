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
import Testing

@Suite struct InPlaceBinaryPropertyListTests {
    /// The Apple fixtures that are binary property lists.
    static let binaryFixtures: [String] = Fixtures.appleFixtureNames.filter { name in
        (try? Fixtures.apple(name)).map { PropertyListFormat(detecting: $0) == .binary } ?? false
    }

    @Test func theFixturesIncludeBinaryOnes() {
        #expect(Self.binaryFixtures.count >= 20)
    }

    @Test(arguments: Self.binaryFixtures)
    func everyObjectReadsAsTheTreeReaderReadsIt(name: String) throws {
        let bytes = try Fixtures.apple(name)
        let reader = try BinaryPropertyListReader(bytes: bytes)
        let plist = try InPlaceBinaryPropertyList(copying: bytes, limits: .default)
        #expect(plist.objectCount == reader.objectCount)
        #expect(plist.topObjectIndex == reader.topObjectIndex)
        for index in 0..<reader.objectCount {
            #expect(try plist.propertyList(at: index, depth: 64) == reader.value(at: index), "object \(index)")
        }
    }

    @Test func readsEachKindOfObject() throws {
        let bytes = BinaryPropertyListAssembler.assemble(
            [
                [0xA8, 1, 2, 3, 4, 5, 6, 7, 8],  // 0: array of the others
                [0x09],  // true
                [0x11, 0x01, 0x2C],  // 300
                [0x23] + withUnsafeBytes(of: 2.5.bitPattern.bigEndian, Array.init),
                [0x81, 0x01, 0x00],  // UID 256
                [0x53] + Array("abc".utf8),
                [0x61, 0x00, 0xE9],  // "é" in UTF-16
                [0x42, 0xDE, 0xAD],
                [0xD1, 5, 2],  // ["abc": 300]
            ],
            top: 0
        )
        let plist = try InPlaceBinaryPropertyList(copying: bytes, limits: .default)
        guard case .array(let array) = try plist.reader.value(at: 0) else {
            Issue.record("the top object is not an array")
            return
        }
        #expect(array.count == 8)
        #expect(
            try plist.propertyList(at: 0, depth: 2) == [
                true, 300, 2.5, .uid(UID(256)), "abc", "é", .data(Data([0xDE, 0xAD])), ["abc": 300],
            ]
        )
        guard case .string(let utf16) = try plist.reader.value(at: 6),
            case .data(let data) = try plist.reader.value(at: 7)
        else {
            Issue.record("objects 6 and 7 are not a string and data")
            return
        }
        #expect(utf16.isUTF16)
        #expect(try plist.string(utf16) == "é")
        #expect(plist.reader.storedLength(of: utf16) == 2)
        #expect(plist.data(data) == Data([0xDE, 0xAD]))
        #expect(plist.data(data) == Data([0xDE, 0xAD]), "a second read, from the cache")
    }

    @Test func comparesKeysInPlaceInEveryStringForm() throws {
        let long = "a key longer than fifteen bytes"
        let bytes = BinaryPropertyListAssembler.assemble(
            [
                [0x54] + Array("name".utf8),
                [0x61, 0x00, 0xE9],  // "é" in UTF-16
                [0x5F, 0x10, UInt8(long.utf8.count)] + Array(long.utf8),
                [0x10, 0x04],  // an integer, not a string
            ],
            top: 0
        )
        let plist = try InPlaceBinaryPropertyList(copying: bytes, limits: .default)
        func isString(_ index: Int, _ string: String) -> Bool {
            var string = string
            return string.withUTF8 { plist.reader.isString(index, equalTo: $0) }
        }
        #expect(isString(0, "name"))
        #expect(!isString(0, "nam"))
        #expect(!isString(0, "nams"))
        #expect(isString(1, "é"))
        #expect(!isString(1, "e"))
        #expect(isString(2, long))
        #expect(!isString(2, String(long.dropLast())))
        #expect(!isString(3, "\u{4}"))
        #expect(!isString(9, "name"), "an index beyond the objects")
    }

    @Test func findsKeysByStaticAndDynamicStringsAlike() throws {
        let long = "a key longer than fifteen bytes"
        let bytes = BinaryPropertyListAssembler.assemble(
            [
                [0xD3, 1, 2, 3, 4, 4, 4],  // ["NS.time": 4, "é": 4, long: 4]
                [0x57] + Array("NS.time".utf8),
                [0x61, 0x00, 0xE9],  // "é" in UTF-16
                [0x5F, 0x10, UInt8(long.utf8.count)] + Array(long.utf8),
                [0x10, 0x04],
            ],
            top: 0
        )
        let plist = try InPlaceBinaryPropertyList(copying: bytes, limits: .default)
        guard case .dictionary(let dictionary) = try plist.reader.value(at: 0) else {
            Issue.record("the top object is not a dictionary")
            return
        }
        let reader = plist.reader
        #expect(reader.position(ofKey: "NS.time" as StaticString, in: dictionary) == 0)
        #expect(reader.position(ofKey: "é" as StaticString, in: dictionary) == 1)
        #expect(reader.position(ofKey: "a key longer than fifteen bytes" as StaticString, in: dictionary) == 2)
        #expect(reader.position(ofKey: "NS.tim" as StaticString, in: dictionary) == nil)
        #expect(reader.position(ofKey: "NS.time", in: dictionary) == 0)
        #expect(reader.position(ofKey: "é", in: dictionary) == 1)
        #expect(reader.position(ofKey: long, in: dictionary) == 2)
        #expect(reader.position(ofKey: "NS.tim", in: dictionary) == nil)
        #expect(reader.position(ofKey: "", in: dictionary) == nil)
    }

    @Test func droppingTheFirstCharacterOfAnEscapedKey() throws {
        let bytes = BinaryPropertyListAssembler.assemble(
            [[0x53] + Array("$$b".utf8), [0x62, 0x00, 0x24, 0x00, 0xE9]],  // "$$b", then "$é" in UTF-16
            top: 0
        )
        let plist = try InPlaceBinaryPropertyList(copying: bytes, limits: .default)
        guard case .string(let ascii) = try plist.reader.value(at: 0),
            case .string(let utf16) = try plist.reader.value(at: 1)
        else {
            Issue.record("the objects are not strings")
            return
        }
        #expect(try plist.string(ascii.droppingFirstCharacter) == "$b")
        #expect(try plist.string(utf16.droppingFirstCharacter) == "é")
        #expect(try plist.string(ascii) == "$$b", "the full string is cached apart from the shortened one")
    }

    /// The list keeps the strings it made last in a table of at most 1024 slots, by object index:
    /// strings whose objects share a slot, read in turn, must each come back as its own.
    @Test func stringsThatShareASlotOfTheRecentStringsReadAsTheirOwn() throws {
        let strings = (0..<3000).map { index in
            switch index % 4 {
            case 0: "s\(index)"
            case 1: "é\(index)"
            case 2: "a string longer than fifteen bytes, \(index)"
            default: "$\(index)"
            }
        }
        let plist = try InPlaceBinaryPropertyList(
            copying: BinaryPropertyListWriter().write(.array(strings.map { .string($0) })),
            limits: .default
        )
        guard case .array(let array) = try plist.reader.value(at: plist.topObjectIndex) else {
            Issue.record("the top object is not an array")
            return
        }
        var regions: [InPlaceRegion] = []
        for position in 0..<array.count {
            guard case .string(let region) = try plist.reader.value(at: plist.reader.element(of: array, at: position))
            else {
                Issue.record("element \(position) is not a string")
                return
            }
            regions.append(region)
        }
        // Three rounds, each reading the strings in another order, so that objects 1024 apart
        // (one slot) and an escaped string and its shortened form replace one another.
        for round in 0..<3 {
            for step in 0..<strings.count {
                let position = (step * (round * 2 + 1) + round * 1024) % strings.count
                #expect(try plist.string(regions[position]) == strings[position], "round \(round), \(position)")
                if position % 4 == 3 {
                    let shortened = regions[position].droppingFirstCharacter
                    #expect(try plist.string(shortened) == String(strings[position].dropFirst()))
                }
            }
        }
    }

    @Test func enforcesLengthLimitsWhenAnObjectIsRead() throws {
        let bytes = BinaryPropertyListAssembler.assemble(
            [[0xA2, 1, 2], [0x5A] + Array("abcdefghij".utf8), [0x4A] + Array(repeating: 0, count: 10)],
            top: 0
        )
        var limits = PropertyListLimits.default
        limits.maximumStringLength = 4
        limits.maximumDataLength = 4
        limits.maximumCollectionCount = 1
        let plist = try InPlaceBinaryPropertyList(copying: bytes, limits: limits)
        #expect(throws: PropertyListError(.sizeLimitExceeded, offset: 0)) { try plist.reader.value(at: 0) }
        #expect(throws: PropertyListError(.sizeLimitExceeded, offset: 0)) { try plist.reader.value(at: 1) }
        #expect(throws: PropertyListError(.sizeLimitExceeded, offset: 0)) { try plist.reader.value(at: 2) }
    }

    @Test func rejectsReferencesBeyondTheObjectsAndInvalidMarkers() throws {
        let bytes = BinaryPropertyListAssembler.assemble([[0x70], [0x53, 0x61, 0xFF, 0x62]], top: 0)
        let plist = try InPlaceBinaryPropertyList(copying: bytes, limits: .default)
        #expect(throws: PropertyListError(.invalidReference, offset: 0)) { try plist.reader.value(at: 2) }
        #expect(throws: PropertyListError(.invalidReference, offset: 0)) { try plist.reader.value(at: -1) }
        #expect(throws: PropertyListError(.invalidMarker, offset: 0)) { try plist.reader.value(at: 0) }
        guard case .string(let region) = try plist.reader.value(at: 1) else {
            Issue.record("object 1 is not a string")
            return
        }
        #expect(throws: PropertyListError(.invalidString, offset: 0)) { try plist.string(region) }
    }

    @Test func rejectsInputThatIsNotABinaryPropertyList() {
        #expect(throws: PropertyListError.self) {
            try InPlaceBinaryPropertyList(copying: Array("bplist00".utf8), limits: .default)
        }
    }

    /// One list reads fixture after fixture, large and small, borrowed and copied (its table of
    /// recent strings kept or made anew): every object reads as a list made for the fixture reads
    /// it, with no string of an earlier fixture left over at the same object index.
    @Test func aListReadingOtherBytesReadsThemAsANewListWould() throws {
        let names = Self.binaryFixtures + Self.binaryFixtures.reversed()
        let first = try Fixtures.apple(names[0])
        let list = try InPlaceBinaryPropertyList(copying: first, limits: .default)
        for (round, name) in names.enumerated() {
            let bytes = [UInt8](try Fixtures.apple(name))
            let fresh = try InPlaceBinaryPropertyList(copying: bytes, limits: .default)
            try bytes.withUnsafeBufferPointer { buffer in
                if round.isMultiple(of: 2) {
                    try list.read(borrowing: buffer, limits: .default)
                } else {
                    try list.read(copying: buffer, limits: .default)
                }
                #expect(list.objectCount == fresh.objectCount, "\(name)")
                #expect(list.topObjectIndex == fresh.topObjectIndex, "\(name)")
                for index in 0..<fresh.objectCount {
                    #expect(
                        try list.propertyList(at: index, depth: 64) == fresh.propertyList(at: index, depth: 64),
                        "\(name), object \(index)"
                    )
                }
                list.ownBytes()
            }
        }
    }

    /// Bytes that are not a property list leave the list reading what it read; a released list
    /// has no objects.
    @Test func aFailedReadKeepsTheListAndAReleasedOneHasNoObjects() throws {
        let bytes = BinaryPropertyListAssembler.assemble([[0x53] + Array("abc".utf8)], top: 0)
        let list = try InPlaceBinaryPropertyList(copying: bytes, limits: .default)
        #expect(throws: PropertyListError.self) {
            try list.read(copying: Array("bplist00".utf8), limits: .default)
        }
        #expect(try list.propertyList(at: 0, depth: 1) == "abc")
        list.release()
        #expect(list.objectCount == 0)
        #expect(throws: PropertyListError(.invalidReference, offset: 0)) { try list.reader.value(at: 0) }
    }
}
