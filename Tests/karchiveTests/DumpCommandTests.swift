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

@Suite struct DumpCommandTests {
    private let catPath = examplesDirectory.appendingPathComponent("cat.plist").path

    private let catTree = """
        dictionary (8 entries)
          name: "Tom"
          lives: 9
          weight: 4.25
          indoor: true
          born: date 2022-07-25T16:03:35.615284Z
          photo: data (69 bytes) 89504e47 0d0a1a0a 0000000d 49484452 …
          tags: array (3 elements)
            [0] "tabby"
            [1] "lazy"
            [2] "ginger"
          owner: dictionary (3 entries)
            name: "Ada"
            since: date 2023-01-01T12:00:00Z
            visits: array (2 elements)
              [0] 3
              [1] 1

        """

    @Test func printsTheTreeOfTheExample() throws {
        let run = try runTool(["dump", catPath])
        #expect(run.exitCode == .success)
        #expect(run.outputText == catTree)
        #expect(run.errors.isEmpty)
    }

    @Test func printsJSONWhenAsked() throws {
        let run = try runTool(["dump", "--json", catPath])
        #expect(run.exitCode == .success)
        #expect(run.outputText.hasPrefix("{\n  \"name\": \"Tom\",\n  \"lives\": 9,\n"))
        #expect(run.outputText.hasSuffix("\n}\n"))
    }

    @Test func readsStandardInput() throws {
        let value: PropertyListValue = ["a": [1, "two"], "b": .uid(3)]
        let bytes = try Array(Data(contentsOf: URL(fileURLWithPath: catPath)))
        let run = try runTool(["dump", "-"], standardInput: bytes)
        #expect(run.outputText == catTree)
        // The printer is the one `description` uses.
        #expect(
            value.description
                == "dictionary (2 entries)\n  a: array (2 elements)\n    [0] 1\n    [1] \"two\"\n  b: UID(3)"
        )
    }

    @Test func headsEachFileWhenThereAreSeveral() throws {
        let bytes = try Array(Data(contentsOf: URL(fileURLWithPath: catPath)))
        let run = try runTool(["dump", catPath, "-"], standardInput: bytes)
        #expect(run.exitCode == .success)
        #expect(run.outputText == "==> \(catPath) <==\n" + catTree + "\n==> <stdin> <==\n" + catTree)
    }

    @Test func reportsBadInputInOneLineAndCarriesOn() throws {
        try withTemporaryDirectory { directory in
            let bad = directory.appendingPathComponent("bad.plist").path
            try Data("not a property list".utf8).write(to: URL(fileURLWithPath: bad))
            let missing = directory.appendingPathComponent("missing.plist").path

            let run = try runTool(["dump", bad, missing, catPath])
            #expect(run.exitCode == .failure)
            #expect(
                run.errorLines == [
                    "karchive: \(bad): PropertyListError.unknownFormat at byte 0: neither bplist00 nor XML",
                    "karchive: \(missing): No such file or directory",
                ]
            )
            #expect(run.outputText == "==> \(catPath) <==\n" + catTree)
        }
    }

    @Test func reportsTruncatedBinaryInputWithItsCodeAndOffset() throws {
        let bytes = try Array(Data(contentsOf: URL(fileURLWithPath: catPath)))
        let run = try runTool(["dump", "-"], standardInput: Array(bytes.prefix(100)))
        #expect(run.exitCode == .failure)
        #expect(run.output.isEmpty)
        #expect(run.errorLines.count == 1)
        let line = try #require(run.errorLines.first)
        #expect(line.hasPrefix("karchive: <stdin>: PropertyListError."))
        #expect(line.contains("byte"))
    }

    @Test func reportsADirectoryAsUnreadable() throws {
        try withTemporaryDirectory { directory in
            let run = try runTool(["dump", directory.path])
            #expect(run.exitCode == .failure)
            #expect(run.errorLines == ["karchive: \(directory.path): Is a directory"])
        }
    }

    @Test func requiresAFile() throws {
        let (code, message) = try #require(usageError(["dump"]))
        #expect(code == .validationFailure)
        #expect(message.contains("Missing expected argument"))
    }

    @Test(arguments: Fixtures.appleFixtureNames)
    func dumpsEveryAppleFixture(name: String) throws {
        let path = Fixtures.appleDirectory.appendingPathComponent(name).path
        let run = try runTool(["dump", path])
        #expect(run.errors.isEmpty)
        #expect(run.exitCode == .success)
        #expect(!run.output.isEmpty)
    }
}
