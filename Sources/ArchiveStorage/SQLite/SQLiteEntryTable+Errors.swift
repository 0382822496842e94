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

/// How the table's operations run under the store's suspension, and how SQLite's errors become
/// ``ArchiveStorageError``s.
extension SQLiteEntryTable {
    /// Runs `body` as an operation of the store's ``suspension``, turning SQLite's errors into
    /// ``ArchiveStorageError``.
    func access<R>(_ body: () throws -> R) throws(ArchiveStorageError) -> R {
        try self.suspension.run(path: self.path) { () throws(ArchiveStorageError) in
            do {
                return try body()
            } catch {
                throw Self.failure(error, path: self.path, isSuspended: self.suspension.isSuspended)
            }
        }
    }

    /// `error` as an ``ArchiveStorageError`` about the database at `path`: damage is
    /// ``ArchiveStorageError/Code/corruptStore``; a statement interrupted by suspending the store
    /// (`isSuspended`) ``ArchiveStorageError/Code/suspended``; where the platform has data
    /// protection (`hasDataProtection`), `SQLITE_AUTH`, and an I/O or open error while the file
    /// refuses to open (`isOpenRefused`), ``ArchiveStorageError/Code/protectedDataUnavailable``;
    /// any other SQLite error ``ArchiveStorageError/Code/database``.
    static func failure(
        _ error: any Error,
        path: String,
        isSuspended: Bool = false,
        hasDataProtection: Bool = ArchiveFileProtection.isEnforced,
        isOpenRefused: (String) -> Bool = DirectoryListing.isOpenRefused(atPath:)
    ) -> ArchiveStorageError {
        if let error = error as? ArchiveStorageError { return error }
        guard let error = error as? DatabaseError else {
            return ArchiveStorageError(.database, path: path, reason: "\(error)", underlying: error)
        }
        let code = error.resultCode
        if isSuspended, code == .SQLITE_INTERRUPT || code == .SQLITE_ABORT {
            var failure = StoreSuspension.suspendedError(path: path)
            failure.underlying = error
            return failure
        }
        if hasDataProtection,
            code == .SQLITE_AUTH || ((code == .SQLITE_IOERR || code == .SQLITE_CANTOPEN) && isOpenRefused(path))
        {
            return ArchiveStorageError(
                .protectedDataUnavailable,
                path: path,
                reason: "the database is protected and the device is locked",
                underlying: error
            )
        }
        switch code {
        case .SQLITE_READONLY:
            return ArchiveStorageError(
                .readOnly,
                path: path,
                reason: error.message ?? "the database is read-only",
                underlying: error
            )
        case .SQLITE_CORRUPT, .SQLITE_NOTADB:
            return ArchiveStorageError(
                .corruptStore,
                path: path,
                reason: error.message ?? "the database is damaged",
                underlying: error
            )
        default:
            return ArchiveStorageError(.database, path: path, reason: error.message ?? "\(error)", underlying: error)
        }
    }
}
#endif
