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

@Suite struct ValidateCommandTests {
    private static let nsArray: PropertyListValue = ["$classname": "NSArray", "$classes": ["NSArray", "NSObject"]]

    private func archive(_ objects: [PropertyListValue], top: PropertyListValue = ["root": .uid(1)]) -> [UInt8] {
        let value: PropertyListValue = [
            "$version": 100_000, "$archiver": "NSKeyedArchiver", "$top": top, "$objects": .array(objects),
        ]
        return Array(value.serialized(as: .binary))
    }

    @Test func acceptsEveryAppleFixtureAndTheExample() throws {
        let paths =
            Fixtures.appleFixtureNames.filter { $0 != "circular_archive.plist" }
            .map { Fixtures.appleDirectory.appendingPathComponent($0).path }
            + [examplesDirectory.appendingPathComponent("cat.archive").path]
        let run = try runTool(["validate"] + paths)
        #expect(run.exitCode == .success)
        #expect(run.errors.isEmpty)
        #expect(run.outputText == paths.map { "\($0): valid\n" }.joined())
    }

    @Test func reportsACycleUnlessAllowed() throws {
        let path = Fixtures.appleDirectory.appendingPathComponent("circular_archive.plist").path
        let run = try runTool(["validate", path])
        #expect(run.exitCode == .failure)
        #expect(
            run.outputText
                == "\(path): 1 finding\n  cyclicReference at UID 1: an object reaches itself: UID 1 → UID 1\n"
        )
        #expect(run.errors.isEmpty)
        #expect(try runTool(["validate", "--allow-cycles", path]).exitCode == .success)
    }

    @Test func listsEveryFindingOfABadArchive() throws {
        let bytes = archive(
            [
                "$null",
                ["$class": .uid(2), "NS.objects": [.uid(3), .uid(42)], "NS.keys": [.uid(3)]],
                Self.nsArray,
                ["NS.string": "no class"],
                ["$class": .uid(3)],
                ["$classname": "Broken", "$classes": "Broken"],
                ["$class": .uid(5), "self": .uid(6)],
            ],
            top: ["root": .uid(1), "second": .uid(6), "lost": .uid(77)]
        )
        let run = try runTool(["validate", "-"], standardInput: bytes)
        #expect(run.exitCode == .failure)
        ExpectedOutput.expect(run.outputText, matches: "validate-bad.txt")
    }

    @Test func limitsTheDepth() throws {
        var objects: [PropertyListValue] = ["$null", Self.nsArray]
        for index in 2..<20 { objects.append(["$class": .uid(1), "NS.objects": [.uid(UID(UInt64(index + 1)))]]) }
        objects.append("end")
        let bytes = archive(objects, top: ["root": .uid(2)])
        #expect(try runTool(["validate", "-"], standardInput: bytes).exitCode == .success)
        let run = try runTool(["validate", "--max-depth", "10", "-"], standardInput: bytes)
        #expect(run.exitCode == .failure)
        #expect(
            run.outputText
                == "<stdin>: 1 finding\n  depthLimitExceeded at UID 2: objects under $top[\"root\"] nest 19 deep, beyond the limit of 10\n"
        )
    }

    @Test func reportsWhatIsNotAnArchive() throws {
        let plist = examplesDirectory.appendingPathComponent("cat.plist").path
        let run = try runTool(["validate", plist, "-", "/no/such/file"], standardInput: Array("junk".utf8))
        #expect(run.exitCode == .failure)
        #expect(
            run.outputText == """
                \(plist): 1 finding
                  notAnArchive: a plain property list: no $archiver or $objects key
                <stdin>: 1 finding
                  malformedPropertyList: PropertyListError.unknownFormat at byte 0: neither bplist00 nor XML

                """
        )
        #expect(run.errorLines == ["karchive: /no/such/file: No such file or directory"])
    }

    @Test func rejectsANonPositiveDepth() throws {
        let (code, message) = try #require(usageError(["validate", "--max-depth", "0", "x.plist"]))
        #expect(code == .validationFailure)
        #expect(message == "--max-depth must be positive, but is 0.")
    }
}
