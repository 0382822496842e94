//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-keyed-archive open source project
//
// Licensed under Apache License v2.0
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// The one body `@Archivable` generates for a struct or final class, as source text: a writer of
/// its fields and an initializer from them, generic over `ArchiveFieldWriter` and
/// `ArchiveFieldReader`, each field by the index of its key in ``objectKeyNames``. Every
/// conformance calls them: `encode(to:)` and `init(from:)` through a keyed container, the direct
/// conformances with the archive's object. Enums with `String` raw values get
/// `ArchiveRawValueCodable`.
extension ArchivableType {
    /// Whether the type gets the direct conformances.
    var hasDirectConformances: Bool {
        switch self.kind {
        case .structure, .finalClass, .classInHierarchy(superclass: .none), .classInHierarchy(superclass: .nsObject):
            return true
        case .enumeration, .classInHierarchy(superclass: .codable):
            return false
        }
    }

    /// The object's keys, in the order written: the version key (index 0), each coded property's
    /// current key, then the former keys.
    var objectKeyNames: [String] {
        let coded = self.properties.filter(\.isCoded)
        return [self.arguments.versionKeyString] + coded.map { $0.keys[0] } + coded.flatMap { $0.keys.dropFirst() }
    }

    /// For each coded property, the indices of its keys in ``objectKeyNames``: current first.
    private var objectKeyIndices: [[Int]] {
        let coded = self.properties.filter(\.isCoded)
        var next = 1 + coded.count
        return coded.enumerated().map { index, property in
            let former = Array(next..<(next + property.keys.count - 1))
            next += property.keys.count - 1
            return [1 + index] + former
        }
    }

    /// The `where` clause of a generic final class's initializers, with a leading space, or empty.
    private var classWhereClause: String { self.isFinalClass ? self.whereClause("Swift.Codable") : "" }

    // MARK: The body

    /// `encodeArchiveFields(to:)`: each coded property by its rule, under its current key's index.
    func encodeFields() -> String {
        var lines: [String] = []
        if self.arguments.version != self.arguments.unversionedVersion {
            lines.append("try writer.encodeVersion(of: Self.self, at: 0)")
        }
        let coded = self.properties.filter(\.isCoded)
        for (index, property) in coded.enumerated() {
            let method: String
            // The overloads see an optional however it is spelled (a `typealias`): without an
            // initial value it is left out when `nil`, as synthesized `Codable` does; with one,
            // written as an explicit null.
            switch property.rule {
            case .required: method = "encode"
            case .optional: method = "encodeIfPresent"
            case .defaulted, .optionalDefaulted: method = "encodeDefaulted"
            }
            let write = "try writer.\(method)(self.\(property.name), at: \(index + 1))"
            guard property.isWrapped else {
                lines += Self.conditioned(property, [write])
                continue
            }
            // A `Codable` wrapper writes its storage, as synthesized `Codable` does; any other
            // leaves the wrapped value to be written (`ArchiveFieldWriter.encodeWrapper(_:at:)`).
            lines += Self.conditioned(
                property,
                ["if try !writer.encodeWrapper(self.\(property.storageName), at: \(index + 1)) {", "    \(write)", "}"]
            )
        }
        if let unknown = self.properties.first(where: { $0.isUnknownFields && !$0.isIgnored }) {
            lines.append("try writer.encodeUnknownFields(self.\(unknown.name))")
        }
        return Self.function(
            "private func encodeArchiveFields<Writer: KeyedArchiving.ArchiveFieldWriter & ~Copyable>(to writer: inout Writer) throws",
            lines
        )
    }

    /// `init(archiveFields:)`: the version, a migration from an older one, then each decoded
    /// property by its rule, from the first of its keys present, and the kept unknown fields.
    func fieldsInitializer() -> String {
        var lines: [String] = []
        if self.arguments.previousVersion != nil {
            lines += [
                "let version = try reader.decodeVersion(of: Self.self, at: 0)",
                "if version < Self.archiveVersion {",
            ]
            if self.isFinalClass {
                lines.append("    let migrated = try reader.migrate(Self.self)")
                for property in self.properties where !property.isLetWithInitialValue {
                    guard !property.isLazy else { continue }
                    lines += Self.conditioned(property, ["self.\(property.name) = migrated.\(property.name)"])
                        .map { "    \($0)" }
                }
            } else {
                lines.append("    self = try reader.migrate(Self.self)")
            }
            // The fields a newer version stored survive the migration too.
            if let unknown = self.properties.first(where: { $0.isUnknownFields && !$0.isIgnored }) {
                lines += self.unknownFieldsStatements(unknown, afterMigration: true).map { "    \($0)" }
            }
            lines += ["    return", "}"]
        } else {
            lines.append("_ = try reader.decodeVersion(of: Self.self, at: 0)")
        }
        lines += self.propertyStatements()
        if let unknown = self.properties.first(where: { $0.isUnknownFields && !$0.isIgnored }) {
            lines += self.unknownFieldsStatements(unknown)
        }
        return Self.function(
            "private init<Reader: KeyedArchiving.ArchiveFieldReader & ~Copyable>(archiveFields reader: inout Reader) throws\(self.classWhereClause)",
            lines
        )
    }

    /// The statements of ``fieldsInitializer()`` that read each decoded property from `reader`.
    func propertyStatements() -> [String] {
        var lines: [String] = []
        let coded = self.properties.filter(\.isCoded)
        for (property, indices) in zip(coded, self.objectKeyIndices) where property.isDecoded {
            let key =
                indices.count == 1
                ? "\(indices[0])" : "reader.firstPresent(\(indices.map(String.init).joined(separator: ", ")))"
            // A wrapped property with an initial value is read into its storage's wrapped value,
            // which is initialized already: the property itself, computed, could not be passed
            // `inout` before every other stored property is initialized.
            let target = property.isWrapped ? "self.\(property.storageName).wrappedValue" : "self.\(property.name)"
            // The type is inferred, never spelled: an extension of a nested type cannot always
            // resolve the names its declaration uses.
            let statement: String
            switch property.rule {
            case .required: statement = "self.\(property.name) = try reader.decode(at: \(key))"
            case .optional: statement = "self.\(property.name) = try reader.decodeIfPresent(at: \(key))"
            case .defaulted: statement = "try reader.decodeIfPresent(into: &\(target), at: \(key))"
            case .optionalDefaulted: statement = "try reader.decodeOptional(into: &\(target), at: \(key))"
            }
            var statements = [statement]
            if property.isWrapped {
                // A `Codable` wrapper reads its storage, as synthesized `Codable` does, unless the
                // key holds the wrapped value (`ArchiveFieldReader.decodeWrapper(at:of:)`).
                let root = self.isClassInHierarchy ? self.name : "Self"
                statements = [
                    "if let wrapper = try reader.decodeWrapper(at: \(key), of: { (value: \(root)) in value.\(property.storageName) }) {",
                    "    self.\(property.storageName) = wrapper",
                    "} else {",
                    "    \(statement)",
                    "}",
                ]
            }
            guard property.isFallback else {
                lines += Self.conditioned(property, statements)
                continue
            }
            let recorded = [
                "} catch {",
                "    try reader.recordFallback(error, decoding: Self.self, at: \(indices[0]))",
                "}",
            ]
            lines += Self.conditioned(property, ["do {"] + statements.map { "    \($0)" } + recorded)
        }
        return lines
    }

    /// The statements that read the kept unknown fields: every key but the type's own, those of a
    /// property under `#if` only where it is declared (elsewhere its value is kept as unknown);
    /// `afterMigration`, also none of its previous versions' keys, after the fields the migration
    /// kept.
    private func unknownFieldsStatements(_ unknown: ArchivedProperty, afterMigration: Bool = false) -> [String] {
        let coded = self.properties.filter(\.isCoded)
        var keys = coded.filter { $0.condition == nil }.flatMap(\.keys)
        keys.append(self.arguments.versionKeyString)
        let list = keys.map(CodingKeyNames.literal).joined(separator: ", ")
        let read =
            afterMigration
            ? "self.\(unknown.name) = try KeyedArchiving.ArchiveUnknownFields(migrated: self.\(unknown.name), "
                + "from: reader.decoder, knownKeys: "
            : "self.\(unknown.name) = try KeyedArchiving.ArchiveUnknownFields(from: reader.decoder, knownKeys: "
        let end = afterMigration ? ", of: Self.self)" : ")"
        let conditional = coded.filter { $0.condition != nil }
        guard !conditional.isEmpty else { return [read + "[\(list)]" + end] }
        var lines = ["var knownKeys: Swift.Set<Swift.String> = [\(list)]"]
        for property in conditional {
            lines += Self.conditioned(property, property.keys.map { "knownKeys.insert(\(CodingKeyNames.literal($0)))" })
        }
        return lines + [read + "knownKeys" + end]
    }

    /// `lines` under the compilation condition of `property`, if it has one.
    static func conditioned(_ property: ArchivedProperty, _ lines: [String]) -> [String] {
        guard let condition = property.condition else { return lines }
        return ["#if \(condition)"] + lines + ["#endif"]
    }

    // MARK: The conformances that call it

    /// `init(from:)`: the body, reading through the decoder's keyed container: in the frame of
    /// `read(from:_:)`, which gives the value to assign to `self`; a class, which cannot assign
    /// `self`, and a struct with a `let` that has an initial value, which cannot assign it again,
    /// with a reader that owns the container.
    func decodableInitializer() -> String {
        let lines =
            self.isFinalClass || self.properties.contains(where: \.isLetWithInitialValue)
            ? [
                "var reader = try KeyedArchiving.ArchiveContainerFieldReader<CodingKeys>(decoder)",
                "try self.init(archiveFields: &reader)",
            ]
            : [
                "self = try KeyedArchiving.ArchiveContainerFieldReader<CodingKeys>.read(from: decoder) {",
                "    try Self(archiveFields: &$0)",
                "}",
            ]
        return Self.function(
            "\(self.access)\(self.isFinalClass ? "convenience " : "")init(from decoder: any Swift.Decoder) throws\(self.classWhereClause)",
            lines
        )
    }

    /// `encode(to:)`: the body, writing to the encoder's keyed container.
    func encodableFunction() -> String {
        Self.function(
            "\(self.access)func encode(to encoder: any Swift.Encoder) throws",
            [
                "try KeyedArchiving.ArchiveContainerFieldWriter<CodingKeys>.write(to: encoder) {",
                "    try self.encodeArchiveFields(to: &$0)",
                "}",
            ]
        )
    }

    /// The members of the direct extension: the keys, `encodeArchiveObject(to:)` when encoding is
    /// requested, and a struct's `init(archiveObject:)` when decoding is.
    func directMembers(encodable: Bool, decodable: Bool) -> [String] {
        let names = self.objectKeyNames.map(CodingKeyNames.literal).joined(separator: ", ")
        var members = [
            Self.function(
                "\(self.access)static var archiveObjectKeys: KeyedArchiving.ArchiveObjectKeys",
                ["KeyedArchiving.ArchiveObjectKeys([\(names)])"]
            )
        ]
        if encodable {
            members.append(
                Self.function(
                    "\(self.access)func encodeArchiveObject(to writer: inout KeyedArchiving.ArchiveObjectWriter) throws",
                    ["try self.encodeArchiveFields(to: &writer)"]
                )
            )
        }
        if decodable && self.kind == .structure { members.append(self.archiveObjectInitializer()) }
        return members
    }

    /// A final class's `init(archiveObject:)`, which must live in its body.
    func directClassMembers() -> [String] {
        guard self.isFinalClass else { return [] }
        return [self.archiveObjectInitializer()]
    }

    /// `init(archiveObject:)`: the body, reading the archive's object.
    private func archiveObjectInitializer() -> String {
        Self.function(
            "\(self.access)\(self.isFinalClass ? "convenience " : "")init(archiveObject reader: inout KeyedArchiving.ArchiveObjectReader) throws\(self.classWhereClause)",
            ["try self.init(archiveFields: &reader)"]
        )
    }

    // MARK: Enums with String raw values

    /// Whether the type is an enum with `String` raw values, which gets `ArchiveRawValueCodable`.
    var hasRawStringValues: Bool {
        guard case .enumeration(rawType: let rawType?) = self.kind else { return false }
        return rawType == "String" || rawType == "Swift.String"
    }

    /// The member of the `ArchiveRawValueCodable` extension: what `init(from:)` makes of a stored
    /// string.
    func rawValueMembers() -> [String] {
        var lines = ["if let value = Self(rawValue: rawValue) {", "    self = value", "    return", "}"]
        if let unknown = self.cases.first(where: \.isUnknown) {
            lines += [
                "KeyedArchiving.ArchiveEvolution.recordUnknownCase(rawValue, decoding: Self.self, decoder: decoder())",
                "self = .\(unknown.name)",
            ]
        } else {
            lines += [
                "throw Swift.DecodingError.dataCorrupted(",
                "    Swift.DecodingError.Context(",
                "        codingPath: decoder().codingPath,",
                "        debugDescription: \"Cannot initialize \\(Self.self) from invalid \\(RawValue.self) value \\(rawValue)\"",
                "    )",
                ")",
            ]
        }
        return [
            Self.function(
                "\(self.access)init(archiveRawValue rawValue: Swift.String, decoder: @autoclosure () -> any Swift.Decoder) throws",
                lines
            )
        ]
    }
}
