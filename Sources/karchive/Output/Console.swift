//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-keyed-archive open source project
//
// Licensed under Apache License v2.0
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// The tool's standard streams, replaceable for a task so tests can run commands in process.
///
/// Commands never call `print`; they write through ``current``, which tests bind with
/// `Console.$current.withValue(…)`.
struct Console: Sendable {
    /// Reads all of standard input, failing once it passes the byte limit given.
    var readStandardInput: @Sendable (_ limit: Int) throws -> [UInt8]
    /// Where results go.
    var standardOutput: any OutputSink
    /// Where diagnostics go.
    var standardError: any OutputSink

    /// The process's own standard streams.
    static let process = Console(
        readStandardInput: { limit in
            try FileIO.readAll(from: FileIO.standardInput, name: InputFile.standardInputName, limit: limit)
        },
        standardOutput: FileDescriptorSink(descriptor: FileIO.standardOutput, name: "<stdout>"),
        standardError: FileDescriptorSink(descriptor: FileIO.standardError, name: "<stderr>")
    )

    /// The streams of the current task.
    @TaskLocal static var current: Console = .process

    /// Writes `bytes` to standard output.
    func output(_ bytes: [UInt8]) throws(FileError) {
        try self.standardOutput.write(bytes)
    }

    /// Writes `text` and a newline to standard output.
    func outputLine(_ text: String) throws(FileError) {
        try self.standardOutput.write(Array((text + "\n").utf8))
    }

    /// Writes `karchive: <subject>: <message>` as one line to standard error.
    ///
    /// The message is cut at its first line break so each failure is exactly one line.
    func reportError(_ message: String, subject: String) {
        let firstLine = message.prefix { !$0.isNewline }
        try? self.standardError.write(Array("karchive: \(subject): \(firstLine)\n".utf8))
    }
}
