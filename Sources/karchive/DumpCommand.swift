//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-keyed-archive open source project
//
// Licensed under Apache License v2.0
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import ArgumentParser
import KeyedArchiving
import PropertyLists

/// `karchive dump`: prints keyed archives resolved, and property lists, as indented trees or JSON.
struct DumpCommand: ParsableCommand {
    // The `$` names in the help below are user-facing text: the tags of the JSON form, which the
    // JSON writers spell, and `$top` as the manual names it; no format key is read from them.
    static let configuration = CommandConfiguration(
        commandName: "dump",
        abstract: "Print keyed archives and property lists as an indented tree.",
        discussion: """
            A keyed archive (NSKeyedArchiver) is resolved from $top: each line shows one value, \
            objects with their class name and size, fields and dictionary entries as 'key: value', \
            array and set elements as '[index] value'. An object held in several places is printed \
            in full once, marked '[UID n, shared]', and then as '[UID n, shown above at PATH]'; a \
            cycle is marked '[UID n, cycle back to PATH]' instead of being followed. Any other \
            property list prints as its own tree. Strings are quoted, data shows its size and first \
            bytes in hex, dates are ISO 8601 in UTC. With several files, each is preceded by a \
            '==> FILE <==' header.

            --json prints the JSON form instead: an object with one entry per $top key; NSDate, \
            NSData, NSUUID and NSURL as {"$date": …}, {"$data": …}, {"$uuid": …}, {"$url": …}; \
            arrays and sets as arrays; dictionaries as objects (or {"$entries": [[key, value], …]}); \
            other objects as {"$class": NAME, key: value, …}; a cycle as {"$ref": UID}.

            Examples:
              karchive dump Examples/cat.archive
              karchive dump --json Examples/cat.archive
              karchive dump --raw Examples/cat.archive
              karchive dump --nested app-data.plist
              karchive dump Examples/cat.plist
              cat Examples/cat.archive | karchive dump -
            """
    )

    @OptionGroup var input: InputOptions

    @OptionGroup(title: "Limits") var limits: LimitsOptions

    @Flag(help: "Print pretty-printed JSON instead of the tree.")
    var json = false

    @Flag(help: "Show a keyed archive as stored: $top and the $objects table with UIDs, unresolved.")
    var raw = false

    @Flag(help: "Also show archives and property lists nested in data values, instead of their bytes.")
    var nested = false

    func validate() throws {
        if self.raw, self.nested {
            throw ValidationError("--nested does not apply to --raw.")
        }
    }

    func run() throws {
        let console = Console.current
        let showsHeaders = self.input.files.count > 1
        var printedAny = false
        try self.input.forEachPropertyList(limits: self.limits.limits) { parsed in
            let text: String
            do throws(KeyedArchiveError) {
                text = try self.render(parsed.value)
            } catch {
                throw DumpFailure(error: error)
            }
            if showsHeaders {
                try console.outputLine((printedAny ? "\n" : "") + "==> \(parsed.file.displayName) <==")
            }
            printedAny = true
            try console.outputLine(text)
        }
    }

    /// The text printed for one property list, without its trailing newline.
    /// - Throws: ``KeyedArchiveError`` if the property list claims to be a keyed archive but cannot be
    ///   resolved.
    func render(_ value: PropertyListValue) throws(KeyedArchiveError) -> String {
        if self.raw {
            if self.json {
                return PropertyListJSONWriter(outputFormatting: .prettyPrinted).string(from: value)
            }
            if let archive = try? KeyedArchive(detecting: value) {
                return KeyedArchiveTablePrinter().string(from: archive)
            }
            return PropertyListTreePrinter().string(from: value)
        }
        if self.json {
            let writer = ArchivedValueJSONWriter(
                outputFormatting: .prettyPrinted,
                expandsNestedData: self.nested,
                limits: self.limits.limits
            )
            return String(decoding: try writer.write(propertyList: value), as: UTF8.self)
        }
        return try ArchivedValueTreePrinter(expandsNestedData: self.nested, limits: self.limits.limits)
            .string(fromPropertyList: value)
    }
}

/// A keyed archive that `dump` could not resolve, reported with a pointer to the tools that show why.
struct DumpFailure: Error, CustomStringConvertible {
    /// What went wrong.
    var error: KeyedArchiveError

    var description: String {
        "\(self.error) (see 'karchive validate' or 'karchive dump --raw')"
    }
}
