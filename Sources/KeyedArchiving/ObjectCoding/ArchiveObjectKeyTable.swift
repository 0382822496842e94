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

/// What one decoding session knows about the keys of a type that reads its object itself: the
/// keys as stored (escaped UTF-8), and which key object sat at each position of the last objects
/// read, so that objects laid out alike map their entries to keys with one comparison each.
internal final class ArchiveObjectKeyTable {
    /// The keys, unescaped, as the type lists them.
    let names: [StaticString]
    /// The keys as stored in an object's own dictionary: escaped, in UTF-8.
    private let storedKeys: [[UInt8]]
    /// Each stored key's `InPlaceReader.hash(_:)`, which a key object's ASCII bytes are matched by
    /// before their bytes are compared.
    private let storedHashes: [UInt64]
    /// By entry position, the key object last found there, or -1.
    @exclusivity(unchecked) private var seenKeyObjects: [Int] = []
    /// By entry position, the index of the key that key object is, or -1 for none. After
    /// ``forgetKeyObjects()``, the key last seen at each position: a hint, checked against the next
    /// archive's key object by its bytes.
    @exclusivity(unchecked) private var seenKeys: [Int] = []

    /// How many entry positions are remembered: objects of a type have few keys, and a larger
    /// (hostile) object is mapped by comparing its keys.
    private static var positionLimit: Int { 64 }

    /// - Parameter keys: The keys as the type lists them, as stored (escaped, in UTF-8), and the
    ///   stored keys' hashes, which ``DecodedTypeFacts`` keeps.
    init(_ keys: (names: [StaticString], stored: [[UInt8]], hashes: [UInt64])) {
        self.names = keys.names
        self.storedKeys = keys.stored
        self.storedHashes = keys.hashes
    }

    /// The number of keys.
    var count: Int { self.names.count }

    /// Forgets which key objects sat where, for the next archive's objects, keeping which key
    /// sat at each position: archives of one type lay their objects out alike, and a key object
    /// whose bytes are the key's is that key, found with one comparison instead of a hash and a
    /// search.
    func forgetKeyObjects() {
        for position in self.seenKeyObjects.indices { self.seenKeyObjects[position] = -1 }
    }

    /// The index of the key whose string is the key object at `position` of an object, or -1 if
    /// it is none of them (`$class`, an unknown key, or not a string).
    @inline(__always)
    func keyIndex(ofKeyObject keyObject: Int, at position: Int, reader: InPlaceReader) -> Int {
        if position < self.seenKeyObjects.count, self.seenKeyObjects[position] == keyObject {
            return self.seenKeys[position]
        }
        return self.learnKeyIndex(ofKeyObject: keyObject, at: position, reader: reader)
    }

    @inline(never)
    private func learnKeyIndex(ofKeyObject keyObject: Int, at position: Int, reader: InPlaceReader) -> Int {
        if position < self.seenKeys.count, case let hint = self.seenKeys[position], hint >= 0,
            self.storedKeys[hint].withUnsafeBufferPointer({ reader.isString(keyObject, equalTo: $0) })
        {
            self.seenKeyObjects[position] = keyObject
            return hint
        }
        var found = -1
        // An ASCII key object (every key writers store) is compared only with the keys of its hash.
        let hash = reader.asciiStringHash(keyObject)
        for index in self.storedKeys.indices where hash == nil || self.storedHashes[index] == hash {
            let matches = self.storedKeys[index].withUnsafeBufferPointer { reader.isString(keyObject, equalTo: $0) }
            if matches {
                found = index
                break
            }
        }
        if position < Self.positionLimit {
            if self.seenKeyObjects.isEmpty {
                // Room for every key and `$class` at once: one allocation per list and session.
                let capacity = min(self.storedKeys.count + 1, Self.positionLimit)
                self.seenKeyObjects.reserveCapacity(capacity)
                self.seenKeys.reserveCapacity(capacity)
            }
            while self.seenKeyObjects.count <= position {
                self.seenKeyObjects.append(-1)
                self.seenKeys.append(-1)
            }
            self.seenKeyObjects[position] = keyObject
            self.seenKeys[position] = found
        }
        return found
    }
}
