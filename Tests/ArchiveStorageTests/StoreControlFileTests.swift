//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-keyed-archive open source project
//
// Licensed under Apache License v2.0
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Dispatch
import Foundation
import KeyedArchiving
import Testing

@testable import ArchiveStorage

@Suite struct StoreControlFileTests {
    /// A writer waits for another's lock stripe up to its timeout, then throws `lockTimeout`;
    /// once the stripe is free it takes it.
    @Test func aLockWaitEndsAtTheTimeout() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let holder = try StoreControlFile(directory: directory.path)
        let waiter = try StoreControlFile(directory: directory.path, lockTimeout: 0.5)
        let held = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let done = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            _ = try? holder.withExclusiveLock(slot: 3) { () throws(ArchiveStorageError) in
                held.signal()
                release.wait()
            }
            done.signal()
        }
        held.wait()
        let clock = ContinuousClock()
        let start = clock.now
        let error = #expect(throws: ArchiveStorageError.self) {
            try waiter.withExclusiveLock(slot: 3) { () throws(ArchiveStorageError) in }
        }
        let waited = clock.now - start
        #expect(error?.code == .lockTimeout, "\(String(describing: error))")
        #expect(waited >= .milliseconds(500) && waited < .seconds(5), "\(waited)")
        // Another stripe is free meanwhile.
        try waiter.withExclusiveLock(slot: 4) { () throws(ArchiveStorageError) in }
        release.signal()
        done.wait()
        try waiter.withExclusiveLock(slot: 3) { () throws(ArchiveStorageError) in }
    }
}
