//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-keyed-archive open source project
//
// Licensed under Apache License v2.0
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#if canImport(FoundationEssentials)
package import FoundationEssentials
#else
package import Foundation
#endif

/// A property list held as flat values, for producers that write many objects and want the binary
/// form without building a ``PropertyListValue`` tree first.
///
/// A ``Value`` is 16 bytes: a string or data by its id in the builder's pools, a number, Boolean
/// or UID by its bits, and a container by a range of ``items``: an array's elements, or a
/// dictionary's keys (strings) followed by its values. Containers are appended after their contents.
///
/// ``write(root:)`` numbers the objects and shares equal leaves exactly as
/// ``BinaryPropertyListWriter`` does for the equivalent tree (see ``propertyList(_:)``), so the two
/// produce the same bytes.
package struct BinaryPropertyListBuilder {
    /// One value: a leaf, or a container whose contents are in ``BinaryPropertyListBuilder/items``.
    package struct Value: BitwiseCopyable {
        /// What a value is, and how its ``payload`` reads.
        package enum Kind: UInt8, BitwiseCopyable {
            /// A string: the payload is its id in ``BinaryPropertyListBuilder/strings``.
            case string
            /// A non-negative integer: the payload is its value.
            case integer
            /// A negative integer: the payload is its two's complement bits.
            case negativeInteger
            /// A 64-bit real: the payload is its bits.
            case real
            /// A 32-bit real: the payload is its bits.
            case float
            /// A Boolean: the payload is 0 or 1.
            case bool
            /// A date: the payload is the bits of its seconds since 2001-01-01.
            case date
            /// Data: the payload is its id in ``BinaryPropertyListBuilder/data``.
            case data
            /// A UID: the payload is its value.
            case uid
            /// An array: its elements are `count` items from the payload.
            case array
            /// A dictionary: `count` keys from the payload, then `count` values.
            case dictionary
            /// A dictionary whose keys are a run other dictionaries share: `count` keys from the
            /// payload's high 32 bits, `count` values from its low 32 bits. See
            /// ``BinaryPropertyListBuilder/dictionary(sharingKeysAt:valuesAt:count:)``.
            case sharedKeysDictionary

            /// Whether values of this kind are containers, with contents in ``BinaryPropertyListBuilder/items``.
            @inline(__always)
            package var isContainer: Bool { self.rawValue >= Self.array.rawValue }
        }

        /// The leaf's bits, id or value, or where a container's contents start.
        package var payload: UInt64
        /// The number of elements or entries of a container; 0 for leaves.
        package var count: UInt32
        package var kind: Kind

        @inline(__always)
        package init(kind: Kind, payload: UInt64, count: UInt32 = 0) {
            self.kind = kind
            self.payload = payload
            self.count = count
        }

        /// A UID.
        @inline(__always)
        package static func uid(_ value: UInt64) -> Self { Self(kind: .uid, payload: value) }

        /// A signed integer.
        @inline(__always)
        package static func integer(_ value: Int64) -> Self {
            Self(kind: value < 0 ? .negativeInteger : .integer, payload: UInt64(bitPattern: value))
        }

        /// An unsigned integer.
        @inline(__always)
        package static func integer(_ value: UInt64) -> Self { Self(kind: .integer, payload: value) }

        /// An integer in the full property list range.
        @inline(__always)
        package static func integer(_ value: PropertyListInteger) -> Self {
            Self(kind: value.isNegative ? .negativeInteger : .integer, payload: value.bits)
        }

        /// A 64-bit real.
        @inline(__always)
        package static func real(_ value: Double) -> Self { Self(kind: .real, payload: value.bitPattern) }

        /// A 32-bit real.
        @inline(__always)
        package static func float(_ value: Float) -> Self { Self(kind: .float, payload: UInt64(value.bitPattern)) }

        /// A Boolean.
        @inline(__always)
        package static func bool(_ value: Bool) -> Self { Self(kind: .bool, payload: value ? 1 : 0) }

        /// The string with an id from ``BinaryPropertyListBuilder/strings``.
        @inline(__always)
        package static func string(id: UInt32) -> Self { Self(kind: .string, payload: UInt64(id)) }
    }

    /// The strings that ``Value/Kind/string`` values refer to.
    package var strings = BinaryStringPool()
    /// The data that ``Value/Kind/data`` values refer to, each stored once.
    package private(set) var data = BinaryByteRunTable()
    /// The contents of every container, each container's in one run (a dictionary that shares
    /// its keys has only its values there).
    package var items: [Value] = []
    /// The number of keys dictionaries read from runs they share: references the file holds
    /// beyond one per item.
    package private(set) var sharedKeyCount = 0
    /// The buffers writing a file works in, kept for the next file.
    package let numberingStorage = BinaryNumberingStorage()
    /// Whether strings that are only canonically equivalent (such as U+212A KELVIN SIGN and "K")
    /// are written as one object, as `String` equality and the tree writer have it (the default),
    /// or as one object per distinct sequence of bytes, as the transcoder keeps them.
    package var mergesEquivalentStrings = true

    /// Creates an empty builder.
    package init() {}

    /// Removes every string but the first `count`, and every data and container, keeping the
    /// storage for the next ones.
    package mutating func removeAll(keepingStrings count: Int = 0) {
        self.strings.removeAll(keepingFirst: count)
        self.data.removeAll()
        self.items.removeAll(keepingCapacity: true)
        self.sharedKeyCount = 0
    }

    /// The value of a string, adding it to ``strings`` if needed.
    package mutating func string(_ string: String) -> Value {
        .string(id: self.strings.id(for: string))
    }

    /// The id of some data, adding it to ``data`` if no equal data is there.
    package mutating func dataID(for data: Data) -> UInt32 {
        data.withUnsafeBytes { self.dataID(forBytes: $0) }
    }

    /// The id of data with `bytes`, adding it to ``data`` if no equal data is there.
    package mutating func dataID(forBytes bytes: UnsafeRawBufferPointer) -> UInt32 {
        self.data.id(for: bytes).id
    }

    /// Appends an array's elements to ``items`` and returns the array.
    package mutating func array(_ elements: [Value]) -> Value {
        let start = self.items.count
        self.items.append(contentsOf: elements)
        return Value(kind: .array, payload: UInt64(start), count: UInt32(truncatingIfNeeded: elements.count))
    }

    /// Appends a dictionary's keys (string values) and values to ``items`` and returns the
    /// dictionary. The keys should be distinct.
    package mutating func dictionary(keys: [Value], values: [Value]) -> Value {
        let start = self.items.count
        self.items.append(contentsOf: keys)
        self.items.append(contentsOf: values)
        return Value(kind: .dictionary, payload: UInt64(start), count: UInt32(truncatingIfNeeded: keys.count))
    }

    /// A dictionary whose `count` keys are the run of string values at `keysStart` in ``items``
    /// (which other dictionaries may share), and whose `count` values are the run at `valuesStart`:
    /// objects of one type have the same keys, stored once. Both runs must be in ``items``
    /// already or follow before the dictionary is written.
    /// - Returns: The dictionary, or `nil` if a start is beyond what the value holds (past
    ///   `UInt32.max`); use ``dictionary(keys:values:)`` then.
    @inline(__always)
    package mutating func dictionary(sharingKeysAt keysStart: Int, valuesAt valuesStart: Int, count: Int) -> Value? {
        guard let keys = UInt32(exactly: keysStart), let values = UInt32(exactly: valuesStart) else { return nil }
        self.sharedKeyCount += count
        let payload = UInt64(keys) << 32 | UInt64(values)
        return Value(kind: .sharedKeysDictionary, payload: payload, count: UInt32(truncatingIfNeeded: count))
    }

    /// Where a dictionary's keys and values start in ``items``.
    @inline(__always)
    package static func dictionaryRuns(of value: Value) -> (keys: Int, values: Int) {
        if value.kind == .sharedKeysDictionary {
            return (Int(value.payload >> 32), Int(value.payload & 0xFFFF_FFFF))
        }
        return (Int(value.payload), Int(value.payload) + Int(value.count))
    }

    // MARK: - Trees

    /// The ``PropertyListValue`` a value stands for.
    package func propertyList(_ value: Value) -> PropertyListValue {
        switch value.kind {
        case .string:
            return .string(self.strings.strings[Int(value.payload)])
        case .integer:
            return .integer(PropertyListInteger(value.payload))
        case .negativeInteger:
            return .integer(PropertyListInteger(Int64(bitPattern: value.payload)))
        case .real:
            return .real(Double(bitPattern: value.payload))
        case .float:
            return .float(Float(bitPattern: UInt32(truncatingIfNeeded: value.payload)))
        case .bool:
            return .bool(value.payload != 0)
        case .date:
            return .date(Date(timeIntervalSinceReferenceDate: Double(bitPattern: value.payload)))
        case .data:
            return .data(self.data.withBytes(of: UInt32(truncatingIfNeeded: value.payload)) { Data($0) })
        case .uid:
            return .uid(UID(value.payload))
        case .array:
            let start = Int(value.payload)
            return .array(self.items[start..<(start + Int(value.count))].map { self.propertyList($0) })
        case .dictionary, .sharedKeysDictionary:
            let (keys, values) = Self.dictionaryRuns(of: value)
            let count = Int(value.count)
            var dictionary = PropertyListDictionary()
            dictionary.reserveCapacity(count)
            for offset in 0..<count {
                let key = self.items[keys + offset]
                let name = key.kind == .string ? self.strings.strings[Int(key.payload)] : ""
                dictionary.updateValue(self.propertyList(self.items[values + offset]), forKey: name)
            }
            return .dictionary(dictionary)
        }
    }

    // MARK: - Writing

    /// Encodes the property list whose top-level value is `root` in the binary format.
    ///
    /// The bytes are those ``BinaryPropertyListWriter/write(_:)`` returns for
    /// ``propertyList(_:)`` of `root`.
    /// - Parameter root: The top-level value.
    /// - Returns: The bytes of the file, starting with `bplist00`.
    package func write(root: Value) -> [UInt8] {
        BinaryBuilderNumbering.withNumbering(of: self, uidCount: 0) { numbering in
            _ = numbering.add(root)
            return [UInt8](unsafeUninitializedCapacity: numbering.capacity) { buffer, initializedCount in
                initializedCount = numbering.encode(into: buffer)
            }
        }
    }

    /// Encodes the property list whose top-level value is `root` in the binary format, in chunks:
    /// each time about `chunkSize` bytes are collected they go to `flush`, and the rest is
    /// returned. The bytes, in order, are those ``write(root:)`` returns.
    package func write(root: Value, chunkSize: Int, flush: @escaping ([UInt8]) -> Void) -> [UInt8] {
        BinaryBuilderNumbering.withNumbering(of: self, uidCount: 0) { numbering in
            _ = numbering.add(root)
            return numbering.encode(chunkSize: chunkSize, flush: flush)
        }
    }

    /// Encodes the property list whose top-level value is `root` in the binary format, as
    /// ``write(root:)`` does, straight into `Data`.
    /// - Parameters:
    ///   - root: The top-level value.
    ///   - uidCount: How many UIDs, from 0, the values likely hold (such as an archive's object
    ///     count), to size the index that shares them; it grows as needed.
    /// - Returns: The bytes of the file, starting with `bplist00`.
    package func writeData(root: Value, uidCount: Int = 0) -> Data {
        BinaryBuilderNumbering.withNumbering(of: self, uidCount: uidCount) { numbering in
            _ = numbering.add(root)
            // Written into uninitialized memory that the Data then owns: `Data(count:)` would zero
            // the whole upper bound first, touching pages the file never reaches.
            let capacity = numbering.capacity
            let bytes = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: capacity)
            let count = numbering.encode(into: bytes)
            guard let base = bytes.baseAddress, count > 0 else {
                bytes.deallocate()
                return Data()
            }
            return Data(bytesNoCopy: base, count: count, deallocator: .custom { pointer, _ in pointer.deallocate() })
        }
    }
}
