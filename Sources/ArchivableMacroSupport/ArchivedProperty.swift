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

/// A stored instance property of an `@Archivable` struct or class, as the macro archives it.
struct ArchivedProperty {
    /// How a property is decoded, after the rules of `@Archivable`.
    enum Rule: Equatable {
        /// No initial value, not optional: the key must be present.
        case required
        /// Optional, with no initial value or `nil`: `decodeIfPresent`.
        case optional
        /// Not optional, with an initial value: kept when the key is absent.
        case defaulted
        /// Optional with an initial value other than `nil`: kept when the key is absent.
        case optionalDefaulted
    }

    /// The name, as written (backticks kept).
    var name: String
    /// The type annotation, as written, if any.
    var type: String?
    /// The wrapped type when the annotation is optional (`T?`, `T!`, `Optional<T>`).
    var wrappedType: String?
    /// The initial value, as written, if any.
    var initialValue: String?
    /// Whether it is a `let`.
    var isLet: Bool
    /// Whether it is a `lazy var`.
    var isLazy: Bool
    /// Its keys, current first; just the name without `@ArchiveKey`.
    var keys: [String]
    /// Whether it is `@ArchiveIgnored`.
    var isIgnored: Bool
    /// Whether it is `@ArchiveFallback`.
    var isFallback: Bool
    /// Whether it holds the type's `ArchiveUnknownFields`.
    var isUnknownFields: Bool
    /// Whether it carries an attribute that is not this package's, such as a property wrapper.
    var hasOtherAttributes = false
    /// The type of the attribute taken for a property wrapper, as written (`Marked<Tag>`), if
    /// any: its storage, `_name`, is archived when the wrapper is `Codable`, as synthesized
    /// `Codable` archives it.
    var wrapperType: String?
    /// Whether it carries an attribute taken for a property wrapper.
    var isWrapped: Bool { self.wrapperType != nil }
    /// The compilation condition it is declared under (`#if` clauses, nested ones joined with
    /// `&&`; the same property in several clauses joined with `||`), or `nil` when it has none.
    var condition: String?

    /// The name of a wrapped property's storage: `_volume` for `@Clamped var volume`.
    var storageName: String { "_" + CodingKeyNames.bare(self.name) }

    /// Whether the property starts with a value: an initializer, or `nil` for an optional `var`.
    var hasInitialValue: Bool {
        self.initialValue != nil || (self.wrappedType != nil && !self.isLet) || self.isLazy
    }

    /// Whether it is archived under keys.
    var isCoded: Bool { !self.isIgnored && !self.isUnknownFields }

    /// Whether decoding sets it: every coded property but a `let` with an initial value, which is
    /// written and keeps that value, as synthesized `Codable` does.
    var isDecoded: Bool { self.isCoded && !self.isLetWithInitialValue }

    /// Whether it is a `let` with an initial value, which no initializer can set again.
    var isLetWithInitialValue: Bool { self.isLet && self.initialValue != nil }

    /// The decoding rule.
    var rule: Rule {
        if self.wrappedType != nil {
            return self.initialValue == nil || self.initialValue == "nil" ? .optional : .optionalDefaulted
        }
        return self.initialValue == nil ? .required : .defaulted
    }

    /// The properties `variable` declares: none for a declaration that is not archived (static,
    /// computed), `nil` for a malformed one (diagnosed in `diagnostics`, or by the attribute
    /// macros when an attribute is misplaced).
    static func parse(_ variable: VariableDeclSyntax, diagnostics: inout [Diagnostic]) -> [ArchivedProperty]? {
        let modifiers = Set(variable.modifiers.map(\.name.text))
        guard !modifiers.contains("static"), !modifiers.contains("class") else { return [] }
        let count = diagnostics.count
        let attributes = ArchiveAttributes(variable.attributes, diagnostics: &diagnostics)
        let hasAttribute =
            attributes.key != nil || attributes.ignored != nil || attributes.fallback != nil
            || attributes.unwrapped != nil
        // Misplaced attributes are reported by the attribute macros themselves.
        if attributes.unknownCase != nil || (hasAttribute && variable.bindings.count > 1) { return nil }
        var properties: [ArchivedProperty] = []
        let bindings = Array(variable.bindings)
        for (index, binding) in bindings.enumerated() {
            if let accessors = binding.accessorBlock {
                // Observers (willSet, didSet) leave the property stored; anything else computes it.
                guard case .accessors(let list) = accessors.accessors,
                    list.allSatisfy({ ["willSet", "didSet"].contains($0.accessorSpecifier.text) })
                else { continue }
            }
            guard let pattern = binding.pattern.as(IdentifierPatternSyntax.self) else {
                diagnostics.append(ArchivableDiagnostic.multipleBindings.diagnose(at: binding.pattern))
                return nil
            }
            let name = pattern.identifier.text
            // In `var a, b: Int`, `a` takes the type of `b`.
            let type =
                binding.typeAnnotation?.type
                ?? (binding.initializer == nil
                    ? bindings[index...].lazy.compactMap { $0.typeAnnotation?.type }.first : nil)
            let initializer = binding.initializer?.value
            var property = ArchivedProperty(
                name: name,
                type: type?.trimmedDescription,
                wrappedType: type.flatMap(Self.wrappedType),
                initialValue: initializer?.trimmedDescription,
                isLet: variable.bindingSpecifier.tokenKind == .keyword(.let),
                isLazy: modifiers.contains("lazy"),
                keys: [CodingKeyNames.bare(name)],
                isIgnored: attributes.ignored != nil,
                isFallback: attributes.fallback != nil,
                isUnknownFields: Self.isUnknownFields(type: type, initializer: initializer)
            )
            property.hasOtherAttributes = attributes.hasOthers
            property.wrapperType = attributes.wrapper?.attributeName.trimmedDescription
            if let key = attributes.key {
                if let keys = ArchiveAttributes.keys(of: key, diagnostics: &diagnostics) { property.keys = keys }
            }
            property.check(variable, attributes: attributes, diagnostics: &diagnostics)
            properties.append(property)
        }
        return diagnostics.hasErrors(after: count) ? nil : properties
    }

    /// Diagnoses the combinations `@Archivable` refuses.
    private func check(_ variable: VariableDeclSyntax, attributes: ArchiveAttributes, diagnostics: inout [Diagnostic]) {
        if attributes.ignored != nil, let fallback = attributes.fallback {
            diagnostics.append(ArchivableDiagnostic.ignoredAndFallback.diagnose(at: fallback))
            return
        }
        if let ignored = attributes.ignored, !self.hasInitialValue {
            diagnostics.append(ArchivableDiagnostic.needsInitialValue("ArchiveIgnored").diagnose(at: ignored))
        }
        if let fallback = attributes.fallback, !self.hasInitialValue {
            diagnostics.append(ArchivableDiagnostic.needsInitialValue("ArchiveFallback").diagnose(at: fallback))
        }
        if self.isIgnored { return }
        if self.isLazy {
            diagnostics.append(ArchivableDiagnostic.lazyProperty.diagnose(at: variable.bindingSpecifier))
            return
        }
        if let ownership = variable.modifiers.first(where: { ["weak", "unowned"].contains($0.name.text) }) {
            // A decoded object only a weak reference holds is gone at once; an unowned one crashes.
            let fixIts = ownership.name.text == "weak" ? [Self.addIgnored(to: variable)] : []
            diagnostics.append(
                ArchivableDiagnostic.referenceOwnership(ownership.name.text).diagnose(at: ownership, fixIts: fixIts)
            )
            return
        }
        if self.isUnknownFields {
            if self.isLet || self.initialValue == nil {
                diagnostics.append(ArchivableDiagnostic.unknownFieldsNeedsVar.diagnose(at: variable.bindingSpecifier))
            }
            return
        }
        if self.isLetWithInitialValue {
            let specifier = variable.bindingSpecifier
            let toVar = FixIt(
                message: ArchivableFixIt.replaceLetWithVar,
                changes: [
                    .replace(oldNode: Syntax(specifier), newNode: Syntax(specifier.with(\.tokenKind, .keyword(.var))))
                ]
            )
            diagnostics.append(
                ArchivableDiagnostic.letWithInitialValue.diagnose(
                    at: specifier,
                    fixIts: [toVar, Self.addIgnored(to: variable)]
                )
            )
        }
    }

    /// The fix-it that marks `variable` `@ArchiveIgnored`, placed after its indentation.
    private static func addIgnored(to variable: VariableDeclSyntax) -> FixIt {
        let attribute = AttributeSyntax(
            attributeName: IdentifierTypeSyntax(name: .identifier("ArchiveIgnored")),
            trailingTrivia: .space
        )
        let marked =
            variable
            .with(\.leadingTrivia, [])
            .with(\.attributes, variable.attributes + [.attribute(attribute)])
            .with(\.leadingTrivia, variable.leadingTrivia)
        return FixIt(
            message: ArchivableFixIt.addArchiveIgnored,
            changes: [.replace(oldNode: Syntax(variable), newNode: Syntax(marked))]
        )
    }

    /// The wrapped type of an optional type (`T?`, `T!`, `Optional<T>`, `Swift.Optional<T>`).
    static func wrappedType(_ type: TypeSyntax) -> String? {
        if let optional = type.as(OptionalTypeSyntax.self) { return optional.wrappedType.trimmedDescription }
        if let optional = type.as(ImplicitlyUnwrappedOptionalTypeSyntax.self) {
            return optional.wrappedType.trimmedDescription
        }
        let generic: GenericArgumentClauseSyntax?
        if let identifier = type.as(IdentifierTypeSyntax.self), identifier.name.text == "Optional" {
            generic = identifier.genericArgumentClause
        } else if let member = type.as(MemberTypeSyntax.self), member.name.text == "Optional",
            member.baseType.trimmedDescription == "Swift"
        {
            generic = member.genericArgumentClause
        } else {
            generic = nil
        }
        guard let arguments = generic?.arguments, arguments.count == 1, let argument = arguments.first else {
            return nil
        }
        return argument.argument.trimmedDescription
    }

    /// Whether a property with this annotation and initializer holds `ArchiveUnknownFields`.
    static func isUnknownFields(type: TypeSyntax?, initializer: ExprSyntax?) -> Bool {
        let names: Set<String> = ["ArchiveUnknownFields", "KeyedArchiving.ArchiveUnknownFields"]
        if let type { return names.contains(type.trimmedDescription) }
        guard let call = initializer?.as(FunctionCallExprSyntax.self), call.arguments.isEmpty,
            call.trailingClosure == nil
        else { return false }
        return names.contains(call.calledExpression.trimmedDescription)
    }
}
