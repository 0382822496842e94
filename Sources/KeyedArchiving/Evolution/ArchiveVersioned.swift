//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-keyed-archive open source project
//
// Licensed under Apache License v2.0
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// A type that records its version in the objects it archives, so that data written by an older
/// version of the type is recognised and migrated, and data written by a newer one is refused.
///
/// `@Archivable` conforms every type it expands to; conform by hand for a hand-written `Codable`
/// conformance, and read and write the version with ``ArchiveEvolution``.
///
/// The version is an integer in the type's own object, under ``archiveVersionKey``: each nested
/// value carries its own. It is written only when ``archiveVersion`` differs from
/// ``unversionedArchiveVersion``, so a type that was never versioned writes what synthesized
/// `Codable` writes. Apple's `NSKeyedUnarchiver` ignores the key; an `NSCoding` class reads it with
/// `decodeInteger(forKey:)`, and in JSON it is a key like any other.
///
/// Raise the version only for a change that needs a migration: a new property with an initial
/// value, or a renamed key with its former name kept (`@ArchiveKey`), is read by older and newer
/// versions alike. The *Evolving Archived Types* article of the `KeyedArchivingMacros` documentation
/// walks through an app's history.
public protocol ArchiveVersioned {
    /// The version this type writes, 1 or more.
    static var archiveVersion: Int { get }
    /// The version of stored data that carries none. Defaults to 1.
    static var unversionedArchiveVersion: Int { get }
    /// The key the version is stored under. Defaults to ``defaultVersionKey``.
    static var archiveVersionKey: String { get }
}

extension ArchiveVersioned {
    /// 1.
    public static var unversionedArchiveVersion: Int { 1 }

    /// ``defaultVersionKey``.
    public static var archiveVersionKey: String { Self.defaultVersionKey }

    /// `"archiveVersion"`: the key of the version unless a type chooses another.
    public static var defaultVersionKey: String { "archiveVersion" }
}

extension ArchiveEvolution {
    /// The version `type` writes: its ``ArchiveVersioned/archiveVersion``, or 1 for a type that is
    /// not ``ArchiveVersioned``. `ArchiveStore`, `ArchiveMigrator` and the `UserDefaults` helpers
    /// take their schema version from it.
    public static func archiveVersion(of type: Any.Type) -> Int {
        (type as? any ArchiveVersioned.Type)?.archiveVersion ?? 1
    }
}

/// A versioned type that converts data stored by its previous version.
///
/// The previous version is an ordinary type, kept under another name (`CatV2`), that decodes with
/// its own conformance; if it is itself `ArchiveMigrating`, data older still migrates through it
/// first, one step at a time:
///
/// ```swift
/// @Archivable(version: 3, previousVersion: CatV2.self)
/// struct Cat {
///     var name: String
///     var weight: Double
///     init(migratingFrom old: CatV2) { self.name = old.name; self.weight = Double(old.weight) }
/// }
/// ```
public protocol ArchiveMigrating: ArchiveVersioned {
    /// The type that decodes data stored with a version below ``ArchiveVersioned/archiveVersion``.
    associatedtype PreviousArchiveVersion: Decodable

    /// Converts a value of the previous version.
    /// - Throws: Any error; decoding reports it as `DecodingError.dataCorrupted` at the value's path.
    init(migratingFrom previous: PreviousArchiveVersion) throws
}
