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

/// One archiving pass: the object table being built, the class instances met so far, and the
/// naming options.
///
/// ``KeyedArchiveEncoder`` makes one session per call. An archiver that stores several objects under
/// top-level keys calls ``encodeObject(_:codingPath:)`` once per object and ``finish(top:)`` once;
/// a class instance reachable from several of them is stored once.
///
/// Encoders and containers handed to `encode(to:)` may escape it: a stored `superEncoder()` or
/// nested container keeps working, and whatever it writes before ``finish(top:)`` lands in the
/// archive. Call ``close()`` to release them, or ``recycle(into:)`` to leave the session, emptied, to
/// the next ``make(options:from:)``.
internal final class ArchiveEncodingSession {
    /// The choices that shape an archive.
    struct Options: Equatable {
        static func == (left: Options, right: Options) -> Bool {
            left.classNames == right.classNames && left.directArchiving == right.directArchiving
                && left.userInfo.isEmpty && right.userInfo.isEmpty
        }

        /// Class names set with ``KeyedArchiveEncoder/setClassName(_:for:)``, by type.
        var classNames: [ObjectIdentifier: String] = [:]
        /// Contextual information for `encode(to:)` implementations.
        var userInfo: [CodingUserInfoKey: any Sendable] = [:]
        /// Whether ``ArchiveObjectEncodable`` conformances write their objects.
        var directArchiving: DirectArchiving = .enabled
    }

    /// A UID marking a class instance whose encoding has started but has no UID yet.
    static let pendingInstance = UID(UInt64.max)

    /// `$objects` as built so far.
    @exclusivity(unchecked) var table = ArchiveEncodingTable()
    /// The keys of objects' own dictionaries (escaped) and of `NSDictionary` objects, by coding-key string.
    /// Object keys stay cached from one archive to the next, as the table keeps their strings.
    @exclusivity(unchecked) var objectKeys = ArchiveEncodingKeyCache()
    @exclusivity(unchecked) var dictionaryKeys = ArchiveEncodingKeyCache()
    /// The object keys this archive added to the table's strings (coding-key string, then its
    /// escaped form), which the table keeps for the next archives.
    @exclusivity(unchecked) var newObjectKeys: [(string: String, escaped: String)] = []
    private(set) var options: Options
    /// ``Options/userInfo`` in the form `Encoder` exposes it.
    private(set) var userInfo: [CodingUserInfoKey: Any]

    @exclusivity(unchecked) var typeInfos: [ObjectIdentifier: ArchiveEncodingTypeInfo] = [:]
    /// A two-way set-associative cache in front of ``typeInfos`` (see ``typeSlot(_:)``), so the
    /// common lookups skip hashing.
    @exclusivity(unchecked) var recentTypes = [ObjectIdentifier?](repeating: nil, count: recentTypeCount)
    @exclusivity(unchecked) var recentTypeInfos = [ArchiveEncodingTypeInfo?](
        repeating: nil,
        count: recentTypeCount
    )
    static let recentTypeCount = 32
    /// Types found not to be leaves, cached like ``recentTypes``, so their values skip ``leafValue(_:)``.
    @exclusivity(unchecked) private var compositeTypes = [ObjectIdentifier?](repeating: nil, count: recentTypeCount)
    /// The UID of every class instance met so far, by identity.
    @exclusivity(unchecked) var instanceUIDs: [ObjectIdentifier: UID] = [:]
    /// Keeps every instance in ``instanceUIDs`` alive, so no identifier is reused during the session.
    @exclusivity(unchecked) var retainedInstances: [AnyObject] = []
    /// The values of the objects ``ArchiveObjectWriter``s are writing, innermost last: each writer's
    /// run of one slot per key, unset slots holding ``ArchiveObjectWriter/unset``.
    @exclusivity(unchecked) var objectValues = ArchiveSlotStack<ArchiveEncodingTable.Value>()
    /// The entries writers add after their keys' (kept fields), innermost writer's last.
    @exclusivity(unchecked) var objectExtras: [_ArchiveEncoder.Entry] = []
    /// The frames of the objects being written directly, by nesting depth, kept for reuse.
    @exclusivity(unchecked) var objectFrames = ArchiveObjectFramePool()
    /// How many objects are being written directly, one inside the other.
    @exclusivity(unchecked) var objectDepth = 0
    /// Complete encoders nothing else refers to, ready for reuse.
    @exclusivity(unchecked) private var spareEncoders: [_ArchiveEncoder] = []
    /// Encoders still referenced after their value was complete; flushed again by ``finish(top:)``.
    @exclusivity(unchecked) private var escapedEncoders: [_ArchiveEncoder] = []
    /// The first misuse of the `Encoder` protocol, thrown when the value that caused it completes.
    @exclusivity(unchecked) private var misuse: EncodingError? {
        didSet { self.hasMisuse = self.misuse != nil }
    }
    /// Whether ``misuse`` holds an error: tested on every completed value, where testing the
    /// optional `EncodingError` itself would copy it through its value witnesses.
    @exclusivity(unchecked) private var hasMisuse = false

    let arrayInfo = ArchiveEncodingTypeInfo(foundationClass: "NSArray")
    let dictionaryInfo = ArchiveEncodingTypeInfo(foundationClass: "NSDictionary")
    let setInfo = ArchiveEncodingTypeInfo(foundationClass: "NSSet")

    init(options: Options) {
        self.options = options
        self.userInfo = options.userInfo
    }

    // MARK: - Reuse

    /// A session for one archive: the one a finished session left in `pool` with ``recycle(into:)``
    /// if there is one, else a new one.
    ///
    /// A value encoded on its own (as every store save and `UserDefaults` write does) makes a
    /// session, its tables and caches, and lets them go; reusing them makes the fixed cost of an
    /// archive a few resets instead of dozens of allocations, and a large archive's memory the
    /// next one's instead of fresh pages.
    static func make(options: Options, from pool: ArchiveEncodingSessionPool = .shared) -> ArchiveEncodingSession {
        guard let session = pool.take() else {
            return ArchiveEncodingSession(options: options)
        }
        session.prepare(for: options)
        return session
    }

    /// Leaves the session in `pool` for the next ``make(options:from:)``, emptied, if it finished
    /// an archive without leaving encoders behind, and closes it otherwise. The pool decides how
    /// long to keep it from its size.
    ///
    /// Call it only after a successful ``finish(top:)`` or ``finishBinary(top:)``, and use the
    /// session no more. An encoder that escaped its value (kept by `encode(to:)` beyond its
    /// return) still refers to the session, so such a session is never reused: a late write must
    /// land in a finished archive, not in another thread's.
    func recycle(into pool: ArchiveEncodingSessionPool = .shared) {
        guard self.escapedEncoders.isEmpty, !self.hasMisuse else {
            self.close()
            return
        }
        let keptBefore = self.table.keptStringCount
        self.objectKeys.removeKeys(fromID: UInt32(truncatingIfNeeded: keptBefore))
        let keptKeys = self.table.removeAll(keepingKeys: self.newObjectKeys.map(\.escaped))
        if let keptKeys {
            // Each new key's cache entry gets its id in the emptied table.
            for (entry, key) in zip(self.newObjectKeys, keptKeys) { self.objectKeys.insert(key, for: entry.string) }
        } else {
            self.objectKeys.removeAll()
        }
        self.newObjectKeys.removeAll(keepingCapacity: true)
        self.dictionaryKeys.removeAll()
        if !self.instanceUIDs.isEmpty {
            self.instanceUIDs.removeAll(keepingCapacity: true)
            self.retainedInstances.removeAll(keepingCapacity: true)
        }
        // The types stay known; their class dictionaries are the next table's to append.
        for info in self.typeInfos.values {
            info.classUID = nil
            // A type's keys stay if they were all kept before this archive (their ids stand).
            if keptKeys == nil || info.objectKeys?.contains(where: { $0.id >= keptBefore }) == true {
                info.objectKeys = nil
            }
            info.objectKeyRun = nil
            info.entryKeyRun = nil
        }
        for info in [self.arrayInfo, self.dictionaryInfo, self.setInfo] { info.classUID = nil }
        if !self.options.userInfo.isEmpty {
            self.options.userInfo = [:]
            self.userInfo = [:]
        }
        pool.keep(self, capacity: self.table.capacity)
    }

    /// Sets a recycled session up for an archive with `options`: what it knows of types stays
    /// valid if the class names are the same.
    private func prepare(for options: Options) {
        if options.classNames != self.options.classNames || options.directArchiving != self.options.directArchiving {
            self.typeInfos = [:]
            for slot in 0..<Self.recentTypeCount {
                self.recentTypes[slot] = nil
                self.recentTypeInfos[slot] = nil
            }
        }
        self.options = options
        self.userInfo = options.userInfo
    }

    // MARK: - Entry points

    /// Encodes a value as an object of the archive.
    /// - Parameters:
    ///   - value: The value.
    ///   - codingPath: The path reported in errors, such as the top-level key.
    /// - Returns: The UID of the object: a new one, a shared leaf, a class instance met before, or 0
    ///   for `nil`.
    /// - Throws: `EncodingError.invalidValue`, or whatever the value's `encode(to:)` throws.
    func encodeObject<T: Encodable>(_ value: T, codingPath: [any CodingKey] = []) throws -> UID {
        var parent = CodingPathNode.root
        for key in codingPath.dropLast() { parent = parent.appending(key) }
        return try self.encode(value, parent: ArchiveEncodingParent(parent), key: codingPath.last)
    }

    /// Encodes a value stored under a top-level key of an archiver: a number or Boolean inline, as
    /// `NSKeyedArchiver`'s `encode(_:forKey:)` stores scalars in `$top`, anything else as an object.
    /// - Parameters:
    ///   - value: The value.
    ///   - codingPath: The path reported in errors: the top-level key.
    /// - Returns: The scalar, or the UID of the object (see ``encodeObject(_:codingPath:)``).
    /// - Throws: `EncodingError.invalidValue`, or whatever the value's `encode(to:)` throws.
    func encodeTopLevel<T: Encodable>(_ value: T, codingPath: [any CodingKey]) throws -> ArchiveEncodingTable.Value {
        if let scalar = Self.scalarValue(value) { return scalar }
        return .uid(try self.encodeObject(value, codingPath: codingPath).rawValue)
    }

    /// Completes the archive: flushes escaped encoders, then returns the archive. The session is
    /// finished: ``close()`` or ``recycle(into:)`` it.
    /// - Parameter top: The top-level keys and their values: UIDs returned by
    ///   ``encodeObject(_:codingPath:)``, or scalars stored inline.
    /// - Throws: `EncodingError.invalidValue` if an escaped encoder was misused after its value completed.
    func finish(top: [(key: String, value: ArchiveEncodingTable.Value)]) throws -> KeyedArchive {
        try self.flushEscapedEncoders()
        let entries = top.map { KeyedArchive.TopEntry(key: $0.key, value: self.table.builder.propertyList($0.value)) }
        return KeyedArchive(top: entries, objects: self.table.propertyListObjects)
    }

    /// Completes the archive as ``finish(top:)`` does, and returns it as a binary property list:
    /// the bytes `finish(top:).serialized(as: .binary)` returns, written without building the tree.
    /// - Parameter top: The top-level keys and their values, as for ``finish(top:)``.
    /// - Throws: `EncodingError.invalidValue` if an escaped encoder was misused after its value completed.
    func finishBinary(top: some Collection<(key: String, value: ArchiveEncodingTable.Value)>) throws -> Data {
        try self.flushEscapedEncoders()
        return self.table.binaryPropertyList(top: top)
    }

    private func flushEscapedEncoders() throws {
        for encoder in self.escapedEncoders { _ = encoder.flush() }
        if let misuse { throw misuse }
    }

    /// Releases the encoders and retained instances, breaking the encoders' references to the
    /// session. Encoders that escaped keep the session alive, but not its table.
    func close() {
        if !self.escapedEncoders.isEmpty {
            self.escapedEncoders = []
            self.table = ArchiveEncodingTable()
            // Keys cached for the old table's strings are void in the new one.
            self.objectKeys.removeAll()
            self.newObjectKeys = []
            for info in self.typeInfos.values { info.objectKeys = nil }
        }
        self.spareEncoders = []
        self.retainedInstances = []
        self.instanceUIDs = [:]
    }

    // MARK: - Objects

    /// Encodes a value that needs an object and returns its UID.
    ///
    /// Strings, numbers and data are interned leaves; `Date`, `UUID` and `URL` become `NSDate`,
    /// `NSUUID` and `NSURL`; sets and dictionaries become `NSSet` and `NSDictionary`; class instances
    /// are stored once; anything else is encoded through `encode(to:)`.
    func encode<T: Encodable>(_ value: T, parent: ArchiveEncodingParent, key: (any CodingKey)?) throws -> UID {
        if let leaf = self.leaf(of: value) { return self.table.leaf(leaf) }
        return try self.encodeComposite(value, parent: parent, key: key)
    }

    /// The leaf a value is stored as, as ``leafValue(_:)`` finds it, but skipping the type checks
    /// for types already found not to be leaves.
    @inline(__always)
    func leaf<T>(of value: T) -> Leaf? {
        let identifier = ObjectIdentifier(T.self)
        let slot = Self.typeSlot(identifier)
        if self.compositeTypes[slot] == identifier || self.compositeTypes[slot + 1] == identifier { return nil }
        if let leaf = Self.leafValue(value) { return leaf }
        self.rememberComposite(T.self, slot: slot)
        return nil
    }

    @inline(never)
    private func rememberComposite<T>(_ type: T.Type, slot: Int) {
        // Whether a 128-bit integer is a leaf depends on its value, not only on its type.
        if #available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *) {
            if T.self == Int128.self || T.self == UInt128.self { return }
        }
        self.compositeTypes[slot + 1] = self.compositeTypes[slot]
        self.compositeTypes[slot] = ObjectIdentifier(T.self)
    }

    /// Encodes a value that is not a leaf (see ``leafValue(_:)``) as an object and returns its UID.
    func encodeComposite<T: Encodable>(
        _ value: T,
        parent: ArchiveEncodingParent,
        key: (any CodingKey)?
    ) throws -> UID {
        // After an exact type check, a bit cast reads the same value without a dynamic cast.
        if T.self == Date.self { return self.table.addDate(unsafeBitCast(value, to: Date.self)) }
        if T.self == UUID.self { return self.table.addUUID(unsafeBitCast(value, to: UUID.self)) }
        if T.self == URL.self { return self.table.addURL(unsafeBitCast(value, to: URL.self)) }

        let info = self.typeInfo(of: value)
        // A type that writes its object itself, found once per type.
        if let direct = info.objectEncoder,
            let uid = try direct.encodeArchiveValue(value, in: self, info: info, parent: parent, key: key)
        {
            return uid
        }
        // An enum stored as its raw string, found once per type.
        if let rawValue = info.rawValueEncoder, let uid = rawValue.encodeArchiveRawValue(value, in: self) {
            return uid
        }
        switch info.kind {
        case .value:
            break
        case .instance:
            return try self.encodeInstance(value, info: info, parent: parent, key: key)
        case .array:
            // The type's own conformance, found once per type: a cast to `Self` is cheaper than to the protocol.
            if let marker = info.arrayMarker,
                let uid = try marker.encodeArchiveArray(value, in: self, parent: parent, key: key)
            {
                return uid
            }
            if let array = value as? any _ArchiveArrayEncodableMarker {
                return try self.encodeArray(array, parent: parent, key: key)
            }
        case .set:
            if let set = value as? any _ArchiveSetEncodableMarker {
                return try self.encodeSet(set, at: parent.appending(key))
            }
        case .dictionary:
            if let dictionary = value as? any _ArchiveDictionaryEncodableMarker {
                return try self.encodeDictionary(dictionary, at: parent.appending(key))
            }
        }
        let encoder = self.makeEncoder(parent: parent, key: key, typeInfo: info)
        try value.encode(to: encoder)
        return try self.complete(consume encoder)
    }

    /// Encodes a class instance once; later references get the same UID.
    private func encodeInstance<T: Encodable>(
        _ value: T,
        info: ArchiveEncodingTypeInfo,
        parent: ArchiveEncodingParent,
        key: (any CodingKey)?
    ) throws -> UID {
        let object = value as AnyObject
        let identifier = ObjectIdentifier(object)
        if let uid = self.instanceUIDs[identifier] {
            guard uid != Self.pendingInstance else {
                throw Self.invalidValue(
                    value,
                    at: parent.appending(key),
                    "A \(T.self) instance refers to itself through a single-value container."
                )
            }
            return uid
        }
        self.instanceUIDs[identifier] = Self.pendingInstance
        self.retainedInstances.append(object)
        let encoder = self.makeEncoder(parent: parent, key: key, typeInfo: info)
        encoder.instance = identifier
        try value.encode(to: encoder)
        let uid = try self.complete(consume encoder)
        self.instanceUIDs[identifier] = uid
        return uid
    }

    /// Writes an encoder's object to the table once its value's `encode(to:)` has returned.
    ///
    /// Takes the caller's reference, so that keeping the encoder for reuse moves it rather than
    /// retaining it once more.
    private func complete(_ encoder: consuming _ArchiveEncoder) throws -> UID {
        if self.hasMisuse, let misuse {
            self.misuse = nil
            throw misuse
        }
        let childEscaped = encoder.flush()
        let uid = encoder.resultUID
        if childEscaped || !isKnownUniquelyReferenced(&encoder) {
            // It may be asked for its path later, when its parent encoder may be gone or reused.
            encoder.releaseParentEncoder(keepingPath: true)
            self.escapedEncoders.append(encoder)
        } else {
            // Nothing else refers to it: its next value can reuse it and its buffers.
            encoder.releaseParentEncoder(keepingPath: false)
            self.spareEncoders.append(encoder)
        }
        return uid
    }

    /// An encoder for a value, reused from a complete one when possible.
    private func makeEncoder(
        parent: ArchiveEncodingParent,
        key: (any CodingKey)?,
        typeInfo: ArchiveEncodingTypeInfo
    ) -> _ArchiveEncoder {
        if let encoder = self.spareEncoders.popLast() {
            encoder.reuse(parent: parent, key: key, typeInfo: typeInfo)
            return encoder
        }
        return _ArchiveEncoder(session: self, parent: parent, key: key, typeInfo: typeInfo)
    }

    /// Registers a class instance under the UID reserved for its object.
    func register(_ instance: ObjectIdentifier, as uid: UID) {
        self.instanceUIDs[instance] = uid
    }

    /// Encodes an array as `Array.encode(to:)` does through an unkeyed container, without the
    /// encoder: the `NSArray`'s UID first, then its elements, then the `NSArray` class on first use.
    func encodeArray(
        _ array: some _ArchiveArrayEncodableMarker,
        parent: ArchiveEncodingParent,
        key: (any CodingKey)?
    ) throws -> UID {
        let uid = self.table.reserve()
        let values: ArchiveEncodingTable.Value
        if let strings = array.archiveStrings {
            values = self.table.stringArray(strings)
        } else {
            let elements = try array.encodeArchiveElements(in: self, parent: parent, key: key)
            values = self.table.builder.array(elements)
        }
        self.fillObject(uid, of: self.arrayInfo, .nsObjects, values)
        return uid
    }

    private func encodeSet(_ set: any _ArchiveSetEncodableMarker, at node: CodingPathNode) throws -> UID {
        let uid = self.table.reserve()
        let elements = try set.encodeArchiveElements(in: self, at: node)
        let array = self.table.builder.array(elements)
        self.fillObject(uid, of: self.setInfo, .nsObjects, array)
        return uid
    }

    private func encodeDictionary(
        _ dictionary: any _ArchiveDictionaryEncodableMarker,
        at node: CodingPathNode
    ) throws -> UID {
        let uid = self.table.reserve()
        let (keys, values) = try dictionary.encodeArchiveEntries(in: self, at: node)
        let keyArray = self.table.builder.array(keys)
        let valueArray = self.table.builder.array(values)
        self.fillObject(uid, of: self.dictionaryInfo, .nsKeys, keyArray, .nsObjects, valueArray)
        return uid
    }

    /// Stores an object of one of Foundation's classes under a reserved UID: `$class` first, then
    /// the entries. The class dictionary is appended now if this is its first use.
    func fillObject(
        _ uid: UID,
        of info: ArchiveEncodingTypeInfo,
        _ key1: ArchiveEncodingTable.FixedKey,
        _ value1: ArchiveEncodingTable.Value,
        _ key2: ArchiveEncodingTable.FixedKey? = nil,
        _ value2: ArchiveEncodingTable.Value? = nil
    ) {
        let classUID = self.classUID(for: info)
        let key1 = self.table.key(key1)
        let key2 = key2.map { self.table.key($0) }
        self.table.fill(uid, classUID: classUID, key1, value1, key2, value2)
    }

    // MARK: - Errors

    /// Records a misuse of the `Encoder` protocol (such as asking for a keyed container after an
    /// unkeyed one), to be thrown when the value completes. The first misuse wins.
    func recordMisuse(at node: CodingPathNode, _ description: String) {
        guard self.misuse == nil else { return }
        self.misuse = EncodingError.invalidValue(
            "",
            EncodingError.Context(codingPath: node.path, debugDescription: description)
        )
    }

    @inline(never)
    static func invalidValue(_ value: Any, at node: CodingPathNode, _ description: String) -> EncodingError {
        EncodingError.invalidValue(value, EncodingError.Context(codingPath: node.path, debugDescription: description))
    }
}
