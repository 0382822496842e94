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

    /// Shows a data value as a summary line and a tree below it instead of its bytes, when it
    /// returns one.
    ///
    /// The tree is written as for depth 0 and indented one level below the data value.
    /// `KeyedArchiving` uses this to show property lists and archives nested in data values.
    package var dataRenderer: (@Sendable (Data) -> (summary: String, tree: String)?)?

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
        var emitter = TreeEmitter(output: TreeOutput(printer: self), dataRenderer: self.dataRenderer)
        emitter.emitTree(value, depth: 0)
        return String(decoding: emitter.output.bytes, as: UTF8.self)
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
        var output = TreeOutput(printer: self)
        output.appendSummary(value)
        return String(decoding: output.bytes, as: UTF8.self)
    }
}

/// The single-use state of one ``PropertyListTreePrinter/string(from:)`` call.
private struct TreeEmitter {
    var output: TreeOutput
    let dataRenderer: (@Sendable (Data) -> (summary: String, tree: String)?)?
    /// Stops nesting before the thread's stack runs out; deeper contents are left out, marked.
    var stack = StackGuard()

    mutating func emitTree(_ value: PropertyListValue, depth: Int) {
        switch value {
        case .array(let elements):
            self.output.appendSummary(value)
            guard self.output.makeRoom(forContents: elements.count, stack: &self.stack) else { return }
            for (index, element) in elements.enumerated() {
                self.output.startLine(depth: depth + 1)
                self.output.appendIndexLabel(index)
                self.emitTree(element, depth: depth + 1)
            }
        case .dictionary(let dictionary):
            self.output.appendSummary(value)
            guard self.output.makeRoom(forContents: dictionary.count, stack: &self.stack) else { return }
            for (key, element) in dictionary {
                self.output.startLine(depth: depth + 1)
                self.output.appendKeyLabel(key)
                self.emitTree(element, depth: depth + 1)
            }
        case .data(let data):
            if let (summary, tree) = self.dataRenderer?(data) {
                self.output.appendASCII(summary)
                self.output.startLine(depth: depth + 1)
                self.output.appendNested(tree, depth: depth + 1)
            } else {
                self.output.appendSummary(value)
            }
        default:
            self.output.appendSummary(value)
        }
    }
}
