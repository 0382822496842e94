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

// The contents of collection objects: the elements of arrays and sets, and the pairs of
// dictionaries, in every form Foundation writes.

extension _ArchiveDecoder {
    /// The elements of an array or set object: `NS.objects` of `NSArray`, `NSSet` and their mutable
    /// forms, `NS.object.0`, `NS.object.1`, … of `NSOrderedSet`, and either form of `NSCountedSet`
    /// (each distinct object once). A plain array is taken as it is.
    func unkeyedElements(
        of object: PropertyListValue,
        uid: UID?,
        at position: ArchiveDecodingPosition
    ) throws -> [PropertyListValue] {
        let elements = try self.storedElements(of: object, uid: uid, at: position)
        try self.charge(elements.count, object: object, uid: uid, at: position)
        return elements
    }

    /// The elements of an array or set, as ``unkeyedElements(of:uid:at:)`` returns them, without
    /// counting them against the decoded-size budget.
    private func storedElements(
        of object: PropertyListValue,
        uid: UID?,
        at position: ArchiveDecodingPosition
    ) throws -> [PropertyListValue] {
        guard case .dictionary(let dictionary) = object else {
            if case .array(let elements) = object { return elements }
            throw self.mismatch([Any].self, object: object, uid: uid, at: position)
        }
        switch try self.classInfo(of: dictionary, object: object, uid: uid, at: position).kind {
        case .array, .set:
            guard case .array(let elements)? = try self.field("NS.objects", of: dictionary, uid: uid, at: position)
            else {
                throw self.unexpected("an array or set without an NS.objects array", object, uid, position)
            }
            return elements
        case .countedSet:
            if case .array(let elements)? = try self.field("NS.objects", of: dictionary, uid: uid, at: position) {
                return elements
            }
            guard case .integer(let storedCount)? = dictionary["NS.count"],
                let count = storedCount.exactly(Int.self), count >= 0, count <= dictionary.count
            else {
                throw self.unexpected("an NSCountedSet without NS.objects or a valid NS.count", object, uid, position)
            }
            var elements: [PropertyListValue] = []
            elements.reserveCapacity(count)
            for index in 0..<count {
                guard let element = dictionary["NS.object\(index)"] else {
                    throw self.unexpected("an NSCountedSet without NS.object\(index)", object, uid, position)
                }
                elements.append(element)
            }
            return elements
        case .orderedSet:
            var elements: [PropertyListValue] = []
            while let element = dictionary["NS.object.\(elements.count)"] {
                elements.append(element)
            }
            return elements
        default:
            throw self.mismatch([Any].self, object: object, uid: uid, at: position)
        }
    }

    /// The elements of the current array or set object, as stored.
    func currentElements() throws -> [PropertyListValue] {
        try self.unkeyedElements(
            of: self.object,
            uid: self.uid,
            at: ArchiveDecodingPosition(parent: self.codingPathNode, key: nil, owner: nil)
        )
    }

    /// Decodes one of the current object's elements, as returned by ``currentElements()``.
    @inline(__always)
    func decodeElement<E: Decodable>(_: E.Type, at index: Int, of elements: [PropertyListValue]) throws -> E {
        let position = ArchiveDecodingPosition(
            parent: self.codingPathNode,
            key: ArchiveDecodingIndexKey(index),
            owner: self.uid
        )
        return try self.decode(E.self, stored: elements[index], at: position)
    }

    /// Decodes the current array or set object as an array of strings.
    func decodeStringArray() throws -> [String] {
        let elements = try self.currentElements()
        var strings: [String] = []
        strings.reserveCapacity(elements.count)
        for index in elements.indices {
            strings.append(try self.decodeElement(String.self, at: index, of: elements))
        }
        return strings
    }

    /// The keys and values of an `NSDictionary`, as stored (usually UIDs).
    func dictionaryPairs(
        of dictionary: PropertyListDictionary,
        object: PropertyListValue,
        uid: UID?,
        at position: ArchiveDecodingPosition
    ) throws -> (keys: [PropertyListValue], values: [PropertyListValue]) {
        guard case .array(let keys)? = try self.field("NS.keys", of: dictionary, uid: uid, at: position),
            case .array(let values)? = try self.field("NS.objects", of: dictionary, uid: uid, at: position)
        else {
            throw self.unexpected("an NSDictionary without NS.keys and NS.objects arrays", object, uid, position)
        }
        guard keys.count == values.count else {
            throw self.unexpected(
                "NS.keys has \(keys.count) entries but NS.objects has \(values.count)",
                object,
                uid,
                position
            )
        }
        try self.charge(2 * keys.count, object: object, uid: uid, at: position)
        return (keys, values)
    }

    /// The entries of an `NSDictionary` by key string, for a keyed container. Number keys become
    /// their decimal strings.
    func dictionaryEntries(
        of dictionary: PropertyListDictionary,
        object: PropertyListValue,
        uid: UID?,
        at position: ArchiveDecodingPosition
    ) throws -> PropertyListDictionary {
        let (keys, values) = try self.dictionaryPairs(of: dictionary, object: object, uid: uid, at: position)
        var entries = PropertyListDictionary()
        entries.reserveCapacity(keys.count)
        for (storedKey, value) in zip(keys, values) {
            let (keyObject, keyUID) = try self.resolve(storedKey, at: position)
            let name: String
            if case .integer(let number) = keyObject {
                name = number.description
            } else if let string = try? self.unboxString(keyObject, uid: keyUID, at: position) {
                name = string
            } else {
                throw self.unexpected(
                    "an NSDictionary key is \(self.summarize(keyObject)), not a string or number",
                    object,
                    uid,
                    position
                )
            }
            entries[name] = value
        }
        return entries
    }

    /// Decodes a dictionary from the current object: an `NSDictionary` with keys of any type, or
    /// the object's own keys (without `$class`).
    func decodeDictionary<K: Decodable, V: Decodable>(_: K.Type, _: V.Type) throws -> [K: V] {
        let object = self.object
        let uid = self.uid
        let node = self.codingPathNode
        let position = ArchiveDecodingPosition(parent: node, key: nil, owner: nil)
        guard case .dictionary(let dictionary) = object else {
            throw self.mismatch([K: V].self, object: object, uid: uid, at: position)
        }
        let kind = try self.classInfo(of: dictionary, object: object, uid: uid, at: position).kind
        var result: [K: V] = [:]
        switch kind {
        case .null:
            throw self.mismatch([K: V].self, object: object, uid: uid, at: position)
        case .dictionary:
            let (keys, values) = try self.dictionaryPairs(of: dictionary, object: object, uid: uid, at: position)
            result.reserveCapacity(keys.count)
            for index in keys.indices {
                let key = try self.decodeDictionaryKey(
                    K.self,
                    stored: keys[index],
                    index: index,
                    parent: node,
                    owner: uid
                )
                let valuePosition = ArchiveDecodingPosition(
                    parent: node,
                    key: self.pathKey(forStoredKey: keys[index], index: index),
                    owner: uid
                )
                result[key] = try self.decode(V.self, stored: values[index], at: valuePosition)
            }
        default:
            result.reserveCapacity(dictionary.count)
            for (index, (archiveKey, stored)) in dictionary.enumerated() {
                guard let name = KeyedArchive.unescapedKey(archiveKey) else { continue }
                let key = try self.decodeDictionaryKey(
                    K.self,
                    stored: .string(name),
                    index: index,
                    parent: node,
                    owner: uid
                )
                let valuePosition = ArchiveDecodingPosition(
                    parent: node,
                    key: ArchiveDictionaryDecodingKey(stringValue: name),
                    owner: uid
                )
                result[key] = try self.decode(V.self, stored: stored, at: valuePosition)
            }
        }
        return result
    }

    /// Decodes a dictionary key; a string key decodes into an integer type when it spells one.
    private func decodeDictionaryKey<K: Decodable>(
        _: K.Type,
        stored: PropertyListValue,
        index: Int,
        parent: CodingPathNode,
        owner: UID?
    ) throws -> K {
        let position = ArchiveDecodingPosition(parent: parent, key: ArchiveDecodingIndexKey(index), owner: owner)
        do {
            return try self.decode(K.self, stored: stored, at: position)
        } catch let error as DecodingError {
            guard case .typeMismatch = error,
                let (object, uid) = try? self.resolve(stored, at: position),
                let string = try? self.unboxString(object, uid: uid, at: position)
            else { throw error }
            let number: PropertyListValue
            if let signed = Int64(string) {
                number = .integer(PropertyListInteger(signed))
            } else if let unsigned = UInt64(string) {
                number = .integer(PropertyListInteger(unsigned))
            } else {
                throw error
            }
            guard let key = try? self.decode(K.self, stored: number, at: position) else { throw error }
            return key
        }
    }

    /// The coding key of a dictionary value, from its stored key.
    private func pathKey(forStoredKey stored: PropertyListValue, index: Int) -> ArchiveDictionaryDecodingKey {
        var key = stored
        if case .uid(let uid) = stored, let object = self.session.object(at: uid) { key = object }
        switch key {
        case .string(let string): return ArchiveDictionaryDecodingKey(stringValue: string)
        case .integer(let number):
            if let int = number.exactly(Int.self) { return ArchiveDictionaryDecodingKey(intValue: int) }
            return ArchiveDictionaryDecodingKey(stringValue: number.description)
        default: return ArchiveDictionaryDecodingKey(stringValue: "Key \(index)")
        }
    }
}
