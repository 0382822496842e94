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

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension ArchiveStoreDirectory {
    /// Moves the store called `name` in this directory to `backend`, in place, so that it keeps
    /// its entries when it is opened next; does nothing if the store already has that backend.
    ///
    /// An existing store keeps the backend it was created with whatever
    /// ``ArchiveStoreConfiguration/backend`` says, so an app that changes its default backend
    /// calls this for the stores it already has, before opening them:
    ///
    /// ```swift
    /// do {
    ///     try ArchiveStoreDirectory.applicationSupport.moveStore(named: "com.example.profiles", to: .sqlite)
    /// } catch where error.code == .storeNotFound {
    ///     // A new install: the store is created with the configuration's backend.
    /// }
    /// ```
    ///
    /// Entries are copied raw, without decoding: payload, format identifier, schema version and
    /// expiry, expired entries included. Damaged entries are not copied: they are set aside and
    /// listed in the result (``ArchiveStoreMoveResult/damagedEntries``). The move is crash-safe:
    /// the copy is made durable beside the source, then one atomic step (a rename or an unlink)
    /// turns the directory into the destination store, and only then are the source's files
    /// removed; after a crash at any instant the directory holds the whole source store or the
    /// whole destination store, and what an interrupted move left is removed by the next move or
    /// open.
    ///
    /// The move holds every write lock of the store, so writers of every process wait for it.
    /// Store instances opened before it (in this process or another) throw
    /// ``ArchiveStorageError/Code/storeMoved`` from then on: open the store again.
    ///
    /// - Parameters:
    ///   - name: The store's name, as given to ``ArchiveStore/init(name:in:configuration:)``.
    ///   - backend: The backend to move the store to.
    /// - Returns: What was moved, and what was set aside.
    /// - Throws: ``ArchiveStorageError`` with code ``ArchiveStorageError/Code/storeNotFound`` when
    ///   there is no such store, ``ArchiveStorageError/Code/invalidConfiguration`` for a bad name
    ///   (or a SQLite store in a build without the `SQLite` trait),
    ///   ``ArchiveStorageError/Code/fileSystem``, ``ArchiveStorageError/Code/database`` or
    ///   ``ArchiveStorageError/Code/corruptStore``. The store is then unchanged, on its
    ///   previous backend, unless the error came after the flip (removing the source's files),
    ///   when it is on the new one.
    /// - Complexity: Reads and writes every entry: O(total size), and on a move to the files
    ///   backend one flush per entry.
    @discardableResult
    public func moveStore(
        named name: String,
        to backend: ArchiveStoreBackend
    ) throws(ArchiveStorageError) -> ArchiveStoreMoveResult {
        try self.moveStore(named: name, to: backend, stepObserver: nil)
    }

    /// ``moveStore(named:to:)-8i0d6``, calling `stepObserver` after each step: a test hook that
    /// simulates failures (it throws) and crashes (it ends the process).
    @discardableResult
    package func moveStore(
        named name: String,
        to backend: ArchiveStoreBackend,
        stepObserver: StoreMoveStepObserver?
    ) throws(ArchiveStorageError) -> ArchiveStoreMoveResult {
        try StoreMove.move(directory: try self.storePath(named: name), to: backend, stepObserver: stepObserver)
    }

    /// Moves the store called `name` to `backend`, off the cooperative thread pool; see
    /// ``moveStore(named:to:)-8i0d6``.
    @discardableResult
    public func moveStore(
        named name: String,
        to backend: ArchiveStoreBackend
    ) async throws(ArchiveStorageError) -> ArchiveStoreMoveResult {
        let outcome: Result<ArchiveStoreMoveResult, ArchiveStorageError> = await withCheckedContinuation {
            continuation in
            DispatchQueue.global(qos: .userInitiated).async {
                continuation.resume(
                    returning: Result { () throws(ArchiveStorageError) in try self.moveStore(named: name, to: backend) }
                )
            }
        }
        return try outcome.get()
    }

    /// The path of the store called `name` in this directory.
    /// - Throws: ``ArchiveStorageError/Code/invalidConfiguration`` for a name that is not a single
    ///   file name, or an unknown home directory.
    func storePath(named name: String) throws(ArchiveStorageError) -> String {
        guard !name.isEmpty, name != ".", name != "..", name.utf8.count <= 255,
            !name.utf8.contains(UInt8(ascii: "/")), !name.utf8.contains(0)
        else {
            throw ArchiveStorageError(.invalidConfiguration, reason: "\"\(name)\" is not a valid store name")
        }
        let base = try self.resolvedPath(environment: ProcessInfo.processInfo.environment)
        return (base.hasSuffix("/") ? String(base.dropLast()) : base) + "/" + name
    }
}
