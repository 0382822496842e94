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

/// An archived object graph resolved into a tree, for archives whose shape you do not know.
///
/// Foundation's value classes become Swift values (`NSString` → ``string(_:)``, `NSDate` →
/// ``date(_:)``, `NSArray` → ``array(_:className:)`` and so on); any other class becomes an
/// ``object(className:classes:fields:)`` with its keys unescaped. An object reached again while it
/// is still being resolved — a cycle — is a ``reference(_:)`` to its UID. Nothing is instantiated
/// from a class name.
///
/// ```swift
/// let value = try ArchivedValue(archive: KeyedArchive(parsing: bytes))
/// if case .object(let className, _, let fields) = value["root"] { print(className, fields) }
/// ```
public indirect enum ArchivedValue: Hashable, Sendable {
    /// `$null` or `NSNull`.
    case null
    /// A string (`NSString`, `NSMutableString`, or a plain string).
    case string(String)
    /// An integer.
    case integer(PropertyListInteger)
    /// A 64-bit real.
    case real(Double)
    /// A 32-bit real.
    case float(Float)
    /// A Boolean.
    case bool(Bool)
    /// Bytes (`NSData`, `NSMutableData`, or plain data).
    case data(Data)
    /// A date (`NSDate`, or a plain date).
    case date(Date)
    /// A UUID (`NSUUID`).
    case uuid(UUID)
    /// A URL (`NSURL`): its absolute string.
    case url(String)
    /// An array, set or ordered set, with its class name (`NSArray`, `NSMutableSet`, …).
    case array([ArchivedValue], className: String)
    /// A dictionary (`NSDictionary`, `NSMutableDictionary`), with its entries in archive order.
    case dictionary([Entry], className: String)
    /// An object of any other class: its name, its class chain and its keyed fields in archive order.
    case object(className: String, classes: [String], fields: [Field])
    /// A reference back to an object that contains it (a cycle), by UID.
    case reference(UID)
    /// The top level of an archive: each `$top` key and its value.
    case top([Field])

    /// One dictionary entry.
    public struct Entry: Hashable, Sendable {
        /// The key.
        public var key: ArchivedValue
        /// The value.
        public var value: ArchivedValue

        /// Creates an entry.
        public init(key: ArchivedValue, value: ArchivedValue) {
            self.key = key
            self.value = value
        }
    }

    /// One keyed field of an object, or one top-level key.
    public struct Field: Hashable, Sendable {
        /// The key, unescaped.
        public var key: String
        /// The value.
        public var value: ArchivedValue

        /// Creates a field.
        public init(key: String, value: ArchivedValue) {
            self.key = key
            self.value = value
        }
    }
}

extension ArchivedValue {
    /// Resolves every `$top` key of an archive.
    ///
    /// No class is instantiated, whatever the archive names. Pass `allowedClassNames` to accept
    /// only objects of those classes (plain strings, numbers, data and dates, which have no class,
    /// are always accepted): list the Foundation classes you expect too, for example with
    /// ``foundationClassNames``. See <doc:SecureDecoding>.
    ///
    /// A shared object appears in full at every place that holds it, so the result can describe a
    /// far larger tree than the archive; its decoded size is bounded by `limits` (see
    /// `PropertyListLimits`), which makes walking it, comparing it or printing it safe.
    /// - Parameters:
    ///   - archive: The archive.
    ///   - limits: Bounds on nesting and on the decoded size.
    ///   - allowedClassNames: The class names accepted, or `nil` (the default) to accept every class.
    /// - Throws: ``KeyedArchiveError`` if a reference, class or object is malformed;
    ///   ``KeyedArchiveError/Code/classNotAllowed`` for an object whose class is not allowed,
    ///   with its UID; ``KeyedArchiveError/Code/decodedSizeLimitExceeded`` if the tree is too large.
    /// - Complexity: O(*n*) in the number of objects reachable from `$top`, however often they are shared.
    public init(
        archive: KeyedArchive,
        limits: PropertyListLimits = .default,
        allowedClassNames: Set<String>? = nil
    ) throws(KeyedArchiveError) {
        var resolver = ArchiveResolver(archive: archive, limits: limits, allowedClassNames: allowedClassNames)
        var fields: [Field] = []
        fields.reserveCapacity(archive.top.count)
        for entry in archive.top {
            fields.append(Field(key: entry.key, value: try resolver.resolveTopValue(entry.value)))
        }
        try resolver.checkDecodedSize()
        self = .top(fields)
    }

    /// The classes whose objects resolve to plain values, arrays and dictionaries: `NSString`,
    /// `NSData`, `NSDate`, `NSUUID`, `NSURL`, `NSNull`, `NSNumber` and the collection classes with their
    /// mutable variants. Add your own classes to this set to build an allow-list.
    public static let foundationClassNames: Set<String> = [
        "NSString", "NSMutableString", "NSData", "NSMutableData", "NSDate", "NSUUID", "NSURL", "NSNull",
        "NSNumber", "NSArray", "NSMutableArray", "NSSet", "NSMutableSet", "NSCountedSet", "NSOrderedSet",
        "NSMutableOrderedSet", "NSDictionary", "NSMutableDictionary",
    ]

    /// The value of a field, a top-level key, or a string-keyed dictionary entry.
    public subscript(key: String) -> ArchivedValue? {
        switch self {
        case .object(_, _, let fields), .top(let fields):
            return fields.first { $0.key == key }?.value
        case .dictionary(let entries, _):
            return entries.first { $0.key == .string(key) }?.value
        default:
            return nil
        }
    }

    /// The element at `index` of an array, set or ordered set.
    public subscript(index: Int) -> ArchivedValue? {
        guard case .array(let elements, _) = self, elements.indices.contains(index) else { return nil }
        return elements[index]
    }

    /// The class name of an archived object, or `nil` for plain values.
    public var className: String? {
        switch self {
        case .array(_, let name), .dictionary(_, let name), .object(let name, _, _): return name
        default: return nil
        }
    }
}
