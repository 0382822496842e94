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

/// Encodes `Encodable` values as `NSKeyedArchiver` archives that Apple's `NSKeyedUnarchiver` reads.
///
/// The value becomes the root object (`$top` key `root`). A type that encodes with a keyed
/// container becomes an object of its own class, named after the type; arrays, sets and dictionaries
/// become `NSArray`, `NSSet` and `NSDictionary`; `Date`, `UUID` and `URL` become `NSDate`,
/// `NSUUID` and `NSURL`; equal strings, numbers and data are stored once, and so is a class
/// instance reachable several times. <doc:ArchiveFormat> has the full mapping.
///
/// Encoders and containers handed to `encode(to:)`, including the one `superEncoder()` returns,
/// may be stored and written to later in the same call: whatever they hold when encoding finishes
/// is archived. Writes made after ``encode(_:)`` returns are ignored.
///
/// Encoding works in tables and buffers that the next call in the process reuses, emptied, rather
/// than taking fresh memory: those of an archive of up to about a million objects and values are
/// kept until then (about 21 MB resident at most), those of a larger one (up to eight million)
/// for a tenth of a second.
///
/// ```swift
/// struct Cat: Codable {
///     var name: String
///     var lives: Int
/// }
///
/// var encoder = KeyedArchiveEncoder()
/// encoder.setClassName("MyApp.Cat", for: Cat.self)
/// let bytes = try encoder.encode(Cat(name: "Tom", lives: 9))
/// ```
public struct KeyedArchiveEncoder: Sendable {
    /// The property list format to produce. Defaults to `PropertyListFormat.binary`.
    public var outputFormat: PropertyListFormat = .binary
    /// Contextual information available to `encode(to:)` implementations through `Encoder/userInfo`.
    public var userInfo: [CodingUserInfoKey: any Sendable] = [:]
    /// Whether types conforming to ``ArchiveObjectEncodable`` write their objects themselves
    /// (the default), or every type goes through `encode(to:)`. The archives are the same.
    public var directArchiving: DirectArchiving = .enabled
    private var classNames: [ObjectIdentifier: String] = [:]

    /// Creates an encoder that writes binary archives with the default class names.
    public init() {}

    /// Archives values of a type under a class name, as `NSKeyedArchiver.setClassName(_:for:)` does.
    ///
    /// The name takes precedence over ``ArchivedClassNaming`` and over the type's Swift name, and
    /// applies wherever the type appears, including in the `$classes` chain of its subclasses.
    /// - Parameters:
    ///   - name: The class name to write to `$classname`.
    ///   - type: The Swift type.
    public mutating func setClassName(_ name: String, for type: Any.Type) {
        self.classNames[ObjectIdentifier(type)] = name
    }

    /// The class name set for a type with ``setClassName(_:for:)``, if any.
    /// - Parameter type: The Swift type.
    /// - Returns: The name, or `nil` if the type has no mapping.
    public func className(for type: Any.Type) -> String? {
        self.classNames[ObjectIdentifier(type)]
    }

    /// Encodes a value as a keyed archive in ``outputFormat``.
    /// - Parameter value: The root object.
    /// - Returns: The archive's bytes.
    /// - Throws: `EncodingError.invalidValue` with the coding path if a value cannot be archived
    ///   (such as an `Int128` beyond the range of property list integers), or whatever a value's
    ///   `encode(to:)` throws.
    public func encode<T: Encodable>(_ value: T) throws -> Data {
        guard self.outputFormat == .binary else {
            return try self.encodeArchive(value).serialized(as: self.outputFormat)
        }
        // Binary output is written straight from the session's object table, without the tree.
        return try self.withSession { session in
            let uid = try session.encodeObject(value)
            return try session.finishBinary(top: CollectionOfOne((key: "root", value: .uid(uid.rawValue))))
        }
    }

    /// Encodes a value as a keyed archive model, to inspect or extend before serializing.
    /// - Parameter value: The root object.
    /// - Returns: The archive, with the value under the top-level key `root`.
    /// - Throws: `EncodingError.invalidValue` with the coding path if a value cannot be archived, or
    ///   whatever a value's `encode(to:)` throws.
    public func encodeArchive<T: Encodable>(_ value: T) throws -> KeyedArchive {
        try self.withSession { session in
            let uid = try session.encodeObject(value)
            return try session.finish(top: [(key: "root", value: .uid(uid.rawValue))])
        }
    }

    /// Runs `body` with a session for one archive, recycled afterwards if `body` succeeds.
    private func withSession<R>(_ body: (ArchiveEncodingSession) throws -> R) throws -> R {
        let session = ArchiveEncodingSession.make(options: self.options)
        let result: R
        do {
            result = try body(session)
        } catch {
            // Encoders may be left mid-value: the session is not reused.
            session.close()
            throw error
        }
        session.recycle()
        return result
    }

    /// The options an encoding session runs with.
    internal var options: ArchiveEncodingSession.Options {
        ArchiveEncodingSession.Options(
            classNames: self.classNames,
            userInfo: self.userInfo,
            directArchiving: self.directArchiving
        )
    }
}
