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

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A keyed container over an object: its own keys (unescaped; `$class` and other reserved keys
/// left out), or the keys of an `NSDictionary`.
///
/// The state lives in one non-generic class: the standard library's container box copies the
/// container for every call, and containers run unspecialized for keys from other modules, so one
/// reference and no generic helpers keep each call cheap.
internal struct _ArchiveKeyedDecodingContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    private let storage: ArchiveKeyedDecodingStorage

    init(decoder: _ArchiveDecoder, object: InPlaceValue, uid: UID?, codingPath: CodingPathNode) throws {
        self.storage = try ArchiveKeyedDecodingStorage(
            decoder: decoder,
            object: object,
            uid: uid,
            codingPath: codingPath
        )
    }

    var codingPath: [any CodingKey] { self.storage.codingPathNode.path }

    var allKeys: [Key] {
        self.storage.keyNames.compactMap(Key.init(stringValue:))
    }

    func contains(_ key: Key) -> Bool {
        self.storage.contains(key.stringValue)
    }

    /// An absent key and UID 0 both read as `nil`, as `NSCoder` has it.
    func decodeNil(forKey key: Key) throws -> Bool {
        self.storage.decodeNil(forKey: key.stringValue)
    }

    // The generic forms name `Date` and `[String]` (which containers take through them) and read
    // them through their concrete forms, with no `T?` of their own: in code not specialised for
    // `T`, an optional of `T` costs a generic-metadata lookup on every call, whatever `T` is. (One
    // generic helper for the four concrete forms is not specialised either, inside this type
    // generic over `Key`, and costs the same lookups: measured, 20,239 -> 21,353 per cat.)

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        // `T` is tested first, so the casts only change the static type.
        if T.self == Date.self { return unsafeBitCast(try self.decodeDate(forKey: key), to: T.self) }
        if T.self == [String].self { return unsafeBitCast(try self.decodeStrings(forKey: key), to: T.self) }
        return try self.storage.decode(type, forKey: key)
    }

    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        if T.self == Date.self {
            guard let date = try self.decodeDateIfPresent(forKey: key) else { return nil }
            return unsafeBitCast(date, to: T.self)
        }
        if T.self == [String].self {
            guard let strings = try self.decodeStringsIfPresent(forKey: key) else { return nil }
            return unsafeBitCast(strings, to: T.self)
        }
        return try self.storage.decodeIfPresent(type, forKey: key)
    }

    /// The date under `key`, read in place when it has the form the quick readers take.
    private func decodeDate(forKey key: Key) throws -> Date {
        let reference = self.storage.reference(forKey: key.stringValue)
        if let reference, let value = self.storage.decoder.quickDate(at: reference) { return value }
        return try self.storage.decode(Date.self, forKey: key, reference: reference)
    }

    /// The date under `key` if it is present, as ``decodeDate(forKey:)`` reads it.
    private func decodeDateIfPresent(forKey key: Key) throws -> Date? {
        let reference = self.storage.reference(forKey: key.stringValue)
        if let reference, let value = self.storage.decoder.quickDate(at: reference) { return value }
        return try self.storage.decodeIfPresent(Date.self, forKey: key, reference: reference)
    }

    /// The strings under `key`, read in place when they have the form the quick readers take.
    private func decodeStrings(forKey key: Key) throws -> [String] {
        let reference = self.storage.reference(forKey: key.stringValue)
        if let reference, let value = self.storage.quickStrings(at: reference) { return value }
        return try self.storage.decode([String].self, forKey: key, reference: reference)
    }

    /// The strings under `key` if they are present, as ``decodeStrings(forKey:)`` reads them.
    private func decodeStringsIfPresent(forKey key: Key) throws -> [String]? {
        let reference = self.storage.reference(forKey: key.stringValue)
        if let reference, let value = self.storage.quickStrings(at: reference) { return value }
        return try self.storage.decodeIfPresent([String].self, forKey: key, reference: reference)
    }

    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool {
        let reference = self.storage.reference(forKey: key.stringValue)
        if let reference, let value = self.storage.quickBool(at: reference) { return value }
        return try self.storage.decode(type, forKey: key, reference: reference)
    }

    func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? {
        let reference = self.storage.reference(forKey: key.stringValue)
        if let reference, let value = self.storage.quickBool(at: reference) { return value }
        return try self.storage.decodeIfPresent(type, forKey: key, reference: reference)
    }

    func decode(_ type: String.Type, forKey key: Key) throws -> String {
        let reference = self.storage.reference(forKey: key.stringValue)
        if let reference, let value = self.storage.quickString(at: reference) { return value }
        return try self.storage.decode(type, forKey: key, reference: reference)
    }

    func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? {
        let reference = self.storage.reference(forKey: key.stringValue)
        if let reference, let value = self.storage.quickString(at: reference) { return value }
        return try self.storage.decodeIfPresent(type, forKey: key, reference: reference)
    }

    func decode(_ type: Double.Type, forKey key: Key) throws -> Double {
        let reference = self.storage.reference(forKey: key.stringValue)
        if let reference, let value = self.storage.quickDouble(at: reference) { return value }
        return try self.storage.decode(type, forKey: key, reference: reference)
    }

    func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? {
        let reference = self.storage.reference(forKey: key.stringValue)
        if let reference, let value = self.storage.quickDouble(at: reference) { return value }
        return try self.storage.decodeIfPresent(type, forKey: key, reference: reference)
    }

    func decode(_ type: Float.Type, forKey key: Key) throws -> Float {
        try self.storage.decode(type, forKey: key)
    }

    func decodeIfPresent(_ type: Float.Type, forKey key: Key) throws -> Float? {
        try self.storage.decodeIfPresent(type, forKey: key)
    }

    func decode(_ type: Int.Type, forKey key: Key) throws -> Int {
        let reference = self.storage.reference(forKey: key.stringValue)
        if let reference, let value = self.storage.quickInt(at: reference) { return value }
        return try self.storage.decode(type, forKey: key, reference: reference)
    }

    func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? {
        let reference = self.storage.reference(forKey: key.stringValue)
        if let reference, let value = self.storage.quickInt(at: reference) { return value }
        return try self.storage.decodeIfPresent(type, forKey: key, reference: reference)
    }

    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 {
        try self.storage.decode(type, forKey: key)
    }

    func decodeIfPresent(_ type: Int8.Type, forKey key: Key) throws -> Int8? {
        try self.storage.decodeIfPresent(type, forKey: key)
    }

    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 {
        try self.storage.decode(type, forKey: key)
    }

    func decodeIfPresent(_ type: Int16.Type, forKey key: Key) throws -> Int16? {
        try self.storage.decodeIfPresent(type, forKey: key)
    }

    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 {
        try self.storage.decode(type, forKey: key)
    }

    func decodeIfPresent(_ type: Int32.Type, forKey key: Key) throws -> Int32? {
        try self.storage.decodeIfPresent(type, forKey: key)
    }

    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 {
        try self.storage.decode(type, forKey: key)
    }

    func decodeIfPresent(_ type: Int64.Type, forKey key: Key) throws -> Int64? {
        try self.storage.decodeIfPresent(type, forKey: key)
    }

    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt {
        try self.storage.decode(type, forKey: key)
    }

    func decodeIfPresent(_ type: UInt.Type, forKey key: Key) throws -> UInt? {
        try self.storage.decodeIfPresent(type, forKey: key)
    }

    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 {
        try self.storage.decode(type, forKey: key)
    }

    func decodeIfPresent(_ type: UInt8.Type, forKey key: Key) throws -> UInt8? {
        try self.storage.decodeIfPresent(type, forKey: key)
    }

    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 {
        try self.storage.decode(type, forKey: key)
    }

    func decodeIfPresent(_ type: UInt16.Type, forKey key: Key) throws -> UInt16? {
        try self.storage.decodeIfPresent(type, forKey: key)
    }

    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 {
        try self.storage.decode(type, forKey: key)
    }

    func decodeIfPresent(_ type: UInt32.Type, forKey key: Key) throws -> UInt32? {
        try self.storage.decodeIfPresent(type, forKey: key)
    }

    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 {
        try self.storage.decode(type, forKey: key)
    }

    func decodeIfPresent(_ type: UInt64.Type, forKey key: Key) throws -> UInt64? {
        try self.storage.decodeIfPresent(type, forKey: key)
    }

    func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type,
        forKey key: Key
    ) throws -> KeyedDecodingContainer<NestedKey> {
        let (object, uid, node) = try self.storage.nested(forKey: key)
        return KeyedDecodingContainer(
            try _ArchiveKeyedDecodingContainer<NestedKey>(
                decoder: self.storage.decoder,
                object: object,
                uid: uid,
                codingPath: node
            )
        )
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        let (object, uid, node) = try self.storage.nested(forKey: key)
        return try _ArchiveUnkeyedDecodingContainer(
            decoder: self.storage.decoder,
            object: object,
            uid: uid,
            codingPath: node
        )
    }

    /// A decoder over this same object, as `super.init(coder:)` reads the same keys.
    func superDecoder() throws -> any Decoder {
        self.storage.superDecoder()
    }

    /// A decoder over the object at a key; over `nil` when the key is absent.
    func superDecoder(forKey key: Key) throws -> any Decoder {
        try self.storage.superDecoder(forKey: key)
    }
}

/// The state and the non-generic work of a keyed container.
///
/// Private, and so in the container's file: as an internal class in a file of its own, `Codable`
/// decoding ran 159 more instructions per benchmark cat (21,699 against 21,540 at 10k).
private final class ArchiveKeyedDecodingStorage {
    /// Where a keyed container finds its keys.
    enum Entries {
        /// An object's own dictionary, read in place; its keys are escaped.
        case object(InPlaceRegion)
        /// The entries of an `NSDictionary`.
        case dictionary(ArchiveDictionaryEntries)
    }

    let decoder: _ArchiveDecoder
    /// The decoder's session.
    let session: ArchiveDecodingSession
    /// The session's objects, held here so that reading them costs no reference counting.
    let reader: InPlaceReader
    /// The object (or inline dictionary) the container reads.
    let object: InPlaceValue
    /// The object's UID; `nil` for an inline dictionary.
    let uid: UID?
    /// The entries by archive key.
    let entries: Entries
    let codingPathNode: CodingPathNode

    init(decoder: _ArchiveDecoder, object: InPlaceValue, uid: UID?, codingPath: CodingPathNode) throws {
        let position = ArchiveDecodingPosition(parent: codingPath, key: nil, owner: nil)
        let (dictionary, isNSDictionary) = try decoder.keyedDictionary(of: object, uid: uid, at: position)
        if isNSDictionary {
            self.entries = .dictionary(
                try decoder.dictionaryEntries(of: dictionary, object: object, uid: uid, at: position)
            )
        } else {
            try decoder.charge(dictionary.count, object: object, uid: uid, at: position)
            self.entries = .object(dictionary)
        }
        self.decoder = decoder
        self.session = decoder.session
        self.reader = decoder.session.reader
        self.object = object
        self.uid = uid
        self.codingPathNode = codingPath
    }

    /// The coder keys, unescaped, without reserved keys.
    var keyNames: [String] {
        switch self.entries {
        case .dictionary(let entries):
            return entries.names
        case .object(let dictionary):
            let reader = self.reader
            return (0..<dictionary.count).compactMap { position in
                guard let key = try? self.session.string(atObject: reader.key(of: dictionary, at: position))
                else { return nil }
                return KeyedArchive.unescapedKey(key)
            }
        }
    }

    /// The object reference of the stored value for a key: an inline scalar or a UID.
    @inline(__always)
    func reference(forKey name: String) -> Int? {
        switch self.entries {
        case .object(let dictionary):
            return self.lookUp(name, in: dictionary)
        case .dictionary(let entries):
            return entries.reference(forKey: name)
        }
    }

    // The quick forms: `_ArchiveDecoder`'s, which ``ArchiveObjectReader`` shares.

    /// The string at a key, when it is the UID of a string object.
    @inline(__always)
    func quickString(at reference: Int) -> String? { self.decoder.quickString(at: reference) }

    /// The real at a key, when it is stored inline as a 64-bit real.
    @inline(__always)
    func quickDouble(at reference: Int) -> Double? { self.decoder.quickDouble(at: reference) }

    /// The integer at a key, when it is stored inline and fits.
    @inline(__always)
    func quickInt(at reference: Int) -> Int? { self.decoder.quickInt(at: reference) }

    /// The Boolean at a key, when it is stored inline as one.
    @inline(__always)
    func quickBool(at reference: Int) -> Bool? { self.decoder.quickBool(at: reference) }

    /// The strings at a key's reference, read as ``ArchiveObjectReader`` reads them, when the value
    /// has the form the quick readers take; `nil` otherwise, for the general path to read or report.
    func quickStrings(at reference: Int) -> [String]? {
        self.decoder.quickStringArray(at: reference, depth: self.codingPathNode.depth + 1)
    }

    /// Where the last lookup found its key: types usually decode their keys in the order they were
    /// encoded, so the next key is most often the next entry.
    @exclusivity(unchecked) private var cursor = 0

    /// Finds a key among an object's keys, starting after the last one found, comparing the bytes in
    /// place.
    /// A coder key starting with `$` is stored escaped, with another `$` in front.
    @inline(__always)
    private func lookUp(_ name: String, in dictionary: InPlaceRegion) -> Int? {
        var name = name
        let found: Int?? = name.withUTF8 { utf8 in
            if utf8.first == UInt8(ascii: "$") { return .none }
            let reader = self.reader
            let count = dictionary.count
            var index = self.cursor
            for _ in 0..<count {
                if index >= count { index = 0 }
                if reader.isString(reader.key(of: dictionary, at: index), equalTo: utf8) {
                    self.cursor = index &+ 1
                    return reader.value(of: dictionary, at: index)
                }
                index &+= 1
            }
            return .some(nil)
        }
        if let found { return found }
        // `name` starts with `$`, so this is `KeyedArchive.escapedKey(name)`, written out: the call,
        // inlined into every keyed lookup, cost the `Codable` decoder about 1% of its instructions.
        return self.reader.position(ofKey: "$" + name, in: dictionary).map {
            self.reader.value(of: dictionary, at: $0)
        }
    }

    /// The stored value at an object reference, as a `DecodingError` when it is not valid.
    @inline(__always)
    private func stored(at reference: Int, at position: ArchiveDecodingPosition) throws -> InPlaceValue {
        do {
            return try self.session.read(reference)
        } catch {
            throw self.decoder.corrupted(error, object: self.object, uid: self.uid, at: position)
        }
    }

    func contains(_ name: String) -> Bool {
        self.reference(forKey: name) != nil
    }

    func decodeNil(forKey name: String) -> Bool {
        guard let reference = self.reference(forKey: name) else { return true }
        guard let stored = try? self.session.read(reference) else { return false }
        return self.decoder.isNil(stored: stored)
    }

    /// Decodes the value under `key`, which may nest as deeply as the input: the key's lookup and
    /// resolution run in ``located(_:reference:at:)``, so that the frame each level of nesting
    /// keeps on the stack here stays small.
    @inline(__always)
    func decode<T: Decodable>(_ type: T.Type, forKey key: some CodingKey) throws -> T {
        try self.decode(type, forKey: key, reference: self.reference(forKey: key.stringValue))
    }

    /// Decodes the value at `reference`, the key's as ``reference(forKey:)`` found it.
    @inline(__always)
    func decode<T: Decodable>(_ type: T.Type, forKey key: some CodingKey, reference: Int?) throws -> T {
        let position = ArchiveDecodingPosition(parent: self.codingPathNode, key: key, owner: self.uid)
        let (object, uid) = try self.located(key, reference: reference, at: position)
        return try self.decoder.decode(type, object: object, uid: uid, at: position, reentrant: false)
    }

    /// Decodes the value under `key` if it is present, keeping a small frame as
    /// ``decode(_:forKey:)`` does.
    @inline(__always)
    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: some CodingKey) throws -> T? {
        try self.decodeIfPresent(type, forKey: key, reference: self.reference(forKey: key.stringValue))
    }

    /// Decodes the value at `reference`, the key's as ``reference(forKey:)`` found it, if any.
    @inline(__always)
    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: some CodingKey, reference: Int?) throws -> T? {
        let position = ArchiveDecodingPosition(parent: self.codingPathNode, key: key, owner: self.uid)
        guard let (object, uid) = try self.locatedIfPresent(reference: reference, at: position) else { return nil }
        return try self.decoder.decode(type, object: object, uid: uid, at: position, reentrant: false)
    }

    /// The value at `reference`, the key's as ``reference(forKey:)`` found it, resolved for
    /// decoding at `position`.
    /// - Throws: `DecodingError.keyNotFound` if the key is absent; `DecodingError.dataCorrupted`
    ///   if the value is not valid.
    @inline(never)
    private func located(
        _ key: some CodingKey,
        reference: Int?,
        at position: ArchiveDecodingPosition
    ) throws -> (object: InPlaceValue, uid: UID?) {
        guard let reference else {
            throw self.decoder.keyNotFound(key, in: self.uid, at: self.codingPathNode)
        }
        return try self.decoder.resolve(self.stored(at: reference, at: position), at: position)
    }

    /// The value at `reference`, as ``located(_:reference:at:)`` finds it, or `nil` if the key is
    /// absent or holds `nil`.
    @inline(never)
    private func locatedIfPresent(
        reference: Int?,
        at position: ArchiveDecodingPosition
    ) throws -> (object: InPlaceValue, uid: UID?)? {
        guard let reference else { return nil }
        let stored = try self.stored(at: reference, at: position)
        guard case .uid(let uid) = stored else { return (stored, nil) }
        // Resolve once, for both the nil check and the decoding.
        guard uid.rawValue != 0 else { return nil }
        let object = try self.decoder.object(at: uid, at: position)
        if self.decoder.isNil(object, uid: uid) { return nil }
        return (object, uid)
    }

    /// The object at a key, resolved, for a nested container.
    func nested(forKey key: some CodingKey) throws -> (object: InPlaceValue, uid: UID?, node: CodingPathNode) {
        guard let reference = self.reference(forKey: key.stringValue) else {
            throw self.decoder.keyNotFound(key, in: self.uid, at: self.codingPathNode)
        }
        let position = ArchiveDecodingPosition(parent: self.codingPathNode, key: key, owner: self.uid)
        let (object, uid) = try self.decoder.resolve(self.stored(at: reference, at: position), at: position)
        let node = position.node
        try self.decoder.checkDepth(node, object: object, uid: uid, at: position)
        return (object, uid, node)
    }

    func superDecoder() -> any Decoder {
        _ArchiveDecoder(
            session: self.decoder.session,
            object: self.object,
            uid: self.uid,
            codingPath: self.codingPathNode.appending(ArchiveCodingKey.super)
        )
    }

    func superDecoder(forKey key: some CodingKey) throws -> any Decoder {
        guard self.reference(forKey: key.stringValue) != nil else {
            return _ArchiveDecoder(
                session: self.decoder.session,
                object: self.session.nullObject,
                uid: UID(0),
                codingPath: self.codingPathNode.appending(key)
            )
        }
        let (object, uid, node) = try self.nested(forKey: key)
        return _ArchiveDecoder(session: self.decoder.session, object: object, uid: uid, codingPath: node)
    }
}

extension _ArchiveDecoder {
    /// The dictionary of an object that a keyed container (or an ``ArchiveObjectReader``) reads,
    /// and whether it is an `NSDictionary`, whose keys and values are separate arrays, rather than
    /// an object's own keys.
    /// - Throws: `DecodingError.typeMismatch` if the object is not a dictionary or is `NSNull`;
    ///   `DecodingError.dataCorrupted` for a malformed class.
    func keyedDictionary(
        of object: InPlaceValue,
        uid: UID?,
        at position: ArchiveDecodingPosition
    ) throws -> (dictionary: InPlaceRegion, isNSDictionary: Bool) {
        guard case .dictionary(let dictionary) = object else {
            throw self.mismatch([String: Any].self, object: object, uid: uid, at: position)
        }
        switch try self.classKind(of: dictionary, object: object, uid: uid, at: position) {
        case .null:
            throw self.mismatch([String: Any].self, object: object, uid: uid, at: position)
        case .dictionary:
            return (dictionary, true)
        default:
            return (dictionary, false)
        }
    }
}
