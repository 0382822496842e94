//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-keyed-archive open source project
//
// Licensed under Apache License v2.0
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// An error thrown by a store, the preferences helpers or a migration.
///
/// Compare errors by ``code``; the key, path, reason and underlying error are diagnostics.
public struct ArchiveStorageError: Error, Sendable, CustomStringConvertible {
    /// The kind of failure.
    public var code: Code
    /// The key the failure concerns, when there is one.
    public var key: String?
    /// The file the failure concerns, when there is one.
    public var path: String?
    /// A human-readable explanation.
    public var reason: String
    /// The error beneath this one: a decoding, encoding or system error.
    public var underlying: (any Error)?

    /// Creates an error.
    public init(
        _ code: Code,
        key: String? = nil,
        path: String? = nil,
        reason: String = "",
        underlying: (any Error)? = nil
    ) {
        self.code = code
        self.key = key
        self.path = path
        self.reason = reason
        self.underlying = underlying
    }

    /// A one-line summary: the code, the key or file, and why.
    public var description: String {
        var text = "ArchiveStorageError.\(self.code)"
        if let key { text += " for key \"\(key)\"" }
        if let path { text += " at \(path)" }
        if !self.reason.isEmpty { text += ": \(self.reason)" }
        if let underlying { text += " (\(underlying))" }
        return text
    }
}

extension ArchiveStorageError {
    /// ``Code/storeClosed`` for the store whose file is at `path`.
    static func storeClosed(path: String) -> ArchiveStorageError {
        ArchiveStorageError(.storeClosed, path: path, reason: "the store instance was closed; open the store again")
    }
}

extension ArchiveStorageError {
    /// The kind of an ``ArchiveStorageError``. New codes may be added in minor releases.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Base: String, Hashable, Sendable {
            case fileSystem
            case corruptEntry
            case encodingFailed
            case decodingFailed
            case unrecognizedFormat
            case valueNotFound
            case typeMismatch
            case invalidConfiguration
            case unsupportedSchemaVersion
            case corruptStore
            case database
            case storeNotFound
            case storeMoved
            case readOnly
            case nestedWrite
            case storeClosed
            case lockTimeout
            case suspended
            case protectedDataUnavailable
        }

        private let base: Base
        private init(_ base: Base) { self.base = base }

        /// A file-system call failed; ``ArchiveStorageError/underlying`` holds the system error.
        public static let fileSystem = Code(.fileSystem)
        /// A stored entry is truncated, fails its checksum, or has an unreadable header.
        public static let corruptEntry = Code(.corruptEntry)
        /// The value could not be encoded; ``ArchiveStorageError/underlying`` holds the `EncodingError`.
        public static let encodingFailed = Code(.encodingFailed)
        /// The stored bytes could not be decoded into the requested type.
        public static let decodingFailed = Code(.decodingFailed)
        /// The data is in none of the formats a migration recognises.
        public static let unrecognizedFormat = Code(.unrecognizedFormat)
        /// No value is stored under the key.
        public static let valueNotFound = Code(.valueNotFound)
        /// A value is stored under the key but is not of the requested kind.
        public static let typeMismatch = Code(.typeMismatch)
        /// A store name, directory or format identifier is not usable, or an argument is out of range
        /// (a negative limit).
        public static let invalidConfiguration = Code(.invalidConfiguration)
        /// The data carries a schema version newer than the one the reader was built for.
        public static let unsupportedSchemaVersion = Code(.unsupportedSchemaVersion)
        /// The store's database file is not a database, or fails SQLite's integrity check; nothing
        /// in it was deleted. ``ArchiveStorageError/path`` names the file.
        public static let corruptStore = Code(.corruptStore)
        /// SQLite reported an error other than damage (the disk is full, another process held the
        /// write lock too long, the file cannot be opened); ``ArchiveStorageError/underlying`` holds
        /// the `DatabaseError`.
        public static let database = Code(.database)

        /// No store of that name exists in the directory: its folder holds neither a control file
        /// nor a database.
        public static let storeNotFound = Code(.storeNotFound)
        /// The store was moved to another backend (``ArchiveStoreDirectory/moveStore(named:to:)-8i0d6``)
        /// after this instance opened it, or a move of it was interrupted: open the store again.
        public static let storeMoved = Code(.storeMoved)
        /// The store is on a read-only file system: it can be opened and read, and every write
        /// throws this.
        public static let readOnly = Code(.readOnly)
        /// A write of the store was called from a write of the same store on the same thread (from
        /// an ``ArchiveStore/update(forKey:expiration:_:)-4u4g2`` body): it would wait for itself.
        public static let nestedWrite = Code(.nestedWrite)
        /// The store instance was closed (``ArchiveStore/close()``); open the store again.
        public static let storeClosed = Code(.storeClosed)
        /// Another writer (thread, instance or process) held the entry's write lock longer than
        /// 60 seconds, SQLite's busy timeout; nothing was written.
        public static let lockTimeout = Code(.lockTimeout)
        /// The store instance is suspended (``ArchiveStore/suspend(timeout:)``), so it takes no lock:
        /// call ``ArchiveStore/resume()`` first. Nothing was written.
        public static let suspended = Code(.suspended)
        /// The store's files are protected (``ArchiveStoreConfiguration/fileProtection``) and the
        /// device is locked, so they cannot be read or written now; try again once protected data
        /// is available (UIKit's `protectedDataDidBecomeAvailableNotification`). Apple platforms
        /// with data protection only.
        public static let protectedDataUnavailable = Code(.protectedDataUnavailable)

        public var description: String { self.base.rawValue }
    }
}
