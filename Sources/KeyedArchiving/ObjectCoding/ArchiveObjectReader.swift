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
public import FoundationEssentials
#else
public import Foundation
#endif

/// The object an ``ArchiveObjectDecodable`` value is being read from: it gives each property by
/// the index of its key in the type's ``ArchiveObjectKeys``.
///
/// The object's entries are matched to the keys once, in the object's order; each value is then
/// read as a keyed container reads it, with the same checks and the same errors, coding paths
/// included. The reader is valid only during ``ArchiveObjectDecodable/init(archiveObject:)``.
public struct ArchiveObjectReader: ~Copyable {
    /// The decoder, unretained: the reader lives only inside the decoder's call that made it.
    let unmanagedCoder: Unmanaged<_ArchiveDecoder>
    unowned(unsafe) let keys: ArchiveObjectKeyTable
    /// The object being read, and its UID.
    let object: InPlaceValue
    let uid: UID?
    /// The object's coding path.
    let node: CodingPathNode
    /// Where this object's entries start in the decoder's ``_ArchiveDecoder/objectSlots``.
    let start: Int

    /// Reads the decoder's current object, or returns `nil` for an `NSDictionary` or an object
    /// whose keys repeat, which only `init(from:)` reads.
    /// - Throws: `DecodingError.typeMismatch` if the object is not a dictionary or is `NSNull`;
    ///   `DecodingError.dataCorrupted` for a malformed class or past the decoded-size budget.
    init?(decoder: _ArchiveDecoder, keys: ArchiveObjectKeyTable) throws {
        let object = decoder.object
        let uid = decoder.uid
        let node = decoder.codingPathNode
        // The checks and errors of a keyed container over the same object.
        let position = ArchiveDecodingPosition(parent: node, key: nil, owner: nil)
        let reader = decoder.session.reader
        // The keys' and values' object indexes, read at once; `$class` is found among them.
        let count = if case .dictionary(let region) = object { region.count } else { 0 }
        let filled = try withUnsafeTemporaryAllocation(of: Int.self, capacity: 2 * count) {
            references -> (dictionary: InPlaceRegion, start: Int, repeats: Bool)? in
            if case .dictionary(let region) = object {
                reader.references(of: region, into: references)
                decoder.session.noteClass(of: region, references: UnsafeBufferPointer(references))
            }
            let (dictionary, isNSDictionary) = try decoder.keyedDictionary(of: object, uid: uid, at: position)
            guard !isNSDictionary else { return nil }
            let start = decoder.objectSlots.push(keys.count, repeating: -1)
            var repeats = false
            for entry in 0..<count {
                let index = keys.keyIndex(ofKeyObject: references[entry], at: entry, reader: reader)
                guard index >= 0 else { continue }
                if decoder.objectSlots[start + index] < 0 {
                    decoder.objectSlots[start + index] = references[count + entry]
                } else {
                    repeats = true
                }
            }
            return (dictionary, start, repeats)
        }
        guard let (dictionary, start, repeats) = filled else { return nil }
        do {
            // Which of a repeated key's values a keyed container finds depends on the order of its
            // lookups: such an object (only in damaged or hostile data) goes through `init(from:)`,
            // so that both paths read it alike. The container then charges the budget itself.
            guard !repeats else {
                decoder.objectSlots.pop(from: start)
                return nil
            }
            try decoder.charge(dictionary.count, object: object, uid: uid, at: position)
        } catch {
            decoder.objectSlots.pop(from: start)
            throw error
        }
        self.unmanagedCoder = Unmanaged.passUnretained(decoder)
        self.keys = keys
        self.object = object
        self.uid = uid
        self.node = node
        self.start = start
    }

    /// The decoder, for the paths that are not hot; ``withCoder(_:)`` spares the hot ones a retain.
    var coder: _ArchiveDecoder { self.unmanagedCoder.takeUnretainedValue() }

    /// Runs `body` with the decoder, without retaining it (the reader never outlives it).
    @inline(__always)
    func withCoder<Result>(_ body: (_ArchiveDecoder) throws -> Result) rethrows -> Result {
        try self.unmanagedCoder._withUnsafeGuaranteedRef(body)
    }

    /// Gives the slots back to the decoder.
    consuming func finish() {
        self.coder.objectSlots.pop(from: self.start)
    }

    /// The decoder, for values that must be read through `Decodable`; its state is this object's.
    public var decoder: any Decoder { self.coder }

    /// The contextual information of the decoder, as `Decoder.userInfo` has it.
    public var userInfo: [CodingUserInfoKey: Any] { self.coder.session.userInfo }

    /// The coding path of the object, as `Decoder.codingPath` has it.
    public var codingPath: [any CodingKey] { self.node.path }

    /// Whether the object has a key, as `KeyedDecodingContainer.contains(_:)` tells.
    /// - Parameter index: The index of the key in the type's ``ArchiveObjectKeys``.
    public func contains(_ index: Int) -> Bool {
        self.reference(at: index) >= 0
    }

    /// The error `init(from:)` throws for a value it finds invalid, such as an unknown raw value:
    /// `DecodingError.dataCorrupted` at the key's coding path.
    /// - Parameters:
    ///   - index: The index of the key in the type's ``ArchiveObjectKeys``.
    ///   - debugDescription: What is wrong.
    /// - Returns: The error to throw.
    public func dataCorruptedError(at index: Int, debugDescription: String) -> DecodingError {
        .dataCorrupted(
            DecodingError.Context(
                codingPath: self.node.appending(self.key(at: index)).path,
                debugDescription: debugDescription
            )
        )
    }

    @inline(__always)
    func reference(at index: Int) -> Int {
        let slot = self.start + index
        return self.withCoder { $0.objectSlots[slot] }
    }

    func key(at index: Int) -> ArchiveFieldKey {
        ArchiveFieldKey(self.keys.names[index])
    }

    // MARK: - Values

    /// Reads a string.
    /// - Parameters:
    ///   - type: `String`.
    ///   - index: The index of its key in the type's ``ArchiveObjectKeys``.
    /// - Returns: The value.
    /// - Throws: `DecodingError`, as `decode(_:forKey:)` does.
    public func decode(_ type: String.Type, at index: Int) throws -> String {
        let reference = self.reference(at: index)
        if reference >= 0, let value = self.withCoder({ $0.quickString(at: reference) }) { return value }
        return try self.decodeValue(type, at: index, reference: reference)
    }

    /// Reads an integer.
    /// - Parameters:
    ///   - type: `Int`.
    ///   - index: The index of its key in the type's ``ArchiveObjectKeys``.
    /// - Returns: The value.
    /// - Throws: `DecodingError`, as `decode(_:forKey:)` does.
    public func decode(_ type: Int.Type, at index: Int) throws -> Int {
        let reference = self.reference(at: index)
        if reference >= 0, let value = self.withCoder({ $0.quickInt(at: reference) }) { return value }
        return try self.decodeValue(type, at: index, reference: reference)
    }

    /// Reads a 64-bit real.
    /// - Parameters:
    ///   - type: `Double`.
    ///   - index: The index of its key in the type's ``ArchiveObjectKeys``.
    /// - Returns: The value.
    /// - Throws: `DecodingError`, as `decode(_:forKey:)` does.
    public func decode(_ type: Double.Type, at index: Int) throws -> Double {
        let reference = self.reference(at: index)
        if reference >= 0, let value = self.withCoder({ $0.quickDouble(at: reference) }) { return value }
        return try self.decodeValue(type, at: index, reference: reference)
    }

    /// Reads a Boolean.
    /// - Parameters:
    ///   - type: `Bool`.
    ///   - index: The index of its key in the type's ``ArchiveObjectKeys``.
    /// - Returns: The value.
    /// - Throws: `DecodingError`, as `decode(_:forKey:)` does.
    public func decode(_ type: Bool.Type, at index: Int) throws -> Bool {
        let reference = self.reference(at: index)
        if reference >= 0, let value = self.withCoder({ $0.quickBool(at: reference) }) { return value }
        return try self.decodeValue(type, at: index, reference: reference)
    }

    /// Reads an array of strings.
    /// - Parameters:
    ///   - type: `[String]`.
    ///   - index: The index of its key in the type's ``ArchiveObjectKeys``.
    /// - Returns: The value.
    /// - Throws: `DecodingError`, as `decode(_:forKey:)` does.
    public func decode(_ type: [String].Type, at index: Int) throws -> [String] {
        let reference = self.reference(at: index)
        let depth = self.node.depth + 1
        if reference >= 0, let value = self.withCoder({ $0.quickStringArray(at: reference, depth: depth) }) {
            return value
        }
        return try self.decodeValue(type, at: index, reference: reference)
    }

    /// Reads a date: an `NSDate` object, or a date stored inline.
    /// - Parameters:
    ///   - type: `Date`.
    ///   - index: The index of its key in the type's ``ArchiveObjectKeys``.
    /// - Returns: The value.
    /// - Throws: `DecodingError`, as `decode(_:forKey:)` does.
    public func decode(_ type: Date.Type, at index: Int) throws -> Date {
        let reference = self.reference(at: index)
        if reference >= 0, let value = self.withCoder({ $0.quickDate(at: reference) }) { return value }
        let (stored, position) = try self.present(at: index, reference: reference)
        return try self.withCoder { coder in
            let (object, uid) = try coder.resolve(stored, at: position)
            return try coder.unboxDate(object, uid: uid, at: position)
        }
    }

    /// Reads any decodable value, as a keyed container's `decode(_:forKey:)` does: a type that
    /// reads its own object, a collection, or a value through its `init(from:)`.
    /// - Parameters:
    ///   - type: The type to read.
    ///   - index: The index of its key in the type's ``ArchiveObjectKeys``.
    /// - Returns: The value.
    /// - Throws: `DecodingError`, as `decode(_:forKey:)` does.
    public func decode<T: Decodable>(_ type: T.Type, at index: Int) throws -> T {
        let reference = self.reference(at: index)
        if reference < 0 { return try self.decodeAbsent(type, at: index) }
        if _ArchiveDecoder.isScalar(type) { return try self.decodeScalar(type, at: index, reference: reference) }
        if _ArchiveDecoder.isScalarArray(type) {
            let depth = self.node.depth + 1
            return try self.withCoder { coder in
                try coder.quickScalarArray(type, at: reference, depth: depth) {
                    try self.decodeValue(type, at: index, reference: reference)
                }
            }
        }
        if let (rawValueType, raw, object, uid) = self.quickRawValue(of: type, reference: reference) {
            return try rawValueType.decodeArchiveRawValue(
                raw,
                as: type,
                decoder: self.valueDecoder(at: index, object: object, uid: uid)
            )
        }
        return try self.decodeValue(type, at: index, reference: reference)
    }

    /// The value of an absent key: `nil` for an optional spelled so that the macro could not see
    /// it (a `typealias`), as `ArchiveEvolution.decode(from:forKey:)` reads it, else
    /// `DecodingError.keyNotFound`. Apart, so that `decode(_:at:)` never asks for the metadata of
    /// `Optional<T>`, which unspecialised code would look up on every call (about 470
    /// instructions).
    @inline(never)
    func decodeAbsent<T: Decodable>(_ type: T.Type, at index: Int) throws -> T {
        if let none = ArchiveEvolution.absentValue(of: type) { return none }
        return try self.decodeValue(type, at: index, reference: -1)
    }

    /// The raw string stored at a key, with its object, when `type` is an enum read from its raw
    /// string that declares no class names and the key holds a string object that passes the
    /// checks a composite value gets: such an enum needs no coding path node, and its decoder is
    /// made only for a string none of its cases has. Otherwise `nil`.
    @inline(__always)
    func quickRawValue<T: Decodable>(
        of type: T.Type,
        reference: Int
    ) -> (type: any ArchiveRawValueCodable.Type, raw: String, object: InPlaceValue, uid: UID)? {
        guard reference >= 0, let rawValueType = self.withCoder({ $0.quickRawValueType(type) }),
            let (raw, object, uid) = self.withCoder({ $0.quickRawString(at: reference, depth: self.node.depth + 1) })
        else { return nil }
        return (rawValueType, raw, object, uid)
    }

    /// A decoder of the value at a key, positioned as the general path positions its own.
    @inline(never)
    func valueDecoder(at index: Int, object: InPlaceValue, uid: UID) -> _ArchiveDecoder {
        let coder = self.coder
        return _ArchiveDecoder(
            session: coder.session,
            object: object,
            uid: uid,
            codingPath: self.node.appending(self.key(at: index))
        )
    }

    /// Reads a value at a key through the decoder's general path.
    func decodeValue<T: Decodable>(_ type: T.Type, at index: Int, reference: Int) throws -> T {
        let (object, uid, position) = try self.resolved(at: index, reference: reference)
        return try self.withCoder { try $0.decode(type, object: object, uid: uid, at: position, reentrant: false) }
    }

    /// The object at a key (or its value, when stored inline), with its position: the object
    /// `decodeNil(at:)` has just resolved, for an optional, or else the key's, resolved.
    /// - Throws: `DecodingError.keyNotFound` if the key is absent; `DecodingError.dataCorrupted`
    ///   if the value is not valid.
    @inline(__always)
    func resolved(
        at index: Int,
        reference: Int
    ) throws -> (object: InPlaceValue, uid: UID?, position: ArchiveDecodingPosition) {
        if reference >= 0, self.withCoder({ $0.presentReference == reference }) {
            let position = ArchiveDecodingPosition(parent: self.node, key: self.key(at: index), owner: self.uid)
            return self.withCoder { coder in (coder.presentObject, coder.presentUID, position) }
        }
        let (stored, position) = try self.present(at: index, reference: reference)
        let (object, uid) = try self.withCoder { try $0.resolve(stored, at: position) }
        return (object, uid, position)
    }

    /// The value stored at `reference`, the key's, with its position.
    /// - Throws: `DecodingError.keyNotFound` if the key is absent; `DecodingError.dataCorrupted`
    ///   if the value is not valid.
    @inline(__always)
    func present(
        at index: Int,
        reference: Int
    ) throws -> (stored: InPlaceValue, position: ArchiveDecodingPosition) {
        guard reference >= 0 else {
            throw self.coder.keyNotFound(self.key(at: index), in: self.uid, at: self.node)
        }
        let position = ArchiveDecodingPosition(parent: self.node, key: self.key(at: index), owner: self.uid)
        return (try self.stored(at: reference, at: position), position)
    }

    /// Reads an enum through its raw string, as the standard library's `init(from:)` of a
    /// `RawRepresentable` type reads it, with the same errors; only for types that use that
    /// conformance and declare no class names.
    ///
    /// Inlinable, so that `init(rawValue:)` runs where the type is known.
    /// - Parameters:
    ///   - type: The type to read.
    ///   - index: The index of its key in the type's ``ArchiveObjectKeys``.
    /// - Returns: The value.
    /// - Throws: `DecodingError`, as `decode(_:forKey:)` does; `DecodingError.dataCorrupted` for a
    ///   string that is no raw value of the type.
    @inlinable
    public func decodeRawValue<T: RawRepresentable & Decodable>(
        _ type: T.Type = T.self,
        at index: Int
    ) throws -> T where T.RawValue == String {
        guard let raw = self.quickRawString(at: index) else { return try self.decode(type, at: index) }
        guard let value = T(rawValue: raw) else { throw self.invalidRawValue(raw, of: type, at: index) }
        return value
    }

    /// The string at a key when it is a string object that `init(from:)` would read after the
    /// checks a composite value gets (no cycle through a string; the depth), else `nil`.
    @usableFromInline
    func quickRawString(at index: Int) -> String? {
        let reference = self.reference(at: index)
        guard reference >= 0 else { return nil }
        return self.withCoder { $0.quickRawString(at: reference, depth: self.node.depth + 1)?.raw }
    }

    /// The error `init(from:)` of a `RawRepresentable` type throws for a string that is none of its
    /// raw values.
    @usableFromInline
    @inline(never)
    func invalidRawValue(_ raw: String, of type: Any.Type, at index: Int) -> DecodingError {
        self.dataCorruptedError(
            at: index,
            debugDescription: "Cannot initialize \(type) from invalid String value \(raw)"
        )
    }

    // MARK: - Optionals

    /// Reads a string, or `nil` if the key is absent or holds `nil`, as `decodeIfPresent(_:forKey:)` does.
    /// - Parameters:
    ///   - type: `String`.
    ///   - index: The index of its key in the type's ``ArchiveObjectKeys``.
    /// - Returns: The value, or `nil`.
    /// - Throws: `DecodingError`, as `decodeIfPresent(_:forKey:)` does.
    public func decodeIfPresent(_ type: String.Type, at index: Int) throws -> String? {
        let reference = self.reference(at: index)
        if reference >= 0, let value = self.withCoder({ $0.quickString(at: reference) }) { return value }
        if try self.decodeNil(at: index) { return nil }
        return try self.decodeValue(type, at: index, reference: reference)
    }

    /// Reads any decodable value, or `nil` if the key is absent or holds `nil`, as
    /// `decodeIfPresent(_:forKey:)` does.
    ///
    /// Inlinable, so that the optional is made where its type is known: unspecialized code would
    /// look up the metadata of `Optional<T>` on every call.
    /// - Parameters:
    ///   - type: The type to read.
    ///   - index: The index of its key in the type's ``ArchiveObjectKeys``.
    /// - Returns: The value, or `nil`.
    /// - Throws: `DecodingError`, as `decodeIfPresent(_:forKey:)` does.
    @inlinable
    public func decodeIfPresent<T: Decodable>(_ type: T.Type, at index: Int) throws -> T? {
        if try self.decodeNil(at: index) { return nil }
        return try self.decodeInOwnForm(type, at: index)
    }

    /// Reads `T` with the reader's own method for it when it has one (the standard scalars, arrays
    /// of strings), which a call from generic code would otherwise miss for the generic one.
    ///
    /// Inlinable, so that the choice is made where `T` is known, at no cost.
    @inlinable
    func decodeInOwnForm<T: Decodable>(_ type: T.Type, at index: Int) throws -> T {
        if T.self == String.self { return unsafeBitCast(try self.decode(String.self, at: index), to: T.self) }
        if T.self == [String].self { return unsafeBitCast(try self.decode([String].self, at: index), to: T.self) }
        if T.self == Date.self { return unsafeBitCast(try self.decode(Date.self, at: index), to: T.self) }
        if T.self == Int.self { return unsafeBitCast(try self.decode(Int.self, at: index), to: T.self) }
        if T.self == Double.self { return unsafeBitCast(try self.decode(Double.self, at: index), to: T.self) }
        if T.self == Bool.self { return unsafeBitCast(try self.decode(Bool.self, at: index), to: T.self) }
        if T.self == Int8.self { return unsafeBitCast(try self.decode(Int8.self, at: index), to: T.self) }
        if T.self == Int16.self { return unsafeBitCast(try self.decode(Int16.self, at: index), to: T.self) }
        if T.self == Int32.self { return unsafeBitCast(try self.decode(Int32.self, at: index), to: T.self) }
        if T.self == Int64.self { return unsafeBitCast(try self.decode(Int64.self, at: index), to: T.self) }
        if T.self == UInt.self { return unsafeBitCast(try self.decode(UInt.self, at: index), to: T.self) }
        if T.self == UInt8.self { return unsafeBitCast(try self.decode(UInt8.self, at: index), to: T.self) }
        if T.self == UInt16.self { return unsafeBitCast(try self.decode(UInt16.self, at: index), to: T.self) }
        if T.self == UInt32.self { return unsafeBitCast(try self.decode(UInt32.self, at: index), to: T.self) }
        if T.self == UInt64.self { return unsafeBitCast(try self.decode(UInt64.self, at: index), to: T.self) }
        if T.self == Float.self { return unsafeBitCast(try self.decode(Float.self, at: index), to: T.self) }
        if T.self == Data.self { return unsafeBitCast(try self.decode(Data.self, at: index), to: T.self) }
        if T.self == URL.self { return unsafeBitCast(try self.decode(URL.self, at: index), to: T.self) }
        if T.self == UUID.self { return unsafeBitCast(try self.decode(UUID.self, at: index), to: T.self) }
        return try self.decode(type, at: index)
    }

    /// Whether a key is absent or holds `nil` (UID 0 or an `NSNull`), as
    /// `decodeIfPresent(_:forKey:)` tells before it decodes.
    /// - Parameter index: The index of the key in the type's ``ArchiveObjectKeys``.
    /// - Returns: Whether there is no value to decode.
    /// - Throws: `DecodingError.dataCorrupted` if the key refers to no valid object, as
    ///   `decodeIfPresent(_:forKey:)` does.
    public func decodeNil(at index: Int) throws -> Bool {
        let reference = self.reference(at: index)
        guard reference >= 0 else { return true }
        if let isNil = self.withCoder({ $0.quickIsNil(at: reference) }) { return isNil }
        let position = ArchiveDecodingPosition(parent: self.node, key: self.key(at: index), owner: self.uid)
        guard case .uid(let uid) = try self.stored(at: reference, at: position) else { return false }
        guard uid.rawValue != 0 else { return true }
        return try self.withCoder { coder in coder.isNil(try coder.object(at: uid, at: position), uid: uid) }
    }

    /// Reads an optional property whose initial value is not `nil`: leaves `value` as it is when
    /// the key is absent, sets it to `nil` when the key holds `nil`, as
    /// ``ArchiveEvolution/decodeOptional(into:from:forKey:)`` does.
    /// - Parameters:
    ///   - value: The property.
    ///   - index: The index of its key in the type's ``ArchiveObjectKeys``.
    /// - Throws: `DecodingError`, as `decode(_:forKey:)` does.
    @inlinable
    public func decodeOptional<T: Decodable>(into value: inout T?, at index: Int) throws {
        guard self.contains(index) else { return }
        value = try self.decodeNil(at: index) ? nil : self.decodeInOwnForm(T.self, at: index)
    }

    /// The stored value at an object reference, as a `DecodingError` when it is not valid.
    @inline(__always)
    private func stored(at reference: Int, at position: ArchiveDecodingPosition) throws -> InPlaceValue {
        // The usual value, a UID, read without the general path.
        try self.withCoder { coder in
            if let uid = coder.session.reader.quickUID(at: reference) { return .uid(uid) }
            do throws(KeyedArchiveError) {
                return try coder.session.read(reference)
            } catch {
                throw coder.corrupted(error, object: self.object, uid: self.uid, at: position)
            }
        }
    }
}

extension ArchiveObjectReader: ArchiveFieldReader {}

@available(*, unavailable)
extension ArchiveObjectReader: Sendable {}

extension ArchiveObjectDecodable {
    /// Reads the decoder's current object with this type's conformance, as `T`, which is this type.
    ///
    /// An `NSDictionary`, which a keyed container also reads, and an object whose keys repeat go
    /// through `init(from:)`.
    static func decodeArchiveValue<T>(as type: T.Type, from decoder: _ArchiveDecoder, keyTable: Int) throws -> T {
        let value = try Self.decodeArchiveObject(from: decoder, keyTable: keyTable)
        // The check makes the cast infallible (no input reaches a trap), and the cast consumes
        // the value where a bit cast would copy it and destroy the original.
        if T.self == Self.self { return value as! T }
        return try decoder.cast(value, to: T.self)
    }

    /// Reads the decoder's current object with this type's conformance, or through `init(from:)`.
    static func decodeArchiveObject(from decoder: _ArchiveDecoder, keyTable: Int) throws -> Self {
        guard var reader = try ArchiveObjectReader(decoder: decoder, keys: decoder.session.lists.keyTables[keyTable])
        else {
            return try Self(from: decoder)
        }
        let value: Self
        do {
            value = try Self(archiveObject: &reader)
        } catch {
            reader.finish()
            throw error
        }
        reader.finish()
        return value
    }
}

extension _ArchiveDecoder {
    /// A value a conformance decoded as `T`, which the caller's type is not: apart, because the
    /// cast's optional would otherwise cost a metadata lookup on every call of the caller, cast or
    /// not.
    /// - Throws: `DecodingError.typeMismatch` at the current object if `value` is no `T`.
    @inline(never)
    func cast<Value, T>(_ value: Value, to type: T.Type) throws -> T {
        guard let cast = value as? T else {
            let position = ArchiveDecodingPosition(parent: self.codingPathNode, key: nil, owner: nil)
            throw self.mismatch(T.self, object: self.object, uid: self.uid, at: position)
        }
        return cast
    }
}
