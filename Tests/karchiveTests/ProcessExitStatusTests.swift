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
import Testing

/// Runs the built `karchive` executable as a separate process, as a user would.
@Suite struct ProcessExitStatusTests {
    /// The executable next to the test bundle in the build folder, if it was built.
    static let executable: URL? = {
        var directory = Bundle.main.bundleURL
        for _ in 0..<3 {
            let candidate = directory.appendingPathComponent("karchive")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            directory = directory.deletingLastPathComponent()
        }
        return nil
    }()

    static var examplePath: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Examples/cat.plist").path
    }

    private func run(
        _ arguments: [String],
        input: Data? = nil
    ) throws -> (status: Int32, stdout: String, stderr: String) {
        let process = Process()
        process.executableURL = try #require(Self.executable, "karchive was not built next to the tests")
        process.arguments = arguments
        let output = Pipe()
        let error = Pipe()
        let stdin = Pipe()
        process.standardOutput = output
        process.standardError = error
        process.standardInput = stdin
        try process.run()
        if let input { stdin.fileHandleForWriting.write(input) }
        try stdin.fileHandleForWriting.close()
        let out = output.fileHandleForReading.readDataToEndOfFile()
        let err = error.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: out, as: UTF8.self), String(decoding: err, as: UTF8.self))
    }

    @Test func successExitsZero() throws {
        let result = try run(["dump", Self.examplePath])
        #expect(result.status == 0)
        #expect(result.stdout.hasPrefix("dictionary"))
        #expect(result.stderr.isEmpty)
    }

    @Test func badInputExitsOneWithOneLine() throws {
        let result = try run(["dump", "-"], input: Data("bplist00 but not really".utf8))
        #expect(result.status == 1)
        #expect(result.stdout.isEmpty)
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.count == 1)
        #expect(lines.first?.hasPrefix("karchive: <stdin>: PropertyListError.") == true)
    }

    @Test func missingFileExitsOne() throws {
        let result = try run(["convert", "/nonexistent/file.plist", "--to", "xml"])
        #expect(result.status == 1)
        #expect(result.stderr == "karchive: /nonexistent/file.plist: No such file or directory\n")
    }

    @Test(arguments: [["dump"], ["convert", "x.plist", "--to", "yaml"], ["frobnicate"]])
    func usageErrorsExitTwo(arguments: [String]) throws {
        let result = try run(arguments)
        #expect(result.status == 2)
        #expect(result.stderr.hasPrefix("Error: "))
    }
}
