//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-keyed-archive open source project
//
// Licensed under Apache License v2.0
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

public import Foundation

extension ArchiveMigrator {
    /// Migrates the `Data` stored under `key` in `defaults` in place: decodes it and, unless it is
    /// already current, stores the current format under the same key.
    ///
    /// With a ``backupSuffix``, the original bytes are first stored under `key + backupSuffix`.
    /// Both writes go to the defaults' in-memory domain together and are persisted by
    /// `UserDefaults` as one change, so no intermediate state is saved.
    ///
    /// ```swift
    /// let migrator = ArchiveMigrator(Settings.self, schemaVersion: 1)
    /// let settings = try migrator.migrateValue(forKey: "settings", in: .standard).value
    /// ```
    /// - Parameters:
    ///   - key: The defaults key.
    ///   - defaults: The defaults; `UserDefaults.standard` or a suite.
    /// - Returns: The value, the format found, and whether the stored value was rewritten.
    /// - Throws: ``ArchiveStorageError``: ``ArchiveStorageError/Code/valueNotFound`` if nothing is
    ///   stored under `key`, ``ArchiveStorageError/Code/typeMismatch`` if the stored object is not
    ///   `Data`, and the errors of ``decode(from:)``. When it throws, nothing is stored.
    @discardableResult
    public func migrateValue(
        forKey key: String,
        in defaults: UserDefaults
    ) throws(ArchiveStorageError) -> MigrationResult<Value> {
        let original = try defaults.storedData(forKey: key)
        let (result, replacement): (MigrationResult<Value>, Data?)
        do {
            (result, replacement) = try self.migrate(original)
        } catch {
            var error = error
            error.key = key
            throw error
        }
        guard let replacement else { return result }
        if let suffix = self.backupSuffix { defaults.set(original, forKey: key + suffix) }
        defaults.set(replacement, forKey: key)
        return result
    }
}
