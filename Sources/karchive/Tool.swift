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

/// The `karchive` command: inspects and converts property lists.
@main
struct Tool: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "karchive",
        abstract: "Inspect and convert property lists.",
        discussion: """
            Reads binary (bplist00) and XML property lists, detecting the format from the bytes. \
            Use '-' as a file name to read standard input.

            Examples:
              karchive dump Examples/cat.plist
              karchive dump --json a.plist b.plist
              karchive convert Examples/cat.plist --to xml
              karchive convert Examples/cat.plist --to json --compact --sort-keys
              cat Examples/cat.plist | karchive convert - --to binary -o cat-copy.plist
            """,
        version: "0.1.0",
        subcommands: [DumpCommand.self, ConvertCommand.self]
    )

    /// The exit status for a usage error: 2, as POSIX tools use (ArgumentParser's default is 64).
    static let usageErrorStatus: Int32 = 2

    /// Runs the tool: exit status 2 on a usage error, 1 when an input fails, 0 otherwise.
    static func main() {
        do {
            var command = try Self.parseAsRoot()
            try command.run()
        } catch {
            if Self.exitCode(for: error) == .validationFailure {
                // ArgumentParser's message for a usage error already ends with the usage text.
                try? Console.current.standardError.write(Array((Self.fullMessage(for: error) + "\n").utf8))
                Self.exit(withError: ExitCode(Self.usageErrorStatus))
            }
            Self.exit(withError: error)
        }
    }
}
