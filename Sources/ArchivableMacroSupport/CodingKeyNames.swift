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

/// The cases of a generated `CodingKeys` enum: one per property (or enum case), then one per
/// former key, then the version key.
struct CodingKeyNames: Equatable {
    /// A case of the keys enum.
    struct Case: Equatable {
        /// The case name, as written in source (backticks kept).
        var name: String
        /// The key string.
        var rawValue: String
    }

    /// Every case, in the order written.
    private(set) var cases: [Case] = []
    /// For each entry, the names of its cases: the current key's first.
    private(set) var entryCaseNames: [[String]] = []
    /// The name of the version key's case, if there is one.
    private(set) var versionCaseName: String?

    /// Names the cases of entries named `names` (as written) stored under `keys` (current key
    /// first), then of `versionKey`.
    init(names: [String], keys: [[String]], versionKey: String?) {
        var used = Set(names.map(Self.bare))
        self.entryCaseNames = names.map { [$0] }
        for (index, name) in names.enumerated() {
            self.cases.append(Case(name: name, rawValue: keys[index].first ?? Self.bare(name)))
        }
        for (index, name) in names.enumerated() {
            for (position, former) in keys[index].dropFirst().enumerated() {
                let caseName = Self.unique("\(Self.bare(name))_\(position + 1)", in: &used)
                self.cases.append(Case(name: caseName, rawValue: former))
                self.entryCaseNames[index].append(caseName)
            }
        }
        if let versionKey {
            let caseName = Self.unique("_archiveVersion", in: &used)
            self.cases.append(Case(name: caseName, rawValue: versionKey))
            self.versionCaseName = caseName
        }
    }

    /// `name` with underscores appended until it is not in `used`; then adds it to `used`.
    static func unique(_ name: String, in used: inout Set<String>) -> String {
        var name = name
        while used.contains(name) { name += "_" }
        used.insert(name)
        return name
    }

    /// `name` without backticks.
    static func bare(_ name: String) -> String {
        name.hasPrefix("`") && name.hasSuffix("`") && name.count >= 2 ? String(name.dropFirst().dropLast()) : name
    }

    /// The declaration of the keys enum named `typeName`, `private` unless `access` says otherwise;
    /// `String` raw values only when it has cases.
    func declaration(named typeName: String, access: String = "private ") -> String {
        guard !self.cases.isEmpty else { return "\(access)enum \(typeName): Swift.CodingKey {}" }
        return "\(access)enum \(typeName): Swift.String, Swift.CodingKey {\n" + self.caseLines() + "\n}"
    }

    /// The cases' declarations, one a line, indented: a raw value where the key is not the name.
    private func caseLines() -> String {
        self.cases.map { item in
            item.rawValue == Self.bare(item.name)
                ? "    case \(item.name)" : "    case \(item.name) = \(Self.literal(item.rawValue))"
        }
        .joined(separator: "\n")
    }

    /// The declaration of a struct's or class's `CodingKeys`, whose cases are its fields: each
    /// index of its `ArchiveObjectKeys` maps to a case (the version key at 0, then the others in
    /// the order of ``cases``).
    func fieldKeysDeclaration() -> String {
        let version = self.versionCaseName ?? self.cases.last?.name ?? ""
        var switchLines = ["    init(archiveField index: Swift.Int) {", "        switch index {"]
        for (index, item) in self.cases.enumerated() where item.name != version {
            switchLines.append("        case \(index + 1): self = .\(item.name)")
        }
        switchLines += ["        default: self = .\(version)", "        }", "    }"]
        return "private enum CodingKeys: Swift.String, KeyedArchiving.ArchiveFieldCodingKey {\n"
            + self.caseLines() + "\n\n" + switchLines.joined(separator: "\n") + "\n}"
    }

    /// `text` as a Swift string literal.
    static func literal(_ text: String) -> String {
        var result = "\""
        for character in text.unicodeScalars {
            switch character {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            default: result.unicodeScalars.append(character)
            }
        }
        return result + "\""
    }
}

/// The attributes of this package that a declaration carries.
struct ArchiveAttributes {
    /// `@ArchiveKey`, if present.
    var key: AttributeSyntax?
    /// `@ArchiveIgnored`, if present.
    var ignored: AttributeSyntax?
    /// `@ArchiveFallback`, if present.
    var fallback: AttributeSyntax?
    /// `@ArchiveUnknownCase`, if present.
    var unknownCase: AttributeSyntax?
    /// `@ArchiveUnwrapped`, if present: no attribute is taken for a property wrapper.
    var unwrapped: AttributeSyntax?
    /// Whether another attribute is present, which may be a property wrapper: its storage and
    /// accessors then take the isolation of the wrapper type.
    var hasOthers = false
    /// The first attribute taken for a property wrapper (``isWrapperName(_:)``), unless the
    /// declaration is `@ArchiveUnwrapped`.
    var wrapper: AttributeSyntax?

    /// The attributes a stored property can carry that are not property wrappers: the
    /// compiler's own with a capitalized name (those in lower case never are) and the
    /// attached macros of Apple's frameworks that a model's property carries.
    static let notWrappers: Set<String> = [
        "NSCopying", "NSManaged", "IBOutlet", "IBInspectable", "GKInspectable", "LLDBDebuggerFunction",
        "ObservationIgnored", "ObservationTracked", "Transient", "Attribute", "Relationship",
    ]

    /// Whether an attribute's name reads as a global actor's (`MainActor`, or any name ending
    /// in `Actor`), which isolates a property rather than wrapping it.
    static func isGlobalActorName(_ name: String) -> Bool { name.hasSuffix("Actor") }

    /// Whether an attribute named `name` (unqualified) is taken for a property wrapper: a name
    /// that starts with a capital letter, as types' names do and the compiler's own attributes
    /// but the ``notWrappers`` do not.
    static func isWrapperName(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, first.properties.isUppercase else { return false }
        return !Self.notWrappers.contains(name) && !Self.isGlobalActorName(name)
    }

    /// The package's attributes in `attributes`; a repeated one is diagnosed.
    init(_ attributes: AttributeListSyntax, diagnostics: inout [Diagnostic]) {
        for element in attributes {
            guard case .attribute(let attribute) = element else { continue }
            let name = Self.name(of: attribute)
            let slot: WritableKeyPath<Self, AttributeSyntax?>
            switch name {
            case "ArchiveKey": slot = \.key
            case "ArchiveIgnored": slot = \.ignored
            case "ArchiveFallback": slot = \.fallback
            case "ArchiveUnknownCase": slot = \.unknownCase
            case "ArchiveUnwrapped": slot = \.unwrapped
            default:
                self.hasOthers = true
                if self.wrapper == nil && Self.isWrapperName(name) { self.wrapper = attribute }
                continue
            }
            if self[keyPath: slot] != nil {
                diagnostics.append(ArchivableDiagnostic.repeatedAttribute(name).diagnose(at: attribute))
            } else {
                self[keyPath: slot] = attribute
            }
        }
        if self.unwrapped != nil { self.wrapper = nil }
    }

    /// The unqualified name of `attribute`, such as `ArchiveKey` for `@KeyedArchivingMacros.ArchiveKey`.
    static func name(of attribute: AttributeSyntax) -> String {
        let name = attribute.attributeName.trimmedDescription
        return name.split(separator: ".").last.map(String.init) ?? name
    }

    /// The names `@ArchiveKey` gives, current first; `nil` after diagnosing a malformed one.
    static func keys(of attribute: AttributeSyntax, diagnostics: inout [Diagnostic]) -> [String]? {
        guard case .argumentList(let arguments) = attribute.arguments, !arguments.isEmpty else {
            diagnostics.append(ArchivableDiagnostic.stringLiteralRequired("@ArchiveKey").diagnose(at: attribute))
            return nil
        }
        var keys: [String] = []
        var failed = false
        for argument in arguments {
            guard let key = stringLiteral(argument.expression) else {
                diagnostics.append(
                    ArchivableDiagnostic.stringLiteralRequired("@ArchiveKey").diagnose(at: argument.expression)
                )
                failed = true
                continue
            }
            if key.isEmpty {
                diagnostics.append(ArchivableDiagnostic.emptyKey.diagnose(at: argument.expression))
                failed = true
            } else if keys.contains(key) {
                let remaining = arguments.filter { $0.id != argument.id }
                var list = LabeledExprListSyntax(
                    remaining.enumerated().map { index, element in
                        element.with(
                            \.trailingComma,
                            index == remaining.count - 1 ? nil : .commaToken(trailingTrivia: .space)
                        )
                    }
                )
                list = list.with(\.leadingTrivia, arguments.leadingTrivia)
                let fixIt = FixIt(
                    message: ArchivableFixIt.removeRepeatedKey(key),
                    changes: [.replace(oldNode: Syntax(arguments), newNode: Syntax(list))]
                )
                diagnostics.append(
                    ArchivableDiagnostic.repeatedKey(key).diagnose(at: argument.expression, fixIts: [fixIt])
                )
                failed = true
            }
            keys.append(key)
        }
        return failed ? nil : keys
    }
}

/// The value of a string literal without interpolation, escapes resolved (`"a\\"b"` is `a"b`), or
/// `nil` for any other expression.
func stringLiteral(_ expression: ExprSyntax) -> String? {
    expression.as(StringLiteralExprSyntax.self)?.representedLiteralValue
}
