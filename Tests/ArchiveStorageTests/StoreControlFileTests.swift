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
import TestSupport
import Testing

@testable import ArchiveStorage

@Suite struct StoreControlFileTests {
    /// A writer waits for another's lock stripe up to its timeout, then throws `lockTimeout`;
    /// once the stripe is free it takes it. Another stripe is free meanwhile with per-stripe locks
    /// (Linux), and taken too with a whole-file lock (Darwin's scheme, run here through the same
    /// code): there, writers of different keys wait for each other.
    @Test(arguments: [StoreControlFile.LockingScheme.stripes, .wholeFile])
    func aLockWaitEndsAtTheTimeout(scheme: StoreControlFile.LockingScheme) throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let holder = try StoreControlFile(directory: directory.path, lockingScheme: scheme)
        let waiter = try StoreControlFile(directory: directory.path, lockTimeout: 0.5, lockingScheme: scheme)
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
        if scheme == .stripes {
            try waiter.withExclusiveLock(slot: 4) { () throws(ArchiveStorageError) in }
        } else {
            let other = #expect(throws: ArchiveStorageError.self) {
                try waiter.withExclusiveLock(slot: 4) { () throws(ArchiveStorageError) in }
            }
            #expect(other?.code == .lockTimeout, "\(String(describing: other))")
        }
        release.signal()
        done.wait()
        try waiter.withExclusiveLock(slot: 3) { () throws(ArchiveStorageError) in }
    }

    /// Darwin's scheme keeps writes whole as Linux's does: threads, each with a control file of
    /// its own (as processes have), increment counters under random stripes' locks, and no
    /// increment is lost.
    @Test(arguments: [StoreControlFile.LockingScheme.stripes, .wholeFile])
    func writersUnderEitherSchemeExcludeEachOther(scheme: StoreControlFile.LockingScheme) throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let counters = Locked([Int](repeating: 0, count: 4))
        let inside = Locked([Bool](repeating: false, count: 4))
        let overlaps = Locked(0)
        DispatchQueue.concurrentPerform(iterations: 4) { worker in
            guard let control = try? StoreControlFile(directory: directory.path, lockingScheme: scheme) else { return }
            var random = SplitMix64(seed: UInt64(worker))
            for _ in 0..<200 {
                let slot = Int(random.next() % 4)
                try? control.withExclusiveLock(slot: slot) { () throws(ArchiveStorageError) in
                    // Unlocked read, pause and write: a second writer in the stripe would lose one.
                    if inside.withLock({ $0[slot] }) { overlaps.withLock { $0 += 1 } }
                    inside.withLock { $0[slot] = true }
                    let value = counters.withLock { $0[slot] }
                    usleep(20)
                    counters.withLock { $0[slot] = value + 1 }
                    inside.withLock { $0[slot] = false }
                }
            }
        }
        #expect(counters.withLock { $0.reduce(0, +) } == 800)
        #expect(overlaps.withLock { $0 } == 0)
    }
}
