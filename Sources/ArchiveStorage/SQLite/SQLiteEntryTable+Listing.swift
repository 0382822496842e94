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

// Listing and counting keys in byte order, with a prefix range (`ArchiveStore+Listing.swift`).
extension SQLiteEntryTable {
    // MARK: Listing

    func keys(
        in range: KeyPrefixRange,
        after: [UInt8]?,
        unexpiredAt now: Double,
        limit: Int
    ) throws(ArchiveStorageError) -> [String] {
        guard limit > 0 else { return [] }
        return try self.access {
            try self.readers.transaction { db in
                // From the prefix on, or after `after` when that comes later (or is the prefix).
                var lower = range.lowerBound
                var isStrict = false
                if let after, !after.lexicographicallyPrecedes(range.lowerBound) {
                    lower = after
                    isStrict = true
                }
                var keys: [String] = []
                // Again after a full page with a key that is not UTF-8, so that a short page
                // still means the end; all in one read transaction.
                while true {
                    let statement = try db.cachedStatement(
                        sql: Self.keysQuery(isStrict: isStrict, isBounded: range.upperBound != nil)
                    )
                    let wanted = limit - keys.count
                    var arguments: StatementArguments = [Data(lower)]
                    if let upper = range.upperBound { arguments += [Data(upper)] }
                    arguments += [now, wanted]
                    let rows = try Row.fetchCursor(statement, arguments: arguments)
                    var fetched = 0
                    var lastSkipped: [UInt8]?
                    while let row = try rows.next() {
                        fetched += 1
                        let key = try row.withUnsafeData(atIndex: 0) { bytes -> String? in
                            guard let bytes else { return nil }
                            if let key = validUTF8String(bytes) { return key }
                            lastSkipped = Array(bytes)
                            return nil
                        }
                        if let key {
                            keys.append(key)
                            lastSkipped = nil
                        }
                    }
                    guard fetched == wanted, keys.count < limit else { return keys }
                    guard let last = lastSkipped ?? keys.last.map({ Array($0.utf8) }) else { return keys }
                    lower = last
                    isStrict = true
                }
            }
        }
    }

    /// The query of ``keys(in:after:unexpiredAt:limit:)``: a range of the primary key (`BLOB`
    /// bounds leave out keys of other types), never `LIKE`. Arguments: the lower bound, the upper
    /// bound when `isBounded`, the time, the limit.
    static func keysQuery(isStrict: Bool, isBounded: Bool) -> String {
        """
        SELECT key FROM entry
        WHERE key \(isStrict ? ">" : ">=") ?\(isBounded ? " AND key < ?" : "")
        AND (expiry IS NULL OR expiry > ?)
        ORDER BY key LIMIT ?
        """
    }

    func count(in range: KeyPrefixRange, unexpiredAt now: Double) throws(ArchiveStorageError) -> Int {
        try self.access {
            try self.readers.transaction { db in
                let statement = try db.cachedStatement(sql: Self.countQuery(isBounded: range.upperBound != nil))
                var arguments: StatementArguments = [Data(range.lowerBound)]
                if let upper = range.upperBound { arguments += [Data(upper)] }
                arguments += [now]
                return try Int.fetchOne(statement, arguments: arguments) ?? 0
            }
        }
    }

    /// The query of ``count(in:unexpiredAt:)``, on the same range as ``keysQuery(isStrict:isBounded:)``.
    static func countQuery(isBounded: Bool) -> String {
        """
        SELECT count(*) FROM entry
        WHERE key >= ?\(isBounded ? " AND key < ?" : "")
        AND (expiry IS NULL OR expiry > ?)
        """
    }
}
#endif
