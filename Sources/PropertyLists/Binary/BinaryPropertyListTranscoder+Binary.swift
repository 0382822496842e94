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

extension BinaryPropertyListTranscoder {
    /// Adds the object at `index` and its descendants to the output, in CoreFoundation's order;
    /// returns its output index.
    mutating func add(_ index: Int) throws(PropertyListError) -> UInt32 {
        let (header, offset) = try self.header(of: index)
        try self.countDecoded(header, at: offset)
        switch header.kind {
        case .array:
            try self.enter(index, at: offset)
            let output = try self.appendEntry(Entry(kind: .array, first: 0, count: UInt32(header.count)), at: offset)
            let start = self.references.count
            self.entries[Int(output)].first = UInt32(truncatingIfNeeded: start)
            self.references.append(contentsOf: repeatElement(0, count: header.count))
            var position = header.payload
            for element in 0..<header.count {
                self.references[start + element] = try self.add(self.reference(at: position))
                position &+= self.referenceSize
            }
            self.leave(index)
            return output
        case .dictionary:
            try self.enter(index, at: offset)
            let output = try self.appendEntry(Entry(kind: .dictionary, first: 0, count: 0), at: offset)
            var keys: [UInt32] = []
            var values: [Int] = []
            keys.reserveCapacity(header.count)
            values.reserveCapacity(header.count)
            var keyPosition = header.payload
            var valuePosition = header.payload + header.count * self.referenceSize
            for _ in 0..<header.count {
                let keyIndex = self.reference(at: keyPosition)
                let key = try self.keyHeader(keyIndex, ofDictionaryAt: offset)
                let keyOutput = try self.addLeaf(keyIndex, key)
                let value = self.reference(at: valuePosition)
                if let earlier = Self.position(of: keyOutput, in: keys) {
                    values[earlier] = value
                } else {
                    keys.append(keyOutput)
                    values.append(value)
                }
                keyPosition &+= self.referenceSize
                valuePosition &+= self.referenceSize
            }
            let start = self.references.count
            self.entries[Int(output)].first = UInt32(truncatingIfNeeded: start)
            self.entries[Int(output)].count = UInt32(keys.count)
            self.references.append(contentsOf: keys)
            self.references.append(contentsOf: repeatElement(0, count: keys.count))
            for (position, value) in values.enumerated() {
                self.references[start + keys.count + position] = try self.add(value)
            }
            self.leave(index)
            return output
        default:
            return try self.addLeaf(index, header)
        }
    }

    /// Where `key` already is among a dictionary's key outputs. Dictionaries are small, so a scan.
    static func position(of key: UInt32, in keys: [UInt32]) -> Int? {
        keys.firstIndex(of: key)
    }

    mutating func appendEntry(_ entry: Entry, at offset: Int) throws(PropertyListError) -> UInt32 {
        guard self.entries.count < Int(UInt32.max) else {
            throw PropertyListError(.sizeLimitExceeded, offset: offset, reason: "more than 2^32 - 1 objects to write")
        }
        self.entries.append(entry)
        return UInt32(truncatingIfNeeded: self.entries.count - 1)
    }

    /// Interns a leaf: returns the output index of an equal leaf written before, or adds this one.
    mutating func addLeaf(_ index: Int, _ header: ObjectHeader) throws(PropertyListError) -> UInt32 {
        let leaf: BinaryLeafInterner.Leaf
        switch header.kind {
        case .bool(let bool):
            leaf = .init(kind: .bool, scalar: bool ? 1 : 0)
        case .integer(let integer):
            if let signed = integer.int64Value, signed < 0 {
                leaf = .init(kind: .integer, scalar: UInt64(bitPattern: signed), isNegative: true)
            } else {
                leaf = .init(kind: .integer, scalar: integer.uint64Value ?? 0)
            }
        case .real(let real):
            leaf = .init(kind: .real, scalar: real.bitPattern)
        case .float(let float):
            leaf = .init(kind: .float, scalar: UInt64(float.bitPattern))
        case .date(let seconds):
            leaf = .init(kind: .date, scalar: seconds.bitPattern)
        case .uid(let uid):
            leaf = .init(kind: .uid, scalar: uid)
        case .data:
            leaf = .init(kind: .data, range: header.payload..<(header.payload + header.count))
        case .asciiString:
            try self.checkASCII(header)
            leaf = .init(kind: .asciiString, range: header.payload..<(header.payload + header.count))
        case .utf16String:
            leaf = .init(kind: .utf16String, range: header.payload..<(header.payload + 2 * header.count))
        case .array, .dictionary:
            return 0
        }
        let candidate = UInt32(truncatingIfNeeded: self.entries.count)
        let (output, inserted) = self.interner.intern(leaf, candidate: candidate)
        if inserted {
            _ = try self.appendEntry(Entry(kind: .leaf, first: UInt32(truncatingIfNeeded: index), count: 0), at: 0)
        }
        return output
    }

    /// Writes the collected objects; with `flush`, hands over every `chunkSize` bytes and returns the rest.
    func encodeBinary(chunkSize: Int, flush: (([UInt8]) -> Void)?) -> [UInt8] {
        var out = BinaryOutput(objectCount: self.entries.count, chunkSize: chunkSize, flush: flush)
        let referenceSize = BinaryOutput.width(forMaximum: UInt64(self.entries.count))
        var offsets = [UInt64]()
        offsets.reserveCapacity(self.entries.count)
        for entry in self.entries {
            offsets.append(UInt64(out.position))
            switch entry.kind {
            case .leaf:
                self.appendLeaf(input: Int(entry.first), to: &out)
            case .array, .dictionary:
                let count = Int(entry.count)
                out.appendMarker(entry.kind == .array ? 0xA0 : 0xD0, count: count)
                let start = Int(entry.first)
                let end = start + (entry.kind == .array ? count : 2 * count)
                for reference in self.references[start..<end] {
                    out.appendBigEndian(UInt64(reference), width: referenceSize)
                }
            }
            out.flushIfFull()
        }
        out.appendOffsetTableAndTrailer(offsets, objectCount: self.entries.count, referenceSize: referenceSize)
        return out.bytes
    }

    /// Writes a leaf as ``BinaryOutput/appendLeaf(_:)`` writes its value, reading it from the input.
    func appendLeaf(input index: Int, to out: inout BinaryOutput) {
        // The walk read this object's header already, so it is valid.
        guard let header = try? self.header(of: index).header else { return }
        switch header.kind {
        case .asciiString:
            out.appendMarker(0x50, count: header.count)
            out.bytes.append(contentsOf: self.buffer[header.payload..<(header.payload + header.count)])
        case .utf16String:
            let range = header.payload..<(header.payload + 2 * header.count)
            var units: [UInt16] = []
            units.reserveCapacity(header.count)
            var high: UInt16 = 0
            BinaryLeafInterner.forEachUnit(in: self.buffer, range: range, isUTF16: true) { unit in
                units.append(unit)
                high |= unit
            }
            if high < 0x80 {
                out.appendMarker(0x50, count: units.count)
                for unit in units { out.bytes.append(UInt8(truncatingIfNeeded: unit)) }
            } else {
                out.appendMarker(0x60, count: units.count)
                for unit in units {
                    out.bytes.append(UInt8(truncatingIfNeeded: unit >> 8))
                    out.bytes.append(UInt8(truncatingIfNeeded: unit))
                }
            }
        case .data:
            out.appendMarker(0x40, count: header.count)
            out.bytes.append(contentsOf: self.buffer[header.payload..<(header.payload + header.count)])
        default:
            if let value = try? self.leafValue(header) { out.appendLeaf(value) }
        }
    }
}
