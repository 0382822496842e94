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

/// An unkeyed container: the elements of an `NSArray`, each stored as an object and referred to by
/// UID (`nil` is UID 0; numbers, strings and data are shared leaves).
internal struct _ArchiveUnkeyedEncodingContainer: UnkeyedEncodingContainer {
    private let owner: _ArchiveEncoder

    init(owner: _ArchiveEncoder) {
        self.owner = owner
    }

    var codingPath: [any CodingKey] { self.owner.codingPath }

    var count: Int { self.owner.elements.count }

    @inline(__always)
    private func appendLeaf(_ value: ArchiveEncodingTable.Value) {
        self.append(self.owner.session.table.leaf(scalar: value))
    }

    @inline(__always)
    private func append(_ uid: UID) {
        self.owner.elements.append(.uid(uid.rawValue))
    }

    @inline(never)
    private func integer(_ value: some BinaryInteger) throws -> ArchiveEncodingTable.Value {
        guard let integer = PropertyListInteger(exactly: value) else {
            throw ArchiveEncodingSession.invalidValue(
                value,
                at: self.owner.codingPathNode.appending(ArchiveEncodingKey(index: self.count)),
                "\(type(of: value)) \(value) is outside the range of property list integers."
            )
        }
        return .integer(integer)
    }

    mutating func encodeNil() throws {
        self.append(UID(0))
    }

    mutating func encode(_ value: Bool) throws {
        self.appendLeaf(.bool(value))
    }

    mutating func encode(_ value: String) throws {
        self.append(self.owner.stringLeaf(value))
    }

    mutating func encode(_ value: Double) throws {
        self.appendLeaf(.real(value))
    }

    mutating func encode(_ value: Float) throws {
        self.appendLeaf(.float(value))
    }

    mutating func encode(_ value: Int) throws {
        self.appendLeaf(.integer(Int64(value)))
    }

    mutating func encode(_ value: Int8) throws {
        self.appendLeaf(.integer(Int64(value)))
    }

    mutating func encode(_ value: Int16) throws {
        self.appendLeaf(.integer(Int64(value)))
    }

    mutating func encode(_ value: Int32) throws {
        self.appendLeaf(.integer(Int64(value)))
    }

    mutating func encode(_ value: Int64) throws {
        self.appendLeaf(.integer(value))
    }

    mutating func encode(_ value: UInt) throws {
        self.appendLeaf(.integer(UInt64(value)))
    }

    mutating func encode(_ value: UInt8) throws {
        self.appendLeaf(.integer(UInt64(value)))
    }

    mutating func encode(_ value: UInt16) throws {
        self.appendLeaf(.integer(UInt64(value)))
    }

    mutating func encode(_ value: UInt32) throws {
        self.appendLeaf(.integer(UInt64(value)))
    }

    mutating func encode(_ value: UInt64) throws {
        self.appendLeaf(.integer(value))
    }

    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    mutating func encode(_ value: Int128) throws {
        self.appendLeaf(try self.integer(value))
    }

    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    mutating func encode(_ value: UInt128) throws {
        self.appendLeaf(try self.integer(value))
    }

    mutating func encode<T: Encodable>(_ value: T) throws {
        if let leaf = self.owner.session.leaf(of: value) {
            self.append(self.owner.session.table.leaf(leaf))
            return
        }
        let key = ArchiveEncodingKey(index: self.count)
        let uid = try self.owner.session.encodeComposite(
            value,
            parent: ArchiveEncodingParent(encoder: self.owner),
            key: key
        )
        self.append(uid)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type
    ) -> KeyedEncodingContainer<NestedKey> {
        let key = ArchiveEncodingKey(index: self.count)
        let child = self.owner.makeNestedKeyedChild(parentNode: self.owner.codingPathNode, key: key)
        self.append(child.resultUID)
        return KeyedEncodingContainer(_ArchiveKeyedEncodingContainer<NestedKey>(owner: child, node: nil))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let key = ArchiveEncodingKey(index: self.count)
        let child = self.owner.makeNestedUnkeyedChild(parentNode: self.owner.codingPathNode, key: key)
        self.append(child.resultUID)
        return _ArchiveUnkeyedEncodingContainer(owner: child)
    }

    /// An encoder for a new element, appended now and filled in when the array is complete.
    mutating func superEncoder() -> any Encoder {
        let position = self.count
        let key = ArchiveEncodingKey(index: position)
        let child = self.owner.makeReferencingChild(
            parentNode: self.owner.codingPathNode,
            key: key,
            slot: .index(position)
        )
        self.append(UID(0))
        return child
    }
}
