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
import Testing

/// A Dekoter-style model: hand-written `init?(coder:)` / `encode(with:)`, as ported from `NSCoding`.
struct Owner: ArchiveCoding, Equatable {
    var name: String
    var age: Int

    init(name: String, age: Int) {
        self.name = name
        self.age = age
    }

    init?(coder: ArchiveCoder) {
        guard let name: String = coder.decode(forKey: "name") else { return nil }
        self.name = name
        self.age = coder.decodeInteger(forKey: "age")
    }

    func encode(with coder: ArchiveCoder) {
        coder.encode(name, forKey: "name")
        coder.encode(age, forKey: "age")
    }
}

struct Pet: ArchiveCoding, Equatable {
    var name: String
    var weight: Double
    var indoor: Bool
    var nickname: String?
    var owner: Owner?
    var friends: [Owner]
    var tags: [String]

    init(name: String, weight: Double, indoor: Bool, nickname: String?, owner: Owner?, friends: [Owner], tags: [String])
    {
        self.name = name
        self.weight = weight
        self.indoor = indoor
        self.nickname = nickname
        self.owner = owner
        self.friends = friends
        self.tags = tags
    }

    init?(coder: ArchiveCoder) {
        guard let name: String = coder.decode(forKey: "name") else { return nil }
        self.name = name
        self.weight = coder.decodeDouble(forKey: "weight")
        self.indoor = coder.decodeBool(forKey: "indoor")
        self.nickname = coder.decode(forKey: "nickname")
        self.owner = coder.decode(forKey: "owner")
        self.friends = coder.decode(forKey: "friends") ?? []
        self.tags = coder.decode([String].self, forKey: "tags") ?? []
    }

    func encode(with coder: ArchiveCoder) {
        coder.encode(name, forKey: "name")
        coder.encode(weight, forKey: "weight")
        coder.encode(indoor, forKey: "indoor")
        coder.encode(nickname, forKey: "nickname")
        coder.encode(owner, forKey: "owner")
        coder.encode(friends, forKey: "friends")
        coder.encode(tags, forKey: "tags")
    }
}

@Suite struct ArchiveCodingTests {
    static let pet = Pet(
        name: "Tom",
        weight: 4.25,
        indoor: true,
        nickname: nil,
        owner: Owner(name: "Ada", age: 41),
        friends: [Owner(name: "Bo", age: 7), Owner(name: "Cy", age: 9)],
        tags: ["tabby", "lazy"]
    )

    @Test func roundTripsThroughJSONAsDekotingDid() throws {
        let data = try JSONEncoder().encode(Self.pet)
        #expect(try JSONDecoder().decode(Pet.self, from: data) == Self.pet)
    }

    @Test func nilIsWrittenAsNilAndReadBackAsNil() throws {
        let data = try JSONEncoder().encode(Self.pet)
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(object["nickname"] is NSNull)
        #expect(try JSONDecoder().decode(Pet.self, from: data).nickname == nil)
    }

    @Test func decodesFromJSONWrittenElsewhere() throws {
        let json = Data(#"{"name": "Tom", "weight": 3, "indoor": false, "friends": [], "tags": ["a"]}"#.utf8)
        let pet = try JSONDecoder().decode(Pet.self, from: json)
        #expect(pet.name == "Tom")
        #expect(pet.weight == 3)
        #expect(pet.owner == nil)
        #expect(pet.tags == ["a"])
    }

    @Test func initReturningNilThrowsDataCorruptedWithTheCause() throws {
        let json = Data(#"{"name": 12}"#.utf8)
        do {
            _ = try JSONDecoder().decode(Pet.self, from: json)
            Issue.record("decoding should fail")
        } catch let DecodingError.dataCorrupted(context) {
            #expect(context.debugDescription.contains("init?(coder:) of Pet returned nil"))
            guard case .typeMismatch? = context.underlyingError as? DecodingError else {
                Issue.record("underlying error is \(String(describing: context.underlyingError))")
                return
            }
        }
    }

    @Test func integerAccessorsDefaultToZeroLikeNSCoder() throws {
        let owner = try JSONDecoder().decode(Owner.self, from: Data(#"{"name": "Ada"}"#.utf8))
        #expect(owner == Owner(name: "Ada", age: 0))
    }
}
