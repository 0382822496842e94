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
public import KeyedArchiving
import PropertyLists

/// Reads a value stored in a legacy format and rewrites it in the current, versioned format.
///
/// The migrator recognises the formats of ``StoredFormat`` — archives of `NSCoding` objects that
/// Apple's `NSKeyedArchiver` wrote, `PropertyListEncoder` output inside such an archive,
/// `PropertyListEncoder` and `JSONEncoder` output, and this package's own archives — and decodes
/// the value as `Value`. It writes the current format: a keyed archive with the value under
/// `root` and ``schemaVersion`` under `schemaVersion`, which Apple's `NSKeyedUnarchiver` and
/// `KeyedArchiveDecoder` read as an ordinary archive.
///
/// ```swift
/// let migrator = ArchiveMigrator(Cat.self, schemaVersion: 2)
/// let result = try migrator.migrateFile(atPath: catPath)
/// print(result.sourceFormat, result.didRewrite)
/// ```
///
/// When the stored schema version differs from ``schemaVersion`` (formats without a version count
/// as older) and ``upgrade`` is set, the closure produces the value instead, typically by decoding
/// an older model type from the ``MigrationSource``. See <doc:MigratingFromNSCoding>.
public struct ArchiveMigrator<Value: Codable>: Sendable {
    /// The schema version written with migrated values and expected of current ones: by default
    /// `Value`'s `archiveVersion` (1 for a type that is not `ArchiveVersioned`).
    ///
    /// It is the root type's version: data whose `$top` carries an older `schemaVersion`, and no
    /// version in its root object, decodes through `Value`'s own migrations from that version (see
    /// `ArchiveMigrating`) when there is no ``upgrade`` closure.
    public var schemaVersion: Int
    /// Converts data stored with another schema version, or without one, into the current value;
    /// when `nil`, such data is decoded as `Value` directly.
    public var upgrade: (@Sendable (MigrationSource) throws -> Value)?
    /// The encoder for the current format: output format (binary by default) and class names.
    public var encoder = KeyedArchiveEncoder()
    /// The decoder for keyed archives; its limits also bound the reading of property lists.
    public var archiveDecoder = KeyedArchiveDecoder()
    /// The decoder for property lists, plain or inside an archive.
    ///
    /// Decoders are classes that copies of a migrator share: assign a configured decoder rather
    /// than changing the options of this one.
    public var propertyListDecoder = PropertyListDecoder()
    /// The decoder for JSON, with the date and key strategies the legacy data was written with.
    ///
    /// Decoders are classes that copies of a migrator share: assign a configured decoder rather
    /// than changing the options of this one.
    public var jsonDecoder = JSONDecoder()
    /// When set, a rewrite first keeps the original bytes under the file path or defaults key with
    /// this suffix appended, such as `".legacy"`; when `nil` (the default), no copy is kept.
    public var backupSuffix: String?

    /// Called after each step of a file rewrite; a test hook that simulates failures and crashes.
    package var stepObserver: (@Sendable (FileMigrationStep) throws(ArchiveStorageError) -> Void)?

    /// Creates a migrator.
    /// - Parameters:
    ///   - type: The current model type.
    ///   - schemaVersion: The current schema version; `nil` (the default) takes `Value`'s
    ///     `archiveVersion`, or 1 for a type that is not `ArchiveVersioned`.
    ///   - upgrade: Converts data with another or no schema version; see ``upgrade``.
    public init(
        _ type: Value.Type = Value.self,
        schemaVersion: Int? = nil,
        upgrade: (@Sendable (MigrationSource) throws -> Value)? = nil
    ) {
        self.schemaVersion = schemaVersion ?? ArchiveEvolution.archiveVersion(of: Value.self)
        self.upgrade = upgrade
    }

    /// Recognises and decodes stored bytes without writing anything.
    /// - Parameter data: The stored bytes, in any format of ``StoredFormat``.
    /// - Returns: The value, the format found, and whether a migration would rewrite the bytes
    ///   (``MigrationResult/didRewrite``).
    /// - Throws: ``ArchiveStorageError``: ``ArchiveStorageError/Code/unrecognizedFormat`` or
    ///   ``ArchiveStorageError/Code/corruptEntry`` for bytes in no known format,
    ///   ``ArchiveStorageError/Code/decodingFailed`` if they do not decode as `Value`, and
    ///   ``ArchiveStorageError/Code/unsupportedSchemaVersion`` if they carry a schema version newer
    ///   than ``schemaVersion``.
    public func decode(from data: some DataProtocol) throws(ArchiveStorageError) -> MigrationResult<Value> {
        var source = try MigrationSource(recognizing: data, limits: self.archiveDecoder.limits)
        source.decoders = MigrationSource.Decoders(
            archive: self.archiveDecoder,
            propertyList: self.propertyListDecoder,
            json: self.jsonDecoder
        )
        let value: Value
        switch source.schemaVersion {
        case self.schemaVersion:
            value = try source.decode(Value.self)
        case let stored? where stored > self.schemaVersion:
            throw ArchiveStorageError(
                .unsupportedSchemaVersion,
                reason: "stored schema version \(stored) is newer than \(self.schemaVersion)"
            )
        default:
            value = try self.upgraded(source)
        }
        let isCurrent = source.schemaVersion == self.schemaVersion
        return MigrationResult(value: value, sourceFormat: source.format, didRewrite: !isCurrent)
    }

    /// Encodes a value in the current format: a keyed archive in the encoder's output format with
    /// the value under `root` and ``schemaVersion`` under `schemaVersion`.
    /// - Parameter value: The value.
    /// - Returns: The archive's bytes.
    /// - Throws: ``ArchiveStorageError`` with ``ArchiveStorageError/Code/encodingFailed``.
    public func encode(_ value: Value) throws(ArchiveStorageError) -> Data {
        try VersionedArchive.encode(value, schemaVersion: self.schemaVersion, encoder: self.encoder)
    }

    /// Decodes bytes into a value and, when they are not already current, the current bytes.
    internal func migrate(
        _ data: some DataProtocol
    ) throws(ArchiveStorageError) -> (result: MigrationResult<Value>, replacement: Data?) {
        let result = try self.decode(from: data)
        guard result.didRewrite else { return (result, nil) }
        let replacement = try self.encode(result.value)
        // Never replace readable data with bytes this migrator cannot read back.
        do {
            _ = try self.archiveDecoder.decode(Value.self, from: replacement)
        } catch {
            throw ArchiveStorageError(
                .encodingFailed,
                reason: "the migrated archive of \(Value.self) does not decode back",
                underlying: error
            )
        }
        return (result, replacement)
    }

    /// Runs ``upgrade``, or decodes `Value` directly when there is none.
    private func upgraded(_ source: MigrationSource) throws(ArchiveStorageError) -> Value {
        guard let upgrade = self.upgrade else { return try source.decode(Value.self) }
        do {
            return try upgrade(source)
        } catch let error as ArchiveStorageError {
            throw error
        } catch {
            throw ArchiveStorageError(
                .decodingFailed,
                reason: "the upgrade from \(source.format) failed",
                underlying: error
            )
        }
    }
}

/// The outcome of a migration: the value, where it came from, and whether it was rewritten.
public struct MigrationResult<Value> {
    /// The decoded, current value.
    public var value: Value
    /// The format the stored bytes were in.
    public var sourceFormat: StoredFormat
    /// Whether the stored bytes were (or, for ``ArchiveMigrator/decode(from:)``, would be)
    /// replaced by the current format; `false` when they were already current.
    public var didRewrite: Bool

    /// Creates a result.
    public init(value: Value, sourceFormat: StoredFormat, didRewrite: Bool) {
        self.value = value
        self.sourceFormat = sourceFormat
        self.didRewrite = didRewrite
    }
}

extension MigrationResult: Sendable where Value: Sendable {}
extension MigrationResult: Equatable where Value: Equatable {}
