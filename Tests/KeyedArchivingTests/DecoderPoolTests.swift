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

/// A finished decoder and its session are kept for the next archive (`ArchiveDecoderPool`), emptied of
/// what belongs to its archive: each archive's classes, keys and objects are its own.
@Suite struct DecoderPoolTests {
    struct Cat: Codable, Equatable, ArchivedClassNaming {
        static var archivedClassName: String { "Cat" }
        var name: String
    }

    struct Dog: Codable, Equatable, ArchivedClassNaming {
        static var archivedClassName: String { "Dog" }
        var name: String
    }

    /// The same shape under another class, and a cycle, one after the other on each path: a class
    /// dictionary at the same UID as the last archive's is read again, not taken from it.
    @Test(arguments: BothPaths.modes)
    func eachArchiveIsReadWithItsOwnClasses(mode: DirectArchiving) throws {
        let encoder = BothPaths.encoder(mode)
        let decoder = BothPaths.decoder(mode)
        let cat = try encoder.encode(Cat(name: "Tom"))
        let dog = try encoder.encode(Dog(name: "Rex"))
        for _ in 0..<3 {
            #expect(try decoder.decode(Cat.self, from: cat) == Cat(name: "Tom"))
            #expect(throws: DecodingError.self) { try decoder.decode(Cat.self, from: dog) }
            #expect(try decoder.decode(Dog.self, from: dog) == Dog(name: "Rex"))
            #expect(throws: DecodingError.self) { try decoder.decode(Dog.self, from: cat) }
        }
    }

    /// Decoders on several threads at once each take a kept decoder of their own and leave it for the
    /// next (a few are kept): every value still decodes as itself.
    @Test func sessionsOnSeveralThreadsKeepTheirOwnLists() throws {
        let cat = try KeyedArchiveEncoder().encode(Cat(name: "Tom"))
        let dog = try KeyedArchiveEncoder().encode(Dog(name: "Rex"))
        let failures = Locked(0)
        DispatchQueue.concurrentPerform(iterations: 8) { thread in
            let decoder = KeyedArchiveDecoder()
            for round in 0..<200 {
                let ok: Bool
                if (thread + round).isMultiple(of: 2) {
                    ok =
                        (try? decoder.decode(Cat.self, from: cat)) == Cat(name: "Tom")
                        && (try? decoder.decode(Cat.self, from: dog)) == nil
                } else {
                    ok =
                        (try? decoder.decode(Dog.self, from: dog)) == Dog(name: "Rex")
                        && (try? decoder.decode(Dog.self, from: cat)) == nil
                }
                if !ok { failures.withLock { $0 += 1 } }
            }
        }
        #expect(failures.withLock { $0 } == 0)
    }

    enum NameKey: String, CodingKey {
        case name
    }

    /// Keeps the container it was decoded from (which holds the decoder), as `init(from:)` may.
    final class ContainerKeeper: Decodable {
        let container: KeyedDecodingContainer<NameKey>

        init(from decoder: any Decoder) throws {
            self.container = try decoder.container(keyedBy: NameKey.self)
        }
    }

    /// Keeps a decoder of its `name`, made by its container.
    final class NameDecoderKeeper: Decodable {
        let decoder: any Decoder

        init(from decoder: any Decoder) throws {
            self.decoder = try decoder.container(keyedBy: NameKey.self).superDecoder(forKey: .name)
        }
    }

    /// A long name (not stored inline in a `String`), so that reading it reads the archive's bytes.
    private static let longName = "Tomasz, a cat whose name does not fit in a small string"

    /// Decodes other archives many times, through every entry point, so that a kept decoder that
    /// went back to the pool would be started on one of them.
    private func decodeOthers() throws {
        let decoder = KeyedArchiveDecoder()
        let dog = try KeyedArchiveEncoder().encode(Dog(name: "Rex, a dog whose name is long as well"))
        for _ in 0..<20 {
            #expect(try decoder.decode(Dog.self, from: dog).name.hasPrefix("Rex"))
            #expect(try decoder.decode(Dog.self, from: KeyedArchive(parsing: dog)).name.hasPrefix("Rex"))
        }
    }

    /// A value that keeps its container, or a decoder its container made, keeps reading its own
    /// archive after the call (whose bytes are gone) and after other archives were decoded: a
    /// decoder something still holds, or whose session another decoder holds, is not reused.
    @Test(arguments: [false, true])
    func aDecoderAValueKeptIsNotReused(nested: Bool) throws {
        var bytes = [UInt8](try KeyedArchiveEncoder().encode(Cat(name: Self.longName)))
        let decoder = KeyedArchiveDecoder()
        let read: () throws -> String
        if nested {
            let kept = try decoder.decode(NameDecoderKeeper.self, from: bytes).decoder
            read = { try kept.singleValueContainer().decode(String.self) }
        } else {
            let kept = try decoder.decode(ContainerKeeper.self, from: bytes).container
            read = { try kept.decode(String.self, forKey: .name) }
        }
        for index in bytes.indices { bytes[index] = 0 }
        bytes = []
        try self.decodeOthers()
        #expect(try read() == Self.longName)
    }

    /// A decoding that throws in the middle of an object (on the direct path, with the object's
    /// entries still on the decoder's stack) leaves the decoder ready for the next archive, at the
    /// top level: the next value decodes, and its errors have their own coding paths.
    @Test(arguments: BothPaths.modes)
    func aDecodingThatThrowsLeavesTheDecoderReadyForTheNext(mode: DirectArchiving) throws {
        let encoder = BothPaths.encoder(mode)
        let decoder = BothPaths.decoder(mode)
        let cats = DirectCatGenerator.cats(count: 3, seed: 7)
        let good = try encoder.encode(cats)
        let probes = try encoder.encode([DirectProbe(value: 1), DirectProbe(value: 2)])
        for _ in 0..<3 {
            // A probe's object has a `value`, not a cat's fields.
            let error = #expect(throws: DecodingError.self) { try decoder.decode([DirectCat].self, from: probes) }
            guard case .keyNotFound(_, let context)? = error else {
                Issue.record("expected keyNotFound, got \(String(describing: error))")
                return
            }
            #expect(context.codingPath.map(\.intValue) == [0])
            #expect(try decoder.decode([DirectCat].self, from: good) == cats)
        }
    }

    /// Archives of very different sizes, binary and XML, one after the other: each decodes as it
    /// does alone, whether the kept property list's storage fits it or is made anew.
    @Test(arguments: BothPaths.modes)
    func archivesOfEverySizeDecodeOneAfterAnother(mode: DirectArchiving) throws {
        let decoder = BothPaths.decoder(mode)
        var xml = BothPaths.encoder(mode)
        xml.outputFormat = .xml
        let values = [1, 400, 2, 30, 1, 2_000, 1].map { DirectCatGenerator.cats(count: $0, seed: UInt64($0)) }
        let archives = try values.map { try BothPaths.encoder(mode).encode($0) } + values.map { try xml.encode($0) }
        for round in 0..<2 {
            for (index, archive) in archives.enumerated() {
                let expected = values[index % values.count]
                #expect(try decoder.decode([DirectCat].self, from: archive) == expected, "round \(round), \(index)")
            }
        }
    }

    /// ``DirectPlace``'s fields with their keys the other way round.
    struct ReversedPlace: Codable {
        var city: String
        var country: String
    }

    /// A kept session remembers which key sat where in the last archive of a type, as a hint: an
    /// archive of the type whose keys lie elsewhere (here, swapped) is still read by its keys.
    @Test func keysLaidOutOtherwiseThanLastTimeAreReadByTheirNames() throws {
        let decoder = KeyedArchiveDecoder()
        let place = DirectPlace(country: "France", city: "Paris")
        let usual = try KeyedArchiveEncoder().encode(place)
        let swapped = try KeyedArchiveEncoder().encode(ReversedPlace(city: "Paris", country: "France"))
        #expect(usual != swapped)
        for _ in 0..<3 {
            #expect(try decoder.decode(DirectPlace.self, from: usual) == place)
            #expect(try decoder.decode(DirectPlace.self, from: swapped) == place)
        }
    }
}
