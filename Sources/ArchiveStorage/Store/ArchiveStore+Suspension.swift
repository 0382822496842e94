//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-keyed-archive open source project
//
// Licensed under Apache License v2.0
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

extension ArchiveStore {
    /// Stops the store from taking file locks, before the app is suspended; waits up to `timeout`
    /// for the operations that hold one, and returns whether none does any more.
    ///
    /// iOS terminates a suspended app that holds a file lock or a SQLite lock on a file another
    /// process may use (exception `0xdead10cc`), such as a store in an App Group container
    /// (`ArchiveStoreDirectory.appGroup(_:)` on Apple platforms). Call this when the app moves to the background
    /// (or in a background task's expiration handler), and ``resume()`` when it becomes active:
    ///
    /// ```swift
    /// .onChange(of: scenePhase) { _, phase in
    ///     if phase == .background { store.suspend() } else { store.resume() }
    /// }
    /// ```
    ///
    /// While suspended, every method that would take a lock throws
    /// ``ArchiveStorageError/Code/suspended`` and writes nothing: every write, a write waiting for
    /// another process's lock, and on the SQLite backend every read of the database, whose running
    /// statements are interrupted. Values in the memory cache are still returned, and on the files
    /// backend, whose reads take no lock, entries are still read. The store's own background work
    /// (purge, eviction) stops the same way and resumes with the next write.
    @discardableResult
    public func suspend(timeout: Duration = .seconds(1)) -> Bool {
        self.control.suspension.suspend(timeout: timeout)
    }

    /// Lets a suspended store (``suspend(timeout:)``) take locks again.
    public func resume() {
        self.control.suspension.resume()
    }

    /// Whether the store is suspended (``suspend(timeout:)``).
    public var isSuspended: Bool {
        self.control.suspension.isSuspended
    }
}
