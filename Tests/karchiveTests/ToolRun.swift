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
import Foundation
import PropertyLists
import Testing

@testable import karchive

/// What one in-process run of the tool produced.
struct ToolRun {
    var exitCode: ExitCode
    var output: [UInt8]
    var errors: String

    var outputText: String { String(decoding: self.output, as: UTF8.self) }
    var errorLines: [Substring] { self.errors.split(separator: "\n", omittingEmptySubsequences: false).dropLast() }
}

/// Parses `arguments` and runs the command in process, capturing standard output and standard error.
///
/// Usage errors are thrown by `parseAsRoot`, as they are before `run()` in the real tool.
func runTool(_ arguments: [String], standardInput: [UInt8] = []) throws -> ToolRun {
    var command = try Tool.parseAsRoot(arguments)
    let output = CapturingSink()
    let errors = CapturingSink()
    let console = Console(
        readStandardInput: { _ in standardInput },
        standardOutput: output,
        standardError: errors
    )
    var exitCode = ExitCode.success
    do {
        try Console.$current.withValue(console) { try command.run() }
    } catch {
        exitCode = Tool.exitCode(for: error)
    }
    return ToolRun(exitCode: exitCode, output: output.bytes, errors: errors.text)
}

/// The exit code and message the tool shows for a usage error in `arguments`.
func usageError(_ arguments: [String], sourceLocation: SourceLocation = #_sourceLocation) -> (ExitCode, String)? {
    do {
        _ = try Tool.parseAsRoot(arguments)
        Issue.record("\(arguments) parsed without error", sourceLocation: sourceLocation)
        return nil
    } catch {
        return (Tool.exitCode(for: error), Tool.message(for: error))
    }
}

/// A fresh directory under the temporary directory, removed when `body` returns.
func withTemporaryDirectory<R>(_ body: (URL) throws -> R) throws -> R {
    let directory = FileManager.default.temporaryDirectory
        .appendingPathComponent("karchiveTests-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    return try body(directory)
}

/// The repository's `Examples` folder.
let examplesDirectory = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Examples", isDirectory: true)
