//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-keyed-archive open source project
//
// Licensed under Apache License v2.0
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

extension ArchiveUnknownFields {
    /// The fields a value migrated from an older version keeps: those `init(migratingFrom:)` kept
    /// (`migrated`, usually copied from the previous version's own unknown fields), then every
    /// field of the stored object that neither the type nor any of its previous versions knows.
    ///
    /// `@Archivable` calls this after a migration, so that the fields a newer app stored survive
    /// an app that migrates the value. The keys of a previous version come from its
    /// ``ArchiveObjectDecodable/archiveObjectKeys`` (every `@Archivable` struct and final class
    /// has them); a previous version without them contributes none, so its fields are kept too.
    /// - Parameters:
    ///   - migrated: The fields the migrated value holds.
    ///   - decoder: The decoder of the stored object.
    ///   - knownKeys: Every key the type reads or writes (as for ``init(from:knownKeys:)``).
    ///   - type: The type being decoded, whose previous versions' keys are known too.
    /// - Throws: `DecodingError` when the archive is malformed.
    public init<Value: ArchiveMigrating>(
        migrated: ArchiveUnknownFields,
        from decoder: any Decoder,
        knownKeys: Set<String>,
        of type: Value.Type
    ) throws {
        var known = knownKeys.union(migrated.keys)
        Self.addKeys(ofPreviousVersionsOf: Value.self, to: &known)
        let stored = try ArchiveUnknownFields(from: decoder, knownKeys: known)
        self.init(migrated.fields + stored.fields)
    }

    /// Adds the keys of every previous version of `type` to `keys`, following the chain of
    /// `PreviousArchiveVersion`s (at most 64, against a cycle).
    private static func addKeys<Value: ArchiveMigrating>(
        ofPreviousVersionsOf type: Value.Type,
        to keys: inout Set<String>
    ) {
        var current: Any.Type = Value.PreviousArchiveVersion.self
        for _ in 0..<64 {
            if let object = current as? any ArchiveObjectDecodable.Type {
                keys.formUnion(object.archiveObjectKeys.names.map { $0.description })
            }
            guard let migrating = current as? any ArchiveMigrating.Type else { return }
            current = Self.previousVersion(of: migrating)
        }
    }

    private static func previousVersion<Value: ArchiveMigrating>(of type: Value.Type) -> Any.Type {
        Value.PreviousArchiveVersion.self
    }
}
