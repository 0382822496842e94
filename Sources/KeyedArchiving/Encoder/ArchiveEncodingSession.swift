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
/// archive. Call ``finish(top:)`` or ``close()`` to release them.
internal final class ArchiveEncodingSession {
    /// The choices that shape an archive.
    struct Options {
        /// Class names set with ``KeyedArchiveEncoder/setClassName(_:for:)``, by type.
        var classNames: [ObjectIdentifier: String] = [:]
        /// Contextual information for `encode(to:)` implementations.
        var userInfo: [CodingUserInfoKey: any Sendable] = [:]
    }

    /// A UID marking a class instance whose encoding has started but has no UID yet.
    private static let pendingInstance = UID(UInt64.max)

    /// `$objects` as built so far.
    @exclusivity(unchecked) var table = ArchiveObjectTable()
    let options: Options
    /// ``Options/userInfo`` in the form `Encoder` exposes it.
    let userInfo: [CodingUserInfoKey: Any]

    @exclusivity(unchecked) private var typeInfos: [ObjectIdentifier: ArchiveEncodingTypeInfo] = [:]
    /// The UID of every class instance met so far, by identity.
    @exclusivity(unchecked) private var instanceUIDs: [ObjectIdentifier: UID] = [:]
    /// Keeps every instance in ``instanceUIDs`` alive, so no identifier is reused during the session.
    @exclusivity(unchecked) private var retainedInstances: [AnyObject] = []
    /// Encoders still referenced after their value was complete; flushed again by ``finish(top:)``.
    @exclusivity(unchecked) private var escapedEncoders: [_ArchiveEncoder] = []
    /// The first misuse of the `Encoder` protocol, thrown when the value that caused it completes.
    @exclusivity(unchecked) private var misuse: EncodingError?

    let arrayInfo = ArchiveEncodingTypeInfo(foundationClass: "NSArray")
    let dictionaryInfo = ArchiveEncodingTypeInfo(foundationClass: "NSDictionary")
    let setInfo = ArchiveEncodingTypeInfo(foundationClass: "NSSet")

    init(options: Options) {
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
        return try self.encode(value, parent: parent, key: codingPath.last)
    }

    /// Completes the archive: flushes escaped encoders, then releases everything the session holds.
    /// - Parameter top: The top-level keys and the UIDs returned by ``encodeObject(_:codingPath:)``.
    /// - Throws: `EncodingError.invalidValue` if an escaped encoder was misused after its value completed.
    func finish(top: [(key: String, uid: UID)]) throws -> KeyedArchive {
        defer { self.close() }
        for encoder in self.escapedEncoders { _ = encoder.flush() }
        if let misuse { throw misuse }
        return KeyedArchive(top: top, objects: self.table.objects)
    }

    /// Releases the escaped encoders and retained instances, breaking their references to the session.
    func close() {
        self.escapedEncoders = []
        self.retainedInstances = []
        self.instanceUIDs = [:]
        self.typeInfos = [:]
    }

    // MARK: - Objects

    /// Encodes a value that needs an object and returns its UID.
    ///
    /// Strings, numbers and data are interned leaves; `Date`, `UUID` and `URL` become `NSDate`,
    /// `NSUUID` and `NSURL`; sets and dictionaries become `NSSet` and `NSDictionary`; class instances
    /// are stored once; anything else is encoded through `encode(to:)`.
    func encode<T: Encodable>(_ value: T, parent: CodingPathNode, key: (any CodingKey)?) throws -> UID {
        if let leaf = Self.leafValue(value) { return self.table.leaf(leaf) }
        return try self.encodeComposite(value, parent: parent, key: key)
    }

    /// Encodes a value that is not a leaf (see ``leafValue(_:)``) as an object and returns its UID.
    func encodeComposite<T: Encodable>(_ value: T, parent: CodingPathNode, key: (any CodingKey)?) throws -> UID {
        if T.self == Date.self, let date = value as? Date { return self.table.addDate(date) }
        if T.self == UUID.self, let uuid = value as? UUID { return self.table.addUUID(uuid) }
        if T.self == URL.self, let url = value as? URL { return self.table.addURL(url) }

        let info = self.typeInfo(of: value)
        switch info.kind {
        case .value:
            break
        case .instance:
            return try self.encodeInstance(value, info: info, parent: parent, key: key)
        case .set:
            if let set = value as? any _ArchiveSetEncodableMarker {
                return try self.encodeSet(set, at: parent.appending(key))
            }
        case .dictionary:
            if let dictionary = value as? any _ArchiveDictionaryEncodableMarker {
                return try self.encodeDictionary(dictionary, at: parent.appending(key))
            }
        }
        var encoder = _ArchiveEncoder(session: self, parentNode: parent, key: key, typeInfo: info)
        try value.encode(to: encoder)
        return try self.complete(&encoder)
    }

    /// Encodes a class instance once; later references get the same UID.
    private func encodeInstance<T: Encodable>(
        _ value: T,
        info: ArchiveEncodingTypeInfo,
        parent: CodingPathNode,
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
        var encoder = _ArchiveEncoder(session: self, parentNode: parent, key: key, typeInfo: info)
        encoder.instance = identifier
        try value.encode(to: encoder)
        let uid = try self.complete(&encoder)
        self.instanceUIDs[identifier] = uid
        return uid
    }

    /// Writes an encoder's object to the table once its value's `encode(to:)` has returned.
    private func complete(_ encoder: inout _ArchiveEncoder) throws -> UID {
        if let misuse {
            self.misuse = nil
            throw misuse
        }
        let childEscaped = encoder.flush()
        if childEscaped || !isKnownUniquelyReferenced(&encoder) {
            self.escapedEncoders.append(encoder)
        }
        return encoder.resultUID
    }

    /// Registers a class instance under the UID reserved for its object.
    func register(_ instance: ObjectIdentifier, as uid: UID) {
        self.instanceUIDs[instance] = uid
    }

    private func encodeSet(_ set: any _ArchiveSetEncodableMarker, at node: CodingPathNode) throws -> UID {
        let uid = self.table.reserve()
        let elements = try set.encodeArchiveElements(in: self, at: node)
        self.fillObject(uid, of: self.setInfo, "NS.objects", .array(elements))
        return uid
    }

    private func encodeDictionary(
        _ dictionary: any _ArchiveDictionaryEncodableMarker,
        at node: CodingPathNode
    ) throws -> UID {
        let uid = self.table.reserve()
        let (keys, values) = try dictionary.encodeArchiveEntries(in: self, at: node)
        self.fillObject(uid, of: self.dictionaryInfo, "NS.keys", .array(keys), "NS.objects", .array(values))
        return uid
    }

    /// Stores an object of one of Foundation's classes under a reserved UID: `$class` first, then
    /// the entries. The class dictionary is appended now if this is its first use.
    func fillObject(_ uid: UID, of info: ArchiveEncodingTypeInfo, _ key: String, _ value: PropertyListValue) {
        var object = PropertyListDictionary()
        object.reserveCapacity(2)
        object.updateValue(.uid(self.classUID(for: info)), forKey: "$class")
        object.updateValue(value, forKey: key)
        self.table.fill(uid, with: .dictionary(object))
    }

    /// Stores an object of one of Foundation's classes with two entries under a reserved UID.
    func fillObject(
        _ uid: UID,
        of info: ArchiveEncodingTypeInfo,
        _ key1: String,
        _ value1: PropertyListValue,
        _ key2: String,
        _ value2: PropertyListValue
    ) {
        var object = PropertyListDictionary()
        object.reserveCapacity(3)
        object.updateValue(.uid(self.classUID(for: info)), forKey: "$class")
        object.updateValue(value1, forKey: key1)
        object.updateValue(value2, forKey: key2)
        self.table.fill(uid, with: .dictionary(object))
    }

    // MARK: - Classes

    /// The UID of a type's class dictionary, appending it on first use.
    func classUID(for info: ArchiveEncodingTypeInfo) -> UID {
        if let uid = info.classUID { return uid }
        let uid = self.table.classReference(info.archivedClass)
        info.classUID = uid
        return uid
    }

    private func typeInfo<T: Encodable>(of value: T) -> ArchiveEncodingTypeInfo {
        let type: Any.Type = Swift.type(of: value)
        if let info = self.typeInfos[ObjectIdentifier(type)] { return info }
        return self.makeTypeInfo(of: value, type: type)
    }

    @inline(never)
    private func makeTypeInfo<T: Encodable>(of value: T, type: Any.Type) -> ArchiveEncodingTypeInfo {
        let kind: ArchiveEncodingTypeInfo.Kind
        if value is any _ArchiveSetEncodableMarker {
            kind = .set
        } else if value is any _ArchiveDictionaryEncodableMarker {
            kind = .dictionary
        } else if type is AnyClass {
            kind = .instance
        } else {
            kind = .value
        }

        let archivedClass: ArchivedClass
        if self.options.classNames[ObjectIdentifier(type)] == nil,
            let naming = type as? any ArchivedClassNaming.Type
        {
            archivedClass = ArchivedClass(name: naming.archivedClassName, classes: naming.archivedClassChain)
        } else {
            let name = self.className(of: type)
            var chain = [name]
            if kind == .instance {
                var superclass = Mirror(reflecting: value).superclassMirror
                while let mirror = superclass {
                    chain.append(self.className(of: mirror.subjectType))
                    superclass = mirror.superclassMirror
                }
            }
            if chain.last != "NSObject" { chain.append("NSObject") }
            archivedClass = ArchivedClass(name: name, classes: chain)
        }
        let info = ArchiveEncodingTypeInfo(kind: kind, archivedClass: archivedClass)
        self.typeInfos[ObjectIdentifier(type)] = info
        return info
    }

    /// A type's class name: set with `setClassName(_:for:)`, else chosen with ``ArchivedClassNaming``,
    /// else its unqualified Swift name.
    private func className(of type: Any.Type) -> String {
        if let name = self.options.classNames[ObjectIdentifier(type)] { return name }
        if let naming = type as? any ArchivedClassNaming.Type { return naming.archivedClassName }
        return String(describing: type)
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
