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
public import FoundationEssentials
#else
public import Foundation
#endif

/// What an entry's header says about it, read without decoding its value.
///
/// A later version of a value type can use ``schemaVersion`` to tell entries saved by an earlier
/// one apart, and decode those with the earlier type.
public struct ArchiveEntryInfo: Sendable, Hashable {
    /// The entry's key.
    public var key: String
    /// The store's ``ArchiveStoreConfiguration/schemaVersion`` when the entry was saved.
    public var schemaVersion: UInt32
    /// When the entry expires, or `nil` if it never does.
    public var expirationDate: Date?
    /// The ``ArchiveValueFormat/identifier`` of the format of the payload.
    public var formatIdentifier: String
    /// The size of the entry file in bytes on the files backend, of the stored payload on the
    /// SQLite backend; also the entry's cost in the memory cache, and what
    /// ``ArchiveStoreConfiguration/diskByteLimit`` counts.
    public var byteCount: Int

    /// Creates an entry description.
    public init(key: String, schemaVersion: UInt32, expirationDate: Date?, formatIdentifier: String, byteCount: Int) {
        self.key = key
        self.schemaVersion = schemaVersion
        self.expirationDate = expirationDate
        self.formatIdentifier = formatIdentifier
        self.byteCount = byteCount
    }
}
