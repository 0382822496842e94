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

// The layout of a store's database: its versions (migrations), and the bookkeeping a disk byte
// limit adds to it.
extension SQLiteEntryTable {
    /// The versions of the store's table layout.
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("entries-1") { db in
            try db.execute(
                sql: """
                    CREATE TABLE entry (
                        key BLOB NOT NULL PRIMARY KEY,
                        format TEXT NOT NULL,
                        schemaVersion INTEGER NOT NULL,
                        expiry REAL,
                        checksum INTEGER NOT NULL,
                        payload BLOB NOT NULL
                    ) WITHOUT ROWID;
                    CREATE INDEX entry_expiry ON entry(expiry, key) WHERE expiry IS NOT NULL;
                    CREATE TABLE quarantine (
                        key BLOB,
                        format,
                        schemaVersion,
                        expiry,
                        checksum,
                        payload,
                        reason TEXT NOT NULL,
                        movedAt REAL NOT NULL
                    );
                    """
            )
        }
        // The disk byte limit: each row's recency (indexed, for eviction), and the total payload
        // size in `meta`, kept by triggers so that no save has to add it up. A row inserted without
        // a recency counts as the least recently used.
        // As it shipped: a migration never changes. `entries-3` removes the index and the triggers
        // again, and `byteCountTracking` is what a store opened with a limit gets back.
        migrator.registerMigration("entries-2") { db in
            try db.execute(
                sql: """
                    ALTER TABLE entry ADD COLUMN accessedAt REAL NOT NULL DEFAULT 0;
                    CREATE INDEX entry_accessedAt ON entry(accessedAt);
                    CREATE TABLE meta (name TEXT NOT NULL PRIMARY KEY, value INTEGER NOT NULL) WITHOUT ROWID;
                    INSERT INTO meta (name, value) SELECT 'byteCount', coalesce(sum(length(payload)), 0) FROM entry;
                    CREATE TRIGGER entry_insert_byteCount AFTER INSERT ON entry BEGIN
                        UPDATE meta SET value = value + coalesce(length(NEW.payload), 0) WHERE name = 'byteCount';
                    END;
                    CREATE TRIGGER entry_delete_byteCount AFTER DELETE ON entry BEGIN
                        UPDATE meta SET value = value - coalesce(length(OLD.payload), 0) WHERE name = 'byteCount';
                    END;
                    CREATE TRIGGER entry_update_byteCount AFTER UPDATE OF payload ON entry BEGIN
                        UPDATE meta
                        SET value = value - coalesce(length(OLD.payload), 0) + coalesce(length(NEW.payload), 0)
                        WHERE name = 'byteCount';
                    END;
                    """
            )
        }
        // The bookkeeping of entries-2 only where a disk byte limit needs it: a store opened with a
        // limit gets it back (`trackByteCount()`), counted afresh.
        migrator.registerMigration("entries-3") { db in
            try db.execute(
                sql: """
                    DROP TRIGGER IF EXISTS entry_insert_byteCount;
                    DROP TRIGGER IF EXISTS entry_delete_byteCount;
                    DROP TRIGGER IF EXISTS entry_update_byteCount;
                    DROP INDEX IF EXISTS entry_accessedAt;
                    DELETE FROM meta WHERE name = 'byteCount';
                    """
            )
        }
        return migrator
    }

    /// Makes the database keep what a disk byte limit needs, if it does not yet: the total payload
    /// size in `meta`, kept by triggers, and an index on the recency column. Every write then pays
    /// for them (about a fifth of a batch fill's time here), so a store has them only once it has
    /// been opened with a limit, and keeps them after. Enabling them counts the payloads once, in
    /// the same write transaction as the triggers, so no other process's write falls between.
    func trackByteCount() throws(ArchiveStorageError) {
        let isTracked = """
            SELECT count(*) > 0 FROM sqlite_master WHERE type = 'trigger' AND name = 'entry_insert_byteCount'
            """
        try self.access {
            guard try !self.readers.transaction({ db in try Bool.fetchOne(db, sql: isTracked) ?? false }) else {
                return
            }
            try self.writer.write { db in
                guard try !(Bool.fetchOne(db, sql: isTracked) ?? false) else { return }
                try db.execute(sql: Self.byteCountTracking)
            }
        }
    }

    /// The byte-count bookkeeping that ``trackByteCount()`` adds: what `entries-2` added to every
    /// store, and `entries-3` removed again from stores that have no limit.
    static let byteCountTracking = """
        CREATE INDEX IF NOT EXISTS entry_accessedAt ON entry(accessedAt);
        INSERT OR REPLACE INTO meta (name, value) SELECT 'byteCount', coalesce(sum(length(payload)), 0) FROM entry;
        CREATE TRIGGER entry_insert_byteCount AFTER INSERT ON entry BEGIN
            UPDATE meta SET value = value + coalesce(length(NEW.payload), 0) WHERE name = 'byteCount';
        END;
        CREATE TRIGGER entry_delete_byteCount AFTER DELETE ON entry BEGIN
            UPDATE meta SET value = value - coalesce(length(OLD.payload), 0) WHERE name = 'byteCount';
        END;
        CREATE TRIGGER entry_update_byteCount AFTER UPDATE OF payload ON entry BEGIN
            UPDATE meta
            SET value = value - coalesce(length(OLD.payload), 0) + coalesce(length(NEW.payload), 0)
            WHERE name = 'byteCount';
        END;
        """
}
#endif
