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

    /// `</name>` as the two little-endian words it spans, with masks of the bytes it covers.
    @inline(__always)
    var endTag: (length: Int, first: UInt64, firstMask: UInt64, second: UInt64, secondMask: UInt64) {
        let nameLength = (64 &- self.rawValue.leadingZeroBitCount &+ 7) &>> 3
        let length = nameLength &+ 3
        let close = UInt64(UInt8(ascii: ">"))
        let first = 0x2F3C | self.rawValue << 16 | close << UInt64(8 &* (nameLength &+ 2))
        let firstMask: UInt64 = length >= 8 ? ~0 : (1 << UInt64(8 &* length)) &- 1
        let second = self.rawValue >> 48 | (length > 8 ? close << UInt64(8 &* (length &- 9)) : 0)
        let secondMask: UInt64 = length > 8 ? (1 << UInt64(8 &* (length &- 8))) &- 1 : 0
        return (length, first, firstMask, second, secondMask)
    }

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

    /// The eight bytes at `offset` as a little-endian word; `offset + 8` must not pass the end.
    @inline(__always)
    func word(at offset: Int) -> UInt64 {
        guard let base = self.bytes.baseAddress else { return 0 }
        return UInt64(littleEndian: UnsafeRawPointer(base + offset).loadUnaligned(as: UInt64.self))
    }

    /// The high bit of each byte of `word` that equals `byte`, plus possibly bits above the first
    /// such byte; the lowest set bit is exact.
    @inline(__always)
    static func matches(_ word: UInt64, _ byte: UInt8) -> UInt64 {
        let difference = word ^ (0x0101_0101_0101_0101 &* UInt64(byte))
        return (difference &- 0x0101_0101_0101_0101) & ~difference & 0x8080_8080_8080_8080
    }

    /// The offset of the first `<` or `&` at or after `start`, or the end of the input.
    func indexOfMarkup(from start: Int) -> Int {
        let count = self.bytes.count
        var index = start
        while index &+ 8 <= count {
            let word = self.word(at: index)
            let found = Self.matches(word, UInt8(ascii: "<")) | Self.matches(word, UInt8(ascii: "&"))
            if found != 0 { return index &+ found.trailingZeroBitCount &>> 3 }
            index &+= 8
        }
        while index < count {
            let byte = self.bytes[index]
            if byte == UInt8(ascii: "<") || byte == UInt8(ascii: "&") { return index }
            index &+= 1
        }
        return count
    }

    /// The offset of the first `<` at or after `start`, or the end of the input.
    func indexOfLessThan(from start: Int) -> Int {
        let count = self.bytes.count
        var index = start
        while index &+ 8 <= count {
            let found = Self.matches(self.word(at: index), UInt8(ascii: "<"))
            if found != 0 { return index &+ found.trailingZeroBitCount &>> 3 }
            index &+= 8
        }
        while index < count, self.bytes[index] != UInt8(ascii: "<") {
            index &+= 1
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
    @inline(__always)
    mutating func skipMisc() throws(PropertyListError) {
        self.skipWhitespace()
        let position = self.position
        guard position &+ 1 < self.bytes.count, self.bytes[position] == UInt8(ascii: "<") else { return }
        let next = self.bytes[position &+ 1]
        if next == UInt8(ascii: "?") || next == UInt8(ascii: "!") { try self.skipMiscMarkup() }
    }

    /// ``skipMisc()`` once `position` may be at a comment or processing instruction.
    @inline(never)
    private mutating func skipMiscMarkup() throws(PropertyListError) {
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
}
