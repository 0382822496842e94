//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-keyed-archive open source project
//
// Licensed under Apache License v2.0
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import ArchivableMacroSupport
public import SwiftSyntax
public import SwiftSyntaxMacros

// The compiler finds a macro by the module and name of its type, so the types `#externalMacro`
// names live in this module; they forward to the implementation in ArchivableMacroSupport, which
// the expansion tests link without building the test product for the host.

/// `@Archivable`: see `ArchivableMacroSupport.ArchivableMacro`.
public struct ArchivableMacro: ExtensionMacro, MemberMacro {
    /// The conformances and their members.
    public static func expansion(
        of node: AttributeSyntax,
        attachedTo declaration: some DeclGroupSyntax,
        providingExtensionsOf type: some TypeSyntaxProtocol,
        conformingTo protocols: [TypeSyntax],
        in context: some MacroExpansionContext
    ) throws -> [ExtensionDeclSyntax] {
        try ArchivableMacroSupport.ArchivableMacro.expansion(
            of: node,
            attachedTo: declaration,
            providingExtensionsOf: type,
            conformingTo: protocols,
            in: context
        )
    }

    /// The members of a final class's body.
    public static func expansion(
        of node: AttributeSyntax,
        providingMembersOf declaration: some DeclGroupSyntax,
        conformingTo protocols: [TypeSyntax],
        in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] {
        try ArchivableMacroSupport.ArchivableMacro.expansion(
            of: node,
            providingMembersOf: declaration,
            conformingTo: protocols,
            in: context
        )
    }
}

/// `@ArchiveKey`, `@ArchiveIgnored`, `@ArchiveFallback`, `@ArchiveUnwrapped` and
/// `@ArchiveUnknownCase`: see
/// `ArchivableMacroSupport.ArchiveAttributeMacro`.
public struct ArchiveAttributeMacro: PeerMacro {
    /// Nothing, after checking where the attribute is written.
    public static func expansion(
        of node: AttributeSyntax,
        providingPeersOf declaration: some DeclSyntaxProtocol,
        in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] {
        try ArchivableMacroSupport.ArchiveAttributeMacro.expansion(
            of: node,
            providingPeersOf: declaration,
            in: context
        )
    }
}
