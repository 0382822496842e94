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
import SwiftSyntaxBuilder
public import SwiftSyntaxMacros

/// `@Archivable`: a `Codable` conformance that follows the evolution rules of `ArchiveEvolution`.
///
/// The extension role adds the conformances and, for structs and enums, every member; the member
/// role adds a final class's initializers (`init(from:)`, `init(archiveObject:)`), which cannot
/// live in an extension. Structs and final classes also get the direct conformances
/// (`ArchiveObjectEncodable`, `ArchiveObjectDecodable`), which this package's coders use instead
/// of the `Codable` ones.
public struct ArchivableMacro: ExtensionMacro, MemberMacro {
    /// Adds the conformances and the members that can live in extensions.
    public static func expansion(
        of node: AttributeSyntax,
        attachedTo declaration: some DeclGroupSyntax,
        providingExtensionsOf type: some TypeSyntaxProtocol,
        conformingTo protocols: [TypeSyntax],
        in context: some MacroExpansionContext
    ) throws -> [ExtensionDeclSyntax] {
        var diagnostics: [Diagnostic] = []
        let requested = Self.names(of: protocols)
        let analysed = ArchivableType.analyze(
            declaration,
            attribute: node,
            isDecodable: !requested.contains("Decodable"),
            diagnostics: &diagnostics
        )
        diagnostics.forEach(context.diagnose)
        guard let analysed else { return [] }
        // Nonisolated where it can be, so that a value archives off the main actor in a module whose
        // default isolation is the main actor (an app target's); see `hasNonisolatedExtensions`.
        let header =
            (analysed.hasNonisolatedExtensions ? "nonisolated " : "") + "extension " + type.trimmedDescription
        func conformances(_ names: [(String, String)]) -> String {
            let list = names.filter { requested.contains($0.0) }.map(\.1)
            return list.isEmpty ? "" : ": " + list.joined(separator: ", ")
        }
        var extensions: [String] = []
        let codable = conformances([("Decodable", "Swift.Decodable"), ("Encodable", "Swift.Encodable")])
        extensions.append(
            Self.extensionText(
                "\(header)\(codable)\(analysed.whereClause("Swift.Codable"))",
                analysed.codableMembers()
            )
        )
        let versioned = conformances([("ArchiveVersioned", "KeyedArchiving.ArchiveVersioned")])
        if let members = analysed.versionedMembers(requested: requested.contains("ArchiveVersioned")) {
            extensions.append(Self.extensionText("\(header)\(versioned)", members))
        }
        if let previous = analysed.arguments.previousVersion {
            let migrating = conformances([("ArchiveMigrating", "KeyedArchiving.ArchiveMigrating")])
            extensions.append(
                Self.extensionText(
                    "\(header)\(migrating)",
                    ["\(analysed.access)typealias PreviousArchiveVersion = \(previous)"]
                )
            )
        }
        if let members = analysed.classNamingMembers() {
            let naming = conformances([("ArchivedClassNaming", "KeyedArchiving.ArchivedClassNaming")])
            extensions.append(Self.extensionText("\(header)\(naming)", members))
        }
        if analysed.hasRawStringValues && requested.contains("ArchiveRawValueCodable") {
            extensions.append(
                Self.extensionText(
                    "\(header): KeyedArchiving.ArchiveRawValueCodable",
                    analysed.rawValueMembers()
                )
            )
        }
        let encodable = requested.contains("ArchiveObjectEncodable")
        let decodable = requested.contains("ArchiveObjectDecodable")
        if analysed.hasDirectConformances && (encodable || decodable) {
            let direct = conformances([
                ("ArchiveObjectEncodable", "KeyedArchiving.ArchiveObjectEncodable"),
                ("ArchiveObjectDecodable", "KeyedArchiving.ArchiveObjectDecodable"),
            ])
            extensions.append(
                Self.extensionText(
                    "\(header)\(direct)\(analysed.whereClause("Swift.Codable"))",
                    analysed.directMembers(encodable: encodable, decodable: decodable)
                )
            )
        }
        if analysed.codableSuperclass != nil && (encodable || decodable) {
            // A subclass of a plain Codable class: every conformance the macro declares must be
            // added, or Swift cannot compile a subclass of this one (swiftlang/swift#89151).
            let direct = conformances([
                ("ArchiveObjectEncodable", "KeyedArchiving.ArchiveObjectEncodable"),
                ("ArchiveObjectDecodable", "KeyedArchiving.ArchiveObjectDecodable"),
            ])
            extensions.append(
                Self.extensionText("\(header)\(direct)", analysed.throughCodableMembers(encodable: encodable))
            )
        }
        return extensions.compactMap { DeclSyntax(stringLiteral: $0).as(ExtensionDeclSyntax.self) }
    }

    /// Adds a final class's `init(from:)`, its `init(archiveObject:)` when the class is to conform
    /// to `ArchiveObjectDecodable`, and `init()` when the class would lose its implicit one.
    public static func expansion(
        of node: AttributeSyntax,
        providingMembersOf declaration: some DeclGroupSyntax,
        conformingTo protocols: [TypeSyntax],
        in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] {
        guard declaration.is(ClassDeclSyntax.self) else { return [] }
        // The extension role reports the diagnostics; reporting them twice would repeat them.
        var diagnostics: [Diagnostic] = []
        guard
            let analysed = ArchivableType.analyze(
                declaration,
                attribute: node,
                isDecodable: !Self.names(of: protocols).contains("Decodable"),
                diagnostics: &diagnostics
            )
        else {
            return []
        }
        var members = analysed.classMembers() + analysed.hierarchyClassMembers()
        if protocols.contains(where: { $0.trimmedDescription.hasSuffix("ArchiveObjectDecodable") }) {
            members += analysed.directClassMembers()
        }
        return members.map { DeclSyntax(stringLiteral: $0) }
    }

    /// The unqualified names of the protocols the compiler asks the macro to conform to.
    private static func names(of protocols: [TypeSyntax]) -> Set<String> {
        Set(protocols.map { $0.trimmedDescription.split(separator: ".").last.map(String.init) ?? "" })
    }

    /// An extension with `header` and `members`, separated by blank lines.
    private static func extensionText(_ header: String, _ members: [String]) -> String {
        let body = members.map { member in
            member.split(separator: "\n", omittingEmptySubsequences: false).map { $0.isEmpty ? "" : "    \($0)" }
                .joined(separator: "\n")
        }
        return "\(header) {\n" + body.joined(separator: "\n\n") + "\n}"
    }
}
