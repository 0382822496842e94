//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-keyed-archive open source project
//
// Licensed under Apache License v2.0
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import SwiftSyntax
import SwiftSyntaxBuilder
import SwiftSyntaxMacroExpansion
import SwiftSyntaxMacrosGenericTestSupport
import Testing

@testable import ArchivableMacroSupport

/// The macros under test, with the conformances the compiler passes to `@Archivable`.
let archivableMacroSpecs: [String: MacroSpec] = [
    "Archivable": MacroSpec(
        type: ArchivableMacro.self,
        conformances: ["Decodable", "Encodable", "ArchiveVersioned", "ArchiveMigrating", "ArchivedClassNaming"]
    ),
    "ArchiveKey": MacroSpec(type: ArchiveAttributeMacro.self),
    "ArchiveIgnored": MacroSpec(type: ArchiveAttributeMacro.self),
    "ArchiveFallback": MacroSpec(type: ArchiveAttributeMacro.self),
    "ArchiveUnknownCase": MacroSpec(type: ArchiveAttributeMacro.self),
]

/// Asserts that `source` expands to `expanded` with `diagnostics`, recording failures as issues.
func assertArchivable(
    _ source: String,
    expandedSource expanded: String,
    diagnostics: [DiagnosticSpec] = [],
    fixedSource: String? = nil,
    sourceLocation: Testing.SourceLocation = #_sourceLocation
) {
    assertMacroExpansion(
        source,
        expandedSource: expanded,
        diagnostics: diagnostics,
        macroSpecs: archivableMacroSpecs,
        applyFixIts: fixedSource == nil ? nil : diagnostics.flatMap { $0.fixIts.map(\.message) },
        fixedSource: fixedSource,
        indentationWidth: .spaces(4),
        failureHandler: { failure in
            Issue.record(Comment(rawValue: failure.message), sourceLocation: sourceLocation)
        }
    )
}
