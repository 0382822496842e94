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

/// A type `@Archivable` expands on, analysed: its kind, access, arguments and archived members.
struct ArchivableType {
    /// What kind of type it is.
    enum Kind: Equatable {
        /// A struct.
        case structure
        /// A final class without a superclass.
        case finalClass
        /// A class that is not final, or has a superclass: its members go in its body, where
        /// subclasses can override them.
        case classInHierarchy(superclass: Superclass)
        /// An enum, with its raw type if it has one.
        case enumeration(rawType: String?)
    }

    /// The superclass of a class, as its declaration names it.
    ///
    /// A macro sees no types: the first type of the inheritance clause is taken for a superclass
    /// unless it is a protocol this package knows or its name reads as one (``protocolNames``,
    /// ``protocolSuffixes``).
    enum Superclass: Equatable {
        /// None: the class is a root class.
        case none
        /// Foundation's `NSObject`, whose `init()` the class's initializers call.
        case nsObject
        /// Another class, which must be `Codable` (`@Archivable` or not): its `encode(to:)` and
        /// `init(from:)` archive its properties in the same object.
        case codable(String)

        /// The superclass an inheritance clause names.
        init(_ clause: InheritanceClauseSyntax?) {
            guard let first = clause?.inheritedTypes.first?.type else {
                self = .none
                return
            }
            let name = first.trimmedDescription
            let last = name.split(separator: ".").last.map(String.init) ?? name
            if !first.is(IdentifierTypeSyntax.self) && !first.is(MemberTypeSyntax.self) {
                self = .none
            } else if last == "NSObject" {
                self = .nsObject
            } else if ArchivableType.protocolNames.contains(last)
                || ArchivableType.protocolSuffixes.contains(where: { last.hasSuffix($0) })
            {
                self = .none
            } else {
                self = .codable(name)
            }
        }
    }

    /// Protocols a class commonly lists first, which are not taken for its superclass.
    static let protocolNames: Set<String> = [
        "AnyObject", "Codable", "Decodable", "Encodable", "Sendable", "Hashable", "Equatable", "Identifiable",
        "Comparable", "Error", "Observable", "ObservableObject", "CustomStringConvertible",
        "CustomDebugStringConvertible", "ArchiveVersioned", "ArchiveMigrating", "ArchivedClassNaming",
        "ArchiveObjectEncodable", "ArchiveObjectDecodable", "ArchiveObjectCodable", "ArchiveCoding",
    ]

    /// Endings of protocol names (`Convertible`, `Representable`, `Protocol`, …): a first
    /// inherited type named so is taken for a protocol, not a superclass.
    static let protocolSuffixes = ["Protocol", "Delegate", "DataSource", "Convertible", "Representable", "Providing"]

    /// The kind.
    var kind: Kind
    /// The access modifier of generated members, with a trailing space, or empty.
    var access: String
    /// The type's name as its declaration spells it.
    var name = ""
    /// Whether the declaration is `open`: the members a subclass overrides are `open` too.
    var isOpen = false
    /// The names of the generic parameters.
    var genericParameters: [String]
    /// The macro's arguments.
    var arguments: ArchivableArguments
    /// The stored properties (structs and classes).
    var properties: [ArchivedProperty] = []
    /// The cases (enums).
    var cases: [ArchivedEnumCase] = []
    /// Whether the type declares an initializer.
    var declaresInitializer = false
    /// Whether the declaration names `@MainActor` itself: its conformances then stay the main
    /// actor's, as its members are, rather than nonisolated.
    var isDeclaredOnMainActor = false

    /// Whether the extensions may be `nonisolated`: a value type's, unless it is declared
    /// `@MainActor` or an archived property carries another attribute (a property wrapper, whose
    /// accessors have the wrapper's isolation, the main actor's in an app target). A class's
    /// follow the class.
    var hasNonisolatedExtensions: Bool {
        !self.isFinalClass && !self.isClassInHierarchy && !self.isDeclaredOnMainActor
            && !self.properties.contains { $0.isCoded && $0.hasOtherAttributes }
    }
    /// The keys enum's cases.
    var keyNames = CodingKeyNames(names: [], keys: [], versionKey: nil)

    /// The raw types an enum's cases can be archived as.
    static let rawTypes: Set<String> = [
        "String", "Int", "Int8", "Int16", "Int32", "Int64", "UInt", "UInt8", "UInt16", "UInt32", "UInt64", "Double",
        "Float", "Character",
    ]

    /// Analyses `declaration`; `nil` when `diagnostics` gained an error (or an attribute macro reports one).
    /// - Parameter isDecodable: Whether the type conforms to `Decodable` already (the compiler did
    ///   not ask the macro for the conformance): a final class under `@Archivable` whose first
    ///   inherited type could be a protocol or a class takes it for a superclass only then, so that
    ///   `final class Cat: SomeProtocol` keeps the expansion it has always had.
    static func analyze(
        _ declaration: some DeclGroupSyntax,
        attribute: AttributeSyntax,
        isDecodable: Bool = false,
        diagnostics: inout [Diagnostic]
    ) -> ArchivableType? {
        let count = diagnostics.count
        let kind: Kind
        let isClassMacro = attribute.attributeName.trimmedDescription.hasSuffix("ArchivableClass")
        if isClassMacro && !declaration.is(ClassDeclSyntax.self) {
            diagnostics.append(ArchivableDiagnostic.classMacroOnNonClass.diagnose(at: attribute))
            return nil
        }
        if declaration.is(StructDeclSyntax.self) {
            kind = .structure
        } else if let declaration = declaration.as(ClassDeclSyntax.self) {
            let isFinal = declaration.modifiers.contains { $0.name.tokenKind == .keyword(.final) }
            guard isFinal || isClassMacro else {
                diagnostics.append(Self.nonFinalClassDiagnostic(declaration, attribute: attribute))
                return nil
            }
            var superclass = Superclass(declaration.inheritanceClause)
            if case .codable = superclass, !isClassMacro, !isDecodable {
                // Not Decodable through it: a protocol of the app's, as `@Archivable` has always read it.
                superclass = .none
            }
            // A final class without a superclass keeps the expansion it has always had.
            kind =
                isFinal && superclass == .none && !isClassMacro
                ? .finalClass : .classInHierarchy(superclass: superclass)
        } else if let declaration = declaration.as(EnumDeclSyntax.self) {
            let first = declaration.inheritanceClause?.inheritedTypes.first?.type.trimmedDescription
            let bare = first.map { $0.hasPrefix("Swift.") ? String($0.dropFirst(6)) : $0 }
            kind = .enumeration(rawType: bare.flatMap { Self.rawTypes.contains($0) ? first : nil })
        } else {
            let name: String
            switch declaration.kind {
            case .protocolDecl: name = "protocols"
            case .actorDecl: name = "actors"
            case .extensionDecl: name = "extensions"
            default: name = "this declaration"
            }
            diagnostics.append(ArchivableDiagnostic.unsupportedDeclaration(name).diagnose(at: attribute))
            return nil
        }
        let modifiers = declaration.modifiers.map(\.name.text)
        let access: String
        if modifiers.contains("open") || modifiers.contains("public") {
            access = "public "
        } else if modifiers.contains("package") {
            access = "package "
        } else {
            access = ""
        }
        let parameters: [String]
        if let generic = declaration.asProtocol((any WithGenericParametersSyntax).self)?.genericParameterClause {
            parameters = generic.parameters.map(\.name.text)
        } else {
            parameters = []
        }
        var type = ArchivableType(
            kind: kind,
            access: access,
            genericParameters: parameters,
            arguments: ArchivableArguments(attribute, diagnostics: &diagnostics)
        )
        type.name = declaration.asProtocol((any NamedDeclSyntax).self)?.name.text ?? ""
        type.isOpen = modifiers.contains("open")
        if let names = type.arguments.codableParameters, let argument = type.arguments.codableParametersArgument {
            for name in names where !parameters.contains(name) {
                diagnostics.append(ArchivableDiagnostic.unknownGenericParameter(name).diagnose(at: argument.expression))
            }
        }
        type.isDeclaredOnMainActor = declaration.attributes.contains { element in
            guard case .attribute(let attribute) = element else { return false }
            let name = attribute.attributeName.trimmedDescription
            return name == "MainActor" || name == "Swift.MainActor"
        }
        if let name = declaration.asProtocol((any NamedDeclSyntax).self)?.name.text,
            type.arguments.previousVersion == name,
            let argument = type.arguments.versionArguments.first(where: { $0.label?.text == "previousVersion" })
        {
            diagnostics.append(ArchivableDiagnostic.previousVersionIsItself.diagnose(at: argument.expression))
        }
        var valid = type.analyzeMembers(declaration.memberBlock, diagnostics: &diagnostics)
        if case .enumeration = kind {
            for argument in type.arguments.versionArguments {
                diagnostics.append(ArchivableDiagnostic.versionOnEnum.diagnose(at: argument))
            }
        }
        valid = type.checkKeys(declaration.memberBlock, diagnostics: &diagnostics) && valid
        if case .classInHierarchy(let superclass) = kind {
            type.checkHierarchy(superclass, attribute: attribute, diagnostics: &diagnostics)
        }
        return valid && !diagnostics.hasErrors(after: count) ? type : nil
    }

    /// `@Archivable` on a class that is not final, with fix-its for `@ArchivableClass` and for
    /// `final`, which goes right before `class`, after any modifier, taking its leading trivia.
    private static func nonFinalClassDiagnostic(
        _ declaration: ClassDeclSyntax,
        attribute: AttributeSyntax
    ) -> Diagnostic {
        let keyword = declaration.classKeyword
        let final = DeclModifierSyntax(
            name: .keyword(.final, leadingTrivia: keyword.leadingTrivia, trailingTrivia: .space)
        )
        let insertFinal = FixIt(
            message: ArchivableFixIt.insertFinal,
            changes: [
                .replace(oldNode: Syntax(declaration.modifiers), newNode: Syntax(declaration.modifiers + [final])),
                .replaceLeadingTrivia(token: keyword, newTrivia: []),
            ]
        )
        let name = attribute.attributeName
        let useClassMacro = FixIt(
            message: ArchivableFixIt.useArchivableClass,
            changes: [
                .replace(
                    oldNode: Syntax(name),
                    newNode: Syntax(
                        IdentifierTypeSyntax(
                            name: .identifier(
                                "ArchivableClass",
                                leadingTrivia: name.leadingTrivia,
                                trailingTrivia: name.trailingTrivia
                            )
                        )
                    )
                )
            ]
        )
        return ArchivableDiagnostic.nonFinalClass.diagnose(at: keyword, fixIts: [useClassMacro, insertFinal])
    }

    /// Diagnoses what a class in a hierarchy cannot have yet: a generic class, class names,
    /// migration, a subclass's own version, the `ArchiveUnknownFields` property.
    private func checkHierarchy(_ superclass: Superclass, attribute: AttributeSyntax, diagnostics: inout [Diagnostic]) {
        if !self.conditionedParameters.isEmpty {
            diagnostics.append(ArchivableDiagnostic.genericHierarchy.diagnose(at: attribute))
        }
        if self.properties.contains(where: { $0.isUnknownFields && !$0.isIgnored }) {
            diagnostics.append(ArchivableDiagnostic.unknownFieldsInHierarchy.diagnose(at: attribute))
        }
        guard case .argumentList(let arguments) = attribute.arguments else { return }
        for argument in arguments {
            switch argument.label?.text {
            case "className", "formerClassNames", "previousVersion":
                diagnostics.append(
                    ArchivableDiagnostic.unsupportedInHierarchy(argument.label?.text ?? "").diagnose(at: argument)
                )
            case "version", "unversionedVersion", "versionKey":
                if case .codable = superclass {
                    diagnostics.append(ArchivableDiagnostic.versionOnSubclass.diagnose(at: argument))
                }
            default:
                break
            }
        }
    }

    /// Collects the archived members; `false` when one is malformed.
    private mutating func analyzeMembers(_ members: MemberBlockSyntax, diagnostics: inout [Diagnostic]) -> Bool {
        var valid = true
        var unknownFields: String?
        var unknownCase: String?
        for member in members.members {
            let decl = member.decl
            if let variable = decl.as(VariableDeclSyntax.self) {
                guard let properties = ArchivedProperty.parse(variable, diagnostics: &diagnostics) else {
                    valid = false
                    continue
                }
                for property in properties where property.isUnknownFields && !property.isIgnored {
                    if unknownFields != nil {
                        diagnostics.append(ArchivableDiagnostic.repeatedUnknownFields.diagnose(at: variable))
                        valid = false
                    }
                    unknownFields = property.name
                }
                self.properties += properties
            } else if let declaration = decl.as(EnumCaseDeclSyntax.self) {
                guard let cases = ArchivedEnumCase.parse(declaration, diagnostics: &diagnostics) else {
                    valid = false
                    continue
                }
                for item in cases where item.isUnknown {
                    if let unknownCase {
                        diagnostics.append(
                            ArchivableDiagnostic.repeatedUnknownCase(unknownCase).diagnose(at: declaration)
                        )
                        valid = false
                    }
                    unknownCase = item.name
                }
                if case .enumeration(rawType: .some) = self.kind,
                    let key = ArchiveAttributes(
                        declaration.attributes,
                        diagnostics: &diagnostics
                    ).key
                {
                    diagnostics.append(ArchivableDiagnostic.keyOnRawValueCase.diagnose(at: key))
                    valid = false
                }
                self.cases += cases
            } else if let ifConfig = decl.as(IfConfigDeclSyntax.self) {
                valid = self.addConditionalMembers(ifConfig, under: nil, diagnostics: &diagnostics) && valid
            } else if let initializer = decl.as(InitializerDeclSyntax.self) {
                self.declaresInitializer = true
                let labels = initializer.signature.parameterClause.parameters.map(\.firstName.text)
                if labels == ["from"] {
                    diagnostics.append(
                        ArchivableDiagnostic.ownMember("init(from:)").diagnose(at: initializer.initKeyword)
                    )
                    valid = false
                }
            } else if let function = decl.as(FunctionDeclSyntax.self), function.name.text == "encode",
                function.signature.parameterClause.parameters.map(\.firstName.text) == ["to"]
            {
                diagnostics.append(ArchivableDiagnostic.ownMember("encode(to:)").diagnose(at: function.name))
                valid = false
            } else if let name = Self.typeName(decl), name == "CodingKeys" {
                diagnostics.append(ArchivableDiagnostic.ownMember("CodingKeys").diagnose(at: decl))
                valid = false
            }
        }
        return valid
    }

    /// Adds the stored properties of every clause of `ifConfig` (nested ones too), each under
    /// its clause's condition: the generated code reads and writes it under the same condition.
    /// A property declared the same way in several clauses (`#if os(iOS)` … `#else` …) is one
    /// property under either condition. Refuses what the expansion cannot carry over: an enum
    /// case, the `ArchiveUnknownFields` property, a property declared differently in two clauses.
    private mutating func addConditionalMembers(
        _ ifConfig: IfConfigDeclSyntax,
        under outer: String?,
        diagnostics: inout [Diagnostic]
    ) -> Bool {
        var valid = true
        var previous: [String] = []
        for clause in ifConfig.clauses {
            var parts = previous.map { "!(\($0))" }
            if let condition = clause.condition?.trimmedDescription {
                parts.append("(\(condition))")
                previous.append(condition)
            }
            let own = parts.joined(separator: " && ")
            let condition = outer.map { own.isEmpty ? $0 : "(\($0)) && \(own)" } ?? own
            guard case .decls(let members) = clause.elements else { continue }
            for member in members {
                let decl = member.decl
                if let nested = decl.as(IfConfigDeclSyntax.self) {
                    valid = self.addConditionalMembers(nested, under: condition, diagnostics: &diagnostics) && valid
                } else if let variable = decl.as(VariableDeclSyntax.self) {
                    guard let properties = ArchivedProperty.parse(variable, diagnostics: &diagnostics) else {
                        valid = false
                        continue
                    }
                    for var property in properties where !property.isIgnored {
                        guard !property.isUnknownFields else {
                            diagnostics.append(ArchivableDiagnostic.memberInsideIfConfig.diagnose(at: variable))
                            valid = false
                            continue
                        }
                        property.condition = condition.isEmpty ? nil : condition
                        valid = self.addConditional(property, at: variable, diagnostics: &diagnostics) && valid
                    }
                } else if decl.is(EnumCaseDeclSyntax.self) {
                    diagnostics.append(ArchivableDiagnostic.memberInsideIfConfig.diagnose(at: decl))
                    valid = false
                }
            }
        }
        return valid
    }

    /// Adds a property declared under a condition, or widens the condition of the same property
    /// declared in another clause; `false` when that one is declared differently.
    private mutating func addConditional(
        _ property: ArchivedProperty,
        at variable: VariableDeclSyntax,
        diagnostics: inout [Diagnostic]
    ) -> Bool {
        guard let index = self.properties.firstIndex(where: { $0.name == property.name }) else {
            self.properties.append(property)
            return true
        }
        let existing = self.properties[index]
        guard let first = existing.condition, let second = property.condition, existing.keys == property.keys,
            existing.rule == property.rule, existing.isFallback == property.isFallback,
            existing.isLet == property.isLet, existing.isLazy == property.isLazy
        else {
            diagnostics.append(ArchivableDiagnostic.conditionalMemberDiffers(property.name).diagnose(at: variable))
            return false
        }
        self.properties[index].condition = "(\(first)) || (\(second))"
        return true
    }

    /// The name a nested type declaration declares.
    private static func typeName(_ decl: DeclSyntax) -> String? {
        if let item = decl.as(EnumDeclSyntax.self) { return item.name.text }
        if let item = decl.as(StructDeclSyntax.self) { return item.name.text }
        if let item = decl.as(ClassDeclSyntax.self) { return item.name.text }
        if let item = decl.as(TypeAliasDeclSyntax.self) { return item.name.text }
        return nil
    }

    /// Names the keys and diagnoses a key claimed twice; `false` when one is.
    private mutating func checkKeys(_ members: MemberBlockSyntax, diagnostics: inout [Diagnostic]) -> Bool {
        let entries: [(name: String, keys: [String])]
        if case .enumeration(rawType: .some) = self.kind {
            return true
        } else if case .enumeration = self.kind {
            entries = self.cases.map { ($0.name, $0.keys) }
        } else {
            entries = self.properties.filter(\.isCoded).map { ($0.name, $0.keys) }
        }
        var owners: [String: String] = [:]
        var valid = true
        // Every struct and class reads the version, so that data a newer version wrote is refused
        // even by a type that was never versioned; enums carry none.
        let versionKey: String?
        if case .enumeration = self.kind { versionKey = nil } else { versionKey = self.arguments.versionKeyString }
        for entry in entries {
            for key in entry.keys {
                if let owner = owners[key] {
                    let node = Self.node(named: entry.name, in: members)
                    diagnostics.append(ArchivableDiagnostic.duplicateKey(key, usedBy: owner).diagnose(at: node))
                    valid = false
                } else if key == versionKey {
                    let node = Self.node(named: entry.name, in: members)
                    diagnostics.append(ArchivableDiagnostic.versionKeyConflict(key).diagnose(at: node))
                    valid = false
                }
                owners[key] = owners[key] ?? entry.name
            }
        }
        self.keyNames = CodingKeyNames(names: entries.map(\.name), keys: entries.map(\.keys), versionKey: versionKey)
        return valid
    }

    /// The declaration of the property or case named `name`, for placing a diagnostic.
    private static func node(named name: String, in members: MemberBlockSyntax) -> Syntax {
        for member in members.members {
            if let variable = member.decl.as(VariableDeclSyntax.self),
                variable.bindings.contains(where: {
                    $0.pattern.as(IdentifierPatternSyntax.self)?.identifier.text == name
                })
            {
                return Syntax(variable)
            }
            if let declaration = member.decl.as(EnumCaseDeclSyntax.self),
                declaration.elements.contains(where: { $0.name.text == name })
            {
                return Syntax(declaration)
            }
        }
        return Syntax(members)
    }
}
