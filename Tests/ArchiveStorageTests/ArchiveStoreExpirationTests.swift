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
import Testing

@testable import ArchiveStorage

@Suite struct ArchiveStoreExpirationTests {
    @Test(arguments: testedBackends) func expiredEntriesAreNeverReturnedFromMemoryOrDisk(
        backend: ArchiveStoreBackend
    ) throws {
        let directory = TemporaryDirectory(backend: backend)
        defer { directory.remove() }
        let clock = TestClock()
        let counter = CallCounter()
        let store: ArchiveStore<String> = try openStore(directory) {
            $0.clock = clock.function
            $0.format = counter.format()
            $0.purgesExpiredEntriesOnOpen = false
        }
        try store.save("a minute", forKey: "minute", expiration: .after(.seconds(60)))
        try store.save("forever", forKey: "forever", expiration: .never)
        try store.save("dated", forKey: "dated", expiration: .at(clock.now.addingTimeInterval(30)))
        #expect(try store.load(forKey: "minute") == "a minute")
        #expect(try store.load(forKey: "minute") == "a minute")
        #expect(counter.decodes == 1)  // the second load was a memory hit
        clock.advance(by: 30)
        #expect(try store.load(forKey: "dated") == nil)
        #expect(try store.load(forKey: "minute") == "a minute")
        clock.advance(by: 30)
        // Expired in memory as on disk, with no purge having run.
        #expect(try store.load(forKey: "minute") == nil)
        #expect(try !store.contains("minute"))
        #expect(try store.info(forKey: "minute") == nil)
        #expect(try store.keys() == ["forever"])
        #expect(try isPhysicallyStored("minute", in: directory))
        // A new instance (fresh memory) agrees.
        let reopened: ArchiveStore<String> = try openStore(directory) {
            $0.clock = clock.function
            $0.format = counter.format()
            $0.purgesExpiredEntriesOnOpen = false
        }
        #expect(try reopened.load(forKey: "minute") == nil)
        #expect(try reopened.purgeExpired() == 2)
        #expect(try reopened.purgeExpired() == 0)
        #expect(try !isPhysicallyStored("minute", in: directory))
        #expect(try reopened.load(forKey: "forever") == "forever")
    }

    @Test(arguments: testedBackends) func theStoreDefaultAppliesUnlessAnEntryHasItsOwn(
        backend: ArchiveStoreBackend
    ) throws {
        let directory = TemporaryDirectory(backend: backend)
        defer { directory.remove() }
        let clock = TestClock()
        let store: ArchiveStore<Int> = try openStore(directory) {
            $0.clock = clock.function
            $0.defaultExpiration = .after(.milliseconds(10_500))
        }
        try store.save(1, forKey: "default")
        try store.save(2, forKey: "own", expiration: .never)
        try store.save(["batch": 3])
        try store.update(forKey: "updated") { $0 = 4 }
        let info = try #require(try store.info(forKey: "default"))
        #expect(info.expirationDate == clock.now.addingTimeInterval(10.5))
        clock.advance(by: 10.4)
        #expect(try store.keys() == ["batch", "default", "own", "updated"])
        clock.advance(by: 0.2)
        #expect(try store.keys() == ["own"])
        #expect(try store.load(forKey: "batch") == nil)
        // An update of an expired entry starts from nothing.
        try store.update(forKey: "default") { value in
            #expect(value == nil)
            value = 5
        }
        #expect(try store.load(forKey: "default") == 5)
    }

    @Test(arguments: testedBackends) func openingPurgesExpiredEntriesInTheBackground(
        backend: ArchiveStoreBackend
    ) throws {
        let directory = TemporaryDirectory(backend: backend)
        defer { directory.remove() }
        let clock = TestClock()
        do {
            let store: ArchiveStore<Int> = try openStore(directory) { $0.clock = clock.function }
            var batch: [String: Int] = [:]
            for index in 0..<50 { batch["short\(index)"] = index }
            try store.save(batch, expiration: .after(.seconds(1)))
            try store.save(99, forKey: "long", expiration: .after(.seconds(100)))
            store.waitForBackgroundMaintenance()
        }
        clock.advance(by: 2)
        let reopened: ArchiveStore<Int> = try openStore(directory) { $0.clock = clock.function }
        reopened.waitForBackgroundMaintenance()
        #expect(try isPhysicallyStored("long", in: directory))
        #expect(try (0..<50).allSatisfy { index in try !isPhysicallyStored("short\(index)", in: directory) })
        #expect(try reopened.load(forKey: "long") == 99)
    }
}
