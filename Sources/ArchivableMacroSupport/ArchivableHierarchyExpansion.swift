//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-keyed-archive open source project
//
// Licensed under Apache License v2.0
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// The code `@Archivable` generates for a class in a hierarchy (not final, or with a
/// superclass), as source text.
///
/// Its object holds its superclasses' fields and its own, as `NSCoding` archives a class chain:
/// `encode(to:)` calls `super.encode(to:)` on the same encoder first, `init(from:)` reads its own
/// fields and then calls `super.init(from:)` with the same decoder, as a hand-written conformance
/// does. Both live in the class body, where a subclass overrides them; the initializers are
/// designated (`required`), so they read the fields themselves rather than through the generic
/// `init(archiveFields:)`. A root class (or a subclass of `NSObject`) also writes and reads its
/// object directly; a subclass of another class goes through its `Codable` members on every path,
/// and the coders, which look at each value's dynamic type, never hand it its superclass's
/// direct members.
extension ArchivableType {
    /// Whether the type is a class in a hierarchy.
    var isClassInHierarchy: Bool {
        if case .classInHierarchy = self.kind { return true }
        return false
    }

    /// The superclass of a class in a hierarchy whose `Codable` members it calls, if it has one.
    var codableSuperclass: String? {
        if case .classInHierarchy(superclass: .codable(let name)) = self.kind { return name }
        return nil
    }

    /// Whether the type is a subclass of `NSObject`.
    private var isNSObjectSubclass: Bool { self.kind == .classInHierarchy(superclass: .nsObject) }

    /// The access of the members a subclass overrides: `open` in an open class.
    private var overridableAccess: String { self.isOpen ? "open " : self.access }

    /// The members of a class in a hierarchy's body: `init(from:)`, `encode(to:)`,
    /// `init(archiveObject:)`, and `init()` when it would be lost.
    func hierarchyClassMembers() -> [String] {
        guard self.isClassInHierarchy else { return [] }
        var members = [
            self.hierarchyDecodableInitializer(),
            self.hierarchyEncodableFunction(),
            self.hierarchyArchiveObjectInitializer(),
        ]
        if !self.declaresInitializer && self.properties.allSatisfy(\.hasInitialValue) {
            switch self.kind {
            case .classInHierarchy(superclass: .none): members.append("\(self.access)init() {}")
            case .classInHierarchy(superclass: .nsObject): members.append("\(self.access)override init() {}")
            default: break
            }
        }
        return members
    }

    /// The statements that read the fields from `reader`, then initialize the superclass from
    /// `decoder`: a root class reads its version first.
    private func hierarchyReadStatements() -> [String] {
        var lines: [String] = []
        if let superclass = self.codableSuperclass {
            lines.append("KeyedArchiving.ArchivableSuperclass.check(\(superclass).self)")
        } else {
            lines.append("_ = try reader.decodeVersion(of: \(self.name).self, at: 0)")
        }
        lines += self.propertyStatements()
        return lines
    }

    /// The call to the superclass's initializer that ends an initializer, if any.
    private var superInitializerCall: [String] {
        switch self.kind {
        case .classInHierarchy(superclass: .codable): return ["try super.init(from: decoder)"]
        case .classInHierarchy(superclass: .nsObject): return ["super.init()"]
        default: return []
        }
    }

    /// `init(from:)`: the fields through the decoder's keyed container, then the superclass's.
    private func hierarchyDecodableInitializer() -> String {
        Self.function(
            "\(self.access)required init(from decoder: any Swift.Decoder) throws",
            ["let reader = try KeyedArchiving.ArchiveContainerFieldReader<CodingKeys>(decoder)"]
                + self.hierarchyReadStatements() + self.superInitializerCall
        )
    }

    /// `encode(to:)`: the superclass's fields, then the class's own, in the same keyed container.
    private func hierarchyEncodableFunction() -> String {
        let override = self.codableSuperclass != nil ? "override " : ""
        var lines: [String] = []
        if self.codableSuperclass != nil { lines.append("try super.encode(to: encoder)") }
        lines += [
            "try KeyedArchiving.ArchiveContainerFieldWriter<CodingKeys>.write(to: encoder) {",
            "    try self.encodeArchiveFields(to: &$0)",
            "}",
        ]
        return Self.function(
            "\(self.overridableAccess)\(override)func encode(to encoder: any Swift.Encoder) throws",
            lines
        )
    }

    /// The members of the direct extension of a subclass of a plain `Codable` class: its objects
    /// go through `encode(to:)` and `init(from:)` (``ArchiveObjectKeys/throughCodable``), as its
    /// superclass writes its own fields in them; `encodeArchiveObject(to:)`, which the coders never
    /// call, says so.
    func throughCodableMembers(encodable: Bool) -> [String] {
        var members = [
            Self.function(
                "\(self.access)static var archiveObjectKeys: KeyedArchiving.ArchiveObjectKeys",
                ["KeyedArchiving.ArchiveObjectKeys.throughCodable"]
            )
        ]
        if encodable {
            members.append(
                Self.function(
                    "\(self.access)func encodeArchiveObject(to writer: inout KeyedArchiving.ArchiveObjectWriter) throws",
                    [
                        "throw Swift.EncodingError.invalidValue(",
                        "    self,",
                        "    Swift.EncodingError.Context(",
                        "        codingPath: [],",
                        "        debugDescription: \"\\(Self.self) is archived through encode(to:)\"",
                        "    )",
                        ")",
                    ]
                )
            )
        }
        return members
    }

    /// `init(archiveObject:)`: a root class reads the archive's object directly; a subclass of
    /// another class reads it through the object's decoder, as `init(from:)` does.
    private func hierarchyArchiveObjectInitializer() -> String {
        let signature =
            "\(self.access)required init(archiveObject reader: inout KeyedArchiving.ArchiveObjectReader) throws"
        guard self.codableSuperclass != nil else {
            return Self.function(signature, self.hierarchyReadStatements() + self.superInitializerCall)
        }
        let read =
            ["let reader = try KeyedArchiving.ArchiveContainerFieldReader<CodingKeys>(decoder)"]
            + self.hierarchyReadStatements()
        return Self.function(
            signature,
            ["let decoder = reader.decoder", "do {"] + read.map { "    \($0)" } + ["}"] + self.superInitializerCall
        )
    }
}
