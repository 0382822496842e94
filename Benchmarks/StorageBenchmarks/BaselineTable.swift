//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-keyed-archive open source project
//
// Licensed under Apache License v2.0
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Benchmark
import Foundation
import GRDB

/// The baseline of the sqlite backend: a plain GRDB table holding the same entries, as issue 15
/// describes it.
///
/// One row per entry: the key (`TEXT PRIMARY KEY`), five small columns (the record's fields: an
/// id, a name, a double and two tags) and the payload the store writes for the record (its keyed
/// archive, encoded once), for ``Profile`` or ``Record``. `WITHOUT ROWID`, WAL (`DatabasePool`), `synchronous = FULL`, rows
/// inserted with one cached statement in transactions of 1,000. No checksum, no locks of our own,
/// no decoding on reads.
enum BaselineTable {
    /// The database's file name in its folder.
    static let fileName = "baseline.sqlite"

    /// Opens (creating if needed) the database at `path`.
    static func open(_ path: String) throws -> DatabasePool {
        let pool = try DatabasePool(path: path)
        // After the pool's WAL set-up, which sets `synchronous = NORMAL` on the writer (a setting
        // made in `prepareDatabase` comes before it, and is lost).
        try pool.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA synchronous = FULL") }
        return pool
    }

    /// Creates the database at `path` and inserts `entries` rows; returns how long the inserts
    /// took, between `benchmark`'s start and stop. The database is closed when this returns.
    @discardableResult
    static func fill<Value: StoredValue>(
        entries: Int,
        of _: Value.Type = Profile.self,
        path: String,
        measuring benchmark: Benchmark? = nil
    ) throws -> Duration {
        let pool = try self.open(path)
        try pool.write { db in
            try db.execute(
                sql: """
                    CREATE TABLE entry (
                        key TEXT NOT NULL PRIMARY KEY,
                        id INTEGER NOT NULL,
                        name TEXT NOT NULL,
                        score REAL NOT NULL,
                        tag1 TEXT NOT NULL,
                        tag2 TEXT NOT NULL,
                        payload BLOB NOT NULL
                    ) WITHOUT ROWID
                    """
            )
        }
        let profile = Value.sample
        let payload = try Workload.payload(of: Value.self)
        let keys = (0..<entries).map(Workload.key)
        let clock = ContinuousClock()
        let start = clock.now
        benchmark?.startMeasurement()
        for batchStart in stride(from: 0, to: entries, by: Workload.batchSize) {
            try pool.write { db in
                let statement = try db.cachedStatement(
                    sql: "INSERT INTO entry (key, id, name, score, tag1, tag2, payload) VALUES (?, ?, ?, ?, ?, ?, ?)"
                )
                for index in batchStart..<min(batchStart + Workload.batchSize, entries) {
                    statement.setUncheckedArguments([
                        keys[index], index, profile.name, Double(profile.visits), profile.tags[0], profile.tags[1],
                        payload,
                    ])
                    try statement.execute()
                }
            }
        }
        benchmark?.stopMeasurement()
        return start.duration(to: clock.now)
    }

    /// The payload stored under `key`, read with a cached statement in one read access.
    static func payload(forKey key: String, in pool: DatabasePool) throws -> Data? {
        try pool.read { db in try self.payload(forKey: key, in: db) }
    }

    /// A read-only connection of its own to the database at `path`: what the store's loads use
    /// (`SQLiteReaders`), without the pool's reader choice, schema check and transaction.
    static func openConnection(_ path: String) throws -> DatabaseQueue {
        var configuration = Configuration()
        configuration.readonly = true
        return try DatabaseQueue(path: path, configuration: configuration)
    }

    /// The payload stored under `key`, read with a cached statement on `connection`.
    static func payload(forKey key: String, on connection: DatabaseQueue) throws -> Data? {
        try connection.inDatabase { db in try self.payload(forKey: key, in: db) }
    }

    private static func payload(forKey key: String, in db: Database) throws -> Data? {
        let statement = try db.cachedStatement(sql: "SELECT payload FROM entry WHERE key = ?")
        return try Data.fetchOne(statement, arguments: [key])
    }

    /// All keys, in order.
    static func keys(in pool: DatabasePool) throws -> [String] {
        try pool.read { db in try String.fetchAll(db, sql: "SELECT key FROM entry ORDER BY key") }
    }
}
