//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-keyed-archive open source project
//
// Licensed under Apache License v2.0
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// An error thrown when property list bytes are malformed or exceed a limit.
///
/// Compare errors by ``code``; the offset, line and reason are diagnostics:
///
/// ```swift
/// #expect(throws: PropertyListError(.truncated)) { try PropertyListValue(parsing: bytes) }
/// ```
public struct PropertyListError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The kind of failure.
    public var code: Code
    /// The byte offset in the input where the failure was detected, when known.
    public var offset: Int?
    /// The 1-based line of an XML input where the failure was detected, when known.
    public var line: Int?
    /// A human-readable explanation.
    public var reason: String
    /// The source file that threw the error.
    public var file: String
    /// The source line that threw the error.
    public var sourceLine: UInt

    /// Creates an error.
    /// - Parameters:
    ///   - code: The kind of failure.
    ///   - offset: The byte offset in the input where the failure was detected.
    ///   - line: The 1-based line of an XML input.
    ///   - reason: A human-readable explanation.
    ///   - file: The source file that throws the error; defaults to the caller's.
    ///   - sourceLine: The source line that throws the error; defaults to the caller's.
    public init(
        _ code: Code,
        offset: Int? = nil,
        line: Int? = nil,
        reason: String = "",
        file: String = #fileID,
        sourceLine: UInt = #line
    ) {
        self.code = code
        self.offset = offset
        self.line = line
        self.reason = reason
        self.file = file
        self.sourceLine = sourceLine
    }

    /// Errors are equal when their codes are equal.
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.code == rhs.code
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(self.code)
    }

    /// A one-line summary: the code, where it happened, and why.
    public var description: String {
        var text = "PropertyListError.\(self.code)"
        if let line { text += " at line \(line)" }
        if let offset { text += self.line == nil ? " at byte \(offset)" : ", byte \(offset)" }
        if !self.reason.isEmpty { text += ": \(self.reason)" }
        return text
    }
}

extension PropertyListError {
    /// The kind of a ``PropertyListError``. New codes may be added in minor releases.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Base: String, Hashable, Sendable {
            case unknownFormat
            case truncated
            case invalidHeader
            case invalidTrailer
            case invalidOffset
            case invalidReference
            case invalidMarker
            case invalidLength
            case invalidInteger
            case invalidReal
            case invalidDate
            case invalidString
            case invalidData
            case invalidDictionaryKey
            case invalidUID
            case cyclicReference
            case depthLimitExceeded
            case sizeLimitExceeded
            case decodedSizeLimitExceeded
            case malformedXML
            case unexpectedElement
            case invalidEntity
            case unsupportedEncoding
            case trailingContent
        }

        private let base: Base
        private init(_ base: Base) { self.base = base }

        /// The bytes are neither a binary nor an XML property list.
        public static let unknownFormat = Code(.unknownFormat)
        /// The input ends before a structure it declares.
        public static let truncated = Code(.truncated)
        /// The binary header or the XML prolog is not a property list's.
        public static let invalidHeader = Code(.invalidHeader)
        /// A binary trailer field is out of range or inconsistent with the file size.
        public static let invalidTrailer = Code(.invalidTrailer)
        /// An entry of the binary offset table points outside the object area.
        public static let invalidOffset = Code(.invalidOffset)
        /// An object reference is not below the object count.
        public static let invalidReference = Code(.invalidReference)
        /// A binary object marker is unknown or not allowed in `bplist00`.
        public static let invalidMarker = Code(.invalidMarker)
        /// A declared count or length does not fit in the bytes that remain.
        public static let invalidLength = Code(.invalidLength)
        /// An integer is malformed or outside `Int64.min...UInt64.max`.
        public static let invalidInteger = Code(.invalidInteger)
        /// A real number is malformed.
        public static let invalidReal = Code(.invalidReal)
        /// A date is malformed.
        public static let invalidDate = Code(.invalidDate)
        /// A string's bytes are not valid in its declared encoding.
        public static let invalidString = Code(.invalidString)
        /// Base64 data in XML is malformed.
        public static let invalidData = Code(.invalidData)
        /// A dictionary key is not a string.
        public static let invalidDictionaryKey = Code(.invalidDictionaryKey)
        /// A UID is malformed.
        public static let invalidUID = Code(.invalidUID)
        /// A container contains itself through object references.
        public static let cyclicReference = Code(.cyclicReference)
        /// Containers nest deeper than the configured limit, or than the thread's stack has room for.
        public static let depthLimitExceeded = Code(.depthLimitExceeded)
        /// The input or a value in it is larger than the configured limit.
        public static let sizeLimitExceeded = Code(.sizeLimitExceeded)
        /// The values a binary property list describes, with shared values counted wherever they
        /// are referenced, exceed the decoded-size budget (see `PropertyListLimits`).
        public static let decodedSizeLimitExceeded = Code(.decodedSizeLimitExceeded)
        /// The XML is not well formed.
        public static let malformedXML = Code(.malformedXML)
        /// An XML element is not one a property list allows at that place.
        public static let unexpectedElement = Code(.unexpectedElement)
        /// An XML entity or character reference is unknown, external or invalid.
        public static let invalidEntity = Code(.invalidEntity)
        /// The XML declares an encoding other than UTF-8.
        public static let unsupportedEncoding = Code(.unsupportedEncoding)
        /// Content follows the end of the property list.
        public static let trailingContent = Code(.trailingContent)

        /// The code's name, such as `truncated`.
        public var description: String { self.base.rawValue }
    }
}
