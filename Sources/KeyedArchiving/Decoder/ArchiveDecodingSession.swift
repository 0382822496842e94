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
    /// The limits decoding runs with.
    let limits: PropertyListLimits

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
    /// For each object being decoded, its position among them (1 for the outermost), else 0;
    /// indexed by UID, allocated on first use. The positions give the path of a cycle.
    @exclusivity(unchecked) private var inProgress: [UInt32] = []
    /// How many objects are being decoded.
    @exclusivity(unchecked) private var activeCount: UInt32 = 0
    /// Class instances already decoded, by UID.
    @exclusivity(unchecked) private var instances: [UInt64: AnyObject] = [:]
    /// The decoded size so far (see `PropertyListLimits`): every container decoded counts its
    /// elements, again each time a shared object is decoded again.
    @exclusivity(unchecked) private var decodedSize = 0
    /// The decoded size allowed: the limits' allowance until it is reached, then the full budget.
    @exclusivity(unchecked) private(set) var decodedSizeBudget: Int
    @exclusivity(unchecked) private var hasFullBudget = false

    /// How many classes and types the short lists hold.
    private static var recentLimit: Int { 16 }

    /// Creates a session over an archive.
    init(archive: KeyedArchive, options: KeyedArchiveDecoder.Options) {
        self.archive = archive
        self.objects = archive.objects
        self.userInfo = options.userInfo.mapValues { $0 as Any }
        self.maximumDepth = options.limits.maximumDepth
        self.limits = options.limits
        self.decodedSizeBudget = max(0, options.limits.decodedSizeAllowance)
    }

    /// Decodes the value of a `$top` entry: the object a UID refers to, or a scalar stored inline.
    /// - Parameters:
    ///   - type: The type to decode.
    ///   - stored: The `$top` value.
    ///   - codingPath: The coding path of the value.
    /// - Throws: `DecodingError`.
    func decodeTopLevel<T: Decodable>(_ type: T.Type, stored: PropertyListValue, codingPath: CodingPathNode) throws -> T
    {
        let decoder = _ArchiveDecoder(session: self, object: KeyedArchive.nullObject, uid: nil, codingPath: codingPath)
        let position = ArchiveDecodingPosition(parent: codingPath, key: nil, owner: nil)
        return try decoder.decode(type, stored: stored, at: position)
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
        return index < self.inProgress.count && self.inProgress[index] != 0
    }

    /// Marks an object as being decoded. `uid` must be in range.
    @inline(__always)
    func begin(_ uid: UID) {
        if self.inProgress.isEmpty {
            self.inProgress = Array(repeating: 0, count: self.objects.count)
        }
        // Nesting is bounded by the depth limit, far below `UInt32.max`.
        self.activeCount &+= 1
        self.inProgress[Int(truncatingIfNeeded: uid.rawValue)] = self.activeCount
    }

    /// Marks an object as decoded.
    @inline(__always)
    func end(_ uid: UID) {
        self.inProgress[Int(truncatingIfNeeded: uid.rawValue)] = 0
        self.activeCount &-= 1
    }

    /// The objects from the one with `uid` to the innermost being decoded, then `uid` again:
    /// the cycle that decoding `uid` now would close.
    func cyclePath(to uid: UID) -> [UID] {
        let index = Int(truncatingIfNeeded: uid.rawValue)
        let start = index < self.inProgress.count && self.inProgress[index] != 0 ? self.inProgress[index] : .max
        let path = self.inProgress.indices
            .filter { self.inProgress[$0] >= start }
            .sorted { self.inProgress[$0] < self.inProgress[$1] }
        return path.map { UID(UInt64($0)) } + [uid]
    }

    /// Counts `count` stored values and their container against the decoded-size budget.
    /// - Returns: `false` if the budget is exceeded.
    @inline(__always)
    func charge(_ count: Int) -> Bool {
        // `count` is at most a collection's size, so the sum stays far from overflowing.
        self.decodedSize &+= (count &+ 1) &* PropertyListLimits.decodedValueSize
        return self.decodedSize <= self.decodedSizeBudget || self.widenBudget()
    }

    /// The error for a decoded size beyond the budget, at the object with `uid`.
    @inline(never)
    func decodedSizeExceeded(uid: UID?) -> KeyedArchiveError {
        KeyedArchiveError(
            .decodedSizeLimitExceeded,
            uid: uid,
            reason: "decoding exceeds the budget of \(self.decodedSizeBudget) decoded bytes, "
                + "as decoding shared objects again and again can"
        )
    }

    /// Once the allowance is used up, computes the full budget from the archive's own size.
    @inline(never)
    private func widenBudget() -> Bool {
        if !self.hasFullBudget {
            self.hasFullBudget = true
            self.decodedSizeBudget = self.limits.decodedSizeBudget(forInputSize: self.archive.distinctDecodedSize)
        }
        return self.decodedSize <= self.decodedSizeBudget
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
