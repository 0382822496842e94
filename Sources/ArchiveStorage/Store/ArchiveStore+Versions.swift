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
        let keys = try self.keys()
        return try self.entries.rewriteOutdatedEntries(keys, olderThan: current, in: self)
    }
}
