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

/// The arguments of `@Archivable(...)`.
struct ArchivableArguments {
    /// `version:`, 1 by default.
    var version = 1
    /// `previousVersion:`, the type without `.self`.
    var previousVersion: String?
    /// `unversionedVersion:`, 1 by default.
    var unversionedVersion = 1
    /// `versionKey:`.
    var versionKey: String?
    /// `className:`.
    var className: String?
    /// `formerClassNames:`.
    var formerClassNames: [String] = []
    /// `codableParameters:`: the generic parameters the conformances are conditioned on, when
    /// given; `nil` to infer them from the stored properties' types.
    var codableParameters: [String]?
    /// The `codableParameters:` argument, for diagnosing a name that is no generic parameter.
    var codableParametersArgument: LabeledExprSyntax?
    /// The version arguments given, for refusing them on an enum.
    var versionArguments: [LabeledExprSyntax] = []

    /// The version key string.
    var versionKeyString: String { self.versionKey ?? "archiveVersion" }

    /// The arguments of `attribute`; errors go to `diagnostics`.
    init(_ attribute: AttributeSyntax, diagnostics: inout [Diagnostic]) {
        guard case .argumentList(let arguments) = attribute.arguments else { return }
        for argument in arguments {
            let label = argument.label?.text ?? ""
            let expression = argument.expression
            let isNil = expression.is(NilLiteralExprSyntax.self)
            switch label {
            case "version", "unversionedVersion":
                self.versionArguments.append(argument)
                guard let value = Self.integer(expression) else {
                    diagnostics.append(ArchivableDiagnostic.integerLiteralRequired(label).diagnose(at: expression))
                    continue
                }
                if value < 1 {
                    diagnostics.append(
                        ArchivableDiagnostic.invalidVersion("'\(label)' must be 1 or more").diagnose(at: expression)
                    )
                }
                if label == "version" { self.version = value } else { self.unversionedVersion = value }
            case "previousVersion":
                self.versionArguments.append(argument)
                if isNil { continue }
                if let member = expression.as(MemberAccessExprSyntax.self), member.declName.baseName.text == "self",
                    let base = member.base
                {
                    self.previousVersion = base.trimmedDescription
                } else {
                    self.previousVersion = expression.trimmedDescription
                }
            case "versionKey":
                self.versionArguments.append(argument)
                self.versionKey = Self.string(expression, label: label, diagnostics: &diagnostics)
            case "className":
                self.className = Self.string(expression, label: label, diagnostics: &diagnostics)
            case "formerClassNames":
                guard let array = expression.as(ArrayExprSyntax.self) else {
                    diagnostics.append(ArchivableDiagnostic.stringLiteralRequired(label).diagnose(at: expression))
                    continue
                }
                for element in array.elements {
                    if let name = Self.string(element.expression, label: label, diagnostics: &diagnostics) {
                        self.formerClassNames.append(name)
                    }
                }
                if !self.formerClassNames.isEmpty && !arguments.contains(where: { $0.label?.text == "className" }) {
                    diagnostics.append(ArchivableDiagnostic.formerClassNamesWithoutClassName.diagnose(at: argument))
                }
            case "codableParameters":
                guard let array = expression.as(ArrayExprSyntax.self) else {
                    diagnostics.append(ArchivableDiagnostic.stringLiteralRequired(label).diagnose(at: expression))
                    continue
                }
                self.codableParametersArgument = argument
                var names: [String] = []
                for element in array.elements {
                    if let name = Self.string(element.expression, label: label, diagnostics: &diagnostics) {
                        names.append(name)
                    }
                }
                self.codableParameters = names
            default:
                continue
            }
        }
        if let previous = self.previousVersion,
            let argument = arguments.first(where: { $0.label?.text == "previousVersion" })
        {
            if previous == "Self" {
                diagnostics.append(ArchivableDiagnostic.previousVersionIsItself.diagnose(at: argument.expression))
            } else if self.version < 2 {
                // Archives are migrated from `previousVersion` when they store a version below
                // `version`; at version 1 none does, and the migration would never run.
                diagnostics.append(ArchivableDiagnostic.previousVersionNeedsVersion.diagnose(at: argument))
            }
        }
        if self.unversionedVersion > self.version,
            let argument = arguments.first(where: { $0.label?.text == "unversionedVersion" })
        {
            diagnostics.append(
                ArchivableDiagnostic.invalidVersion("'unversionedVersion' cannot be greater than 'version'")
                    .diagnose(at: argument.expression)
            )
        }
    }

    /// The value of an integer literal, possibly negative.
    private static func integer(_ expression: ExprSyntax) -> Int? {
        if let literal = expression.as(IntegerLiteralExprSyntax.self) {
            return Int(literal.literal.text.filter { $0 != "_" })
        }
        if let prefix = expression.as(PrefixOperatorExprSyntax.self), prefix.operator.text == "-",
            let value = integer(prefix.expression)
        {
            return -value
        }
        return nil
    }

    /// The value of a string literal argument; `nil` for `nil`, or after diagnosing another expression.
    private static func string(_ expression: ExprSyntax, label: String, diagnostics: inout [Diagnostic]) -> String? {
        if expression.is(NilLiteralExprSyntax.self) { return nil }
        guard let value = stringLiteral(expression) else {
            diagnostics.append(ArchivableDiagnostic.stringLiteralRequired(label).diagnose(at: expression))
            return nil
        }
        return value
    }
}
