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

/// An error `@Archivable` or one of its attributes reports instead of expanding, or a warning it
/// reports beside its expansion.
struct ArchivableDiagnostic: DiagnosticMessage, Error {
    /// The text shown to the user.
    let message: String
    /// A stable identifier of the kind of diagnostic.
    let id: String
    /// An error (no expansion) or a warning.
    var severity: DiagnosticSeverity = .error

    /// The identifier, in the domain of this package's macros.
    var diagnosticID: MessageID { MessageID(domain: "KeyedArchivingMacros", id: self.id) }

    /// The diagnostic at `node`, with `fixIts`.
    func diagnose(at node: some SyntaxProtocol, fixIts: [FixIt] = []) -> Diagnostic {
        Diagnostic(node: Syntax(node), message: self, fixIts: fixIts)
    }

    /// `@Archivable` on a declaration it cannot expand on.
    static func unsupportedDeclaration(_ kind: String) -> Self {
        Self(message: "'@Archivable' applies to structs, classes and enums, not to \(kind)", id: "unsupported")
    }

    /// `@Archivable` on a class that is not final.
    static let nonFinalClass = Self(
        message: "'@Archivable' applies to final classes; a class that may be subclassed takes '@ArchivableClass' "
            + "(Swift cannot subclass a class whose macro declares conformances it does not add)",
        id: "nonFinalClass"
    )

    /// `@ArchivableClass` on a declaration that is not a class.
    static let classMacroOnNonClass = Self(
        message: "'@ArchivableClass' applies to classes; use '@Archivable'",
        id: "classMacroOnNonClass"
    )

    /// An argument that a class in a hierarchy (not final, or with a superclass) cannot take yet.
    static func unsupportedInHierarchy(_ argument: String) -> Self {
        Self(
            message: "'\(argument)' is not supported on a class that is not final or has a superclass; its objects are "
                + "archived under its Swift name, with its superclasses' names in '$classes'",
            id: "unsupportedInHierarchy"
        )
    }

    /// A version argument on a subclass.
    static let versionOnSubclass = Self(
        message: "a class hierarchy is versioned by its root class; remove the version from this subclass",
        id: "versionOnSubclass"
    )

    /// The `ArchiveUnknownFields` property in a class hierarchy.
    static let unknownFieldsInHierarchy = Self(
        message: "'ArchiveUnknownFields' cannot keep the fields of a class that is not final or has a superclass: "
            + "the keys of its superclasses and subclasses would be kept twice; mark it '@ArchiveIgnored' or remove it",
        id: "unknownFieldsInHierarchy"
    )

    /// A generic class in a hierarchy.
    static let genericHierarchy = Self(
        message: "'@Archivable' does not support generic classes that are not final or have a superclass; "
            + "make the class final, or write its 'Codable' conformance by hand",
        id: "genericHierarchy"
    )

    /// The type implements part of `Codable` itself.
    static func ownMember(_ name: String) -> Self {
        Self(message: "'@Archivable' generates '\(name)'; remove this declaration", id: "ownMember")
    }

    /// An attribute that needs an initial value on a property without one.
    static func needsInitialValue(_ attribute: String) -> Self {
        Self(message: "'@\(attribute)' needs a property with an initial value", id: "needsInitialValue")
    }

    /// `@ArchiveIgnored` and `@ArchiveFallback` on one property.
    static let ignoredAndFallback = Self(
        message: "'@ArchiveIgnored' and '@ArchiveFallback' cannot both apply to one property",
        id: "ignoredAndFallback"
    )

    /// An attribute argument that must be a string literal.
    static func stringLiteralRequired(_ argument: String) -> Self {
        Self(message: "'\(argument)' must be a string literal", id: "stringLiteralRequired")
    }

    /// An argument that must be an integer literal.
    static func integerLiteralRequired(_ argument: String) -> Self {
        Self(message: "'\(argument)' must be an integer literal", id: "integerLiteralRequired")
    }

    /// `@ArchiveKey("")`.
    static let emptyKey = Self(message: "an archive key cannot be empty", id: "emptyKey")

    /// A name given twice in one `@ArchiveKey`.
    static func repeatedKey(_ key: String) -> Self {
        Self(message: "'\(key)' is already named in this '@ArchiveKey'", id: "repeatedKey")
    }

    /// Several `@ArchiveKey` or other attributes on one declaration.
    static func repeatedAttribute(_ attribute: String) -> Self {
        Self(message: "'@\(attribute)' can appear only once on a declaration", id: "repeatedAttribute")
    }

    /// A `let` with an initial value, which decoding cannot set: archived, and left at its initial
    /// value when decoded, as synthesized `Codable` does (which warns alike).
    static let letWithInitialValue = Self(
        message:
            "a 'let' with an initial value is archived but not decoded: decoding keeps its initial value; "
            + "make it a 'var' to decode it, or mark it '@ArchiveIgnored' not to archive it",
        id: "letWithInitialValue",
        severity: .warning
    )

    /// A `lazy var` that is archived.
    static let lazyProperty = Self(
        message: "a 'lazy' property cannot be archived; mark it '@ArchiveIgnored'",
        id: "lazyProperty"
    )

    /// A `weak` or `unowned` property that is archived.
    static func referenceOwnership(_ keyword: String) -> Self {
        let reason = "a decoded object that only it referenced would be gone at once"
        let advice =
            keyword == "weak"
            ? "mark it '@ArchiveIgnored' and set it again after decoding"
            : "make it an '@ArchiveIgnored weak var' and set it again after decoding"
        return Self(
            message: "a '\(keyword)' property cannot be archived: \(reason); \(advice)",
            id: "referenceOwnership"
        )
    }

    /// A declaration with several bindings.
    static let multipleBindings = Self(
        message: "'@Archivable' properties must be declared one per 'var' or 'let'",
        id: "multipleBindings"
    )

    /// Two properties or cases stored under one key.
    static func duplicateKey(_ key: String, usedBy other: String) -> Self {
        Self(message: "the key '\(key)' is already used by '\(other)'", id: "duplicateKey")
    }

    /// A property stored under the version key.
    static func versionKeyConflict(_ key: String) -> Self {
        Self(message: "the key '\(key)' is the type's version key", id: "versionKeyConflict")
    }

    /// More than one `ArchiveUnknownFields` property.
    static let repeatedUnknownFields = Self(
        message: "a type can keep its unknown fields in one 'ArchiveUnknownFields' property only",
        id: "repeatedUnknownFields"
    )

    /// An `ArchiveUnknownFields` property that is not a `var` with an initial value.
    static let unknownFieldsNeedsVar = Self(
        message: "an 'ArchiveUnknownFields' property must be a 'var' with an initial value",
        id: "unknownFieldsNeedsVar"
    )

    /// A name in `codableParameters:` that is not one of the type's generic parameters.
    static func unknownGenericParameter(_ name: String) -> Self {
        Self(
            message: "'\(name)' is not a generic parameter of this type; 'codableParameters' names the parameters "
                + "that must be Codable",
            id: "unknownGenericParameter"
        )
    }

    /// A version argument out of range.
    static func invalidVersion(_ reason: String) -> Self {
        Self(message: reason, id: "invalidVersion")
    }

    /// `previousVersion:` without a `version:` above 1: no archive would ever be migrated.
    static let previousVersionNeedsVersion = Self(
        message: "'previousVersion' needs 'version' of 2 or more: archives are migrated from the previous type "
            + "when they store a version below 'version', and none stores a version below 1",
        id: "previousVersionNeedsVersion"
    )

    /// `previousVersion:` naming the type itself.
    static let previousVersionIsItself = Self(
        message: "'previousVersion' names this type; name the type this version replaces",
        id: "previousVersionIsItself"
    )

    /// An enum case, or the `ArchiveUnknownFields` property, inside `#if`.
    static let memberInsideIfConfig = Self(
        message:
            "'@Archivable' does not archive enum cases or the 'ArchiveUnknownFields' property declared "
            + "inside '#if'; declare it outside the '#if' block",
        id: "memberInsideIfConfig"
    )

    /// A property declared in several `#if` clauses, not the same way in each.
    static func conditionalMemberDiffers(_ name: String) -> Self {
        Self(
            message:
                "'\(name)' is declared in several '#if' clauses with different keys, attributes or "
                + "initial values; declare it the same way in each, so that one set of rules archives it",
            id: "conditionalMemberDiffers"
        )
    }

    /// A version argument on an enum.
    static let versionOnEnum = Self(
        message: "versions apply to structs and classes; an enum is always version 1",
        id: "versionOnEnum"
    )

    /// `formerClassNames:` without `className:`.
    static let formerClassNamesWithoutClassName = Self(
        message: "'formerClassNames' needs 'className'",
        id: "formerClassNamesWithoutClassName"
    )

    /// A misplaced attribute.
    static func misplacedAttribute(_ attribute: String, _ target: String) -> Self {
        Self(message: "'@\(attribute)' applies to \(target) only", id: "misplacedAttribute")
    }

    /// `@ArchiveUnknownCase` on a case with associated values.
    static let unknownCaseWithValues = Self(
        message: "the '@ArchiveUnknownCase' case cannot have associated values",
        id: "unknownCaseWithValues"
    )

    /// A second `@ArchiveUnknownCase`.
    static func repeatedUnknownCase(_ other: String) -> Self {
        Self(message: "'\(other)' is already the '@ArchiveUnknownCase' case", id: "repeatedUnknownCase")
    }

    /// `@ArchiveKey` on a case of an enum with raw values.
    static let keyOnRawValueCase = Self(
        message: "a case of an enum with raw values is stored as its raw value; '@ArchiveKey' does not apply",
        id: "keyOnRawValueCase"
    )
}

/// The text of a fix-it `@Archivable` offers.
struct ArchivableFixIt: FixItMessage {
    /// The text shown to the user.
    let message: String
    /// A stable identifier of the kind of fix-it.
    let id: String

    /// The identifier, in the domain of this package's macros.
    var fixItID: MessageID { MessageID(domain: "KeyedArchivingMacros", id: self.id) }

    /// Insert `final`.
    /// Replace `let` with `var`.
    static let insertFinal = Self(message: "insert 'final'", id: "insertFinal")

    static let useArchivableClass = Self(message: "replace with '@ArchivableClass'", id: "useArchivableClass")

    static let replaceLetWithVar = Self(message: "replace 'let' with 'var'", id: "replaceLetWithVar")
    /// Add `@ArchiveIgnored`.
    static let addArchiveIgnored = Self(message: "add '@ArchiveIgnored'", id: "addArchiveIgnored")
    /// Remove a repeated key.
    static func removeRepeatedKey(_ key: String) -> Self {
        Self(message: "remove the repeated '\(key)'", id: "removeRepeatedKey")
    }
}

extension [Diagnostic] {
    /// Whether an error was added after the first `count` diagnostics (warnings do not stop an
    /// expansion).
    func hasErrors(after count: Int) -> Bool {
        self[count...].contains { $0.diagMessage.severity == .error }
    }
}
