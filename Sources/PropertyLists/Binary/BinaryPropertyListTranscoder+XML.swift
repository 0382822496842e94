//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-keyed-archive open source project
//
// Licensed under Apache License v2.0
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

extension BinaryPropertyListTranscoder {
    /// The keys (decoded) and value indexes of a dictionary, a repeated key keeping its first
    /// position and its last value, as ``PropertyListDictionary`` reads them.
    func dictionaryEntries(
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

    /// Writes the object at `index` and its descendants; stops early once `stopped()` is true.
    mutating func emitXML(
        _ index: Int,
        depth: Int,
        into emitter: inout XMLPlistEmitter,
        stopped: () -> Bool
    ) throws(PropertyListError) {
        let (header, offset) = try self.header(of: index)
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
}
