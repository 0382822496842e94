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

/// Stored properties declared inside `#if` are archived where their condition holds, as
/// synthesized `Codable` archives them, on both paths and with every coder.
@Suite struct IfConfigArchivingTests {
    static let value = ConditionalMembers(name: "Tom", visits: 3, tags: ["a", "b"], level: 5)
    static let twin = ConditionalMembersTwin(name: "Tom", visits: 3, tags: ["a", "b"], level: 5)

    @Test(arguments: BothPaths.modes)
    func theArchiveIsTheSynthesizedTwins(mode: DirectArchiving) throws {
        let archive = try BothPaths.encoder(mode).encode(Self.value)
        #expect(archive == (try BothPaths.encoder(.disabled).encode(Self.twin)))
        #expect(try BothPaths.decoder(mode).decode(ConditionalMembers.self, from: archive) == Self.value)
        // Every key whose condition holds is there, and only those.
        let keys = try Self.rootKeys(of: archive)
        #expect(keys == ["level", "name", "tags", "visits"])
    }

    @Test func otherCodersWriteWhatTheTwinWrites() throws {
        let json = JSONEncoder()
        json.outputFormatting = .sortedKeys
        #expect(try json.encode(Self.value) == json.encode(Self.twin))
        #expect(try PropertyListEncoder().encode(Self.value) == PropertyListEncoder().encode(Self.twin))
        let decoded = try JSONDecoder().decode(ConditionalMembers.self, from: json.encode(Self.twin))
        #expect(decoded == Self.value)
    }

    @Test(arguments: BothPaths.modes)
    func absentPropertiesKeepTheirClausesInitialValues(mode: DirectArchiving) throws {
        let archive = try BothPaths.encoder(mode).encode(NameOnlyConditional(name: "Tom", visits: 1))
        let decoded = try BothPaths.decoder(mode).decode(ConditionalMembers.self, from: archive)
        #expect(decoded == ConditionalMembers(name: "Tom", visits: 1, tags: [], level: 2))
    }

    @Test(arguments: BothPaths.modes)
    func aFieldWhoseConditionDoesNotHoldIsKeptAsUnknown(mode: DirectArchiving) throws {
        let written = SecretWriter(name: "Tom", secret: 42)
        let archive = try BothPaths.encoder(mode).encode(written)
        let read = try BothPaths.decoder(mode).decode(SecretReader.self, from: archive)
        #expect(read.name == "Tom")
        // Written back by the build that does not declare it, the secret survives.
        let rewritten = try BothPaths.encoder(mode).encode(read)
        #expect(try BothPaths.decoder(mode).decode(SecretWriter.self, from: rewritten) == written)
    }

    /// The keys of the root object of `archive`, sorted, without `$class`.
    static func rootKeys(of archive: Data) throws -> [String] {
        let graph = try KeyedArchive(parsing: archive)
        let root = graph.top.first { $0.key == "root" }?.value.uidValue
        guard let root, let object = graph.objects[Int(root.rawValue)].dictionaryValue else { return [] }
        return object.keys.filter { $0 != "$class" }.sorted()
    }
}

/// A form of ``ConditionalMembers`` that stored only the properties without initial values.
@Archivable(className: "Conditional")
struct NameOnlyConditional: Equatable {
    var name: String
    var visits: Int
}
