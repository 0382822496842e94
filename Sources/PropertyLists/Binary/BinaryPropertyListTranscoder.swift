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

extension BinaryPropertyListReader {
    /// Writes this property list as XML, in chunks, without building its tree.
    ///
    /// The bytes are those `XMLPropertyListWriter` writes for ``topLevelValue()``, and the same
    /// checks apply (depth, cycles, keys, strings), but memory stays at the input, one byte per
    /// object, and one chunk: objects are read from the input as the walk reaches them.
    /// - Parameters:
    ///   - chunkSize: About how many bytes to collect before calling `sink`. Defaults to 1 MiB.
    ///   - sink: Receives each chunk; writing stops at its first error.
    /// - Throws: ``PropertyListError`` for invalid input (before any byte is written), or the first
    ///   error `sink` throws.
    public func writeXML(chunkSize: Int = 1 << 20, to sink: ([UInt8]) throws -> Void) throws {
        var sinkError: (any Error)?
        do {
            try withoutActuallyEscaping(sink) { sink throws(PropertyListError) in
                var emitter = XMLPlistEmitter()
                emitter.chunkSize = max(chunkSize, 1)
                emitter.flush = { chunk in
                    guard sinkError == nil else { return }
                    do { try sink(chunk) } catch { sinkError = error }
                }
                try self.bytes.withUnsafeBufferPointer { buffer throws(PropertyListError) in
                    // Check everything first, so that invalid input fails before any output.
                    var transcoder = BinaryPropertyListTranscoder(reader: self, buffer: buffer)
                    try transcoder.validate(self.topObjectIndex)
                    transcoder = BinaryPropertyListTranscoder(reader: self, buffer: buffer)
                    emitter.appendHeader()
                    try transcoder.emitXML(self.topObjectIndex, depth: 0, into: &emitter) { sinkError != nil }
                    emitter.append("</plist>\n")
                }
                emitter.flushNow()
            }
        } catch {
            throw sinkError ?? error
        }
        if let sinkError { throw sinkError }
    }

    /// Writes this property list as a binary property list, in chunks, without building its tree.
    ///
    /// The bytes are those `BinaryPropertyListWriter` writes for ``topLevelValue()`` (equal leaves
    /// written once, CoreFoundation's object order and widths), except that strings equal only
    /// under Unicode canonical equivalence stay separate objects. Memory stays at the input plus
    /// about 16 bytes per object written and 24 per distinct leaf.
    /// - Parameters:
    ///   - chunkSize: About how many bytes to collect before calling `sink`. Defaults to 1 MiB.
    ///   - sink: Receives each chunk; writing stops at its first error.
    /// - Throws: ``PropertyListError`` for invalid input (before any byte is written), or the first
    ///   error `sink` throws.
    public func writeBinary(chunkSize: Int = 1 << 20, to sink: ([UInt8]) throws -> Void) throws {
        guard self.bytes.count <= UInt32.max else {
            throw PropertyListError(
                .sizeLimitExceeded,
                reason: "streaming a binary rewrite needs an input under 4 GiB; parse and write the value instead"
            )
        }
        var sinkError: (any Error)?
        try withoutActuallyEscaping(sink) { sink in
            try self.bytes.withUnsafeBufferPointer { buffer throws(PropertyListError) in
                var transcoder = BinaryPropertyListTranscoder(reader: self, buffer: buffer)
                _ = try transcoder.add(self.topObjectIndex)
                let rest = transcoder.encodeBinary(chunkSize: max(chunkSize, 1)) { chunk in
                    guard sinkError == nil else { return }
                    do { try sink(chunk) } catch { sinkError = error }
                }
                if sinkError == nil, !rest.isEmpty {
                    do { try sink(rest) } catch { sinkError = error }
                }
            }
        }
        if let sinkError { throw sinkError }
    }
}

/// Walks a validated binary property list from an object, writing it as XML or collecting the
/// objects of a binary rewrite, with the checks of ``BinaryTreeBuilder``: references in range,
/// string keys, valid strings, nesting no deeper than the limit, and no container inside itself.
///
/// Shared containers are written once per reference, as the tree writers do, so the walk counts
/// every object it writes against ``PropertyListLimits/maximumObjectCount``: a "billion laughs"
/// input fails fast instead of writing without end.
internal struct BinaryPropertyListTranscoder {
    /// One object of the binary output: a leaf (``first`` is its input index) or a container
    /// (``first`` is where its references start in ``references``, ``count`` how many entries).
    struct Entry {
        enum Kind: UInt8 { case leaf, array, dictionary }
        var kind: Kind
        var first: UInt32
        var count: UInt32
    }

    private let buffer: UnsafeBufferPointer<UInt8>
    private let objectCount: Int
    private let offsetTable: Int
    private let offsetSize: Int
    private let referenceSize: Int
    private let maximumDepth: Int
    private let maximumOutput: Int
    private var inProgress: [Bool]
    private var depth = 0
    /// Objects written so far (XML), for the output limit.
    private var written = 0

    private var entries: [Entry] = []
    private var references: [UInt32] = []
    private var interner: BinaryLeafInterner

    init(reader: BinaryPropertyListReader, buffer: UnsafeBufferPointer<UInt8>) {
        self.buffer = buffer
        self.objectCount = reader.objectCount
        self.offsetTable = reader.offsetTableOffset
        self.offsetSize = reader.offsetSize
        self.referenceSize = reader.referenceSize
        self.maximumDepth = reader.limits.maximumDepth
        self.maximumOutput = Self.outputLimit(for: reader)
        self.inProgress = [Bool](repeating: false, count: reader.objectCount)
        self.interner = BinaryLeafInterner(buffer: buffer)
        // Most rewrites write about as many objects as they read.
        self.entries.reserveCapacity(reader.objectCount)
    }

    /// The most objects a rewrite of `reader` may write.
    static func outputLimit(for reader: BinaryPropertyListReader) -> Int {
        Int(UInt32.max) - 1
    }

    // MARK: - Reading

    /// The header of the object at `index` and its offset.
    private func header(of index: Int) throws(PropertyListError) -> (header: ObjectHeader, offset: Int) {
        guard index >= 0, index < self.objectCount else {
            throw PropertyListError(
                .invalidReference,
                reason: "object reference \(UInt(bitPattern: index)) is not below the object count \(self.objectCount)"
            )
        }
        let offset = Int(
            truncatingIfNeeded: ObjectHeader.bigEndian(
                self.buffer,
                at: self.offsetTable + index * self.offsetSize,
                width: self.offsetSize
            )
        )
        let header = try ObjectHeader(self.buffer, at: offset, end: self.offsetTable, referenceSize: self.referenceSize)
        return (header, offset)
    }

    @inline(__always)
    private func reference(at offset: Int) -> Int {
        Int(truncatingIfNeeded: ObjectHeader.bigEndian(self.buffer, at: offset, width: self.referenceSize))
    }

    /// The value of a leaf object. Containers are never passed here; they would be rejected as keys.
    private func leafValue(_ header: ObjectHeader) throws(PropertyListError) -> PropertyListValue {
        switch header.kind {
        case .bool(let bool): return .bool(bool)
        case .integer(let integer): return .integer(integer)
        case .real(let real): return .real(real)
        case .float(let float): return .float(float)
        case .date(let seconds): return .date(Date(timeIntervalSinceReferenceDate: seconds))
        case .uid(let uid): return .uid(UID(uid))
        case .data:
            return .data(
                Data(UnsafeBufferPointer(rebasing: self.buffer[header.payload..<(header.payload + header.count)]))
            )
        case .asciiString, .utf16String, .array, .dictionary:
            return .string(try self.string(header))
        }
    }

    /// The string of a string header; anything else throws ``PropertyListError/Code/invalidDictionaryKey``,
    /// since strings are only asked for where keys are read.
    private func string(_ header: ObjectHeader) throws(PropertyListError) -> String {
        switch header.kind {
        case .asciiString:
            return try ObjectHeader.decodeString(
                self.buffer,
                range: header.payload..<(header.payload + header.count),
                isUTF16: false
            )
        case .utf16String:
            return try ObjectHeader.decodeString(
                self.buffer,
                range: header.payload..<(header.payload + 2 * header.count),
                isUTF16: true
            )
        default:
            throw PropertyListError(.invalidDictionaryKey, reason: "not a string")
        }
    }

    private mutating func enter(_ index: Int, at offset: Int) throws(PropertyListError) {
        if self.inProgress[index] {
            throw PropertyListError(.cyclicReference, offset: offset, reason: "object \(index) contains itself")
        }
        self.depth += 1
        if self.depth > self.maximumDepth {
            throw PropertyListError(
                .depthLimitExceeded,
                offset: offset,
                reason: "containers nest deeper than \(self.maximumDepth)"
            )
        }
        self.inProgress[index] = true
    }

    private mutating func leave(_ index: Int) {
        self.inProgress[index] = false
        self.depth -= 1
    }

    private mutating func countWritten(at offset: Int) throws(PropertyListError) {
        self.written += 1
        if self.written > self.maximumOutput { throw self.outputLimitError(at: offset) }
    }

    private func outputLimitError(at offset: Int) -> PropertyListError {
        PropertyListError(
            .sizeLimitExceeded,
            offset: offset,
            reason: "writing needs more than \(self.maximumOutput) objects (containers shared too often?)"
        )
    }

    /// The keys (decoded) and value indexes of a dictionary, a repeated key keeping its first
    /// position and its last value, as ``PropertyListDictionary`` reads them.
    private func dictionaryEntries(
        _ header: ObjectHeader,
        at offset: Int
    ) throws(PropertyListError) -> [(key: String, value: Int)] {
        var entries: [(key: String, value: Int)] = []
        entries.reserveCapacity(header.count)
        var positions: [String: Int] = [:]
        var keyPosition = header.payload
        var valuePosition = header.payload + header.count * self.referenceSize
        for _ in 0..<header.count {
            let keyIndex = self.reference(at: keyPosition)
            let key: String
            do {
                key = try self.string(try self.header(of: keyIndex).header)
            } catch {
                guard error.code == .invalidDictionaryKey else { throw error }
                throw PropertyListError(
                    .invalidDictionaryKey,
                    offset: offset,
                    reason: "dictionary key (object \(keyIndex)) is not a string"
                )
            }
            let value = self.reference(at: valuePosition)
            if header.count > 1, let earlier = positions.updateValue(entries.count, forKey: key) {
                positions[key] = earlier
                entries[earlier].value = value
            } else {
                entries.append((key, value))
            }
            keyPosition &+= self.referenceSize
            valuePosition &+= self.referenceSize
        }
        return entries
    }

    // MARK: - Checking

    /// Checks the object at `index` and its descendants as the tree builder would, writing nothing.
    mutating func validate(_ index: Int) throws(PropertyListError) {
        let (header, offset) = try self.header(of: index)
        try self.countWritten(at: offset)
        switch header.kind {
        case .array:
            try self.enter(index, at: offset)
            var position = header.payload
            for _ in 0..<header.count {
                try self.validate(self.reference(at: position))
                position &+= self.referenceSize
            }
            self.leave(index)
        case .dictionary:
            try self.enter(index, at: offset)
            var keyPosition = header.payload
            var valuePosition = header.payload + header.count * self.referenceSize
            for _ in 0..<header.count {
                let keyIndex = self.reference(at: keyPosition)
                let key = try self.header(of: keyIndex).header
                switch key.kind {
                case .asciiString: try self.checkASCII(key)
                case .utf16String: break
                default:
                    throw PropertyListError(
                        .invalidDictionaryKey,
                        offset: offset,
                        reason: "dictionary key (object \(keyIndex)) is not a string"
                    )
                }
                try self.validate(self.reference(at: valuePosition))
                keyPosition &+= self.referenceSize
                valuePosition &+= self.referenceSize
            }
            self.leave(index)
        case .asciiString:
            try self.checkASCII(header)
        default:
            break
        }
    }

    /// Throws ``PropertyListError/Code/invalidString`` if an ASCII string holds a byte above 0x7F.
    private func checkASCII(_ header: ObjectHeader) throws(PropertyListError) {
        var high: UInt8 = 0
        for byte in self.buffer[header.payload..<(header.payload + header.count)] { high |= byte }
        guard high < 0x80 else {
            throw PropertyListError(.invalidString, offset: header.payload, reason: "non-ASCII byte in an ASCII string")
        }
    }

    // MARK: - XML

    /// Writes the object at `index` and its descendants; stops early once `stopped()` is true.
    mutating func emitXML(
        _ index: Int,
        depth: Int,
        into emitter: inout XMLPlistEmitter,
        stopped: () -> Bool
    ) throws(PropertyListError) {
        let (header, offset) = try self.header(of: index)
        try self.countWritten(at: offset)
        switch header.kind {
        case .array:
            try self.enter(index, at: offset)
            emitter.indent(depth)
            guard header.count > 0 else {
                emitter.append("<array/>\n")
                self.leave(index)
                return
            }
            emitter.append("<array>\n")
            var position = header.payload
            for _ in 0..<header.count {
                try self.emitXML(self.reference(at: position), depth: depth + 1, into: &emitter, stopped: stopped)
                if stopped() { return }
                emitter.flushIfFull()
                position &+= self.referenceSize
            }
            emitter.indent(depth)
            emitter.append("</array>\n")
            self.leave(index)
        case .dictionary:
            try self.enter(index, at: offset)
            let entries = try self.dictionaryEntries(header, at: offset)
            emitter.indent(depth)
            guard !entries.isEmpty else {
                emitter.append("<dict/>\n")
                self.leave(index)
                return
            }
            emitter.append("<dict>\n")
            var order = Array(entries.indices)
            order.sort { XMLPlistEmitter.precedesInUTF16Order(entries[$0].key, entries[$1].key) }
            for position in order {
                emitter.indent(depth + 1)
                emitter.append("<key>")
                emitter.appendEscaped(entries[position].key)
                emitter.append("</key>\n")
                try self.emitXML(entries[position].value, depth: depth + 1, into: &emitter, stopped: stopped)
                if stopped() { return }
                emitter.flushIfFull()
            }
            emitter.indent(depth)
            emitter.append("</dict>\n")
            self.leave(index)
        default:
            emitter.emit(try self.leafValue(header), depth: depth)
        }
    }

    // MARK: - Binary

    /// Adds the object at `index` and its descendants to the output, in CoreFoundation's order;
    /// returns its output index.
    mutating func add(_ index: Int) throws(PropertyListError) -> UInt32 {
        let (header, offset) = try self.header(of: index)
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
                let key = try self.header(of: keyIndex).header
                switch key.kind {
                case .asciiString, .utf16String: break
                default:
                    throw PropertyListError(
                        .invalidDictionaryKey,
                        offset: offset,
                        reason: "dictionary key (object \(keyIndex)) is not a string"
                    )
                }
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
    private static func position(of key: UInt32, in keys: [UInt32]) -> Int? {
        keys.firstIndex(of: key)
    }

    private mutating func appendEntry(_ entry: Entry, at offset: Int) throws(PropertyListError) -> UInt32 {
        guard self.entries.count < self.maximumOutput else { throw self.outputLimitError(at: offset) }
        self.entries.append(entry)
        return UInt32(truncatingIfNeeded: self.entries.count - 1)
    }

    /// Interns a leaf: returns the output index of an equal leaf written before, or adds this one.
    private mutating func addLeaf(_ index: Int, _ header: ObjectHeader) throws(PropertyListError) -> UInt32 {
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
        var out = BinaryOutput()
        out.chunkSize = chunkSize
        out.flush = flush
        let estimate = 64 + self.entries.count * 16
        out.bytes.reserveCapacity(chunkSize >= estimate ? estimate : chunkSize + 4096)
        out.bytes.append(contentsOf: BinaryPropertyListMagic.header)
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
    private func appendLeaf(input index: Int, to out: inout BinaryOutput) {
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
