//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-keyed-archive open source project
//
// Licensed under Apache License v2.0
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// The direct conformances `@Archivable` generates, as source text: for structs and final classes
/// `ArchiveObjectEncodable` and `ArchiveObjectDecodable` (the same object and the same evolution
/// rules as the `Codable` members, through `ArchiveObjectWriter` and `ArchiveObjectReader`), for
/// enums with `String` raw values `ArchiveRawValueCodable`.
extension ArchivableType {
    /// Whether the type gets the direct conformances.
    var hasDirectConformances: Bool { self.kind == .structure || self.kind == .finalClass }

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
        if encodable { members.append(self.encodeArchiveObject()) }
        if decodable && !self.isClass { members.append(self.archiveObjectInitializer()) }
        return members
    }

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

    /// A final class's `init(archiveObject:)`, which must live in its body.
    func directClassMembers() -> [String] {
        guard self.isClass else { return [] }
        return [self.archiveObjectInitializer()]
    }

    /// `encodeArchiveObject(to:)`: the calls of `encode(to:)`, each under its key's index.
    private func encodeArchiveObject() -> String {
        var lines: [String] = []
        if self.arguments.version != self.arguments.unversionedVersion {
            lines.append("try writer.encodeVersion(of: Self.self, at: 0)")
        }
        let coded = self.properties.filter(\.isCoded)
        for (index, property) in coded.enumerated() {
            switch property.rule {
            case .required, .defaulted:
                lines.append("try writer.encode(self.\(property.name), at: \(index + 1))")
            case .optional, .optionalDefaulted:
                // `nil` is written as UID 0 either way, as `encodeIfPresent` and `encodeNil` write it.
                lines.append("try writer.encodeIfPresent(self.\(property.name), at: \(index + 1))")
            }
        }
        if let unknown = self.properties.first(where: { $0.isUnknownFields && !$0.isIgnored }) {
            lines.append("try writer.encodeUnknownFields(self.\(unknown.name))")
        }
        return Self.function(
            "\(self.access)func encodeArchiveObject(to writer: inout KeyedArchiving.ArchiveObjectWriter) throws",
            lines
        )
    }

    /// `init(archiveObject:)`: the statements of `init(from:)`, each key by its index.
    private func archiveObjectInitializer() -> String {
        var lines: [String] = []
        if self.arguments.previousVersion != nil {
            lines += [
                "let version = try reader.decodeVersion(of: Self.self, at: 0)",
                "if version < Self.archiveVersion {",
            ]
            if self.isClass {
                lines.append("    let migrated = try reader.migrate(Self.self)")
                for property in self.properties where !property.isLetWithInitialValue {
                    guard !property.isLazy else { continue }
                    lines.append("    self.\(property.name) = migrated.\(property.name)")
                }
            } else {
                lines.append("    self = try reader.migrate(Self.self)")
            }
            lines += ["    return", "}"]
        } else {
            lines.append("_ = try reader.decodeVersion(of: Self.self, at: 0)")
        }
        let coded = self.properties.filter(\.isCoded)
        for (property, indices) in zip(coded, self.objectKeyIndices) where property.isDecoded {
            let key =
                indices.count == 1
                ? "\(indices[0])" : "reader.firstPresent(\(indices.map(String.init).joined(separator: ", ")))"
            let statement: String
            switch property.rule {
            case .required: statement = "self.\(property.name) = try reader.decode(at: \(key))"
            case .optional: statement = "self.\(property.name) = try reader.decodeIfPresent(at: \(key))"
            case .defaulted: statement = "try reader.decodeIfPresent(into: &self.\(property.name), at: \(key))"
            case .optionalDefaulted: statement = "try reader.decodeOptional(into: &self.\(property.name), at: \(key))"
            }
            guard property.isFallback else {
                lines.append(statement)
                continue
            }
            lines += [
                "do {",
                "    \(statement)",
                "} catch {",
                "    try reader.recordFallback(error, decoding: Self.self, at: \(indices[0]))",
                "}",
            ]
        }
        if let unknown = self.properties.first(where: { $0.isUnknownFields && !$0.isIgnored }) {
            var keys = coded.flatMap(\.keys)
            keys.append(self.arguments.versionKeyString)
            let list = keys.map(CodingKeyNames.literal).joined(separator: ", ")
            lines.append(
                "self.\(unknown.name) = try KeyedArchiving.ArchiveUnknownFields(from: reader.decoder, knownKeys: [\(list)])"
            )
        }
        let whereClause = self.isClass ? self.whereClause("Swift.Codable") : ""
        return Self.function(
            "\(self.access)init(archiveObject reader: inout KeyedArchiving.ArchiveObjectReader) throws\(whereClause)",
            lines
        )
    }
}
