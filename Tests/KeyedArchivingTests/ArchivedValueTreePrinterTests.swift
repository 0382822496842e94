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
import KeyedArchiving
import PropertyLists
import TestSupport
import Testing

/// The tree form of resolved archives, and the object graph it is printed from.
@Suite struct ArchivedValueTreePrinterTests {
    private static func classDictionary(_ name: String) -> PropertyListValue {
        ["$classname": .string(name), "$classes": [.string(name), "NSObject"]]
    }

    /// A cat whose owner is shared with a vet, and whose owner's pets lead back to the cat.
    private static let household = KeyedArchive(
        top: [("root", UID(1))],
        objects: [
            "$null",
            ["$class": .uid(2), "name": .uid(3), "owner": .uid(4), "vet": .uid(8)],  // 1 Cat
            classDictionary("Cat"),  // 2
            "Tom",  // 3
            ["$class": .uid(5), "name": .uid(6), "pets": .uid(7)],  // 4 Person
            classDictionary("Person"),  // 5
            "Ada",  // 6
            ["$class": .uid(10), "NS.objects": [.uid(1)]],  // 7 NSArray holding the cat
            ["$class": .uid(9), "client": .uid(4), "$$id": 12],  // 8 Vet
            classDictionary("Vet"),  // 9
            classDictionary("NSArray"),  // 10
        ]
    )

    @Test func graphKeepsContainersOnceAndCountsReferences() throws {
        let graph = try ArchivedObjectGraph(archive: Self.household)
        #expect(graph.top.map(\.key) == ["root"])
        #expect(graph.top.first?.value == .reference(UID(1)))
        #expect(Set(graph.objects.keys) == [UID(1), UID(4), UID(7), UID(8)])
        #expect(graph.referenceCount(of: UID(4)) == 2)
        #expect(graph.isShared(UID(4)))
        // The array's reference back to the cat is a cycle, which is not counted.
        #expect(graph.referenceCount(of: UID(1)) == 1)
        #expect(!graph.isShared(UID(1)))
        #expect(graph.objects[UID(4)]?["name"] == .string("Ada"))
        #expect(graph.objects[UID(4)]?["pets"] == .reference(UID(7)))
    }

    @Test func marksSharedObjectsAndCycles() throws {
        let expected = """
            root: Cat (3 fields)
              name: "Tom"
              owner: Person (2 fields) [UID 4, shared]
                name: "Ada"
                pets: NSArray (1 element)
                  [0] Cat [UID 1, cycle back to root]
              vet: Vet (2 fields)
                client: Person [UID 4, shown above at root.owner]
                $id: 12
            """
        #expect(try ArchivedValueTreePrinter().string(from: Self.household) == expected)
    }

    @Test func printsAnExpandedValueWithoutGraphMarks() throws {
        let value = try ArchivedValue(archive: Self.household)
        let expected = """
            root: Cat (3 fields)
              name: "Tom"
              owner: Person (2 fields)
                name: "Ada"
                pets: NSArray (1 element)
                  [0] [cycle back to UID 1]
              vet: Vet (2 fields)
                client: Person (2 fields)
                  name: "Ada"
                  pets: NSArray (1 element)
                    [0] [cycle back to UID 1]
                $id: 12
            """
        #expect(ArchivedValueTreePrinter().string(from: value) == expected)
    }

    @Test func printsScalarsAndDictionariesWithOtherKeys() throws {
        let uuid = try #require(UUID(uuidString: "0AD863BA-7584-40CF-8896-BD87B3280C34"))
        let value: ArchivedValue = .dictionary(
            [
                .init(key: .integer(1), value: .uuid(uuid)),
                .init(key: .string("url"), value: .url("https://example.com/")),
                .init(key: .date(Date(timeIntervalSinceReferenceDate: 0)), value: .null),
            ],
            className: "NSDictionary"
        )
        let expected = """
            NSDictionary (3 entries)
              [0] key: 1
              [0] value: UUID 0AD863BA-7584-40CF-8896-BD87B3280C34
              [1] key: "url"
              [1] value: URL https://example.com/
              [2] key: date 2001-01-01T00:00:00Z
              [2] value: null
            """
        #expect(ArchivedValueTreePrinter().string(from: value) == expected)
    }

    @Test(arguments: ["dict.xml", "primitives.bin", "integer_10.bplist"])
    func printsPlainPropertyListsAsThePropertyListPrinterDoes(name: String) throws {
        let value = try PropertyListValue(parsing: Fixtures.apple(name))
        guard case .dictionary(var dictionary) = value else { return }
        dictionary["$archiver"] = nil
        let plain = PropertyListValue.dictionary(dictionary)
        #expect(
            try ArchivedValueTreePrinter().string(fromPropertyList: plain)
                == PropertyListTreePrinter().string(from: plain)
        )
    }

    @Test func showsNestedPropertyListsWhenAsked() throws {
        let inner = KeyedArchive(top: [("root", UID(1))], objects: ["$null", "hi"]).serialized(as: .xml)
        let plain = PropertyListValue.array([1, 2]).serialized(as: .binary)
        let outer: PropertyListValue = ["inner": .data(inner), "plain": .data(plain)]
        let expected = """
            dictionary (2 entries)
              inner: data (\(inner.count) bytes) holding an XML keyed archive:
                root: "hi"
              plain: data (\(plain.count) bytes) holding a binary property list:
                array (2 elements)
                  [0] 1
                  [1] 2
            """
        let printer = ArchivedValueTreePrinter(expandsNestedData: true)
        #expect(try printer.string(fromPropertyList: outer) == expected)
        let flat = try ArchivedValueTreePrinter().string(fromPropertyList: outer)
        #expect(flat.contains("inner: data (\(inner.count) bytes) 3c3f786d"))
    }

    @Test func showsNestedArchivesThatDoNotResolveAsPropertyLists() throws {
        let unresolvable = KeyedArchive(top: [("root", UID(1))], objects: ["$null", ["$class": .uid(7)]])
        let outer: PropertyListValue = ["inner": .data(unresolvable.serialized(as: .binary))]
        let tree = try ArchivedValueTreePrinter(expandsNestedData: true).string(fromPropertyList: outer)
        #expect(tree.contains("holding a binary keyed archive:\n    dictionary (4 entries)\n"))
        #expect(tree.contains("$class: UID(7)"))
        let json = try ArchivedValueJSONWriter(expandsNestedData: true).write(propertyList: outer)
        #expect(String(decoding: json, as: UTF8.self).hasPrefix(#"{"inner":{"$plist":{"$version":100000,"#))
    }

    @Test func printsTheObjectTableUnresolved() throws {
        let expected = """
            $archiver: "NSKeyedArchiver"
            $version: 100000
            $top (1 key)
              root: UID 1
            $objects (11 objects)
              [0] $null
              [1] Cat {name: UID 3, owner: UID 4, vet: UID 8}
              [2] class Cat (Cat, NSObject)
              [3] "Tom"
              [4] Person {name: UID 6, pets: UID 7}
              [5] class Person (Person, NSObject)
              [6] "Ada"
              [7] NSArray {NS.objects: [UID 1]}
              [8] Vet {client: UID 4, $$id: 12}
              [9] class Vet (Vet, NSObject)
              [10] class NSArray (NSArray, NSObject)
            """
        #expect(KeyedArchiveTablePrinter().string(from: Self.household) == expected)
        var broken = Self.household
        broken.objects[3] = ["$class": .uid(99), "inline": ["a": [1, .uid(2)]]]
        #expect(
            KeyedArchiveTablePrinter().string(from: broken).contains(#"[3] {$class: UID 99, inline: {a: [1, UID 2]}}"#)
        )
    }
}
