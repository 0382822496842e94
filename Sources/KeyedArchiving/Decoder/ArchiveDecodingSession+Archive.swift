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
// archive's own objects that the decoded-size budget is measured against.

extension ArchiveDecodingSession {
    /// Finds `$objects` and `$top`, checking the top level by the graph reader's rules.
    static func tables(
        of plist: InPlaceBinaryPropertyList
    ) throws(KeyedArchiveError) -> (objects: InPlaceRegion, top: InPlaceRegion, null: InPlaceValue) {
        let list = ArchiveInPlaceList(plist: plist)
        return try Graph.checkEnvelope(of: list.topObject(), in: list)
    }

    /// The decoded size (see `PropertyListLimits`) of the archive's own objects, each counted once,
    /// with every UID in them counted as one value: the baseline that the decoded size of decoding
    /// is compared against, as `KeyedArchive` computes it for a tree.
    func distinctDecodedSize() -> Int {
        var sizes: [Int: Int] = [:]
        var stack = StackGuard()
        var size = 0
        for position in 0..<self.objectTable.count {
            let index = self.reader.element(of: self.objectTable, at: position)
            size = min(size &+ self.decodedSize(of: index, depth: 0, sizes: &sizes, stack: &stack), Int.max / 4)
        }
        return size
    }

    /// The decoded size of one object with what it contains, each shared value counted where it
    /// stands, as in a tree; computed once per object, and bounded in depth so that a container
    /// that contains itself ends; a container nested deeper than the limit or the thread's stack
    /// allows counts as one value, which makes the baseline smaller and the budget tighter.
    private func decodedSize(of index: Int, depth: Int, sizes: inout [Int: Int], stack: inout StackGuard) -> Int {
        let unit = PropertyListLimits.decodedValueSize
        if let known = sizes[index] { return known }
        guard depth <= self.maximumDepth, stack.hasRoom(), let value = try? self.reader.value(at: index) else {
            return unit
        }
        var size = unit
        switch value {
        case .string(let region): size = unit &+ self.reader.storedLength(of: region)
        case .data(let region): size = unit &+ region.count
        case .array(let region):
            for position in 0..<region.count {
                let element = self.reader.element(of: region, at: position)
                size = min(
                    size &+ self.decodedSize(of: element, depth: depth + 1, sizes: &sizes, stack: &stack),
                    Int.max / 4
                )
            }
        case .dictionary(let region):
            for position in 0..<region.count {
                let key = self.decodedSize(
                    of: self.reader.key(of: region, at: position),
                    depth: depth + 1,
                    sizes: &sizes,
                    stack: &stack
                )
                let value = self.decodedSize(
                    of: self.reader.value(of: region, at: position),
                    depth: depth + 1,
                    sizes: &sizes,
                    stack: &stack
                )
                size = min(size &+ key &+ value, Int.max / 4)
            }
        default: break
        }
        sizes[index] = size
        return size
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
