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

/// Builds archives by hand: `$objects[0]` is `$null`, the root is UID 1 unless told otherwise.
private func archive(_ objects: [PropertyListValue], top: [(key: String, uid: UID)] = [("root", 1)]) -> KeyedArchive {
    KeyedArchive(top: top, objects: [KeyedArchive.nullObject] + objects)
}

/// A class dictionary.
private func classDictionary(_ name: String, _ chain: [String]? = nil) -> PropertyListValue {
    let classes = chain ?? [name, "NSObject"]
    return ["$classname": .string(name), "$classes": .array(classes.map(PropertyListValue.string))]
}

/// An object dictionary of class `classUID` with the given fields.
private func object(_ classUID: UID, _ fields: [String: PropertyListValue] = [:]) -> PropertyListValue {
    var dictionary = PropertyListDictionary()
    dictionary["$class"] = .uid(classUID)
    for (key, value) in fields.sorted(by: { $0.key < $1.key }) { dictionary[key] = value }
    return .dictionary(dictionary)
}

/// The `DecodingError` a decode throws, with its context.
private func decodingError(
    sourceLocation: SourceLocation = #_sourceLocation,
    _ body: () throws -> Void
) -> (error: DecodingError, context: DecodingError.Context)? {
    do {
        try body()
        Issue.record("expected a DecodingError", sourceLocation: sourceLocation)
    } catch let error as DecodingError {
        switch error {
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .keyNotFound(_, let context),
            .dataCorrupted(let context):
            return (error, context)
        @unknown default:
            Issue.record("unknown DecodingError \(error)", sourceLocation: sourceLocation)
        }
    } catch {
        Issue.record("expected a DecodingError, got \(error)", sourceLocation: sourceLocation)
    }
    return nil
}

private func path(_ context: DecodingError.Context) -> [String] {
    context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }
}

@Suite struct KeyedArchiveDecoderTests {
    let decoder = KeyedArchiveDecoder()

    // MARK: - Numbers

    struct Box<T: Decodable>: Decodable {
        var value: T
    }

    /// `{value: <number>}` with the number inline, and the same with the number as an object.
    private func numberArchives(_ number: PropertyListValue) -> [KeyedArchive] {
        [
            archive([object(2, ["value": number]), classDictionary("Box")]),
            archive([object(2, ["value": .uid(3)]), classDictionary("Box"), number]),
        ]
    }

    private func decodes<T: Decodable & Equatable>(
        _ number: PropertyListValue,
        as type: T.Type,
        to expected: T,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        for archive in self.numberArchives(number) {
            do {
                #expect(
                    try decoder.decode(Box<T>.self, from: archive).value == expected,
                    sourceLocation: sourceLocation
                )
            } catch {
                Issue.record("decoding \(number) as \(T.self) threw \(error)", sourceLocation: sourceLocation)
            }
        }
    }

    private func mismatches<T: Decodable>(
        _ number: PropertyListValue,
        as type: T.Type,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        for archive in self.numberArchives(number) {
            let result = decodingError(sourceLocation: sourceLocation) {
                _ = try decoder.decode(Box<T>.self, from: archive)
            }
            guard let (error, context) = result else { continue }
            guard case .typeMismatch(let mismatched, _) = error else {
                Issue.record("expected typeMismatch, got \(error)", sourceLocation: sourceLocation)
                continue
            }
            #expect(ObjectIdentifier(mismatched) == ObjectIdentifier(T.self), sourceLocation: sourceLocation)
            #expect(path(context) == ["value"], sourceLocation: sourceLocation)
        }
    }

    @Test func integersDecodeIntoEveryWidthThatHoldsThem() {
        decodes(127, as: Int8.self, to: 127)
        decodes(-128, as: Int8.self, to: -128)
        decodes(255, as: UInt8.self, to: 255)
        decodes(-32768, as: Int16.self, to: -32768)
        decodes(65535, as: UInt16.self, to: 65535)
        decodes(.integer(PropertyListInteger(Int64(Int32.min))), as: Int32.self, to: .min)
        decodes(.integer(PropertyListInteger(UInt64(UInt32.max))), as: UInt32.self, to: .max)
        decodes(.integer(PropertyListInteger(Int64.min)), as: Int64.self, to: .min)
        decodes(.integer(PropertyListInteger(UInt64.max)), as: UInt64.self, to: .max)
        decodes(.integer(PropertyListInteger(UInt64.max)), as: UInt.self, to: .max)
        decodes(-7, as: Int.self, to: -7)
        decodes(.integer(PropertyListInteger(Int64(1) << 53)), as: Double.self, to: 9_007_199_254_740_992)
        decodes(16_777_216, as: Float.self, to: 16_777_216)
    }

    @Test func integersThatDoNotFitThrowTypeMismatch() {
        mismatches(128, as: Int8.self)
        mismatches(-129, as: Int8.self)
        mismatches(256, as: UInt8.self)
        mismatches(-1, as: UInt8.self)
        mismatches(-1, as: UInt64.self)
        mismatches(32768, as: Int16.self)
        mismatches(65536, as: UInt16.self)
        mismatches(.integer(PropertyListInteger(Int64(Int32.max) + 1)), as: Int32.self)
        mismatches(.integer(PropertyListInteger(UInt64(UInt32.max) + 1)), as: UInt32.self)
        mismatches(.integer(PropertyListInteger(UInt64.max)), as: Int64.self)
        mismatches(.integer(PropertyListInteger(UInt64.max)), as: Int.self)
        mismatches(.integer(PropertyListInteger((Int64(1) << 53) + 1)), as: Double.self)
        mismatches(16_777_217, as: Float.self)
    }

    @Test func realsDecodeIntoIntegersOnlyWhenIntegralAndInRange() {
        decodes(3.0, as: Int.self, to: 3)
        decodes(-128.0, as: Int8.self, to: -128)
        decodes(255.0, as: UInt8.self, to: 255)
        decodes(.float(42), as: Int16.self, to: 42)
        mismatches(3.5, as: Int.self)
        mismatches(128.0, as: Int8.self)
        mismatches(-1.0, as: UInt32.self)
        mismatches(1e20, as: Int64.self)
        mismatches(.real(.nan), as: Int.self)
        mismatches(.real(.infinity), as: Int.self)
    }

    @Test func realsDecodeIntoFloatOnlyWhenExact() throws {
        decodes(0.5, as: Float.self, to: 0.5)
        decodes(.float(0.1), as: Float.self, to: 0.1)
        decodes(.real(Double(Float(0.1))), as: Float.self, to: 0.1)
        decodes(.real(.infinity), as: Float.self, to: .infinity)
        decodes(.real(-.infinity), as: Float.self, to: -.infinity)
        mismatches(0.1, as: Float.self)
        mismatches(1e300, as: Float.self)
        decodes(.float(0.1), as: Double.self, to: Double(Float(0.1)))
        for archive in numberArchives(.real(.nan)) {
            #expect(try decoder.decode(Box<Float>.self, from: archive).value.isNaN)
            #expect(try decoder.decode(Box<Double>.self, from: archive).value.isNaN)
        }
    }

    @Test func booleansDecodeFromZeroAndOneOnly() {
        decodes(true, as: Bool.self, to: true)
        decodes(0, as: Bool.self, to: false)
        decodes(1, as: Bool.self, to: true)
        decodes(true, as: Int.self, to: 1)
        decodes(false, as: UInt8.self, to: 0)
        mismatches(2, as: Bool.self)
        mismatches(-1, as: Bool.self)
        mismatches(1.0, as: Bool.self)
        mismatches(true, as: Double.self)
        mismatches("true", as: Bool.self)
    }

    struct Outer: Decodable {
        var inner: Inner
        var list: [Int8]
    }

    struct Inner: Decodable {
        var value: Int8
    }

    @Test func typeMismatchCarriesFullCodingPathAndNamesTheObject() throws {
        let nested = archive([
            object(4, ["inner": .uid(2), "list": .uid(5)]),
            object(3, ["value": 300]),
            classDictionary("Inner"),
            classDictionary("Outer"),
            object(6, ["NS.objects": [.uid(7), .uid(7)]]),
            classDictionary("NSArray"),
            1,
        ])
        let (error, context) = try #require(decodingError { _ = try decoder.decode(Outer.self, from: nested) })
        guard case .typeMismatch(let type, _) = error else { throw error }
        #expect(ObjectIdentifier(type) == ObjectIdentifier(Int8.self))
        #expect(path(context) == ["inner", "value"])
        #expect(context.debugDescription.contains("of object UID(2) (class Inner)"))
        #expect(context.debugDescription.contains("key \"value\""))
        #expect(context.debugDescription.contains("300"))

        var elements = nested.objects
        elements[2] = object(3, ["value": 1])
        elements[5] = object(6, ["NS.objects": [.uid(7), .uid(7), .uid(8)]])
        elements.append("x")
        let (arrayError, arrayContext) = try #require(
            decodingError { _ = try decoder.decode(Outer.self, from: KeyedArchive(top: nested.top, objects: elements)) }
        )
        guard case .typeMismatch = arrayError else { throw arrayError }
        #expect(path(arrayContext) == ["list", "[2]"])
        #expect(arrayContext.debugDescription.contains("object UID(8) (string)"))
        #expect(arrayContext.debugDescription.contains("index 2 of object UID(5) (class NSArray)"))
    }

    // MARK: - Objects and containers

    struct Cat: Decodable, Equatable {
        var name: String
        var surname: String?
        var lives: Int
        var odd: Int

        enum CodingKeys: String, CodingKey {
            case name, surname, lives
            case odd = "$odd"
        }
    }

    @Test func structDecodesFromAnyObjectWithEscapedKeys() throws {
        let cat = archive([
            object(3, ["name": .uid(2), "surname": .uid(0), "lives": 9, "$$odd": 1]),
            "Tom",
            classDictionary("SomeApp.Whatever"),
        ])
        #expect(try decoder.decode(Cat.self, from: cat) == Cat(name: "Tom", surname: nil, lives: 9, odd: 1))
    }

    struct Keys: Decodable {
        var keys: [String]
        var containsClass: Bool

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: DecoderTestKey.self)
            self.keys = container.allKeys.map(\.stringValue).sorted()
            self.containsClass = container.contains(DecoderTestKey(stringValue: "$class"))
        }
    }

    @Test func allKeysUnescapesAndSkipsReservedKeys() throws {
        let value = archive([object(2, ["name": 1, "$$odd": 2, "$0": 3]), classDictionary("X")])
        let keys = try decoder.decode(Keys.self, from: value)
        #expect(keys.keys == ["$odd", "name"])
        #expect(!keys.containsClass)
    }

    struct Optionals: Decodable {
        var absent: Int?
        var null: String?
        var nsNull: String?
        var present: String?
    }

    @Test func absentKeysUIDZeroAndNSNullDecodeAsNil() throws {
        let value = archive([
            object(2, ["null": .uid(0), "nsNull": .uid(3), "present": .uid(5)]),
            classDictionary("X"),
            object(4),
            classDictionary("NSNull"),
            "here",
        ])
        let decoded = try decoder.decode(Optionals.self, from: value)
        #expect(decoded.absent == nil)
        #expect(decoded.null == nil)
        #expect(decoded.nsNull == nil)
        #expect(decoded.present == "here")
        #expect(
            try decoder.decode(
                [String?].self,
                from: archive([
                    object(2, ["NS.objects": [.uid(0), .uid(3), .uid(5)]]), classDictionary("NSArray"), object(4),
                    classDictionary("NSNull"), "here",
                ])
            ) == [nil, nil, "here"]
        )
    }

    @Test func keyNotFoundCarriesCodingPath() throws {
        let value = archive([
            object(4, ["inner": .uid(2), "list": .uid(5)]),
            object(3, [:]),
            classDictionary("Inner"),
            classDictionary("Outer"),
            object(6, ["NS.objects": []]),
            classDictionary("NSArray"),
        ])
        let (error, context) = try #require(decodingError { _ = try decoder.decode(Outer.self, from: value) })
        guard case .keyNotFound(let key, _) = error else { throw error }
        #expect(key.stringValue == "value")
        #expect(path(context) == ["inner"])
        #expect(context.debugDescription.contains("object UID(2) (class Inner) has no key \"value\""))
    }

    @Test func nonOptionalFromNilThrowsValueNotFound() throws {
        let value = archive([object(2, ["value": .uid(0)]), classDictionary("Box")])
        let (error, context) = try #require(decodingError { _ = try decoder.decode(Box<String>.self, from: value) })
        guard case .valueNotFound = error else { throw error }
        #expect(path(context) == ["value"])
        let (structError, _) = try #require(decodingError { _ = try decoder.decode(Box<Inner>.self, from: value) })
        guard case .valueNotFound = structError else { throw structError }
    }

    @Test func foundationValueObjectsDecode() throws {
        let uuid = UUID()
        let value = archive([
            // 1: NSArray of every form
            object(2, ["NS.objects": [.uid(3), .uid(5), .uid(6), .uid(8), .uid(10), .uid(12), .uid(13)]]),
            classDictionary("NSMutableArray", ["NSMutableArray", "NSArray", "NSObject"]),
            // 3: NSMutableString with NS.string as a UID
            object(4, ["NS.string": .uid(14)]),
            classDictionary("NSMutableString", ["NSMutableString", "NSString", "NSObject"]),
            // 5: NSString with NS.bytes
            object(4, ["NS.bytes": .data(Data("bytes".utf8))]),
            // 6: NSMutableData
            object(7, ["NS.data": .data(Data([1, 2]))]),
            classDictionary("NSMutableData", ["NSMutableData", "NSData", "NSObject"]),
            // 8: NSDate with an integer NS.time
            object(9, ["NS.time": 60]),
            classDictionary("NSDate"),
            // 10: NSUUID
            object(11, ["NS.uuidbytes": .data(withUnsafeBytes(of: uuid.uuid) { Data($0) })]),
            classDictionary("NSUUID"),
            // 12: a UUID string
            .string(uuid.uuidString),
            // 13: a plain date
            .date(Date(timeIntervalSinceReferenceDate: 5)),
            // 14
            "mutable",
        ])
        let elements = try decoder.decode(FoundationValues.self, from: value)
        #expect(elements.strings == ["mutable", "bytes"])
        #expect(elements.data == Data([1, 2]))
        #expect(elements.dates == [Date(timeIntervalSinceReferenceDate: 60)])
        #expect(elements.uuids == [uuid, uuid])
        #expect(elements.plainDate == Date(timeIntervalSinceReferenceDate: 5))
    }

    struct FoundationValues: Decodable {
        var strings: [String] = []
        var data: Data
        var dates: [Date] = []
        var uuids: [UUID] = []
        var plainDate: Date

        init(from decoder: any Decoder) throws {
            var container = try decoder.unkeyedContainer()
            self.strings = [try container.decode(String.self), try container.decode(String.self)]
            self.data = try container.decode(Data.self)
            self.dates = [try container.decode(Date.self)]
            self.uuids = [try container.decode(UUID.self), try container.decode(UUID.self)]
            self.plainDate = try container.decode(Date.self)
        }
    }

    @Test func urlsDecodeFromNSURLAndStrings() throws {
        let value = archive([
            object(2, ["NS.objects": [.uid(3), .uid(7)]]),
            classDictionary("NSArray"),
            object(4, ["NS.base": .uid(5), "NS.relative": .uid(6)]),
            classDictionary("NSURL"),
            object(4, ["NS.base": .uid(0), "NS.relative": "https://example.com/a/"]),
            "b/c?d=1",
            "file:///tmp/x",
        ])
        let urls = try decoder.decode([URL].self, from: value)
        #expect(urls.map(\.absoluteString) == ["https://example.com/a/b/c?d=1", "file:///tmp/x"])
        #expect(urls.first?.baseURL?.absoluteString == "https://example.com/a/")
    }

    @Test func dictionariesDecodeFromNSDictionaryAndObjectKeys() throws {
        let value = archive([
            // 1: NSDictionary with number keys, one as an object and one inline
            object(2, ["NS.keys": [.uid(3), 4], "NS.objects": [.uid(4), .uid(5)]]),
            classDictionary("NSMutableDictionary", ["NSMutableDictionary", "NSDictionary", "NSObject"]),
            3, "four", "three",
            // 6: NSDictionary with string keys that spell integers
            object(2, ["NS.keys": [.uid(7), .uid(8)], "NS.objects": [.uid(4), .uid(5)]]),
            "1", "2",
            // 9: an object's own keys
            object(10, ["a": 1, "$$b": 2]),
            classDictionary("Thing"),
        ])
        #expect(try decoder.decode([Int: String].self, from: value) == [3: "four", 4: "three"])
        let byString = KeyedArchive(top: [("root", 6)], objects: value.objects)
        #expect(try decoder.decode([Int: String].self, from: byString) == [1: "four", 2: "three"])
        #expect(try decoder.decode([String: String].self, from: byString) == ["1": "four", "2": "three"])
        let own = KeyedArchive(top: [("root", 9)], objects: value.objects)
        #expect(try decoder.decode([String: Int].self, from: own) == ["a": 1, "$b": 2])
    }

    @Test func dictionaryValueMismatchNamesTheKey() throws {
        let value = archive([
            object(2, ["NS.keys": [.uid(3)], "NS.objects": [.uid(4)]]),
            classDictionary("NSDictionary"),
            "weight",
            "heavy",
        ])
        let (error, context) = try #require(
            decodingError { _ = try decoder.decode([String: Double].self, from: value) }
        )
        guard case .typeMismatch = error else { throw error }
        #expect(path(context) == ["weight"])
    }

    class Animal: Decodable {
        let name: String
    }

    final class Dog: Animal {
        let breed: String

        enum CodingKeys: String, CodingKey { case breed }

        required init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            self.breed = try container.decode(String.self, forKey: .breed)
            try super.init(from: container.superDecoder())
        }
    }

    @Test func superDecoderReadsTheSameObject() throws {
        let value = archive([object(2, ["name": "Rex", "breed": "Collie"]), classDictionary("Dog")])
        let dog = try decoder.decode(Dog.self, from: value)
        #expect(dog.name == "Rex")
        #expect(dog.breed == "Collie")
    }

    final class Shared: Decodable {
        let name: String
    }

    struct Pair: Decodable {
        var first: Shared
        var second: Shared
        var optional: Shared?
    }

    @Test func sharedClassInstancesDecodeOnce() throws {
        let value = archive([
            object(2, ["first": .uid(3), "second": .uid(3), "optional": .uid(3)]),
            classDictionary("Pair"),
            object(4, ["name": "shared"]),
            classDictionary("Shared"),
        ])
        let pair = try decoder.decode(Pair.self, from: value)
        #expect(pair.first === pair.second)
        #expect(pair.optional === pair.first)
        let list = archive([
            object(2, ["NS.objects": [.uid(3), .uid(3), .uid(5)]]),
            classDictionary("NSArray"),
            object(4, ["name": "a"]),
            classDictionary("Shared"),
            object(4, ["name": "b"]),
        ])
        let shared = try decoder.decode([Shared].self, from: list)
        #expect(shared[0] === shared[1])
        #expect(shared[0] !== shared[2])
    }

    @Test func sessionSharesInstancesAcrossTopKeys() throws {
        let value = archive(
            [object(2, ["name": "one"]), classDictionary("Shared")],
            top: [("a", 1), ("b", 1)]
        )
        let options = decoder.options
        let session = try ArchiveDecodingSession(
            checking: ArchiveDecodingSession.list(archive: value, limits: options.limits, into: nil),
            options: options
        )
        let a = try _ArchiveDecoder(topLevelOf: session).decodeTopLevel(Shared.self, stored: .uid(UID(1)))
        let b = try _ArchiveDecoder(topLevelOf: session).decodeTopLevel(Shared.self, stored: .uid(UID(1)))
        #expect(a === b)
    }

    @Test func userInfoReachesDecodedTypes() throws {
        var decoder = KeyedArchiveDecoder()
        let key = try #require(CodingUserInfoKey(rawValue: "flag"))
        decoder.userInfo[key] = "on"
        let value = archive([object(2, [:]), classDictionary("X")])
        #expect(try decoder.decode(UserInfoProbe.self, from: value).flag == "on")
    }

    struct UserInfoProbe: Decodable {
        var flag: String?

        init(from decoder: any Decoder) throws {
            self.flag = decoder.userInfo[CodingUserInfoKey(rawValue: "flag")!] as? String
        }
    }

    struct Wrapper: Decodable, Equatable {
        var value: String

        init(from decoder: any Decoder) throws {
            self.value = try decoder.singleValueContainer().decode(String.self)
        }
    }

    @Test func singleValueContainerIsTransparent() throws {
        let value = archive([object(2, ["NS.objects": [.uid(3), .uid(3)]]), classDictionary("NSArray"), "x"])
        #expect(try decoder.decode([Wrapper].self, from: value).map(\.value) == ["x", "x"])
        let optional = archive([
            object(2, ["value": .uid(3)]), classDictionary("Box"), object(4, ["name": "n"]),
            classDictionary("Shared"),
        ])
        #expect(try decoder.decode(Box<Shared?>.self, from: optional).value?.name == "n")
    }

    // MARK: - Top-level keys

    @Test func topLevelKeysAreFoundByNameOrAlone() throws {
        let generic = archive(["only"], top: [("$0", 1)])
        #expect(try decoder.decode(String.self, from: generic) == "only")
        let two = archive(["one", "two"], top: [("$0", 1), ("$1", 2)])
        #expect(try decoder.decode(String.self, forKey: "$1", from: two) == "two")
        let (error, context) = try #require(decodingError { _ = try decoder.decode(String.self, from: two) })
        guard case .keyNotFound(let key, _) = error else { throw error }
        #expect(key.stringValue == "root")
        #expect((context.underlyingError as? KeyedArchiveError)?.code == .missingKey)
        let (missing, _) = try #require(decodingError { _ = try decoder.decode(String.self, forKey: "$9", from: two) })
        guard case .keyNotFound = missing else { throw missing }
    }

    // MARK: - Malformed archives

    private func expectCorrupted<T: Decodable>(
        _ type: T.Type,
        from archive: KeyedArchive,
        code: KeyedArchiveError.Code,
        path expectedPath: [String],
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        guard
            let (error, context) = decodingError(
                sourceLocation: sourceLocation,
                { _ = try decoder.decode(type, from: archive) }
            )
        else { return }
        guard case .dataCorrupted = error else {
            Issue.record("expected dataCorrupted, got \(error)", sourceLocation: sourceLocation)
            return
        }
        #expect((context.underlyingError as? KeyedArchiveError)?.code == code, sourceLocation: sourceLocation)
        #expect(path(context) == expectedPath, sourceLocation: sourceLocation)
    }

    @Test func bytesThatAreNotAnArchiveThrowDataCorrupted() throws {
        for (bytes, code) in [
            (Data("not a plist".utf8), KeyedArchiveError.Code.malformedPropertyList),
            ((["a": 1] as PropertyListValue).serialized(as: .binary), .notAnArchive),
            (Data(), .malformedPropertyList),
        ] {
            let (error, context) = try #require(decodingError { _ = try decoder.decode(Int.self, from: bytes) })
            guard case .dataCorrupted = error else { throw error }
            #expect((context.underlyingError as? KeyedArchiveError)?.code == code)
            #expect(context.codingPath.isEmpty)
        }
    }

    @Test func uidOutOfRangeThrowsInvalidReference() {
        expectCorrupted(
            Box<String>.self,
            from: archive([object(2, ["value": .uid(99)]), classDictionary("Box")]),
            code: .invalidReference,
            path: ["value"]
        )
        expectCorrupted(String.self, from: archive(["x"], top: [("root", 7)]), code: .invalidReference, path: [])
        expectCorrupted(Box<Int>.self, from: archive([object(9, ["value": 1])]), code: .invalidReference, path: [])
    }

    @Test func missingOrInvalidClassThrows() {
        expectCorrupted(Box<Int>.self, from: archive([["value": 1]]), code: .missingClass, path: [])
        expectCorrupted(
            Box<Int>.self,
            from: archive([object(2, ["value": 1]), "NotAClass"]),
            code: .invalidClass,
            path: []
        )
        expectCorrupted(
            Box<Int>.self,
            from: archive([object(2, ["value": 1]), ["name": "x"]]),
            code: .invalidClass,
            path: []
        )
        expectCorrupted(
            Box<Box<Int>>.self,
            from: archive([object(2, ["value": .uid(3)]), classDictionary("Box"), ["value": 1]]),
            code: .missingClass,
            path: ["value"]
        )
    }

    @Test func aClassNameMetBeforeIsReadAgainWithItsChain() throws {
        // The decoder keeps the classes it met, by name; an archive whose class of the same name
        // has another chain, or a malformed one, must still be read as it is.
        let plain = archive([object(2, ["value": 1]), classDictionary("Box")])
        let dictionary = archive([
            object(2, ["NS.keys": [.uid(3)], "NS.objects": [.uid(4)]]),
            classDictionary("Box", ["Box", "NSDictionary", "NSObject"]), "value", 7,
        ])
        let malformed = archive([object(2, ["value": 1]), ["$classname": "Box", "$classes": ["Box", 7]]])
        let hinted = archive([
            object(2, ["value": 3]),
            ["$classname": "Box", "$classes": ["Box", "NSObject"], "$classhints": ["Hint"]],
        ])
        for _ in 0..<2 {
            #expect(try decoder.decode(Box<Int>.self, from: plain.serialized()).value == 1)
            #expect(try decoder.decode([String: Int].self, from: dictionary.serialized()) == ["value": 7])
            expectCorrupted(Box<Int>.self, from: malformed, code: .invalidClass, path: [])
            #expect(try decoder.decode(Box<Int>.self, from: hinted.serialized()).value == 3)
        }
    }

    @Test func dictionaryKeysAndObjectsOfDifferentLengthsThrow() {
        let value = archive([
            object(2, ["NS.keys": [.uid(3), .uid(3)], "NS.objects": [.uid(3)]]), classDictionary("NSDictionary"), "k",
        ])
        expectCorrupted([String: String].self, from: value, code: .unexpectedObject, path: [])
        expectCorrupted(Box<Int>.self, from: value, code: .unexpectedObject, path: [])
    }

    @Test func malformedFoundationObjectsThrow() {
        let uuid = archive([object(2, ["NS.uuidbytes": .data(Data([1, 2]))]), classDictionary("NSUUID")])
        expectCorrupted(UUID.self, from: uuid, code: .unexpectedObject, path: [])
        let date = archive([object(2, ["NS.time": "soon"]), classDictionary("NSDate")])
        expectCorrupted(Date.self, from: date, code: .unexpectedObject, path: [])
        let array = archive([object(2, [:]), classDictionary("NSArray")])
        expectCorrupted([Int].self, from: array, code: .unexpectedObject, path: [])
        let selfBase = archive([object(2, ["NS.base": .uid(1), "NS.relative": "x"]), classDictionary("NSURL")])
        expectCorrupted(URL.self, from: selfBase, code: .cyclicReference, path: [])
    }

    struct Tree: Decodable {
        var children: [Tree]
    }

    @Test func cyclesThroughValueTypesThrowCyclicReference() throws {
        let value = archive([
            object(3, ["children": .uid(2)]),
            object(4, ["NS.objects": [.uid(1)]]),
            classDictionary("Tree"),
            classDictionary("NSArray"),
        ])
        let (_, context) = try #require(decodingError { _ = try decoder.decode(Tree.self, from: value) })
        let underlying = try #require(context.underlyingError as? KeyedArchiveError)
        #expect(underlying.code == .cyclicReference)
        #expect(underlying.uid == UID(1))
        #expect(path(context) == ["children", "[0]"])
    }

    final class Link: Decodable {
        let next: Link?
    }

    /// A linked list of `count` objects.
    private func chain(_ count: Int) -> KeyedArchive {
        var objects: [PropertyListValue] = [classDictionary("Link")]
        for index in 0..<count {
            let next: UID = index == count - 1 ? 0 : UID(UInt64(index + 3))
            objects.append(object(1, ["next": .uid(next)]))
        }
        return archive(objects, top: [("root", 2)])
    }

    @Test func nestingBeyondTheDepthLimitThrows() throws {
        var limited = KeyedArchiveDecoder()
        limited.limits.maximumDepth = 5
        #expect(throws: Never.self) { try limited.decode(Link.self, from: chain(5)) }
        let (_, context) = try #require(decodingError { _ = try limited.decode(Link.self, from: chain(7)) })
        #expect((context.underlyingError as? KeyedArchiveError)?.code == .depthLimitExceeded)
        #expect(context.codingPath.count == 6)
        let (_, deep) = try #require(decodingError { _ = try decoder.decode(Link.self, from: chain(5000)) })
        #expect((deep.underlyingError as? KeyedArchiveError)?.code == .depthLimitExceeded)
    }
}

/// A coding key for any string.
private struct DecoderTestKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}
