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

/// An `Array` of encodable elements, archived as `NSArray` without going through an encoder.
internal protocol _ArchiveArrayEncodableMarker {
    /// Encodes every element as an object, as an unkeyed container's `encode(_:)` does.
    /// - Parameters:
    ///   - parent: The coding path of the position holding the array, without the last key.
    ///   - key: The last key of the array's coding path, if any.
    /// - Returns: The elements' UIDs, in order.
    func encodeArchiveElements(
        in session: ArchiveEncodingSession,
        parent: ArchiveEncodingParent,
        key: (any CodingKey)?
    ) throws
        -> [ArchiveEncodingTable.Value]

    /// The array itself when its elements are strings, which the session stores without a buffer
    /// of element UIDs; `nil` for any other element type.
    var archiveStrings: [String]? { get }

    /// Encodes `value` as an `NSArray` if it is of this type, without a dynamic cast to the protocol.
    /// - Returns: The array's UID, or `nil` if `value` is not of this type.
    static func encodeArchiveArray<T>(
        _ value: T,
        in session: ArchiveEncodingSession,
        parent: ArchiveEncodingParent,
        key: (any CodingKey)?
    ) throws -> UID?
}

/// A `Set` of encodable elements, archived as `NSSet` rather than through its `encode(to:)`.
internal protocol _ArchiveSetEncodableMarker {
    /// Encodes every element as an object.
    /// - Returns: The elements' UIDs, in iteration order.
    func encodeArchiveElements(
        in session: ArchiveEncodingSession,
        at node: CodingPathNode
    ) throws
        -> [ArchiveEncodingTable.Value]
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
        -> (keys: [ArchiveEncodingTable.Value], values: [ArchiveEncodingTable.Value])
}

extension Array: _ArchiveArrayEncodableMarker where Element: Encodable {
    var archiveStrings: [String]? {
        // The same type, so the cast only spares a dynamic cast per element.
        Element.self == String.self ? unsafeBitCast(self, to: [String].self) : nil
    }

    static func encodeArchiveArray<T>(
        _ value: T,
        in session: ArchiveEncodingSession,
        parent: ArchiveEncodingParent,
        key: (any CodingKey)?
    ) throws -> UID? {
        guard let array = value as? Self else { return nil }
        return try session.encodeArray(array, parent: parent, key: key)
    }

    func encodeArchiveElements(
        in session: ArchiveEncodingSession,
        parent: ArchiveEncodingParent,
        key: (any CodingKey)?
    ) throws
        -> [ArchiveEncodingTable.Value]
    {
        if let elements = try self.encodeObjectElements(in: session, parent: parent, key: key) { return elements }
        var elements: [ArchiveEncodingTable.Value] = []
        elements.reserveCapacity(self.count)
        // The array's own path, made only if an element needs it.
        var node: CodingPathNode?
        for element in self {
            if let leaf = session.leaf(of: element) {
                elements.append(.uid(session.table.leaf(leaf).rawValue))
                continue
            }
            let arrayNode = node ?? parent.appending(key)
            node = arrayNode
            let index = ArchiveEncodingKey(index: elements.count)
            // Measured on the second value: the first also adds what its type's objects share.
            let before = elements.count == 1 ? session.table.size : nil
            let uid = try session.encodeComposite(element, parent: ArchiveEncodingParent(arrayNode), key: index)
            elements.append(.uid(uid.rawValue))
            Self.makeRoom(forAlike: self.count, grownSince: before, in: session)
        }
        return elements
    }

    /// Encodes the elements as ``encodeArchiveElements(in:parent:key:)`` does when they are values
    /// of a type that writes its own objects (``ArchiveObjectEncodable``), each borrowed in place
    /// from the array's storage rather than copied out of it; `nil` for any other element type.
    private func encodeObjectElements(
        in session: ArchiveEncodingSession,
        parent: ArchiveEncodingParent,
        key: (any CodingKey)?
    ) throws -> [ArchiveEncodingTable.Value]? {
        // Through the buffer: `first`, unspecialized, allocates its accessor's frame.
        try self.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress, !buffer.isEmpty else { return nil }
            // Values only: instances may be of subclasses, which the general path tells apart.
            let info = session.typeInfo(of: base.pointee)
            guard info.kind == .value, let direct = info.objectEncoder,
                ObjectIdentifier(direct) == ObjectIdentifier(Element.self)
            else { return nil }
            let arrayNode = parent.appending(key)
            var elements: [ArchiveEncodingTable.Value] = []
            elements.reserveCapacity(buffer.count)
            for index in buffer.indices {
                // Measured on the second value: the first also adds what its type's objects share.
                let before = index == 1 ? session.table.size : nil
                // Never mutated: the element is only read, at its address in the array's storage.
                let uid = try direct.encodeArchiveValue(
                    at: UnsafeMutableRawPointer(mutating: base + index),
                    in: session,
                    info: info,
                    parent: ArchiveEncodingParent(arrayNode),
                    key: ArchiveEncodingKey(index: index)
                )
                elements.append(.uid(uid.rawValue))
                Self.makeRoom(forAlike: buffer.count, grownSince: before, in: session)
            }
            return elements
        }
    }

    /// Once the second of `count` elements is encoded, makes room in the table for the others at
    /// once rather than by doubling, each the size of the second (the first also adds what its
    /// type's objects share). Does nothing for fewer than 64 elements.
    /// - Parameter before: The table's size before the second element; `nil` for the others.
    @inline(__always)
    private static func makeRoom(
        forAlike count: Int,
        grownSince before: (objects: Int, items: Int)?,
        in session: ArchiveEncodingSession
    ) {
        guard let before, count >= 64 else { return }
        let after = session.table.size
        let growth = (objects: after.objects - before.objects, items: after.items - before.items)
        session.table.reserveCapacity(forRepeating: growth, times: count - 2)
    }
}

extension Set: _ArchiveSetEncodableMarker where Element: Encodable {
    func encodeArchiveElements(
        in session: ArchiveEncodingSession,
        at node: CodingPathNode
    ) throws
        -> [ArchiveEncodingTable.Value]
    {
        var elements: [ArchiveEncodingTable.Value] = []
        elements.reserveCapacity(self.count)
        for element in self {
            let key = ArchiveEncodingKey(index: elements.count)
            elements.append(.uid(try session.encode(element, parent: ArchiveEncodingParent(node), key: key).rawValue))
        }
        return elements
    }
}

extension Dictionary: _ArchiveDictionaryEncodableMarker where Key: Encodable, Value: Encodable {
    func encodeArchiveEntries(
        in session: ArchiveEncodingSession,
        at node: CodingPathNode
    ) throws
        -> (keys: [ArchiveEncodingTable.Value], values: [ArchiveEncodingTable.Value])
    {
        var keys: [ArchiveEncodingTable.Value] = []
        keys.reserveCapacity(self.count)
        for key in self.keys {
            let codingKey = ArchiveEncodingKey(index: keys.count)
            keys.append(.uid(try session.encode(key, parent: ArchiveEncodingParent(node), key: codingKey).rawValue))
        }
        var values: [ArchiveEncodingTable.Value] = []
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
            values.append(.uid(try session.encode(value, parent: ArchiveEncodingParent(node), key: codingKey).rawValue))
        }
        return (keys, values)
    }
}
