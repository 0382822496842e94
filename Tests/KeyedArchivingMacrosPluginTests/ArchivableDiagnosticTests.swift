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
import SwiftSyntaxMacrosGenericTestSupport
import Testing

@testable import ArchivableMacroSupport

/// The errors of `@Archivable` and its attributes: one test per diagnostic.
@Suite struct ArchivableDiagnosticTests {
    /// `@Archivable` on a class that is not final is refused, with fix-its for `@ArchivableClass`
    /// and for `final`.
    @Test func nonFinalClass() {
        assertArchivable(
            "@Archivable\nclass Box {\n    var width = 1\n}",
            expandedSource: "class Box {\n    var width = 1\n}",
            diagnostics: [
                DiagnosticSpec(
                    message: ArchivableDiagnostic.nonFinalClass.message,
                    line: 2,
                    column: 1,
                    fixIts: [
                        FixItSpec(message: "replace with '@ArchivableClass'"), FixItSpec(message: "insert 'final'"),
                    ]
                )
            ],
            fixedSource: "@ArchivableClass\nfinal class Box {\n    var width = 1\n}"
        )
    }

    /// `@ArchivableClass` on a struct is refused.
    @Test func classMacroOnStruct() {
        assertArchivable(
            "@ArchivableClass\nstruct Box {\n    var width = 1\n}",
            expandedSource: "struct Box {\n    var width = 1\n}",
            diagnostics: [
                DiagnosticSpec(message: ArchivableDiagnostic.classMacroOnNonClass.message, line: 1, column: 1)
            ]
        )
    }

    /// A class in a hierarchy cannot name its archived class yet, nor migrate.
    @Test func classNameInHierarchy() {
        assertArchivable(
            "@ArchivableClass(className: \"Box\")\nclass Box {\n    var width = 1\n}",
            expandedSource: "class Box {\n    var width = 1\n}",
            diagnostics: [
                DiagnosticSpec(
                    message: ArchivableDiagnostic.unsupportedInHierarchy("className").message,
                    line: 1,
                    column: 18
                )
            ]
        )
    }

    /// A subclass of another class is versioned by its root class.
    @Test func versionOnSubclass() {
        assertArchivable(
            "@ArchivableClass(version: 2)\nclass Crate: Box {\n    var depth = 1\n}",
            expandedSource: "class Crate: Box {\n    var depth = 1\n}",
            diagnostics: [
                DiagnosticSpec(message: ArchivableDiagnostic.versionOnSubclass.message, line: 1, column: 18)
            ],
            conformances: []
        )
    }

    /// A class in a hierarchy cannot keep unknown fields.
    @Test func unknownFieldsInHierarchy() {
        assertArchivable(
            "@ArchivableClass\nclass Box {\n    var width = 1\n    var unknownFields = ArchiveUnknownFields()\n}",
            expandedSource: "class Box {\n    var width = 1\n    var unknownFields = ArchiveUnknownFields()\n}",
            diagnostics: [
                DiagnosticSpec(message: ArchivableDiagnostic.unknownFieldsInHierarchy.message, line: 1, column: 1)
            ]
        )
    }

    /// A generic class in a hierarchy is refused.
    @Test func genericHierarchy() {
        assertArchivable(
            "@ArchivableClass\nclass Box<Item> {\n    var item: Item\n}",
            expandedSource: "class Box<Item> {\n    var item: Item\n}",
            diagnostics: [DiagnosticSpec(message: ArchivableDiagnostic.genericHierarchy.message, line: 1, column: 1)]
        )
    }

    /// A protocol is refused.
    @Test func protocolDeclaration() {
        assertArchivable(
            "@Archivable\nprotocol P {}",
            expandedSource: "protocol P {}",
            diagnostics: [
                DiagnosticSpec(
                    message: "'@Archivable' applies to structs, classes and enums, not to protocols",
                    line: 1,
                    column: 1
                )
            ]
        )
    }

    /// A `let` with an initial value is archived and keeps its initial value when decoded, as
    /// synthesized `Codable` does: a warning with both fix-its, beside the whole expansion, whose
    /// initializers set every other property and not this one.
    @Test func letWithInitialValue() {
        assertArchivable(
            "@Archivable\nstruct Cat {\n    let lives = 9\n    var name = \"\"\n}",
            expandedSource: """
                struct Cat {
                    let lives = 9
                    var name = ""
                }

                nonisolated extension Cat: Swift.Decodable, Swift.Encodable {
                    private enum CodingKeys: Swift.String, KeyedArchiving.ArchiveFieldCodingKey {
                        case lives
                        case name
                        case _archiveVersion = "archiveVersion"

                        init(archiveField index: Swift.Int) {
                            switch index {
                            case 1:
                                self = .lives
                            case 2:
                                self = .name
                            default:
                                self = ._archiveVersion
                            }
                        }
                    }

                    init(from decoder: any Swift.Decoder) throws {
                        var reader = try KeyedArchiving.ArchiveContainerFieldReader<CodingKeys>(decoder)
                        try self.init(archiveFields: &reader)
                    }

                    func encode(to encoder: any Swift.Encoder) throws {
                        try KeyedArchiving.ArchiveContainerFieldWriter<CodingKeys>.write(to: encoder) {
                            try self.encodeArchiveFields(to: &$0)
                        }
                    }

                    private init<Reader: KeyedArchiving.ArchiveFieldReader & ~Copyable>(archiveFields reader: inout Reader) throws {
                        _ = try reader.decodeVersion(of: Self.self, at: 0)
                        try reader.decodeIfPresent(into: &self.name, at: 2)
                    }

                    private func encodeArchiveFields<Writer: KeyedArchiving.ArchiveFieldWriter & ~Copyable>(to writer: inout Writer) throws {
                        try writer.encodeDefaulted(self.lives, at: 1)
                        try writer.encodeDefaulted(self.name, at: 2)
                    }
                }

                nonisolated extension Cat: KeyedArchiving.ArchiveVersioned {
                    static var archiveVersion: Swift.Int {
                        1
                    }
                }
                """,
            diagnostics: [
                DiagnosticSpec(
                    message: ArchivableDiagnostic.letWithInitialValue.message,
                    line: 3,
                    column: 5,
                    severity: .warning,
                    fixIts: [
                        FixItSpec(message: "replace 'let' with 'var'"), FixItSpec(message: "add '@ArchiveIgnored'"),
                    ]
                )
            ]
        )
    }

    /// A `weak` property is refused, with a fix-it adding `@ArchiveIgnored`.
    @Test func weakProperty() {
        assertArchivable(
            "@Archivable\nfinal class Node {\n    weak var parent: Node?\n}",
            expandedSource: "final class Node {\n    weak var parent: Node?\n}",
            diagnostics: [
                DiagnosticSpec(
                    message: ArchivableDiagnostic.referenceOwnership("weak").message,
                    line: 3,
                    column: 5,
                    fixIts: [FixItSpec(message: "add '@ArchiveIgnored'")]
                )
            ],
            fixedSource: "@Archivable\nfinal class Node {\n    @ArchiveIgnored weak var parent: Node?\n}"
        )
    }

    /// `@ArchiveIgnored` needs an initial value.
    @Test func ignoredWithoutInitialValue() {
        assertArchivable(
            "@Archivable\nstruct Cat {\n    @ArchiveIgnored var lives: Int\n}",
            expandedSource: "struct Cat {\n    var lives: Int\n}",
            diagnostics: [
                DiagnosticSpec(message: "'@ArchiveIgnored' needs a property with an initial value", line: 3, column: 5)
            ]
        )
    }

    /// A key repeated in one `@ArchiveKey` offers its removal.
    @Test func repeatedKey() {
        assertArchivable(
            "@Archivable\nstruct Cat {\n    @ArchiveKey(\"a\", \"b\", \"a\") var name = \"\"\n}",
            expandedSource: "struct Cat {\n    var name = \"\"\n}",
            diagnostics: [
                DiagnosticSpec(
                    message: "'a' is already named in this '@ArchiveKey'",
                    line: 3,
                    column: 27,
                    fixIts: [FixItSpec(message: "remove the repeated 'a'")]
                )
            ],
            fixedSource: "@Archivable\nstruct Cat {\n    @ArchiveKey(\"a\", \"b\") var name = \"\"\n}"
        )
    }

    /// Two properties claiming one key: the later one is reported.
    @Test func duplicateKey() {
        assertArchivable(
            "@Archivable\nstruct Cat {\n    var color = \"\"\n    @ArchiveKey(\"tint\", \"color\") var tint = \"\"\n}",
            expandedSource: "struct Cat {\n    var color = \"\"\n    var tint = \"\"\n}",
            diagnostics: [
                DiagnosticSpec(message: "the key 'color' is already used by 'color'", line: 4, column: 5)
            ]
        )
    }

    /// `@ArchiveUnknownCase` on a property is reported by the attribute itself.
    @Test func misplacedUnknownCase() {
        assertArchivable(
            "@Archivable\nstruct Cat {\n    @ArchiveUnknownCase var name = \"\"\n}",
            expandedSource: "struct Cat {\n    var name = \"\"\n}",
            diagnostics: [
                DiagnosticSpec(message: "'@ArchiveUnknownCase' applies to enum cases only", line: 3, column: 5)
            ]
        )
    }

    /// Versions on an enum are refused.
    @Test func versionOnEnum() {
        assertArchivable(
            "@Archivable(version: 2)\nenum Mood {\n    case calm\n}",
            expandedSource: "enum Mood {\n    case calm\n}",
            diagnostics: [
                DiagnosticSpec(message: ArchivableDiagnostic.versionOnEnum.message, line: 1, column: 13)
            ]
        )
    }

    /// `unversionedVersion` above `version` is refused.
    @Test func unversionedAboveVersion() {
        assertArchivable(
            "@Archivable(version: 1, unversionedVersion: 2)\nstruct Cat {\n    var name: String\n}",
            expandedSource: "struct Cat {\n    var name: String\n}",
            diagnostics: [
                DiagnosticSpec(
                    message: "'unversionedVersion' cannot be greater than 'version'",
                    line: 1,
                    column: 45
                )
            ]
        )
    }

    /// `previousVersion:` at version 1 would never migrate anything.
    @Test func previousVersionAtVersionOne() {
        for attribute in [
            "@Archivable(previousVersion: CatV1.self)", "@Archivable(version: 1, previousVersion: CatV1.self)",
        ] {
            assertArchivable(
                "\(attribute)\nstruct Cat {\n    var name: String\n}",
                expandedSource: "struct Cat {\n    var name: String\n}",
                diagnostics: [
                    DiagnosticSpec(
                        message: ArchivableDiagnostic.previousVersionNeedsVersion.message,
                        line: 1,
                        column: attribute.count - "previousVersion: CatV1.self)".count + 1
                    )
                ]
            )
        }
    }

    /// `previousVersion:` naming the type itself would recurse.
    @Test func previousVersionNamingItself() {
        for argument in ["Self.self", "Cat.self"] {
            assertArchivable(
                "@Archivable(version: 2, previousVersion: \(argument))\nstruct Cat {\n    var name: String\n}",
                expandedSource: "struct Cat {\n    var name: String\n}",
                diagnostics: [
                    DiagnosticSpec(
                        message: ArchivableDiagnostic.previousVersionIsItself.message,
                        line: 1,
                        column: 42
                    )
                ]
            )
        }
    }

    /// A type with its own `init(from:)` is refused.
    @Test func ownInitializer() {
        assertArchivable(
            "@Archivable\nstruct Cat {\n    init(from decoder: any Decoder) throws {}\n}",
            expandedSource: "struct Cat {\n    init(from decoder: any Decoder) throws {}\n}",
            diagnostics: [
                DiagnosticSpec(
                    message: "'@Archivable' generates 'init(from:)'; remove this declaration",
                    line: 3,
                    column: 5
                )
            ]
        )
    }
}

/// The analysis helpers, without expanding anything.
@Suite struct ArchivedPropertyTests {
    /// The property a declaration declares.
    func property(_ source: String) -> ArchivedProperty? {
        var diagnostics: [Diagnostic] = []
        let file = Parser.parse(source: source)
        guard let variable = file.statements.first?.item.as(VariableDeclSyntax.self) else { return nil }
        return ArchivedProperty.parse(variable, diagnostics: &diagnostics)?.first
    }

    @Test func rules() {
        #expect(self.property("var a: Int")?.rule == .required)
        #expect(self.property("var a: Int?")?.rule == .optional)
        #expect(self.property("var a: Optional<Int> = nil")?.rule == .optional)
        #expect(self.property("var a = 1")?.rule == .defaulted)
        #expect(self.property("var a: Int? = 2")?.rule == .optionalDefaulted)
        #expect(self.property("var a = ArchiveUnknownFields()")?.isUnknownFields == true)
        #expect(self.property("@ArchiveKey(\"b\", \"c\") var a = 1")?.keys == ["b", "c"])
        #expect(self.property("static var a = 1") == nil)
    }

    @Test func codingKeyNamesAreUniqued() {
        let names = CodingKeyNames(names: ["a", "a_1"], keys: [["a", "x"], ["a_1"]], versionKey: "v")
        #expect(names.entryCaseNames == [["a", "a_1_"], ["a_1"]])
        #expect(names.versionCaseName == "_archiveVersion")
        #expect(names.cases.map(\.rawValue) == ["a", "a_1", "x", "v"])
    }
}
