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

@Suite struct InfoCommandTests {
    @Test(arguments: [
        "complex_archive.plist", "nsarray_runningprocesses.bplist", "NSKeyedUnarchiver-OrderedSetTest.plist",
    ])
    func summarizesAppleFixtures(fixture: String) throws {
        let run = try runTool(["info", Fixtures.appleDirectory.appendingPathComponent(fixture).path])
        #expect(run.exitCode == .success)
        #expect(run.errors.isEmpty)
        ExpectedOutput.expect(run.outputText, matches: "info-\(fixture).txt")
    }

    @Test func summarizesTheExamplesWithHeaders() throws {
        let archive = examplesDirectory.appendingPathComponent("cat.archive").path
        let plist = examplesDirectory.appendingPathComponent("cat.plist").path
        let run = try runTool(["info", archive, plist])
        #expect(run.exitCode == .success)
        let text = run.outputText
            .replacingOccurrences(of: archive, with: "Examples/cat.archive")
            .replacingOccurrences(of: plist, with: "Examples/cat.plist")
        ExpectedOutput.expect(text, matches: "info-examples.txt")
    }

    @Test func reportsBadInputAndCarriesOn() throws {
        let plist = examplesDirectory.appendingPathComponent("cat.plist").path
        let run = try runTool(["info", "-", plist], standardInput: Array("garbage".utf8))
        #expect(run.exitCode == .failure)
        #expect(
            run.errorLines == [
                "karchive: <stdin>: KeyedArchiveError.malformedPropertyList: not a property list "
                    + "(PropertyListError.unknownFormat at byte 0: neither bplist00 nor XML)"
            ]
        )
        #expect(run.outputText.hasSuffix("top level: dictionary (8 entries)\nnot a keyed archive\n"))
    }
}
