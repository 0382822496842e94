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
import SwiftSyntaxBuilder
import SwiftSyntaxMacroExpansion
import SwiftSyntaxMacros
import SwiftSyntaxMacrosGenericTestSupport
import Testing

@testable import ArchivableMacroSupport

/// The macros under test, with the conformances the compiler passes to `@Archivable`.
let archivableMacroSpecs: [String: MacroSpec] = [
    "Archivable": MacroSpec(
        type: ArchivableMacro.self,
        conformances: ["Decodable", "Encodable", "ArchiveVersioned", "ArchiveMigrating", "ArchivedClassNaming"]
    ),
    "ArchivableClass": MacroSpec(
        type: ArchivableMacro.self,
        conformances: [
            "Decodable", "Encodable", "ArchiveVersioned", "ArchiveObjectEncodable", "ArchiveObjectDecodable",
        ]
    ),
    "ArchiveKey": MacroSpec(type: ArchiveAttributeMacro.self),
    "ArchiveIgnored": MacroSpec(type: ArchiveAttributeMacro.self),
    "ArchiveFallback": MacroSpec(type: ArchiveAttributeMacro.self),
    "ArchiveUnknownCase": MacroSpec(type: ArchiveAttributeMacro.self),
    "ArchiveUnwrapped": MacroSpec(type: ArchiveAttributeMacro.self),
]

/// The macros under test when the type is also to conform to the direct protocols, as the
/// compiler asks for a type that does not conform to them yet. ``archivableMacroSpecs`` leaves
/// them out, so that the other tests show the `Codable` members alone.
let directArchivableMacroSpecs: [String: MacroSpec] = archivableMacroSpecs.merging([
    "Archivable": MacroSpec(
        type: ArchivableMacro.self,
        conformances: [
            "Decodable", "Encodable", "ArchiveVersioned", "ArchiveMigrating", "ArchivedClassNaming",
            "ArchiveObjectEncodable", "ArchiveObjectDecodable", "ArchiveRawValueCodable",
        ]
    )
]) { $1 }

/// Asserts that `source` expands to `expanded` with `diagnostics`, recording failures as issues.
/// - Parameters:
///   - direct: Whether the type is to conform to the direct protocols too.
///   - conformances: The conformances the compiler asks for, when not those `direct` chooses: none
///     for a subclass of an `@Archivable` class, which has them all already.
func assertArchivable(
    _ source: String,
    expandedSource expanded: String,
    diagnostics: [DiagnosticSpec] = [],
    fixedSource: String? = nil,
    direct: Bool = false,
    conformances: [String]? = nil,
    sourceLocation: Testing.SourceLocation = #_sourceLocation
) {
    var specs = direct ? directArchivableMacroSpecs : archivableMacroSpecs
    if let conformances {
        let types = conformances.map { TypeSyntax(stringLiteral: $0) }
        specs["Archivable"] = MacroSpec(type: ArchivableMacro.self, conformances: types)
        specs["ArchivableClass"] = MacroSpec(type: ArchivableMacro.self, conformances: types)
    }
    assertMacroExpansion(
        source,
        expandedSource: expanded,
        diagnostics: diagnostics,
        macroSpecs: specs,
        applyFixIts: fixedSource == nil ? nil : diagnostics.flatMap { $0.fixIts.map(\.message) },
        fixedSource: fixedSource,
        indentationWidth: .spaces(4),
        failureHandler: { failure in
            Issue.record(Comment(rawValue: failure.message), sourceLocation: sourceLocation)
        }
    )
}

/// `source` with `@Archivable` and its attributes expanded, and every diagnostic the expansion
/// reported: for tests that look at parts of an expansion rather than all of it.
/// - Parameter conformances: The conformances the compiler asks for, when not the usual ones.
func expandArchivable(_ source: String, conformances: [String]? = nil) -> (source: String, diagnostics: [Diagnostic]) {
    let file = Parser.parse(source: source)
    var contexts: [BasicMacroExpansionContext] = []
    var specs = archivableMacroSpecs
    if let conformances {
        let types = conformances.map { TypeSyntax(stringLiteral: $0) }
        specs["Archivable"] = MacroSpec(type: ArchivableMacro.self, conformances: types)
        specs["ArchivableClass"] = MacroSpec(type: ArchivableMacro.self, conformances: types)
    }
    let expanded = file.expand(
        macroSpecs: specs,
        contextGenerator: { node in
            let context = BasicMacroExpansionContext(
                lexicalContext: node.allMacroLexicalContexts(),
                sourceFiles: [file: .init(moduleName: "Test", fullFilePath: "Test.swift")]
            )
            contexts.append(context)
            return context
        },
        indentationWidth: .spaces(4)
    )
    return (expanded.description, contexts.flatMap(\.diagnostics))
}
