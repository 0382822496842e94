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

    /// Writes a data value as other JSON text instead of `{"$data": …}`, when it returns some.
    ///
    /// The text is written as for depth 0 and re-indented where it lands. `KeyedArchiving` uses this
    /// to show property lists and archives nested in data values.
    package var dataRenderer: (@Sendable (Data) -> [UInt8]?)?

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
            output: JSONOutput(prettyPrinted: self.outputFormatting.contains(.prettyPrinted)),
            sortsKeys: self.outputFormatting.contains(.sortedKeys),
            dataRenderer: self.dataRenderer
        )
        emitter.emit(value, depth: 0)
        return emitter.output.bytes
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
    /// Keys that make a one-entry dictionary read as a tagged value: the JSON form's own, not keys
    /// of the archive format (which `KeyedArchiving`'s `ArchiveFormatKey` spells).
    private static let tags: Set<String> = ["$data", "$date", "$real", "$uid", "$dict"]

    var output: JSONOutput
    let sortsKeys: Bool
    let dataRenderer: (@Sendable (Data) -> [UInt8]?)?

    mutating func emit(_ value: PropertyListValue, depth: Int) {
        switch value {
        case .string(let string):
            self.output.appendString(string)
        case .integer(let integer):
            self.output.appendInteger(integer)
        case .real(let real):
            self.output.appendReal(real)
        case .float(let float):
            self.output.appendFloat(float)
        case .bool(let bool):
            self.output.appendBool(bool)
        case .date(let date):
            self.output.appendDate(date)
        case .data(let data):
            if let rendered = self.dataRenderer?(data) {
                self.output.appendNested(rendered, depth: depth)
            } else {
                self.output.appendData(data)
            }
        case .uid(let uid):
            self.output.appendTagged("$uid", number: uid.rawValue)
        case .array(let elements):
            self.output.append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                self.output.beginElement(index, depth: depth)
                self.emit(element, depth: depth + 1)
            }
            self.output.endContainer(UInt8(ascii: "]"), count: elements.count, depth: depth)
        case .dictionary(let dictionary):
            if dictionary.count == 1, let key = dictionary.first?.key, Self.tags.contains(key) {
                self.output.openTag("$dict")
                self.emitDictionary(dictionary, depth: depth)
                self.output.append(UInt8(ascii: "}"))
            } else {
                self.emitDictionary(dictionary, depth: depth)
            }
        }
    }

    private mutating func emitDictionary(_ dictionary: PropertyListDictionary, depth: Int) {
        self.output.append(UInt8(ascii: "{"))
        var index = 0
        func entry(_ key: String, _ value: PropertyListValue, into emitter: inout JSONEmitter) {
            emitter.output.beginElement(index, depth: depth)
            index += 1
            emitter.output.appendString(key)
            emitter.output.appendColon()
            emitter.emit(value, depth: depth + 1)
        }
        if self.sortsKeys {
            let sorted = dictionary.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
            for (key, value) in sorted { entry(key, value, into: &self) }
        } else {
            for (key, value) in dictionary { entry(key, value, into: &self) }
        }
        self.output.endContainer(UInt8(ascii: "}"), count: dictionary.count, depth: depth)
    }
}
