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

/// Archives several values under top-level keys in one archive, as `NSKeyedArchiver` does with
/// `encode(_:forKey:)` and `finishEncoding()`.
///
/// A class instance reachable from several of the values is stored once, so it decodes into one
/// instance with ``KeyedUnarchiver``.
///
/// ```swift
/// let archiver = KeyedArchiver()
/// try archiver.encode(cat, forKey: "cat")
/// try archiver.encode(dog, forKey: "dog")
/// let data = try archiver.finishEncoding()
/// ```
public final class KeyedArchiver {
    /// The property list format ``finishEncoding()`` produces.
    public var outputFormat: PropertyListFormat
    private let session: ArchiveEncodingSession
    /// The top-level keys and their values: UIDs of objects, or scalars stored inline.
    private var top: [(key: String, value: ArchiveEncodingTable.Value)] = []
    private var generatedKeyCount = 0
    private var isFinished = false

    /// Creates an archiver with an encoder's settings: output format, class names and user info.
    public init(encoder: KeyedArchiveEncoder = KeyedArchiveEncoder()) {
        self.outputFormat = encoder.outputFormat
        self.session = ArchiveEncodingSession(options: encoder.options)
    }

    /// The top-level keys encoded so far, in order.
    public var keys: [String] { self.top.map(\.key) }

    /// Archives `value` under `key`; a key used twice keeps the last value.
    ///
    /// A number or Boolean is stored inline in `$top`, as `NSKeyedArchiver`'s `encode(_:forKey:)`
    /// stores scalars; anything else becomes an object. Keys starting with `$` are escaped as inside objects, so they cannot collide with the keys
    /// ``encode(_:)`` generates.
    /// - Throws: `EncodingError` if the value cannot be encoded or the archiver is finished.
    public func encode<T: Encodable>(_ value: T, forKey key: String) throws {
        try self.store(value, as: KeyedArchive.escapedKey(key), inlineScalars: true)
    }

    /// Archives `value` under the next generated key: `$0`, `$1`, and so on. Like
    /// `NSKeyedArchiver`'s `encode(_:)`, it stores even a number as an object.
    /// - Throws: `EncodingError` if the value cannot be encoded or the archiver is finished.
    public func encode<T: Encodable>(_ value: T) throws {
        let key = ArchiveFormatKey.generatedKey(at: self.generatedKeyCount)
        self.generatedKeyCount += 1
        try self.store(value, as: key, inlineScalars: false)
    }

    /// Archives `value` as the root object, under the key `root` that ``KeyedArchiveDecoder`` and
    /// `NSKeyedUnarchiver.decodeObject(forKey: NSKeyedArchiveRootObjectKey)` read.
    /// - Throws: `EncodingError` if the value cannot be encoded or the archiver is finished.
    public func encodeRootObject<T: Encodable>(_ value: T) throws {
        try self.store(value, as: "root", inlineScalars: false)
    }

    /// Completes the archive and returns it as property list bytes in ``outputFormat``.
    /// - Throws: `EncodingError` if an escaped encoder was misused, or the archiver is already finished.
    public func finishEncoding() throws -> Data {
        guard self.outputFormat == .binary else { return try self.finishArchive().serialized(as: self.outputFormat) }
        // Binary output is written straight from the encoder's object table, without a tree.
        try self.checkNotFinished(key: nil)
        self.isFinished = true
        defer { self.session.close() }
        return try self.session.finishBinary(top: self.top)
    }

    /// Completes the archive and returns it as an archive model.
    /// - Throws: `EncodingError` if an escaped encoder was misused, or the archiver is already finished.
    public func finishArchive() throws -> KeyedArchive {
        try self.checkNotFinished(key: nil)
        self.isFinished = true
        defer { self.session.close() }
        return try self.session.finish(top: self.top)
    }

    /// Encodes `value` under a stored top-level key: inline if `inlineScalars` and it is a scalar.
    private func store<T: Encodable>(_ value: T, as key: String, inlineScalars: Bool) throws {
        try self.checkNotFinished(key: key)
        let codingPath = [ArchiveCodingKey(stringValue: key)]
        let stored: ArchiveEncodingTable.Value =
            if inlineScalars {
                try self.session.encodeTopLevel(value, codingPath: codingPath)
            } else {
                .uid(try self.session.encodeObject(value, codingPath: codingPath).rawValue)
            }
        if let index = self.top.firstIndex(where: { $0.key == key }) {
            self.top[index].value = stored
        } else {
            self.top.append((key, stored))
        }
    }

    private func checkNotFinished(key: String?) throws {
        guard !self.isFinished else {
            throw EncodingError.invalidValue(
                key as Any,
                EncodingError.Context(
                    codingPath: key.map { [ArchiveCodingKey(stringValue: $0)] } ?? [],
                    debugDescription: "The archiver has already finished encoding."
                )
            )
        }
    }

    deinit {
        self.session.close()
    }
}

@available(*, unavailable, message: "A KeyedArchiver collects one archive on one thread.")
extension KeyedArchiver: Sendable {}
