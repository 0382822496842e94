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
public import SwiftSyntax
public import SwiftSyntaxMacros

/// `@ArchiveKey`, `@ArchiveIgnored`, `@ArchiveFallback`, `@ArchiveUnwrapped` and
/// `@ArchiveUnknownCase`: markers that
/// `@Archivable` reads. They expand to nothing; they only check where they are written.
public struct ArchiveAttributeMacro: PeerMacro {
    /// Expands to nothing, after diagnosing an attribute on a declaration it does not apply to.
    public static func expansion(
        of node: AttributeSyntax,
        providingPeersOf declaration: some DeclSyntaxProtocol,
        in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] {
        let name = ArchiveAttributes.name(of: node)
        let isEnumCase = declaration.is(EnumCaseDeclSyntax.self)
        let isStoredProperty = Self.isStoredInstanceProperty(declaration, in: context)
        let target: String
        let applies: Bool
        switch name {
        case "ArchiveUnknownCase":
            target = "enum cases"
            applies = isEnumCase
        case "ArchiveKey":
            target = "stored instance properties and enum cases"
            applies = isStoredProperty || isEnumCase
        default:
            target = "stored instance properties"
            applies = isStoredProperty
        }
        if !applies {
            context.diagnose(ArchivableDiagnostic.misplacedAttribute(name, target).diagnose(at: node))
        } else if let variable = declaration.as(VariableDeclSyntax.self), variable.bindings.count > 1 {
            context.diagnose(ArchivableDiagnostic.multipleBindings.diagnose(at: node))
        } else if let cases = declaration.as(EnumCaseDeclSyntax.self), cases.elements.count > 1 {
            context.diagnose(ArchivableDiagnostic.multipleBindings.diagnose(at: node))
        }
        return []
    }

    /// Whether `declaration` is a stored instance property of a type.
    static func isStoredInstanceProperty(
        _ declaration: some DeclSyntaxProtocol,
        in context: some MacroExpansionContext
    ) -> Bool {
        guard let variable = declaration.as(VariableDeclSyntax.self) else { return false }
        if variable.modifiers.contains(where: { ["static", "class"].contains($0.name.text) }) { return false }
        for binding in variable.bindings {
            guard let accessors = binding.accessorBlock else { continue }
            guard case .accessors(let list) = accessors.accessors,
                list.allSatisfy({ ["willSet", "didSet"].contains($0.accessorSpecifier.text) })
            else { return false }
        }
        guard let parent = context.lexicalContext.first else { return false }
        return parent.is(StructDeclSyntax.self) || parent.is(ClassDeclSyntax.self) || parent.is(EnumDeclSyntax.self)
            || parent.is(ActorDeclSyntax.self)
    }
}
