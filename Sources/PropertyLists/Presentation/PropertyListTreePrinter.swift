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

/// Prints a property list value as an indented tree for people to read, one value per line.
///
/// Each line shows one value. Containers show their kind and size, and their contents follow,
/// indented one level: dictionary entries as `key: value`, array elements as `[index] value`.
///
/// ```
/// dictionary (9 entries)
///   name: "Tom"
///   lives: 9
///   weight: 4.5
///   ratio: float 0.25
///   indoor: true
///   tags: array (1 element)
///     [0] "cat"
///   photo: data (1,024 bytes) 89504e47 0d0a1a0a 0000000d 49484452 …
///   born: date 2022-07-25T16:03:35.615284Z
///   owner: UID(1)
/// ```
///
/// - Strings are quoted; `"`, `\`, and control and line-separator characters are escaped Swift-style
///   (`\"`, `\\`, `\n`, `\r`, `\t`, `\0`, `\u{1B}`). Other characters print as they are.
/// - Keys print bare unless they are empty or contain white space, `:`, `"`, `\` or an escaped
///   character, in which case they are quoted like strings.
/// - Integers print in full. Reals print in the shortest form that reads back as the same value
///   (`4.5`, `1e-07`, `-0.0`), or as `nan`, `inf` or `-inf`; 32-bit floats are prefixed with `float`.
/// - Dates print as ISO 8601 in UTC, with microseconds only when present, as ``PropertyListJSONWriter``
///   writes them.
/// - Data prints its size and up to ``maximumDataPreviewCount`` leading bytes in hex, in groups of four,
///   followed by `…` when there are more.
/// - Counts of 1,000 and more are grouped with commas.
public struct PropertyListTreePrinter: Sendable {
    /// The number of spaces each level of nesting adds. Defaults to 2.
    public var indentation: Int
    /// The largest number of leading bytes of a data value to show in hex. Defaults to 16.
    public var maximumDataPreviewCount: Int

    /// Creates a printer.
    /// - Parameters:
    ///   - indentation: The number of spaces each level of nesting adds.
    ///   - maximumDataPreviewCount: The largest number of leading bytes of a data value to show in hex.
    public init(indentation: Int = 2, maximumDataPreviewCount: Int = 16) {
        self.indentation = indentation
        self.maximumDataPreviewCount = maximumDataPreviewCount
    }

    /// Prints `value` and everything it contains, one value per line, without a trailing newline.
    /// - Parameter value: The value to print.
    /// - Returns: The tree.
    /// - Complexity: O(*n*) in the size of the output.
    public func string(from value: PropertyListValue) -> String {
        var emitter = TreeEmitter(printer: self)
        emitter.emitTree(value, depth: 0)
        return String(decoding: emitter.output, as: UTF8.self)
    }

    /// The line that shows `value` itself: a scalar in full, or a container's kind and size.
    ///
    /// ```swift
    /// printer.summary(of: ["a", "b"])  // array (2 elements)
    /// printer.summary(of: .uid(3))     // UID(3)
    /// ```
    /// - Parameter value: The value to describe.
    /// - Returns: One line of text.
    public func summary(of value: PropertyListValue) -> String {
        var emitter = TreeEmitter(printer: self)
        emitter.appendSummary(value)
        return String(decoding: emitter.output, as: UTF8.self)
    }
}

/// The single-use state of one ``PropertyListTreePrinter`` call.
private struct TreeEmitter {
    let indentation: Int
    let maximumDataPreviewCount: Int
    var output: [UInt8] = []

    init(printer: PropertyListTreePrinter) {
        self.indentation = max(0, printer.indentation)
        self.maximumDataPreviewCount = max(0, printer.maximumDataPreviewCount)
        self.output.reserveCapacity(4096)
    }

    mutating func emitTree(_ value: PropertyListValue, depth: Int) {
        self.appendSummary(value)
        switch value {
        case .array(let elements):
            for (index, element) in elements.enumerated() {
                self.startLine(depth: depth + 1)
                self.output.append(UInt8(ascii: "["))
                self.appendASCII(String(index))
                self.output.append(contentsOf: [UInt8(ascii: "]"), UInt8(ascii: " ")])
                self.emitTree(element, depth: depth + 1)
            }
        case .dictionary(let dictionary):
            for (key, element) in dictionary {
                self.startLine(depth: depth + 1)
                self.appendKey(key)
                self.output.append(contentsOf: [UInt8(ascii: ":"), UInt8(ascii: " ")])
                self.emitTree(element, depth: depth + 1)
            }
        default:
            break
        }
    }

    mutating func appendSummary(_ value: PropertyListValue) {
        switch value {
        case .string(let string):
            self.appendQuoted(string)
        case .integer(let integer):
            self.appendASCII(integer.description)
        case .real(let real):
            PropertyListTimestamp.appendReal(real, to: &self.output)
        case .float(let float):
            self.appendASCII("float ")
            self.appendASCII(PropertyListTimestamp.nonFiniteName(float) ?? float.description)
        case .bool(let bool):
            self.appendASCII(bool ? "true" : "false")
        case .date(let date):
            self.appendASCII("date ")
            PropertyListTimestamp.append(interval: date.timeIntervalSinceReferenceDate, to: &self.output)
        case .data(let data):
            self.appendDataSummary(data)
        case .uid(let uid):
            self.appendASCII("UID(")
            self.appendASCII(String(uid.rawValue))
            self.output.append(UInt8(ascii: ")"))
        case .array(let elements):
            self.appendASCII("array (")
            self.appendCount(elements.count, "element", "elements")
            self.output.append(UInt8(ascii: ")"))
        case .dictionary(let dictionary):
            self.appendASCII("dictionary (")
            self.appendCount(dictionary.count, "entry", "entries")
            self.output.append(UInt8(ascii: ")"))
        }
    }

    private mutating func startLine(depth: Int) {
        self.output.append(UInt8(ascii: "\n"))
        self.output.append(contentsOf: repeatElement(UInt8(ascii: " "), count: self.indentation * depth))
    }

    private mutating func appendASCII(_ text: String) {
        self.output.append(contentsOf: text.utf8)
    }

    private mutating func appendDataSummary(_ data: Data) {
        self.appendASCII("data (")
        self.appendCount(data.count, "byte", "bytes")
        self.output.append(UInt8(ascii: ")"))
        let previewCount = min(data.count, self.maximumDataPreviewCount)
        guard previewCount > 0 else { return }
        for (offset, byte) in data.prefix(previewCount).enumerated() {
            if offset % 4 == 0 { self.output.append(UInt8(ascii: " ")) }
            self.output.append(hexDigits[Int(byte >> 4)])
            self.output.append(hexDigits[Int(byte & 0x0F)])
        }
        if previewCount < data.count { self.appendASCII(" …") }
    }

    /// `1 entry`, `2 entries`, `1,024 entries`: a non-negative count with commas between groups of
    /// three digits.
    private mutating func appendCount(_ count: Int, _ singular: String, _ plural: String) {
        let digits = Array(String(count).utf8)
        for (index, digit) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { self.output.append(UInt8(ascii: ",")) }
            self.output.append(digit)
        }
        self.output.append(UInt8(ascii: " "))
        self.appendASCII(count == 1 ? singular : plural)
    }

    /// A dictionary key, bare when that is unambiguous and quoted otherwise.
    private mutating func appendKey(_ key: String) {
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
            self.output.append(contentsOf: key.utf8)
        }
    }

    /// A string in double quotes, escaped Swift-style.
    private mutating func appendQuoted(_ string: String) {
        self.output.append(UInt8(ascii: "\""))
        for scalar in string.unicodeScalars {
            switch scalar.value {
            case 0x22: self.appendASCII(#"\""#)
            case 0x5C: self.appendASCII(#"\\"#)
            case 0x0A: self.appendASCII(#"\n"#)
            case 0x0D: self.appendASCII(#"\r"#)
            case 0x09: self.appendASCII(#"\t"#)
            case 0x00: self.appendASCII(#"\0"#)
            case 0x20..<0x7F: self.output.append(UInt8(truncatingIfNeeded: scalar.value))
            default:
                if Self.needsEscape(scalar) {
                    self.appendASCII(#"\u{"#)
                    self.appendASCII(String(scalar.value, radix: 16, uppercase: true))
                    self.output.append(UInt8(ascii: "}"))
                } else {
                    UTF8.encode(scalar) { self.output.append($0) }
                }
            }
        }
        self.output.append(UInt8(ascii: "\""))
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

private let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)
