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

@Suite struct ConvertCommandTests {
    private let catPath = examplesDirectory.appendingPathComponent("cat.plist").path

    @Test func writesCompactJSONOfTheExample() throws {
        let run = try runTool(["convert", catPath, "--to", "json", "--compact"])
        #expect(run.exitCode == .success)
        #expect(run.errors.isEmpty)
        let expected = """
            {"name":"Tom","lives":9,"weight":4.25,"indoor":true,"born":{"$date":"2022-07-25T16:03:35.615284Z"},\
            "photo":{"$data":"iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4P9MYAARmAczNu+uHAAAAAElFTkSuQmCC"},\
            "tags":["tabby","lazy","ginger"],"owner":{"name":"Ada","since":{"$date":"2023-01-01T12:00:00Z"},"visits":[3,1]}}

            """
        #expect(run.outputText == expected)
    }

    @Test func writesPrettySortedJSON() throws {
        let run = try runTool(["convert", catPath, "--to", "json", "--sort-keys"])
        let expected = """
            {
              "born": {"$date": "2022-07-25T16:03:35.615284Z"},
              "indoor": true,
              "lives": 9,
              "name": "Tom",
              "owner": {
                "name": "Ada",
                "since": {"$date": "2023-01-01T12:00:00Z"},
                "visits": [
                  3,
                  1
                ]
              },
              "photo": {"$data": "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4P9MYAARmAczNu+uHAAAAAElFTkSuQmCC"},
              "tags": [
                "tabby",
                "lazy",
                "ginger"
              ],
              "weight": 4.25
            }

            """
        #expect(run.outputText == expected)
    }

    @Test func writesBinaryThatReadsBackEqual() throws {
        let original = try PropertyListValue(parsing: Data(contentsOf: URL(fileURLWithPath: catPath)))
        let run = try runTool(["convert", catPath, "--to", "binary"])
        #expect(run.exitCode == .success)
        #expect(run.output.starts(with: Array("bplist00".utf8)))
        #expect(try PropertyListValue(parsing: run.output) == original)
    }

    @Test(arguments: Fixtures.appleFixtureNames.filter { $0.hasSuffix(".xml") })
    func roundTripsXMLThroughBinary(name: String) throws {
        try withTemporaryDirectory { directory in
            let xml = Fixtures.appleDirectory.appendingPathComponent(name).path
            let binary = directory.appendingPathComponent("out.plist").path
            let xmlAgain = directory.appendingPathComponent("out.xml").path

            #expect(try runTool(["convert", xml, "--to", "binary", "-o", binary]).exitCode == .success)
            #expect(try runTool(["convert", binary, "--to", "xml", "--output", xmlAgain]).exitCode == .success)

            let original = try PropertyListValue.parse(Data(contentsOf: URL(fileURLWithPath: xml)))
            let viaBinary = try PropertyListValue.parse(Data(contentsOf: URL(fileURLWithPath: binary)))
            let final = try PropertyListValue.parse(Data(contentsOf: URL(fileURLWithPath: xmlAgain)))
            #expect(original.format == .xml)
            #expect(viaBinary.format == .binary)
            #expect(final.format == .xml)
            #expect(viaBinary.value == original.value)
            #expect(final.value == original.value)
            // Converting our own XML again is byte-for-byte stable.
            let again = try runTool(["convert", xmlAgain, "--to", "xml"])
            #expect(try again.output == Array(Data(contentsOf: URL(fileURLWithPath: xmlAgain))))
        }
    }

    @Test func writesTheOutputFile() throws {
        try withTemporaryDirectory { directory in
            let out = directory.appendingPathComponent("cat.json").path
            let run = try runTool(["convert", catPath, "--to", "json", "--compact", "-o", out])
            #expect(run.exitCode == .success)
            #expect(run.output.isEmpty)
            let written = try String(contentsOfFile: out, encoding: .utf8)
            #expect(written.hasPrefix(#"{"name":"Tom","lives":9,"#))
            #expect(written.hasSuffix("}\n"))
        }
    }

    @Test func doesNotCreateTheOutputFileForBadInput() throws {
        try withTemporaryDirectory { directory in
            let out = directory.appendingPathComponent("out.plist").path
            let run = try runTool(["convert", "-", "--to", "xml", "-o", out], standardInput: Array("{}".utf8))
            #expect(run.exitCode == .failure)
            #expect(
                run.errorLines == [
                    "karchive: <stdin>: PropertyListError.unknownFormat at byte 0: neither bplist00 nor XML"
                ]
            )
            #expect(!FileManager.default.fileExists(atPath: out))
        }
    }

    @Test func reportsAnUnwritableOutputFile() throws {
        try withTemporaryDirectory { directory in
            let out = directory.appendingPathComponent("no/such/dir/out.json").path
            let run = try runTool(["convert", catPath, "--to", "json", "-o", out])
            #expect(run.exitCode == .failure)
            #expect(run.errorLines == ["karchive: \(out): No such file or directory"])
        }
    }

    @Test func convertsEachInputAndFailsAtTheEnd() throws {
        let run = try runTool(["convert", "-", catPath, "--to", "json", "--compact"], standardInput: [0x00, 0x01])
        #expect(run.exitCode == .failure)
        #expect(run.errorLines.count == 1)
        #expect(run.outputText.hasPrefix(#"{"name":"Tom""#))
    }

    @Test func rejectsAnOutputFileWithSeveralInputs() throws {
        let (code, message) = try #require(usageError(["convert", "a.plist", "b.plist", "--to", "xml", "-o", "out"]))
        #expect(code == .validationFailure)
        #expect(message == "--output needs exactly one input file, but 2 were given.")
    }

    @Test func rejectsJSONOptionsForOtherFormats() throws {
        let (code, message) = try #require(usageError(["convert", "a.plist", "--to", "xml", "--compact"]))
        #expect(code == .validationFailure)
        #expect(message == "--pretty, --compact, --sort-keys and --raw apply only to --to json.")
    }

    @Test func rejectsAnUnknownFormat() throws {
        let (code, message) = try #require(usageError(["convert", "a.plist", "--to", "yaml"]))
        #expect(code == .validationFailure)
        #expect(message.contains("yaml"))
    }

    @Test func requiresAFormat() throws {
        let (code, message) = try #require(usageError(["convert", "a.plist"]))
        #expect(code == .validationFailure)
        #expect(message.contains("--to"))
    }

    @Test func rejectsBothPrettyAndCompact() throws {
        let (code, _) = try #require(usageError(["convert", "a.plist", "--to", "json", "--pretty", "--compact"]))
        #expect(code == .validationFailure)
    }
}

/// `karchive convert` on keyed archives: lossless between binary and XML, and the resolved JSON form.
@Suite struct ConvertArchiveTests {
    @Test(arguments: [
        "NSKeyedUnarchiver-ComplexTest.plist", "circular_archive.plist", "nsarray_runningprocesses.bplist",
    ])
    func keepsUIDsThroughXMLAndBack(fixture: String) throws {
        try withTemporaryDirectory { directory in
            let binary = Fixtures.appleDirectory.appendingPathComponent(fixture).path
            let xml = directory.appendingPathComponent("archive.xml").path
            let binaryAgain = directory.appendingPathComponent("archive.bplist").path
            #expect(try runTool(["convert", binary, "--to", "xml", "-o", xml]).exitCode == .success)
            #expect(try runTool(["convert", xml, "--to", "binary", "-o", binaryAgain]).exitCode == .success)

            let original = try PropertyListValue(parsing: Data(contentsOf: URL(fileURLWithPath: binary)))
            let viaXML = try PropertyListValue.parse(Data(contentsOf: URL(fileURLWithPath: xml)))
            let final = try PropertyListValue.parse(Data(contentsOf: URL(fileURLWithPath: binaryAgain)))
            #expect(viaXML.format == .xml)
            #expect(final.format == .binary)
            #expect(viaXML.value == original)
            #expect(final.value == original)
            #expect(try String(contentsOfFile: xml, encoding: .utf8).contains("<key>CF$UID</key>"))
            // Every command reads the converted archive the same way.
            #expect(try runTool(["dump", binaryAgain]).outputText == runTool(["dump", binary]).outputText)
            #expect(try runTool(["dump", xml]).outputText == runTool(["dump", binary]).outputText)
        }
    }

    @Test func writesTheResolvedJSONFormOfAnArchive() throws {
        let path = Fixtures.appleDirectory.appendingPathComponent("NSKeyedUnarchiver-ComplexTest.plist").path
        let run = try runTool(["convert", path, "--to", "json", "--compact", "--sort-keys"])
        #expect(run.exitCode == .success)
        #expect(
            run.outputText == #"{"root":{"array":[null,"hello",34545,{"key":"val"}],"string":"hello","#
                + #""url":{"$url":"https://www.swift.org/index.xml"},"uuid":{"$uuid":"71DC068E-3420-45FF-919E-3A267D55EC22"}}}"#
                + "\n"
        )
        let raw = try runTool(["convert", path, "--to", "json", "--compact", "--raw"])
        #expect(raw.outputText.hasPrefix(#"{"$version":100000,"$objects":["$null",{"NS.keys":[{"$uid":2},"#))
    }

    @Test func rejectsRawForOtherFormats() throws {
        let (code, message) = try #require(usageError(["convert", "a.plist", "--to", "binary", "--raw"]))
        #expect(code == .validationFailure)
        #expect(message == "--pretty, --compact, --sort-keys and --raw apply only to --to json.")
    }
}
