//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-keyed-archive open source project
//
// Licensed under Apache License v2.0
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#if SQLite
import GRDB
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

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Read-only connections to a store's database that answer point reads (a load that misses
/// memory, `contains`), each one statement.
///
/// A `DatabasePool` read takes a reader from the pool, checks the schema version and wraps the
/// statement in a transaction: about 37 µs for a point read of a 100,000-row table here, against
/// 13 µs for the same statement on a connection of its own. One statement reads a consistent
/// snapshot without a transaction around it, and the store's tables never change shape while it is
/// open, so these connections do neither.
///
/// A read takes the first connection no other thread is using, so that a thread reading alone
/// keeps using one connection and its page cache; when all are in use it waits for one, taken in
/// turn. Connections are opened on first use. A read inside another read of the same thread (a
/// value whose decoding, which runs on the connection, loads from a store) opens a connection for
/// itself alone: waiting for one could be waiting for itself.
final class SQLiteReaders: Sendable {
    /// The database file.
    let path: String
    /// The connections; a connection's lock is held while it reads.
    private let slots: [Locked<DatabaseQueue?>]
    /// The connection the next read waits for when all are in use.
    private let next = Locked(0)
    /// Set by ``close()``: no connection is opened again.
    private let isClosed = Locked(false)

    /// Readers of the database at `path`, at most `count` connections.
    init(path: String, count: Int) {
        self.path = path
        self.slots = (0..<max(1, count)).map { _ in Locked(nil) }
    }

    /// The number of connections for a process with `processorCount` processors.
    static func count(processorCount: Int) -> Int {
        min(4, max(1, processorCount))
    }

    /// Runs `body` on one of the connections, outside any transaction: run one statement only.
    /// - Throws: What `body` throws; SQLite's errors opening the connection.
    func read<R>(_ body: (Database) throws -> R) throws -> R {
        try self.withConnection { reader in try reader.inDatabase(body) }
    }

    /// Runs `body` in a read transaction on one of the connections: every statement of `body`
    /// reads the same snapshot. Keep it short: the WAL cannot be checkpointed past it.
    /// - Throws: What `body` throws; SQLite's errors opening the connection.
    func transaction<R>(_ body: (Database) throws -> R) throws -> R {
        try self.withConnection { reader in try reader.read(body) }
    }

    private func withConnection<R>(_ body: (DatabaseQueue) throws -> R) throws -> R {
        if ReaderNesting.depth > 0 { return try self.withOwnConnection(body) }
        for slot in self.slots {
            if let result = try slot.withLockIfAvailable({ queue in try self.run(body, on: &queue) }) {
                return result
            }
        }
        let index = self.next.withLock { next in
            defer { next = next == self.slots.count - 1 ? 0 : next + 1 }
            return next
        }
        return try self.slots[index].withLock { queue in try self.run(body, on: &queue) }
    }

    /// Closes every connection, each once no read uses it; later reads throw.
    func close() {
        self.isClosed.withLock { $0 = true }
        for slot in self.slots {
            slot.withLock { queue in
                try? queue?.close()
                queue = nil
            }
        }
    }

    private func run<R>(_ body: (DatabaseQueue) throws -> R, on queue: inout DatabaseQueue?) throws -> R {
        if self.isClosed.withLock({ $0 }) { throw ArchiveStorageError.storeClosed(path: self.path) }
        let reader: DatabaseQueue
        if let queue {
            reader = queue
        } else {
            reader = try Self.open(self.path)
            queue = reader
        }
        let depth = ReaderNesting.depth
        ReaderNesting.depth = depth + 1
        defer { ReaderNesting.depth = depth }
        return try body(reader)
    }

    /// Runs `body` on a connection opened for it alone, and closed after.
    private func withOwnConnection<R>(_ body: (DatabaseQueue) throws -> R) throws -> R {
        if self.isClosed.withLock({ $0 }) { throw ArchiveStorageError.storeClosed(path: self.path) }
        let reader = try Self.open(self.path)
        defer { try? reader.close() }
        return try body(reader)
    }

    private static func open(_ path: String) throws -> DatabaseQueue {
        var configuration = Configuration()
        configuration.label = "ArchiveStore.reader"
        configuration.readonly = true
        configuration.busyMode = .timeout(SQLiteEntryTable.busyTimeout)
        return try DatabaseQueue(path: path, configuration: configuration)
    }
}

/// How many reads of ``SQLiteReaders`` (of any store) the current thread is inside, in a
/// thread-specific value.
enum ReaderNesting {
    /// The key of the thread-specific value.
    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key, nil)
        return key
    }()

    /// The current thread's depth: 0 outside any read.
    static var depth: Int {
        get { Int(bitPattern: pthread_getspecific(Self.key)) }
        set { pthread_setspecific(Self.key, UnsafeRawPointer(bitPattern: newValue)) }
    }
}
#endif
