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

/// Where a finished ``ArchiveEncodingSession`` waits, emptied, for the next archive, taken out
/// whole under the lock, so only one thread uses it: one session of any kept size, and beside it a
/// few small ones (up to ``spareCapacity`` values, ``spareLimit`` of them), so that encoders on
/// several threads at once (a store's `async` saves) each find one. Encoders that find none make
/// their own.
///
/// A session keeps the storage of its tables and of the buffers it writes the file in, so the next
/// archive of a like size takes no fresh memory, each page of which costs a page fault when first
/// touched. How long it is kept depends on its size:
/// - up to ``keptCapacity`` values in any array (about 21 MB resident, for 26,000 of the
///   benchmark's records), until another session takes its place;
/// - up to ``largeCapacity`` (about 125 MB for 100,000 records), only until ``expireLater`` runs,
///   a tenth of a second after its last archive by default: archives that follow one another
///   reuse the memory, and a process that stops archiving gives it back at once, as allocators
///   that return unused memory after a short decay do. The delay is short because memory kept
///   adds to whatever the process allocates next, and a peak is what a mobile system's memory
///   limit counts;
/// - larger, not at all.
final class ArchiveEncodingSessionPool: Sendable {
    /// The pool ``KeyedArchiveEncoder`` uses.
    static let shared = ArchiveEncodingSessionPool()

    /// The most values any array of a session kept indefinitely may have room for.
    let keptCapacity: Int
    /// The most values any array of a session kept for a while may have room for.
    let largeCapacity: Int
    /// Runs its argument when a large session has been kept long enough.
    private let expireLater: @Sendable (@escaping @Sendable () -> Void) -> Void
    private let state = Locked<State>(State())

    /// The most values any array of a spare session may have room for: sessions of small archives.
    static var spareCapacity: Int { 1 << 12 }
    /// The most spare sessions kept.
    static var spareLimit: Int { 4 }

    private struct State: @unchecked Sendable {
        var session: ArchiveEncodingSession?
        /// Small sessions kept while ``session`` was taken by another encoder.
        var spares: [ArchiveEncodingSession] = []
        /// Counts the sessions kept, so that an expiry lets go only the session it was scheduled
        /// for, not one kept again since.
        var generation = 0
    }

    /// - Parameters:
    ///   - keptCapacity: The most values any array of a session kept indefinitely may have room for.
    ///   - largeCapacity: The most values any array of a session kept for a while may have room for.
    ///   - expireLater: Runs its argument when a large session has been kept long enough.
    init(
        keptCapacity: Int = 1 << 20,
        largeCapacity: Int = 1 << 23,
        expireLater: @escaping @Sendable (@escaping @Sendable () -> Void) -> Void = { expire in
            DispatchQueue.global(qos: .utility).asyncAfter(deadline: .now() + .milliseconds(100), execute: expire)
        }
    ) {
        self.keptCapacity = keptCapacity
        self.largeCapacity = largeCapacity
        self.expireLater = expireLater
    }

    /// A session kept, if any: the main one first, else a spare.
    func take() -> ArchiveEncodingSession? {
        self.state.withLock { state in
            if let session = state.session {
                state.session = nil
                return session
            }
            return state.spares.popLast()
        }
    }

    /// Whether a session is kept, for tests.
    var isHoldingSession: Bool {
        self.state.withLock { $0.session != nil || !$0.spares.isEmpty }
    }

    /// Keeps an emptied session for the next ``take()``: among the spares if it is small and
    /// another session is kept, else in place of the one kept, if any; or lets it go if its arrays
    /// have room for more than ``largeCapacity`` values.
    /// - Parameter capacity: The most values any of the session's arrays has room for.
    func keep(_ session: ArchiveEncodingSession, capacity: Int) {
        guard capacity <= self.largeCapacity else {
            session.close()
            return
        }
        // A small session joins the spares while the main place is taken, as long as there is room.
        let isSmall = capacity <= Self.spareCapacity && capacity <= self.keptCapacity
        let kept = self.state.withLock { state -> (replaced: ArchiveEncodingSession?, generation: Int)? in
            if isSmall, state.session != nil, state.spares.count < Self.spareLimit {
                state.spares.append(session)
                return nil
            }
            let replaced = state.session
            state.session = session
            state.generation &+= 1
            return (replaced, state.generation)
        }
        guard let (replaced, generation) = kept else { return }
        replaced?.close()
        guard capacity > self.keptCapacity else { return }
        self.expireLater { [self] in
            let expired = self.state.withLock { state -> ArchiveEncodingSession? in
                guard state.generation == generation else { return nil }
                defer { state.session = nil }
                return state.session
            }
            expired?.close()
        }
    }
}
