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

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Reading one row: its columns checked as the store wrote them, and its payload against its
/// checksum.
extension SQLiteEntryTable {
    /// The row of `key` in `db`, checked, with a copy of its payload.
    static func row(forKey key: String, in db: Database) throws -> EntryRow? {
        try Self.withRow(forKey: key, in: db) { row in row.row }
    }

    /// The query of a point read: the columns ``entryRow(_:)`` checks, with whether the payload is
    /// a blob before it (`typeof` reads the record's header, not the blob), so that the payload
    /// itself is read where it lies.
    static let pointReadQuery = """
        SELECT format, schemaVersion, expiry, checksum, typeof(payload) = 'blob', payload FROM entry WHERE key = ?
        """

    /// Calls `body` with the row of `key` in `db`, checked as ``entryRow(_:)`` checks it, its
    /// payload the statement's own bytes (valid only during the call); `nil` when there is none.
    /// - Throws: ``EntryRowCorruption`` for a damaged row (`body` is not called); what `body`
    ///   throws; SQLite's errors.
    static func withRow<R>(forKey key: String, in db: Database, _ body: (EntryRowView) throws -> R) throws -> R? {
        let statement = try db.cachedStatement(sql: Self.pointReadQuery)
        let rows = try Row.fetchCursor(statement, arguments: [Data(key.utf8)])
        // The cursor's row is the statement's current row, not a copy; the cursor resets the
        // statement when it goes away, ending the read.
        return try withExtendedLifetime(rows) { () throws -> R? in
            guard let row = try rows.next() else { return nil }
            // Every column but the payload, whose bytes are read where they lie below.
            let values = Array(row.databaseValues.prefix(5))
            let fields = try Self.entryFields(values)
            guard values.count == 5, case .int64(1) = values[4].storage else {
                throw EntryRowCorruption(reason: "the payload is not a blob")
            }
            return try row.withUnsafeData(atIndex: 5) { data -> R in
                // An empty blob reads as empty data.
                let data = data ?? Data()
                return try data.withUnsafeBytes { payload -> R in
                    try Self.checkChecksum(stored: fields.checksum, computed: CRC32C.checksum(payload))
                    return try body(
                        EntryRowView(
                            formatIdentifier: fields.format,
                            schemaVersion: fields.schemaVersion,
                            expiry: fields.expiry,
                            payload: payload
                        )
                    )
                }
            }
        }
    }

    /// The row made of the columns `format, schemaVersion, expiry, checksum, payload`, checked.
    /// - Throws: ``EntryRowCorruption`` when a column has another type, or the payload fails its
    ///   checksum.
    static func entryRow(_ values: [DatabaseValue]) throws(EntryRowCorruption) -> EntryRow {
        guard values.count == 5 else { throw EntryRowCorruption(reason: "the row has \(values.count) columns") }
        let fields = try Self.entryFields(values)
        guard case .blob(let data) = values[4].storage else {
            throw EntryRowCorruption(reason: "the payload is not a blob")
        }
        try Self.checkChecksum(stored: fields.checksum, computed: CRC32C.checksum(data))
        return EntryRow(
            formatIdentifier: fields.format,
            schemaVersion: fields.schemaVersion,
            expiry: fields.expiry,
            payload: data
        )
    }

    /// The first four of `values`, the columns `format, schemaVersion, expiry, checksum` of a row,
    /// checked.
    /// - Throws: ``EntryRowCorruption`` when a column has another type.
    static func entryFields(
        _ values: [DatabaseValue]
    ) throws(EntryRowCorruption) -> (format: String, schemaVersion: UInt32, expiry: Double, checksum: UInt32) {
        guard values.count >= 4 else { throw EntryRowCorruption(reason: "the row has \(values.count) columns") }
        guard case .string(let format) = values[0].storage else {
            throw EntryRowCorruption(reason: "the format is not text")
        }
        guard case .int64(let version) = values[1].storage, let schemaVersion = UInt32(exactly: version) else {
            throw EntryRowCorruption(reason: "the schema version is not a 32-bit unsigned integer")
        }
        guard let expiry = Self.expiry(values[2]) else {
            throw EntryRowCorruption(reason: "the expiry is not a date")
        }
        guard case .int64(let stored) = values[3].storage, let checksum = UInt32(exactly: stored) else {
            throw EntryRowCorruption(reason: "the checksum is not a 32-bit unsigned integer")
        }
        return (format, schemaVersion, expiry, checksum)
    }

    /// Checks a payload's checksum, `computed`, against the one stored beside it.
    /// - Throws: ``EntryRowCorruption`` on a mismatch.
    static func checkChecksum(stored: UInt32, computed: UInt32) throws(EntryRowCorruption) {
        guard computed == stored else {
            throw EntryRowCorruption(
                reason:
                    "checksum mismatch (stored \(String(stored, radix: 16)), computed \(String(computed, radix: 16)))"
            )
        }
    }

    /// An expiry column: `NULL` is never (`infinity`); `nil` for a value of another type.
    static func expiry(_ value: DatabaseValue) -> Double? {
        switch value.storage {
        case .null: return .infinity
        case .double(let seconds): return seconds
        case .int64(let seconds): return Double(seconds)
        default: return nil
        }
    }
}
#endif
