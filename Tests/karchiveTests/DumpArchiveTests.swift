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
import KeyedArchiving
import PropertyLists
import TestSupport
import Testing

@testable import karchive

/// Types that are not `Codable`, archived by reflection: a household whose owner is shared by two
/// pets and lists them again, which makes cycles.
private final class Owner {
    let name: String
    var pets: [Pet] = []

    init(name: String) {
        self.name = name
    }
}

private final class Pet {
    let name: String
    let owner: Owner
    let born: Date

    init(name: String, owner: Owner, born: Date) {
        self.name = name
        self.owner = owner
        self.born = born
    }
}

private struct Household {
    var pets: [Pet]
    var id: UUID
    var site: URL
    var photo: Data
    var rating: Double
}

/// `karchive dump` on keyed archives: the resolved tree, the JSON form, the raw table and nested
/// property lists, compared with the files under `Expected/`.
@Suite struct DumpArchiveTests {
    static let fixtures = [
        "complex_archive.plist",
        "circular_archive.plist",
        "NSKeyedUnarchiver-ComplexTest.plist",
        "arrays.bin",
        "nsdictionary_setconfig.bplist",
        "fullChangeLog.bplist",
        "NSKeyedUnarchiver-ConcreteValueTest.plist",
        "NSAttributedString.archive",
    ]

    static let catArchivePath = examplesDirectory.appendingPathComponent("cat.archive").path

    private func path(_ fixture: String) -> String {
        Fixtures.appleDirectory.appendingPathComponent(fixture).path
    }

    @Test(arguments: fixtures)
    func printsTheResolvedTree(fixture: String) throws {
        let run = try runTool(["dump", path(fixture)])
        #expect(run.exitCode == .success)
        #expect(run.errors.isEmpty)
        ExpectedOutput.expect(run.outputText, matches: "dump-\(fixture).txt")
    }

    @Test(arguments: fixtures)
    func printsTheJSONForm(fixture: String) throws {
        let run = try runTool(["dump", "--json", path(fixture)])
        #expect(run.exitCode == .success)
        ExpectedOutput.expect(run.outputText, matches: "dump-\(fixture).json")
        // The JSON form is what `convert --to json` writes too, and it is valid JSON.
        let converted = try runTool(["convert", path(fixture), "--to", "json"])
        #expect(converted.outputText == run.outputText)
        #expect((try? JSONSerialization.jsonObject(with: Data(run.output))) != nil)
    }

    @Test func printsTheShippedExample() throws {
        let tree = try runTool(["dump", Self.catArchivePath])
        #expect(tree.exitCode == .success)
        ExpectedOutput.expect(tree.outputText, matches: "dump-cat.archive.txt")
        #expect(tree.outputText.contains("owner: MyApp.Person [UID 3, shown above at root.owner]"))
        ExpectedOutput.expect(
            try runTool(["dump", "--json", Self.catArchivePath]).outputText,
            matches: "dump-cat.archive.json"
        )
        ExpectedOutput.expect(
            try runTool(["dump", "--raw", Self.catArchivePath]).outputText,
            matches: "raw-cat.archive.txt"
        )
    }

    @Test func printsTheRawObjectTable() throws {
        let fixture = path("NSKeyedUnarchiver-ComplexTest.plist")
        let run = try runTool(["dump", "--raw", fixture])
        #expect(run.exitCode == .success)
        ExpectedOutput.expect(run.outputText, matches: "raw-NSKeyedUnarchiver-ComplexTest.plist.txt")
        // --raw --json is the archive's own property list in the plain JSON form, UIDs as {"$uid": n}.
        let json = try runTool(["dump", "--raw", "--json", fixture]).outputText
        #expect(json.contains(#""$top": {"#))
        #expect(json.contains(#""root": {"$uid": 1}"#))
    }

    @Test func printsArchivesThisPackageWrites() throws {
        let owner = Owner(name: "Ada")
        let born = Date(timeIntervalSinceReferenceDate: 680_457_815.615284)
        let tom = Pet(name: "Tom", owner: owner, born: born)
        let felix = Pet(name: "Felix", owner: owner, born: born.addingTimeInterval(-86_400))
        owner.pets = [tom, felix]
        defer { owner.pets = [] }
        let household = Household(
            pets: [tom, felix],
            id: try #require(UUID(uuidString: "0AD863BA-7584-40CF-8896-BD87B3280C34")),
            site: try #require(URL(string: "https://example.com/pets")),
            photo: Data([0x89, 0x50, 0x4E, 0x47]),
            rating: .infinity
        )
        let bytes = Array(MirrorArchiver().encode(household))
        let tree = try runTool(["dump", "-"], standardInput: bytes)
        #expect(tree.exitCode == .success)
        ExpectedOutput.expect(tree.outputText, matches: "dump-mirror-household.txt")
        let json = try runTool(["dump", "--json", "-"], standardInput: bytes)
        ExpectedOutput.expect(json.outputText, matches: "dump-mirror-household.json")
        #expect(try runTool(["validate", "-"], standardInput: bytes).exitCode == .failure)
        #expect(try runTool(["validate", "--allow-cycles", "-"], standardInput: bytes).exitCode == .success)
    }

    @Test func printsArchivesTheEncoderWrites() throws {
        struct Toy: Codable {
            var name: String
            var squeaks: Bool
        }
        struct Box: Codable {
            var label: String
            var toys: [Toy]
            var sizes: [Int]
        }
        let bytes = Array(
            try KeyedArchiveEncoder().encode(
                Box(label: "toys", toys: [Toy(name: "ball", squeaks: true)], sizes: [1, 2])
            )
        )
        #expect(try runTool(["validate", "-"], standardInput: bytes).outputText == "<stdin>: valid\n")
        let json = try runTool(["convert", "-", "--to", "json", "--compact"], standardInput: bytes)
        #expect(json.exitCode == .success)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.output)) as? [String: Any])
        let root = try #require(object["root"] as? [String: Any])
        #expect(root["label"] as? String == "toys")
        #expect(root["sizes"] as? [Int] == [1, 2])
        #expect((root["toys"] as? [[String: Any]])?.first?["name"] as? String == "ball")
    }

    @Test func unpacksNestedArchivesAndPropertyLists() throws {
        let cat = try Data(contentsOf: URL(fileURLWithPath: Self.catArchivePath))
        let settings: PropertyListValue = ["theme": "dark", "sizes": [12, 14]]
        let document: PropertyListValue = [
            "app": "Pets",
            "payload": .data(cat),
            "settings": .data(settings.serialized(as: .xml)),
            "junk": .data(Data("bplist00 but not really".utf8)),
        ]
        let bytes = Array(document.serialized(as: .binary))
        let tree = try runTool(["dump", "--nested", "-"], standardInput: bytes)
        #expect(tree.exitCode == .success)
        ExpectedOutput.expect(tree.outputText, matches: "dump-nested.txt")
        let json = try runTool(["dump", "--nested", "--json", "-"], standardInput: bytes)
        ExpectedOutput.expect(json.outputText, matches: "dump-nested.json")
        let flat = try runTool(["dump", "-"], standardInput: bytes)
        #expect(flat.outputText.contains("payload: data (\(cat.count) bytes) 62706c69 73743030"))
    }

    @Test func reportsAnArchiveThatDoesNotResolve() throws {
        let broken: PropertyListValue = [
            "$archiver": "NSKeyedArchiver", "$version": 100_000, "$top": ["root": .uid(1)],
            "$objects": ["$null", ["$class": .uid(9)]],
        ]
        let run = try runTool(["dump", "-"], standardInput: Array(broken.serialized()))
        #expect(run.exitCode == .failure)
        #expect(run.output.isEmpty)
        #expect(
            run.errorLines == [
                "karchive: <stdin>: KeyedArchiveError.invalidReference at UID(9): UID 9 is not below the object count 2 "
                    + "(see 'karchive validate' or 'karchive dump --raw')"
            ]
        )
        // --raw still shows what is there.
        let raw = try runTool(["dump", "--raw", "-"], standardInput: Array(broken.serialized()))
        #expect(raw.exitCode == .success)
        #expect(raw.outputText.hasSuffix("  [1] {$class: UID 9}\n"))
    }

    @Test func rejectsNestedWithRaw() throws {
        let (code, message) = try #require(usageError(["dump", "--raw", "--nested", "x.plist"]))
        #expect(code == .validationFailure)
        #expect(message == "--nested does not apply to --raw.")
    }
}
