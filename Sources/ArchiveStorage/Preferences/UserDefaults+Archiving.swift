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

extension UserDefaults {
    /// Stores a value as a keyed archive under `key`.
    ///
    /// The value is stored as `Data` holding an `NSKeyedArchiver`-compatible archive, so any
    /// `Codable` or `ArchiveCoding` type can be kept in the defaults, and so can arrays,
    /// dictionaries and optionals of them:
    ///
    /// ```swift
    /// try defaults.set(archiving: cat, forKey: "cat")
    /// try defaults.set(archiving: [cat, kitten], forKey: "cats")
    /// let cats = try defaults.archivedValue([Cat].self, forKey: "cats")
    /// ```
    ///
    /// To remove the value, call `removeObject(forKey:)`.
    /// - Parameters:
    ///   - value: The value to archive.
    ///   - key: The defaults key.
    ///   - schemaVersion: When set, the archive also carries this schema version in `$top`, in the
    ///     format ``ArchiveMigrator`` writes; reading takes it as the root's version. When `nil`
    ///     (the default), the archive is exactly what `KeyedArchiveEncoder` writes, and an
    ///     `ArchiveVersioned` value carries its type's version in its own object.
    ///   - encoder: The encoder: output format and class names.
    /// - Throws: ``ArchiveStorageError`` with ``ArchiveStorageError/Code/encodingFailed``, whose
    ///   ``ArchiveStorageError/underlying`` is the `EncodingError`. Nothing is stored then.
    public func set<Value: Encodable>(
        archiving value: Value,
        forKey key: String,
        schemaVersion: Int? = nil,
        encoder: KeyedArchiveEncoder = KeyedArchiveEncoder()
    ) throws(ArchiveStorageError) {
        let data: Data
        if let schemaVersion {
            do {
                data = try VersionedArchive.encode(value, schemaVersion: schemaVersion, encoder: encoder)
            } catch {
                var error = error
                error.key = key
                throw error
            }
        } else {
            do {
                data = try encoder.encode(value)
            } catch {
                throw ArchiveStorageError(
                    .encodingFailed,
                    key: key,
                    reason: "cannot archive \(Value.self)",
                    underlying: error
                )
            }
        }
        self.set(data, forKey: key)
    }

    /// Decodes the value archived under `key`.
    ///
    /// Reads archives stored by ``set(archiving:forKey:schemaVersion:encoder:)``, by
    /// ``ArchiveMigrator``, and by Apple's `NSKeyedArchiver` from `NSCoding` objects whose keys
    /// match the properties of `type`.
    /// - Parameters:
    ///   - type: The type to decode.
    ///   - key: The defaults key.
    ///   - decoder: The decoder: user info and limits.
    /// - Returns: The decoded value.
    /// - Throws: ``ArchiveStorageError`` with ``ArchiveStorageError/Code/valueNotFound`` if nothing is
    ///   stored under `key`, ``ArchiveStorageError/Code/typeMismatch`` if the stored object is not
    ///   `Data`, or ``ArchiveStorageError/Code/decodingFailed`` whose
    ///   ``ArchiveStorageError/underlying`` is the `DecodingError`.
    public func archivedValue<Value: Decodable>(
        _ type: Value.Type = Value.self,
        forKey key: String,
        decoder: KeyedArchiveDecoder = KeyedArchiveDecoder()
    ) throws(ArchiveStorageError) -> Value {
        guard let value = try self.archivedValueIfPresent(type, forKey: key, decoder: decoder) else {
            throw ArchiveStorageError(.valueNotFound, key: key, reason: "no value is stored")
        }
        return value
    }

    /// Decodes the value archived under `key`, or returns `nil` if nothing is stored there.
    ///
    /// Only absence gives `nil`: a stored object that is not an archive of `type` still throws,
    /// as ``archivedValue(_:forKey:decoder:)`` does.
    /// - Parameters:
    ///   - type: The type to decode.
    ///   - key: The defaults key.
    ///   - decoder: The decoder: user info and limits.
    /// - Returns: The decoded value, or `nil` if no object is stored under `key`.
    /// - Throws: ``ArchiveStorageError`` with ``ArchiveStorageError/Code/typeMismatch`` or
    ///   ``ArchiveStorageError/Code/decodingFailed``.
    public func archivedValueIfPresent<Value: Decodable>(
        _ type: Value.Type = Value.self,
        forKey key: String,
        decoder: KeyedArchiveDecoder = KeyedArchiveDecoder()
    ) throws(ArchiveStorageError) -> Value? {
        guard let data = try self.storedDataIfPresent(forKey: key) else { return nil }
        do {
            return try decoder.decode(type, from: data)
        } catch {
            throw ArchiveStorageError(
                .decodingFailed,
                key: key,
                reason: "cannot decode \(Value.self) from the stored archive",
                underlying: error
            )
        }
    }

    /// The `Data` stored under `key`.
    /// - Throws: ``ArchiveStorageError`` with ``ArchiveStorageError/Code/valueNotFound`` or
    ///   ``ArchiveStorageError/Code/typeMismatch``.
    internal func storedData(forKey key: String) throws(ArchiveStorageError) -> Data {
        guard let data = try self.storedDataIfPresent(forKey: key) else {
            throw ArchiveStorageError(.valueNotFound, key: key, reason: "no value is stored")
        }
        return data
    }

    /// The `Data` stored under `key`, or `nil` if no object is stored there.
    /// - Throws: ``ArchiveStorageError`` with ``ArchiveStorageError/Code/typeMismatch``.
    private func storedDataIfPresent(forKey key: String) throws(ArchiveStorageError) -> Data? {
        guard let object = self.object(forKey: key) else { return nil }
        guard let data = object as? Data else {
            throw ArchiveStorageError(
                .typeMismatch,
                key: key,
                reason: "the stored object is a \(type(of: object)), not Data"
            )
        }
        return data
    }
}
