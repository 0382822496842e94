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

/// Writes a property list value as JSON text, with a stable mapping for the kinds JSON lacks.
///
/// | Property list | JSON |
/// |---|---|
/// | dictionary | object, keys in stored order (or sorted, see ``OutputFormatting/sortedKeys``) |
/// | array | array |
/// | string | string; `"`, `\`, and control characters escaped, other characters as UTF-8 |
/// | integer | number, exact from `Int64.min` through `UInt64.max` |
/// | real, float | number in the shortest form that reads back as the same value; `{"$real": "nan"}`, `"inf"` or `"-inf"` when not finite |
/// | bool | `true` or `false` |
/// | data | `{"$data": "<standard base64 with padding>"}` |
/// | date | `{"$date": "2022-07-25T16:03:35.615284Z"}` |
/// | UID | `{"$uid": 1}` |
///
/// Dates are ISO 8601 in UTC, with a fraction of up to six digits (microseconds, trailing zeros
/// trimmed) only when the date has one. Years outside 0000...9999 use the expanded form (`+10000`,
/// `-0001`). A date that is not finite or lies more than 10¹⁵ seconds from 2001 is written as its
/// interval since 2001-01-01T00:00:00Z in seconds (`{"$date": "nan"}`, `{"$date": "1e+300"}`); such
/// strings never contain a `T`.
///
/// A dictionary whose only key is `$data`, `$date`, `$real`, `$uid` or `$dict` would read as one of the
/// tagged values above, so it is wrapped: `{"$dict": {"$uid": "not a UID"}}`. Any other dictionary,
/// including a keyed archive's `{"$archiver": …, "$objects": …}`, is written as a plain object.
///
/// ```swift
/// let value: PropertyListValue = ["name": "Tom", "tags": ["cat"], "owner": .uid(1)]
/// PropertyListJSONWriter().string(from: value)
/// // {"name":"Tom","tags":["cat"],"owner":{"$uid":1}}
/// ```
public struct PropertyListJSONWriter: Sendable {
    /// Options that change the layout of the JSON text, not its content.
    public struct OutputFormatting: OptionSet, Hashable, Sendable {
        /// The bits of the option set.
        public let rawValue: UInt

        /// Creates options from their bits.
        public init(rawValue: UInt) {
            self.rawValue = rawValue
        }

        /// One entry or element per line, indented by two spaces per level, with `"key": value`.
        /// Tagged values such as `{"$uid": 1}` stay on one line.
        public static let prettyPrinted = OutputFormatting(rawValue: 1 << 0)
        /// Dictionary keys in the order of their UTF-8 bytes (Unicode code point order) instead of stored order.
        public static let sortedKeys = OutputFormatting(rawValue: 1 << 1)
    }

    /// The layout of the output. Defaults to compact, with keys in stored order.
    public var outputFormatting: OutputFormatting

    /// Creates a writer.
    /// - Parameter outputFormatting: The layout of the output.
    public init(outputFormatting: OutputFormatting = []) {
        self.outputFormatting = outputFormatting
    }

    /// Writes `value` as UTF-8 JSON text, without a trailing newline.
    /// - Parameter value: The value to write.
    /// - Returns: The JSON text.
    /// - Complexity: O(*n*) in the size of the output, plus O(*k* log *k*) per dictionary of *k* keys
    ///   when sorting keys.
    public func write(_ value: PropertyListValue) -> [UInt8] {
        var emitter = JSONEmitter(
            prettyPrinted: self.outputFormatting.contains(.prettyPrinted),
            sortsKeys: self.outputFormatting.contains(.sortedKeys)
        )
        emitter.emit(value, depth: 0)
        return emitter.output
    }

    /// Writes `value` as JSON text, without a trailing newline.
    /// - Parameter value: The value to write.
    /// - Returns: The JSON text.
    public func string(from value: PropertyListValue) -> String {
        String(decoding: self.write(value), as: UTF8.self)
    }
}

/// The single-use state of one ``PropertyListJSONWriter/write(_:)`` call.
private struct JSONEmitter {
    private static let tags: Set<String> = ["$data", "$date", "$real", "$uid", "$dict"]

    let prettyPrinted: Bool
    let sortsKeys: Bool
    var output: [UInt8] = []

    init(prettyPrinted: Bool, sortsKeys: Bool) {
        self.prettyPrinted = prettyPrinted
        self.sortsKeys = sortsKeys
        self.output.reserveCapacity(4096)
    }

    mutating func emit(_ value: PropertyListValue, depth: Int) {
        switch value {
        case .string(let string):
            self.appendString(string)
        case .integer(let integer):
            self.appendASCII(integer.description)
        case .real(let real):
            self.appendNumber(real)
        case .float(let float):
            if PropertyListTimestamp.nonFiniteName(float) != nil {
                self.appendNumber(Double(float))
            } else {
                self.appendASCII(float.description)
            }
        case .bool(let bool):
            self.appendASCII(bool ? "true" : "false")
        case .date(let date):
            self.openTag("$date")
            self.output.append(UInt8(ascii: "\""))
            PropertyListTimestamp.append(interval: date.timeIntervalSinceReferenceDate, to: &self.output)
            self.output.append(UInt8(ascii: "\""))
            self.output.append(UInt8(ascii: "}"))
        case .data(let data):
            self.openTag("$data")
            self.output.append(UInt8(ascii: "\""))
            self.appendBase64(data)
            self.output.append(UInt8(ascii: "\""))
            self.output.append(UInt8(ascii: "}"))
        case .uid(let uid):
            self.openTag("$uid")
            self.appendASCII(String(uid.rawValue))
            self.output.append(UInt8(ascii: "}"))
        case .array(let elements):
            self.emitArray(elements, depth: depth)
        case .dictionary(let dictionary):
            if dictionary.count == 1, let key = dictionary.first?.key, Self.tags.contains(key) {
                self.openTag("$dict")
                self.emitDictionary(dictionary, depth: depth)
                self.output.append(UInt8(ascii: "}"))
            } else {
                self.emitDictionary(dictionary, depth: depth)
            }
        }
    }

    private mutating func emitArray(_ elements: [PropertyListValue], depth: Int) {
        self.output.append(UInt8(ascii: "["))
        guard !elements.isEmpty else {
            self.output.append(UInt8(ascii: "]"))
            return
        }
        for (index, element) in elements.enumerated() {
            if index > 0 { self.output.append(UInt8(ascii: ",")) }
            self.newline(depth: depth + 1)
            self.emit(element, depth: depth + 1)
        }
        self.newline(depth: depth)
        self.output.append(UInt8(ascii: "]"))
    }

    private mutating func emitDictionary(_ dictionary: PropertyListDictionary, depth: Int) {
        self.output.append(UInt8(ascii: "{"))
        guard !dictionary.isEmpty else {
            self.output.append(UInt8(ascii: "}"))
            return
        }
        var first = true
        func entry(_ key: String, _ value: PropertyListValue, into emitter: inout JSONEmitter) {
            if !first { emitter.output.append(UInt8(ascii: ",")) }
            first = false
            emitter.newline(depth: depth + 1)
            emitter.appendString(key)
            emitter.appendColon()
            emitter.emit(value, depth: depth + 1)
        }
        if self.sortsKeys {
            let sorted = dictionary.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
            for (key, value) in sorted { entry(key, value, into: &self) }
        } else {
            for (key, value) in dictionary { entry(key, value, into: &self) }
        }
        self.newline(depth: depth)
        self.output.append(UInt8(ascii: "}"))
    }

    /// Writes `{"<tag>":` followed by a space when pretty-printing; the caller closes the brace.
    private mutating func openTag(_ tag: StaticString) {
        self.output.append(UInt8(ascii: "{"))
        self.output.append(UInt8(ascii: "\""))
        tag.withUTF8Buffer { self.output.append(contentsOf: $0) }
        self.output.append(UInt8(ascii: "\""))
        self.appendColon()
    }

    private mutating func appendColon() {
        self.output.append(UInt8(ascii: ":"))
        if self.prettyPrinted { self.output.append(UInt8(ascii: " ")) }
    }

    private mutating func newline(depth: Int) {
        guard self.prettyPrinted else { return }
        self.output.append(UInt8(ascii: "\n"))
        self.output.append(contentsOf: repeatElement(UInt8(ascii: " "), count: 2 * depth))
    }

    private mutating func appendASCII(_ text: String) {
        self.output.append(contentsOf: text.utf8)
    }

    private mutating func appendNumber(_ value: Double) {
        if let name = PropertyListTimestamp.nonFiniteName(value) {
            self.openTag("$real")
            self.output.append(UInt8(ascii: "\""))
            self.appendASCII(name)
            self.output.append(UInt8(ascii: "\""))
            self.output.append(UInt8(ascii: "}"))
        } else {
            self.appendASCII(value.description)
        }
    }

    private mutating func appendString(_ string: String) {
        self.output.append(UInt8(ascii: "\""))
        let handled: Void? = string.utf8.withContiguousStorageIfAvailable { self.appendEscaped($0) }
        if handled == nil {
            let bytes = Array(string.utf8)
            bytes.withUnsafeBufferPointer { self.appendEscaped($0) }
        }
        self.output.append(UInt8(ascii: "\""))
    }

    /// Appends UTF-8 bytes, escaping what JSON requires; runs that need no escaping are copied at once.
    private mutating func appendEscaped(_ bytes: UnsafeBufferPointer<UInt8>) {
        var runStart = 0
        for index in bytes.indices {
            let byte = bytes[index]
            guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
            self.output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<index]))
            runStart = index + 1
            self.output.append(UInt8(ascii: "\\"))
            switch byte {
            case UInt8(ascii: "\""): self.output.append(UInt8(ascii: "\""))
            case UInt8(ascii: "\\"): self.output.append(UInt8(ascii: "\\"))
            case 0x08: self.output.append(UInt8(ascii: "b"))
            case 0x0C: self.output.append(UInt8(ascii: "f"))
            case 0x0A: self.output.append(UInt8(ascii: "n"))
            case 0x0D: self.output.append(UInt8(ascii: "r"))
            case 0x09: self.output.append(UInt8(ascii: "t"))
            default:
                self.output.append(contentsOf: [UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0")])
                self.output.append(hexDigits[Int(byte >> 4)])
                self.output.append(hexDigits[Int(byte & 0x0F)])
            }
        }
        self.output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart...]))
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
        self.output.reserveCapacity(self.output.count + (bytes.count + 2) / 3 * 4)
        var index = 0
        while index + 3 <= bytes.count {
            let bits = UInt32(bytes[index]) << 16 | UInt32(bytes[index + 1]) << 8 | UInt32(bytes[index + 2])
            self.output.append(base64Alphabet[Int(bits >> 18 & 0x3F)])
            self.output.append(base64Alphabet[Int(bits >> 12 & 0x3F)])
            self.output.append(base64Alphabet[Int(bits >> 6 & 0x3F)])
            self.output.append(base64Alphabet[Int(bits & 0x3F)])
            index += 3
        }
        let remaining = bytes.count - index
        guard remaining > 0 else { return }
        let second = remaining == 2 ? UInt32(bytes[index + 1]) : 0
        let bits = UInt32(bytes[index]) << 16 | second << 8
        self.output.append(base64Alphabet[Int(bits >> 18 & 0x3F)])
        self.output.append(base64Alphabet[Int(bits >> 12 & 0x3F)])
        self.output.append(remaining == 2 ? base64Alphabet[Int(bits >> 6 & 0x3F)] : UInt8(ascii: "="))
        self.output.append(UInt8(ascii: "="))
    }
}

private let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)
private let base64Alphabet: [UInt8] = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
