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

/// Replays the fuzzers' fail cases (`FuzzTesting/FailCases/<Target>/`) through the same calls the
/// keyed-archive fuzz targets make: each file must throw or decode. A regression shows up as a
/// trap, which stops the test run.
@Suite struct ArchiveFailCaseReplayTests {
    /// `FuzzTesting/FailCases`, found from this file so the test needs no resources.
    static let directory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()
        .deletingLastPathComponent()
        .deletingLastPathComponent()
        .appendingPathComponent("FuzzTesting/FailCases")

    /// The fail cases of one fuzz target, sorted by name; none if the target has no folder.
    static func failCases(_ target: String) throws -> [(name: String, bytes: [UInt8])] {
        let folder = Self.directory.appendingPathComponent(target)
        guard FileManager.default.fileExists(atPath: folder.path) else { return [] }
        return try FileManager.default.contentsOfDirectory(atPath: folder.path)
            .filter { !$0.hasPrefix(".") }
            .sorted()
            .map { ($0, [UInt8](try Data(contentsOf: folder.appendingPathComponent($0)))) }
    }

    @Test func failCasesDirectoryExists() {
        #expect(FileManager.default.fileExists(atPath: Self.directory.path))
    }

    @Test func keyedArchiveFailCases() throws {
        let cases = try Self.failCases("FuzzKeyedArchive")
        #expect(cases.contains { $0.name == "self-containing-array.archive" })
        // On the smallest stack readers meet, so that a case nested to the limits stays an error.
        try SmallStack.run {
            for (_, bytes) in cases {
                _ = ArchiveValidator().validate(bytes: bytes)
                _ = ArchiveValidator(allowsCycles: true).validate(bytes: bytes)
                guard let archive = try? KeyedArchive(parsing: bytes) else { continue }
                _ = ArchiveValidator().validate(archive)
                _ = try? ArchivedValueJSONWriter().write(archive)
                guard let value = try? ArchivedValue(archive: archive) else { continue }
                _ = try? ArchivedValueJSONWriter().write(value)
            }
        }
    }

    /// Found by fuzzing: 601 arrays nested within a 3 KB file, which overflowed a 512 KiB stack
    /// while parsing before the readers checked the stack.
    @Test func arraysNestedToTheDepthLimitAreAnErrorOnASmallStack() throws {
        let bytes = try #require(
            try Self.failCases("FuzzKeyedArchive").first { $0.name == "arrays-nested-to-the-depth-limit.archive" }
        )
        let error = #expect(throws: PropertyListError.self) {
            try SmallStack.run { _ = try PropertyListValue(parsing: bytes.bytes) }
        }
        #expect(error?.code == .depthLimitExceeded)
    }

    @Test func selfContainingArrayIsReported() throws {
        let bytes = try #require(
            try Self.failCases("FuzzKeyedArchive").first { $0.name == "self-containing-array.archive" }
        )
        #expect(!ArchiveValidator().validate(bytes: bytes.bytes).isEmpty)
    }

    @Test func codableDecoderFailCases() throws {
        let cases = try Self.failCases("FuzzCodableDecoder")
        #expect(cases.contains { $0.name == "self-referencing-node.archive" })
        try SmallStack.run {
            let decoder = KeyedArchiveDecoder()
            for (_, bytes) in cases {
                _ = try? decoder.decode(ReplayModel.self, from: bytes)
                _ = try? decoder.decode([ReplayModel.Node].self, from: bytes)
                _ = try? decoder.decode([String: ReplayModel.Shape].self, from: bytes)
            }
        }
    }

    @Test func selfReferencingNodeIsAnError() throws {
        let bytes = try #require(
            try Self.failCases("FuzzCodableDecoder").first { $0.name == "self-referencing-node.archive" }
        )
        #expect(throws: (any Error).self) {
            try KeyedArchiveDecoder().decode([ReplayModel.Node].self, from: bytes.bytes)
        }
    }
}

/// The shape of `FuzzTesting`'s `FuzzModel`, which the decoder fuzz target decodes into.
private struct ReplayModel: Decodable {
    var name: String
    var nickname: String?
    var count: Int
    var ratio: Double
    var flag: Bool
    var numbers: [Int]
    var tags: Set<String>
    var scores: [String: Double]
    var created: Date
    var payload: Data
    var id: UUID
    var link: URL?
    var child: Child
    var children: [Child]
    var first: Node
    var second: Node
    var nodes: [Node]
    var shape: Shape
    var shapes: [Shape]
    var kind: Kind

    struct Child: Decodable {
        var label: String
        var value: Int64?
        var bytes: [UInt8]
        var grandchildren: [Child]
    }

    final class Node: Decodable {
        var title: String
        var weight: Float
        var next: Node?
    }

    enum Shape: Decodable {
        case point
        case circle(radius: Double)
        case rectangle(width: Int, height: Int)
        case labelled(String, Child)
        case polygon([Double])
    }

    enum Kind: String, Decodable {
        case small
        case large
    }
}
