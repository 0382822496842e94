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
        self.objects.run(from: 0, count: self.objects.count).map { self.builder.propertyList($0) }
    }

    /// Encodes the archive as a binary property list, as `KeyedArchive(top:objects:).serialized()`
    /// would: `$version`, `$archiver`, `$top`, `$objects`. The table is complete afterwards: the
    /// containers this appends are not objects.
    ///
    /// The dictionaries and the `$objects` array go straight into the builder's items, with no
    /// array of their own: an archive of one small value allocates its result and nothing else.
    /// - Parameter top: The top-level keys and their values (UIDs, or scalars stored inline); a
    ///   repeated key keeps its first position and its last value.
    mutating func binaryPropertyList(top: some Collection<(key: String, value: Value)>) -> Data {
        // `$top`: room for a value per entry, then the distinct keys after it. A repeated key's
        // later value replaces the earlier one; the slots left over are never written.
        let valuesStart = self.builder.items.count
        self.builder.items.append(contentsOf: repeatElement(Value.uid(0), count: top.count))
        let keysStart = self.builder.items.count
        for entry in top {
            let key = self.key(entry.key)
            var position = keysStart
            while position < self.builder.items.count,
                self.builder.strings.canonicalIDs[Int(self.builder.items[position].payload)] != key.canonical
            {
                position += 1
            }
            if position == self.builder.items.count { self.builder.items.append(.string(id: key.id)) }
            self.builder.items[valuesStart + position - keysStart] = entry.value
        }
        let topCount = self.builder.items.count - keysStart
        let topDictionary =
            self.builder.dictionary(sharingKeysAt: keysStart, valuesAt: valuesStart, count: topCount)
            ?? Self.dictionary(keysAt: keysStart, valuesAt: valuesStart, count: topCount, in: &self.builder)
        let objectsStart = self.builder.items.count
        self.builder.items.append(contentsOf: self.objects.run(from: 0, count: self.objects.count))
        let objectCount = UInt32(truncatingIfNeeded: self.objects.count)
        let objects = Value(kind: .array, payload: UInt64(objectsStart), count: objectCount)
        let rootStart = self.builder.items.count
        self.builder.items.append(.string(id: UInt32(FixedKey.version.rawValue)))
        self.builder.items.append(.string(id: UInt32(FixedKey.archiver.rawValue)))
        self.builder.items.append(.string(id: UInt32(FixedKey.top.rawValue)))
        self.builder.items.append(.string(id: UInt32(FixedKey.objects.rawValue)))
        self.builder.items.append(.integer(Int64(KeyedArchive.formatVersion)))
        self.builder.items.append(.string(id: UInt32(FixedKey.archiverName.rawValue)))
        self.builder.items.append(topDictionary)
        self.builder.items.append(objects)
        let root = Value(kind: .dictionary, payload: UInt64(rootStart), count: 4)
        return self.builder.writeData(root: root, uidCount: self.objects.count)
    }

    /// A dictionary of the `count` keys at `keysStart` and values at `valuesStart` in `builder`'s
    /// items, copied into one run: for item positions a shared-keys dictionary cannot express.
    private static func dictionary(
        keysAt keysStart: Int,
        valuesAt valuesStart: Int,
        count: Int,
        in builder: inout BinaryPropertyListBuilder
    ) -> Value {
        let keys = Array(builder.items[keysStart..<(keysStart + count)])
        let values = Array(builder.items[valuesStart..<(valuesStart + count)])
        return builder.dictionary(keys: keys, values: values)
    }
}
