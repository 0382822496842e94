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

/// A `Set` of encodable elements, archived as `NSSet` rather than through its `encode(to:)`.
internal protocol _ArchiveSetEncodableMarker {
    /// Encodes every element as an object.
    /// - Returns: The elements' UIDs, in iteration order.
    func encodeArchiveElements(
        in session: ArchiveEncodingSession,
        at node: CodingPathNode
    ) throws
        -> [PropertyListValue]
}

/// A `Dictionary` of encodable keys and values, archived as `NSDictionary` with its keys as objects,
/// whatever their type.
internal protocol _ArchiveDictionaryEncodableMarker {
    /// Encodes every key, then every value, as objects (the order `NSKeyedArchiver` uses).
    /// - Returns: The keys' UIDs and the values' UIDs, in matching order.
    func encodeArchiveEntries(
        in session: ArchiveEncodingSession,
        at node: CodingPathNode
    ) throws
        -> (keys: [PropertyListValue], values: [PropertyListValue])
}

extension Set: _ArchiveSetEncodableMarker where Element: Encodable {
    func encodeArchiveElements(
        in session: ArchiveEncodingSession,
        at node: CodingPathNode
    ) throws
        -> [PropertyListValue]
    {
        var elements: [PropertyListValue] = []
        elements.reserveCapacity(self.count)
        for element in self {
            let key = ArchiveEncodingKey(index: elements.count)
            elements.append(.uid(try session.encode(element, parent: node, key: key)))
        }
        return elements
    }
}

extension Dictionary: _ArchiveDictionaryEncodableMarker where Key: Encodable, Value: Encodable {
    func encodeArchiveEntries(
        in session: ArchiveEncodingSession,
        at node: CodingPathNode
    ) throws
        -> (keys: [PropertyListValue], values: [PropertyListValue])
    {
        var keys: [PropertyListValue] = []
        keys.reserveCapacity(self.count)
        for key in self.keys {
            let codingKey = ArchiveEncodingKey(index: keys.count)
            keys.append(.uid(try session.encode(key, parent: node, key: codingKey)))
        }
        var values: [PropertyListValue] = []
        values.reserveCapacity(self.count)
        for (key, value) in self {
            let codingKey: ArchiveEncodingKey
            if Key.self == String.self, let string = key as? String {
                codingKey = ArchiveEncodingKey(stringValue: string)
            } else if Key.self == Int.self, let integer = key as? Int {
                codingKey = ArchiveEncodingKey(intValue: integer)
            } else {
                codingKey = ArchiveEncodingKey(index: values.count)
            }
            values.append(.uid(try session.encode(value, parent: node, key: codingKey)))
        }
        return (keys, values)
    }
}
