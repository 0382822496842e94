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
import Testing

/// Types that are deliberately not `Codable`: what reflection archiving is for.
private struct Place {
    var city: String
    var zip: Int
}

private enum Mood {
    case calm
    case hungry(minutes: Int)
}

private class Animal {
    var legs = 4
}

private final class Dog: Animal {
    var name: String
    var place: Place?
    var tags: Set<String> = ["good"]
    var scores: [String: Double] = ["agility": 1.5]
    var mood: Mood = .hungry(minutes: 5)
    var calm: Mood = .calm
    var born = Date(timeIntervalSinceReferenceDate: 100)
    var friend: Dog?

    init(name: String, place: Place?) {
        self.name = name
        self.place = place
    }
}

@Suite struct MirrorArchiverTests {
    private func resolve(_ value: Any) throws -> ArchivedValue? {
        let data = MirrorArchiver().encode(value)
        return try ArchivedValue(archive: KeyedArchive(parsing: data))["root"]
    }

    @Test func storedPropertiesSuperclassesAndCollections() throws {
        let dog = Dog(name: "Rex", place: Place(city: "Oslo", zip: 150))
        let root = try #require(try resolve(dog))
        guard case .object(let className, let classes, _) = root else {
            Issue.record("root is \(root)")
            return
        }
        #expect(className == "Dog")
        #expect(classes == ["Dog", "Animal", "NSObject"])
        #expect(root["name"] == .string("Rex"))
        #expect(root["legs"] == .integer(4))
        #expect(root["place"]?["city"] == .string("Oslo"))
        #expect(root["place"]?["zip"] == .integer(150))
        #expect(root["tags"] == .array([.string("good")], className: "NSSet"))
        #expect(root["scores"]?["agility"] == .real(1.5))
        #expect(root["mood"]?["case"] == .string("hungry"))
        #expect(root["mood"]?["minutes"] == .integer(5))
        #expect(root["calm"] == .string("calm"))
        #expect(root["born"] == .date(Date(timeIntervalSinceReferenceDate: 100)))
        #expect(root["friend"] == .null)
    }

    @Test func sharedInstancesAreStoredOnceAndCyclesKept() throws {
        let dog = Dog(name: "Rex", place: nil)
        dog.friend = dog
        let archive = try KeyedArchive(parsing: MirrorArchiver().encode([dog, dog]))
        let root = try ArchivedValue(archive: archive)["root"]
        guard case .array(let elements, _)? = root else {
            Issue.record("root is not an array")
            return
        }
        #expect(elements.count == 2)
        #expect(elements[0] == elements[1])
        #expect(elements[0]["friend"] == .reference(UID(2)))
        #expect(archive.objects.filter { $0["name"] != nil }.count == 1)
    }

    @Test func deepValuesStopAtTheLimit() throws {
        var archiver = MirrorArchiver()
        archiver.maximumDepth = 3
        let root = try ArchivedValue(archive: KeyedArchive(parsing: archiver.encode([[[[1]]]])))["root"]
        #expect(root?[0]?[0]?[0] == .null)
    }
}
