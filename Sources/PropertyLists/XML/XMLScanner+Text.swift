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
    /// The longest reference accepted, `&` and `;` included; longer ones are rejected unread.
    static var maximumReferenceLength: Int { 32 }

    /// Decodes the reference at `position` (`&name;`, `&#N;` or `&#xN;`), appends its UTF-8 to
    /// `output` and moves past the `;`.
    ///
    /// Only the five predefined entities and character references are known; a character reference
    /// must name a Unicode scalar other than U+0000. Nothing is ever looked up elsewhere.
    mutating func decodeReference(into output: inout [UInt8]) throws(PropertyListError) {
        let start = self.position
        let limit = min(self.bytes.count, start + Self.maximumReferenceLength)
        var end = start + 1
        while end < limit, self.bytes[end] != UInt8(ascii: ";") {
            end += 1
        }
        guard end < limit else {
            throw self.error(.invalidEntity, at: start, "an entity reference has no ';'")
        }
        let name = self.slice(start + 1..<end)
        if name.first == UInt8(ascii: "#") {
            let scalar = try self.characterReference(name, at: start)
            Self.appendUTF8(scalar, to: &output)
        } else if Self.equals(name, "lt") {
            output.append(UInt8(ascii: "<"))
        } else if Self.equals(name, "gt") {
            output.append(UInt8(ascii: ">"))
        } else if Self.equals(name, "amp") {
            output.append(UInt8(ascii: "&"))
        } else if Self.equals(name, "quot") {
            output.append(UInt8(ascii: "\""))
        } else if Self.equals(name, "apos") {
            output.append(UInt8(ascii: "'"))
        } else {
            let text = String(decoding: name, as: UTF8.self)
            throw self.error(.invalidEntity, at: start, "the entity &\(text); is not defined")
        }
        self.position = end + 1
    }

    /// The scalar a character reference (`#65` or `#x41`, without `&` and `;`) names.
    private func characterReference(
        _ name: UnsafeBufferPointer<UInt8>,
        at start: Int
    ) throws(PropertyListError)
        -> UInt32
    {
        let isHex = name.count > 1 && name[1] == UInt8(ascii: "x")
        let digits = UnsafeBufferPointer(rebasing: name[(isHex ? 2 : 1)...])
        var value: UInt32 = 0
        for byte in digits {
            let digit: UInt32
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f") where isHex: digit = UInt32(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F") where isHex: digit = UInt32(byte - UInt8(ascii: "A") + 10)
            default:
                throw self.error(.invalidEntity, at: start, "malformed character reference")
            }
            value = value * (isHex ? 16 : 10) + digit
            guard value <= 0x10FFFF else {
                throw self.error(.invalidEntity, at: start, "character reference beyond U+10FFFF")
            }
        }
        guard !digits.isEmpty else {
            throw self.error(.invalidEntity, at: start, "malformed character reference")
        }
        guard value != 0, !(0xD800...0xDFFF).contains(value) else {
            throw self.error(.invalidEntity, at: start, "character reference to a non-character")
        }
        return value
    }

    static func appendUTF8(_ scalar: UInt32, to output: inout [UInt8]) {
        switch scalar {
        case 0..<0x80:
            output.append(UInt8(truncatingIfNeeded: scalar))
        case 0x80..<0x800:
            output.append(UInt8(truncatingIfNeeded: 0xC0 | scalar >> 6))
            output.append(UInt8(truncatingIfNeeded: 0x80 | scalar & 0x3F))
        case 0x800..<0x10000:
            output.append(UInt8(truncatingIfNeeded: 0xE0 | scalar >> 12))
            output.append(UInt8(truncatingIfNeeded: 0x80 | scalar >> 6 & 0x3F))
            output.append(UInt8(truncatingIfNeeded: 0x80 | scalar & 0x3F))
        default:
            output.append(UInt8(truncatingIfNeeded: 0xF0 | scalar >> 18))
            output.append(UInt8(truncatingIfNeeded: 0x80 | scalar >> 12 & 0x3F))
            output.append(UInt8(truncatingIfNeeded: 0x80 | scalar >> 6 & 0x3F))
            output.append(UInt8(truncatingIfNeeded: 0x80 | scalar & 0x3F))
        }
    }

    /// Reads the character data of a `<string>` or `<key>` through its end tag, keeping white space
    /// exactly, resolving references and CDATA sections, and dropping comments and processing
    /// instructions. The input must already be known to be valid UTF-8.
    mutating func readText(of tag: XMLStartTag, scratch: inout [UInt8]) throws(PropertyListError) -> String {
        let start = self.position
        var index = self.indexOfMarkup(from: start)
        if index + 1 < self.bytes.count, self.bytes[index] == UInt8(ascii: "<"),
            self.bytes[index + 1] == UInt8(ascii: "/")
        {
            let text = String(decoding: self.slice(start..<index), as: UTF8.self)
            self.position = index
            try self.consumeEndTag(tag.element, openedAt: tag.offset)
            return text
        }
        scratch.removeAll(keepingCapacity: true)
        var runStart = start
        while true {
            guard index + 1 < self.bytes.count else {
                throw self.truncated("<\(tag.element.name)>", startedAt: tag.offset)
            }
            scratch.append(contentsOf: self.slice(runStart..<index))
            self.position = index
            if self.bytes[index] == UInt8(ascii: "&") {
                try self.decodeReference(into: &scratch)
            } else if self.bytes[index + 1] == UInt8(ascii: "/") {
                try self.consumeEndTag(tag.element, openedAt: tag.offset)
                return String(decoding: scratch, as: UTF8.self)
            } else if self.hasPrefix("<![CDATA[", at: index) {
                guard let end = self.indexAfter("]]>", from: index + 9) else {
                    throw self.truncated("a CDATA section", startedAt: index)
                }
                scratch.append(contentsOf: self.slice(index + 9..<end - 3))
                self.position = end
            } else if self.hasPrefix("<!--", at: index) {
                try self.skipComment()
            } else if self.bytes[index + 1] == UInt8(ascii: "?") {
                try self.skipProcessingInstruction()
            } else {
                throw self.error(.unexpectedElement, at: index, "<\(tag.element.name)> may not contain elements")
            }
            runStart = self.position
            index = self.indexOfMarkup(from: runStart)
        }
    }
}
