//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-keyed-archive open source project
//
// Licensed under Apache License v2.0
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

public import Foundation

/// Access to the fixture files shipped with the tests.
public enum Fixtures {
    /// The folder of Apple-made archives and property lists (see `Fixtures/apple/SOURCES.md`).
    public static var appleDirectory: URL {
        Bundle.module.resourceURL!.appendingPathComponent("Fixtures/apple", isDirectory: true)
    }

    /// The file names of every Apple fixture except `SOURCES.md`, sorted.
    public static var appleFixtureNames: [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: appleDirectory.path)) ?? []
        return names.filter { $0 != "SOURCES.md" }.sorted()
    }

    /// The bytes of an Apple fixture.
    public static func apple(_ name: String) throws -> Data {
        try Data(contentsOf: appleDirectory.appendingPathComponent(name))
    }

    /// The folder of archives made by swift-corelibs-foundation (see `Fixtures/foundation/SOURCES.md`).
    public static var foundationDirectory: URL {
        Bundle.module.resourceURL!.appendingPathComponent("Fixtures/foundation", isDirectory: true)
    }

    /// The folder of hostile inputs, one per check, with `manifest.json` listing the error each
    /// entry point must report (made by `dev/make-malformed-corpus.py`).
    public static var malformedDirectory: URL {
        Bundle.module.resourceURL!.appendingPathComponent("Fixtures/malformed", isDirectory: true)
    }

    /// The bytes of a hostile input.
    public static func malformed(_ name: String) throws -> Data {
        try Data(contentsOf: malformedDirectory.appendingPathComponent(name))
    }

    /// The fuzzers' fail cases, `FuzzTesting/FailCases/<Target>/`, found from this file: they are
    /// not resources, since the fuzz package replays the same files.
    public static var failCasesDirectory: URL {
        URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent()
            .deletingLastPathComponent()
            .deletingLastPathComponent()
            .appendingPathComponent("FuzzTesting/FailCases", isDirectory: true)
    }

    /// The bytes of one fuzz target's fail case.
    public static func failCase(_ name: String, of target: String) throws -> Data {
        try Data(contentsOf: failCasesDirectory.appendingPathComponent(target).appendingPathComponent(name))
    }

    /// The bytes of an archive made by swift-corelibs-foundation.
    public static func foundation(_ name: String) throws -> Data {
        try Data(contentsOf: foundationDirectory.appendingPathComponent(name))
    }
}
