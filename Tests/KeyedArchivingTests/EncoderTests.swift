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
import Testing

@testable import KeyedArchiving

// MARK: - Models

extension KeyedArchiveEncoderTests {
    fileprivate enum Sex: String, Codable {
        case female
        case male
    }

    fileprivate struct Place: Codable, Equatable {
        var city: String
        var country: String
    }

    fileprivate struct Cat: Codable {
        var name: String
        var surname: String?
        var sex: Sex
        var nationality: String
        var birthPlace: Place?
        var birthday: Date
        var tags: [String]
        var weight: Double
    }

    fileprivate struct Scalars: Codable {
        var flag = true
        var int = -7
        var int8 = Int8.min
        var int16 = Int16.max
        var int32 = Int32.min
        var int64 = Int64.max
        var uint = UInt(7)
        var uint8 = UInt8.max
        var uint16 = UInt16.max
        var uint32 = UInt32.max
        var uint64 = UInt64.max
        var float = Float(1.5)
        var double = 2.25
        var string = "hello"
    }

    fileprivate struct Optionals: Codable {
        var string: String?
        var int: Int?
        var place: Place?
        var present: Int? = 3
    }

    fileprivate struct DollarKeys: Encodable {
        enum CodingKeys: String, CodingKey {
            case dollar = "$key"
            case plain
        }
        var dollar = 1
        var plain = 2
    }

    fileprivate struct Empty: Codable {}

    fileprivate struct NestedDollar: Encodable {
        enum CodingKeys: String, CodingKey { case outer = "$outer" }
        enum InnerKeys: String, CodingKey {
            case inner = "$inner"
            case missing
        }
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            var nested = container.nestedContainer(keyedBy: InnerKeys.self, forKey: .outer)
            try nested.encode(1, forKey: .inner)
            try nested.encodeNil(forKey: .missing)
        }
    }

    fileprivate enum Shape: Codable {
        case circle(radius: Double)
        case rectangle(width: Double, height: Double)
        case none
    }

    fileprivate struct Box<Value: Encodable>: Encodable {
        var value: Value
    }

    fileprivate struct Named: Codable, ArchivedClassNaming {
        static let archivedClassName = "MYNamed"
        static let archivedClassChain = ["MYNamed", "MYBase", "NSObject"]
        var x = 1
    }

    fileprivate final class Owner: Codable {
        var name: String
        init(name: String) { self.name = name }
    }

    fileprivate struct Pets: Codable {
        var first: Owner
        var second: Owner
        var others: [Owner]
    }

    fileprivate class Animal: Encodable {
        var name = "Rex"
        private enum CodingKeys: String, CodingKey { case name }
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(self.name, forKey: .name)
        }
    }

    fileprivate final class Dog: Animal {
        var breed = "Beagle"
        private enum CodingKeys: String, CodingKey { case breed }
        override func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(self.breed, forKey: .breed)
            try super.encode(to: container.superEncoder())
        }
    }

    fileprivate final class Puppy: Animal {
        var age = 1
        private enum CodingKeys: String, CodingKey { case age }
        override func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(self.age, forKey: .age)
            try super.encode(to: container.superEncoder(forKey: .age))
        }
    }

    fileprivate final class Node: Encodable {
        var name: String
        var next: Node?
        init(name: String) { self.name = name }
    }

    fileprivate struct Twice: Encodable {
        enum CodingKeys: String, CodingKey { case a, b }
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(1, forKey: .a)
            try container.encode(2, forKey: .b)
            try container.encode("last", forKey: .a)
        }
    }

    fileprivate struct Huge: Encodable {
        enum CodingKeys: String, CodingKey { case inner }
        struct Inner: Encodable {
            enum CodingKeys: String, CodingKey { case value }
            func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: CodingKeys.self)
                if #available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *) {
                    try container.encode(Int128(UInt64.max) + 1, forKey: .value)
                }
            }
        }
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(Inner(), forKey: .inner)
        }
    }

    fileprivate struct Misuse: Encodable {
        enum CodingKeys: String, CodingKey { case a }
        func encode(to encoder: any Encoder) throws {
            var keyed = encoder.container(keyedBy: CodingKeys.self)
            try keyed.encode(1, forKey: .a)
            var unkeyed = encoder.unkeyedContainer()
            try unkeyed.encode(2)
        }
    }

    fileprivate struct UserInfoReader: Encodable {
        static let key = CodingUserInfoKey(rawValue: "flavour")!
        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(encoder.userInfo[Self.key] as? String ?? "none")
        }
    }

    /// Holds a container that one value stashes and a later value writes into.
    fileprivate final class Stash {
        var container: KeyedEncodingContainer<Escaping.CodingKeys>?
    }

    fileprivate struct Escaping: Encodable {
        enum CodingKeys: String, CodingKey { case early, late }
        struct Early: Encodable {
            let stash: Stash
            func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: CodingKeys.self)
                try container.encode(1, forKey: .early)
                self.stash.container = container
            }
        }
        struct Late: Encodable {
            let stash: Stash
            func encode(to encoder: any Encoder) throws {
                try self.stash.container?.encode("written late", forKey: .late)
                var container = encoder.singleValueContainer()
                try container.encodeNil()
            }
        }
        let stash = Stash()
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(Early(stash: self.stash), forKey: .early)
            try container.encode(Late(stash: self.stash), forKey: .late)
        }
    }
}

// MARK: - Helpers

/// An archive's objects, with accessors that record an issue rather than crash.
private struct Graph {
    let archive: KeyedArchive

    init(_ data: Data) throws {
        self.archive = try KeyedArchive(parsing: data)
    }

    var rootUID: UID? { self.archive.topUID(forKey: "root") }

    func object(_ uid: UID?) -> PropertyListValue? {
        guard let uid else { return nil }
        return try? self.archive.object(for: uid)
    }

    var root: PropertyListValue? { self.object(self.rootUID) }

    /// The object a UID-valued entry refers to.
    func follow(_ value: PropertyListValue?) -> PropertyListValue? {
        self.object(value?.uidValue)
    }

    /// The class name of an object dictionary.
    func className(_ value: PropertyListValue?) -> String? {
        guard let value else { return nil }
        return (try? self.archive.archivedClass(of: value))??.name
    }

    func classChain(_ value: PropertyListValue?) -> [String]? {
        guard let value else { return nil }
        return (try? self.archive.archivedClass(of: value))??.classes
    }

    /// The keys (in order) and followed values of an `NSDictionary` object with string keys.
    func entries(_ value: PropertyListValue?) -> [(key: String, value: PropertyListValue)]? {
        guard let keys = self.members(value, key: "NS.keys"), let values = self.members(value),
            keys.count == values.count
        else { return nil }
        return zip(keys, values).map { (key: $0.stringValue ?? "<not a string>", value: $1) }
    }

    /// The objects an `NS.objects` or `NS.keys` array refers to.
    func members(_ value: PropertyListValue?, key: String = "NS.objects") -> [PropertyListValue]? {
        value?[key]?.arrayValue?.map { self.follow($0) ?? "<missing>" }
    }
}

private func encode<T: Encodable>(
    _ value: T,
    _ configure: (inout KeyedArchiveEncoder) -> Void = { _ in }
) throws -> Graph {
    var encoder = KeyedArchiveEncoder()
    configure(&encoder)
    return try Graph(encoder.encode(value))
}

private func classDictionary(_ name: String, _ chain: [String]? = nil) -> PropertyListValue {
    ArchivedClass(name: name, classes: chain).propertyList
}

// MARK: - Tests

@Suite struct KeyedArchiveEncoderTests {
    // MARK: Object graph

    @Test func structBecomesObjectWithClassFirstAndClassDictionaryLast() throws {
        let graph = try encode(Place(city: "Paris", country: "France"))
        let expected: [PropertyListValue] = [
            "$null",
            ["$class": .uid(4), "city": .uid(2), "country": .uid(3)],
            "Paris",
            "France",
            classDictionary("Place", ["Place", "NSObject"]),
        ]
        #expect(graph.archive.objects == expected)
        #expect(graph.archive.top.map(\.key) == ["root"])
        #expect(graph.rootUID == UID(1))
        #expect(graph.root?.dictionaryValue?.keys == ["$class", "city", "country"])
    }

    @Test func scalarsAreStoredInline() throws {
        let graph = try encode(Scalars())
        let root = try #require(graph.root?.dictionaryValue)
        #expect(
            root.keys == [
                "$class", "flag", "int", "int8", "int16", "int32", "int64", "uint", "uint8", "uint16", "uint32",
                "uint64", "float", "double", "string",
            ]
        )
        #expect(root["flag"] == .bool(true))
        #expect(root["int"] == .integer(-7))
        #expect(root["int8"] == .integer(-128))
        #expect(root["int16"] == .integer(32_767))
        #expect(root["int32"] == .integer(PropertyListInteger(Int64(Int32.min))))
        #expect(root["int64"] == .integer(PropertyListInteger(Int64.max)))
        #expect(root["uint"] == .integer(7))
        #expect(root["uint8"] == .integer(255))
        #expect(root["uint16"] == .integer(65_535))
        #expect(root["uint32"] == .integer(PropertyListInteger(UInt64(UInt32.max))))
        #expect(root["uint64"] == .integer(PropertyListInteger(UInt64.max)))
        #expect(root["float"] == .float(1.5))
        #expect(root["double"] == .real(2.25))
        #expect(graph.follow(root["string"]) == "hello")
        #expect(graph.archive.objects.count == 4)
    }

    @Test func nilIsNullWhetherEncodedOrSkipped() throws {
        let graph = try encode(Optionals())
        let root = try #require(graph.root?.dictionaryValue)
        #expect(root.keys == ["$class", "string", "int", "place", "present"])
        #expect(root["string"] == .uid(0))
        #expect(root["int"] == .uid(0))
        #expect(root["place"] == .uid(0))
        #expect(root["present"] == .integer(3))
        #expect(graph.archive.objects.first == "$null")
    }

    @Test func keysStartingWithDollarAreEscaped() throws {
        let graph = try encode(DollarKeys())
        #expect(graph.root?.dictionaryValue?.keys == ["$class", "$$key", "plain"])
        #expect(graph.root?["$$key"] == .integer(1))
    }

    @Test func encodingAKeyAgainReplacesItsValue() throws {
        let graph = try encode(Twice())
        #expect(graph.root?.dictionaryValue?.keys == ["$class", "a", "b"])
        #expect(graph.follow(graph.root?["a"]) == "last")
    }

    @Test func equalLeavesAreStoredOnce() throws {
        let graph = try encode(["cat", "dog", "cat", "dog"])
        let uids = try #require(graph.root?["NS.objects"]?.arrayValue)
        #expect(uids.count == 4)
        #expect(uids[0] == uids[2])
        #expect(uids[1] == uids[3])
        #expect(uids[0] != uids[1])
        #expect(graph.archive.objects.count == 5)
    }

    @Test func catModelGraph() throws {
        let birthday = Date(timeIntervalSinceReferenceDate: 12_345)
        let cat = Cat(
            name: "Tom",
            surname: nil,
            sex: .male,
            nationality: "FR",
            birthPlace: Place(city: "Paris", country: "FR"),
            birthday: birthday,
            tags: ["grey", "lazy"],
            weight: 4.5
        )
        let graph = try encode(cat)
        let root = try #require(graph.root)
        #expect(graph.className(root) == "Cat")
        #expect(
            root.dictionaryValue?.keys == [
                "$class", "name", "surname", "sex", "nationality", "birthPlace", "birthday", "tags", "weight",
            ]
        )
        #expect(graph.follow(root["name"]) == "Tom")
        #expect(root["surname"] == .uid(0))
        #expect(graph.follow(root["sex"]) == "male")
        #expect(root["birthPlace"]?.uidValue != nil)
        #expect(graph.follow(graph.follow(root["birthPlace"])?["country"]) == "FR")
        #expect(root["birthPlace"]?.uidValue.flatMap { graph.object($0)?["country"] } == root["nationality"])
        #expect(graph.className(graph.follow(root["birthday"])) == "NSDate")
        #expect(graph.follow(root["birthday"])?["NS.time"] == .real(12_345))
        #expect(graph.members(graph.follow(root["tags"])) == ["grey", "lazy"])
        #expect(root["weight"] == .real(4.5))
        // Objects come in NSKeyedArchiver's order: each object's UID before its contents, and a class
        // dictionary right after the contents of the first object that uses it.
        let names = graph.archive.objects.map { value -> String in
            if let string = value.stringValue { return string }
            if value["$classname"] != nil { return "class " + (value["$classname"]?.stringValue ?? "") }
            return graph.className(value) ?? "?"
        }
        #expect(
            names == [
                "$null", "Cat", "Tom", "male", "FR", "Place", "Paris", "class Place", "NSDate", "class NSDate",
                "NSArray", "grey", "lazy", "class NSArray", "class Cat",
            ]
        )
    }

    @Test func singleValueTypesTakeTheirValuesPlace() throws {
        let graph = try encode(Sex.female)
        #expect(graph.root == "female")
        #expect(graph.archive.objects == ["$null", "female"])

        let boxed = try encode(Box(value: Sex.male))
        #expect(boxed.follow(boxed.root?["value"]) == "male")

        let number = try encode(42)
        #expect(number.root == .integer(42))
    }

    @Test func genericScalarPropertiesAreInline() throws {
        let graph = try encode(Box(value: 7))
        #expect(graph.className(graph.root) == "Box<Int>")
        #expect(graph.root?["value"] == .integer(7))
        #expect(try encode(Box(value: Float(0.5))).root?["value"] == .float(0.5))
        #expect(try encode(Box(value: Double.nan)).root?["value"]?.doubleValue?.isNaN == true)
    }

    @Test func typeThatEncodesNothingIsAnObjectWithOnlyItsClass() throws {
        let graph = try encode(Empty())
        #expect(graph.archive.objects == ["$null", ["$class": .uid(2)], classDictionary("Empty")])
    }

    // MARK: Collections

    @Test func arrayBecomesNSArrayWithElementsAsObjects() throws {
        let graph = try encode([1, 2, 1] as [Int?] + [nil])
        let root = try #require(graph.root)
        #expect(graph.className(root) == "NSArray")
        #expect(graph.classChain(root) == ["NSArray", "NSObject"])
        #expect(root.dictionaryValue?.keys == ["$class", "NS.objects"])
        let uids = try #require(root["NS.objects"]?.arrayValue)
        #expect(uids.count == 4)
        #expect(uids[0] == uids[2])
        #expect(uids[3] == .uid(0))
        #expect(graph.follow(uids[0]) == .integer(1))
        #expect(graph.follow(uids[1]) == .integer(2))
    }

    @Test func nestedArraysAreNestedNSArrays() throws {
        let graph = try encode([[true], [false, true]])
        let outer = try #require(graph.members(graph.root))
        #expect(outer.map { graph.className($0) } == ["NSArray", "NSArray"])
        #expect(graph.members(outer[1]) == [.bool(false), .bool(true)])
    }

    @Test func setBecomesNSSet() throws {
        let graph = try encode(Set(["a", "b", "c"]))
        let root = try #require(graph.root)
        #expect(graph.className(root) == "NSSet")
        #expect(root.dictionaryValue?.keys == ["$class", "NS.objects"])
        let members = try #require(graph.members(root)).compactMap(\.stringValue)
        #expect(Set(members) == ["a", "b", "c"])
        #expect(members.count == 3)
    }

    @Test func dictionaryBecomesNSDictionaryWithKeysFirst() throws {
        let graph = try encode(["one": 1, "two": 2])
        let root = try #require(graph.root)
        #expect(graph.className(root) == "NSDictionary")
        #expect(root.dictionaryValue?.keys == ["$class", "NS.keys", "NS.objects"])
        let keys = try #require(graph.members(root, key: "NS.keys")).compactMap(\.stringValue)
        let values = try #require(graph.members(root)).compactMap(\.intValue)
        #expect(Dictionary(uniqueKeysWithValues: zip(keys, values)) == ["one": 1, "two": 2])
        // Every key is archived before any value.
        let keyUIDs = try #require(root["NS.keys"]?.arrayValue).compactMap(\.uidValue)
        let valueUIDs = try #require(root["NS.objects"]?.arrayValue).compactMap(\.uidValue)
        #expect(try #require(keyUIDs.max()) < #require(valueUIDs.min()))
    }

    @Test func dictionaryKeysOfAnyTypeAreObjects() throws {
        let graph = try encode([3: "three"])
        #expect(graph.members(graph.root, key: "NS.keys") == [.integer(3)])
        #expect(graph.members(graph.root) == ["three"])

        let places = try encode([Sex.male: Place(city: "Oslo", country: "NO")])
        #expect(places.members(places.root, key: "NS.keys") == ["male"])
        #expect(places.className(places.members(places.root)?.first) == "Place")
    }

    // MARK: Foundation types

    @Test func foundationTypesBecomeTheirNSClasses() throws {
        let date = Date(timeIntervalSinceReferenceDate: -1.5)
        let graph = try encode(date)
        #expect(
            graph.archive.objects == [
                "$null", ["$class": .uid(2), "NS.time": .real(-1.5)], classDictionary("NSDate"),
            ]
        )

        let uuid = try #require(UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F"))
        let uuidGraph = try encode(uuid)
        let bytes = withUnsafeBytes(of: uuid.uuid) { Data($0) }
        #expect(
            uuidGraph.archive.objects == [
                "$null", ["$class": .uid(2), "NS.uuidbytes": .data(bytes)], classDictionary("NSUUID"),
            ]
        )

        let data = Data([0, 1, 2, 255])
        #expect(try encode(data).archive.objects == ["$null", .data(data)])
    }

    @Test func urlBecomesNSURLWithItsBase() throws {
        let absolute = try #require(URL(string: "https://example.com/a?b=c"))
        let graph = try encode(absolute)
        #expect(
            graph.archive.objects == [
                "$null",
                ["$class": .uid(3), "NS.base": .uid(0), "NS.relative": .uid(2)],
                "https://example.com/a?b=c",
                classDictionary("NSURL"),
            ]
        )
        #expect(graph.root?.dictionaryValue?.keys == ["$class", "NS.base", "NS.relative"])

        let base = try #require(URL(string: "https://example.com/dir/"))
        let relative = try #require(URL(string: "file.txt", relativeTo: base))
        let relativeGraph = try encode(relative)
        let root = try #require(relativeGraph.root)
        #expect(relativeGraph.follow(root["NS.relative"]) == "file.txt")
        let baseObject = try #require(relativeGraph.follow(root["NS.base"]))
        #expect(relativeGraph.className(baseObject) == "NSURL")
        #expect(relativeGraph.follow(baseObject["NS.relative"]) == "https://example.com/dir/")
        #expect(baseObject["NS.base"] == .uid(0))
    }

    // MARK: Enums and nested containers

    @Test func enumWithAssociatedValuesNestsNSDictionaries() throws {
        let graph = try encode([Shape.circle(radius: 2), .rectangle(width: 3, height: 4), .none])
        let shapes = try #require(graph.members(graph.root))
        #expect(shapes.map { graph.className($0) } == ["Shape", "Shape", "Shape"])
        #expect(shapes[0].dictionaryValue?.keys == ["$class", "circle"])
        let circle = try #require(graph.follow(shapes[0]["circle"]))
        #expect(graph.className(circle) == "NSDictionary")
        #expect(circle.dictionaryValue?.keys == ["$class", "NS.keys", "NS.objects"])
        #expect(graph.entries(circle)?.map(\.key) == ["radius"])
        #expect(graph.entries(circle)?.map(\.value) == [.real(2)])
        let rectangle = try #require(graph.follow(shapes[1]["rectangle"]))
        #expect(graph.entries(rectangle)?.map(\.key) == ["width", "height"])
        #expect(graph.entries(rectangle)?.map(\.value) == [.real(3), .real(4)])
        let none = try #require(graph.follow(shapes[2]["none"]))
        #expect(graph.className(none) == "NSDictionary")
        #expect(graph.entries(none)?.isEmpty == true)
    }

    @Test func nestedKeyedContainersKeepDollarKeysAndStoreNilAsNull() throws {
        let graph = try encode(NestedDollar())
        let nested = try #require(graph.follow(graph.root?["$$outer"]))
        #expect(graph.entries(nested)?.map(\.key) == ["$inner", "missing"])
        #expect(nested["NS.objects"]?.arrayValue?.last == .uid(0))
    }

    // MARK: Classes

    @Test func sharedInstanceIsStoredOnce() throws {
        let owner = Owner(name: "Ann")
        let graph = try encode(Pets(first: owner, second: owner, others: [owner, Owner(name: "Bob")]))
        let root = try #require(graph.root)
        let first = try #require(root["first"]?.uidValue)
        #expect(root["second"]?.uidValue == first)
        let others = try #require(root["others"]).uidValue.flatMap { graph.object($0)?["NS.objects"]?.arrayValue }
        #expect(others?.first?.uidValue == first)
        #expect(others?.last?.uidValue != first)
        let owners = graph.archive.objects.filter { graph.className($0) == "Owner" }
        #expect(owners.count == 2)
    }

    @Test func cyclesPointAtTheReservedUID() throws {
        let a = Node(name: "a")
        let b = Node(name: "b")
        a.next = b
        b.next = a
        defer { a.next = nil }
        let graph = try encode(a)
        let root = try #require(graph.root)
        let bObject = try #require(graph.follow(root["next"]))
        #expect(graph.follow(bObject["name"]) == "b")
        #expect(bObject["next"]?.uidValue == graph.rootUID)
    }

    @Test func subclassChainListsSuperclassesAndSuperWritesIntoTheSameObject() throws {
        let graph = try encode(Dog())
        let root = try #require(graph.root)
        #expect(graph.className(root) == "Dog")
        #expect(graph.classChain(root) == ["Dog", "Animal", "NSObject"])
        #expect(root.dictionaryValue?.keys == ["$class", "breed", "name"])
        #expect(graph.follow(root["name"]) == "Rex")
    }

    @Test func superEncoderForKeyMakesASeparateObject() throws {
        let graph = try encode(Puppy())
        let root = try #require(graph.root)
        #expect(graph.classChain(root) == ["Puppy", "Animal", "NSObject"])
        let parent = try #require(graph.follow(root["age"]))
        #expect(graph.className(parent) == "NSDictionary")
        #expect(graph.entries(parent)?.map(\.key) == ["name"])
        #expect(graph.entries(parent)?.map(\.value) == ["Rex"])
    }

    @Test func escapedContainersStillLandInTheArchive() throws {
        let graph = try encode(Escaping())
        let early = try #require(graph.follow(graph.root?["early"]))
        #expect(early["early"] == .integer(1))
        #expect(graph.follow(early["late"]) == "written late")
        #expect(graph.root?["late"] == .uid(0))
    }

    // MARK: Naming

    @Test func setClassNameOverridesEveryOtherName() throws {
        var encoder = KeyedArchiveEncoder()
        #expect(encoder.className(for: Place.self) == nil)
        encoder.setClassName("MyApp.Place", for: Place.self)
        encoder.setClassName("MyApp.Named", for: Named.self)
        #expect(encoder.className(for: Place.self) == "MyApp.Place")
        let graph = try Graph(encoder.encode(Box(value: Place(city: "Rome", country: "IT"))))
        let place = graph.follow(graph.root?["value"])
        #expect(graph.className(place) == "MyApp.Place")
        #expect(graph.classChain(place) == ["MyApp.Place", "NSObject"])
        let named = try Graph(encoder.encode(Named()))
        #expect(named.classChain(named.root) == ["MyApp.Named", "NSObject"])
    }

    @Test func archivedClassNamingChoosesNameAndChain() throws {
        let graph = try encode(Named())
        #expect(graph.className(graph.root) == "MYNamed")
        #expect(graph.classChain(graph.root) == ["MYNamed", "MYBase", "NSObject"])
    }

    @Test func superclassNamesFollowTheMappings() throws {
        let graph = try encode(Dog()) { $0.setClassName("ANAnimal", for: Animal.self) }
        #expect(graph.classChain(graph.root) == ["Dog", "ANAnimal", "NSObject"])
    }

    // MARK: Options and errors

    @Test func xmlOutputHoldsTheSameArchive() throws {
        var encoder = KeyedArchiveEncoder()
        encoder.outputFormat = .xml
        let value = Box(value: ["a": [1, 2], "b": []])
        let xml = try encoder.encode(value)
        #expect(xml.starts(with: Data("<?xml".utf8)))
        encoder.outputFormat = .binary
        let binary = try encoder.encode(value)
        #expect(binary.starts(with: Data("bplist00".utf8)))
        #expect(try KeyedArchive(parsing: xml) == KeyedArchive(parsing: binary))
        #expect(try KeyedArchive(parsing: binary) == encoder.encodeArchive(value))
    }

    @Test func userInfoReachesEncodeTo() throws {
        var encoder = KeyedArchiveEncoder()
        encoder.userInfo[UserInfoReader.key] = "salty"
        #expect(try Graph(encoder.encode(UserInfoReader())).root == "salty")
    }

    @Test func unrepresentableIntegerThrowsWithTheCodingPath() throws {
        guard #available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *) else { return }
        let error = try #require(throws: EncodingError.self) { try KeyedArchiveEncoder().encode(Huge()) }
        guard case .invalidValue(_, let context) = error else {
            Issue.record("expected invalidValue, got \(error)")
            return
        }
        #expect(context.codingPath.map(\.stringValue) == ["inner", "value"])
    }

    @Test func sessionSharesInstancesAcrossTopLevelObjects() throws {
        let session = ArchiveEncodingSession(options: .init())
        defer { session.close() }
        let owner = Owner(name: "Ann")
        let ownerUID = try session.encodeObject(owner, codingPath: [ArchiveCodingKey(stringValue: "owner")])
        let petsUID = try session.encodeObject(
            Pets(first: owner, second: owner, others: []),
            codingPath: [ArchiveCodingKey(stringValue: "pets")]
        )
        let archive = try session.finish(top: [("owner", .uid(ownerUID.rawValue)), ("pets", .uid(petsUID.rawValue))])
        #expect(archive.top.map(\.key) == ["owner", "pets"])
        let pets = try archive.object(for: petsUID)
        #expect(pets["first"]?.uidValue == ownerUID)
        #expect(pets["second"]?.uidValue == ownerUID)
    }

    @Test func sessionErrorsStartAtTheTopLevelKey() throws {
        guard #available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *) else { return }
        let session = ArchiveEncodingSession(options: .init())
        defer { session.close() }
        let error = try #require(throws: EncodingError.self) {
            try session.encodeObject(Huge(), codingPath: [ArchiveCodingKey(stringValue: "top")])
        }
        guard case .invalidValue(_, let context) = error else {
            Issue.record("expected invalidValue, got \(error)")
            return
        }
        #expect(context.codingPath.map(\.stringValue) == ["top", "inner", "value"])
    }

    @Test func containerMisuseThrowsInsteadOfTrapping() throws {
        let error = try #require(throws: EncodingError.self) { try KeyedArchiveEncoder().encode(Box(value: Misuse())) }
        guard case .invalidValue(_, let context) = error else {
            Issue.record("expected invalidValue, got \(error)")
            return
        }
        #expect(context.codingPath.map(\.stringValue) == ["value"])
    }
}

// MARK: - Foundation's NSKeyedUnarchiver as the oracle

extension KeyedArchiveEncoderTests {
    /// Everything the interop test checks, in one archive small enough for corelibs' unarchiver.
    fileprivate struct Kitchen: Codable {
        var int8 = Int8(-8)
        var int16 = Int16(-1_600)
        var int32 = Int32.min
        var int64 = Int64.min
        var uint8 = UInt8.max
        var uint16 = UInt16.max
        var uint32 = UInt32.max
        var int = 42
        var float = Float(0.25)
        var double = -1.0e100
        var flag = true
        var missing: String? = nil
        var ints = [1, 2, 3]
        var counts = ["one": 1, "two": 2]
        var names: Set<String> = ["x", "y"]
        var data = Data([0xDE, 0xAD, 0xBE, 0xEF])
        var uuid = UUID(uuid: (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16))
        var url = URL(string: "https://example.com/path?q=1")
        var relativeURL = URL(string: "b/c.txt", relativeTo: URL(string: "https://example.com/a/"))
        var date = Date(timeIntervalSinceReferenceDate: 700_000_000.5)
        var place = Place(city: "Lyon", country: "FR")
    }

    fileprivate final class PlaceNS: NSObject, NSCoding {
        let city: String
        let country: String

        init?(coder: NSCoder) {
            guard let city = coder.decodeObject(forKey: "city") as? String,
                let country = coder.decodeObject(forKey: "country") as? String
            else { return nil }
            self.city = city
            self.country = country
        }

        func encode(with coder: NSCoder) {}
    }

    fileprivate final class CatNS: NSObject, NSCoding {
        let name: String?
        let surname: Any?
        let sex: String?
        let nationality: String?
        let birthPlace: PlaceNS?
        let birthday: Date?
        let tags: [String]?
        let weight: Double

        init?(coder: NSCoder) {
            self.name = coder.decodeObject(forKey: "name") as? String
            self.surname = coder.decodeObject(forKey: "surname")
            self.sex = coder.decodeObject(forKey: "sex") as? String
            self.nationality = coder.decodeObject(forKey: "nationality") as? String
            self.birthPlace = coder.decodeObject(forKey: "birthPlace") as? PlaceNS
            self.birthday = coder.decodeObject(forKey: "birthday") as? Date
            self.tags = coder.decodeObject(forKey: "tags") as? [String]
            self.weight = coder.decodeDouble(forKey: "weight")
        }

        func encode(with coder: NSCoder) {}
    }

    fileprivate final class KitchenNS: NSObject, NSCoding {
        let coderValues: [String: Any]

        init?(coder: NSCoder) {
            var values: [String: Any] = [:]
            values["int8"] = coder.decodeInteger(forKey: "int8")
            values["int16"] = coder.decodeInt32(forKey: "int16")
            values["int32"] = coder.decodeInt32(forKey: "int32")
            values["int64"] = coder.decodeInt64(forKey: "int64")
            values["uint8"] = coder.decodeInteger(forKey: "uint8")
            values["uint16"] = coder.decodeInteger(forKey: "uint16")
            values["uint32"] = coder.decodeInt64(forKey: "uint32")
            values["int"] = coder.decodeInteger(forKey: "int")
            values["float"] = coder.decodeFloat(forKey: "float")
            values["double"] = coder.decodeDouble(forKey: "double")
            values["flag"] = coder.decodeBool(forKey: "flag")
            values["hasMissing"] = coder.containsValue(forKey: "missing")
            values["missing"] = coder.decodeObject(forKey: "missing")
            values["ints"] = coder.decodeObject(forKey: "ints")
            values["counts"] = coder.decodeObject(forKey: "counts")
            values["names"] = coder.decodeObject(forKey: "names")
            values["data"] = coder.decodeObject(forKey: "data")
            values["uuid"] = coder.decodeObject(forKey: "uuid")
            values["url"] = coder.decodeObject(forKey: "url")
            values["relativeURL"] = coder.decodeObject(forKey: "relativeURL")
            values["date"] = coder.decodeObject(forKey: "date")
            values["place"] = coder.decodeObject(forKey: "place")
            self.coderValues = values
        }

        func encode(with coder: NSCoder) {}
    }

    fileprivate final class ShapeNS: NSObject, NSCoding {
        let rectangle: NSDictionary?

        init?(coder: NSCoder) {
            self.rectangle = coder.decodeObject(forKey: "rectangle") as? NSDictionary
        }

        func encode(with coder: NSCoder) {}
    }

    fileprivate final class DogNS: NSObject, NSCoding {
        let breed: String?
        let name: String?

        init?(coder: NSCoder) {
            self.breed = coder.decodeObject(forKey: "breed") as? String
            self.name = coder.decodeObject(forKey: "name") as? String
        }

        func encode(with coder: NSCoder) {}
    }

    fileprivate final class OwnerNS: NSObject, NSCoding {
        let name: String?

        init?(coder: NSCoder) {
            self.name = coder.decodeObject(forKey: "name") as? String
        }

        func encode(with coder: NSCoder) {}
    }

    fileprivate final class PetsNS: NSObject, NSCoding {
        let first: OwnerNS?
        let second: OwnerNS?
        let others: [Any]?

        init?(coder: NSCoder) {
            self.first = coder.decodeObject(forKey: "first") as? OwnerNS
            self.second = coder.decodeObject(forKey: "second") as? OwnerNS
            self.others = coder.decodeObject(forKey: "others") as? [Any]
        }

        func encode(with coder: NSCoder) {}
    }
}

/// Reads `data` with Foundation's `NSKeyedUnarchiver`, mapping our class names to the `NS` mirrors.
private func unarchiveWithFoundation(_ data: Data) throws -> Any? {
    typealias Models = KeyedArchiveEncoderTests
    let unarchiver = try NSKeyedUnarchiver(forReadingFrom: data)
    unarchiver.requiresSecureCoding = false
    unarchiver.setClass(Models.CatNS.self, forClassName: "Cat")
    unarchiver.setClass(Models.PlaceNS.self, forClassName: "Place")
    unarchiver.setClass(Models.KitchenNS.self, forClassName: "Kitchen")
    unarchiver.setClass(Models.DogNS.self, forClassName: "Dog")
    unarchiver.setClass(Models.ShapeNS.self, forClassName: "Shape")
    unarchiver.setClass(Models.OwnerNS.self, forClassName: "Owner")
    unarchiver.setClass(Models.PetsNS.self, forClassName: "Pets")
    defer { unarchiver.finishDecoding() }
    return unarchiver.decodeObject(forKey: NSKeyedArchiveRootObjectKey)
}

private func encoded<T: Encodable>(_ value: T, as format: PropertyListFormat) throws -> Data {
    var encoder = KeyedArchiveEncoder()
    encoder.outputFormat = format
    return try encoder.encode(value)
}

extension KeyedArchiveEncoderTests {
    @Test(arguments: PropertyListFormat.allCases)
    func foundationUnarchiverReadsCat(format: PropertyListFormat) throws {
        let cat = Cat(
            name: "Tom",
            surname: nil,
            sex: .male,
            nationality: "FR",
            birthPlace: Place(city: "Paris", country: "FR"),
            birthday: Date(timeIntervalSinceReferenceDate: 123_456_789.25),
            tags: ["grey", "lazy", "grey"],
            weight: 4.5
        )
        let decoded = try #require(try unarchiveWithFoundation(encoded(cat, as: format)) as? CatNS)
        #expect(decoded.name == "Tom")
        #expect(decoded.surname == nil)
        #expect(decoded.sex == "male")
        #expect(decoded.nationality == "FR")
        #expect(decoded.birthPlace?.city == "Paris")
        #expect(decoded.birthPlace?.country == "FR")
        #expect(decoded.birthday == cat.birthday)
        #expect(decoded.tags == ["grey", "lazy", "grey"])
        #expect(decoded.weight == 4.5)
    }

    @Test(arguments: PropertyListFormat.allCases)
    func foundationUnarchiverReadsEveryKindOfValue(format: PropertyListFormat) throws {
        let kitchen = Kitchen()
        let decoded = try #require(try unarchiveWithFoundation(encoded(kitchen, as: format)) as? KitchenNS)
        let values = decoded.coderValues
        #expect(values["int8"] as? Int == -8)
        #expect(values["int16"] as? Int32 == -1_600)
        #expect(values["int32"] as? Int32 == Int32.min)
        #expect(values["int64"] as? Int64 == Int64.min)
        #expect(values["uint8"] as? Int == 255)
        #expect(values["uint16"] as? Int == 65_535)
        #expect(values["uint32"] as? Int64 == Int64(UInt32.max))
        #expect(values["int"] as? Int == 42)
        #expect(values["float"] as? Float == 0.25)
        #expect(values["double"] as? Double == -1.0e100)
        #expect(values["flag"] as? Bool == true)
        #expect(values["hasMissing"] as? Bool == true)
        #expect(values["missing"] == nil)
        #expect((values["ints"] as? [Any])?.compactMap { ($0 as? NSNumber)?.intValue } == [1, 2, 3])
        let counts = try #require(values["counts"] as? NSDictionary)
        #expect(counts.count == 2)
        #expect((counts["one"] as? NSNumber)?.intValue == 1)
        #expect((counts["two"] as? NSNumber)?.intValue == 2)
        let names = try #require(values["names"] as? NSSet)
        #expect(Set(names.allObjects.compactMap { $0 as? String }) == ["x", "y"])
        #expect(values["data"] as? Data == kitchen.data)
        #expect((values["uuid"] as? NSUUID)?.uuidString == kitchen.uuid.uuidString)
        #expect((values["url"] as? NSURL)?.absoluteString == "https://example.com/path?q=1")
        let relative = try #require(values["relativeURL"] as? NSURL)
        #expect(relative.relativeString == "b/c.txt")
        #expect(relative.absoluteString == "https://example.com/a/b/c.txt")
        #expect(values["date"] as? Date == kitchen.date)
        #expect((values["place"] as? PlaceNS)?.city == "Lyon")
    }

    @Test(arguments: PropertyListFormat.allCases)
    func foundationUnarchiverReadsNestedContainersAsDictionaries(format: PropertyListFormat) throws {
        let shape = Shape.rectangle(width: 3, height: 4.5)
        let decoded = try #require(try unarchiveWithFoundation(encoded(shape, as: format)) as? ShapeNS)
        let rectangle = try #require(decoded.rectangle)
        #expect(rectangle.count == 2)
        #expect((rectangle["width"] as? NSNumber)?.doubleValue == 3)
        #expect((rectangle["height"] as? NSNumber)?.doubleValue == 4.5)
    }

    @Test(arguments: PropertyListFormat.allCases)
    func foundationUnarchiverReadsSubclassesAndSharedInstances(format: PropertyListFormat) throws {
        let dog = try #require(try unarchiveWithFoundation(encoded(Dog(), as: format)) as? DogNS)
        #expect(dog.breed == "Beagle")
        #expect(dog.name == "Rex")

        let owner = Owner(name: "Ann")
        let pets = Pets(first: owner, second: owner, others: [Owner(name: "Bob"), owner])
        let decoded = try #require(try unarchiveWithFoundation(encoded(pets, as: format)) as? PetsNS)
        let first = try #require(decoded.first)
        #expect(first.name == "Ann")
        #expect(decoded.second === first)
        #expect((decoded.others?.first as? OwnerNS)?.name == "Bob")
        #expect((decoded.others?.last as? OwnerNS) === first)
    }
}
