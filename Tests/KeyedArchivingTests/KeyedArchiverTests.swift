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

// The seeds' models: plain Codable structs and classes, no NSObject.
private struct Coordinate: Codable, Equatable {
    var latitude: Double
    var longitude: Double
}

private struct Product: Codable, Equatable {
    var name: String
    var price: Double
    var tags: [String]
    var origin: Coordinate?
}

private final class Dog: Codable {
    var name: String
    init(name: String) { self.name = name }
}

private final class Person: Codable {
    var name: String
    var dog: Dog
    init(name: String, dog: Dog) {
        self.name = name
        self.dog = dog
    }
}

/// Foundation's counterparts of `Person` and `Dog`, for the interop tests. corelibs Foundation needs
/// them to be top-level (not private) classes.
final class ArchiverTestPersonNS: NSObject, NSCoding {
    let name: String
    let dogName: String
    init(name: String, dogName: String) {
        self.name = name
        self.dogName = dogName
    }
    init?(coder: NSCoder) {
        guard let name = coder.decodeObject(forKey: "name") as? String,
            let dog = coder.decodeObject(forKey: "dog") as? ArchiverTestDogNS
        else { return nil }
        self.name = name
        self.dogName = dog.name
    }
    func encode(with coder: NSCoder) {
        coder.encode(self.name, forKey: "name")
        coder.encode(ArchiverTestDogNS(name: self.dogName), forKey: "dog")
    }
}

final class ArchiverTestDogNS: NSObject, NSCoding {
    let name: String
    init(name: String) { self.name = name }
    init?(coder: NSCoder) {
        guard let name = coder.decodeObject(forKey: "name") as? String else { return nil }
        self.name = name
    }
    func encode(with coder: NSCoder) { coder.encode(self.name, forKey: "name") }
}

@Suite struct KeyedArchiverTests {
    @Test func structArchivedToAFileAndBack() throws {
        let product = Product(
            name: "Kettle",
            price: 24.5,
            tags: ["kitchen"],
            origin: Coordinate(latitude: 59.9, longitude: 10.7)
        )
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("product-\(UUID().uuidString).archive")
        defer { try? FileManager.default.removeItem(at: url) }
        try KeyedArchiveEncoder().encode(product).write(to: url)
        #expect(try KeyedArchiveDecoder().decode(Product.self, from: Data(contentsOf: url)) == product)
    }

    @Test func severalObjectsUnderKeys() throws {
        let archiver = KeyedArchiver()
        try archiver.encode(Coordinate(latitude: 1, longitude: 2), forKey: "home")
        try archiver.encode(Product(name: "Mug", price: 3, tags: [], origin: nil), forKey: "product")
        try archiver.encode("first")
        try archiver.encode(42)
        try archiver.encode("again", forKey: "$weird")
        #expect(archiver.keys == ["home", "product", "$0", "$1", "$$weird"])
        let data = try archiver.finishEncoding()

        let unarchiver = try KeyedUnarchiver(data: data)
        #expect(unarchiver.allKeys == ["home", "product", "$0", "$1", "$weird"])
        #expect(try unarchiver.decode(Coordinate.self, forKey: "home") == Coordinate(latitude: 1, longitude: 2))
        let product: Product = try unarchiver.decode(forKey: "product")
        #expect(product.name == "Mug" && product.origin == nil)
        #expect(try unarchiver.decode(String.self, at: 0) == "first")
        #expect(try unarchiver.decode(Int.self, at: 1) == 42)
        #expect(try unarchiver.decode(String.self, forKey: "$weird") == "again")
        #expect(unarchiver.containsValue(forKey: "home"))
        #expect(!unarchiver.containsValue(forKey: "away"))
        #expect(throws: DecodingError.self) { try unarchiver.decode(Int.self, forKey: "away") }
    }

    /// Binary output comes straight from the encoder's table; it must be the bytes the archive
    /// model serialises to.
    @Test func binaryOutputEqualsTheSerialisedArchive() throws {
        func fill(_ archiver: KeyedArchiver) throws {
            let dog = Dog(name: "Rex")
            try archiver.encode(Person(name: "Ann", dog: dog), forKey: "owner")
            try archiver.encode(dog, forKey: "dog")
            try archiver.encode([Coordinate(latitude: 1, longitude: 2)], forKey: "places")
            try archiver.encode("first")
            try archiver.encode(7, forKey: "count")
            try archiver.encode(0.25, forKey: "ratio")
            try archiver.encode(8, forKey: "count")
        }
        let direct = KeyedArchiver()
        try fill(direct)
        let viaModel = KeyedArchiver()
        try fill(viaModel)
        #expect(try direct.finishEncoding() == viaModel.finishArchive().serialized(as: .binary))
        #expect(throws: EncodingError.self) { try direct.finishEncoding() }
    }

    @Test func aSharedInstanceDecodesIntoOneInstanceAcrossKeys() throws {
        let dog = Dog(name: "Rex")
        let archiver = KeyedArchiver()
        try archiver.encode(Person(name: "Ann", dog: dog), forKey: "ann")
        try archiver.encode(Person(name: "Bob", dog: dog), forKey: "bob")
        try archiver.encode(dog, forKey: "dog")
        let archive = try archiver.finishArchive()
        #expect(
            archive.objects.filter {
                $0["name"] == .uid(archive.objects.firstIndex(of: "Rex").map { UID(UInt64($0)) } ?? 0)
            }.count == 1
        )

        let unarchiver = KeyedUnarchiver(archive: archive)
        let ann: Person = try unarchiver.decode(forKey: "ann")
        let bob: Person = try unarchiver.decode(forKey: "bob")
        let decodedDog: Dog = try unarchiver.decode(forKey: "dog")
        #expect(ann.dog === bob.dog)
        #expect(ann.dog === decodedDog)
        #expect(decodedDog.name == "Rex")
    }

    @Test func finishingTwiceOrEncodingAfterFinishingThrows() throws {
        let archiver = KeyedArchiver()
        try archiver.encodeRootObject(1)
        _ = try archiver.finishEncoding()
        #expect(throws: EncodingError.self) { try archiver.encode(2, forKey: "late") }
        #expect(throws: EncodingError.self) { try archiver.finishEncoding() }
    }

    @Test(arguments: PropertyListFormat.allCases)
    func foundationReadsSeveralKeysAndMapsClassNames(format: PropertyListFormat) throws {
        var encoder = KeyedArchiveEncoder()
        encoder.outputFormat = format
        encoder.setClassName("KAPersonNS", for: Person.self)
        encoder.setClassName("KADogNS", for: Dog.self)
        let archiver = KeyedArchiver(encoder: encoder)
        try archiver.encode(Person(name: "Ann", dog: Dog(name: "Rex")), forKey: "owner")
        try archiver.encode("note", forKey: "note")
        let data = try archiver.finishEncoding()

        let unarchiver = try NSKeyedUnarchiver(forReadingFrom: data)
        unarchiver.requiresSecureCoding = false
        unarchiver.setClass(ArchiverTestPersonNS.self, forClassName: "KAPersonNS")
        unarchiver.setClass(ArchiverTestDogNS.self, forClassName: "KADogNS")
        let person = try #require(unarchiver.decodeObject(forKey: "owner") as? ArchiverTestPersonNS)
        #expect(person.name == "Ann")
        #expect(person.dogName == "Rex")
        #expect(unarchiver.decodeObject(forKey: "note") as? String == "note")
    }

    /// `NSKeyedArchiver`'s `encode(_:forKey:)` stores numbers and Booleans inline in `$top` and
    /// strings as objects; ours must write the same archive: byte for byte in XML with
    /// swift-corelibs-foundation, the same property list (keys and objects in the same order) with
    /// Apple's.
    @Test func scalarsUnderKeysAreInlineInTopAsFoundationWritesThem() throws {
        let foundation = NSKeyedArchiver(requiringSecureCoding: false)
        foundation.outputFormat = .xml
        foundation.encode(42, forKey: "n")
        foundation.encode(true, forKey: "b")
        foundation.encode(2.5, forKey: "d")
        foundation.encode(Float(1.5), forKey: "f")
        foundation.encode(Int64(-7), forKey: "i64")
        foundation.encode("hi", forKey: "s")
        foundation.finishEncoding()

        var encoder = KeyedArchiveEncoder()
        encoder.outputFormat = .xml
        let archiver = KeyedArchiver(encoder: encoder)
        try archiver.encode(42, forKey: "n")
        try archiver.encode(true, forKey: "b")
        try archiver.encode(2.5, forKey: "d")
        try archiver.encode(Float(1.5), forKey: "f")
        try archiver.encode(Int64(-7), forKey: "i64")
        try archiver.encode("hi", forKey: "s")
        let ours = try archiver.finishEncoding()
        switch FoundationImplementation.current {
        case .corelibs:
            #expect(String(decoding: ours, as: UTF8.self) == String(decoding: foundation.encodedData, as: UTF8.self))
        case .apple:
            let difference = ValueDifference.firstIncludingKeyOrder(
                try PropertyListValue(parsing: ours),
                try PropertyListValue(parsing: foundation.encodedData)
            )
            #expect(difference == nil, "\(difference ?? "")")
        }

        let archive = try KeyedArchive(parsing: ours)
        #expect(archive.topValue(forKey: "n") == .integer(42))
        // XML keeps no difference between 32- and 64-bit reals.
        #expect(archive.topValue(forKey: "f") == .real(1.5))
        #expect(archive.objects == ["$null", "hi"])
        let unarchiver = KeyedUnarchiver(archive: archive)
        #expect(try unarchiver.decode(Int.self, forKey: "n") == 42)
        #expect(try unarchiver.decode(Bool.self, forKey: "b"))
        #expect(try unarchiver.decode(Float.self, forKey: "f") == 1.5)
        #expect(try unarchiver.decode(Int64.self, forKey: "i64") == -7)

        // The root object and generated keys stay objects, as `archivedData(withRootObject:)` and
        // `encode(_:)` store an `NSNumber`.
        let rooted = KeyedArchiver()
        try rooted.encodeRootObject(3)
        try rooted.encode(4)
        let rootedArchive = try rooted.finishArchive()
        #expect(rootedArchive.top.map(\.uid) == [UID(1), UID(2)])
        #expect(rootedArchive.objects == ["$null", 3, 4])
    }

    @Test func foundationsSeveralKeysDecodeWithoutRegistration() throws {
        let archiver = NSKeyedArchiver(requiringSecureCoding: false)
        archiver.encode(ArchiverTestPersonNS(name: "Ann", dogName: "Rex"), forKey: "owner")
        archiver.encode(["a", "b"], forKey: "letters")
        archiver.finishEncoding()

        let unarchiver = try KeyedUnarchiver(data: archiver.encodedData)
        // Whatever class name Foundation chose (corelibs writes the module-qualified Swift name and
        // ignores `setClassName(_:for:)` when archiving), the struct decodes by shape.
        #expect(unarchiver.archive.objects.contains { $0["$classname"] == "KeyedArchivingTests.ArchiverTestPersonNS" })
        let person: Person = try unarchiver.decode(forKey: "owner")
        #expect(person.name == "Ann")
        #expect(person.dog.name == "Rex")
        #expect(try unarchiver.decode([String].self, forKey: "letters") == ["a", "b"])
    }

    @Test func manualArchiveCodingTypesUseTheArchiveCoders() throws {
        let pet = ArchiveCodingTests.pet
        for format in PropertyListFormat.allCases {
            var encoder = KeyedArchiveEncoder()
            encoder.outputFormat = format
            let data = try encoder.encode(pet)
            #expect(try KeyedArchiveDecoder().decode(Pet.self, from: data) == pet)
        }
        let archive = try KeyedArchiveEncoder().encodeArchive(pet)
        let root = try archive.object(for: #require(archive.topUID(forKey: "root")))
        #expect(try archive.archivedClass(of: root)?.name == "Pet")
        #expect(root["weight"] == .real(4.25))
        #expect(root["nickname"] == .uid(0))
    }
}
