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
import FoundationEssentials
#else
import Foundation
#endif

/// Reads XML property lists (Apple's `PropertyList-1.0.dtd` format) into ``PropertyListValue``s.
///
/// The reader is a hand-written, single-pass scanner over the bytes; it does not use an XML
/// parser library. It treats input as hostile:
///
/// - The document must be UTF-8 (a byte order mark is allowed). A declaration naming another
///   encoding fails with ``PropertyListError/Code/unsupportedEncoding``.
/// - A `<!DOCTYPE>` is skipped, internal subset included, and never interpreted: external DTDs
///   and entities are never fetched, and only the five predefined entities and character
///   references are known.
/// - Nesting deeper than ``PropertyListLimits/maximumDepth`` fails with
///   ``PropertyListError/Code/depthLimitExceeded``. Containers are tracked on an explicit stack,
///   so the native stack does not grow with the input.
/// - Nothing is allocated from a size the input declares. The number of values, the length of
///   each string and data value and the size of each container are checked against
///   ``limits`` as they are read (``PropertyListError/Code/sizeLimitExceeded``). XML cannot share
///   a value between places, so its decoded size is bounded by its own size.
///
/// It reads what CoreFoundation writes and accepts, including a bare value without `<plist>`,
/// hexadecimal integers, `nan` and `infinity` reals, and `CF$UID` dictionaries, which become
/// ``PropertyListValue/uid(_:)``:
///
/// ```swift
/// let value = try XMLPropertyListReader().read(Array(xml.utf8))
/// ```
public struct XMLPropertyListReader: Sendable {
    /// The bounds to enforce while reading.
    public var limits: PropertyListLimits

    /// Creates a reader.
    /// - Parameter limits: The bounds to enforce while reading.
    public init(limits: PropertyListLimits = .default) {
        self.limits = limits
    }

    /// Reads a whole XML property list.
    ///
    /// - Parameter bytes: The document, in UTF-8.
    /// - Returns: The property list's single top-level value.
    /// - Throws: ``PropertyListError`` with the byte offset and line of the first problem, if the
    ///   bytes are not a well-formed XML property list or exceed ``limits``.
    /// - Complexity: O(*n*) in the size of the input.
    public func read(_ bytes: [UInt8]) throws(PropertyListError) -> PropertyListValue {
        guard bytes.count <= self.limits.maximumInputSize else {
            throw PropertyListError(
                .sizeLimitExceeded,
                offset: 0,
                line: 1,
                reason: "input of \(bytes.count) bytes exceeds the limit of \(self.limits.maximumInputSize)"
            )
        }
        return try bytes.withUnsafeBufferPointer { (buffer) throws(PropertyListError) -> PropertyListValue in
            var parser = XMLPropertyListParser(buffer, limits: self.limits)
            return try parser.parseDocument()
        }
    }
}

/// An array or dictionary whose end tag has not been read yet. Its children so far are the
/// parser's `elements` or `entries` from `start` on.
private struct XMLOpenContainer {
    var isDictionary: Bool
    var offset: Int
    var start: Int
}

/// A dictionary's `<key>` whose value has not been read yet.
private struct XMLPendingKey {
    var key: String
    var fingerprint: UInt64
    var offset: Int
}

/// The state of one ``XMLPropertyListReader/read(_:)`` call.
private struct XMLPropertyListParser: ~Copyable {
    var scanner: XMLScanner
    let limits: PropertyListLimits
    var scratch: [UInt8] = []
    /// Room to decode `<data>` into.
    private var decoded: [UInt8] = []
    /// The children of the open arrays, innermost last.
    private var elements = XMLChildStack<PropertyListValue>()
    /// The entries of the open dictionaries, innermost last, and their keys' fingerprints.
    private var entries = XMLChildStack<PropertyListDictionary.StoredEntry>()
    private var fingerprints = XMLChildStack<UInt64>()
    private var keys = XMLKeyCache()
    /// The number of values read so far, for ``PropertyListLimits/maximumObjectCount``.
    private var valueCount = 0

    init(_ bytes: UnsafeBufferPointer<UInt8>, limits: PropertyListLimits) {
        self.scanner = XMLScanner(bytes)
        self.limits = limits
    }

    // MARK: Document

    mutating func parseDocument() throws(PropertyListError) -> PropertyListValue {
        if let invalid = XMLUTF8Validator.firstInvalidOffset(in: self.scanner.bytes) {
            throw self.scanner.error(.invalidString, at: invalid, "the document is not valid UTF-8")
        }
        if self.scanner.hasPrefix("\u{FEFF}", at: 0) { self.scanner.position = 3 }
        try self.parseProlog()
        let root = try self.scanner.readStartTag()
        let value: PropertyListValue
        if root.element == .plist {
            guard !root.isEmpty else {
                throw self.scanner.error(.malformedXML, at: root.offset, "<plist/> has no value")
            }
            try self.scanner.skipMisc()
            guard !self.scanner.hasPrefix("</", at: self.scanner.position) else {
                throw self.scanner.error(.malformedXML, at: self.scanner.position, "<plist> has no value")
            }
            value = try self.parseValue(startingWith: try self.readChildStartTag(inside: root))
            try self.scanner.skipMisc()
            guard self.scanner.hasPrefix("</", at: self.scanner.position) else {
                if self.scanner.isAtEnd { throw self.scanner.truncated("<plist>", startedAt: root.offset) }
                throw self.scanner.error(.malformedXML, at: self.scanner.position, "<plist> holds more than one value")
            }
            try self.scanner.consumeEndTag(.plist, openedAt: root.offset)
        } else {
            value = try self.parseValue(startingWith: root)
        }
        try self.scanner.skipMisc()
        guard self.scanner.isAtEnd else {
            throw self.scanner.error(.trailingContent, at: self.scanner.position, "content after the property list")
        }
        return value
    }

    /// Reads the XML declaration, comments, processing instructions and the document type, and
    /// stops at the root element's `<`.
    private mutating func parseProlog() throws(PropertyListError) {
        self.scanner.skipWhitespace()
        if self.scanner.hasPrefix("<?xml", at: self.scanner.position),
            self.scanner.position + 5 < self.scanner.bytes.count,
            XMLScanner.isWhitespace(self.scanner.bytes[self.scanner.position + 5])
                || self.scanner.bytes[self.scanner.position + 5] == UInt8(ascii: "?")
        {
            try self.parseDeclaration()
        }
        var sawDocumentType = false
        while true {
            try self.scanner.skipMisc()
            guard !self.scanner.isAtEnd else {
                throw self.scanner.error(.truncated, at: self.scanner.position, "the document has no root element")
            }
            let position = self.scanner.position
            guard self.scanner.bytes[position] == UInt8(ascii: "<") else {
                throw self.scanner.error(.malformedXML, at: position, "text before the root element")
            }
            guard self.scanner.hasPrefix("<!DOCTYPE", at: position) else {
                if self.scanner.hasPrefix("<!", at: position) {
                    throw self.scanner.error(.malformedXML, at: position, "unexpected markup before the root element")
                }
                return
            }
            guard !sawDocumentType else {
                throw self.scanner.error(.invalidHeader, at: position, "a second <!DOCTYPE>")
            }
            sawDocumentType = true
            try self.scanner.skipDocumentType()
        }
    }

    /// Reads `<?xml version="1.0" encoding="UTF-8" standalone="..."?>` at the scanner's position.
    private mutating func parseDeclaration() throws(PropertyListError) {
        let start = self.scanner.position
        self.scanner.position += 5
        while true {
            self.scanner.skipWhitespace()
            guard !self.scanner.isAtEnd else { throw self.scanner.truncated("the XML declaration", startedAt: start) }
            if self.scanner.hasPrefix("?>", at: self.scanner.position) {
                self.scanner.position += 2
                return
            }
            let nameStart = self.scanner.position
            while !self.scanner.isAtEnd, XMLScanner.isNameByte(self.scanner.bytes[self.scanner.position]) {
                self.scanner.position += 1
            }
            let name = self.scanner.slice(nameStart..<self.scanner.position)
            self.scanner.skipWhitespace()
            guard !name.isEmpty, self.scanner.hasPrefix("=", at: self.scanner.position) else {
                throw self.scanner.error(.invalidHeader, at: nameStart, "malformed XML declaration")
            }
            self.scanner.position += 1
            self.scanner.skipWhitespace()
            guard !self.scanner.isAtEnd else { throw self.scanner.truncated("the XML declaration", startedAt: start) }
            let quote = self.scanner.bytes[self.scanner.position]
            guard quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") else {
                throw self.scanner.error(.invalidHeader, at: self.scanner.position, "malformed XML declaration")
            }
            let valueStart = self.scanner.position + 1
            var valueEnd = valueStart
            while valueEnd < self.scanner.bytes.count, self.scanner.bytes[valueEnd] != quote {
                valueEnd += 1
            }
            guard valueEnd < self.scanner.bytes.count else {
                throw self.scanner.truncated("the XML declaration", startedAt: start)
            }
            if XMLScanner.equals(name, "encoding") {
                let value = self.scanner.slice(valueStart..<valueEnd)
                let isUTF8 =
                    value.count == 5 && value[0] | 0x20 == UInt8(ascii: "u") && value[1] | 0x20 == UInt8(ascii: "t")
                    && value[2] | 0x20 == UInt8(ascii: "f") && value[3] == UInt8(ascii: "-")
                    && value[4] == UInt8(ascii: "8")
                guard isUTF8 else {
                    let text = String(decoding: value, as: UTF8.self)
                    throw self.scanner.error(.unsupportedEncoding, at: valueStart, "encoding \"\(text)\" is not UTF-8")
                }
            }
            self.scanner.position = valueEnd + 1
        }
    }

    // MARK: Values

    /// Skips what may precede an element inside `parent` and reads the element's start tag.
    private mutating func readChildStartTag(inside parent: XMLStartTag) throws(PropertyListError) -> XMLStartTag {
        try self.scanner.skipMisc()
        let position = self.scanner.position
        guard position + 1 < self.scanner.bytes.count else {
            throw self.scanner.truncated("<\(parent.element.name)>", startedAt: parent.offset)
        }
        guard self.scanner.bytes[position] == UInt8(ascii: "<") else {
            throw self.scanner.error(.malformedXML, at: position, "text inside <\(parent.element.name)>")
        }
        return try self.scanner.readStartTag()
    }

    /// Reads the value whose start tag is `first`, through its end tag, without recursion.
    ///
    /// The innermost open container and its pending key live in locals; the enclosing ones, each
    /// with the key its child is the value of, wait on `outer`.
    private mutating func parseValue(startingWith first: XMLStartTag) throws(PropertyListError) -> PropertyListValue {
        var outer: [(container: XMLOpenContainer, key: XMLPendingKey?)] = []
        var top: XMLOpenContainer?
        var key: XMLPendingKey?
        var tag = first
        while true {
            var completed: PropertyListValue?
            var completedOffset = tag.offset
            switch tag.element {
            case .array, .dict:
                guard outer.count + (top == nil ? 0 : 1) < self.limits.maximumDepth else {
                    throw self.scanner.error(
                        .depthLimitExceeded,
                        at: tag.offset,
                        "containers nest deeper than \(self.limits.maximumDepth)"
                    )
                }
                if tag.isEmpty {
                    completed = tag.element == .array ? .array([]) : .dictionary(PropertyListDictionary())
                } else if tag.element == .dict, let uid = self.scanner.matchUIDDictionary() {
                    completed = .uid(UID(uid))
                } else {
                    if let parent = top { outer.append((parent, key.take())) }
                    let isDictionary = tag.element == .dict
                    let start = isDictionary ? self.entries.count : self.elements.count
                    top = XMLOpenContainer(isDictionary: isDictionary, offset: tag.offset, start: start)
                }
            case .key:
                guard let current = top, current.isDictionary else {
                    throw self.scanner.error(.unexpectedElement, at: tag.offset, "<key> outside a <dict>")
                }
                guard key == nil else {
                    throw self.scanner.error(.malformedXML, at: tag.offset, "a <key> has no value")
                }
                key = try self.readKey(tag)
            case .plist:
                throw self.scanner.error(.unexpectedElement, at: tag.offset, "<plist> inside a value")
            default:
                completed = try self.parseLeaf(tag)
            }
            while true {
                if let value = completed.take() {
                    self.valueCount &+= 1
                    if self.valueCount > self.limits.maximumObjectCount {
                        throw self.scanner.error(
                            .sizeLimitExceeded,
                            at: completedOffset,
                            "more than \(self.limits.maximumObjectCount) values"
                        )
                    }
                    guard let current = top else { return value }
                    if current.isDictionary {
                        guard let entryKey = key.take() else {
                            throw self.scanner.error(
                                .unexpectedElement,
                                at: completedOffset,
                                "a <dict> value has no <key>"
                            )
                        }
                        self.entries.append(PropertyListDictionary.StoredEntry(key: entryKey.key, value: value))
                        self.fingerprints.append(entryKey.fingerprint)
                    } else {
                        self.elements.append(value)
                    }
                }
                try self.scanner.skipMisc()
                let position = self.scanner.position
                guard let current = top else {
                    throw self.scanner.error(.malformedXML, at: position, "no open container")
                }
                guard position + 1 < self.scanner.bytes.count else {
                    throw self.scanner.truncated(current.isDictionary ? "<dict>" : "<array>", startedAt: current.offset)
                }
                guard self.scanner.bytes[position] == UInt8(ascii: "<") else {
                    let name = current.isDictionary ? "dict" : "array"
                    throw self.scanner.error(.malformedXML, at: position, "text inside <\(name)>")
                }
                guard self.scanner.bytes[position + 1] == UInt8(ascii: "/") else {
                    tag = try self.scanner.readStartTag()
                    break
                }
                try self.scanner.consumeEndTag(current.isDictionary ? .dict : .array, openedAt: current.offset)
                if let unused = key {
                    throw self.scanner.error(.malformedXML, at: unused.offset, "a <key> has no value")
                }
                completed = try self.finish(current)
                completedOffset = current.offset
                if let parent = outer.popLast() {
                    top = parent.container
                    key = parent.key
                } else {
                    top = nil
                }
            }
        }
    }

    /// Reads a `<key>` element through its end tag, with the key's fingerprint (see ``XMLKeyCache``).
    private mutating func readKey(_ tag: XMLStartTag) throws(PropertyListError) -> XMLPendingKey {
        let start = self.scanner.position
        if tag.isEmpty {
            let (key, fingerprint) = self.keys.key(start..<start, in: self.scanner)
            return XMLPendingKey(key: key, fingerprint: fingerprint, offset: tag.offset)
        }
        let end = self.scanner.indexOfMarkup(from: start)
        guard end + 1 < self.scanner.bytes.count, self.scanner.bytes[end] == UInt8(ascii: "<"),
            self.scanner.bytes[end + 1] == UInt8(ascii: "/")
        else {
            let key = try self.scanner.readText(of: tag, scratch: &self.scratch)
            return XMLPendingKey(key: key, fingerprint: 0, offset: tag.offset)
        }
        self.scanner.position = end
        try self.scanner.consumeEndTag(.key, openedAt: tag.offset)
        let (key, fingerprint) = self.keys.key(start..<end, in: self.scanner)
        return XMLPendingKey(key: key, fingerprint: fingerprint, offset: tag.offset)
    }

    /// The value of a closed container, whose children are taken off `elements` or `entries`; a
    /// dictionary holding only `CF$UID` becomes a UID.
    private mutating func finish(_ container: XMLOpenContainer) throws(PropertyListError) -> PropertyListValue {
        let start = container.start
        let childCount = (container.isDictionary ? self.entries.count : self.elements.count) - start
        guard childCount <= self.limits.maximumCollectionCount else {
            throw self.scanner.error(
                .sizeLimitExceeded,
                at: container.offset,
                "a container of \(childCount) exceeds the limit of \(self.limits.maximumCollectionCount)"
            )
        }
        guard container.isDictionary else {
            guard self.elements.count > start else { return .array([]) }
            return .array(self.elements.removeArray(from: start))
        }
        let count = self.entries.count - start
        guard count > 0 else { return .dictionary(PropertyListDictionary()) }
        if count == 1, self.entries[start].key == "CF$UID", case .integer(let number) = self.entries[start].value {
            guard let raw = number.uint64Value else {
                throw self.scanner.error(.invalidUID, at: container.offset, "CF$UID \(number) is negative")
            }
            self.entries.removeAll(from: start)
            self.fingerprints.removeAll(from: start)
            return .uid(UID(raw))
        }
        let keysAreDistinct =
            count <= PropertyListDictionary.hashThreshold && self.fingerprints.areNonzeroAndDistinct(from: start)
        self.fingerprints.removeAll(from: start)
        let children = self.entries.removeContiguousArray(from: start)
        return .dictionary(PropertyListDictionary(readEntries: children, keysAreDistinct: keysAreDistinct))
    }

    /// Reads a leaf element (anything but `<plist>`, `<array>`, `<dict>` and `<key>`) through its end tag.
    private mutating func parseLeaf(_ tag: XMLStartTag) throws(PropertyListError) -> PropertyListValue {
        if tag.element == .string {
            let string = tag.isEmpty ? "" : try self.scanner.readText(of: tag, scratch: &self.scratch)
            guard string.utf8.count <= self.limits.maximumStringLength else {
                throw self.scanner.error(
                    .sizeLimitExceeded,
                    at: tag.offset,
                    "a string of \(string.utf8.count) bytes exceeds the limit of \(self.limits.maximumStringLength)"
                )
            }
            return .string(string)
        }
        let range =
            tag.isEmpty ? self.scanner.position..<self.scanner.position : try self.scanner.readPlainContent(of: tag)
        let text = self.scanner.slice(range)
        switch tag.element {
        case .true, .false:
            guard XMLLeafParser.trimmed(text).isEmpty else {
                throw self.scanner.error(.malformedXML, at: range.lowerBound, "<\(tag.element.name)> must be empty")
            }
            return .bool(tag.element == .true)
        case .integer:
            guard let number = XMLLeafParser.integer(text) else {
                throw self.scanner.error(
                    .invalidInteger,
                    at: range.lowerBound,
                    "not an integer in Int64.min...UInt64.max"
                )
            }
            return .integer(number)
        case .real:
            guard let number = XMLLeafParser.real(text) else {
                throw self.scanner.error(.invalidReal, at: range.lowerBound, "not a real number")
            }
            return .real(number)
        case .date:
            guard let seconds = XMLLeafParser.date(text) else {
                throw self.scanner.error(.invalidDate, at: range.lowerBound, "not a valid YYYY-MM-DDTHH:MM:SSZ date")
            }
            return .date(Date(timeIntervalSinceReferenceDate: seconds))
        default:
            let data = try self.decodeData(text, at: range.lowerBound)
            guard data.count <= self.limits.maximumDataLength else {
                throw self.scanner.error(
                    .sizeLimitExceeded,
                    at: tag.offset,
                    "data of \(data.count) bytes exceeds the limit of \(self.limits.maximumDataLength)"
                )
            }
            return .data(data)
        }
    }

    /// Decodes a `<data>` element's Base64 text through a reused buffer, which only grows to
    /// what the text could hold.
    private mutating func decodeData(
        _ text: UnsafeBufferPointer<UInt8>,
        at offset: Int
    ) throws(PropertyListError) -> Data {
        let capacity = XMLBase64.maximumDecodedCount(encodedLength: text.count)
        if self.decoded.count < capacity {
            self.decoded = [UInt8](repeating: 0, count: max(capacity, 2 * self.decoded.count))
        }
        let result = self.decoded.withUnsafeMutableBytes { buffer in
            XMLBase64.decode(text, into: buffer).map { count in
                Data(UnsafeRawBufferPointer(rebasing: buffer[..<count]))
            }
        }
        switch result {
        case .success(let data):
            return data
        case .failure(let invalid):
            throw self.scanner.error(.invalidData, at: offset + invalid.offset, "invalid Base64 in <data>")
        }
    }
}
