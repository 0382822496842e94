//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-keyed-archive open source project
//
// Licensed under Apache License v2.0
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import PropertyLists

// Reading the archive's structure in place: the top level, checked by the graph reader's rules as
// `KeyedArchive(propertyList:)` checks it, the `$top` entries, and the decoded size of the
// archive's own objects that the decoded-size budget is measured against, by the reader's rule.

extension ArchiveDecodingSession {
    /// Finds `$objects` and `$top`, checking the top level by the graph reader's rules.
    static func tables(
        of plist: InPlaceBinaryPropertyList
    ) throws(KeyedArchiveError) -> (objects: InPlaceRegion, top: InPlaceRegion, null: InPlaceValue) {
        let list = ArchiveInPlaceList(plist: plist)
        return try Graph.checkEnvelope(of: list.topObject(), in: list)
    }

    /// The decoded size of the archive's own objects, each counted once: the baseline of the
    /// decoded-size budget, by the graph reader's rule.
    func distinctDecodedSize() -> Int {
        self.graph.distinctDecodedSize(maximumDepth: self.maximumDepth)
    }

    /// The `$top` keys, as stored, in archive order.
    func topKeys() throws(KeyedArchiveError) -> [String] {
        var keys: [String] = []
        for position in 0..<self.topTable.count {
            keys.append(try self.string(atObject: self.reader.key(of: self.topTable, at: position)))
        }
        return keys
    }

    /// The value stored under a `$top` key, if there is one.
    func topValue(forKey key: String) throws(KeyedArchiveError) -> InPlaceValue? {
        guard let position = self.reader.position(ofKey: key, in: self.topTable) else { return nil }
        return try self.read(self.reader.value(of: self.topTable, at: position))
    }

    /// The integer stored beside the root under `schemaVersion` in `$top`, inline or as an
    /// integer object, as `ArchiveMigrator` writes the root's version; `nil` if there is none.
    func topSchemaVersion() -> Int? {
        guard self.topTable.count > 1, var value = try? self.topValue(forKey: "schemaVersion") else { return nil }
        if case .uid(let uid) = value {
            guard let object = try? self.object(at: uid) else { return nil }
            value = object
        }
        // 0 is what stores wrote before types carried versions: no version known.
        guard case .integer(let integer) = value, let signed = integer.int64Value, signed > 0 else { return nil }
        return Int(exactly: signed)
    }

    /// The value of the root object: under `root`, or under the only top-level key.
    /// - Throws: `DecodingError.keyNotFound` if there is neither.
    func rootValue() throws -> InPlaceValue {
        if let root = try self.topValue(forKey: "root") { return root }
        if self.topTable.count == 1 { return try self.read(self.reader.value(of: self.topTable, at: 0)) }
        throw DecodingError.archiveMissingTopKey("root", available: try self.topKeys())
    }
}
