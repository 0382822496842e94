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

#if SQLite
import GRDB
#endif

/// `ArchiveStore.suspend(timeout:)`: a suspended store takes no lock (the rule that keeps iOS
/// from killing a suspended app, `0xdead10cc`), waits for the operations holding one, and works
/// again once resumed.
@Suite struct StoreSuspensionTests {
    /// While suspended, writes throw `suspended` and write nothing; memory hits are served, and
    /// reads of the database throw on SQLite while the files backend (whose reads take no lock)
    /// still reads its files. After `resume()` everything works again.
    @Test(arguments: testedBackends)
    func aSuspendedStoreTakesNoLock(backend: ArchiveStoreBackend) throws {
        let directory = TemporaryDirectory(backend: backend)
        defer { directory.remove() }
        let store: ArchiveStore<Int> = try openStore(directory)
        try store.save(1, forKey: "cached")
        try store.save(2, forKey: "on-disk")
        #expect(try store.load(forKey: "cached") == 1)  // now in memory
        let other: ArchiveStore<Int> = try openStore(directory)
        #expect(!store.isSuspended)

        #expect(store.suspend())
        #expect(store.isSuspended)
        for write in [{ try store.save(3, forKey: "cached") }, { try store.remove(forKey: "on-disk") }] {
            let error = #expect(throws: ArchiveStorageError.self) { try write() }
            #expect(error?.code == .suspended, "\(String(describing: error))")
        }
        let update = #expect(throws: ArchiveStorageError.self) {
            try store.update(forKey: "cached") { value in value = 4 }
        }
        #expect(update?.code == .suspended)
        #expect(try store.load(forKey: "cached") == 1)
        if backend == .sqlite {
            let read = #expect(throws: ArchiveStorageError.self) { try store.load(forKey: "on-disk") }
            #expect(read?.code == .suspended, "\(String(describing: read))")
        }
        // Another instance of the store is not suspended; the suspended one wrote nothing.
        #expect(try other.load(forKey: "on-disk") == 2)
        try other.save(5, forKey: "other")

        store.resume()
        #expect(!store.isSuspended)
        #expect(try store.load(forKey: "on-disk") == 2)
        #expect(try store.load(forKey: "other") == 5)
        try store.save(3, forKey: "cached")
        #expect(try other.load(forKey: "cached") == 3)
    }

    /// `suspend` waits for a write that holds its lock, up to its timeout: it returns `false`
    /// while an `update` body runs, and `true` once the update has finished (which it does: it
    /// began before the suspension).
    @Test(arguments: testedBackends)
    func suspendWaitsForTheWritesInFlight(backend: ArchiveStoreBackend) throws {
        let directory = TemporaryDirectory(backend: backend)
        defer { directory.remove() }
        let store: ArchiveStore<Int> = try openStore(directory)
        let inBody = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let finished = DispatchSemaphore(value: 0)
        let failure = Locked<String?>("not finished")
        DispatchQueue.global().async {
            do {
                try store.update(forKey: "key") { value in
                    inBody.signal()
                    release.wait()
                    value = 7
                }
                failure.withLock { $0 = nil }
            } catch {
                failure.withLock { $0 = "\(error)" }
            }
            finished.signal()
        }
        inBody.wait()
        #expect(!store.suspend(timeout: .milliseconds(100)))
        release.signal()
        #expect(store.suspend(timeout: .seconds(10)))
        finished.wait()
        #expect(failure.withLock { $0 } == nil)
        store.resume()
        #expect(try store.load(forKey: "key") == 7)
    }

    /// A write waiting for another instance's lock (another process, to the lock) gives up as
    /// soon as its store is suspended, not at the lock timeout.
    @Test(arguments: testedBackends)
    func aWaitingWriteEndsWhenTheStoreIsSuspended(backend: ArchiveStoreBackend) throws {
        let directory = TemporaryDirectory(backend: backend)
        defer { directory.remove() }
        let holder: ArchiveStore<Int> = try openStore(directory)
        let waiter: ArchiveStore<Int> = try openStore(directory)
        let held = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let done = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            _ = try? holder.update(forKey: "key") { value in
                held.signal()
                release.wait()
                value = 1
            }
            done.signal()
        }
        held.wait()
        let waited = Locked<ArchiveStorageError?>(nil)
        let waiting = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            do throws(ArchiveStorageError) {
                try waiter.save(2, forKey: "key")
            } catch {
                waited.withLock { $0 = error }
            }
            waiting.signal()
        }
        usleep(100_000)
        let clock = ContinuousClock()
        let start = clock.now
        #expect(waiter.suspend(timeout: .seconds(10)))
        waiting.wait()
        #expect(clock.now - start < .seconds(5))
        #expect(waited.withLock { $0 }?.code == .suspended, "\(String(describing: waited.withLock { $0 }))")
        release.signal()
        done.wait()
        #expect(try holder.load(forKey: "key") == 1)
    }

    #if SQLite
    /// SQLite's errors: a statement interrupted by the suspension is `suspended`; where the
    /// platform has data protection, `SQLITE_AUTH`, or an I/O or open error on a file that refuses
    /// to open, is `protectedDataUnavailable` (tested here with the decisions Darwin makes).
    @Test func sqliteErrorsOfSuspensionAndDataProtection() {
        func code(
            _ result: ResultCode,
            suspended: Bool = false,
            protection: Bool = false,
            refused: Bool = false
        ) -> ArchiveStorageError.Code {
            SQLiteEntryTable.failure(
                DatabaseError(resultCode: result),
                path: "/store/entries.sqlite",
                isSuspended: suspended,
                hasDataProtection: protection,
                isOpenRefused: { _ in refused }
            ).code
        }
        #expect(code(.SQLITE_INTERRUPT, suspended: true) == .suspended)
        #expect(code(.SQLITE_ABORT, suspended: true) == .suspended)
        #expect(code(.SQLITE_INTERRUPT) == .database)
        #expect(code(.SQLITE_AUTH, protection: true) == .protectedDataUnavailable)
        #expect(code(.SQLITE_AUTH) == .database)
        #expect(code(.SQLITE_IOERR, protection: true, refused: true) == .protectedDataUnavailable)
        #expect(code(.SQLITE_CANTOPEN, protection: true, refused: true) == .protectedDataUnavailable)
        #expect(code(.SQLITE_IOERR, protection: true) == .database)
        #expect(code(.SQLITE_IOERR, refused: true) == .database)
        #expect(code(.SQLITE_CORRUPT, protection: true, refused: true) == .corruptStore)
    }
    #endif

    /// A failed system call's code: `EPERM` is a locked device's refusal only where the platform
    /// has data protection.
    @Test func systemErrorCodes() {
        #expect(DurableFile.code(forSystemError: EPERM, hasDataProtection: true) == .protectedDataUnavailable)
        #expect(DurableFile.code(forSystemError: EPERM, hasDataProtection: false) == .fileSystem)
        #expect(DurableFile.code(forSystemError: EROFS, hasDataProtection: true) == .readOnly)
        #expect(DurableFile.code(forSystemError: EIO, hasDataProtection: true) == .fileSystem)
        #expect(!ArchiveFileProtection.isEnforced)
    }
}
