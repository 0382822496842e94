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

/// The encoder keeps its largest arrays between calls, emptied, for the next call: what one
/// encoding leaves must never show in another.
@Suite struct EncoderStorageReuseTests {
    struct Pet: Codable, Equatable {
        var name: String
        var tags: [String]
        var born: Date
        var friend: Friend?
    }

    struct Friend: Codable, Equatable {
        var name: String
        var age: Int
    }

    static func pets(_ count: Int, prefix: String) -> [Pet] {
        (0..<count).map { index in
            Pet(
                name: "\(prefix) \(index)",
                tags: (0..<(index % 4)).map { "\(prefix) tag \($0)" },
                born: Date(timeIntervalSinceReferenceDate: Double(index * 86_400)),
                friend: index % 3 == 0 ? nil : Friend(name: "\(prefix) friend \(index % 7)", age: index % 20)
            )
        }
    }

    @Test func aValueEncodesToTheSameBytesBeforeAndAfterOthers() throws {
        let encoder = KeyedArchiveEncoder()
        let small = Self.pets(3, prefix: "small")
        let first = try encoder.encode(small)
        // Larger and smaller archives in between, so the kept arrays hold more than `small` needs.
        _ = try encoder.encode(Self.pets(2_000, prefix: "large"))
        _ = try encoder.encode(["just", "strings"])
        #expect(try encoder.encode(small) == first)
        #expect(try KeyedArchiveDecoder().decode([Pet].self, from: first) == small)
    }

    @Test func anArchiveAfterALargerOneHoldsOnlyItsOwnObjects() throws {
        let encoder = KeyedArchiveEncoder()
        _ = try encoder.encode(Self.pets(2_000, prefix: "large"))
        let archive = try KeyedArchive(parsing: encoder.encode(Friend(name: "Ada", age: 3)))
        // $null, the Friend object, its name, its class.
        #expect(archive.objects.count == 4)
        #expect(archive.objects.contains(.string("Ada")))
    }

    @Test func concurrentEncodingsMatchSerialOnes() async throws {
        let inputs = (0..<8).map { Self.pets(50 + $0 * 40, prefix: "task \($0)") }
        let serial = try inputs.map { try KeyedArchiveEncoder().encode($0) }
        let concurrent = try await withThrowingTaskGroup(of: (Int, [Data]).self) { group in
            for (index, input) in inputs.enumerated() {
                group.addTask {
                    (index, try (0..<10).map { _ in try KeyedArchiveEncoder().encode(input) })
                }
            }
            var results = [[Data]](repeating: [], count: inputs.count)
            for try await (index, outputs) in group { results[index] = outputs }
            return results
        }
        for (index, outputs) in concurrent.enumerated() {
            #expect(outputs.allSatisfy { $0 == serial[index] }, "task \(index)")
        }
    }
}
