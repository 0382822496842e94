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
import SwiftSyntax

/// A case of an `@Archivable` enum, as the macro archives it.
struct ArchivedEnumCase {
    /// An associated value of a case.
    struct Value: Equatable {
        /// The label, if any.
        var label: String?
        /// The type, as written.
        var type: String
        /// The wrapped type when the type is optional.
        var wrappedType: String?
    }

    /// The name, as written (backticks kept).
    var name: String
    /// The associated values.
    var values: [Value]
    /// Its keys, current first; just the name without `@ArchiveKey`.
    var keys: [String]
    /// Whether it is the `@ArchiveUnknownCase` case.
    var isUnknown: Bool

    /// The names of the keys of the associated values: the label, or `_0`, `_1`… by position.
    var valueKeyNames: [String] {
        self.values.enumerated().map { index, value in value.label ?? "_\(index)" }
    }

    /// The name of the case's nested keys enum, such as `BCodingKeys` for `b`.
    var keysEnumName: String {
        let bare = CodingKeyNames.bare(self.name)
        return bare.prefix(1).uppercased() + bare.dropFirst() + "CodingKeys"
    }

    /// The cases `declaration` declares; `nil` for a malformed declaration (diagnosed in
    /// `diagnostics`, or by the attribute macros when an attribute is misplaced).
    static func parse(_ declaration: EnumCaseDeclSyntax, diagnostics: inout [Diagnostic]) -> [ArchivedEnumCase]? {
        let count = diagnostics.count
        let attributes = ArchiveAttributes(declaration.attributes, diagnostics: &diagnostics)
        // Misplaced attributes are reported by the attribute macros themselves.
        let hasAttribute = attributes.key != nil || attributes.unknownCase != nil
        if attributes.ignored != nil || attributes.fallback != nil || attributes.unwrapped != nil
            || (hasAttribute && declaration.elements.count > 1)
        {
            return nil
        }
        var keys: [String]?
        if let key = attributes.key { keys = ArchiveAttributes.keys(of: key, diagnostics: &diagnostics) }
        let cases = declaration.elements.map { element in
            ArchivedEnumCase(
                name: element.name.text,
                values: (element.parameterClause?.parameters).map { parameters in
                    parameters.map { parameter in
                        Value(
                            label: parameter.firstName.flatMap { $0.text == "_" ? nil : $0.text },
                            type: parameter.type.trimmedDescription,
                            wrappedType: ArchivedProperty.wrappedType(parameter.type)
                        )
                    }
                } ?? [],
                keys: keys ?? [CodingKeyNames.bare(element.name.text)],
                isUnknown: attributes.unknownCase != nil
            )
        }
        if let unknownCase = attributes.unknownCase, cases.contains(where: { !$0.values.isEmpty }) {
            diagnostics.append(ArchivableDiagnostic.unknownCaseWithValues.diagnose(at: unknownCase))
        }
        return diagnostics.hasErrors(after: count) ? nil : cases
    }
}
