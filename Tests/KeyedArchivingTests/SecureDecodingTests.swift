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

private let nsArray: PropertyListValue = ["$classname": "NSArray", "$classes": ["NSArray", "NSObject"]]

private func classDictionary(_ name: String, _ chain: String...) -> PropertyListValue {
    .dictionary(["$classname": .string(name), "$classes": .array(([name] + chain + ["NSObject"]).map { .string($0) })])
}

/// `$objects`: `$null`, then an object of class `holderClass` (UID 1) whose `a` and `b` both
/// refer to one object of class `petClass` (UID 2) named "Tom".
private func sharedPetArchive(holderClass: String = "Holder", petClass: String) -> KeyedArchive {
    KeyedArchive(
        top: [("root", 1)],
        objects: [
            "$null",
            ["$class": .uid(3), "a": .uid(2), "b": .uid(2)],
            ["$class": .uid(4), "name": .uid(5)],
            classDictionary(holderClass),
            classDictionary(petClass),
            "Tom",
        ]
    )
}

private final class CatClass: Decodable, ArchivedClassNaming {
    static let archivedClassName = "Cat"
    let name: String
}

private final class DogClass: Decodable, ArchivedClassNaming {
    static let archivedClassName = "Dog"
    let name: String
}

private struct CatValue: Decodable, ArchivedClassNaming {
    static let archivedClassName = "MyApp.Cat"
    static let acceptedArchivedClassNames: Set<String> = ["MyApp.Cat", "OldApp.Cat"]
    var name: String
}

private struct AnyNamed: Decodable {
    var name: String
}

/// An array of strings nested `levels` deep, every level holding the next one `width` times.
private func billionLaughs(levels: Int, width: Int) -> KeyedArchive {
    var objects: [PropertyListValue] = ["$null", "leaf", nsArray]
    var previous = UID(1)
    for _ in 0..<levels {
        objects.append(["$class": .uid(2), "NS.objects": .array(Array(repeating: .uid(previous), count: width))])
        previous = UID(UInt64(objects.count - 1))
    }
    return KeyedArchive(top: [("root", previous)], objects: objects)
}

/// The `KeyedArchiveError` a `DecodingError` wraps.
private func underlying(_ error: any Error) -> KeyedArchiveError? {
    switch error as? DecodingError {
    case .dataCorrupted(let context)?, .typeMismatch(_, let context)?:
        return context.underlyingError as? KeyedArchiveError
    default: return nil
    }
}

@Suite struct SecureDecodingTests {
    // MARK: Allow-lists for type-erased values

    @Test func everyClassIsAllowedByDefault() throws {
        let value = try ArchivedValue(archive: sharedPetArchive(petClass: "Cat"))
        #expect(value["root"]?["a"]?.className == "Cat")
    }

    @Test func aClassOutsideTheAllowListIsNamedWithItsUID() throws {
        let archive = sharedPetArchive(petClass: "EvilPayload")
        do {
            _ = try ArchivedValue(archive: archive, allowedClassNames: ["Holder", "Cat"])
            Issue.record("accepted a class outside the allow-list")
        } catch {
            #expect(error.code == .classNotAllowed)
            #expect(error.uid == UID(2))
            #expect(error.reason.contains("\"EvilPayload\""))
        }
        #expect(throws: KeyedArchiveError(.classNotAllowed)) {
            try ArchivedObjectGraph(archive: archive, allowedClassNames: ["Holder"])
        }
        #expect(
            try ArchivedObjectGraph(archive: archive, allowedClassNames: ["Holder", "EvilPayload"]).objects.count == 2
        )
    }

    @Test func foundationClassesMustBeListedToo() throws {
        let archive = KeyedArchive(
            top: [("root", 1)],
            objects: ["$null", ["$class": .uid(2), "NS.objects": [.uid(3)]], nsArray, "x"]
        )
        #expect(throws: KeyedArchiveError(.classNotAllowed)) {
            try ArchivedValue(archive: archive, allowedClassNames: [])
        }
        let value = try ArchivedValue(archive: archive, allowedClassNames: ArchivedValue.foundationClassNames)
        #expect(value["root"] == .array([.string("x")], className: "NSArray"))
        // Plain values have no class and are always accepted.
        let plain = KeyedArchive(top: [("root", 1)], objects: ["$null", "just a string"])
        #expect(try ArchivedValue(archive: plain, allowedClassNames: [])["root"] == .string("just a string"))
    }

    // MARK: Declared class names for Codable types

    @Test func aDeclaredClassNameIsChecked() throws {
        let decoder = KeyedArchiveDecoder()
        let cat = try decoder.decode([String: CatClass].self, from: sharedPetArchive(petClass: "Cat"))
        #expect(cat["a"] === cat["b"])
        do {
            _ = try decoder.decode([String: CatClass].self, from: sharedPetArchive(petClass: "Dog"))
            Issue.record("decoded a Dog object as Cat")
        } catch DecodingError.typeMismatch(let type, let context) {
            #expect(ObjectIdentifier(type) == ObjectIdentifier(CatClass.self))
            #expect(context.codingPath.map(\.stringValue) == ["a"])
            let error = try #require(context.underlyingError as? KeyedArchiveError)
            #expect(error.code == .classMismatch)
            #expect(error.uid == UID(2))
        }
    }

    @Test func acceptedNamesCoverRenamedClassesAndSubclasses() throws {
        let decoder = KeyedArchiveDecoder()
        #expect(
            try decoder.decode([String: CatValue].self, from: sharedPetArchive(petClass: "OldApp.Cat"))["a"]?.name
                == "Tom"
        )
        // A subclass lists the accepted name in its `$classes` chain.
        let kitten = KeyedArchive(
            top: [("root", 1)],
            objects: ["$null", ["$class": .uid(2), "name": .uid(3)], classDictionary("Kitten", "MyApp.Cat"), "Tom"]
        )
        #expect(try decoder.decode(CatValue.self, from: kitten).name == "Tom")
        #expect(throws: DecodingError.self) {
            try decoder.decode(CatValue.self, from: sharedPetArchive(petClass: "Cat"))
        }
    }

    @Test func aMalformedClassIsReportedAsSuchNotAsAMismatch() throws {
        let classless = KeyedArchive(top: [("root", 1)], objects: ["$null", ["name": .uid(2)], "Tom"])
        do {
            _ = try KeyedArchiveDecoder().decode(CatValue.self, from: classless)
            Issue.record("decoded an object without $class")
        } catch {
            #expect(underlying(error)?.code == .missingClass)
        }
        // A plain string is no object of the class at all.
        let plain = KeyedArchive(top: [("root", 1)], objects: ["$null", "Tom"])
        #expect(throws: DecodingError.self) { try KeyedArchiveDecoder().decode(CatValue.self, from: plain) }
    }

    @Test func aSharedObjectIsCheckedAtEveryReference() throws {
        struct Confused: Decodable {
            var a: CatClass
            var b: DogClass
        }
        // Apple checks the class only when an object is first decoded; here the second reference to
        // the object already decoded as a Cat must not pass as a Dog.
        do {
            _ = try KeyedArchiveDecoder().decode(Confused.self, from: sharedPetArchive(petClass: "Cat"))
            Issue.record("a Cat object decoded as Dog through a second reference")
        } catch {
            #expect(underlying(error)?.code == .classMismatch)
            if case DecodingError.typeMismatch(_, let context) = error {
                #expect(context.codingPath.map(\.stringValue) == ["b"])
            }
        }
    }

    @Test func typesWithoutADeclaredNameDecodeFromAnyClassWithTheirShape() throws {
        let pets = try KeyedArchiveDecoder().decode(
            [String: AnyNamed].self,
            from: sharedPetArchive(petClass: "Anything")
        )
        #expect(pets["b"]?.name == "Tom")
        #expect(throws: DecodingError.self) {
            try KeyedArchiveDecoder().decode([String: [String]].self, from: sharedPetArchive(petClass: "Anything"))
        }
    }

    // MARK: Cycles

    @Test func aCycleIsReportedWithItsPath() throws {
        final class Node: Decodable {
            var next: Node?
        }
        let archive = KeyedArchive(
            top: [("root", 1)],
            objects: [
                "$null", ["$class": .uid(3), "next": .uid(2)], ["$class": .uid(3), "next": .uid(1)],
                classDictionary("Node"),
            ]
        )
        do {
            _ = try KeyedArchiveDecoder().decode(Node.self, from: archive)
            Issue.record("decoded a cycle")
        } catch {
            let error = try #require(underlying(error))
            #expect(error.code == .cyclicReference)
            #expect(error.reason.hasSuffix("UID(1) → UID(2) → UID(1)"))
        }
    }

    // MARK: Enormous sharing

    @Test func billionLaughsFailsEveryResolvingEntryPointWithinTheBudget() throws {
        let archive = billionLaughs(levels: 30, width: 2)
        let clock = ContinuousClock()
        let elapsed = try clock.measure {
            #expect(throws: KeyedArchiveError(.decodedSizeLimitExceeded)) { try ArchivedValue(archive: archive) }
            #expect(throws: KeyedArchiveError(.decodedSizeLimitExceeded)) {
                try ArchivedValueJSONWriter().write(archive)
            }
            #expect(throws: KeyedArchiveError(.decodedSizeLimitExceeded)) {
                try ArchivedValueTreePrinter().string(from: ArchivedValue(archive: archive))
            }
            // The object graph keeps each object once, so it and the tree printer stay small.
            let graph = try ArchivedObjectGraph(archive: archive)
            #expect(graph.objects.count == 30)
            #expect(try ArchivedValueTreePrinter().string(from: archive).utf8.count < 10_000)
            #expect(ArchiveValidator().validate(archive).map(\.code) == [.decodedSizeLimitExceeded])
        }
        // A guard against hanging, generous for a loaded machine.
        #expect(elapsed < .seconds(20))
    }

    @Test func billionLaughsStopsTheCodableDecoderWithinTheBudget() throws {
        let archive = billionLaughs(levels: 30, width: 2)
        var decoder = KeyedArchiveDecoder()
        // Small, to keep the test fast: `StringTree` tries a string first, and every failed try builds an error.
        decoder.limits.decodedSizeAllowance = 1 << 16
        let clock = ContinuousClock()
        let elapsed = clock.measure {
            do {
                _ = try decoder.decode(StringTree.self, from: archive)
                Issue.record("decoded 2^30 leaves")
            } catch {
                #expect(underlying(error)?.code == .decodedSizeLimitExceeded)
                if case DecodingError.dataCorrupted(let context) = error {
                    #expect(!context.codingPath.isEmpty)
                }
            }
        }
        // A guard against hanging, generous for a loaded machine.
        #expect(elapsed < .seconds(20))
    }

    @Test func sharingWithinTheBudgetStillDecodes() throws {
        // 2^10 leaves: well within the allowance, so heavy but bounded sharing is fine.
        let archive = billionLaughs(levels: 10, width: 2)
        #expect(try ArchivedValue(archive: archive)["root"]?.className == "NSArray")
        var leaves = 0
        func count(_ tree: StringTree) {
            switch tree {
            case .leaf: leaves += 1
            case .node(let children): children.forEach(count)
            }
        }
        count(try KeyedArchiveDecoder().decode(StringTree.self, from: archive))
        #expect(leaves == 1024)
    }

    @Test func nestedPropertyListsExpandOnlyWithinTheirOwnSize() throws {
        // A data value holding 2^12 shared leaves in 13 objects: not expanded, as its output could
        // be repeated wherever the data value is shared.
        let laughs = BinaryPropertyListAssembler.sharedArrays(levels: 12, width: 2)
        #expect(try PropertyListValue(parsing: laughs).arrayValue?.count == 2)
        let expanding = PropertyListValue.array([.data(Data(laughs))])
        let tree = try ArchivedValueTreePrinter(expandsNestedData: true).string(fromPropertyList: expanding)
        #expect(!tree.contains("holding"))
        // A plain nested property list is expanded.
        let inner: PropertyListValue = ["a", "b"]
        let plain = PropertyListValue.array([.data(inner.serialized(as: .binary))])
        let plainTree = try ArchivedValueTreePrinter(expandsNestedData: true).string(fromPropertyList: plain)
        #expect(plainTree.contains("holding"))
        // Nesting deeper than half the depth limit is not expanded either.
        var deep: PropertyListValue = "leaf"
        for _ in 0..<300 { deep = [deep] }
        let deepData = PropertyListValue.array([.data(deep.serialized(as: .binary))])
        let json = try ArchivedValueJSONWriter(expandsNestedData: true).write(propertyList: deepData)
        #expect(String(decoding: json, as: UTF8.self).contains("$data"))
    }

    @Test func theBudgetGrowsWithTheArchive() {
        var limits = PropertyListLimits.default
        limits.decodedSizeAllowance = 100
        limits.maximumExpansion = 4
        #expect(limits.decodedSizeBudget(forInputSize: 10) == 100)
        #expect(limits.decodedSizeBudget(forInputSize: 1000) == 4000)
        limits.maximumExpansion = .max
        #expect(limits.decodedSizeBudget(forInputSize: .max) == .max / 4)
    }

    @Test func everyFixtureDecodesWithinTheDefaultLimits() throws {
        for name in Fixtures.appleFixtureNames {
            let bytes = try Fixtures.apple(name)
            guard let archive = try? KeyedArchive(parsing: bytes) else { continue }
            _ = try ArchivedValue(archive: archive)
            _ = try ArchivedObjectGraph(archive: archive)
        }
    }
}
