//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-keyed-archive open source project
//
// Licensed under Apache License v2.0
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension ArchiveStore {
    /// Saves again, in the current schema version and format, every unexpired entry that an
    /// earlier version of the value type saved (schema version 0, from releases before types
    /// carried versions, counts as earlier); entries a newer version saved are left alone.
    ///
    /// Entries of an older version already load as the current type (its migrations run on every
    /// load); rewriting them runs the migrations once, and lets a later version of the app drop
    /// the types of versions no entry uses any more. Each entry is read, decoded and written under
    /// its lock, atomically and durably like ``save(_:forKey:expiration:)-2xcjx``, and keeps its
    /// expiration date. On the SQLite backend, up to 100 entries share one transaction.
    ///
    /// - Returns: The keys of the rewritten entries, sorted.
    /// - Throws: ``ArchiveStorageError`` as ``load(forKey:)-59ajw`` throws it, naming the first
    ///   entry that does not decode; the entries rewritten before it stay rewritten.
    /// - Complexity: Reads the header of every entry, and decodes and writes the outdated ones.
    @discardableResult
    public func rewriteOutdatedEntries() throws(ArchiveStorageError) -> [String] {
        let current = self.schemaVersion
        var rewritten: [String] = []
        let keys = try self.keys()
        if let table = self.table {
            // A transaction per page of keys, not per key.
            var start = 0
            while start < keys.count {
                let end = min(start + Self.tableRewritePageSize, keys.count)
                rewritten += try self.tableRewrite(keys: Array(keys[start..<end]), ifOlderThan: current, in: table)
                start = end
            }
            return rewritten
        }
        for key in keys {
            let location = EntryLocation(key: key, directory: self.directoryPath)
            let wrote = try self.control.withExclusiveLock(slot: location.slot) {
                () throws(ArchiveStorageError) -> Bool in
                guard let (entry, _) = try self.readEntry(key: key, location: location, isLocked: true),
                    entry.prefix.expiry > self.now(),
                    // Older only: an entry a newer release saved is left for that release.
                    entry.prefix.schemaVersion < current
                else { return false }
                let value = try self.decodeValue(of: entry, key: key, path: location.path)
                let expiry = entry.prefix.expiry
                let expiration: ArchiveExpiration =
                    expiry.isFinite ? .at(Date(timeIntervalSince1970: expiry)) : .never
                let bytes = try self.entryBytes(for: value, key: key, expiration: expiration)
                let temporary = try DurableFile.writeTemporary(
                    besidePath: location.path,
                    bytes: bytes,
                    durable: self.configuration.isDurable
                )
                try self.publish(temporary, at: location)
                return true
            }
            if wrote {
                if self.configuration.isDurable { try DurableFile.syncDirectory(ofPath: location.path) }
                rewritten.append(key)
            }
        }
        return rewritten
    }
}
