//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-keyed-archive open source project
//
// Licensed under Apache License v2.0
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

extension XMLScanner {
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

    /// The start tag at `start` if it is exactly `<name>` or `<name/>` for a property list
    /// element, read eight bytes at a time; `nil` sends the caller to the general path.
    @inline(__always)
    private func simpleStartTag(at start: Int) -> (tag: XMLStartTag, end: Int)? {
        guard self.bytes.count &- start >= 9 else { return nil }
        let word = self.word(at: start &+ 1)
        let element: XMLPlistElement
        let length: Int
        switch UInt8(truncatingIfNeeded: word) {
        case UInt8(ascii: "k"): (element, length) = (.key, 3)
        case UInt8(ascii: "s"): (element, length) = (.string, 6)
        case UInt8(ascii: "i"): (element, length) = (.integer, 7)
        case UInt8(ascii: "r"): (element, length) = (.real, 4)
        case UInt8(ascii: "a"): (element, length) = (.array, 5)
        case UInt8(ascii: "t"): (element, length) = (.true, 4)
        case UInt8(ascii: "f"): (element, length) = (.false, 5)
        case UInt8(ascii: "d"):
            switch word & 0xFFFF_FFFF {
            case XMLPlistElement.dict.rawValue: element = .dict
            case XMLPlistElement.date.rawValue: element = .date
            case XMLPlistElement.data.rawValue: element = .data
            default: return nil
            }
            length = 4
        default:
            return nil
        }
        let shift = UInt64(8 &* length)
        let withClose = element.rawValue | UInt64(UInt8(ascii: ">")) << shift
        if word & (~0 &>> (56 &- shift)) == withClose {
            return (XMLStartTag(element: element, isEmpty: false, offset: start), start &+ 2 &+ length)
        }
        let withSlash = element.rawValue | UInt64(0x3E2F) << shift
        if length < 7, word & (~0 &>> (48 &- shift)) == withSlash {
            return (XMLStartTag(element: element, isEmpty: true, offset: start), start &+ 3 &+ length)
        }
        return nil
    }

    /// Reads the start tag at `position` (a `<` followed by a name), skipping its attributes.
    @inline(__always)
    mutating func readStartTag() throws(PropertyListError) -> XMLStartTag {
        if let (tag, end) = self.simpleStartTag(at: self.position) {
            self.position = end
            return tag
        }
        return try self.readGeneralStartTag()
    }

    /// ``readStartTag()`` for any start tag: other names, attributes, white space.
    @inline(never)
    private mutating func readGeneralStartTag() throws(PropertyListError) -> XMLStartTag {
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
    @inline(__always)
    mutating func consumeEndTag(_ element: XMLPlistElement, openedAt openOffset: Int) throws(PropertyListError) {
        let start = self.position
        // Fast path: exactly `</name>`, at most ten bytes, compared as two words.
        if self.bytes.count &- start >= 16 {
            let tag = element.endTag
            if self.word(at: start) & tag.firstMask == tag.first,
                self.word(at: start &+ 8) & tag.secondMask == tag.second
            {
                self.position = start &+ tag.length
                return
            }
        }
        try self.consumeGeneralEndTag(element, openedAt: openOffset)
    }

    /// ``consumeEndTag(_:openedAt:)`` for any end tag: near the end of the input, with white
    /// space, or wrong.
    @inline(never)
    private mutating func consumeGeneralEndTag(
        _ element: XMLPlistElement,
        openedAt openOffset: Int
    ) throws(PropertyListError) {
        let start = self.position
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

extension XMLScanner {
    private static let uidKey = Array("<key>CF$UID</key>".utf8)
    private static let integerOpen = Array("<integer>".utf8)
    private static let integerClose = Array("</integer>".utf8)
    private static let dictClose = Array("</dict>".utf8)

    /// Matches the rest of a `CF$UID` dictionary right after its `<dict>` —
    /// `<key>CF$UID</key><integer>N</integer></dict>` with only white space between, N plain decimal
    /// digits that fit in `UInt64` — and moves past it.
    ///
    /// Keyed archives in XML spell every reference this way, so this skips the general container
    /// path for most of their elements. Anything else, including malformed or out-of-range forms,
    /// returns `nil` without moving, and the general path reads (or rejects) it.
    mutating func matchUIDDictionary() -> UInt64? {
        let bytes = self.bytes
        var index = self.position
        @inline(__always) func skipSpace() {
            while index < bytes.count,
                bytes[index] == 0x20 || bytes[index] == 0x09 || bytes[index] == 0x0A || bytes[index] == 0x0D
            {
                index += 1
            }
        }
        @inline(__always) func match(_ literal: [UInt8]) -> Bool {
            guard bytes.count - index >= literal.count else { return false }
            for (offset, byte) in literal.enumerated() where bytes[index + offset] != byte { return false }
            index += literal.count
            return true
        }
        skipSpace()
        guard match(Self.uidKey) else { return nil }
        skipSpace()
        guard match(Self.integerOpen) else { return nil }
        var value: UInt64 = 0
        let digitsStart = index
        while index < bytes.count, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9") {
            let (times10, overflow1) = value.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = times10.addingReportingOverflow(UInt64(bytes[index] - UInt8(ascii: "0")))
            guard !overflow1, !overflow2, index - digitsStart < 20 else { return nil }
            value = sum
            index += 1
        }
        guard index > digitsStart, match(Self.integerClose) else { return nil }
        skipSpace()
        guard match(Self.dictClose) else { return nil }
        self.position = index
        return value
    }
}
