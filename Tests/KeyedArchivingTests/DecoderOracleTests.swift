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

/// An `NSCoding` class that Foundation's own `NSKeyedArchiver` archives, as the oracle.
final class OracleCatNS: NSObject, NSSecureCoding {
    static var supportsSecureCoding: Bool { true }

    var name: String
    var surname: String?
    var age: Int
    var weight: Double
    var indoor: Bool
    var tags: [String]
    var scores: [String: Int]
    var birthday: Date
    var photo: Data
    var id: UUID
    var homepage: URL
    var page: URL
    var friend: OracleCatNS?
    var small: Int8
    var big: UInt32
    var ratio: Float

    init(name: String, age: Int, friend: OracleCatNS? = nil) {
        self.name = name
        self.surname = age.isMultiple(of: 2) ? "Cat" : nil
        self.age = age
        self.weight = 4.25 + Double(age)
        self.indoor = age.isMultiple(of: 3)
        self.tags = ["tabby", "striped \(age)", "ünïcødé 🐈"]
        self.scores = ["speed": age, "grace": -age]
        self.birthday = Date(timeIntervalSinceReferenceDate: 700_000_000.5 + Double(age))
        self.photo = Data((0..<UInt8(truncatingIfNeeded: age + 3)).map { $0 &* 7 })
        self.id = UUID()
        self.homepage = URL(string: "https://example.com/cats/\(age)?q=1")!
        self.page = URL(string: "b/c.html", relativeTo: URL(string: "https://example.com/a/")!)!
        self.friend = friend
        self.small = Int8(truncatingIfNeeded: -age)
        self.big = 4_000_000_000 + UInt32(age)
        self.ratio = 0.1 * Float(age)
    }

    init?(coder: NSCoder) { nil }

    func encode(with coder: NSCoder) {
        coder.encode(self.name, forKey: "name")
        coder.encode(self.surname, forKey: "surname")
        coder.encode(self.age, forKey: "age")
        coder.encode(self.weight, forKey: "weight")
        coder.encode(self.indoor, forKey: "indoor")
        coder.encode(self.tags, forKey: "tags")
        coder.encode(self.scores, forKey: "scores")
        coder.encode(self.birthday, forKey: "birthday")
        coder.encode(self.photo, forKey: "photo")
        coder.encode(self.id, forKey: "id")
        coder.encode(self.homepage, forKey: "homepage")
        coder.encode(self.page, forKey: "page")
        coder.encode(self.friend, forKey: "friend")
        coder.encode(Int32(self.small), forKey: "small")
        coder.encode(Int64(self.big), forKey: "big")
        coder.encode(self.ratio, forKey: "ratio")
    }
}

/// The Codable twin of ``OracleCatNS``.
struct OracleCatRecord: Decodable {
    var name: String
    var surname: String?
    var age: Int
    var weight: Double
    var indoor: Bool
    var tags: [String]
    var scores: [String: Int]
    var birthday: Date
    var photo: Data
    var id: UUID
    var homepage: URL
    var page: URL
    var friend: Friend?
    var small: Int8
    var big: UInt32
    var ratio: Float

    /// A friend, read with fewer fields than it has.
    struct Friend: Decodable {
        var name: String
        var age: Int
        var id: UUID
    }
}

/// The class twin of ``OracleCatNS``, to check that shared objects decode into one instance.
final class OracleCatInstance: Decodable {
    let name: String
    let age: Int
    let friend: OracleCatInstance?
}

@Suite struct KeyedArchiveDecoderOracleTests {
    let decoder = KeyedArchiveDecoder()

    private func expectEqual(
        _ record: OracleCatRecord,
        _ cat: OracleCatNS,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(record.name == cat.name, sourceLocation: sourceLocation)
        #expect(record.surname == cat.surname, sourceLocation: sourceLocation)
        #expect(record.age == cat.age, sourceLocation: sourceLocation)
        #expect(record.weight == cat.weight, sourceLocation: sourceLocation)
        #expect(record.indoor == cat.indoor, sourceLocation: sourceLocation)
        #expect(record.tags == cat.tags, sourceLocation: sourceLocation)
        #expect(record.scores == cat.scores, sourceLocation: sourceLocation)
        #expect(record.birthday == cat.birthday, sourceLocation: sourceLocation)
        #expect(record.photo == cat.photo, sourceLocation: sourceLocation)
        #expect(record.id == cat.id, sourceLocation: sourceLocation)
        #expect(record.homepage == cat.homepage, sourceLocation: sourceLocation)
        // swift-corelibs-foundation archives a relative URL as its absolute string with no NS.base
        // (Apple's Foundation keeps NS.base; NSKeyedUnarchiver-URLTest.plist covers that form).
        #expect(record.page.absoluteString == cat.page.absoluteString, sourceLocation: sourceLocation)
        #expect(record.small == cat.small, sourceLocation: sourceLocation)
        #expect(record.big == cat.big, sourceLocation: sourceLocation)
        #expect(record.ratio == cat.ratio, sourceLocation: sourceLocation)
        #expect(record.friend?.name == cat.friend?.name, sourceLocation: sourceLocation)
        #expect(record.friend?.age == cat.friend?.age, sourceLocation: sourceLocation)
        #expect(record.friend?.id == cat.friend?.id, sourceLocation: sourceLocation)
    }

    private func xmlArchive(_ body: (NSKeyedArchiver) -> Void) -> Data {
        let archiver = NSKeyedArchiver(requiringSecureCoding: false)
        archiver.outputFormat = .xml
        body(archiver)
        archiver.finishEncoding()
        return archiver.encodedData
    }

    @Test(arguments: [1, 2, 3, 6])
    func decodesFoundationBinaryArchive(age: Int) throws {
        let cat = OracleCatNS(name: "Tom", age: age, friend: OracleCatNS(name: "Jerry", age: age + 1))
        let data = try NSKeyedArchiver.archivedData(withRootObject: cat, requiringSecureCoding: false)
        #expect(PropertyListFormat(detecting: data) == .binary)
        expectEqual(try decoder.decode(OracleCatRecord.self, from: data), cat)
    }

    @Test(arguments: [1, 2, 3, 6])
    func decodesFoundationXMLArchive(age: Int) throws {
        let cat = OracleCatNS(name: "Tom", age: age, friend: OracleCatNS(name: "Jerry", age: age + 1))
        let data = xmlArchive { $0.encode(cat, forKey: NSKeyedArchiveRootObjectKey) }
        #expect(PropertyListFormat(detecting: data) == .xml)
        expectEqual(try decoder.decode(OracleCatRecord.self, from: data), cat)
    }

    @Test func decodesSeveralTopLevelKeys() throws {
        let one = OracleCatNS(name: "One", age: 1)
        let two = OracleCatNS(name: "Two", age: 2, friend: one)
        let archiver = NSKeyedArchiver(requiringSecureCoding: false)
        archiver.encode(one, forKey: "one")
        archiver.encode(two, forKey: "two")
        // An object; `encode(42, forKey:)` would store the number inline in `$top`, which
        // `TopInlineValueTests` covers.
        archiver.encode(NSString(string: "forty-two"), forKey: "answer")
        archiver.finishEncoding()
        let archive = try KeyedArchive(parsing: archiver.encodedData)
        expectEqual(try decoder.decode(OracleCatRecord.self, forKey: "one", from: archive), one)
        expectEqual(try decoder.decode(OracleCatRecord.self, forKey: "two", from: archive), two)
        #expect(try decoder.decode(String.self, forKey: "answer", from: archive) == "forty-two")
    }

    @Test func sharedObjectDecodesIntoOneInstance() throws {
        let shared = OracleCatNS(name: "Shared", age: 4)
        let other = OracleCatNS(name: "Other", age: 5, friend: shared)
        let data = try NSKeyedArchiver.archivedData(
            withRootObject: NSArray(array: [shared, shared, other]),
            requiringSecureCoding: false
        )
        let cats = try decoder.decode([OracleCatInstance].self, from: data)
        #expect(cats.map(\.name) == ["Shared", "Shared", "Other"])
        #expect(cats[0] === cats[1])
        #expect(cats[2].friend === cats[0])
        #expect(cats[2] !== cats[0])
        let records = try decoder.decode([OracleCatRecord].self, from: data)
        expectEqual(records[0], shared)
        expectEqual(records[2], other)
    }

    @Test func decodesFoundationCollectionsOfValues() throws {
        let root: NSDictionary = [
            "set": NSSet(array: [1, 2, 3]),
            "ordered": NSOrderedSet(array: ["c", "a", "b"]),
            "nested": NSArray(array: [NSArray(array: [1.5, 2.5]), NSArray()]),
            "numbers": NSDictionary(dictionary: [1: "one", 2: "two"]),
            "mutable": NSMutableString(string: "mutable"),
            "date": NSDate(timeIntervalSinceReferenceDate: 12.5),
        ]
        for data in [
            try NSKeyedArchiver.archivedData(withRootObject: root, requiringSecureCoding: false),
            xmlArchive { $0.encode(root, forKey: NSKeyedArchiveRootObjectKey) },
        ] {
            let value = try decoder.decode(Collections.self, from: data)
            #expect(value.set == [1, 2, 3])
            #expect(value.ordered == ["c", "a", "b"])
            #expect(value.nested == [[1.5, 2.5], []])
            #expect(value.numbers == [1: "one", 2: "two"])
            #expect(value.mutable == "mutable")
            #expect(value.date == Date(timeIntervalSinceReferenceDate: 12.5))
        }
    }

    struct Collections: Decodable {
        var set: Set<Int>
        var ordered: [String]
        var nested: [[Double]]
        var numbers: [Int: String]
        var mutable: String
        var date: Date
    }

    @Test func wrongTypeInFoundationArchiveNamesKeyAndClass() throws {
        let cat = OracleCatNS(name: "Tom", age: 300)
        let data = try NSKeyedArchiver.archivedData(withRootObject: cat, requiringSecureCoding: false)
        #expect {
            _ = try decoder.decode(NarrowCat.self, from: data)
        } throws: { error in
            guard case .typeMismatch(_, let context) = error as? DecodingError else { return false }
            return context.codingPath.map(\.stringValue) == ["age"]
                && context.debugDescription.contains("OracleCatNS")
                && context.debugDescription.contains("UID(1)")
        }
    }

    struct NarrowCat: Decodable {
        var name: String
        var age: UInt8
    }
}
