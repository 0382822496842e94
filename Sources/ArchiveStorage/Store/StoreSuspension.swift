//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-keyed-archive open source project
//
// Licensed under Apache License v2.0
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import KeyedArchiving

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#elseif canImport(Android)
import Android
#endif

/// Whether a store instance is suspended (``ArchiveStore/suspend(timeout:)``), and how many of its
/// operations hold a lock now: a lock stripe of the control file, or a SQLite connection.
///
/// Every operation that takes a lock enters first and leaves when it has let go; a suspended
/// store refuses to enter, so that no new lock is taken, and ``suspend(timeout:)`` waits for the
/// operations inside to leave. On iOS a process suspended while it holds a file lock is killed
/// (`0xdead10cc`).
final class StoreSuspension: Sendable {
    private struct State {
        var isSuspended = false
        var activeCount = 0
    }

    private let state = Locked(State())
    /// Interrupts what the store's connections run (SQLite's `sqlite3_interrupt`), so that a
    /// long statement lets its locks go at once.
    private let interrupters = Locked<[@Sendable () -> Void]>([])

    init() {}

    /// Whether the store is suspended now.
    var isSuspended: Bool { self.state.withLock { $0.isSuspended } }

    /// Registers work that interrupts the store's running statements when it is suspended.
    func addInterrupter(_ interrupter: @escaping @Sendable () -> Void) {
        self.interrupters.withLock { $0.append(interrupter) }
    }

    /// Runs `body` as an operation that holds locks, or throws
    /// ``ArchiveStorageError/Code/suspended`` without running it while the store is suspended.
    func run<R>(path: String, _ body: () throws(ArchiveStorageError) -> R) throws(ArchiveStorageError) -> R {
        try self.state.withLock { (state) throws(ArchiveStorageError) in
            guard !state.isSuspended else { throw Self.suspendedError(path: path) }
            state.activeCount += 1
        }
        defer { self.state.withLock { $0.activeCount -= 1 } }
        return try body()
    }

    /// Throws ``ArchiveStorageError/Code/suspended`` while the store is suspended: called by an
    /// operation that waits for another process's lock, between two tries.
    func checkNotSuspended(path: String) throws(ArchiveStorageError) {
        if self.isSuspended { throw Self.suspendedError(path: path) }
    }

    /// Suspends the store, interrupts its running statements, and waits up to `timeout` for the
    /// operations that hold locks to let them go; returns whether none holds one.
    func suspend(timeout: Duration) -> Bool {
        self.state.withLock { $0.isSuspended = true }
        for interrupt in self.interrupters.withLock({ $0 }) { interrupt() }
        let deadline = ContinuousClock.now + max(.zero, timeout)
        var pause: UInt32 = 50
        while self.state.withLock({ $0.activeCount }) > 0 {
            guard ContinuousClock.now < deadline else { return false }
            usleep(pause)
            pause = min(pause * 2, 2_000)
        }
        return true
    }

    /// Lets the store take locks again.
    func resume() {
        self.state.withLock { $0.isSuspended = false }
    }

    static func suspendedError(path: String) -> ArchiveStorageError {
        ArchiveStorageError(
            .suspended,
            path: path,
            reason: "the store is suspended (ArchiveStore.suspend); call resume() before using it again"
        )
    }
}
