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
import PropertyLists

/// `karchive dump`: prints property lists as indented trees or JSON.
struct DumpCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "dump",
        abstract: "Print property lists as an indented tree.",
        discussion: """
            Each line shows one value: dictionary entries as 'key: value', array elements as \
            '[index] value'. Strings are quoted, data shows its size and first bytes in hex, dates \
            are ISO 8601 in UTC. With several files, each is preceded by a '==> FILE <==' header.

            Examples:
              karchive dump Examples/cat.plist
              karchive dump --json Examples/cat.plist
            """
    )

    @OptionGroup var input: InputOptions

    @Flag(help: "Print pretty-printed JSON instead of the tree (the mapping that 'convert --to json' uses).")
    var json = false

    func run() throws {
        let console = Console.current
        let showsHeaders = self.input.files.count > 1
        var printedAny = false
        try self.input.forEachPropertyList { parsed in
            if showsHeaders {
                try console.outputLine((printedAny ? "\n" : "") + "==> \(parsed.file.displayName) <==")
            }
            printedAny = true
            try console.outputLine(self.render(parsed.value))
        }
    }

    /// The text printed for one property list, without its trailing newline.
    func render(_ value: PropertyListValue) -> String {
        if self.json {
            return PropertyListJSONWriter(outputFormatting: .prettyPrinted).string(from: value)
        }
        return PropertyListTreePrinter().string(from: value)
    }
}
