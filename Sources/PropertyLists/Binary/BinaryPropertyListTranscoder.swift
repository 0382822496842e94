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
                try self.withObjects { objects, buffer throws(PropertyListError) in
                    // Check everything first, so that invalid input fails before any output.
                    var transcoder = BinaryPropertyListTranscoder(reader: self, objects: objects, buffer: buffer)
                    try transcoder.validate(self.topObjectIndex)
                    transcoder = BinaryPropertyListTranscoder(reader: self, objects: objects, buffer: buffer)
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
    /// under Unicode canonical equivalence stay separate objects. The objects are numbered and
    /// written by the writer of trees and coders; memory stays at the input plus about 16 bytes per
    /// value written, each distinct string and data value once more, and one chunk.
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
            try self.withObjects { objects, buffer throws(PropertyListError) in
                var transcoder = BinaryPropertyListTranscoder(reader: self, objects: objects, buffer: buffer)
                // Strings only canonically equivalent stay apart, as the interner tells them apart.
                var builder = BinaryPropertyListBuilder()
                builder.mergesEquivalentStrings = false
                // Most rewrites write about as many values as the input has objects, and more.
                builder.items.reserveCapacity(2 * self.objectCount)
                let root = try transcoder.add(self.topObjectIndex, into: &builder)
                let rest = builder.write(root: root, chunkSize: max(chunkSize, 1)) { chunk in
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
/// the decoded size of everything it visits, as the tree builder does, against
/// ``PropertyListLimits/decodedSizeBudget(forInputSize:)``: a "billion laughs" input fails fast,
/// before anything is written, instead of writing without end. Strings, data and containers are
/// checked against their length limits too.
internal struct BinaryPropertyListTranscoder {
    let buffer: UnsafeBufferPointer<UInt8>
    /// Reads each object: its marker, its bounds and the limits on its length.
    let objects: InPlaceReader
    let objectCount: Int
    let referenceSize: Int
    let maximumDepth: Int
    let limits: PropertyListLimits
    let decodedSizeBudget: Int
    var inProgress: [Bool]
    var depth = 0
    /// Stops recursion before the thread's stack runs out.
    var stack = StackGuard()
    /// The decoded size of everything visited so far, shared objects counted at every reference.
    var decodedSize = 0

    /// The strings a binary rewrite has added to its builder, found by their bytes in the input.
    var interner: BinaryLeafInterner
    /// The values of the containers a binary rewrite is adding, innermost last, each moved into the
    /// builder when its container ends: one stack for the whole walk, where an array per container
    /// made an allocation each.
    var pendingValues: [BinaryPropertyListBuilder.Value] = []
    /// The references of the values of the dictionaries a binary rewrite is adding, innermost last.
    var pendingReferences: [Int] = []
    /// The entries of the dictionaries an XML rewrite is writing, innermost last (the emitter keeps
    /// the order it writes them in): one stack for the whole walk, where arrays per dictionary made
    /// three allocations or more each.
    var pendingEntries: [(key: String, value: Int)] = []
    /// Where each key of the dictionary being read was found, for duplicate keys; emptied for each
    /// dictionary, its storage kept.
    var keyPositions: [String: Int] = [:]

    init(reader: BinaryPropertyListReader, objects: InPlaceReader, buffer: UnsafeBufferPointer<UInt8>) {
        self.buffer = buffer
        self.objects = objects
        self.objectCount = reader.objectCount
        self.referenceSize = reader.referenceSize
        self.maximumDepth = reader.limits.maximumDepth
        self.limits = reader.limits
        self.decodedSizeBudget = reader.limits.decodedSizeBudget(forInputSize: reader.bytes.count)
        self.inProgress = [Bool](repeating: false, count: reader.objectCount)
        self.interner = BinaryLeafInterner(buffer: buffer)
    }

    // MARK: - Reading

    /// The header of the object at `index` and its offset.
    func header(of index: Int) throws(PropertyListError) -> (header: ObjectHeader, offset: Int) {
        try self.objects.header(at: index)
    }

    @inline(__always)
    func reference(at offset: Int) -> Int {
        Int(truncatingIfNeeded: ObjectHeader.bigEndian(self.buffer, at: offset, width: self.referenceSize))
    }

    /// The value of a leaf object. Containers are never passed here; they would be rejected as keys.
    func leafValue(_ header: ObjectHeader) throws(PropertyListError) -> PropertyListValue {
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
    func string(_ header: ObjectHeader) throws(PropertyListError) -> String {
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

    mutating func enter(_ index: Int, at offset: Int) throws(PropertyListError) {
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
        if !self.stack.hasRoom() {
            throw PropertyListError(
                .depthLimitExceeded,
                offset: offset,
                reason: "containers nest \(self.depth) deep, more than the thread's stack has room for"
            )
        }
        self.inProgress[index] = true
    }

    mutating func leave(_ index: Int) {
        self.inProgress[index] = false
        self.depth -= 1
    }

    /// Adds a visited object's decoded size (see `PropertyListLimits`), throwing once the total
    /// exceeds the budget.
    mutating func countDecoded(_ header: ObjectHeader, at offset: Int) throws(PropertyListError) {
        var size = PropertyListLimits.decodedValueSize
        switch header.kind {
        case .data, .asciiString: size &+= header.count
        case .utf16String: size &+= 2 * header.count
        default: break
        }
        // Both are at most the budget plus one string, far below `Int.max / 2`.
        self.decodedSize &+= size
        guard self.decodedSize <= self.decodedSizeBudget else {
            throw PropertyListError(
                .decodedSizeLimitExceeded,
                offset: offset,
                reason: "with shared objects repeated, the value would exceed \(self.decodedSizeBudget) decoded bytes"
            )
        }
    }

    // MARK: - Checking

    /// Checks the object at `index` and its descendants as the tree builder would, writing nothing.
    mutating func validate(_ index: Int) throws(PropertyListError) {
        let (header, offset) = try self.header(of: index)
        try self.countDecoded(header, at: offset)
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
                _ = try self.keyHeader(self.reference(at: keyPosition), ofDictionaryAt: offset)
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

    /// The header of a dictionary's key, counted towards the decoded size and checked to be a
    /// valid string.
    mutating func keyHeader(_ keyIndex: Int, ofDictionaryAt offset: Int) throws(PropertyListError) -> ObjectHeader {
        let key = try self.header(of: keyIndex).header
        try self.countDecoded(key, at: offset)
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
        return key
    }

    /// Throws ``PropertyListError/Code/invalidString`` if an ASCII string holds a byte above 0x7F.
    func checkASCII(_ header: ObjectHeader) throws(PropertyListError) {
        var high: UInt8 = 0
        for byte in self.buffer[header.payload..<(header.payload + header.count)] { high |= byte }
        guard high < 0x80 else {
            throw PropertyListError(.invalidString, offset: header.payload, reason: "non-ASCII byte in an ASCII string")
        }
    }
}
