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

/// A single-value container: the value takes the encoder's place, so a type that encodes one value
/// is archived exactly as that value would be at the same position.
internal struct _ArchiveSingleValueEncodingContainer: SingleValueEncodingContainer {
    private let owner: _ArchiveEncoder

    init(owner: _ArchiveEncoder) {
        self.owner = owner
    }

    var codingPath: [any CodingKey] { self.owner.codingPath }

    @inline(__always)
    private func storeLeaf(_ value: ArchiveEncodingTable.Value) {
        self.owner.setSingleValue(self.owner.session.table.leaf(scalar: value))
    }

    @inline(never)
    private func integer(_ value: some BinaryInteger) throws -> ArchiveEncodingTable.Value {
        guard let integer = PropertyListInteger(exactly: value) else {
            throw ArchiveEncodingSession.invalidValue(
                value,
                at: self.owner.codingPathNode,
                "\(type(of: value)) \(value) is outside the range of property list integers."
            )
        }
        return .integer(integer)
    }

    mutating func encodeNil() throws {
        self.owner.setSingleValue(0)
    }

    mutating func encode(_ value: Bool) throws {
        self.storeLeaf(.bool(value))
    }

    mutating func encode(_ value: String) throws {
        self.owner.setSingleValue(self.owner.stringLeaf(value))
    }

    mutating func encode(_ value: Double) throws {
        self.storeLeaf(.real(value))
    }

    mutating func encode(_ value: Float) throws {
        self.storeLeaf(.float(value))
    }

    mutating func encode(_ value: Int) throws {
        self.storeLeaf(.integer(Int64(value)))
    }

    mutating func encode(_ value: Int8) throws {
        self.storeLeaf(.integer(Int64(value)))
    }

    mutating func encode(_ value: Int16) throws {
        self.storeLeaf(.integer(Int64(value)))
    }

    mutating func encode(_ value: Int32) throws {
        self.storeLeaf(.integer(Int64(value)))
    }

    mutating func encode(_ value: Int64) throws {
        self.storeLeaf(.integer(value))
    }

    mutating func encode(_ value: UInt) throws {
        self.storeLeaf(.integer(UInt64(value)))
    }

    mutating func encode(_ value: UInt8) throws {
        self.storeLeaf(.integer(UInt64(value)))
    }

    mutating func encode(_ value: UInt16) throws {
        self.storeLeaf(.integer(UInt64(value)))
    }

    mutating func encode(_ value: UInt32) throws {
        self.storeLeaf(.integer(UInt64(value)))
    }

    mutating func encode(_ value: UInt64) throws {
        self.storeLeaf(.integer(value))
    }

    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    mutating func encode(_ value: Int128) throws {
        self.storeLeaf(try self.integer(value))
    }

    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    mutating func encode(_ value: UInt128) throws {
        self.storeLeaf(try self.integer(value))
    }

    mutating func encode<T: Encodable>(_ value: T) throws {
        let uid = try self.owner.session.encode(value, parent: self.owner.parent, key: self.owner.key)
        self.owner.setSingleValue(uid)
    }
}
