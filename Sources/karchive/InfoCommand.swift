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

/// `karchive info`: summarizes keyed archives and property lists.
struct InfoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "info",
        abstract: "Summarize keyed archives and property lists.",
        discussion: """
            Prints the format and size; for a binary property list, the trailer's object count, \
            offset and reference widths; and for a keyed archive, the archiver, version, $top keys, \
            the number of $objects by kind, and how many objects of each class there are, most \
            frequent first. With several files, each is preceded by a '==> FILE <==' header.

            Examples:
              karchive info Examples/cat.archive
              karchive info *.plist
              cat Examples/cat.archive | karchive info -
            """
    )

    @OptionGroup var input: InputOptions

    @OptionGroup(title: "Limits") var limits: LimitsOptions

    func run() throws {
        let console = Console.current
        let showsHeaders = self.input.files.count > 1
        var printedAny = false
        try self.input.forEachInput(limits: self.limits.limits) { file, bytes in
            let info = try ArchiveInfo(bytes: bytes, limits: self.limits.limits)
            if showsHeaders {
                try console.outputLine((printedAny ? "\n" : "") + "==> \(file.displayName) <==")
            }
            printedAny = true
            try console.outputLine(info.description)
        }
    }
}
