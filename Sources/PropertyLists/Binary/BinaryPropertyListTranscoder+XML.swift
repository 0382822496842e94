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
    /// Reads the keys (decoded) and value indexes of a dictionary onto ``pendingEntries``, a
    /// repeated key keeping its first position and its last value, as ``PropertyListDictionary``
    /// reads them.
    /// - Returns: How many entries were added.
    mutating func pushDictionaryEntries(
        _ header: ObjectHeader,
        at offset: Int
    ) throws(PropertyListError) -> Int {
        let start = self.pendingEntries.count
        if header.count > 1 { self.keyPositions.removeAll(keepingCapacity: true) }
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
            let position = self.pendingEntries.count
            if header.count > 1, let earlier = self.keyPositions.updateValue(position, forKey: key) {
                self.keyPositions[key] = earlier
                self.pendingEntries[earlier].value = value
            } else {
                self.pendingEntries.append((key, value))
            }
            keyPosition &+= self.referenceSize
            valuePosition &+= self.referenceSize
        }
        return self.pendingEntries.count - start
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
            let start = self.pendingEntries.count
            let count = try self.pushDictionaryEntries(header, at: offset)
            emitter.indent(depth)
            guard count > 0 else {
                emitter.append("<dict/>\n")
                self.leave(index)
                return
            }
            emitter.append("<dict>\n")
            let slots = XMLPlistEmitter.appendSorted(start..<(start + count), to: &emitter.keyOrder) {
                self.pendingEntries[$0].key
            }
            for slot in slots {
                let position = emitter.keyOrder[slot]
                emitter.indent(depth + 1)
                emitter.append("<key>")
                emitter.appendEscaped(self.pendingEntries[position].key)
                emitter.append("</key>\n")
                try self.emitXML(
                    self.pendingEntries[position].value,
                    depth: depth + 1,
                    into: &emitter,
                    stopped: stopped
                )
                if stopped() { return }
                emitter.flushIfFull()
            }
            emitter.keyOrder.removeSubrange(slots)
            self.pendingEntries.removeSubrange(start...)
            emitter.indent(depth)
            emitter.append("</dict>\n")
            self.leave(index)
        default:
            emitter.emit(try self.leafValue(header), depth: depth)
        }
    }
}
