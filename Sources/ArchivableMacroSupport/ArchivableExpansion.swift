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
    /// Whether the Codable members of a final class's `init(from:)` go in the class body.
    var isClass: Bool { self.kind == .finalClass }

    /// The `where` clause of the Codable extension of a generic type, with a leading space, or empty.
    func whereClause(_ protocolName: String) -> String {
        guard !self.genericParameters.isEmpty else { return "" }
        return " where " + self.genericParameters.map { "\($0): \(protocolName)" }.joined(separator: ", ")
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
            return [self.keyNames.declaration(named: "CodingKeys"), self.initializer(), self.encode()]
        case .finalClass:
            return [self.keyNames.declaration(named: "CodingKeys"), self.encode()]
        }
    }

    /// The members of a final class's body: `init(from:)`, and `init()` when it would be lost.
    func classMembers() -> [String] {
        guard self.isClass else { return [] }
        var members = [self.initializer()]
        if !self.declaresInitializer && self.properties.allSatisfy(\.hasInitialValue) {
            members.append("\(self.access)init() {}")
        }
        return members
    }

    /// The members of the `ArchiveVersioned` extension.
    func versionedMembers() -> [String] {
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

    // MARK: Structs and classes

    /// The key expression of the coded property at `index` among the coded ones.
    private func keyExpression(_ index: Int) -> String {
        let names = self.keyNames.entryCaseNames[index]
        guard names.count > 1 else { return ".\(names[0])" }
        let list = names.map { ".\($0)" }.joined(separator: ", ")
        return "KeyedArchiving.ArchiveEvolution.firstPresentKey(of: [\(list)], in: container)"
    }

    /// `init(from:)` of a struct or final class.
    private func initializer() -> String {
        var lines: [String] = []
        let coded = self.properties.filter(\.isCoded)
        let usesContainer = !coded.isEmpty || self.keyNames.versionCaseName != nil
        lines.append(
            usesContainer
                ? "let container = try decoder.container(keyedBy: CodingKeys.self)"
                : "_ = try decoder.container(keyedBy: CodingKeys.self)"
        )
        if let versionCase = self.keyNames.versionCaseName {
            let binding = self.arguments.previousVersion == nil ? "_" : "let version"
            lines += [
                "\(binding) = try KeyedArchiving.ArchiveEvolution.decodeVersion(",
                "    of: Self.self,",
                "    from: container,",
                "    forKey: .\(versionCase),",
                "    decoder: decoder",
                ")",
            ]
            if self.arguments.previousVersion != nil {
                lines.append("if version < Self.archiveVersion {")
                if self.isClass {
                    lines.append(
                        "    let migrated = try KeyedArchiving.ArchiveEvolution.migrate(Self.self, from: decoder)"
                    )
                    for property in self.properties where !property.isLetWithInitialValue {
                        guard !property.isLazy else { continue }
                        lines.append("    self.\(property.name) = migrated.\(property.name)")
                    }
                } else {
                    lines.append("    self = try KeyedArchiving.ArchiveEvolution.migrate(Self.self, from: decoder)")
                }
                lines += ["    return", "}"]
            }
        }
        for (index, property) in coded.enumerated() where property.isDecoded {
            lines += self.decodeStatements(property, key: self.keyExpression(index))
        }
        if let unknown = self.properties.first(where: { $0.isUnknownFields && !$0.isIgnored }) {
            var keys = self.properties.filter(\.isCoded).flatMap(\.keys)
            if self.keyNames.versionCaseName != nil { keys.append(self.arguments.versionKeyString) }
            let list = keys.map(CodingKeyNames.literal).joined(separator: ", ")
            lines.append(
                "self.\(unknown.name) = try KeyedArchiving.ArchiveUnknownFields(from: decoder, knownKeys: [\(list)])"
            )
        }
        var whereClause = ""
        if self.isClass { whereClause = self.whereClause("Swift.Codable") }
        return Self.function("\(self.access)init(from decoder: any Swift.Decoder) throws\(whereClause)", lines)
    }

    /// The statements decoding `property` under `key`.
    private func decodeStatements(_ property: ArchivedProperty, key: String) -> [String] {
        let statement: String
        switch property.rule {
        // The type is inferred, never spelled: the extension of a nested type cannot always resolve
        // the names its declaration uses.
        case .required:
            statement =
                "self.\(property.name) = try KeyedArchiving.ArchiveEvolution.decode(from: container, forKey: \(key))"
        case .optional:
            statement =
                "self.\(property.name) = try KeyedArchiving.ArchiveEvolution.decodeIfPresent(from: container, forKey: \(key))"
        case .defaulted:
            statement =
                "try KeyedArchiving.ArchiveEvolution.decodeIfPresent(into: &self.\(property.name), from: container, forKey: \(key))"
        case .optionalDefaulted:
            statement =
                "try KeyedArchiving.ArchiveEvolution.decodeOptional(into: &self.\(property.name), from: container, forKey: \(key))"
        }
        guard property.isFallback else { return [statement] }
        let caseName = property.name
        return [
            "do {",
            "    \(statement)",
            "} catch {",
            "    try KeyedArchiving.ArchiveEvolution.recordFallback(",
            "        from: error,",
            "        decoding: Self.self,",
            "        key: \(CodingKeyNames.literal(property.keys[0])),",
            "        codingPath: container.codingPath + [CodingKeys.\(caseName)],",
            "        decoder: decoder",
            "    )",
            "}",
        ]
    }

    /// `encode(to:)` of a struct or final class.
    private func encode() -> String {
        var lines: [String] = []
        let coded = self.properties.filter(\.isCoded)
        let writesVersion = self.arguments.version != self.arguments.unversionedVersion
        if coded.isEmpty && !writesVersion {
            lines.append("_ = encoder.container(keyedBy: CodingKeys.self)")
        } else {
            lines.append("var container = encoder.container(keyedBy: CodingKeys.self)")
        }
        if writesVersion, let versionCase = self.keyNames.versionCaseName {
            lines.append(
                "try KeyedArchiving.ArchiveEvolution.encodeVersion(of: Self.self, to: &container, forKey: .\(versionCase))"
            )
        }
        for (index, property) in coded.enumerated() {
            let key = ".\(self.keyNames.entryCaseNames[index][0])"
            switch property.rule {
            case .required:
                // Through a helper whose overloads see an optional however it is spelled.
                lines.append(
                    "try KeyedArchiving.ArchiveEvolution.encode(self.\(property.name), to: &container, forKey: \(key))"
                )
            case .defaulted:
                lines.append("try container.encode(self.\(property.name), forKey: \(key))")
            case .optional:
                lines.append("try container.encodeIfPresent(self.\(property.name), forKey: \(key))")
            case .optionalDefaulted:
                lines.append(
                    "try KeyedArchiving.ArchiveEvolution.encodeOptional(self.\(property.name), to: &container, forKey: \(key))"
                )
            }
        }
        if let unknown = self.properties.first(where: { $0.isUnknownFields && !$0.isIgnored }) {
            lines.append("try self.\(unknown.name).encode(to: encoder)")
        }
        return Self.function("\(self.access)func encode(to encoder: any Swift.Encoder) throws", lines)
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
