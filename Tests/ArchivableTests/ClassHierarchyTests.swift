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
import KeyedArchivingMacros
import PropertyLists
import TestSupport
import Testing

/// A class hierarchy (``Pets``) archived as its hand-written twin (``PetsTwin``) is: one object
/// per instance holding its superclasses' fields and its own, the chain in `$classes`, the same
/// bytes on both paths and with every coder, and Foundation's `NSKeyedUnarchiver` reading it into
/// `NSCoding` classes, as this package's decoder reads Foundation's archive of them.
@Suite struct ClassHierarchyTests {
    static let born = Date(timeIntervalSinceReferenceDate: 700_000_000.5)

    static func puppy() -> Pets.Puppy {
        let puppy = Pets.Puppy(name: "Rex", born: Self.born, breed: "Beagle", weeks: 9)
        puppy.tags = ["small", "loud"]
        puppy.nickname = "Rexy"
        return puppy
    }

    static func puppyTwin() -> PetsTwin.Puppy {
        let puppy = PetsTwin.Puppy(name: "Rex", born: Self.born, breed: "Beagle", weeks: 9)
        puppy.tags = ["small", "loud"]
        puppy.nickname = "Rexy"
        return puppy
    }

    static func household() -> Pets.Household {
        let puppy = Self.puppy()
        let dog = Pets.Dog(name: "Ace", born: Self.born, breed: "Collie")
        dog.isGoodBoy = false
        let cat = Pets.Animal(name: "Tom", born: Self.born, tags: ["cat"])
        return Pets.Household(owner: "Ann", pets: [cat, dog, puppy], favorite: puppy)
    }

    static func householdTwin() -> PetsTwin.Household {
        let puppy = Self.puppyTwin()
        let dog = PetsTwin.Dog(name: "Ace", born: Self.born, breed: "Collie")
        dog.isGoodBoy = false
        let cat = PetsTwin.Animal(name: "Tom", born: Self.born, tags: ["cat"])
        return PetsTwin.Household(owner: "Ann", pets: [cat, dog, puppy], favorite: puppy)
    }

    /// The class of the archive's root object, and its `$classes` chain.
    static func rootClass(of data: Data) throws -> ArchivedClass? {
        let archive = try KeyedArchive(parsing: data)
        return try archive.archivedClass(of: archive.object(for: try #require(archive.topUID(forKey: "root"))))
    }

    /// The `$classes` chain of every class an archive's objects have, by class name.
    static func classChains(in data: Data) throws -> [String: [String]] {
        let archive = try KeyedArchive(parsing: data)
        var chains: [String: [String]] = [:]
        for object in archive.objects {
            guard let archivedClass = try? ArchivedClass(propertyList: object) else { continue }
            chains[archivedClass.name] = archivedClass.classes
        }
        return chains
    }

    /// A subclass archives as one object with its superclasses' fields first, and `$classes`
    /// lists its chain; both paths write the twin's bytes and read them back.
    @Test(arguments: BothPaths.modes)
    func subclassArchivesAsItsTwinWithItsClassChain(mode: DirectArchiving) throws {
        let archive = try BothPaths.encoder(mode).encode(Self.puppy())
        #expect(archive == (try BothPaths.encoder(.disabled).encode(Self.puppyTwin())))
        let archivedClass = try #require(try Self.rootClass(of: archive))
        #expect(archivedClass.name == "Puppy")
        #expect(archivedClass.classes == ["Puppy", "Dog", "Animal", "NSObject"])
        let decoded = try BothPaths.decoder(mode).decode(Pets.Puppy.self, from: archive)
        #expect(decoded.name == "Rex" && decoded.born == Self.born && decoded.tags == ["small", "loud"])
        #expect(decoded.breed == "Beagle" && decoded.isGoodBoy && decoded.weeks == 9 && decoded.nickname == "Rexy")
        let twin = try BothPaths.decoder(mode).decode(PetsTwin.Puppy.self, from: archive)
        #expect(twin.name == "Rex" && twin.breed == "Beagle" && twin.weeks == 9 && twin.nickname == "Rexy")
    }

    /// A subclass instance held where its root class is declared (an array and an optional of
    /// it) is archived as the subclass, with its own chain, on both paths; one instance held
    /// twice is one object.
    @Test(arguments: BothPaths.modes)
    func subclassHeldAsItsSuperclassArchivesAsTheSubclass(mode: DirectArchiving) throws {
        let archive = try BothPaths.encoder(mode).encode(Self.household())
        #expect(archive == (try BothPaths.encoder(.disabled).encode(Self.householdTwin())))
        let chains = try Self.classChains(in: archive)
        #expect(chains["Household"] == ["Household", "NSObject"])
        #expect(chains["Animal"] == ["Animal", "NSObject"])
        #expect(chains["Dog"] == ["Dog", "Animal", "NSObject"])
        #expect(chains["Puppy"] == ["Puppy", "Dog", "Animal", "NSObject"])
    }

    /// Decoding an object of a subclass as its declared superclass gives an instance of the
    /// superclass with the superclass's fields, as every `Codable` decoder does: the archive
    /// names the subclass, but a `Decodable` type cannot choose its instance's class. The
    /// subclass's own fields stay in the archive, unread.
    @Test(arguments: BothPaths.modes)
    func subclassDecodedAsItsSuperclassGivesTheSuperclassFields(mode: DirectArchiving) throws {
        let archive = try BothPaths.encoder(mode).encode(Self.household())
        let household = try BothPaths.decoder(mode).decode(Pets.Household.self, from: archive)
        #expect(household.owner == "Ann")
        #expect(household.pets.map(\.name) == ["Tom", "Ace", "Rex"])
        #expect(
            household.pets.map { ObjectIdentifier(type(of: $0)) }
                == Array(repeating: ObjectIdentifier(Pets.Animal.self), count: 3)
        )
        #expect(household.pets[2].tags == ["small", "loud"])
        #expect(household.favorite === household.pets[2])
        let root = try BothPaths.decoder(mode).decode(
            Pets.Animal.self,
            from: try BothPaths.encoder(mode).encode(Self.puppy())
        )
        #expect(type(of: root) == Pets.Animal.self && root.name == "Rex")
    }

    /// An object of the superclass decoded as a subclass lacks the subclass's required fields:
    /// both paths fail alike, with the key and the coding path.
    @Test func superclassObjectDecodedAsSubclassFailsAlikeOnBothPaths() throws {
        let archive = try KeyedArchiveEncoder().encode(Pets.Animal(name: "Tom", born: Self.born))
        let failures = try BothPaths.modes.map { mode in
            let error = try #require(throws: DecodingError.self) {
                try BothPaths.decoder(mode).decode(Pets.Puppy.self, from: archive)
            }
            return BothPaths.describe(error)
        }
        #expect(failures[0] == failures[1])
        #expect(failures[0].contains("weeks"))
    }

    /// Subclasses of `NSObject` and of a plain `Codable` class archive their superclass's
    /// properties as their twins do.
    @Test(arguments: BothPaths.modes)
    func subclassesOfNSObjectAndOfCodableClassesArchiveAsTheirTwins(mode: DirectArchiving) throws {
        let surgeon = Pets.Surgeon(name: "Dr. Lee", clinic: nil, specialty: "bones")
        let surgeonTwin = PetsTwin.Surgeon(name: "Dr. Lee", clinic: nil, specialty: "bones")
        let archive = try BothPaths.encoder(mode).encode(surgeon)
        #expect(archive == (try BothPaths.encoder(.disabled).encode(surgeonTwin)))
        #expect(try Self.rootClass(of: archive)?.classes == ["Surgeon", "Vet", "NSObject"])
        let decoded = try BothPaths.decoder(mode).decode(Pets.Surgeon.self, from: archive)
        #expect(decoded.name == "Dr. Lee" && decoded.clinic == nil && decoded.specialty == "bones")
        let vet = Pets.Vet(name: "Dr. Kim", clinic: "North")
        let vetArchive = try BothPaths.encoder(mode).encode(vet)
        #expect(vetArchive == (try BothPaths.encoder(.disabled).encode(PetsTwin.Vet(name: "Dr. Kim", clinic: "North"))))
        #expect(try BothPaths.decoder(mode).decode(Pets.Vet.self, from: vetArchive).clinic == "North")

        let visit = Pets.Visit(number: 7, note: "checkup", cost: 42.5)
        let visitArchive = try BothPaths.encoder(mode).encode(visit)
        #expect(
            visitArchive
                == (try BothPaths.encoder(.disabled).encode(PetsTwin.Visit(number: 7, note: "checkup", cost: 42.5)))
        )
        #expect(try Self.rootClass(of: visitArchive)?.classes == ["Visit", "Record", "NSObject"])
        let decodedVisit = try BothPaths.decoder(mode).decode(Pets.Visit.self, from: visitArchive)
        #expect(decodedVisit.number == 7 && decodedVisit.note == "checkup" && decodedVisit.cost == 42.5)
        #expect(!decodedVisit.paid)
    }

    /// A subclass of a plain `Codable` class that is itself subclassed: both write through
    /// `encode(to:)` on both paths, the twins' bytes, and read back.
    @Test(arguments: BothPaths.modes)
    func subclassesOfASubclassOfACodableClassArchiveAsTheirTwins(mode: DirectArchiving) throws {
        let xray = Pets.Xray(number: 3, note: "paw", film: "A1")
        xray.room = 4
        let twin = PetsTwin.Xray(number: 3, note: "paw", film: "A1")
        twin.room = 4
        let archive = try BothPaths.encoder(mode).encode(xray)
        #expect(archive == (try BothPaths.encoder(.disabled).encode(twin)))
        #expect(try Self.rootClass(of: archive)?.classes == ["Xray", "Exam", "Record", "NSObject"])
        let decoded = try BothPaths.decoder(mode).decode(Pets.Xray.self, from: archive)
        #expect(decoded.number == 3 && decoded.note == "paw" && decoded.room == 4 && decoded.film == "A1")
        let exam = Pets.Exam(number: 5, note: "ear")
        let examArchive = try BothPaths.encoder(mode).encode(exam)
        #expect(examArchive == (try BothPaths.encoder(.disabled).encode(PetsTwin.Exam(number: 5, note: "ear"))))
        #expect(try BothPaths.decoder(mode).decode(Pets.Exam.self, from: examArchive).room == 1)
    }

    /// JSON and property lists: the twin's bytes, and each side reads the other's.
    @Test func otherCodersWriteWhatTheTwinWrites() throws {
        let json = JSONEncoder()
        json.outputFormatting = .sortedKeys
        #expect(try json.encode(Self.puppy()) == json.encode(Self.puppyTwin()))
        #expect(try json.encode(Self.household()) == json.encode(Self.householdTwin()))
        let decoded = try JSONDecoder().decode(Pets.Puppy.self, from: json.encode(Self.puppyTwin()))
        #expect(decoded.name == "Rex" && decoded.breed == "Beagle" && decoded.weeks == 9)
        let plist = PropertyListEncoder()
        plist.outputFormat = .binary
        #expect(try plist.encode(Self.puppy()) == plist.encode(Self.puppyTwin()))
        let fromPlist = try PropertyListDecoder().decode(Pets.Puppy.self, from: plist.encode(Self.puppyTwin()))
        #expect(fromPlist.nickname == "Rexy" && fromPlist.tags == ["small", "loud"])
        let visit = Pets.Visit(number: 7, note: "checkup", cost: 42.5)
        #expect(try json.encode(visit) == json.encode(PetsTwin.Visit(number: 7, note: "checkup", cost: 42.5)))
        let surgeon = Pets.Surgeon(name: "Dr. Lee", clinic: "South", specialty: "bones")
        #expect(
            try plist.encode(surgeon)
                == plist.encode(PetsTwin.Surgeon(name: "Dr. Lee", clinic: "South", specialty: "bones"))
        )
    }

    /// Foundation's `NSKeyedUnarchiver` reads the archive into a chain of `NSCoding` classes
    /// registered for its class names, subclass instances in an array included.
    @Test(arguments: BothPaths.modes)
    func foundationReadsItIntoNSCodingClasses(mode: DirectArchiving) throws {
        let data = try BothPaths.encoder(mode).encode(Self.household())
        let unarchiver = try NSKeyedUnarchiver(forReadingFrom: data)
        unarchiver.requiresSecureCoding = false
        unarchiver.setClass(AnimalNS.self, forClassName: "Animal")
        unarchiver.setClass(DogNS.self, forClassName: "Dog")
        unarchiver.setClass(PuppyNS.self, forClassName: "Puppy")
        unarchiver.setClass(HouseholdNS.self, forClassName: "Household")
        let household = try #require(unarchiver.decodeObject(forKey: NSKeyedArchiveRootObjectKey) as? HouseholdNS)
        #expect(household.owner == "Ann")
        #expect(household.pets.map { "\(type(of: $0))" } == ["AnimalNS", "DogNS", "PuppyNS"])
        let puppy = try #require(household.pets.last as? PuppyNS)
        #expect(puppy.name == "Rex" && puppy.born == Self.born && puppy.tags == ["small", "loud"])
        #expect(puppy.breed == "Beagle" && puppy.isGoodBoy && puppy.weeks == 9 && puppy.nickname == "Rexy")
        #expect(household.favorite === puppy)
        #expect((household.pets[1] as? DogNS)?.isGoodBoy == false)
    }

    /// This package's decoder reads what Foundation's `NSKeyedArchiver` writes for the chain of
    /// `NSCoding` classes, whatever their class names.
    @Test(arguments: BothPaths.modes)
    func foundationsArchiveOfTheNSCodingClassesDecodes(mode: DirectArchiving) throws {
        let puppy = PuppyNS(name: "Rex", born: Self.born, tags: ["small"], breed: "Beagle", weeks: 9)
        let data = try NSKeyedArchiver.archivedData(withRootObject: puppy, requiringSecureCoding: false)
        let decoded = try BothPaths.decoder(mode).decode(Pets.Puppy.self, from: data)
        #expect(decoded.name == "Rex" && decoded.born == Self.born && decoded.tags == ["small"])
        #expect(decoded.breed == "Beagle" && decoded.isGoodBoy && decoded.weeks == 9 && decoded.nickname == nil)
    }
}

/// How an `NSCoding` app archives an animal.
class AnimalNS: NSObject, NSCoding {
    let name: String?
    let born: Date?
    let tags: [String]

    init(name: String, born: Date, tags: [String]) {
        self.name = name
        self.born = born
        self.tags = tags
    }

    required init?(coder: NSCoder) {
        self.name = coder.decodeObject(forKey: "name") as? String
        self.born = coder.decodeObject(forKey: "born") as? Date
        self.tags = coder.decodeObject(forKey: "tags") as? [String] ?? []
    }

    func encode(with coder: NSCoder) {
        coder.encode(self.name, forKey: "name")
        coder.encode(self.born, forKey: "born")
        coder.encode(self.tags, forKey: "tags")
    }
}

/// How an `NSCoding` app archives a dog: `super.encode(with:)`, then its own keys.
class DogNS: AnimalNS {
    let breed: String?
    let isGoodBoy: Bool

    init(name: String, born: Date, tags: [String], breed: String) {
        self.breed = breed
        self.isGoodBoy = true
        super.init(name: name, born: born, tags: tags)
    }

    required init?(coder: NSCoder) {
        self.breed = coder.decodeObject(forKey: "breed") as? String
        self.isGoodBoy = coder.decodeBool(forKey: "isGoodBoy")
        super.init(coder: coder)
    }

    override func encode(with coder: NSCoder) {
        super.encode(with: coder)
        coder.encode(self.breed, forKey: "breed")
        coder.encode(self.isGoodBoy, forKey: "isGoodBoy")
    }
}

/// How an `NSCoding` app archives a puppy.
final class PuppyNS: DogNS {
    let weeks: Int
    let nickname: String?

    init(name: String, born: Date, tags: [String], breed: String, weeks: Int) {
        self.weeks = weeks
        self.nickname = nil
        super.init(name: name, born: born, tags: tags, breed: breed)
    }

    required init?(coder: NSCoder) {
        self.weeks = coder.decodeInteger(forKey: "weeks")
        self.nickname = coder.decodeObject(forKey: "nickname") as? String
        super.init(coder: coder)
    }

    override func encode(with coder: NSCoder) {
        super.encode(with: coder)
        coder.encode(self.weeks, forKey: "weeks")
    }
}

/// How an `NSCoding` app reads a household.
final class HouseholdNS: NSObject, NSCoding {
    let owner: String?
    let pets: [AnimalNS]
    let favorite: AnimalNS?

    init?(coder: NSCoder) {
        self.owner = coder.decodeObject(forKey: "owner") as? String
        self.pets = coder.decodeObject(forKey: "pets") as? [AnimalNS] ?? []
        self.favorite = coder.decodeObject(forKey: "favorite") as? AnimalNS
    }

    func encode(with coder: NSCoder) {}
}
