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
import KeyedArchiving
public import PropertyLists

/// Stored bytes whose format has been recognised, ready to decode into any type.
///
/// ``ArchiveMigrator`` reads stored bytes into a source and hands it to its upgrade closure, which
/// decodes an older model type and converts it:
///
/// ```swift
/// let source = try MigrationSource(recognizing: bytes)
/// print(source.format)                       // keyed archive (binary)
/// let cat = try source.decode(LegacyCat.self)
/// ```
public struct MigrationSource: Sendable {
    /// The format the bytes are in.
    public let format: StoredFormat
    /// The schema version the bytes carry, or `nil` for formats without one.
    public var schemaVersion: Int? {
        if case .versionedArchive(let version, _) = self.format { return version }
        return nil
    }

    private let content: Content
    /// The decoders each format is read with.
    internal var decoders: Decoders

    /// What is decoded: the parsed archive, or the property list or JSON bytes.
    private enum Content: Sendable {
        case archive(KeyedArchive)
        case propertyList(Data)
        case json(Data)
    }

    /// The decoders a source reads its content with.
    internal struct Decoders: Sendable {
        var archive = KeyedArchiveDecoder()
        var propertyList = PropertyListDecoder()
        var json = JSONDecoder()
    }

    /// Recognises the format of stored bytes.
    ///
    /// - Parameters:
    ///   - data: The stored bytes: a keyed archive, a property list or JSON.
    ///   - limits: Bounds for reading property lists, also applied to a property list nested in an
    ///     archive.
    /// - Throws: ``ArchiveStorageError`` with ``ArchiveStorageError/Code/unrecognizedFormat`` if the
    ///   bytes are in none of the formats of ``StoredFormat``, or
    ///   ``ArchiveStorageError/Code/corruptEntry`` if they claim to be a binary property list or a
    ///   keyed archive but are malformed.
    public init(recognizing data: some DataProtocol, limits: PropertyListLimits = .default) throws(ArchiveStorageError)
    {
        self.decoders = Decoders()
        self.decoders.archive.limits = limits
        let bytes = Data(data)
        guard let plistFormat = PropertyListFormat(detecting: bytes.prefix(64)) else {
            guard Self.isJSON(bytes) else {
                throw ArchiveStorageError(
                    .unrecognizedFormat,
                    reason: "neither a property list, a keyed archive nor JSON"
                )
            }
            (self.format, self.content) = (.json, .json(bytes))
            return
        }
        let propertyList: PropertyListValue
        do {
            propertyList = try PropertyListValue(parsing: bytes, limits: limits)
        } catch {
            throw ArchiveStorageError(
                plistFormat == .binary ? .corruptEntry : .unrecognizedFormat,
                reason: plistFormat == .binary ? "malformed binary property list" : "not an XML property list",
                underlying: error
            )
        }
        let archive: KeyedArchive
        do {
            guard let detected = try KeyedArchive(detecting: propertyList) else {
                (self.format, self.content) = (.propertyList(plistFormat), .propertyList(bytes))
                return
            }
            archive = detected
        } catch {
            throw ArchiveStorageError(.corruptEntry, reason: "malformed keyed archive", underlying: error)
        }
        if let version = VersionedArchive.schemaVersion(of: archive) {
            self.format = .versionedArchive(schemaVersion: version, propertyListFormat: plistFormat)
        } else if let inner = Self.nestedPropertyList(in: archive, limits: limits) {
            (self.format, self.content) = (.archivedPropertyList(inner.format), .propertyList(inner.bytes))
            return
        } else {
            self.format = .keyedArchive(plistFormat)
        }
        self.content = .archive(archive)
    }

    /// Decodes the stored value as `type`.
    ///
    /// Keyed archives decode with `KeyedArchiveDecoder` (from the root object), property lists with
    /// `PropertyListDecoder` and JSON with `JSONDecoder`.
    /// - Parameter type: The type to decode, current or legacy.
    /// - Returns: The decoded value.
    /// - Throws: ``ArchiveStorageError`` with ``ArchiveStorageError/Code/decodingFailed`` whose
    ///   ``ArchiveStorageError/underlying`` is the decoder's error, usually a `DecodingError`.
    public func decode<T: Decodable>(_ type: T.Type = T.self) throws(ArchiveStorageError) -> T {
        do {
            switch self.content {
            case .archive(let archive): return try self.decoders.archive.decode(type, from: archive)
            case .propertyList(let bytes): return try self.decoders.propertyList.decode(type, from: bytes)
            case .json(let bytes): return try self.decoders.json.decode(type, from: bytes)
            }
        } catch {
            throw ArchiveStorageError(
                .decodingFailed,
                reason: "cannot decode \(T.self) from \(self.format)",
                underlying: error
            )
        }
    }

    /// The property list inside an archive whose root object is `NSData` or `NSMutableData`, if
    /// the data is a property list and not itself a keyed archive.
    private static func nestedPropertyList(
        in archive: KeyedArchive,
        limits: PropertyListLimits
    ) -> (bytes: Data, format: PropertyListFormat)? {
        guard let uid = archive.topUID(forKey: "root") ?? (archive.top.count == 1 ? archive.top.first?.uid : nil),
            let object = try? archive.object(for: uid)
        else { return nil }
        let bytes: Data
        switch object {
        case .data(let data):
            bytes = data
        case .dictionary(let dictionary):
            guard (try? archive.archivedClass(of: object))?.isKind(of: "NSData") == true,
                case .data(let data)? = dictionary[ArchiveFormatKey.nsData.string]
            else { return nil }
            bytes = data
        default:
            return nil
        }
        guard let format = PropertyListFormat(detecting: bytes.prefix(64)),
            let inner = try? PropertyListValue(parsing: bytes, limits: limits)
        else { return nil }
        if case .dictionary(let dictionary) = inner, dictionary[ArchiveFormatKey.archiver.string] != nil { return nil }
        return (bytes, format)
    }

    /// Whether `bytes` are one well-formed JSON document (a fragment such as `42` included).
    private static func isJSON(_ bytes: Data) -> Bool {
        guard let first = bytes.first(where: { !($0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D) }),
            first == UInt8(ascii: "{") || first == UInt8(ascii: "[") || first == UInt8(ascii: "\"")
                || first == UInt8(ascii: "-") || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first)
                || first == UInt8(ascii: "t") || first == UInt8(ascii: "f") || first == UInt8(ascii: "n")
        else { return false }
        return (try? JSONSerialization.jsonObject(with: bytes, options: .fragmentsAllowed)) != nil
    }
}
