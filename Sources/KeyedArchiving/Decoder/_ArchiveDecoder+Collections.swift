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

/// The stored elements of an array or set object, as object references of the property list: the
/// references of an array in place, or references gathered from numbered keys.
internal struct ArchiveElements {
    /// The array whose elements these are, if they are an array's.
    private let array: InPlaceRegion?
    /// The references, when they are not an array's.
    private let references: [Int]
    /// The number of elements.
    let count: Int

    /// The elements of an array.
    init(array: InPlaceRegion) {
        self.array = array
        self.references = []
        self.count = array.count
    }

    /// Elements gathered one by one.
    init(references: [Int]) {
        self.array = nil
        self.references = references
        self.count = references.count
    }

    /// The object reference of the element at `index`, which must be below ``count``.
    @inline(__always)
    func reference(at index: Int, in reader: InPlaceReader) -> Int {
        if let array { return reader.element(of: array, at: index) }
        return self.references[index]
    }
}

extension _ArchiveDecoder {
    /// The elements of an array or set object: `NS.objects` of `NSArray`, `NSSet` and their mutable
    /// forms, `NS.object.0`, `NS.object.1`, … of `NSOrderedSet`, and either form of `NSCountedSet`
    /// (each distinct object once). A plain array is taken as it is.
    func unkeyedElements(
        of object: InPlaceValue,
        uid: UID?,
        at position: ArchiveDecodingPosition
    ) throws -> ArchiveElements {
        let elements = try self.storedElements(of: object, uid: uid, at: position)
        try self.charge(elements.count, object: object, uid: uid, at: position)
        return elements
    }

    /// The elements of an array or set, as ``unkeyedElements(of:uid:at:)`` returns them, without
    /// counting them against the decoded-size budget.
    private func storedElements(
        of object: InPlaceValue,
        uid: UID?,
        at position: ArchiveDecodingPosition
    ) throws -> ArchiveElements {
        guard case .dictionary(let dictionary) = object else {
            if case .array(let elements) = object { return ArchiveElements(array: elements) }
            throw self.mismatch([Any].self, object: object, uid: uid, at: position)
        }
        let session = self.session
        switch try self.classKind(of: dictionary, object: object, uid: uid, at: position) {
        case .array, .set:
            guard
                case .array(let elements)? = try self.field(
                    ArchiveFormatKey.nsObjects,
                    of: dictionary,
                    uid: uid,
                    at: position
                )
            else {
                throw self.unexpected("an array or set without an NS.objects array", object, uid, position)
            }
            return ArchiveElements(array: elements)
        case .countedSet:
            if case .array(let elements)? = try self.field(
                ArchiveFormatKey.nsObjects,
                of: dictionary,
                uid: uid,
                at: position
            ) {
                return ArchiveElements(array: elements)
            }
            guard
                case .integer(let storedCount)? = try self.storedField(
                    ArchiveFormatKey.nsCount,
                    of: dictionary,
                    uid: uid,
                    at: position
                ),
                let count = storedCount.exactly(Int.self), count >= 0, count <= dictionary.count
            else {
                throw self.unexpected("an NSCountedSet without NS.objects or a valid NS.count", object, uid, position)
            }
            var references: [Int] = []
            references.reserveCapacity(count)
            for index in 0..<count {
                let key = ArchiveFormatKey.nsCountedObject(at: index)
                guard let found = session.reader.position(ofKey: key, in: dictionary) else {
                    throw self.unexpected("an NSCountedSet without \(key)", object, uid, position)
                }
                references.append(session.reader.value(of: dictionary, at: found))
            }
            return ArchiveElements(references: references)
        case .orderedSet:
            var references: [Int] = []
            while let found = session.reader.position(
                ofKey: ArchiveFormatKey.nsObject(at: references.count),
                in: dictionary
            ) {
                references.append(session.reader.value(of: dictionary, at: found))
            }
            return ArchiveElements(references: references)
        default:
            throw self.mismatch([Any].self, object: object, uid: uid, at: position)
        }
    }

    /// The elements of the current array or set object, as stored.
    func currentElements() throws -> ArchiveElements {
        try self.unkeyedElements(
            of: self.object,
            uid: self.uid,
            at: ArchiveDecodingPosition(parent: self.codingPathNode, key: nil, owner: nil)
        )
    }

    /// The stored value of an element: a UID, or a value stored inline.
    /// - Throws: `DecodingError.dataCorrupted` at the element if it is not a valid object.
    @inline(__always)
    func storedElement(at index: Int, of elements: ArchiveElements) throws -> InPlaceValue {
        do {
            return try self.session.read(elements.reference(at: index, in: self.session.reader))
        } catch {
            throw self.corrupted(error, object: nil, uid: self.uid, at: self.elementPosition(index))
        }
    }

    /// The position of the current object's element at `index`.
    private func elementPosition(_ index: Int) -> ArchiveDecodingPosition {
        ArchiveDecodingPosition(parent: self.codingPathNode, key: ArchiveDecodingIndexKey(index), owner: self.uid)
    }

    /// Decodes one of the current object's elements, as returned by ``currentElements()``.
    @inline(__always)
    func decodeElement<E: Decodable>(_: E.Type, at index: Int, of elements: ArchiveElements) throws -> E {
        let position = ArchiveDecodingPosition(
            parent: self.codingPathNode,
            key: ArchiveDecodingIndexKey(index),
            owner: self.uid
        )
        return try self.decode(E.self, stored: self.storedElement(at: index, of: elements), at: position)
    }

    /// Decodes the current array or set object as an array of strings.
    func decodeStringArray() throws -> [String] {
        let elements = try self.currentElements()
        var strings: [String] = []
        strings.reserveCapacity(elements.count)
        let reader = self.session.reader
        for index in 0..<elements.count {
            // A string object, read as `decodeElement` reads it, without its position.
            if let string = self.quickString(at: elements.reference(at: index, in: reader)) {
                strings.append(string)
                continue
            }
            strings.append(try self.decodeElement(String.self, at: index, of: elements))
        }
        return strings
    }

    /// The keys and values of an `NSDictionary`, as stored (usually UIDs).
    func dictionaryPairs(
        of dictionary: InPlaceRegion,
        object: InPlaceValue,
        uid: UID?,
        at position: ArchiveDecodingPosition
    ) throws -> (keys: ArchiveElements, values: ArchiveElements) {
        guard case .array(let keys)? = try self.field(ArchiveFormatKey.nsKeys, of: dictionary, uid: uid, at: position),
            case .array(let values)? = try self.field(
                ArchiveFormatKey.nsObjects,
                of: dictionary,
                uid: uid,
                at: position
            )
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
        return (ArchiveElements(array: keys), ArchiveElements(array: values))
    }

    /// The entries of an `NSDictionary` by key string, for a keyed container: the key names in
    /// order, and the object reference of each one's value. Number keys become their decimal
    /// strings; a key that repeats keeps its last value.
    func dictionaryEntries(
        of dictionary: InPlaceRegion,
        object: InPlaceValue,
        uid: UID?,
        at position: ArchiveDecodingPosition
    ) throws -> ArchiveDictionaryEntries {
        let (keys, values) = try self.dictionaryPairs(of: dictionary, object: object, uid: uid, at: position)
        var entries = ArchiveDictionaryEntries()
        let reader = self.session.reader
        for index in 0..<keys.count {
            let (keyObject, keyUID) = try self.resolve(self.storedElement(at: index, of: keys), at: position)
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
            entries.set(name, reference: values.reference(at: index, in: reader))
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
        let kind = try self.classKind(of: dictionary, object: object, uid: uid, at: position)
        var result: [K: V] = [:]
        switch kind {
        case .null:
            throw self.mismatch([K: V].self, object: object, uid: uid, at: position)
        case .dictionary:
            let (keys, values) = try self.dictionaryPairs(of: dictionary, object: object, uid: uid, at: position)
            result.reserveCapacity(keys.count)
            for index in 0..<keys.count {
                let storedKey = try self.storedElement(at: index, of: keys)
                let key = try self.decodeDictionaryKey(
                    K.self,
                    stored: storedKey,
                    index: index,
                    parent: node,
                    owner: uid
                )
                let valuePosition = ArchiveDecodingPosition(
                    parent: node,
                    key: self.pathKey(forStoredKey: storedKey, index: index),
                    owner: uid
                )
                result[key] = try self.decode(
                    V.self,
                    stored: self.storedElement(at: index, of: values),
                    at: valuePosition
                )
            }
        default:
            try self.charge(dictionary.count, object: object, uid: uid, at: position)
            result.reserveCapacity(dictionary.count)
            let reader = self.session.reader
            for index in 0..<dictionary.count {
                let region: InPlaceRegion
                let archiveKey: String
                let stored: InPlaceValue
                do {
                    guard case .string(let keyRegion) = try self.session.read(reader.key(of: dictionary, at: index))
                    else {
                        throw self.unexpected("an object's key is not a string", object, uid, position)
                    }
                    region = keyRegion
                    archiveKey = try self.session.string(region)
                    stored = try self.session.read(reader.value(of: dictionary, at: index))
                } catch let error as KeyedArchiveError {
                    throw self.corrupted(error, object: object, uid: uid, at: position)
                }
                guard let name = KeyedArchive.unescapedKey(archiveKey) else { continue }
                // An escaped key (`$$name`) decodes from its characters after the first.
                let storedName = name.utf8.count == archiveKey.utf8.count ? region : region.droppingFirstCharacter
                let key = try self.decodeDictionaryKey(
                    K.self,
                    stored: .string(storedName),
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
        stored: InPlaceValue,
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
            let number: InPlaceValue
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
    private func pathKey(forStoredKey stored: InPlaceValue, index: Int) -> ArchiveDictionaryDecodingKey {
        var key = stored
        if case .uid(let uid) = stored, let object = try? self.session.object(at: uid) {
            key = object
        }
        switch key {
        case .string(let region):
            guard let string = try? self.session.string(region) else { break }
            return ArchiveDictionaryDecodingKey(stringValue: string)
        case .integer(let number):
            if let int = number.exactly(Int.self) { return ArchiveDictionaryDecodingKey(intValue: int) }
            return ArchiveDictionaryDecodingKey(stringValue: number.description)
        default: break
        }
        return ArchiveDictionaryDecodingKey(stringValue: "Key \(index)")
    }
}

/// The entries of an `NSDictionary` that a keyed container reads: key names in archive order and
/// the object reference of each one's value.
internal struct ArchiveDictionaryEntries {
    /// The key names, each once, in the order first met.
    private(set) var names: [String] = []
    /// The object reference of each key's value.
    private var references: [String: Int] = [:]

    /// Sets the value of a key; a key met again keeps its first place and takes the new value.
    mutating func set(_ name: String, reference: Int) {
        if self.references.updateValue(reference, forKey: name) == nil { self.names.append(name) }
    }

    /// The object reference of a key's value, if the key is present.
    func reference(forKey name: String) -> Int? {
        self.references[name]
    }
}
