//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-keyed-archive open source project
//
// Licensed under Apache License v2.0
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// How a store keeps its entries on disk.
///
/// A store keeps the backend it was created with: opening an existing store detects its backend
/// from its directory, and ``ArchiveStoreConfiguration/backend`` applies only when the store is
/// created. <doc:StoringValues> compares the two.
public struct ArchiveStoreBackend: Sendable, Hashable, CustomStringConvertible {
    enum Kind: String, Sendable, Hashable {
        case files
        case sqlite
    }

    let kind: Kind

    /// One file per entry, replaced atomically: right for up to a few thousand entries, and needs
    /// nothing but the file system.
    public static let files = ArchiveStoreBackend(kind: .files)

    #if SQLite
    /// One SQLite database per store (WAL mode), one row per entry: right for millions of entries.
    /// Needs the package's `SQLite` trait (on by default).
    public static let sqlite = ArchiveStoreBackend(kind: .sqlite)
    #endif

    public var description: String { self.kind.rawValue }
}
