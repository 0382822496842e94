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

/// Which formats a store decodes in place, and that a replaced `decode` is what a load calls.
@Suite struct ArchiveValueFormatTests {
    @Test func theBuiltInKeyedArchiveFormatsReadInPlace() {
        #expect(ArchiveValueFormat.keyedArchive.readsInPlace)
        #expect(ArchiveValueFormat.keyedArchiveXML.readsInPlace)
        #expect(!ArchiveValueFormat.json.readsInPlace)
        #expect(!ArchiveValueFormat.propertyList.readsInPlace)
        let custom = ArchiveValueFormat(identifier: "custom", encode: { _ in Data() }, decode: { _, _ in 0 })
        #expect(!custom.readsInPlace)
    }

    /// A format that keeps the built-in identifier but replaces `decode` is decoded with its own
    /// closure, from disk, on both backends.
    @Test(arguments: testedBackends)
    func aReplacedDecodeIsWhatALoadCalls(backend: ArchiveStoreBackend) throws {
        var format = ArchiveValueFormat.keyedArchive
        format.decode = { _, _ in 99 }
        #expect(!format.readsInPlace)
        let directory = TemporaryDirectory(backend: backend)
        defer { directory.remove() }
        let store: ArchiveStore<Int> = try openStore(directory) { configuration in
            configuration.format = format
            configuration.memoryCountLimit = 0
        }
        try store.save(1, forKey: "one")
        #expect(try store.load(forKey: "one") == 99)
    }

    /// The built-in formats' payloads decode in place from disk, on both backends, binary and XML,
    /// expired entries staying unread.
    @Test(arguments: testedBackends, [ArchiveValueFormat.keyedArchive, .keyedArchiveXML])
    func keyedArchivesLoadFromDiskInPlace(backend: ArchiveStoreBackend, format: ArchiveValueFormat) throws {
        let directory = TemporaryDirectory(backend: backend)
        defer { directory.remove() }
        let store: ArchiveStore<[String: [Int]]> = try openStore(directory) { configuration in
            configuration.format = format
            configuration.memoryCountLimit = 0
        }
        let value = ["a": [1, 2, 3], "bee": Array(0..<100)]
        try store.save(value, forKey: "value")
        try store.save(value, forKey: "gone", expiration: .at(Date(timeIntervalSince1970: 1)))
        #expect(try store.load(forKey: "value") == value)
        #expect(try store.load(forKey: "gone") == nil)
        #expect(try store.load(forKey: "missing") == nil)
    }
}
