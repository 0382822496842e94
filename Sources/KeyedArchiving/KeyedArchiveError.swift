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

/// An error thrown when a keyed archive's object graph is malformed.
///
/// Compare errors by ``code``; the UID, reason and underlying error are diagnostics. The Codable
/// layer wraps these in `DecodingError` with the coding path.
public struct KeyedArchiveError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The kind of failure.
    public var code: Code
    /// The object the failure concerns, when there is one.
    public var uid: UID?
    /// A human-readable explanation.
    public var reason: String
    /// The property list error beneath this one, for ``Code/malformedPropertyList``.
    public var underlying: PropertyListError?

    /// Creates an error.
    public init(_ code: Code, uid: UID? = nil, reason: String = "", underlying: PropertyListError? = nil) {
        self.code = code
        self.uid = uid
        self.reason = reason
        self.underlying = underlying
    }

    /// Errors are equal when their codes are equal.
    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.code == rhs.code }

    public func hash(into hasher: inout Hasher) { hasher.combine(self.code) }

    /// A one-line summary: the code, the object, and why.
    public var description: String {
        var text = "KeyedArchiveError.\(self.code)"
        if let uid { text += " at \(uid)" }
        if !self.reason.isEmpty { text += ": \(self.reason)" }
        if let underlying { text += " (\(underlying))" }
        return text
    }
}

extension KeyedArchiveError {
    /// The kind of a ``KeyedArchiveError``. New codes may be added in minor releases.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Base: String, Hashable, Sendable {
            case malformedPropertyList
            case notAnArchive
            case unsupportedArchiver
            case unsupportedVersion
            case invalidObjects
            case invalidTop
            case missingKey
            case invalidReference
            case missingClass
            case invalidClass
            case unexpectedObject
            case cyclicReference
            case depthLimitExceeded
            case outputLimitExceeded
            case decodedSizeLimitExceeded
            case classNotAllowed
            case classMismatch
            case typeVersionTooNew
        }

        private let base: Base
        private init(_ base: Base) { self.base = base }

        /// The bytes are not a well-formed property list; see ``KeyedArchiveError/underlying``.
        public static let malformedPropertyList = Code(.malformedPropertyList)
        /// The property list is not a dictionary with `$archiver`, `$version`, `$top` and `$objects`.
        public static let notAnArchive = Code(.notAnArchive)
        /// `$archiver` names an archiver other than `NSKeyedArchiver`.
        public static let unsupportedArchiver = Code(.unsupportedArchiver)
        /// `$version` is not 100000.
        public static let unsupportedVersion = Code(.unsupportedVersion)
        /// `$objects` is not an array starting with `$null`.
        public static let invalidObjects = Code(.invalidObjects)
        /// `$top` is not a dictionary whose values are UIDs or inline scalars.
        public static let invalidTop = Code(.invalidTop)
        /// A top-level key that was asked for is absent.
        public static let missingKey = Code(.missingKey)
        /// A UID is not an index of `$objects`.
        public static let invalidReference = Code(.invalidReference)
        /// An object dictionary has no `$class`.
        public static let missingClass = Code(.missingClass)
        /// A `$class` reference does not lead to a `$classname`/`$classes` dictionary.
        public static let invalidClass = Code(.invalidClass)
        /// An object does not have the shape its class or its use requires.
        public static let unexpectedObject = Code(.unexpectedObject)
        /// An object contains itself where a value cannot.
        public static let cyclicReference = Code(.cyclicReference)
        /// Objects nest deeper than the configured limit, or than the thread's stack has room for.
        public static let depthLimitExceeded = Code(.depthLimitExceeded)
        /// Writing the resolved graph would exceed the configured output size, as repeating shared
        /// objects can.
        public static let outputLimitExceeded = Code(.outputLimitExceeded)
        /// Resolving or decoding the graph would produce more than the decoded-size budget of
        /// `PropertyListLimits`, as a small archive whose objects are shared many times can.
        public static let decodedSizeLimitExceeded = Code(.decodedSizeLimitExceeded)
        /// An object's class is not in the allow-list the caller gave.
        public static let classNotAllowed = Code(.classNotAllowed)
        /// An object's class is not one the type being decoded declares with ``ArchivedClassNaming``.
        public static let classMismatch = Code(.classMismatch)
        /// A value was stored by a newer version of its type than the one decoding it (see
        /// ``ArchiveVersioned``); nothing of it is decoded.
        public static let typeVersionTooNew = Code(.typeVersionTooNew)

        /// The code's name, such as `invalidReference`.
        public var description: String { self.base.rawValue }
    }
}
