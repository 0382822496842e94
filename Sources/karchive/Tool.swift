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

/// The `karchive` command: inspects, validates and converts keyed archives and property lists.
@main
struct Tool: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "karchive",
        abstract: "Read NSKeyedArchiver archives and property lists.",
        discussion: """
            Reads binary (bplist00) and XML property lists, detecting the format from the bytes, and \
            resolves the keyed archives (NSKeyedArchiver) among them into readable object trees. Use \
            '-' as a file name to read standard input. Exits 1 when an input cannot be read, with one \
            line per failure on standard error, and 2 on a usage error.

            Examples:
              karchive dump Examples/cat.archive
              karchive dump --json Examples/cat.archive
              karchive info Examples/cat.archive
              karchive validate Examples/cat.archive
              karchive convert Examples/cat.archive --to xml -o cat.xml
              cat cat.xml | karchive convert - --to binary -o cat-again.archive
            """,
        version: "0.1.0",
        subcommands: [DumpCommand.self, ConvertCommand.self, InfoCommand.self, ValidateCommand.self]
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
