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

@testable import ArchiveStorage

/// A stored payload that is a hostile archive, under an intact entry (its checksum matches): the
/// store reports it as an entry that fails to decode, with the decoder's error, and never traps.
@Suite struct HostilePayloadTests {
    /// The fuzz finding `FuzzTesting/FailCases/FuzzArchivableDecoder/codable-quick-string-array-index-out-of-range.bplist`:
    /// `cover.items` is UID 9825816866292317267, above `Int.max`, which trapped the `Codable` path.
    static func fuzzFinding() throws -> [UInt8] {
        [UInt8](
            try Fixtures.failCase("codable-quick-string-array-index-out-of-range.bplist", of: "FuzzArchivableDecoder")
        )
    }

    @Test(arguments: testedBackends)
    func aHostilePayloadIsADecodingFailureWithTheDecodersError(backend: ArchiveStoreBackend) throws {
        let directory = TemporaryDirectory(backend: backend)
        defer { directory.remove() }
        let store: ArchiveStore<FuzzReplayRecord> = try openStore(directory)
        try store.save(FuzzReplayRecord(name: "Kit", count: 1), forKey: "upload")
        try Self.replacePayload(of: "upload", in: directory, with: try Self.fuzzFinding())

        // A second instance, whose memory tier does not hold the saved value.
        let reader: ArchiveStore<FuzzReplayRecord> = try openStore(directory)
        let error = #expect(throws: ArchiveStorageError.self) { try reader.load(forKey: "upload") }
        #expect(error?.code == .decodingFailed)
        #expect(error?.key == "upload")
        let decodingError = try #require(error?.underlying as? DecodingError)
        guard case .dataCorrupted(let context) = decodingError else {
            Issue.record("not dataCorrupted: \(decodingError)")
            return
        }
        // The archive read whole fails first (a dictionary key that is not a string elsewhere).
        #expect(context.codingPath.isEmpty)
        #expect((context.underlyingError as? KeyedArchiveError)?.code == .malformedPropertyList)
    }

    /// Replaces the payload of `key`'s entry, keeping the entry intact (its checksum recomputed).
    static func replacePayload(of key: String, in directory: TemporaryDirectory, with payload: [UInt8]) throws {
        if directory.backend == .files {
            let url = URL(fileURLWithPath: directory.storePath + "/" + EntryFileName(key: key).name)
            let entry = try EntryFormat.decode([UInt8](try Data(contentsOf: url)))
            let bytes = EntryFormat.encode(
                key: key,
                formatIdentifier: entry.formatIdentifier,
                schemaVersion: entry.prefix.schemaVersion,
                expiry: entry.prefix.expiry,
                payload: payload
            )
            try Data(bytes).write(to: url)
            return
        }
        let hex = { (bytes: [UInt8]) in bytes.map { String(format: "%02x", $0) }.joined() }
        let changed = try sqlite3(
            directory.storePath + "/entries.sqlite",
            """
            UPDATE entry SET payload = X'\(hex(payload))', checksum = \(CRC32C.checksum(payload))
            WHERE key = X'\(hex(Array(key.utf8)))'; SELECT changes();
            """
        )
        try #require(changed == "1", "no row of \(key.debugDescription) to replace")
    }
}

/// The `Codable` shape of `FuzzArchivableDecoder`'s model up to the field that held the UID.
struct FuzzReplayRecord: Codable, Equatable, Sendable {
    struct Page<Element: Codable & Equatable & Sendable>: Codable, Equatable, Sendable {
        var items: [Element]
        var next: Int?
    }

    var name: String
    var count: Int
    var nickname: String?
    var tags: [String] = []
    var page = Page<Int>(items: [])
    var shelf: [Page<Int>] = []
    var cover: Page<String>?
}
