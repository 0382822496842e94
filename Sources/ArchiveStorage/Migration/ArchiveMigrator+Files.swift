//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-keyed-archive open source project
//
// Licensed under Apache License v2.0
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#elseif canImport(Android)
import Android
#endif

extension ArchiveMigrator {
    /// Migrates the file at `path` in place: decodes it and, unless it is already current,
    /// replaces it with the current format, crash-safely.
    ///
    /// The steps, in this order:
    ///
    /// 1. Read and decode the file, encode the value in the current format, and check that the new
    ///    bytes decode back. A failure here writes nothing.
    /// 2. With a ``backupSuffix``, write the original bytes to `path + backupSuffix` through a
    ///    temporary file, flush it, rename it into place and flush the directory.
    /// 3. Write the new bytes to a temporary file in the same directory and flush it.
    /// 4. Rename the temporary file over `path`, atomically.
    /// 5. Flush the directory, making the rename durable.
    ///
    /// Until step 4, `path` holds the untouched original; from step 4 on, it holds either the
    /// original or the complete new file, never a mixture, so a crash at any point leaves a file
    /// that a migrator reads. A crash between steps 3 and 4 can leave a `.tmp-…` file behind. The
    /// new file and the backup get the original's permission bits. A symbolic link at `path` is
    /// replaced by a regular file. The migration does not coordinate with other writers of the file.
    ///
    /// - Parameter path: The file.
    /// - Returns: The value, the format found, and whether the file was rewritten.
    /// - Throws: ``ArchiveStorageError``: ``ArchiveStorageError/Code/fileSystem`` if the file is
    ///   missing or cannot be written, and the errors of ``decode(from:)``. An error before step 4
    ///   leaves the file at `path` unchanged; an error flushing the directory in step 5 is reported
    ///   although `path` already holds the new bytes.
    @discardableResult
    public func migrateFile(atPath path: String) throws(ArchiveStorageError) -> MigrationResult<Value> {
        guard let original = try DurableFile.read(atPath: path) else {
            throw ArchiveStorageError(
                .fileSystem,
                path: path,
                reason: "no file to migrate",
                underlying: SystemError(code: ENOENT, call: "open")
            )
        }
        let (result, replacement): (MigrationResult<Value>, Data?)
        do {
            (result, replacement) = try self.migrate(original)
        } catch {
            var error = error
            error.path = path
            throw error
        }
        guard let replacement else { return result }
        let mode = try Self.permissions(ofPath: path)
        if let suffix = self.backupSuffix {
            try Self.replaceFile(atPath: path + suffix, with: original, mode: mode)
            try DurableFile.syncDirectory(ofPath: path)
            try self.stepObserver?(.backupWritten)
        }
        try Self.replaceFile(atPath: path, with: replacement, mode: mode) { () throws(ArchiveStorageError) in
            try self.stepObserver?(.replacementWritten)
        }
        try self.stepObserver?(.renamed)
        try DurableFile.syncDirectory(ofPath: path)
        try self.stepObserver?(.directorySynced)
        return result
    }

    /// The permission bits of the file at `path`.
    private static func permissions(ofPath path: String) throws(ArchiveStorageError) -> mode_t {
        var status = stat()
        guard stat(path, &status) == 0 else { throw DurableFile.failure("stat", path: path) }
        return status.st_mode & 0o7777
    }

    /// Writes `bytes` durably to a temporary file with permission bits `mode`, runs `beforeRename`
    /// and renames the file over `path`; the caller flushes the directory. On failure the temporary
    /// file is removed.
    private static func replaceFile(
        atPath path: String,
        with bytes: some Collection<UInt8>,
        mode: mode_t,
        beforeRename: (() throws(ArchiveStorageError) -> Void)? = nil
    ) throws(ArchiveStorageError) {
        let temporary = try DurableFile.writeTemporary(besidePath: path, bytes: bytes, durable: true)
        do throws(ArchiveStorageError) {
            try Self.setPermissions(mode, ofPath: temporary)
            try beforeRename?()
            try DurableFile.rename(temporary, to: path)
        } catch {
            _ = unlink(temporary)
            throw error
        }
    }

    /// Sets the permission bits of a file and flushes the change.
    private static func setPermissions(_ mode: mode_t, ofPath path: String) throws(ArchiveStorageError) {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw DurableFile.failure("open", path: path) }
        defer { _ = close(descriptor) }
        guard fchmod(descriptor, mode) == 0 else { throw DurableFile.failure("fchmod", path: path) }
        try DurableFile.sync(descriptor, path: path)
    }
}

/// A step of ``ArchiveMigrator/migrateFile(atPath:)`` that has just completed.
package enum FileMigrationStep: String, Sendable, CaseIterable {
    /// The backup of the original is durable.
    case backupWritten
    /// The new bytes are durable in a temporary file; the original is untouched.
    case replacementWritten
    /// The temporary file has been renamed over the original.
    case renamed
    /// The directory has been flushed; the migration is durable.
    case directorySynced
}
