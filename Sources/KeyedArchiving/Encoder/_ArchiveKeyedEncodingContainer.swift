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

/// A keyed container writing into one object: a type's own object (also through `superEncoder()`,
/// for the superclass's keys) or a nested `NSDictionary`.
///
/// In a type's own object, scalars are stored inline, as `NSCoder`'s `encode(_:forKey:)` stores
/// them, and keys starting with `$` are escaped with another `$`. In an `NSDictionary` every value
/// is an object and keys are kept as they are. Everything else is stored as an object and referred
/// to by UID; `nil`, including `encodeIfPresent` of `nil`, is UID 0. Encoding a key again replaces
/// its value.
internal struct _ArchiveKeyedEncodingContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    private let owner: _ArchiveEncoder
    /// The container's coding path when it differs from the owner's (a `superEncoder()` container).
    private let node: CodingPathNode?

    init(owner: _ArchiveEncoder, node: CodingPathNode?) {
        self.owner = owner
        self.node = node
    }

    var codingPath: [any CodingKey] { self.pathNode.path }

    private var pathNode: CodingPathNode { self.node ?? self.owner.codingPathNode }

    /// Stores a UID, or a value the caller knows may be inline.
    @inline(__always)
    private func store(_ value: ArchiveEncodingTable.Value, forKey key: Key) {
        self.owner.setEntry(value, forKey: self.owner.storageKey(key.stringValue))
    }

    /// Stores a UID.
    @inline(__always)
    private func store(_ uid: UID, forKey key: Key) {
        self.store(.uid(uid.rawValue), forKey: key)
    }

    /// Stores a scalar inline, or as a shared leaf object in an `NSDictionary`.
    @inline(__always)
    private func storeScalar(_ value: ArchiveEncodingTable.Value, forKey key: Key) {
        if self.owner.isDictionary {
            self.store(self.owner.session.table.leaf(scalar: value), forKey: key)
        } else {
            self.store(value, forKey: key)
        }
    }

    @inline(never)
    private func integer(_ value: some BinaryInteger, forKey key: Key) throws -> ArchiveEncodingTable.Value {
        guard let integer = PropertyListInteger(exactly: value) else {
            throw ArchiveEncodingSession.invalidValue(
                value,
                at: self.pathNode.appending(key),
                "\(type(of: value)) \(value) is outside the range of property list integers."
            )
        }
        return .integer(integer)
    }

    // MARK: - Values

    mutating func encodeNil(forKey key: Key) throws {
        self.store(UID(0), forKey: key)
    }

    mutating func encode(_ value: Bool, forKey key: Key) throws {
        self.storeScalar(.bool(value), forKey: key)
    }

    mutating func encode(_ value: String, forKey key: Key) throws {
        self.store(self.owner.stringLeaf(value), forKey: key)
    }

    mutating func encode(_ value: Double, forKey key: Key) throws {
        self.storeScalar(.real(value), forKey: key)
    }

    mutating func encode(_ value: Float, forKey key: Key) throws {
        self.storeScalar(.float(value), forKey: key)
    }

    mutating func encode(_ value: Int, forKey key: Key) throws {
        self.storeScalar(.integer(Int64(value)), forKey: key)
    }

    mutating func encode(_ value: Int8, forKey key: Key) throws {
        self.storeScalar(.integer(Int64(value)), forKey: key)
    }

    mutating func encode(_ value: Int16, forKey key: Key) throws {
        self.storeScalar(.integer(Int64(value)), forKey: key)
    }

    mutating func encode(_ value: Int32, forKey key: Key) throws {
        self.storeScalar(.integer(Int64(value)), forKey: key)
    }

    mutating func encode(_ value: Int64, forKey key: Key) throws {
        self.storeScalar(.integer(value), forKey: key)
    }

    mutating func encode(_ value: UInt, forKey key: Key) throws {
        self.storeScalar(.integer(UInt64(value)), forKey: key)
    }

    mutating func encode(_ value: UInt8, forKey key: Key) throws {
        self.storeScalar(.integer(UInt64(value)), forKey: key)
    }

    mutating func encode(_ value: UInt16, forKey key: Key) throws {
        self.storeScalar(.integer(UInt64(value)), forKey: key)
    }

    mutating func encode(_ value: UInt32, forKey key: Key) throws {
        self.storeScalar(.integer(UInt64(value)), forKey: key)
    }

    mutating func encode(_ value: UInt64, forKey key: Key) throws {
        self.storeScalar(.integer(value), forKey: key)
    }

    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    mutating func encode(_ value: Int128, forKey key: Key) throws {
        self.storeScalar(try self.integer(value, forKey: key), forKey: key)
    }

    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    mutating func encode(_ value: UInt128, forKey key: Key) throws {
        self.storeScalar(try self.integer(value, forKey: key), forKey: key)
    }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        let session = self.owner.session
        if let leaf = session.leaf(of: value) {
            switch leaf {
            case .string(let string): self.store(session.table.leaf(string), forKey: key)
            case .data(let data): self.store(session.table.leaf(data), forKey: key)
            case .scalar(let scalar): self.storeScalar(scalar, forKey: key)
            }
            return
        }
        // The owner stands for its own path, which is made only if asked for.
        let parent = self.node.map(ArchiveEncodingParent.init) ?? ArchiveEncodingParent(encoder: self.owner)
        let uid = try session.encodeComposite(value, parent: parent, key: key)
        self.store(uid, forKey: key)
    }

    // MARK: - Optionals, stored as $null when nil

    mutating func encodeIfPresent(_ value: Bool?, forKey key: Key) throws {
        if let value { try self.encode(value, forKey: key) } else { self.store(UID(0), forKey: key) }
    }

    mutating func encodeIfPresent(_ value: String?, forKey key: Key) throws {
        if let value { try self.encode(value, forKey: key) } else { self.store(UID(0), forKey: key) }
    }

    mutating func encodeIfPresent(_ value: Double?, forKey key: Key) throws {
        if let value { try self.encode(value, forKey: key) } else { self.store(UID(0), forKey: key) }
    }

    mutating func encodeIfPresent(_ value: Float?, forKey key: Key) throws {
        if let value { try self.encode(value, forKey: key) } else { self.store(UID(0), forKey: key) }
    }

    mutating func encodeIfPresent(_ value: Int?, forKey key: Key) throws {
        if let value { try self.encode(value, forKey: key) } else { self.store(UID(0), forKey: key) }
    }

    mutating func encodeIfPresent(_ value: Int8?, forKey key: Key) throws {
        if let value { try self.encode(value, forKey: key) } else { self.store(UID(0), forKey: key) }
    }

    mutating func encodeIfPresent(_ value: Int16?, forKey key: Key) throws {
        if let value { try self.encode(value, forKey: key) } else { self.store(UID(0), forKey: key) }
    }

    mutating func encodeIfPresent(_ value: Int32?, forKey key: Key) throws {
        if let value { try self.encode(value, forKey: key) } else { self.store(UID(0), forKey: key) }
    }

    mutating func encodeIfPresent(_ value: Int64?, forKey key: Key) throws {
        if let value { try self.encode(value, forKey: key) } else { self.store(UID(0), forKey: key) }
    }

    mutating func encodeIfPresent(_ value: UInt?, forKey key: Key) throws {
        if let value { try self.encode(value, forKey: key) } else { self.store(UID(0), forKey: key) }
    }

    mutating func encodeIfPresent(_ value: UInt8?, forKey key: Key) throws {
        if let value { try self.encode(value, forKey: key) } else { self.store(UID(0), forKey: key) }
    }

    mutating func encodeIfPresent(_ value: UInt16?, forKey key: Key) throws {
        if let value { try self.encode(value, forKey: key) } else { self.store(UID(0), forKey: key) }
    }

    mutating func encodeIfPresent(_ value: UInt32?, forKey key: Key) throws {
        if let value { try self.encode(value, forKey: key) } else { self.store(UID(0), forKey: key) }
    }

    mutating func encodeIfPresent(_ value: UInt64?, forKey key: Key) throws {
        if let value { try self.encode(value, forKey: key) } else { self.store(UID(0), forKey: key) }
    }

    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    mutating func encodeIfPresent(_ value: Int128?, forKey key: Key) throws {
        if let value { try self.encode(value, forKey: key) } else { self.store(UID(0), forKey: key) }
    }

    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    mutating func encodeIfPresent(_ value: UInt128?, forKey key: Key) throws {
        if let value { try self.encode(value, forKey: key) } else { self.store(UID(0), forKey: key) }
    }

    mutating func encodeIfPresent<T: Encodable>(_ value: T?, forKey key: Key) throws {
        if let value { try self.encode(value, forKey: key) } else { self.store(UID(0), forKey: key) }
    }

    // MARK: - Nesting

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type,
        forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
        let child = self.owner.makeNestedKeyedChild(parentNode: self.pathNode, key: key)
        self.store(child.resultUID, forKey: key)
        return KeyedEncodingContainer(_ArchiveKeyedEncodingContainer<NestedKey>(owner: child, node: nil))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        let child = self.owner.makeNestedUnkeyedChild(parentNode: self.pathNode, key: key)
        self.store(child.resultUID, forKey: key)
        return _ArchiveUnkeyedEncodingContainer(owner: child)
    }

    /// An encoder writing into this same object, as `super.encode(with:)` does with `NSCoder`.
    mutating func superEncoder() -> any Encoder {
        _ArchiveSuperEncoder(target: self.owner, containerNode: self.pathNode)
    }

    /// An encoder for a new object stored under `key`.
    mutating func superEncoder(forKey key: Key) -> any Encoder {
        let storageKey = self.owner.storageKey(key.stringValue)
        let child = self.owner.makeReferencingChild(parentNode: self.pathNode, key: key, slot: .key(storageKey))
        self.owner.setEntry(.uid(0), forKey: storageKey)
        return child
    }
}
