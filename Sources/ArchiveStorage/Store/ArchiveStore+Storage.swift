//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-keyed-archive open source project
//
// Licensed under Apache License v2.0
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

// The one place that chooses a store's backend, and the one place where the `SQLite` trait
// decides whether a SQLite store can be opened.
extension ArchiveStore {
    /// Opens the storage of the store in `directory`: its entry table if the directory holds a
    /// database or is a new store on the SQLite backend, its entry files otherwise.
    ///
    /// An existing store keeps its backend: a database file means SQLite; a control file without
    /// one means files (every files store has one); only an empty directory takes `backend`.
    /// `tracksByteCount`: the store has a disk byte limit (see `SQLiteEntryTable.trackByteCount()`).
    /// The table's statements are operations of `suspension`.
    /// - Throws: ``ArchiveStorageError/Code/invalidConfiguration`` for a SQLite store in a build
    ///   without the `SQLite` trait; what opening the database throws.
    static func openStorage(
        directory: String,
        backend: ArchiveStoreBackend,
        isDurable: Bool,
        tracksByteCount: Bool,
        suspension: StoreSuspension
    ) throws(ArchiveStorageError) -> any EntryStorage {
        let hasDatabase = DirectoryListing.fileExists(atPath: directory + "/" + entryTableFileName)
        let hasControl = DirectoryListing.fileExists(atPath: directory + "/" + StoreControlFile.fileName)
        guard hasDatabase || (!hasControl && backend.kind == .sqlite) else { return FileEntryStorage() }
        #if SQLite
        let table = try SQLiteEntryTable(
            directory: directory,
            isDurable: isDurable,
            tracksByteCount: tracksByteCount,
            suspension: suspension
        )
        return TableEntryStorage(table: table)
        #else
        throw ArchiveStorageError(
            .invalidConfiguration,
            path: directory + "/" + entryTableFileName,
            reason: "the store uses the SQLite backend, which this build leaves out (enable the package's SQLite trait)"
        )
        #endif
    }
}
