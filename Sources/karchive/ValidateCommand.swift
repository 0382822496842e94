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

/// `karchive validate`: checks keyed archives strictly and lists every problem.
struct ValidateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "validate",
        abstract: "Check keyed archives strictly.",
        discussion: """
            Checks the envelope ($archiver, $version, $top, $objects), that every UID is in range, \
            that class dictionaries are well formed and every object has a valid $class, that \
            NS.keys and NS.objects match in length, that no object reaches itself (unless \
            --allow-cycles), and that objects nest no deeper than --max-depth and stay within the \
            other limits. Prints 'FILE: valid', \
            or 'FILE: N findings' followed by one line per finding ('CODE at UID n: what and where'). \
            Exits 0 when every file is valid and 1 otherwise.

            Examples:
              karchive validate Examples/cat.archive
              karchive validate --allow-cycles *.archive
              cat Examples/cat.archive | karchive validate -
            """
    )

    @OptionGroup var input: InputOptions

    @Flag(
        help: "Accept objects that reach themselves, as Apple's archiver writes for objects that refer to each other."
    )
    var allowCycles = false

    @OptionGroup(title: "Limits") var limits: LimitsOptions

    func run() throws {
        let console = Console.current
        let validator = ArchiveValidator(
            allowsCycles: self.allowCycles,
            limits: self.limits.limits
        )
        try self.input.forEachInput(limits: self.limits.limits) { file, bytes in
            let findings = validator.validate(bytes: bytes)
            guard !findings.isEmpty else {
                try console.outputLine("\(file.displayName): valid")
                return
            }
            var lines = ["\(file.displayName): \(findings.count) finding\(findings.count == 1 ? "" : "s")"]
            lines += findings.map { "  \($0)" }
            try console.outputLine(lines.joined(separator: "\n"))
            throw ExitCode.failure
        }
    }
}
