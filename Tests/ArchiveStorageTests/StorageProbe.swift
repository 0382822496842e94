//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-keyed-archive open source project
//
// Licensed under Apache License v2.0
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation
import TestSupport
import Testing

/// Runs the `storage-probe` executable (Tests/StorageProbe) as a second process.
enum StorageProbe {
    /// The executable next to the test bundle in the build folder, if it was built.
    static let executable: URL? = {
        var directory = Bundle.main.bundleURL
        for _ in 0..<3 {
            let candidate = directory.appendingPathComponent("storage-probe")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            directory = directory.deletingLastPathComponent()
        }
        return nil
    }()

    /// Starts `storage-probe` with `arguments` and returns the running process, its standard
    /// output and standard error unread; its standard input is `input` when given.
    static func start(
        _ arguments: [String],
        environment: [String: String] = [:],
        input: Pipe? = nil
    ) throws -> (process: Process, output: Pipe, error: Pipe) {
        let executable = try #require(Self.executable, "storage-probe was not built next to the tests")
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let output = Pipe()
        let error = Pipe()
        process.standardOutput = output
        process.standardError = error
        if let input { process.standardInput = input }
        try process.run()
        return (process, output, error)
    }

    /// Runs `storage-probe` with `arguments` to completion.
    static func run(
        _ arguments: [String],
        environment: [String: String] = [:]
    ) throws -> (status: Int32, stdout: String, stderr: String) {
        let (process, output, error) = try start(arguments, environment: environment)
        let out = output.fileHandleForReading.readDataToEndOfFile()
        let err = error.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: out, as: UTF8.self), String(decoding: err, as: UTF8.self))
    }
}

@Suite struct StorageProbeTests {
    @Test(.enabled(if: ChildProcesses.areAvailable)) func probeRunsAsASecondProcess() throws {
        let result = try StorageProbe.run(["echo", "hello", "probe"])
        #expect(result == (0, "hello probe\n", ""))
        let unknown = try StorageProbe.run(["no-such-command"])
        #expect(unknown.status == 2)
        #expect(unknown.stderr.hasPrefix("usage: storage-probe"))
    }
}
