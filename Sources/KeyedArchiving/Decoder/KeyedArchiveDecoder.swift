//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-keyed-archive open source project
//
// Licensed under Apache License v2.0
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

public import PropertyLists

#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

/// Decodes `Decodable` values from `NSKeyedArchiver` archives, binary or XML.
///
/// The decoder reads every form Foundation writes (see <doc:ArchiveFormat>): plain and `NSString`
/// strings, `NSData`, numbers, `NSDate`, `NSUUID`, `NSURL`, arrays and sets of every kind, and
/// `NSDictionary`. A struct decodes from any object whose keys match its properties, whatever the
/// object's class. A class instance that several objects refer to is decoded once and shared.
///
/// ```swift
/// struct Cat: Decodable { var name: String; var lives: Int }
/// let cat = try KeyedArchiveDecoder().decode(Cat.self, from: archiveBytes)
/// ```
public struct KeyedArchiveDecoder: Sendable {
    /// Values the decoded types can read through `Decoder.userInfo`.
    public var userInfo: [CodingUserInfoKey: any Sendable] = [:]

    /// Bounds for reading the property list; `PropertyListLimits.maximumDepth` also bounds how
    /// deeply decoded objects and containers nest, and the decoded-size budget bounds the total
    /// work, counting a shared object each time it is decoded again (a struct, unlike a class
    /// instance, is decoded at every reference). Past the budget, decoding throws
    /// `DecodingError.dataCorrupted` wrapping ``KeyedArchiveError/Code/decodedSizeLimitExceeded``.
    /// See <doc:SecureDecoding>.
    public var limits: PropertyListLimits = .default

    /// Whether types conforming to ``ArchiveObjectDecodable`` read their objects themselves (the
    /// default), or every type goes through `init(from:)`. The values and errors are the same.
    public var directArchiving: DirectArchiving = .enabled

    /// Creates a decoder with default options.
    public init() {}

    /// Decodes the root object of an archive.
    ///
    /// The root is the object under the `$top` key `root`; an archive without `root` but with exactly
    /// one top-level key decodes the object under that key. An integer `schemaVersion` beside it in
    /// `$top` (as `ArchiveMigrator` writes it) is the root's version for an ``ArchiveVersioned``
    /// type whose object carries none. A binary archive is read in place: no
    /// tree of the property list is built, and only the objects the value reaches are read.
    /// - Parameters:
    ///   - type: The type to decode.
    ///   - data: A binary or XML property list holding a keyed archive.
    /// - Returns: The decoded value.
    /// - Throws: `DecodingError`. When the bytes are not a keyed archive, it is
    ///   `DecodingError.dataCorrupted` whose `underlyingError` is a ``KeyedArchiveError``.
    public func decode<T: Decodable>(_ type: T.Type = T.self, from data: some DataProtocol) throws -> T {
        do throws(any Error) {
            // Contiguous bytes are read in place, without a copy of the archive.
            let options = self.options
            if let value = try data.withContiguousStorageIfAvailable({ buffer in
                try Self.decode(type, borrowing: buffer, options: options)
            }) {
                return value
            }
            return try ArchiveDecoderPool.shared.withDecoder(options: options) { kept throws(KeyedArchiveError) in
                try ArchiveDecodingSession.list(copying: data, limits: options.limits, into: kept)
            } _: { decoder in
                try decoder.decodeRoot(type)
            }
        } catch {
            throw Self.reportedError(error, reading: data, limits: self.limits)
        }
    }

    /// Decodes the root object of an archive read in place from `buffer`. Whatever still refers to
    /// the session afterwards (a decoder a value kept) gets a copy of the bytes first (see
    /// ``ArchiveDecoderPool/recycle(_:)``).
    private static func decode<T: Decodable>(
        _ type: T.Type,
        borrowing buffer: UnsafeBufferPointer<UInt8>,
        options: Options
    ) throws -> T {
        try ArchiveDecoderPool.shared.withDecoder(options: options) { kept throws(KeyedArchiveError) in
            try ArchiveDecodingSession.list(borrowing: buffer, limits: options.limits, into: kept)
        } _: { decoder in
            try decoder.decodeRoot(type)
        }
    }

    /// Decodes the root object of an archive that has already been read.
    /// - Parameters:
    ///   - type: The type to decode.
    ///   - archive: The archive.
    /// - Returns: The decoded value.
    /// - Throws: `DecodingError`; `keyNotFound` when the archive has no root object.
    public func decode<T: Decodable>(_ type: T.Type = T.self, from archive: KeyedArchive) throws -> T {
        do throws(any Error) {
            let options = self.options
            return try ArchiveDecoderPool.shared.withDecoder(options: options) { kept throws(KeyedArchiveError) in
                try ArchiveDecodingSession.list(archive: archive, limits: options.limits, into: kept)
            } _: { decoder in
                try decoder.decodeRoot(type)
            }
        } catch let error as KeyedArchiveError {
            throw DecodingError.archiveUnreadable(error)
        }
    }

    /// Decodes the object under one `$top` key, such as `"$0"` in archives written with
    /// `encode(_:)` and no key.
    /// - Parameters:
    ///   - type: The type to decode.
    ///   - key: The top-level key.
    ///   - archive: The archive.
    /// - Returns: The decoded value.
    /// - Throws: `DecodingError`; `keyNotFound` when `key` is not a top-level key.
    public func decode<T: Decodable>(
        _ type: T.Type = T.self,
        forKey key: String,
        from archive: KeyedArchive
    ) throws -> T {
        guard archive.topValue(forKey: key) != nil else {
            throw DecodingError.archiveMissingTopKey(key, available: archive.top.map(\.key))
        }
        do throws(any Error) {
            let options = self.options
            return try ArchiveDecoderPool.shared.withDecoder(options: options) { kept throws(KeyedArchiveError) in
                try ArchiveDecodingSession.list(archive: archive, limits: options.limits, into: kept)
            } _: { decoder in
                guard let stored = try decoder.session.topValue(forKey: key) else {
                    throw DecodingError.archiveMissingTopKey(key, available: archive.top.map(\.key))
                }
                return try decoder.decodeTopLevel(type, stored: stored)
            }
        } catch let error as KeyedArchiveError {
            throw DecodingError.archiveUnreadable(error)
        }
    }

    /// The options a decoding session runs with.
    internal var options: Options {
        Options(userInfo: self.userInfo, limits: self.limits, directArchiving: self.directArchiving)
    }

    /// Reads an archive, turning format errors into `DecodingError.dataCorrupted`.
    internal static func archive(from data: some DataProtocol, limits: PropertyListLimits) throws -> KeyedArchive {
        do {
            return try KeyedArchive(parsing: data, limits: limits)
        } catch {
            throw DecodingError.archiveUnreadable(error)
        }
    }

    /// The error to report for a decoding that failed with `error`.
    ///
    /// Decoding in place reads only the objects it reaches, in the order it reaches them, so the
    /// first fault it meets is not always the one reading the whole archive finds first. On failure
    /// the archive is read whole: if that fails, its error is reported, as it would be had the
    /// archive been read before decoding; otherwise the decoding's own error is.
    @inline(never)
    internal static func reportedError(
        _ error: any Error,
        reading data: some DataProtocol,
        limits: PropertyListLimits
    ) -> any Error {
        do {
            _ = try KeyedArchive(parsing: data, limits: limits)
        } catch {
            return DecodingError.archiveUnreadable(error)
        }
        if let error = error as? KeyedArchiveError { return DecodingError.archiveUnreadable(error) }
        return error
    }
}

extension KeyedArchiveDecoder {
    /// The settings of one decoding run.
    internal struct Options {
        var userInfo: [CodingUserInfoKey: any Sendable]
        var limits: PropertyListLimits
        var directArchiving: DirectArchiving = .enabled
    }
}
