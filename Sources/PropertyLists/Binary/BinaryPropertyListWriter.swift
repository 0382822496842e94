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
import FoundationEssentials
#else
import Foundation
#endif

/// Writes binary (`bplist00`) property lists the way CoreFoundation does.
///
/// A tree is written through the coders' writer: its values go into a `BinaryPropertyListBuilder`,
/// whose numbering shares equal leaves and writes the file.
///
/// Objects are numbered in CoreFoundation's order: a container before its contents, and a
/// dictionary's keys before its values. Equal leaf values (strings, numbers, dates, data, Booleans
/// and UIDs) are written once and referenced from every place they occur. Integers, offsets and
/// references use the fewest bytes that hold them; ASCII strings are stored as ASCII and others as
/// UTF-16BE. The same value always produces the same bytes.
public struct BinaryPropertyListWriter: Sendable {
    /// Creates a writer.
    public init() {}

    /// Encodes `value` as a binary property list.
    /// - Parameter value: The top-level value.
    /// - Returns: The bytes of the file, starting with `bplist00`.
    public func write(_ value: PropertyListValue) -> [UInt8] {
        var tree = BinaryTreeFlattener()
        let root = tree.append(value)
        return tree.builder.write(root: root)
    }

    /// Encodes `value` in chunks, so the file never sits in memory at once.
    ///
    /// The bytes passed to `sink`, in order, are exactly those ``write(_:)`` returns.
    /// - Parameters:
    ///   - value: The top-level value.
    ///   - chunkSize: About how many bytes to collect before calling `sink`. Defaults to 1 MiB.
    ///   - sink: Receives each chunk; writing stops at its first error.
    /// - Throws: The first error `sink` throws.
    public func write(_ value: PropertyListValue, chunkSize: Int = 1 << 20, to sink: ([UInt8]) throws -> Void) throws {
        var tree = BinaryTreeFlattener()
        let root = tree.append(value)
        let builder = tree.builder
        var firstError: (any Error)?
        withoutActuallyEscaping(sink) { sink in
            let rest = builder.write(root: root, chunkSize: max(chunkSize, 1)) { chunk in
                guard firstError == nil else { return }
                do { try sink(chunk) } catch { firstError = error }
            }
            if firstError == nil, !rest.isEmpty {
                do { try sink(rest) } catch { firstError = error }
            }
        }
        if let firstError { throw firstError }
    }
}

/// A tree's values put into a ``BinaryPropertyListBuilder``: the contents of each container before
/// it, as the builder keeps them.
private struct BinaryTreeFlattener {
    typealias Value = BinaryPropertyListBuilder.Value

    var builder = BinaryPropertyListBuilder()
    /// Strings met last, by identity: a tree read from a file shares one `String` for every
    /// occurrence of a key, which this finds without hashing its characters.
    private var recentStrings = StringIdentityCache()
    /// The values of the containers being flattened, innermost last, each moved into the builder
    /// when its container ends: one stack for the whole tree, where an array per container made an
    /// allocation each.
    private var pending: [Value] = []

    /// Appends `value`'s contents and returns the value.
    mutating func append(_ value: PropertyListValue) -> Value {
        switch value {
        case .string(let string):
            return .string(id: self.stringID(string))
        case .integer(let integer):
            return .integer(integer)
        case .real(let real):
            return .real(real)
        case .float(let float):
            return .float(float)
        case .bool(let bool):
            return .bool(bool)
        case .date(let date):
            return Value(kind: .date, payload: date.timeIntervalSinceReferenceDate.bitPattern)
        case .data(let data):
            return Value(kind: .data, payload: UInt64(self.builder.dataID(for: data)))
        case .uid(let uid):
            return .uid(uid.rawValue)
        case .array(let elements):
            let start = self.pending.count
            for element in elements {
                let element = self.append(element)
                self.pending.append(element)
            }
            return self.moveArray(from: start)
        case .dictionary(let dictionary):
            // Keys and values alternate on the stack, so that strings are met in the tree's order.
            let start = self.pending.count
            for entry in dictionary {
                let key = Value.string(id: self.stringID(entry.key))
                let value = self.append(entry.value)
                self.pending.append(key)
                self.pending.append(value)
            }
            return self.moveDictionary(from: start)
        }
    }

    /// Moves the elements pushed on ``pending`` since `start` into the builder as an array.
    private mutating func moveArray(from start: Int) -> Value {
        let itemsStart = self.builder.items.count
        self.builder.items.append(contentsOf: self.pending[start...])
        let count = UInt32(truncatingIfNeeded: self.pending.count - start)
        self.pending.removeSubrange(start...)
        return Value(kind: .array, payload: UInt64(itemsStart), count: count)
    }

    /// Moves the keys and values pushed on ``pending`` since `start`, alternating, into the
    /// builder as a dictionary: its keys, then its values.
    private mutating func moveDictionary(from start: Int) -> Value {
        let itemsStart = self.builder.items.count
        let end = self.pending.count
        for index in stride(from: start, to: end, by: 2) { self.builder.items.append(self.pending[index]) }
        for index in stride(from: start + 1, to: end, by: 2) { self.builder.items.append(self.pending[index]) }
        self.pending.removeSubrange(start...)
        let count = UInt32(truncatingIfNeeded: (end - start) / 2)
        return Value(kind: .dictionary, payload: UInt64(itemsStart), count: count)
    }

    @inline(__always)
    private mutating func stringID(_ string: String) -> UInt32 {
        if let id = self.recentStrings[string] { return UInt32(truncatingIfNeeded: id) }
        let id = self.builder.strings.id(for: string)
        self.recentStrings[string] = Int(id)
        return id
    }
}

/// Byte-level encoding of binary property list objects.
internal struct BinaryOutput: BinaryObjectOutput {
    var bytes: [UInt8] = []
    /// Where full chunks go when writing in chunks; `nil` keeps everything in ``bytes``.
    var flush: (([UInt8]) -> Void)?
    var chunkSize = Int.max
    /// Bytes already handed to ``flush``.
    var flushed = 0

    /// An output that has written the `bplist00` header, for a file of `objectCount` objects; with
    /// `flush`, handing over every `chunkSize` bytes.
    init(objectCount: Int, chunkSize: Int, flush: (([UInt8]) -> Void)?) {
        self.chunkSize = chunkSize
        self.flush = flush
        // The whole file's estimate, or one chunk and a little when writing in chunks.
        let estimate = 64 + objectCount * 16
        self.bytes.reserveCapacity(chunkSize >= estimate ? estimate : chunkSize + 4096)
        self.bytes.append(contentsOf: BinaryPropertyListMagic.header)
    }

    /// The offset in the file of the next byte appended.
    var position: Int { self.flushed + self.bytes.count }

    /// Appends one byte.
    @inline(__always)
    mutating func append(_ byte: UInt8) {
        self.bytes.append(byte)
    }

    /// Appends bytes.
    @inline(__always)
    mutating func append(contentsOf bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes.append(contentsOf: bytes)
    }

    /// Appends a run of references or offsets, each in `width` bytes, most significant first.
    @inline(__always)
    mutating func appendBigEndian<T: FixedWidthInteger>(contentsOf values: UnsafeBufferPointer<T>, width: Int) {
        for value in values {
            self.appendBigEndian(UInt64(truncatingIfNeeded: value), width: width)
        }
    }

    /// Hands ``bytes`` to ``flush`` once there are ``chunkSize`` of them.
    @inline(__always)
    mutating func flushIfFull() {
        guard self.bytes.count >= self.chunkSize, let flush else { return }
        flush(self.bytes)
        self.flushed += self.bytes.count
        self.bytes.removeAll(keepingCapacity: true)
    }

    /// Appends the offset table and the trailer, the top object being object 0.
    mutating func appendOffsetTableAndTrailer(_ offsets: [UInt64], objectCount: Int, referenceSize: Int) {
        let tableOffset = self.position
        let offsetSize = Self.width(forMaximum: UInt64(tableOffset))
        for offset in offsets {
            self.appendBigEndian(offset, width: offsetSize)
            self.flushIfFull()
        }
        // Trailer: five unused bytes, the sort version, the two widths, then three 64-bit fields.
        self.bytes.append(contentsOf: repeatElement(0, count: 5))
        self.bytes.append(0)
        self.bytes.append(UInt8(offsetSize))
        self.bytes.append(UInt8(referenceSize))
        self.appendBigEndian(UInt64(objectCount), width: 8)
        self.appendBigEndian(0, width: 8)
        self.appendBigEndian(UInt64(tableOffset), width: 8)
    }

    /// The width CoreFoundation uses for a value up to `maximum`: 1, 2, 4 or 8 bytes.
    static func width(forMaximum maximum: UInt64) -> Int {
        if maximum < 1 << 8 { return 1 }
        if maximum < 1 << 16 { return 2 }
        if maximum < 1 << 32 { return 4 }
        return 8
    }

    @inline(__always)
    mutating func appendBigEndian(_ value: UInt64, width: Int) {
        var shift = (width - 1) * 8
        while shift >= 0 {
            self.bytes.append(UInt8(truncatingIfNeeded: value >> UInt64(shift)))
            shift -= 8
        }
    }

    /// Appends a marker whose low nibble is the count, or 0xF followed by an integer object.
    mutating func appendMarker(_ marker: UInt8, count: Int) {
        if count < 15 {
            self.bytes.append(marker | UInt8(count))
        } else {
            self.bytes.append(marker | 0x0F)
            self.appendUnsigned(UInt64(count))
        }
    }

    /// Appends a non-negative integer object in the fewest of 1, 2, 4 or 8 bytes (16 above `Int64.max`).
    mutating func appendUnsigned(_ value: UInt64) {
        if value > UInt64(Int64.max) {
            self.bytes.append(0x14)
            self.appendBigEndian(0, width: 8)
            self.appendBigEndian(value, width: 8)
            return
        }
        let width = Self.width(forMaximum: value)
        self.bytes.append(0x10 | UInt8(width.trailingZeroBitCount))
        self.appendBigEndian(value, width: width)
    }
}

/// A small direct-mapped cache from strings to numbers (string ids), keyed by the string's raw bytes.
///
/// Equal raw bytes mean equal strings: a small string keeps its UTF-8 inline, and a large one
/// points at its storage, which the value being written keeps alive. Equal strings with different
/// bytes (different storage) just miss, and the caller falls back to hashing. Where `String` is not
/// 16 bytes (32-bit platforms) the cache is always empty.
internal struct StringIdentityCache {
    private static let slotCount = 256
    private var keys = [(UInt64, UInt64)](repeating: (0, 0), count: StringIdentityCache.slotCount)
    private var indexes = [Int](repeating: -1, count: StringIdentityCache.slotCount)

    @inline(__always)
    private static func rawBytes(of string: String) -> (UInt64, UInt64)? {
        guard MemoryLayout<String>.size == 16 else { return nil }
        return withUnsafeBytes(of: string) { ($0.load(as: UInt64.self), $0.load(fromByteOffset: 8, as: UInt64.self)) }
    }

    @inline(__always)
    private static func slot(_ key: (UInt64, UInt64)) -> Int {
        let mixed = (key.0 ^ (key.1 &* 0x9E37_79B9_7F4A_7C15)) &* 0xBF58_476D_1CE4_E5B9
        return Int(truncatingIfNeeded: mixed >> 56) & (Self.slotCount - 1)
    }

    /// The index cached for `string`, or `nil`.
    subscript(string: String) -> Int? {
        get {
            guard let key = Self.rawBytes(of: string) else { return nil }
            let slot = Self.slot(key)
            let index = self.indexes[slot]
            return index >= 0 && self.keys[slot] == key ? index : nil
        }
        set {
            guard let key = Self.rawBytes(of: string), let newValue else { return }
            let slot = Self.slot(key)
            self.keys[slot] = key
            self.indexes[slot] = newValue
        }
    }
}
