//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-keyed-archive open source project
//
// Licensed under Apache License v2.0
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import PropertyLists

/// Prints a keyed archive as it is stored, without resolving it: `$top`, then the `$objects` table
/// with one line per object, labelled with its UID.
///
/// ```
/// $archiver: "NSKeyedArchiver"
/// $version: 100000
/// $top (1 key)
///   root: UID 1
/// $objects (6 objects)
///   [0] $null
///   [1] NSArray {NS.objects: [UID 2, UID 2, UID 3]}
///   [2] "baa"
///   [3] "black"
///   [4] class NSArray (NSArray, NSObject)
/// ```
///
/// An object dictionary shows its class name, taken from the class dictionary its `$class` refers
/// to, and its other keys as they are stored; a scalar stored inline in `$top` shows as it is; when `$class` does not lead to a class dictionary the
/// dictionary is shown with `$class` among its keys. A class dictionary shows `class`, its name and
/// its `$classes` chain. References print as `UID n`; other values print as
/// `PropertyListTreePrinter` prints them, with nested arrays as `[…]` and dictionaries as `{…}`.
public struct KeyedArchiveTablePrinter: Sendable {
    /// The largest number of leading bytes of a data value to show in hex. Defaults to 16.
    public var maximumDataPreviewCount: Int

    /// Creates a printer.
    /// - Parameter maximumDataPreviewCount: The largest number of leading bytes of a data value to show in hex.
    public init(maximumDataPreviewCount: Int = 16) {
        self.maximumDataPreviewCount = maximumDataPreviewCount
    }

    /// Prints the archive's `$top` and `$objects`, without a trailing newline.
    /// - Parameter archive: The archive.
    /// - Returns: The table.
    /// - Complexity: O(*n*) in the size of the archive.
    public func string(from archive: KeyedArchive) -> String {
        var output = TreeOutput(indentation: 2, maximumDataPreviewCount: self.maximumDataPreviewCount)
        output.appendASCII("\(ArchiveFormatKey.archiver): \"\(KeyedArchive.archiverName)\"")
        output.startLine(depth: 0)
        output.appendASCII("\(ArchiveFormatKey.version): \(KeyedArchive.formatVersion)")
        output.startLine(depth: 0)
        output.appendASCII("\(ArchiveFormatKey.top) (")
        output.appendCount(archive.top.count, "key", "keys")
        output.appendASCII(")")
        for entry in archive.top {
            output.startLine(depth: 1)
            output.appendKeyLabel(entry.key)
            Self.appendInline(entry.value, to: &output)
        }
        output.startLine(depth: 0)
        output.appendASCII("\(ArchiveFormatKey.objects) (")
        output.appendCount(archive.objects.count, "object", "objects")
        output.appendASCII(")")
        for (index, object) in archive.objects.enumerated() {
            output.startLine(depth: 1)
            output.appendIndexLabel(index)
            if index == 0, object == KeyedArchive.nullObject {
                output.appendASCII(ArchiveFormatKey.null.string)
            } else {
                Self.appendObject(object, of: archive, to: &output)
            }
        }
        return String(decoding: output.bytes, as: UTF8.self)
    }

    private static func appendObject(_ object: PropertyListValue, of archive: KeyedArchive, to output: inout TreeOutput)
    {
        guard case .dictionary(let dictionary) = object else {
            self.appendInline(object, to: &output)
            return
        }
        if case .string(let name)? = dictionary[ArchiveFormatKey.className.string] {
            output.appendASCII("class ")
            output.appendASCII(name)
            if case .array(let chain)? = dictionary[ArchiveFormatKey.classes.string] {
                output.appendASCII(" (")
                for (index, element) in chain.enumerated() {
                    if index > 0 { output.appendASCII(", ") }
                    if case .string(let className) = element {
                        output.appendASCII(className)
                    } else {
                        self.appendInline(element, to: &output)
                    }
                }
                output.appendASCII(")")
            }
            let others = dictionary.filter {
                $0.key != ArchiveFormatKey.className.string && $0.key != ArchiveFormatKey.classes.string
            }
            if !others.isEmpty {
                output.appendASCII(" ")
                self.appendEntries(others.map { ($0.key, $0.value) }, to: &output)
            }
            return
        }
        if let archivedClass = try? archive.archivedClass(of: object) {
            output.appendASCII(archivedClass.name)
            output.appendASCII(" ")
            self.appendEntries(
                dictionary.filter { $0.key != ArchiveFormatKey.`class`.string }.map { ($0.key, $0.value) },
                to: &output
            )
        } else {
            self.appendEntries(dictionary.map { ($0.key, $0.value) }, to: &output)
        }
    }

    /// `{key: value, …}` on one line.
    private static func appendEntries(_ entries: [(String, PropertyListValue)], to output: inout TreeOutput) {
        output.appendASCII("{")
        for (index, (key, value)) in entries.enumerated() {
            if index > 0 { output.appendASCII(", ") }
            output.appendKeyLabel(key)
            self.appendInline(value, to: &output)
        }
        output.appendASCII("}")
    }

    /// A value on one line: `UID n`, `[…]`, `{…}`, or a scalar as the tree printer shows it.
    private static func appendInline(_ value: PropertyListValue, to output: inout TreeOutput) {
        switch value {
        case .uid(let uid):
            output.appendASCII("UID \(uid.rawValue)")
        case .array(let elements):
            output.appendASCII("[")
            for (index, element) in elements.enumerated() {
                if index > 0 { output.appendASCII(", ") }
                self.appendInline(element, to: &output)
            }
            output.appendASCII("]")
        case .dictionary(let dictionary):
            self.appendEntries(dictionary.map { ($0.key, $0.value) }, to: &output)
        default:
            output.appendSummary(value)
        }
    }
}
