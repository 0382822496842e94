//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-keyed-archive open source project
//
// Licensed under Apache License v2.0
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#elseif canImport(Android)
import Android
#endif

/// A value guarded by a `pthread_mutex_t`, shared by the modules of the package.
///
/// `Mutex` from `Synchronization` would do as well, except that on Linux it is built on raw
/// `futex` calls that Thread Sanitizer does not see, so it reports every access it guards as a
/// race (checked with Swift 6.3.1). A pthread mutex costs the same uncontended and keeps
/// `swift test --sanitize=thread` meaningful.
package final class Locked<State: Sendable>: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private var state: State

    /// Guards `state`.
    package init(_ state: State) {
        self.state = state
        self.mutex = .allocate(capacity: 1)
        self.mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(self.mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(self.mutex)
        self.mutex.deinitialize(count: 1)
        self.mutex.deallocate()
    }

    /// Runs `body` with exclusive access to the state.
    package func withLock<R, E: Error>(_ body: (inout State) throws(E) -> R) throws(E) -> R {
        pthread_mutex_lock(self.mutex)
        defer { pthread_mutex_unlock(self.mutex) }
        return try body(&self.state)
    }

    /// Runs `body` with exclusive access to the state if no other thread holds the lock; `nil`
    /// without running it if one does.
    package func withLockIfAvailable<R, E: Error>(_ body: (inout State) throws(E) -> R) throws(E) -> R? {
        guard pthread_mutex_trylock(self.mutex) == 0 else { return nil }
        defer { pthread_mutex_unlock(self.mutex) }
        return try body(&self.state)
    }

    /// Runs `body` holding the lock, for a lock that guards something other than its state
    /// (`Locked(())`).
    ///
    /// It makes no access to the state: Thread Sanitizer reports an `inout` access to an empty
    /// state as a race even under the lock (Swift 6.3.1).
    package func holdingLock<R, E: Error>(_ body: () throws(E) -> R) throws(E) -> R where State == Void {
        pthread_mutex_lock(self.mutex)
        defer { pthread_mutex_unlock(self.mutex) }
        return try body()
    }
}
