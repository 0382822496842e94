//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-keyed-archive open source project
//
// Licensed under Apache License v2.0
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// What ``ArchiveStoreDirectory/moveStore(named:to:)-8i0d6`` did.
public struct ArchiveStoreMoveResult: Sendable, Hashable {
    /// The backend the store had before the move.
    public var previousBackend: ArchiveStoreBackend
    /// The backend the store has now: the one asked for.
    public var backend: ArchiveStoreBackend
    /// How many entries were copied, expired ones included; 0 when the store already had the
    /// backend asked for.
    public var movedEntryCount: Int
    /// The damaged entries, which were set aside rather than copied: from the files backend, the
    /// paths in the `Corrupt` folder their files were moved to; from SQLite, their keys (a key that
    /// is not UTF-8 is shown with replacement characters).
    public var damagedEntries: [String] = []
    /// From SQLite, when its database held damaged or quarantined rows: the copy of the whole
    /// database kept in the `Corrupt` folder, where they can still be read; otherwise `nil`.
    public var keptDatabasePath: String?
}
