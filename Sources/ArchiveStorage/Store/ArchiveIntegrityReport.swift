//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-keyed-archive open source project
//
// Licensed under Apache License v2.0
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// What ``ArchiveStore/verifyIntegrity()-8j80a`` found: how many entries it checked, and which of
/// them are damaged.
///
/// A list of keys alone would not do: on the files backend a damaged entry whose key is too long
/// for a file name may no longer tell its key, and a support tool wants to know why an entry
/// failed and how many were checked.
public struct ArchiveIntegrityReport: Sendable, Hashable {
    /// One damaged entry.
    public struct DamagedEntry: Sendable, Hashable {
        /// The entry's key; `nil` when the damage hides it (on the files backend, an entry file
        /// named by the hash of a long key, whose stored key is unreadable).
        public var key: String?
        /// The entry's file on the files backend; the store's database on the SQLite backend.
        public var path: String
        /// What is wrong with the entry, such as a checksum mismatch.
        public var reason: String

        /// Creates the description of a damaged entry.
        public init(key: String?, path: String, reason: String) {
            self.key = key
            self.path = path
            self.reason = reason
        }
    }

    /// How many entries were checked, expired ones included.
    public var checkedEntryCount: Int
    /// The damaged entries, in the byte order of their keys; those whose key is unknown come last.
    public var damagedEntries: [DamagedEntry]

    /// Creates a report.
    public init(checkedEntryCount: Int, damagedEntries: [DamagedEntry]) {
        self.checkedEntryCount = checkedEntryCount
        self.damagedEntries = damagedEntries
    }

    /// Whether every entry is intact.
    public var isIntact: Bool { self.damagedEntries.isEmpty }

    /// The keys of the damaged entries that tell their key.
    public var damagedKeys: [String] { self.damagedEntries.compactMap(\.key) }
}
