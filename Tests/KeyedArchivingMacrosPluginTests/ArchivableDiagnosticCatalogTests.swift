//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-keyed-archive open source project
//
// Licensed under Apache License v2.0
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import SwiftDiagnostics
import SwiftParser
import SwiftSyntax
import SwiftSyntaxMacroExpansion
import SwiftSyntaxMacros
import Testing

@testable import ArchivableMacroSupport

/// Every diagnostic of `@Archivable` and its attributes, by its exact message: a declaration that
/// misuses the macros, and what the expansion reports (``ArchivableDiagnosticTests`` checks
/// positions and fix-its where they matter).
@Suite struct ArchivableDiagnosticCatalogTests {
    /// One misuse and the messages it must produce.
    struct Misuse: CustomTestStringConvertible, Sendable {
        let name: String
        let source: String
        let messages: [String]

        var testDescription: String { self.name }
    }

    /// The error on an enum case or the unknown fields inside `#if`.
    static let ifConfigMessage =
        "'@Archivable' does not archive enum cases or the 'ArchiveUnknownFields' property declared "
        + "inside '#if'; declare it outside the '#if' block"

    static let misuses: [Misuse] = [
        Misuse(
            name: "actor",
            source: "@Archivable\nactor Counter {\n    var count = 0\n}",
            messages: ["'@Archivable' applies to structs, classes and enums, not to actors"]
        ),
        Misuse(
            name: "own CodingKeys",
            source: "@Archivable\nstruct Cat {\n    var name: String\n    enum CodingKeys: CodingKey { case name }\n}",
            messages: ["'@Archivable' generates 'CodingKeys'; remove this declaration"]
        ),
        Misuse(
            name: "own encode(to:)",
            source:
                "@Archivable\nstruct Cat {\n    var name: String\n    func encode(to encoder: any Encoder) throws {}\n}",
            messages: ["'@Archivable' generates 'encode(to:)'; remove this declaration"]
        ),
        Misuse(
            name: "fallback without initial value",
            source: "@Archivable\nstruct Cat {\n    @ArchiveFallback var mood: Int\n}",
            messages: ["'@ArchiveFallback' needs a property with an initial value"]
        ),
        Misuse(
            name: "ignored and fallback",
            source: "@Archivable\nstruct Cat {\n    @ArchiveIgnored @ArchiveFallback var mood = 1\n}",
            messages: ["'@ArchiveIgnored' and '@ArchiveFallback' cannot both apply to one property"]
        ),
        Misuse(
            name: "empty key",
            source: "@Archivable\nstruct Cat {\n    @ArchiveKey(\"\") var name = \"\"\n}",
            messages: ["an archive key cannot be empty"]
        ),
        Misuse(
            name: "key not a literal",
            source: "@Archivable\nstruct Cat {\n    @ArchiveKey(Cat.key) var name = \"\"\n}",
            messages: ["'@ArchiveKey' must be a string literal"]
        ),
        Misuse(
            name: "key with interpolation",
            source: "@Archivable\nstruct Cat {\n    @ArchiveKey(\"a\\(1)\") var name = \"\"\n}",
            messages: ["'@ArchiveKey' must be a string literal"]
        ),
        Misuse(
            name: "two ArchiveKey attributes",
            source: "@Archivable\nstruct Cat {\n    @ArchiveKey(\"a\") @ArchiveKey(\"b\") var name = \"\"\n}",
            messages: ["'@ArchiveKey' can appear only once on a declaration"]
        ),
        Misuse(
            name: "property named like the version key",
            source: "@Archivable\nstruct Cat {\n    var archiveVersion = 1\n}",
            messages: ["the key 'archiveVersion' is the type's version key"]
        ),
        Misuse(
            name: "property keyed like a chosen version key",
            source: "@Archivable(versionKey: \"v\")\nstruct Cat {\n    @ArchiveKey(\"v\") var value = 1\n}",
            messages: ["the key 'v' is the type's version key"]
        ),
        Misuse(
            name: "two unknown-fields properties",
            source:
                "@Archivable\nstruct Cat {\n    var a = ArchiveUnknownFields()\n    var b = ArchiveUnknownFields()\n}",
            messages: ["a type can keep its unknown fields in one 'ArchiveUnknownFields' property only"]
        ),
        Misuse(
            name: "unknown fields without initial value",
            source: "@Archivable\nstruct Cat {\n    var extra: ArchiveUnknownFields\n}",
            messages: ["an 'ArchiveUnknownFields' property must be a 'var' with an initial value"]
        ),
        Misuse(
            name: "unknown fields in a let",
            source: "@Archivable\nstruct Cat {\n    let extra = ArchiveUnknownFields()\n}",
            messages: ["an 'ArchiveUnknownFields' property must be a 'var' with an initial value"]
        ),
        Misuse(
            name: "unknown fields inside #if",
            source: """
                @Archivable
                struct Cat {
                    var name = ""
                    #if os(iOS)
                    #else
                    #if DEBUG
                    var extra = ArchiveUnknownFields()
                    #endif
                    #endif
                }
                """,
            messages: [Self.ifConfigMessage]
        ),
        Misuse(
            name: "a property declared differently in two #if clauses",
            source: """
                @Archivable
                struct Cat {
                    #if os(iOS)
                    var note: String
                    #else
                    var note = ""
                    #endif
                }
                """,
            messages: [
                "'note' is declared in several '#if' clauses with different keys, attributes or initial values; "
                    + "declare it the same way in each, so that one set of rules archives it"
            ]
        ),
        Misuse(
            name: "enum case inside #if",
            source: "@Archivable\nenum Mood: String {\n    case calm\n    #if DEBUG\n    case testing\n    #endif\n}",
            messages: [Self.ifConfigMessage]
        ),
        Misuse(
            name: "weak property",
            source: "@Archivable\nfinal class Node {\n    weak var parent: Node?\n}",
            messages: [
                "a 'weak' property cannot be archived: a decoded object that only it referenced would be gone "
                    + "at once; mark it '@ArchiveIgnored' and set it again after decoding"
            ]
        ),
        Misuse(
            name: "unowned property",
            source: "@Archivable\nfinal class Node {\n    unowned let owner: Node\n}",
            messages: [
                "a 'unowned' property cannot be archived: a decoded object that only it referenced would be gone "
                    + "at once; make it an '@ArchiveIgnored weak var' and set it again after decoding"
            ]
        ),
        Misuse(
            name: "class name not a literal",
            source: "@Archivable(className: Cat.name)\nstruct Cat {\n    var name = \"\"\n}",
            messages: ["'className' must be a string literal"]
        ),
        Misuse(
            name: "former class names without a class name",
            source: "@Archivable(formerClassNames: [\"Old.Cat\"])\nstruct Cat {\n    var name = \"\"\n}",
            messages: ["'formerClassNames' needs 'className'"]
        ),
        Misuse(
            name: "version 0",
            source: "@Archivable(version: 0)\nstruct Cat {\n    var name = \"\"\n}",
            messages: ["'version' must be 1 or more"]
        ),
        Misuse(
            name: "version not a literal",
            source: "@Archivable(version: Cat.version)\nstruct Cat {\n    var name = \"\"\n}",
            messages: ["'version' must be an integer literal"]
        ),
        Misuse(
            name: "lazy property",
            source: "@Archivable\nstruct Cat {\n    lazy var summary = \"\"\n}",
            messages: ["a 'lazy' property cannot be archived; mark it '@ArchiveIgnored'"]
        ),
        Misuse(
            name: "attribute on several bindings",
            source: "@Archivable\nstruct Cat {\n    @ArchiveIgnored var a = 1, b = 2\n}",
            messages: ["peer macro can only be applied to a single variable"]
        ),
        Misuse(
            name: "ArchiveKey on a function",
            source: "@Archivable\nstruct Cat {\n    var name = \"\"\n    @ArchiveKey(\"x\") func purr() {}\n}",
            messages: ["'@ArchiveKey' applies to stored instance properties and enum cases only"]
        ),
        Misuse(
            name: "ArchiveIgnored on a computed property",
            source:
                "@Archivable\nstruct Cat {\n    var name = \"\"\n    @ArchiveIgnored var loud: String { name.uppercased() }\n}",
            messages: ["'@ArchiveIgnored' applies to stored instance properties only"]
        ),
        Misuse(
            name: "ArchiveFallback on a static property",
            source: "@Archivable\nstruct Cat {\n    var name = \"\"\n    @ArchiveFallback static var count = 0\n}",
            messages: ["'@ArchiveFallback' applies to stored instance properties only"]
        ),
        Misuse(
            name: "ArchiveUnwrapped on an enum case",
            source: "@Archivable\nenum Mood {\n    @ArchiveUnwrapped case calm\n}",
            messages: ["'@ArchiveUnwrapped' applies to stored instance properties only"]
        ),
        Misuse(
            name: "ArchiveIgnored on an enum case",
            source: "@Archivable\nenum Mood {\n    @ArchiveIgnored case calm\n}",
            messages: ["'@ArchiveIgnored' applies to stored instance properties only"]
        ),
        Misuse(
            name: "two unknown cases",
            source:
                "@Archivable\nenum Mood {\n    case calm\n    @ArchiveUnknownCase case a\n    @ArchiveUnknownCase case b\n}",
            messages: ["'a' is already the '@ArchiveUnknownCase' case"]
        ),
        Misuse(
            name: "unknown case with associated values",
            source: "@Archivable\nenum Mood {\n    case calm\n    @ArchiveUnknownCase case other(String)\n}",
            messages: ["the '@ArchiveUnknownCase' case cannot have associated values"]
        ),
        Misuse(
            name: "ArchiveKey on a raw-value case",
            source: "@Archivable\nenum Mood: String {\n    @ArchiveKey(\"c\") case calm\n}",
            messages: [
                "a case of an enum with raw values is stored as its raw value; '@ArchiveKey' does not apply"
            ]
        ),
        Misuse(
            name: "codableParameters naming no generic parameter",
            source: "@Archivable(codableParameters: [\"T\", \"Tag\"])\nstruct Box<T> {\n    var value: T\n}",
            messages: [
                "'Tag' is not a generic parameter of this type; 'codableParameters' names the parameters that must be "
                    + "Codable"
            ]
        ),
        Misuse(
            name: "two cases claiming one key",
            source: "@Archivable\nenum Mood {\n    case calm\n    @ArchiveKey(\"still\", \"calm\") case still\n}",
            messages: ["the key 'calm' is already used by 'calm'"]
        ),
        Misuse(
            name: "@Archivable on a class that is not final",
            source: "@Archivable\nclass Box {\n    var width = 1\n}",
            messages: [
                "'@Archivable' applies to final classes; a class that may be subclassed takes '@ArchivableClass' "
                    + "(Swift cannot subclass a class whose macro declares conformances it does not add)"
            ]
        ),
        Misuse(
            name: "@ArchivableClass on an enum",
            source: "@ArchivableClass\nenum Mood {\n    case calm\n}",
            messages: ["'@ArchivableClass' applies to classes; use '@Archivable'"]
        ),
        Misuse(
            name: "a final subclass of NSObject with a class name",
            source: "@Archivable(className: \"Crate\")\nfinal class Crate: NSObject {\n    var depth = 1\n}",
            messages: [
                "'className' is not supported on a class that is not final or has a superclass; its objects are "
                    + "archived under its Swift name, with its superclasses' names in '$classes'"
            ]
        ),
        Misuse(
            name: "a final subclass of NSObject with a migration",
            source:
                "@Archivable(version: 2, previousVersion: CrateV1.self)\nfinal class Crate: NSObject {\n    var depth = 1\n}",
            messages: [
                "'previousVersion' is not supported on a class that is not final or has a superclass; its objects are "
                    + "archived under its Swift name, with its superclasses' names in '$classes'"
            ]
        ),
    ]

    @Test(arguments: Self.misuses)
    func misuseIsReported(_ misuse: Misuse) {
        #expect(Self.messages(expanding: misuse.source) == misuse.messages)
    }

    /// The messages of the errors the macros report for `source`.
    static func messages(expanding source: String) -> [String] {
        expandArchivable(source).diagnostics.filter { $0.diagMessage.severity == .error }.map(\.message)
    }
}

/// What may stay inside `#if` in an `@Archivable` type: members that are not archived.
@Suite struct ConditionalMemberTests {
    @Test func membersThatAreNotArchivedMayStayInsideIfConfig() {
        let source = """
            @Archivable
            struct Cat {
                var name = ""
                #if DEBUG
                @ArchiveIgnored var note = ""
                static var count = 0
                var shout: String { name.uppercased() }
                func describe() -> String { name }
                #endif
            }
            """
        #expect(ArchivableDiagnosticCatalogTests.messages(expanding: source).isEmpty)
    }

    @Test func anIgnoredWeakBackReferenceIsAccepted() {
        let source = """
            @Archivable
            final class Node {
                var name = ""
                @ArchiveIgnored weak var parent: Node?
            }
            """
        #expect(ArchivableDiagnosticCatalogTests.messages(expanding: source).isEmpty)
    }
}

/// Keys written with escapes, and keys that are not identifiers.
@Suite struct ArchiveKeyLiteralTests {
    @Test func escapesInKeysAreResolvedAndWrittenBack() {
        let source = #"""
            @Archivable
            struct Cat {
                @ArchiveKey("say \"hi\"", "back\\slash", "$price", "first name") var name = ""
            }
            """#
        #expect(ArchivableDiagnosticCatalogTests.messages(expanding: source).isEmpty)
        let expanded = expandArchivable(source).source
        #expect(expanded.contains(#"case name = "say \"hi\"""#))
        #expect(expanded.contains(#"case name_1 = "back\\slash""#))
        #expect(expanded.contains(#"case name_2 = "$price""#))
        #expect(expanded.contains(#"case name_3 = "first name""#))
    }
}
