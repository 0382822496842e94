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

/// UIDs that refer to no object, read by every reader of an archive's graph other than the
/// decoders (which `ArchivableTests`' `HostileReferenceTests` cover on both paths): the validator,
/// the resolver behind `ArchivedValue`, the JSON writer, `KeyedArchive` itself, and the summary
/// `ArchiveInfo` makes. Each reports the UID; none traps or reads another object in its place.
@Suite struct HostileUIDTests {
    /// An archive of a dictionary holding a string, an array of strings and a nested dictionary:
    /// root UID 1, with `NS.keys`/`NS.objects` arrays of references.
    static let archive: KeyedArchive = {
        let value: [String: PropertyListValue] = ["name": "n", "tags": ["a", "b"], "child": ["x": 1]]
        return KeyedArchive(
            top: [KeyedArchive.TopEntry(key: "root", value: .uid(1))],
            objects: Self.objects(for: value)
        )
    }()

    /// `$objects` for an `NSDictionary` of `value`, as `NSKeyedArchiver` lays it out.
    static func objects(for value: [String: PropertyListValue]) -> [PropertyListValue] {
        var objects: [PropertyListValue] = ["$null"]
        func add(_ object: PropertyListValue) -> UID {
            objects.append(object)
            return UID(UInt64(objects.count - 1))
        }
        let dictionaryClass: PropertyListValue = [
            "$classname": "NSDictionary", "$classes": ["NSDictionary", "NSObject"],
        ]
        let arrayClass: PropertyListValue = ["$classname": "NSArray", "$classes": ["NSArray", "NSObject"]]
        func archive(_ value: PropertyListValue) -> UID {
            switch value {
            case .dictionary(let dictionary):
                let uid = add("placeholder")
                let keys = dictionary.map { PropertyListValue.uid(add(.string($0.key))) }
                let values = dictionary.map { PropertyListValue.uid(archive($0.value)) }
                let classUID = add(dictionaryClass)
                objects[Int(uid.rawValue)] = [
                    "NS.keys": .array(keys), "NS.objects": .array(values), "$class": .uid(classUID),
                ]
                return uid
            case .array(let elements):
                let uid = add("placeholder")
                let values = elements.map { PropertyListValue.uid(archive($0)) }
                objects[Int(uid.rawValue)] = ["NS.objects": .array(values), "$class": .uid(add(arrayClass))]
                return uid
            default:
                return add(value)
            }
        }
        _ = archive(.dictionary(PropertyListDictionary(value.map { ($0.key, $0.value) })))
        return objects
    }

    /// UIDs that refer to no object of `count`: at and past the count, past `Int.max` (negative
    /// once truncated to an `Int`), and one whose low 32 bits name a real object.
    static func hostileUIDs(objectCount count: Int) -> [UID] {
        [
            UID(UInt64(count)), UID(UInt64(count) + 7), UID(UInt64(UInt32.max)), UID(1 << 32 | 1),
            UID(UInt64(Int.max)), UID(1 << 63), UID(1 << 63 | 1), UID(UInt64.max),
        ]
    }

    /// Every place a reference sits in the archive, each pointed at a hostile UID.
    static func damagedArchives() -> [(String, KeyedArchive)] {
        var result: [(String, KeyedArchive)] = []
        let archive = Self.archive
        for uid in Self.hostileUIDs(objectCount: archive.objects.count) {
            var top = archive
            top.top[0].value = .uid(uid)
            result.append(("$top.root = \(uid)", top))
            for (index, object) in archive.objects.enumerated() {
                guard case .dictionary(let dictionary) = object, dictionary["$classname"] == nil else { continue }
                for (key, value) in dictionary {
                    var edited = dictionary
                    switch value {
                    case .uid: edited[key] = .uid(uid)
                    case .array(let elements) where !elements.isEmpty:
                        edited[key] = .array([.uid(uid)] + elements.dropFirst())
                    default: continue
                    }
                    var damaged = archive
                    damaged.objects[index] = .dictionary(edited)
                    result.append(("object \(index) \(key) = \(uid)", damaged))
                }
            }
        }
        return result
    }

    @Test func theUndamagedArchiveReadsEverywhere() throws {
        let archive = Self.archive
        #expect(ArchiveValidator().validate(archive).isEmpty)
        #expect(ArchiveValidator().validate(bytes: archive.serialized()).isEmpty)
        _ = try ArchivedValue(archive: archive)
        _ = try ArchivedValueJSONWriter().write(archive)
        _ = try ArchiveInfo(bytes: archive.serialized())
        let decoded = try KeyedArchiveDecoder().decode(HostileRoot.self, from: archive.serialized())
        #expect(decoded.tags == ["a", "b"] && decoded.child == ["x": 1])
    }

    @Test func everyReaderReportsAUIDThatRefersToNoObject() throws {
        let cases = Self.damagedArchives()
        #expect(cases.count > 40)
        for (name, archive) in cases {
            let bytes = archive.serialized()
            // The validator names the bad reference, from the archive and from its bytes.
            for findings in [ArchiveValidator().validate(archive), ArchiveValidator().validate(bytes: bytes)] {
                #expect(findings.contains { $0.code == .invalidReference }, "\(name): \(findings)")
            }
            #expect(
                ArchiveValidator(allowsCycles: true).validate(bytes: bytes).contains { $0.code == .invalidReference },
                "\(name)"
            )
            let resolved = #expect(throws: KeyedArchiveError.self, "\(name)") { try ArchivedValue(archive: archive) }
            #expect(resolved?.code == .invalidReference, "\(name)")
            let json = #expect(throws: KeyedArchiveError.self, "\(name)") {
                try ArchivedValueJSONWriter().write(archive)
            }
            #expect(json?.code == .invalidReference, "\(name)")
            // The summary reads classes and counts without following every reference.
            _ = try? ArchiveInfo(bytes: bytes)
            // Decoding names it too, as a `DecodingError`.
            let decoding = #expect(throws: DecodingError.self, "\(name)") {
                try KeyedArchiveDecoder().decode(HostileRoot.self, from: bytes)
            }
            if case .dataCorrupted(let context)? = decoding {
                #expect((context.underlyingError as? KeyedArchiveError)?.code == .invalidReference, "\(name)")
            } else {
                Issue.record("\(name): \(String(describing: decoding))")
            }
        }
    }

    @Test func objectForAUIDChecksItsRange() throws {
        let archive = Self.archive
        for uid in Self.hostileUIDs(objectCount: archive.objects.count) {
            let error = #expect(throws: KeyedArchiveError.self) { try archive.object(for: uid) }
            #expect(error?.code == .invalidReference)
            #expect(error?.uid == uid)
        }
        #expect(try archive.object(for: UID(UInt64(archive.objects.count - 1))) == archive.objects.last)
    }
}

/// The archive's root dictionary, read as a keyed container.
private struct HostileRoot: Decodable {
    var name: String
    var tags: [String]
    var child: [String: Int]
}
