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

/// Runs the built `karchive` executable as a separate process, as a user would.
@Suite(.enabled(if: ChildProcesses.areAvailable)) struct ProcessExitStatusTests {
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
        let executable = Self.executable
        try #require(executable != nil, "karchive was not built next to the tests")
        process.executableURL = executable
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

    @Test func validateExitsOneWithFindingsAndZeroWhenValid() throws {
        let circular = Self.repositoryPath("Tests/TestSupport/Fixtures/apple/circular_archive.plist")
        let invalid = try run(["validate", circular])
        #expect(invalid.status == 1)
        #expect(
            invalid.stdout
                == "\(circular): 1 finding\n  cyclicReference at UID 1: an object reaches itself: UID 1 → UID 1\n"
        )
        #expect(invalid.stderr.isEmpty)
        let valid = try run(["validate", "--allow-cycles", circular, Self.repositoryPath("Examples/cat.archive")])
        #expect(valid.status == 0)
    }

    @Test func dumpsAnArchiveFromStandardInput() throws {
        let archive = try Data(contentsOf: URL(fileURLWithPath: Self.repositoryPath("Examples/cat.archive")))
        let result = try run(["dump", "-"], input: archive)
        #expect(result.status == 0)
        #expect(result.stdout.hasPrefix("root: MyApp.Cat (6 fields)\n"))
        let info = try run(["info", "-"], input: archive)
        #expect(info.status == 0)
        #expect(info.stdout.contains("archiver: NSKeyedArchiver, version 100000\n"))
    }

    @Test func brokenArchiveExitsOneWithOneLine() throws {
        var bytes = try Data(contentsOf: URL(fileURLWithPath: Self.repositoryPath("Examples/cat.archive")))
        bytes.removeLast(10)
        for command in [["dump", "-"], ["dump", "--json", "-"], ["info", "-"], ["convert", "-", "--to", "xml"]] {
            let result = try run(command, input: bytes)
            #expect(result.status == 1)
            #expect(result.stdout.isEmpty)
            #expect(result.stderr.split(separator: "\n").count == 1)
            #expect(result.stderr.hasPrefix("karchive: <stdin>: "))
        }
    }

    static func repositoryPath(_ relative: String) -> String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent(relative).path
    }

    @Test(arguments: [
        ["dump"], ["convert", "x.plist", "--to", "yaml"], ["frobnicate"], ["dump", "--raw", "--nested", "x"],
        ["validate", "--max-depth", "-3", "x"], ["info"],
    ])
    func usageErrorsExitTwo(arguments: [String]) throws {
        let result = try run(arguments)
        #expect(result.status == 2)
        #expect(result.stderr.hasPrefix("Error: "))
    }
}
