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

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

// The table's output: the objects as property list values, or the whole archive in binary.
extension ArchiveEncodingTable {
    /// The objects as property list values, for a ``KeyedArchive``.
    var propertyListObjects: [PropertyListValue] {
        self.objects.map { self.builder.propertyList($0) }
    }

    /// Encodes the archive as a binary property list, as `KeyedArchive(top:objects:).serialized()`
    /// would: `$version`, `$archiver`, `$top`, `$objects`. The table is complete afterwards: the
    /// containers this appends are not objects.
    /// - Parameter top: The top-level keys and their values (UIDs, or scalars stored inline); a
    ///   repeated key keeps its first position and its last value.
    mutating func binaryPropertyList(top: [(key: String, value: Value)]) -> Data {
        var topKeys: [Key] = []
        var topValues: [Value] = []
        for entry in top {
            let key = self.key(entry.key)
            if let index = topKeys.firstIndex(where: { $0.canonical == key.canonical }) {
                topValues[index] = entry.value
            } else {
                topKeys.append(key)
                topValues.append(entry.value)
            }
        }
        let topDictionary = self.builder.dictionary(keys: topKeys.map { .string(id: $0.id) }, values: topValues)
        let objects = self.builder.array(self.objects)
        let keys: [Value] = [FixedKey.version, .archiver, .top, .objects].map { .string(id: UInt32($0.rawValue)) }
        let values: [Value] = [
            .integer(Int64(KeyedArchive.formatVersion)),
            .string(id: UInt32(FixedKey.archiverName.rawValue)),
            topDictionary,
            objects,
        ]
        let root = self.builder.dictionary(keys: keys, values: values)
        return self.builder.writeData(root: root, uidCount: self.objects.count)
    }
}
