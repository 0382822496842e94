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

// The `async` forms run the synchronous ones on the store's concurrent Dispatch queue, so that
// blocking file-system calls (`fsync` can take milliseconds) never occupy a thread of the
// cooperative pool. A load that hits the memory cache returns without leaving the caller's task.
// Cancellation is not observed: a write that has started completes.
extension ArchiveStore {
    /// Returns the value stored under `key`, or `nil`; see ``load(forKey:)-59ajw``.
    public func load(forKey key: String) async throws(ArchiveStorageError) -> Value? {
        try self.checkNotMoved()
        let now = self.now()
        if let value = self.cachedValue(forKey: key, now: now) {
            self.noteRead(key: key, now: now)
            return value
        }
        return try await self.perform { () throws(ArchiveStorageError) in try self.load(forKey: key) }
    }

    /// Whether an unexpired entry is stored under `key`; see ``contains(_:)``.
    public func contains(_ key: String) async throws(ArchiveStorageError) -> Bool {
        try await self.perform { () throws(ArchiveStorageError) in try self.contains(key) }
    }

    /// Describes the entry stored under `key`; see ``info(forKey:)-13my1``.
    public func info(forKey key: String) async throws(ArchiveStorageError) -> ArchiveEntryInfo? {
        try await self.perform { () throws(ArchiveStorageError) in try self.info(forKey: key) }
    }

    /// The keys of all unexpired entries; see ``keys()-7eby2``.
    public func keys() async throws(ArchiveStorageError) -> [String] {
        try await self.perform { () throws(ArchiveStorageError) in try self.keys() }
    }

    /// A page of the keys of unexpired entries; see ``keys(withPrefix:after:limit:)-1host``.
    public func keys(
        withPrefix prefix: String = "",
        after: String? = nil,
        limit: Int
    ) async throws(ArchiveStorageError) -> [String] {
        try await self.perform { () throws(ArchiveStorageError) in
            try self.keys(withPrefix: prefix, after: after, limit: limit)
        }
    }

    /// The number of unexpired entries whose key starts with `prefix`; see
    /// ``count(withPrefix:)-4n4hh``.
    public func count(withPrefix prefix: String = "") async throws(ArchiveStorageError) -> Int {
        try await self.perform { () throws(ArchiveStorageError) in try self.count(withPrefix: prefix) }
    }

    /// Stores `value` under `key`; see ``save(_:forKey:expiration:)-2xcjx``.
    public func save(
        _ value: Value,
        forKey key: String,
        expiration: ArchiveExpiration? = nil
    ) async throws(ArchiveStorageError) {
        try await self.perform { () throws(ArchiveStorageError) in
            try self.save(value, forKey: key, expiration: expiration)
        }
    }

    /// Stores many values with one flush; see ``save(_:expiration:)-3wh5l``.
    public func save(
        _ entries: some Sequence<(key: String, value: Value)>,
        expiration: ArchiveExpiration? = nil
    ) async throws(ArchiveStorageError) {
        let values = Self.distinctEntries(entries)
        try await self.perform { () throws(ArchiveStorageError) in try self.save(values, expiration: expiration) }
    }

    /// Removes the entry stored under `key`; see ``remove(forKey:)``.
    public func remove(forKey key: String) async throws(ArchiveStorageError) {
        try await self.perform { () throws(ArchiveStorageError) in try self.remove(forKey: key) }
    }

    /// Removes every entry; see ``removeAll()``.
    public func removeAll() async throws(ArchiveStorageError) {
        try await self.perform { () throws(ArchiveStorageError) in try self.removeAll() }
    }

    /// Atomically reads, changes and writes the value under `key`; see
    /// ``update(forKey:expiration:_:)-4u4g2``.
    @discardableResult
    public func update<Result: Sendable>(
        forKey key: String,
        expiration: ArchiveExpiration? = nil,
        _ body: @escaping @Sendable (inout Value?) throws -> Result
    ) async throws -> Result {
        let outcome: Swift.Result<Result, any Error> = await withCheckedContinuation { continuation in
            self.queue.async {
                continuation.resume(
                    returning: Swift.Result { try self.update(forKey: key, expiration: expiration, body) }
                )
            }
        }
        return try outcome.get()
    }

    /// Removes every expired entry; see ``purgeExpired()-9lpyc``.
    @discardableResult
    public func purgeExpired() async throws(ArchiveStorageError) -> Int {
        try await self.perform { () throws(ArchiveStorageError) in try self.purgeExpired() }
    }

    /// Moves damaged entries into the `Corrupt` folder; see ``moveCorruptEntriesAside()-7lfks``.
    @discardableResult
    public func moveCorruptEntriesAside() async throws(ArchiveStorageError) -> [String] {
        try await self.perform { () throws(ArchiveStorageError) in try self.moveCorruptEntriesAside() }
    }

    /// Reads and checks every entry without changing anything; see ``verifyIntegrity()-8j80a``.
    public func verifyIntegrity() async throws(ArchiveStorageError) -> ArchiveIntegrityReport {
        try await self.perform { () throws(ArchiveStorageError) in try self.verifyIntegrity() }
    }

    /// Saves outdated entries again in the current version; see ``rewriteOutdatedEntries()-6lujx``.
    @discardableResult
    public func rewriteOutdatedEntries() async throws(ArchiveStorageError) -> [String] {
        try await self.perform { () throws(ArchiveStorageError) in try self.rewriteOutdatedEntries() }
    }

    /// Waits until the maintenance started when the store was opened has finished; see
    /// ``waitForBackgroundMaintenance()-1ujbq``.
    public func waitForBackgroundMaintenance() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            self.maintenance.notify(queue: self.queue) { continuation.resume() }
        }
    }

    /// Runs `work` on the store's queue and returns its result.
    private func perform<R: Sendable>(
        _ work: @escaping @Sendable () throws(ArchiveStorageError) -> R
    ) async throws(ArchiveStorageError) -> R {
        let outcome: Result<R, ArchiveStorageError> = await withCheckedContinuation { continuation in
            self.queue.async {
                continuation.resume(returning: Result { () throws(ArchiveStorageError) in try work() })
            }
        }
        return try outcome.get()
    }
}
