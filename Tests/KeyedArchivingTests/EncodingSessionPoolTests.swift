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
import PropertyLists
import Testing

@testable import KeyedArchiving

/// How long a finished session waits for the next archive, by size: small ones until replaced,
/// large ones until their expiry runs, larger ones not at all.
@Suite struct EncodingSessionPoolTests {
    /// Expiries the pool schedules, run when a test says.
    final class Expiries: Sendable {
        private let pending = Locked<[@Sendable () -> Void]>([])

        var count: Int { self.pending.withLock { $0.count } }

        func schedule(_ expire: @escaping @Sendable () -> Void) {
            self.pending.withLock { $0.append(expire) }
        }

        /// Runs the expiries scheduled first, oldest first.
        func run(first count: Int = .max) {
            let due = self.pending.withLock { pending in
                let due = pending.prefix(count)
                pending.removeFirst(due.count)
                return Array(due)
            }
            for expire in due { expire() }
        }
    }

    /// A session whose arrays have room for at least `capacity` values.
    private static func session(capacity: Int) -> ArchiveEncodingSession {
        let session = ArchiveEncodingSession(options: .init())
        session.table.builder.items.reserveCapacity(capacity)
        return session
    }

    private static func pool(_ expiries: Expiries) -> ArchiveEncodingSessionPool {
        ArchiveEncodingSessionPool(keptCapacity: 1_000, largeCapacity: 10_000) { expiries.schedule($0) }
    }

    @Test func aSmallSessionIsKeptUntilTaken() {
        let expiries = Expiries()
        let pool = Self.pool(expiries)
        let session = Self.session(capacity: 500)
        session.recycle(into: pool)
        #expect(expiries.count == 0)
        expiries.run()
        #expect(pool.take() === session)
        #expect(pool.take() == nil)
    }

    @Test func smallSessionsKeptWhileOneIsKeptWaitAsSpares() {
        let expiries = Expiries()
        let pool = Self.pool(expiries)
        // Sessions finishing on several threads at once: each is kept, up to the spare limit.
        let sessions = (0...ArchiveEncodingSessionPool.spareLimit).map { _ in Self.session(capacity: 100) }
        for session in sessions { session.recycle(into: pool) }
        #expect(expiries.count == 0)
        var taken: [ArchiveEncodingSession] = []
        while let session = pool.take() { taken.append(session) }
        #expect(taken.count == sessions.count)
        #expect(Set(taken.map(ObjectIdentifier.init)) == Set(sessions.map(ObjectIdentifier.init)))
        // One more than the spares hold takes the main place.
        let more = (0...(ArchiveEncodingSessionPool.spareLimit + 1)).map { _ in Self.session(capacity: 100) }
        for session in more { session.recycle(into: pool) }
        var count = 0
        while pool.take() != nil { count += 1 }
        #expect(count == ArchiveEncodingSessionPool.spareLimit + 1)
    }

    @Test func aSessionLargerThanASpareTakesTheMainPlace() {
        let pool = ArchiveEncodingSessionPool(keptCapacity: 100_000, largeCapacity: 1_000_000) { _ in }
        let small = Self.session(capacity: 100)
        small.recycle(into: pool)
        // Kept indefinitely, but too large to wait beside another: it takes the main place.
        let larger = Self.session(capacity: ArchiveEncodingSessionPool.spareCapacity * 2)
        larger.recycle(into: pool)
        #expect(pool.take() === larger)
        #expect(pool.take() == nil)
    }

    @Test func aLargeSessionIsKeptUntilItsExpiryRuns() {
        let expiries = Expiries()
        let pool = Self.pool(expiries)
        let session = Self.session(capacity: 5_000)
        session.recycle(into: pool)
        #expect(expiries.count == 1)
        #expect(pool.isHoldingSession)
        expiries.run()
        #expect(!pool.isHoldingSession)
        #expect(pool.take() == nil)
    }

    @Test func anExpiryLetsGoOnlyTheSessionItWasScheduledFor() {
        let expiries = Expiries()
        let pool = Self.pool(expiries)
        let large = Self.session(capacity: 5_000)
        large.recycle(into: pool)
        // Taken for another archive and kept again: the first expiry is stale, the second not.
        #expect(pool.take() === large)
        large.recycle(into: pool)
        #expect(expiries.count == 2)
        expiries.run(first: 1)
        #expect(pool.isHoldingSession)
        expiries.run()
        #expect(!pool.isHoldingSession)
    }

    @Test func aSmallSessionTakingALargeOnesPlaceOutlivesItsExpiry() {
        let expiries = Expiries()
        let pool = Self.pool(expiries)
        Self.session(capacity: 5_000).recycle(into: pool)
        let small = Self.session(capacity: 10)
        small.recycle(into: pool)
        expiries.run()
        #expect(pool.take() === small)
    }

    @Test func aSessionLargerThanTheLargeLimitIsNotKept() {
        let expiries = Expiries()
        let pool = Self.pool(expiries)
        Self.session(capacity: 20_000).recycle(into: pool)
        #expect(!pool.isHoldingSession)
        #expect(expiries.count == 0)
    }

    /// The default expiry, on a dispatch queue, a tenth of a second after the session was kept.
    @Test func theDefaultExpiryRunsOnItsOwnAfterATenthOfASecond() async throws {
        let pool = ArchiveEncodingSessionPool(keptCapacity: 1_000, largeCapacity: 10_000)
        let start = ContinuousClock.now
        Self.session(capacity: 5_000).recycle(into: pool)
        #expect(pool.isHoldingSession)
        while pool.isHoldingSession, ContinuousClock.now - start < .seconds(30) {
            try await Task.sleep(for: .milliseconds(10))
        }
        #expect(!pool.isHoldingSession)
        #expect(ContinuousClock.now - start >= .milliseconds(100))
    }
}
