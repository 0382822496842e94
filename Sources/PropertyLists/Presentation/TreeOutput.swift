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

/// The indented text that ``PropertyListTreePrinter`` and the keyed-archive tree printer build, so both
/// show keys, strings, numbers, dates, data and counts identically.
///
/// The first line starts without a line break; ``startLine(depth:)`` begins every later one.
package struct TreeOutput {
    /// The number of spaces each level of nesting adds.
    package let indentation: Int
    /// The largest number of leading bytes of a data value to show in hex.
    package let maximumDataPreviewCount: Int
    /// The text so far, as UTF-8.
    package var bytes: [UInt8] = []

    /// Creates an empty output.
    package init(indentation: Int, maximumDataPreviewCount: Int) {
        self.indentation = max(0, indentation)
        self.maximumDataPreviewCount = max(0, maximumDataPreviewCount)
        self.bytes.reserveCapacity(4096)
    }

    /// Creates an empty output with a property list printer's settings.
    package init(printer: PropertyListTreePrinter) {
        self.init(indentation: printer.indentation, maximumDataPreviewCount: printer.maximumDataPreviewCount)
    }

    /// Ends the current line and indents the next one for `depth`.
    package mutating func startLine(depth: Int) {
        self.bytes.append(UInt8(ascii: "\n"))
        self.bytes.append(contentsOf: repeatElement(UInt8(ascii: " "), count: self.indentation * depth))
    }

    /// Appends text as it is.
    package mutating func appendASCII(_ text: String) {
        self.bytes.append(contentsOf: text.utf8)
    }

    /// Makes room for the contents of a container of `count` elements: `true` if `stack` has room
    /// to print them, else appends a mark in their place and returns `false`.
    package mutating func makeRoom(forContents count: Int, stack: inout StackGuard) -> Bool {
        guard count > 0, !stack.hasRoom() else { return true }
        self.appendASCII(" [contents nested too deep to print]")
        return false
    }

    /// Appends `[index] `, the label of an array element.
    package mutating func appendIndexLabel(_ index: Int) {
        self.bytes.append(UInt8(ascii: "["))
        self.appendASCII(String(index))
        self.bytes.append(contentsOf: [UInt8(ascii: "]"), UInt8(ascii: " ")])
    }

    /// Appends `key: `, the label of a dictionary entry or field.
    package mutating func appendKeyLabel(_ key: String) {
        self.appendKey(key)
        self.bytes.append(contentsOf: [UInt8(ascii: ":"), UInt8(ascii: " ")])
    }

    /// Appends a tree written for depth 0, indenting its later lines for `depth`.
    package mutating func appendNested(_ text: String, depth: Int) {
        for byte in text.utf8 {
            if byte == UInt8(ascii: "\n") {
                self.startLine(depth: depth)
            } else {
                self.bytes.append(byte)
            }
        }
    }

    /// Appends the line that shows `value` itself: a scalar in full, or a container's kind and size.
    package mutating func appendSummary(_ value: PropertyListValue) {
        switch value {
        case .string(let string):
            self.appendQuoted(string)
        case .integer(let integer):
            self.appendASCII(integer.description)
        case .real(let real):
            PropertyListTimestamp.appendReal(real, to: &self.bytes)
        case .float(let float):
            self.appendASCII("float ")
            self.appendASCII(PropertyListTimestamp.nonFiniteName(float) ?? float.description)
        case .bool(let bool):
            self.appendASCII(bool ? "true" : "false")
        case .date(let date):
            self.appendASCII("date ")
            PropertyListTimestamp.append(interval: date.timeIntervalSinceReferenceDate, to: &self.bytes)
        case .data(let data):
            self.appendDataSummary(data)
        case .uid(let uid):
            self.appendASCII("UID(")
            self.appendASCII(String(uid.rawValue))
            self.bytes.append(UInt8(ascii: ")"))
        case .array(let elements):
            self.appendASCII("array (")
            self.appendCount(elements.count, "element", "elements")
            self.bytes.append(UInt8(ascii: ")"))
        case .dictionary(let dictionary):
            self.appendASCII("dictionary (")
            self.appendCount(dictionary.count, "entry", "entries")
            self.bytes.append(UInt8(ascii: ")"))
        }
    }

    /// Appends `data (N bytes)` and up to ``maximumDataPreviewCount`` leading bytes in hex, in groups
    /// of four, followed by `…` when there are more.
    package mutating func appendDataSummary(_ data: Data) {
        self.appendASCII("data (")
        self.appendCount(data.count, "byte", "bytes")
        self.bytes.append(UInt8(ascii: ")"))
        let previewCount = min(data.count, self.maximumDataPreviewCount)
        guard previewCount > 0 else { return }
        for (offset, byte) in data.prefix(previewCount).enumerated() {
            if offset % 4 == 0 { self.bytes.append(UInt8(ascii: " ")) }
            self.bytes.append(treeHexDigits[Int(byte >> 4)])
            self.bytes.append(treeHexDigits[Int(byte & 0x0F)])
        }
        if previewCount < data.count { self.appendASCII(" …") }
    }

    /// `1 entry`, `2 entries`, `1,024 entries`: a non-negative count with commas between groups of
    /// three digits.
    package mutating func appendCount(_ count: Int, _ singular: String, _ plural: String) {
        let digits = Array(String(count).utf8)
        for (index, digit) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { self.bytes.append(UInt8(ascii: ",")) }
            self.bytes.append(digit)
        }
        self.bytes.append(UInt8(ascii: " "))
        self.appendASCII(count == 1 ? singular : plural)
    }

    /// A dictionary key, bare when that is unambiguous and quoted otherwise.
    package mutating func appendKey(_ key: String) {
        let needsQuotes =
            key.isEmpty
            || key.unicodeScalars.contains { scalar in
                switch scalar.value {
                case 0x00...0x20, 0x22, 0x3A, 0x5C, 0x7F: return true
                case 0x21..<0x80: return false
                default: return Self.needsEscape(scalar) || scalar.properties.isWhitespace
                }
            }
        if needsQuotes {
            self.appendQuoted(key)
        } else {
            self.bytes.append(contentsOf: key.utf8)
        }
    }

    /// A string in double quotes, escaped Swift-style.
    package mutating func appendQuoted(_ string: String) {
        self.bytes.append(UInt8(ascii: "\""))
        for scalar in string.unicodeScalars {
            switch scalar.value {
            case 0x22: self.appendASCII(#"\""#)
            case 0x5C: self.appendASCII(#"\\"#)
            case 0x0A: self.appendASCII(#"\n"#)
            case 0x0D: self.appendASCII(#"\r"#)
            case 0x09: self.appendASCII(#"\t"#)
            case 0x00: self.appendASCII(#"\0"#)
            case 0x20..<0x7F: self.bytes.append(UInt8(truncatingIfNeeded: scalar.value))
            default:
                if Self.needsEscape(scalar) {
                    self.appendASCII(#"\u{"#)
                    self.appendASCII(String(scalar.value, radix: 16, uppercase: true))
                    self.bytes.append(UInt8(ascii: "}"))
                } else {
                    UTF8.encode(scalar) { self.bytes.append($0) }
                }
            }
        }
        self.bytes.append(UInt8(ascii: "\""))
    }

    /// Control characters (C0, DEL, C1) and the line and paragraph separators, which would break the
    /// layout or hide.
    private static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00..<0x20, 0x7F...0x9F, 0x2028, 0x2029: return true
        default: return false
        }
    }
}

private let treeHexDigits: [UInt8] = Array("0123456789abcdef".utf8)
