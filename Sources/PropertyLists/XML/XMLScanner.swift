//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-keyed-archive open source project
//
// Licensed under Apache License v2.0
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// The elements an XML property list is made of. Each raw value is the element's tag name packed
/// little-endian into a `UInt64`, so a scanned name is matched with one integer comparison.
enum XMLPlistElement: UInt64, Sendable {
    case plist = 0x74_7369_6C70
    case array = 0x79_6172_7261
    case dict = 0x7463_6964
    case key = 0x79_656B
    case string = 0x676E_6972_7473
    case integer = 0x72_6567_6574_6E69
    case real = 0x6C61_6572
    case date = 0x6574_6164
    case data = 0x6174_6164
    case `true` = 0x6575_7274
    case `false` = 0x65_736C_6166

    /// The element's tag name.
    var name: StaticString {
        switch self {
        case .plist: return "plist"
        case .array: return "array"
        case .dict: return "dict"
        case .key: return "key"
        case .string: return "string"
        case .integer: return "integer"
        case .real: return "real"
        case .date: return "date"
        case .data: return "data"
        case .true: return "true"
        case .false: return "false"
        }
    }
}

/// A start tag: which element, whether it is self-closing (`<array/>`), and where it began.
struct XMLStartTag {
    var element: XMLPlistElement
    var isEmpty: Bool
    var offset: Int
}

/// A cursor over the bytes of an XML document with the lexical rules of XML 1.0 that property
/// lists use. It never reads outside `bytes` and reports every failure as a ``PropertyListError``
/// carrying the byte offset and 1-based line.
struct XMLScanner {
    let bytes: UnsafeBufferPointer<UInt8>
    var position: Int = 0

    init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    var isAtEnd: Bool { self.position >= self.bytes.count }

    // MARK: Errors

    /// Builds an error at `offset`, counting lines only now that one is needed.
    @inline(never)
    func error(
        _ code: PropertyListError.Code,
        at offset: Int,
        _ reason: String,
        file: String = #fileID,
        sourceLine: UInt = #line
    ) -> PropertyListError {
        let clamped = min(max(offset, 0), self.bytes.count)
        var line = 1
        for index in 0..<clamped where self.bytes[index] == 0x0A {
            line += 1
        }
        return PropertyListError(code, offset: clamped, line: line, reason: reason, file: file, sourceLine: sourceLine)
    }

    /// The error for input that ends inside `what`, which began at `offset`.
    func truncated(
        _ what: String,
        startedAt offset: Int,
        file: String = #fileID,
        sourceLine: UInt = #line
    )
        -> PropertyListError
    {
        let line = self.error(.truncated, at: offset, "", file: file, sourceLine: sourceLine).line ?? 1
        return self.error(
            .truncated,
            at: self.bytes.count,
            "input ends inside \(what) that starts at line \(line)",
            file: file,
            sourceLine: sourceLine
        )
    }

    // MARK: Bytes

    @inline(__always)
    static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x09 || byte == 0x0D
    }

    @inline(__always)
    static func isNameByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: ":"), UInt8(ascii: "-"),
            UInt8(ascii: "."), 0x80...0xFF:
            return true
        default:
            return false
        }
    }

    static func equals(_ bytes: UnsafeBufferPointer<UInt8>, _ text: StaticString) -> Bool {
        guard bytes.count == text.utf8CodeUnitCount else { return false }
        let expected = text.utf8Start
        for index in 0..<bytes.count where bytes[index] != expected[index] {
            return false
        }
        return true
    }

    /// Whether the bytes at `offset` spell `text`.
    func hasPrefix(_ text: StaticString, at offset: Int) -> Bool {
        let length = text.utf8CodeUnitCount
        guard offset >= 0, self.bytes.count - offset >= length else { return false }
        let expected = text.utf8Start
        for index in 0..<length where self.bytes[offset + index] != expected[index] {
            return false
        }
        return true
    }

    /// The bytes in `range`, which must lie inside the input.
    func slice(_ range: Range<Int>) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(rebasing: self.bytes[range])
    }

    mutating func skipWhitespace() {
        while self.position < self.bytes.count, Self.isWhitespace(self.bytes[self.position]) {
            self.position += 1
        }
    }

    /// The offset of the first `<` or `&` at or after `start`, or the end of the input.
    func indexOfMarkup(from start: Int) -> Int {
        guard let base = self.bytes.baseAddress else { return self.bytes.count }
        let count = self.bytes.count
        var index = start
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        while index &+ 8 <= count {
            let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
            let lessThan = word ^ 0x3C3C_3C3C_3C3C_3C3C
            let ampersand = word ^ 0x2626_2626_2626_2626
            let found = ((lessThan &- ones) & ~lessThan | (ampersand &- ones) & ~ampersand) & highs
            if found != 0 { break }
            index &+= 8
        }
        while index < count {
            let byte = base[index]
            if byte == UInt8(ascii: "<") || byte == UInt8(ascii: "&") { return index }
            index &+= 1
        }
        return count
    }

    /// The offset of the first `<` at or after `start`, or the end of the input.
    func indexOfLessThan(from start: Int) -> Int {
        var index = start
        while index < self.bytes.count, self.bytes[index] != UInt8(ascii: "<") {
            index += 1
        }
        return index
    }

    /// The offset just past the first `terminator` at or after `start`, or `nil` if there is none.
    func indexAfter(_ terminator: StaticString, from start: Int) -> Int? {
        let first = terminator.utf8Start[0]
        var index = start
        while index < self.bytes.count {
            if self.bytes[index] == first, self.hasPrefix(terminator, at: index) {
                return index + terminator.utf8CodeUnitCount
            }
            index += 1
        }
        return nil
    }

    // MARK: Comments, processing instructions, document type

    /// Skips white space, comments and processing instructions, stopping at anything else.
    mutating func skipMisc() throws(PropertyListError) {
        while true {
            self.skipWhitespace()
            guard self.position + 1 < self.bytes.count, self.bytes[self.position] == UInt8(ascii: "<") else { return }
            let next = self.bytes[self.position + 1]
            if next == UInt8(ascii: "?") {
                try self.skipProcessingInstruction()
            } else if next == UInt8(ascii: "!"), self.hasPrefix("<!--", at: self.position) {
                try self.skipComment()
            } else {
                return
            }
        }
    }

    /// Skips the comment that starts at `position` (`<!--`).
    mutating func skipComment() throws(PropertyListError) {
        let start = self.position
        guard let end = self.indexAfter("-->", from: start + 4) else {
            throw self.truncated("a comment", startedAt: start)
        }
        self.position = end
    }

    /// Skips the processing instruction that starts at `position` (`<?`). A misplaced XML
    /// declaration (`<?xml ...?>` after the start of the document) is an error.
    mutating func skipProcessingInstruction() throws(PropertyListError) {
        let start = self.position
        var nameEnd = start + 2
        while nameEnd < self.bytes.count, Self.isNameByte(self.bytes[nameEnd]) {
            nameEnd += 1
        }
        let target = self.slice(start + 2..<nameEnd)
        guard !target.isEmpty else {
            throw self.error(.malformedXML, at: start, "a processing instruction has no target")
        }
        if target.count == 3, target[0] | 0x20 == UInt8(ascii: "x"), target[1] | 0x20 == UInt8(ascii: "m"),
            target[2] | 0x20 == UInt8(ascii: "l")
        {
            throw self.error(.invalidHeader, at: start, "the XML declaration must come first")
        }
        guard let end = self.indexAfter("?>", from: nameEnd) else {
            throw self.truncated("a processing instruction", startedAt: start)
        }
        self.position = end
    }

    /// Skips the document type declaration at `position` (`<!DOCTYPE`), including an internal
    /// subset. Nothing in it is interpreted: entities it declares stay undefined, and external
    /// identifiers are never fetched.
    mutating func skipDocumentType() throws(PropertyListError) {
        let start = self.position
        self.position += 9
        guard self.position < self.bytes.count else { throw self.truncated("<!DOCTYPE", startedAt: start) }
        guard Self.isWhitespace(self.bytes[self.position]) else {
            throw self.error(.invalidHeader, at: start, "malformed <!DOCTYPE>")
        }
        var inSubset = false
        while self.position < self.bytes.count {
            let byte = self.bytes[self.position]
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "'"):
                var index = self.position + 1
                while index < self.bytes.count, self.bytes[index] != byte {
                    index += 1
                }
                guard index < self.bytes.count else { throw self.truncated("<!DOCTYPE", startedAt: start) }
                self.position = index + 1
            case UInt8(ascii: "[") where !inSubset:
                inSubset = true
                self.position += 1
            case UInt8(ascii: "]") where inSubset:
                inSubset = false
                self.position += 1
            case UInt8(ascii: "<") where inSubset && self.hasPrefix("<!--", at: self.position):
                try self.skipComment()
            case UInt8(ascii: "<") where inSubset && self.hasPrefix("<?", at: self.position):
                try self.skipProcessingInstruction()
            case UInt8(ascii: ">") where !inSubset:
                self.position += 1
                return
            default:
                self.position += 1
            }
        }
        throw self.truncated("<!DOCTYPE", startedAt: start)
    }

    // MARK: Tags

    /// Scans a name starting at `start`; returns where it ends and, if it is at most seven bytes
    /// long, its bytes packed little-endian (otherwise 0, which names no element).
    @inline(__always)
    func scanName(from start: Int) -> (end: Int, packed: UInt64) {
        var index = start
        var packed: UInt64 = 0
        while index < self.bytes.count {
            let byte = self.bytes[index]
            guard Self.isNameByte(byte) else { break }
            let length = index - start
            if length < 8 { packed |= UInt64(byte) << UInt64(8 * length) }
            index += 1
        }
        return (index, index - start > 7 ? 0 : packed)
    }

    /// Reads the start tag at `position` (a `<` followed by a name), skipping its attributes.
    mutating func readStartTag() throws(PropertyListError) -> XMLStartTag {
        let start = self.position
        let (nameEnd, packedName) = self.scanName(from: start + 1)
        guard nameEnd < self.bytes.count else { throw self.truncated("a tag", startedAt: start) }
        guard nameEnd > start + 1 else {
            throw self.error(.malformedXML, at: start, "expected an element")
        }
        guard let element = XMLPlistElement(rawValue: packedName) else {
            let text = String(decoding: self.slice(start + 1..<nameEnd), as: UTF8.self)
            throw self.error(.unexpectedElement, at: start, "<\(text)> is not a property list element")
        }
        self.position = nameEnd
        var sawWhitespace = false
        while self.position < self.bytes.count {
            let byte = self.bytes[self.position]
            if Self.isWhitespace(byte) {
                sawWhitespace = true
                self.position += 1
            } else if byte == UInt8(ascii: ">") {
                self.position += 1
                return XMLStartTag(element: element, isEmpty: false, offset: start)
            } else if byte == UInt8(ascii: "/") {
                guard self.position + 1 < self.bytes.count else { break }
                guard self.bytes[self.position + 1] == UInt8(ascii: ">") else {
                    throw self.error(.malformedXML, at: self.position, "expected '>' after '/'")
                }
                self.position += 2
                return XMLStartTag(element: element, isEmpty: true, offset: start)
            } else if sawWhitespace, Self.isNameByte(byte) {
                try self.skipAttribute(tagStart: start)
                sawWhitespace = false
            } else {
                throw self.error(.malformedXML, at: self.position, "malformed <\(element.name)> tag")
            }
        }
        throw self.truncated("<\(element.name)>", startedAt: start)
    }

    /// Skips `name = "value"` at `position`, checking the value's references.
    private mutating func skipAttribute(tagStart: Int) throws(PropertyListError) {
        while self.position < self.bytes.count, Self.isNameByte(self.bytes[self.position]) {
            self.position += 1
        }
        self.skipWhitespace()
        guard self.position < self.bytes.count else { throw self.truncated("a tag", startedAt: tagStart) }
        guard self.bytes[self.position] == UInt8(ascii: "=") else {
            throw self.error(.malformedXML, at: self.position, "expected '=' after an attribute name")
        }
        self.position += 1
        self.skipWhitespace()
        guard self.position < self.bytes.count else { throw self.truncated("a tag", startedAt: tagStart) }
        let quote = self.bytes[self.position]
        guard quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") else {
            throw self.error(.malformedXML, at: self.position, "an attribute value must be quoted")
        }
        self.position += 1
        var discarded: [UInt8] = []
        while self.position < self.bytes.count {
            let byte = self.bytes[self.position]
            if byte == quote {
                self.position += 1
                return
            } else if byte == UInt8(ascii: "<") {
                throw self.error(.malformedXML, at: self.position, "'<' in an attribute value")
            } else if byte == UInt8(ascii: "&") {
                try self.decodeReference(into: &discarded)
                discarded.removeAll(keepingCapacity: true)
            } else {
                self.position += 1
            }
        }
        throw self.truncated("a tag", startedAt: tagStart)
    }

    /// Consumes the end tag `</element>` at `position`; any other end tag is an error.
    mutating func consumeEndTag(_ element: XMLPlistElement, openedAt openOffset: Int) throws(PropertyListError) {
        let start = self.position
        // Fast path: exactly `</name>`.
        let nameLength = (64 - element.rawValue.leadingZeroBitCount + 7) / 8
        if self.bytes.count - (start + 2) > nameLength, self.bytes[start + 2 + nameLength] == UInt8(ascii: ">") {
            var packed: UInt64 = 0
            for index in 0..<nameLength {
                packed |= UInt64(self.bytes[start + 2 + index]) << UInt64(8 * index)
            }
            if packed == element.rawValue {
                self.position = start + 3 + nameLength
                return
            }
        }
        let (nameEnd, packedName) = self.scanName(from: start + 2)
        guard nameEnd < self.bytes.count else { throw self.truncated("<\(element.name)>", startedAt: openOffset) }
        guard packedName == element.rawValue else {
            let found = String(decoding: self.slice(start + 2..<nameEnd), as: UTF8.self)
            throw self.error(.malformedXML, at: start, "</\(found)> does not close <\(element.name)>")
        }
        self.position = nameEnd
        self.skipWhitespace()
        guard self.position < self.bytes.count else { throw self.truncated("<\(element.name)>", startedAt: openOffset) }
        guard self.bytes[self.position] == UInt8(ascii: ">") else {
            throw self.error(.malformedXML, at: self.position, "malformed </\(element.name)> tag")
        }
        self.position += 1
    }

    /// Reads the content of a leaf element that allows only plain text (`<integer>`, `<real>`,
    /// `<date>`, `<data>`, `<true>`, `<false>`) and its end tag; returns the content's range.
    mutating func readPlainContent(of tag: XMLStartTag) throws(PropertyListError) -> Range<Int> {
        let start = self.position
        let end = self.indexOfLessThan(from: start)
        guard end + 1 < self.bytes.count else { throw self.truncated("<\(tag.element.name)>", startedAt: tag.offset) }
        guard self.bytes[end + 1] == UInt8(ascii: "/") else {
            throw self.error(.malformedXML, at: end, "<\(tag.element.name)> may contain only text")
        }
        self.position = end
        try self.consumeEndTag(tag.element, openedAt: tag.offset)
        return start..<end
    }
}
