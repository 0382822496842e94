//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-keyed-archive open source project
//
// Licensed under Apache License v2.0
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// The code `@Archivable` generates for an analysed type, as source text.
extension ArchivableType {
    /// Whether the type is a final class without a superclass, whose `init(from:)` goes in its body.
    var isFinalClass: Bool { self.kind == .finalClass }

    /// The `where` clause of the Codable extension of a generic type, with a leading space, or
    /// empty: every parameter of ``conditionedParameters`` conforms to `protocolName`.
    func whereClause(_ protocolName: String) -> String {
        let parameters = self.conditionedParameters
        guard !parameters.isEmpty else { return "" }
        return " where " + parameters.map { "\($0): \(protocolName)" }.joined(separator: ", ")
    }

    /// The generic parameters the conformances are conditioned on: those `codableParameters:`
    /// names; otherwise, as synthesized `Codable` needs them, those that appear in the type of a
    /// stored property it archives (its wrapper's included: `@Marked<Tag> var score: Int`, whose
    /// storage is a `Marked<Tag>`), or of an enum case's value, or, for a property whose type is
    /// not written out, in its initial value. A parameter reached only through a name that hides
    /// it (a type alias, a function's result) is missed, and the generated code does not compile
    /// until `codableParameters:` names it: never a silent loss.
    var conditionedParameters: [String] {
        if let explicit = self.arguments.codableParameters {
            return self.genericParameters.filter(explicit.contains)
        }
        guard !self.genericParameters.isEmpty else { return [] }
        var types: [String] = []
        for property in self.properties where property.isCoded {
            guard let type = property.type ?? property.initialValue else { return self.genericParameters }
            types.append(type)
            if let wrapper = property.wrapperType { types.append(wrapper) }
        }
        types += self.cases.flatMap { $0.values.map(\.type) }
        let names = Set(types.flatMap { Self.identifiers(in: $0).map(String.init) })
        return self.genericParameters.filter { names.contains($0) }
    }

    /// The identifiers in a type's source text (`[Key: Box<T>]` gives `Key`, `Box`, `T`).
    private static func identifiers(in type: String) -> [Substring] {
        type.split { !($0.isLetter || $0.isNumber || $0 == "_") }
    }

    /// The members of the Codable extension.
    func codableMembers() -> [String] {
        switch self.kind {
        case .enumeration(rawType: .some):
            return [self.rawValueInit(), self.rawValueEncode()]
        case .enumeration:
            // Each case's keys nest in `CodingKeys`: the macro can only name its top-level members.
            var keys = self.keyNames.declaration(named: "CodingKeys")
            if !self.cases.isEmpty, keys.hasSuffix("\n}") {
                let nested = self.cases.map { item in
                    let names = CodingKeyNames(
                        names: item.valueKeyNames,
                        keys: item.valueKeyNames.map { [$0] },
                        versionKey: nil
                    )
                    return names.declaration(named: item.keysEnumName, access: "")
                        .split(separator: "\n", omittingEmptySubsequences: false).map { "    \($0)" }
                        .joined(separator: "\n")
                }
                keys = keys.dropLast(2) + "\n\n" + nested.joined(separator: "\n\n") + "\n}"
            }
            return [keys, self.enumInit(), self.enumEncode()]
        case .structure:
            return [
                self.keyNames.fieldKeysDeclaration(), self.decodableInitializer(), self.encodableFunction(),
                self.fieldsInitializer(), self.encodeFields(),
            ]
        case .finalClass:
            return [self.keyNames.fieldKeysDeclaration(), self.encodableFunction(), self.encodeFields()]
        case .classInHierarchy:
            // `encode(to:)` goes in the body, where a subclass overrides it.
            return [self.keyNames.fieldKeysDeclaration(), self.encodeFields()]
        }
    }

    /// The members of a final class's body: `init(from:)`, the body's initializer, and `init()`
    /// when it would be lost.
    func classMembers() -> [String] {
        guard self.isFinalClass else { return [] }
        var members = [self.decodableInitializer(), self.fieldsInitializer()]
        if !self.declaresInitializer && self.properties.allSatisfy(\.hasInitialValue) {
            members.append("\(self.access)init() {}")
        }
        return members
    }

    /// The members of the `ArchiveVersioned` extension; `nil` for a subclass of another class
    /// that already conforms (`requested` is false), which its root class versions.
    func versionedMembers(requested: Bool) -> [String]? {
        guard self.codableSuperclass == nil || requested else { return nil }
        var members = ["\(self.access)static var archiveVersion: Swift.Int { \(self.arguments.version) }"]
        if self.arguments.unversionedVersion != 1 {
            members.append(
                "\(self.access)static var unversionedArchiveVersion: Swift.Int { \(self.arguments.unversionedVersion) }"
            )
        }
        if let key = self.arguments.versionKey {
            members.append(
                "\(self.access)static var archiveVersionKey: Swift.String { \(CodingKeyNames.literal(key)) }"
            )
        }
        return members
    }

    /// The members of the `ArchivedClassNaming` extension, if it has one.
    func classNamingMembers() -> [String]? {
        guard let name = self.arguments.className else { return nil }
        var members = ["\(self.access)static var archivedClassName: Swift.String { \(CodingKeyNames.literal(name)) }"]
        if !self.arguments.formerClassNames.isEmpty {
            let names = ([name] + self.arguments.formerClassNames).map(CodingKeyNames.literal).joined(separator: ", ")
            members.append(
                "\(self.access)static var acceptedArchivedClassNames: Swift.Set<Swift.String> { [\(names)] }"
            )
        }
        return members
    }

    // MARK: Enums

    /// `init(from:)` of an enum with raw values.
    private func rawValueInit() -> String {
        var lines = [
            "let container = try decoder.singleValueContainer()",
            "let rawValue = try container.decode(RawValue.self)",
            "guard let value = Self(rawValue: rawValue) else {",
        ]
        if let unknown = self.cases.first(where: \.isUnknown) {
            lines += [
                "    KeyedArchiving.ArchiveEvolution.recordUnknownCase(\"\\(rawValue)\", decoding: Self.self, decoder: decoder)",
                "    self = .\(unknown.name)",
                "    return",
            ]
        } else {
            lines += [
                "    throw Swift.DecodingError.dataCorrupted(",
                "        Swift.DecodingError.Context(",
                "            codingPath: decoder.codingPath,",
                "            debugDescription: \"Cannot initialize \\(Self.self) from invalid \\(RawValue.self) value \\(rawValue)\"",
                "        )",
                "    )",
            ]
        }
        lines += ["}", "self = value"]
        return Self.function("\(self.access)init(from decoder: any Swift.Decoder) throws", lines)
    }

    /// `encode(to:)` of an enum with raw values.
    private func rawValueEncode() -> String {
        Self.function(
            "\(self.access)func encode(to encoder: any Swift.Encoder) throws",
            ["var container = encoder.singleValueContainer()", "try container.encode(self.rawValue)"]
        )
    }

    /// `init(from:)` of an enum without raw values.
    private func enumInit() -> String {
        var lines = [
            "let container = try decoder.container(keyedBy: CodingKeys.self)",
            "if container.allKeys.count != 1 {",
        ]
        if let unknown = self.cases.first(where: \.isUnknown) {
            lines += [
                "    if container.allKeys.isEmpty {",
                "        KeyedArchiving.ArchiveEvolution.recordUnknownCase(",
                "            KeyedArchiving.ArchiveEvolution.storedCaseNames(in: decoder),",
                "            decoding: Self.self,",
                "            decoder: decoder",
                "        )",
                "        self = .\(unknown.name)",
                "        return",
                "    }",
            ]
        }
        lines += [
            "    throw Swift.DecodingError.typeMismatch(",
            "        Self.self,",
            "        Swift.DecodingError.Context(",
            "            codingPath: container.codingPath,",
            "            debugDescription: \"Invalid number of keys found, expected one.\"",
            "        )",
            "    )",
            "}",
            "switch container.allKeys[0] {",
        ]
        for (index, item) in self.cases.enumerated() {
            let names = self.keyNames.entryCaseNames[index]
            let key = names.count > 1 ? "container.allKeys[0]" : ".\(names[0])"
            lines.append("case \(names.map { ".\($0)" }.joined(separator: ", ")):")
            if item.values.isEmpty {
                lines.append(
                    "    _ = try container.nestedContainer(keyedBy: CodingKeys.\(item.keysEnumName).self, forKey: \(key))"
                )
                lines.append("    self = .\(item.name)")
                continue
            }
            lines.append(
                "    let nested = try container.nestedContainer(keyedBy: CodingKeys.\(item.keysEnumName).self, forKey: \(key))"
            )
            let values = zip(item.values, item.valueKeyNames).map { value, keyName in
                let label = value.label.map { "\($0): " } ?? ""
                let method = value.wrappedType == nil ? "decode" : "decodeIfPresent"
                return "\(label)try KeyedArchiving.ArchiveEvolution.\(method)(from: nested, forKey: .\(keyName))"
            }
            if values.count == 1 {
                lines.append("    self = .\(item.name)(\(values[0]))")
            } else {
                lines.append("    self = .\(item.name)(")
                lines += values.enumerated().map { position, value in
                    "        \(value)\(position == values.count - 1 ? "" : ",")"
                }
                lines.append("    )")
            }
        }
        lines.append("}")
        return Self.function("\(self.access)init(from decoder: any Swift.Decoder) throws", lines)
    }

    /// `encode(to:)` of an enum without raw values.
    private func enumEncode() -> String {
        var lines = ["var container = encoder.container(keyedBy: CodingKeys.self)", "switch self {"]
        for (index, item) in self.cases.enumerated() {
            let key = ".\(self.keyNames.entryCaseNames[index][0])"
            if item.values.isEmpty {
                lines.append("case .\(item.name):")
                lines.append(
                    "    _ = container.nestedContainer(keyedBy: CodingKeys.\(item.keysEnumName).self, forKey: \(key))"
                )
                continue
            }
            let bindings = item.values.indices.map { "value\($0)" }
            lines.append("case let .\(item.name)(\(bindings.joined(separator: ", "))):")
            lines.append(
                "    var nested = container.nestedContainer(keyedBy: CodingKeys.\(item.keysEnumName).self, forKey: \(key))"
            )
            for (position, value) in item.values.enumerated() {
                let method = value.wrappedType == nil ? "encode" : "encodeIfPresent"
                lines.append("    try nested.\(method)(value\(position), forKey: .\(item.valueKeyNames[position]))")
            }
        }
        lines.append("}")
        return Self.function("\(self.access)func encode(to encoder: any Swift.Encoder) throws", lines)
    }

    /// A declaration with a body: `signature`, then `lines` indented in braces.
    static func function(_ signature: String, _ lines: [String]) -> String {
        guard !lines.isEmpty else { return "\(signature) {\n}" }
        return "\(signature) {\n" + lines.map { "    \($0)" }.joined(separator: "\n") + "\n}"
    }
}
