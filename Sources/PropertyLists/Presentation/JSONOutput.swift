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
package import FoundationEssentials
#else
package import Foundation
#endif

/// The JSON text that ``PropertyListJSONWriter`` and the keyed-archive JSON writer build, one token at
/// a time, so both forms write strings, numbers, dates and data identically.
///
/// Tagged values (`{"$date": …}`) stay on one line when pretty-printing; containers put one element
/// per line, indented by two spaces per level.
package struct JSONOutput {
    /// Whether to break lines and indent.
    package let prettyPrinted: Bool
    /// The text so far, as UTF-8.
    package var bytes: [UInt8] = []

    /// Creates an empty output.
    package init(prettyPrinted: Bool) {
        self.prettyPrinted = prettyPrinted
        self.bytes.reserveCapacity(4096)
    }

    /// Appends one byte.
    @inline(__always)
    package mutating func append(_ byte: UInt8) {
        self.bytes.append(byte)
    }

    /// Appends ASCII text as it is.
    package mutating func appendASCII(_ text: String) {
        self.bytes.append(contentsOf: text.utf8)
    }

    /// Appends `null`.
    package mutating func appendNull() {
        self.appendASCII("null")
    }

    /// Appends `true` or `false`.
    package mutating func appendBool(_ value: Bool) {
        self.appendASCII(value ? "true" : "false")
    }

    /// Appends an integer in full.
    package mutating func appendInteger(_ value: PropertyListInteger) {
        self.appendASCII(value.description)
    }

    /// Appends a 64-bit real in the shortest form that reads back as the same value, or
    /// `{"$real": "nan"}`, `"inf"` or `"-inf"`.
    package mutating func appendReal(_ value: Double) {
        if let name = PropertyListTimestamp.nonFiniteName(value) {
            self.appendTagged("$real", string: name)
        } else {
            self.appendASCII(value.description)
        }
    }

    /// Appends a 32-bit real in its own shortest form, or `{"$real": …}` when it is not finite.
    package mutating func appendFloat(_ value: Float) {
        if PropertyListTimestamp.nonFiniteName(value) != nil {
            self.appendReal(Double(value))
        } else {
            self.appendASCII(value.description)
        }
    }

    /// Appends `{"$date": "<ISO 8601 UTC>"}`.
    package mutating func appendDate(_ date: Date) {
        self.openTag("$date")
        self.bytes.append(UInt8(ascii: "\""))
        PropertyListTimestamp.append(interval: date.timeIntervalSinceReferenceDate, to: &self.bytes)
        self.bytes.append(UInt8(ascii: "\""))
        self.bytes.append(UInt8(ascii: "}"))
    }

    /// Appends `{"$data": "<standard base64 with padding>"}`.
    package mutating func appendData(_ data: Data) {
        self.openTag("$data")
        self.bytes.append(UInt8(ascii: "\""))
        self.appendBase64(data)
        self.bytes.append(UInt8(ascii: "\""))
        self.bytes.append(UInt8(ascii: "}"))
    }

    /// Appends `{"<tag>": "<string>"}`.
    package mutating func appendTagged(_ tag: StaticString, string: String) {
        self.openTag(tag)
        self.appendString(string)
        self.bytes.append(UInt8(ascii: "}"))
    }

    /// Appends `{"<tag>": <number>}`.
    package mutating func appendTagged(_ tag: StaticString, number: UInt64) {
        self.openTag(tag)
        self.appendASCII(String(number))
        self.bytes.append(UInt8(ascii: "}"))
    }

    /// Writes `{"<tag>":` followed by a space when pretty-printing; the caller writes the value and
    /// closes the brace.
    package mutating func openTag(_ tag: StaticString) {
        self.bytes.append(UInt8(ascii: "{"))
        self.bytes.append(UInt8(ascii: "\""))
        tag.withUTF8Buffer { self.bytes.append(contentsOf: $0) }
        self.bytes.append(UInt8(ascii: "\""))
        self.appendColon()
    }

    /// Appends `:`, and a space when pretty-printing.
    package mutating func appendColon() {
        self.bytes.append(UInt8(ascii: ":"))
        if self.prettyPrinted { self.bytes.append(UInt8(ascii: " ")) }
    }

    /// Starts a new line indented for `depth` when pretty-printing; does nothing otherwise.
    package mutating func newline(depth: Int) {
        guard self.prettyPrinted else { return }
        self.bytes.append(UInt8(ascii: "\n"))
        self.bytes.append(contentsOf: repeatElement(UInt8(ascii: " "), count: 2 * depth))
    }

    /// Appends the separator before element `index` of a container at `depth` (a comma after the
    /// first) and starts its line.
    package mutating func beginElement(_ index: Int, depth: Int) {
        if index > 0 { self.bytes.append(UInt8(ascii: ",")) }
        self.newline(depth: depth + 1)
    }

    /// Closes a container at `depth` that held `count` elements with `closer` (`]` or `}`).
    package mutating func endContainer(_ closer: UInt8, count: Int, depth: Int) {
        if count > 0 { self.newline(depth: depth) }
        self.bytes.append(closer)
    }

    /// Appends JSON text written for depth 0, re-indenting its lines for `depth`.
    ///
    /// JSON strings cannot hold a raw line break, so every line feed in `text` is a layout break.
    package mutating func appendNested(_ text: [UInt8], depth: Int) {
        guard self.prettyPrinted, depth > 0 else {
            self.bytes.append(contentsOf: text)
            return
        }
        for byte in text {
            self.bytes.append(byte)
            if byte == UInt8(ascii: "\n") {
                self.bytes.append(contentsOf: repeatElement(UInt8(ascii: " "), count: 2 * depth))
            }
        }
    }

    /// Appends a JSON string: `"`, `\`, and control characters escaped, other characters as UTF-8.
    package mutating func appendString(_ string: String) {
        self.bytes.append(UInt8(ascii: "\""))
        let handled: Void? = string.utf8.withContiguousStorageIfAvailable { self.appendEscaped($0) }
        if handled == nil {
            let bytes = Array(string.utf8)
            bytes.withUnsafeBufferPointer { self.appendEscaped($0) }
        }
        self.bytes.append(UInt8(ascii: "\""))
    }

    /// Appends UTF-8 bytes, escaping what JSON requires; runs that need no escaping are copied at once.
    private mutating func appendEscaped(_ bytes: UnsafeBufferPointer<UInt8>) {
        var runStart = 0
        for index in bytes.indices {
            let byte = bytes[index]
            guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
            self.bytes.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<index]))
            runStart = index + 1
            self.bytes.append(UInt8(ascii: "\\"))
            switch byte {
            case UInt8(ascii: "\""): self.bytes.append(UInt8(ascii: "\""))
            case UInt8(ascii: "\\"): self.bytes.append(UInt8(ascii: "\\"))
            case 0x08: self.bytes.append(UInt8(ascii: "b"))
            case 0x0C: self.bytes.append(UInt8(ascii: "f"))
            case 0x0A: self.bytes.append(UInt8(ascii: "n"))
            case 0x0D: self.bytes.append(UInt8(ascii: "r"))
            case 0x09: self.bytes.append(UInt8(ascii: "t"))
            default:
                self.bytes.append(contentsOf: [UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0")])
                self.bytes.append(jsonHexDigits[Int(byte >> 4)])
                self.bytes.append(jsonHexDigits[Int(byte & 0x0F)])
            }
        }
        self.bytes.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart...]))
    }

    /// Appends standard base64 (RFC 4648 §4) with padding and without line breaks.
    private mutating func appendBase64(_ data: Data) {
        let handled: Void? = data.withContiguousStorageIfAvailable { self.appendBase64($0) }
        if handled == nil {
            let bytes = Array(data)
            bytes.withUnsafeBufferPointer { self.appendBase64($0) }
        }
    }

    private mutating func appendBase64(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes.reserveCapacity(self.bytes.count + (bytes.count + 2) / 3 * 4)
        var index = 0
        while index + 3 <= bytes.count {
            let bits = UInt32(bytes[index]) << 16 | UInt32(bytes[index + 1]) << 8 | UInt32(bytes[index + 2])
            self.bytes.append(base64Alphabet[Int(bits >> 18 & 0x3F)])
            self.bytes.append(base64Alphabet[Int(bits >> 12 & 0x3F)])
            self.bytes.append(base64Alphabet[Int(bits >> 6 & 0x3F)])
            self.bytes.append(base64Alphabet[Int(bits & 0x3F)])
            index += 3
        }
        let remaining = bytes.count - index
        guard remaining > 0 else { return }
        let second = remaining == 2 ? UInt32(bytes[index + 1]) : 0
        let bits = UInt32(bytes[index]) << 16 | second << 8
        self.bytes.append(base64Alphabet[Int(bits >> 18 & 0x3F)])
        self.bytes.append(base64Alphabet[Int(bits >> 12 & 0x3F)])
        self.bytes.append(remaining == 2 ? base64Alphabet[Int(bits >> 6 & 0x3F)] : UInt8(ascii: "="))
        self.bytes.append(UInt8(ascii: "="))
    }
}

private let jsonHexDigits: [UInt8] = Array("0123456789abcdef".utf8)
private let base64Alphabet: [UInt8] = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
