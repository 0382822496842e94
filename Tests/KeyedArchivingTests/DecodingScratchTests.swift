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
import TestSupport
import Testing

/// A decoding session's lists are kept for the next session (`ArchiveDecodingScratch`), emptied of
/// what belongs to its archive: each archive's classes, keys and objects are its own.
@Suite struct DecodingScratchTests {
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

    /// Sessions on several threads at once each take a scratch of their own and leave it for the
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
}
