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
import TestSupport
import Testing

@testable import karchive

/// Every command reads with the limits its options set, and hostile input fails with a typed error.
@Suite struct LimitsOptionsTests {
    private static let commands = ["dump", "info", "validate", "convert"]

    private func malformed(_ name: String) -> String {
        Fixtures.malformedDirectory.appendingPathComponent(name).path
    }

    @Test(arguments: commands)
    func everyCommandTakesTheLimits(command: String) throws {
        let path = Fixtures.appleDirectory.appendingPathComponent("complex_archive.plist").path
        let extra = command == "convert" ? ["--to", "xml"] : []
        let run = try runTool([command] + extra + ["--max-input-size", "100", path])
        #expect(run.exitCode == .failure)
        #expect(run.outputText.contains("sizeLimitExceeded") || run.errors.contains("sizeLimitExceeded"))
        let loose = try runTool([command] + extra + ["--max-input-size", "100000", "--max-depth", "64", path])
        #expect(loose.exitCode == .success)
    }

    @Test(arguments: [
        ("--max-depth=0", "--max-depth must be positive, but is 0."),
        ("--max-input-size=-1", "--max-input-size must be positive, but is -1."),
        ("--max-objects=0", "--max-objects must be positive, but is 0."),
        ("--max-expansion=0", "--max-expansion must be positive, but is 0."),
        ("--max-string-length=-1", "--max-string-length must not be negative, but is -1."),
        ("--decoded-size-allowance=-5", "--decoded-size-allowance must not be negative, but is -5."),
    ])
    func nonsensicalLimitsAreUsageErrors(option: String, expected: String) throws {
        for command in Self.commands {
            let (code, message) = try #require(usageError([command, option, "x.plist"]))
            #expect(code == .validationFailure)
            #expect(message == expected)
        }
    }

    @Test func dumpStopsAtTheDecodedSizeBudget() throws {
        let plist = try runTool(["dump", self.malformed("billion-laughs.bplist")])
        #expect(plist.exitCode == .failure)
        #expect(plist.errors.contains("decodedSizeLimitExceeded"))
        let json = try runTool(["dump", "--json", self.malformed("billion-laughs.archive")])
        #expect(json.exitCode == .failure)
        #expect(json.errors.contains("decodedSizeLimitExceeded"))
        // The tree shows each shared object once, so it stays small.
        let tree = try runTool(["dump", self.malformed("billion-laughs.archive")])
        #expect(tree.exitCode == .success)
        #expect(tree.output.count < 10_000)
        let validate = try runTool(["validate", self.malformed("billion-laughs.archive")])
        #expect(validate.outputText.contains("decodedSizeLimitExceeded"))
    }

    @Test func printsInlineTopLevelScalars() throws {
        let path = Fixtures.foundationDirectory.appendingPathComponent("top-inline-scalars.archive").path
        let dump = try runTool(["dump", path])
        #expect(dump.exitCode == .success)
        #expect(dump.outputText.contains("count: 42\n"))
        #expect(dump.outputText.contains("flag: true\n"))
        #expect(dump.outputText.contains("ratio: 2.5\n"))
        #expect(dump.outputText.contains("root: NSArray (3 elements)"))
        let json = try runTool(["dump", "--json", path])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.output)) as? [String: Any])
        #expect(object["count"] as? Int == 42)
        #expect(object["flag"] as? Bool == true)
        #expect(object["ratio"] as? Double == 2.5)
        #expect(object["root"] as? [String] == ["tabby", "tabby", "striped"])
        let raw = try runTool(["dump", "--raw", path])
        #expect(raw.outputText.contains("  count: 42\n"))
        let info = try runTool(["info", path])
        #expect(info.exitCode == .success)
        #expect(info.outputText.contains("count"))
        let validate = try runTool(["validate", path])
        #expect(validate.outputText == "\(path): valid\n")
    }
}
