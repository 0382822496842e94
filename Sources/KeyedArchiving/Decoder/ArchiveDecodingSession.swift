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

/// The state shared by every value decoded from one archive: the object table, the class
/// descriptions met so far, the objects being decoded (for cycle detection) and the class instances
/// already made (so a shared object decodes into one instance).
///
/// Several top-level keys may be decoded through one session; they then share instances.
internal final class ArchiveDecodingSession {
    /// The archive being decoded.
    let archive: KeyedArchive
    /// `archive.objects`, read once.
    let objects: [PropertyListValue]
    /// The user info every decoder reports.
    let userInfo: [CodingUserInfoKey: Any]
    /// The deepest coding path allowed.
    let maximumDepth: Int

    // The caches below are touched for every object; `@exclusivity(unchecked)` drops the dynamic
    // exclusivity checks, which cost more than the work. No access to them overlaps another.

    /// Class descriptions by the UID of their class dictionary; the first few in a list, as
    /// archives use few classes and a short scan beats hashing.
    @exclusivity(unchecked) private var recentClassUIDs: [UInt64] = []
    @exclusivity(unchecked) private var recentClasses: [DecodedClassInfo] = []
    @exclusivity(unchecked) private var moreClasses: [UInt64: DecodedClassInfo] = [:]
    /// What the decoder needs to know about each type it met, in the same arrangement.
    @exclusivity(unchecked) private var recentTypes: [ObjectIdentifier] = []
    @exclusivity(unchecked) private var recentTypeInfos: [DecodedTypeInfo] = []
    @exclusivity(unchecked) private var moreTypes: [ObjectIdentifier: DecodedTypeInfo] = [:]
    /// Whether each object is being decoded; indexed by UID, allocated on first use.
    @exclusivity(unchecked) private var inProgress: [Bool] = []
    /// Class instances already decoded, by UID.
    @exclusivity(unchecked) private var instances: [UInt64: AnyObject] = [:]

    /// How many classes and types the short lists hold.
    private static var recentLimit: Int { 16 }

    /// Creates a session over an archive.
    init(archive: KeyedArchive, options: KeyedArchiveDecoder.Options) {
        self.archive = archive
        self.objects = archive.objects
        self.userInfo = options.userInfo.mapValues { $0 as Any }
        self.maximumDepth = options.limits.maximumDepth
    }

    /// Decodes the object a UID refers to.
    /// - Parameters:
    ///   - type: The type to decode.
    ///   - uid: The object's UID, such as a `$top` entry.
    ///   - codingPath: The coding path of the object.
    /// - Throws: `DecodingError`.
    func decodeObject<T: Decodable>(_ type: T.Type, uid: UID, codingPath: CodingPathNode) throws -> T {
        let decoder = _ArchiveDecoder(session: self, object: KeyedArchive.nullObject, uid: nil, codingPath: codingPath)
        let position = ArchiveDecodingPosition(parent: codingPath, key: nil, owner: nil)
        return try decoder.decode(type, stored: .uid(uid), at: position)
    }

    /// The object a UID refers to, or `nil` if the UID is out of range.
    @inline(__always)
    func object(at uid: UID) -> PropertyListValue? {
        guard uid.rawValue < UInt64(self.objects.count) else { return nil }
        return self.objects[Int(truncatingIfNeeded: uid.rawValue)]
    }

    /// The class of an object dictionary.
    /// - Throws: ``KeyedArchiveError`` if `$class` is missing or does not lead to a class dictionary.
    func classInfo(of object: PropertyListDictionary, uid: UID?) throws(KeyedArchiveError) -> DecodedClassInfo {
        guard case .uid(let classUID)? = object["$class"] else {
            throw KeyedArchiveError(.missingClass, uid: uid, reason: "object dictionary without a $class UID")
        }
        if let index = self.recentClassUIDs.firstIndex(of: classUID.rawValue) {
            return self.recentClasses[index]
        }
        if let known = self.moreClasses[classUID.rawValue] {
            return known
        }
        guard let classObject = self.object(at: classUID) else {
            throw KeyedArchiveError(
                .invalidReference,
                uid: classUID,
                reason: "$class \(classUID) is not below the object count \(self.objects.count)"
            )
        }
        let info = DecodedClassInfo(try ArchivedClass(propertyList: classObject, uid: classUID))
        if self.recentClassUIDs.count < Self.recentLimit {
            self.recentClassUIDs.append(classUID.rawValue)
            self.recentClasses.append(info)
        } else {
            self.moreClasses[classUID.rawValue] = info
        }
        return info
    }

    /// What the decoder needs to know about a type that decodes itself.
    @inline(__always)
    func typeInfo<T: Decodable>(_ type: T.Type) -> DecodedTypeInfo {
        let identifier = ObjectIdentifier(type)
        if let index = self.recentTypes.firstIndex(of: identifier) {
            return self.recentTypeInfos[index]
        }
        return self.addTypeInfo(type)
    }

    private func addTypeInfo<T: Decodable>(_ type: T.Type) -> DecodedTypeInfo {
        let identifier = ObjectIdentifier(type)
        if let known = self.moreTypes[identifier] { return known }
        let info = DecodedTypeInfo(type)
        if self.recentTypes.count < Self.recentLimit {
            self.recentTypes.append(identifier)
            self.recentTypeInfos.append(info)
        } else {
            self.moreTypes[identifier] = info
        }
        return info
    }

    /// Whether the object is being decoded, so that decoding it again would never end.
    @inline(__always)
    func isInProgress(_ uid: UID) -> Bool {
        let index = Int(truncatingIfNeeded: uid.rawValue)
        return index < self.inProgress.count && self.inProgress[index]
    }

    /// Marks an object as being decoded. `uid` must be in range.
    @inline(__always)
    func begin(_ uid: UID) {
        if self.inProgress.isEmpty {
            self.inProgress = Array(repeating: false, count: self.objects.count)
        }
        self.inProgress[Int(truncatingIfNeeded: uid.rawValue)] = true
    }

    /// Marks an object as decoded.
    @inline(__always)
    func end(_ uid: UID) {
        self.inProgress[Int(truncatingIfNeeded: uid.rawValue)] = false
    }

    /// The class instance already decoded for a UID, if any.
    @inline(__always)
    func instance(for uid: UID) -> AnyObject? {
        self.instances.isEmpty ? nil : self.instances[uid.rawValue]
    }

    /// Remembers the class instance decoded for a UID.
    func remember(_ instance: AnyObject, for uid: UID) {
        self.instances[uid.rawValue] = instance
    }

    /// Describes an object for an error message: `object UID(7) (class Cat)`, `object UID(3) (string)`.
    func describe(_ uid: UID) -> String {
        guard let object = self.object(at: uid) else {
            return "UID(\(uid.rawValue)) (beyond the \(self.objects.count) objects)"
        }
        if uid.rawValue == 0 { return "object UID(0) ($null)" }
        guard case .dictionary(let dictionary) = object else {
            return "object \(uid) (\(object.kindName))"
        }
        if let info = try? self.classInfo(of: dictionary, uid: uid) {
            return "object \(uid) (class \(info.name))"
        }
        return "object \(uid) (dictionary without a valid $class)"
    }
}
