//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-keyed-archive open source project
//
// Licensed under Apache License v2.0
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Testing

/// Which extensions `@Archivable` marks `nonisolated`: a value type's, so that it archives off the
/// main actor in a module whose default isolation is the main actor, but for one declared
/// `@MainActor` or with a wrapped property; never a class's. (`Tests/AppTarget` compiles each case with those settings.)
@Suite struct ArchivableIsolationTests {
    static func extensionHeaders(_ source: String) -> [String] {
        expandArchivable(source).source.split(separator: "\n").map(String.init).filter { $0.contains("extension ") }
    }

    @Test(arguments: ["struct Cat {\n    var name = \"\"\n}", "enum Mood: String {\n    case calm\n}"])
    func aValueTypesExtensionsAreNonisolated(declaration: String) {
        let headers = Self.extensionHeaders("@Archivable\n" + declaration)
        #expect(!headers.isEmpty)
        #expect(headers.allSatisfy { $0.hasPrefix("nonisolated extension ") }, "\(headers)")
    }

    @Test func aMainActorStructsExtensionsFollowIt() {
        let headers = Self.extensionHeaders("@MainActor\n@Archivable\nstruct Shelf {\n    var label = \"\"\n}")
        #expect(!headers.isEmpty)
        #expect(headers.allSatisfy { $0.hasPrefix("extension ") }, "\(headers)")
    }

    @Test func aStructWithAWrappedPropertyKeepsItsIsolation() {
        let headers = Self.extensionHeaders("@Archivable\nstruct Speaker {\n    @Clamped var volume = 5\n}")
        #expect(!headers.isEmpty)
        #expect(headers.allSatisfy { $0.hasPrefix("extension ") }, "\(headers)")
        // The package's own attributes do not count.
        let keyed = Self.extensionHeaders("@Archivable\nstruct Speaker {\n    @ArchiveKey(\"v\") var volume = 5\n}")
        #expect(keyed.allSatisfy { $0.hasPrefix("nonisolated extension ") }, "\(keyed)")
    }

    @Test(arguments: [
        "@Archivable\nfinal class Box {\n    var width = 1\n}",
        "@ArchivableClass\nclass Box {\n    var width = 1\n}",
        "@ArchivableClass\nclass Crate: Box {\n    var depth = 1\n}",
        "@Archivable\nfinal class Vet: NSObject {\n    var name = \"\"\n}",
    ])
    func aClasssExtensionsFollowIt(source: String) {
        let headers = Self.extensionHeaders(source)
        #expect(!headers.isEmpty)
        #expect(headers.allSatisfy { $0.hasPrefix("extension ") }, "\(headers)")
    }
}
