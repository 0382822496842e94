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

/// Decodes values stored under top-level keys of one archive, as `NSKeyedUnarchiver` does with
/// `decodeObject(forKey:)`.
///
/// All values decoded through one unarchiver share their class instances: an object stored once
/// and reachable from several keys decodes into one instance.
///
/// ```swift
/// let unarchiver = try KeyedUnarchiver(data: data)
/// let cat = try unarchiver.decode(Cat.self, forKey: "cat")
/// let dog: Dog = try unarchiver.decode(forKey: "dog")
/// ```
public final class KeyedUnarchiver {
    /// The archive being read.
    public let archive: KeyedArchive
    /// The decoder of the archive's top level, which holds the decoding state, or why the
    /// archive cannot be decoded. Each value is decoded by a decoder of its own over the same
    /// session, so that a value may decode another of the archive's while it is decoded.
    private var topLevel: Result<_ArchiveDecoder, KeyedArchiveError>?

    /// Reads an archive from binary or XML property list bytes.
    /// - Parameters:
    ///   - data: The archive.
    ///   - decoder: The settings to decode with: user info and limits.
    /// - Throws: `DecodingError.dataCorrupted` whose underlying error is a ``KeyedArchiveError`` if
    ///   the bytes are not a keyed archive.
    public convenience init(data: some DataProtocol, decoder: KeyedArchiveDecoder = KeyedArchiveDecoder()) throws {
        self.init(archive: try KeyedArchiveDecoder.archive(from: data, limits: decoder.limits), decoder: decoder)
    }

    /// Decodes from an archive that has already been read.
    public init(archive: KeyedArchive, decoder: KeyedArchiveDecoder = KeyedArchiveDecoder()) {
        self.archive = archive
        let options = decoder.options
        do throws(KeyedArchiveError) {
            self.topLevel = .success(
                try ArchiveDecoderPool.shared.decoder(options: options) { kept throws(KeyedArchiveError) in
                    try ArchiveDecodingSession.list(archive: archive, limits: options.limits, into: kept)
                }
            )
        } catch {
            self.topLevel = .failure(error)
        }
    }

    deinit {
        if case .success(let decoder) = self.topLevel.take() {
            ArchiveDecoderPool.shared.recycle(consume decoder)
        }
    }

    /// The top-level keys, unescaped, in archive order.
    public var allKeys: [String] {
        self.archive.top.map { KeyedArchive.unescapedKey($0.key) ?? $0.key }
    }

    /// Whether the archive has a value under `key`.
    public func containsValue(forKey key: String) -> Bool {
        self.archive.topValue(forKey: KeyedArchive.escapedKey(key)) != nil
    }

    /// Decodes the value stored under `key` with ``KeyedArchiver/encode(_:forKey:)`` or
    /// `NSKeyedArchiver.encode(_:forKey:)`, including the integers, reals and Booleans Foundation
    /// stores inline in `$top`.
    /// - Throws: `DecodingError.keyNotFound` if there is no such key, or any `DecodingError` the value raises.
    public func decode<T: Decodable>(_ type: T.Type = T.self, forKey key: String) throws -> T {
        try self.decode(type, storedAs: KeyedArchive.escapedKey(key))
    }

    /// Decodes the `index`th value stored without a key (top-level key `$index`).
    /// - Throws: `DecodingError.keyNotFound` if there is no such key, or any `DecodingError` the value raises.
    public func decode<T: Decodable>(_ type: T.Type = T.self, at index: Int) throws -> T {
        try self.decode(type, storedAs: ArchiveFormatKey.generatedKey(at: index))
    }

    /// Decodes the root object (top-level key `root`).
    /// - Throws: `DecodingError.keyNotFound` if there is no root, or any `DecodingError` the value raises.
    public func decodeRootObject<T: Decodable>(_ type: T.Type = T.self) throws -> T {
        try self.decode(type, storedAs: "root")
    }

    private func decode<T: Decodable>(_ type: T.Type, storedAs key: String) throws -> T {
        guard self.archive.topValue(forKey: key) != nil else {
            throw DecodingError.archiveMissingTopKey(key, available: self.archive.top.map(\.key))
        }
        do throws(any Error) {
            guard let session = try self.topLevel?.get().session else {
                throw KeyedArchiveError(.malformedPropertyList, reason: "the unarchiver has no archive")
            }
            guard let stored = try session.topValue(forKey: key) else {
                throw DecodingError.archiveMissingTopKey(key, available: self.archive.top.map(\.key))
            }
            return try _ArchiveDecoder(topLevelOf: session).decodeTopLevel(
                type,
                stored: stored,
                codingPath: CodingPathNode.root.appending(ArchiveCodingKey(stringValue: key))
            )
        } catch let error as KeyedArchiveError {
            throw DecodingError.archiveUnreadable(error)
        }
    }
}

@available(*, unavailable, message: "A KeyedUnarchiver keeps per-archive state for one thread.")
extension KeyedUnarchiver: Sendable {}
