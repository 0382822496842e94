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

/// The state shared by every value decoded from one archive: the archive's bytes read in place,
/// the class descriptions met so far, the objects being decoded (for cycle detection) and the class
/// instances already made (so a shared object decodes into one instance).
///
/// The session reads `$top` and `$objects` straight from a binary property list; an XML archive or
/// an archive model is written as one first. Several top-level keys may be decoded through one
/// session; they then share instances.
internal final class ArchiveDecodingSession {
    /// The archive's property list, read in place.
    let plist: InPlaceBinaryPropertyList
    /// `$objects`: the object table, an array of references.
    let objectTable: InPlaceRegion
    /// `$top`: the top-level keys and their values.
    let topTable: InPlaceRegion
    /// The number of objects in `$objects`.
    var objectCount: Int { self.objectTable.count }
    /// `$objects[0]`, the `$null` placeholder string that UID 0 refers to.
    let nullObject: InPlaceValue
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
    @exclusivity(unchecked) private var recentClassKinds: [DecodedClassInfo.Kind] = []
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

    /// Creates a session over archive bytes, binary or XML.
    /// - Throws: ``KeyedArchiveError`` if the bytes are not a keyed archive.
    convenience init(bytes: some DataProtocol, options: KeyedArchiveDecoder.Options) throws(KeyedArchiveError) {
        guard PropertyListFormat(detecting: bytes) == .binary else {
            try self.init(archive: KeyedArchive(parsing: bytes, limits: options.limits), options: options)
            return
        }
        let plist: InPlaceBinaryPropertyList
        do throws(PropertyListError) {
            plist = try InPlaceBinaryPropertyList(copying: bytes, limits: options.limits)
        } catch {
            throw KeyedArchiveError(.malformedPropertyList, reason: "not a property list", underlying: error)
        }
        try self.init(plist: plist, options: options)
    }

    /// Creates a session over an archive that has already been read: its binary form, which holds
    /// the same objects under the same UIDs.
    convenience init(archive: KeyedArchive, options: KeyedArchiveDecoder.Options) throws(KeyedArchiveError) {
        // The archive passed the limits when it was read or is the caller's own: its size and
        // object count are not checked again, every other bound is.
        var limits = options.limits
        limits.maximumInputSize = .max
        limits.maximumObjectCount = .max
        let plist: InPlaceBinaryPropertyList
        do throws(PropertyListError) {
            plist = try InPlaceBinaryPropertyList(copying: archive.serialized(as: .binary), limits: limits)
        } catch {
            throw KeyedArchiveError(.malformedPropertyList, reason: "not a property list", underlying: error)
        }
        try self.init(plist: plist, options: options)
    }

    /// Creates a session over a property list, checking that it is a keyed archive as
    /// `KeyedArchive(propertyList:)` does, with the same codes.
    private init(plist: InPlaceBinaryPropertyList, options: KeyedArchiveDecoder.Options) throws(KeyedArchiveError) {
        let tables = try Self.tables(of: plist)
        self.plist = plist
        self.objectTable = tables.objects
        self.topTable = tables.top
        self.nullObject = tables.null
        self.userInfo = options.userInfo.mapValues { $0 as Any }
        self.maximumDepth = options.limits.maximumDepth
        self.limits = options.limits
        self.decodedSizeBudget = max(0, options.limits.decodedSizeAllowance)
    }

    /// Finds `$objects` and `$top`, checking `$archiver`, `$version`, `$null` and the `$top` values.
    private static func tables(
        of plist: InPlaceBinaryPropertyList
    ) throws(KeyedArchiveError) -> (objects: InPlaceRegion, top: InPlaceRegion, null: InPlaceValue) {
        do {
            let root = try plist.value(at: plist.topObjectIndex)
            guard case .dictionary(let dictionary) = root else {
                throw KeyedArchiveError(.notAnArchive, reason: "the top level is a \(root.kindName), not a dictionary")
            }
            guard let archiver = try plist.value(forKey: "$archiver", in: dictionary) else {
                throw KeyedArchiveError(.notAnArchive, reason: "no $archiver key")
            }
            guard case .string(let name) = archiver, try plist.string(name) == KeyedArchive.archiverName else {
                let shown = try Self.describe("$archiver", in: dictionary, of: plist)
                throw KeyedArchiveError(.unsupportedArchiver, reason: "$archiver is \(shown), not NSKeyedArchiver")
            }
            guard let version = try plist.value(forKey: "$version", in: dictionary) else {
                throw KeyedArchiveError(.notAnArchive, reason: "no $version key")
            }
            guard case .integer(let number) = version, number.exactly(Int.self) == KeyedArchive.formatVersion else {
                let shown = try Self.describe("$version", in: dictionary, of: plist)
                throw KeyedArchiveError(.unsupportedVersion, reason: "$version is \(shown), not 100000")
            }
            guard case .array(let objects)? = try plist.value(forKey: "$objects", in: dictionary) else {
                throw KeyedArchiveError(.invalidObjects, reason: "$objects is missing or not an array")
            }
            guard objects.count > 0, case .string(let null) = try plist.value(at: plist.element(of: objects, at: 0)),
                try plist.string(null) == "$null"
            else {
                throw KeyedArchiveError(.invalidObjects, reason: "$objects does not start with $null")
            }
            guard case .dictionary(let top)? = try plist.value(forKey: "$top", in: dictionary) else {
                throw KeyedArchiveError(.invalidTop, reason: "$top is missing or not a dictionary")
            }
            for position in 0..<top.count {
                let value = try plist.value(at: plist.value(of: top, at: position))
                switch value {
                case .array, .dictionary:
                    let key = (try? plist.propertyList(at: plist.key(of: top, at: position), depth: 0))?.stringValue
                    throw KeyedArchiveError(
                        .invalidTop,
                        reason: "$top[\"\(key ?? "?")\"] is a \(value.kindName), not a UID or an inline scalar"
                    )
                default: continue
                }
            }
            return (objects, top, .string(null))
        } catch let error as KeyedArchiveError {
            throw error
        } catch {
            throw KeyedArchiveError(
                .malformedPropertyList,
                reason: "not a property list",
                underlying: error as? PropertyListError
            )
        }
    }

    /// The value under a key of the root dictionary, as `InPlaceValue` prints it.
    private static func describe(
        _ key: String,
        in dictionary: InPlaceRegion,
        of plist: InPlaceBinaryPropertyList
    ) throws(PropertyListError) -> String {
        guard let position = plist.position(ofKey: key, in: dictionary) else { return "absent" }
        return "\(try plist.propertyList(at: plist.value(of: dictionary, at: position), depth: 4))"
    }

    /// Decodes the value of a `$top` entry: the object a UID refers to, or a scalar stored inline.
    /// - Parameters:
    ///   - type: The type to decode.
    ///   - stored: The `$top` value.
    ///   - codingPath: The coding path of the value.
    /// - Throws: `DecodingError`.
    func decodeTopLevel<T: Decodable>(_ type: T.Type, stored: InPlaceValue, codingPath: CodingPathNode) throws -> T {
        let decoder = _ArchiveDecoder(session: self, object: self.nullObject, uid: nil, codingPath: codingPath)
        let position = ArchiveDecodingPosition(parent: codingPath, key: nil, owner: nil)
        return try decoder.decode(type, stored: stored, at: position)
    }

    /// The `$top` keys, as stored, in archive order.
    func topKeys() throws(KeyedArchiveError) -> [String] {
        var keys: [String] = []
        for position in 0..<self.topTable.count {
            keys.append(try self.string(atObject: self.plist.key(of: self.topTable, at: position)))
        }
        return keys
    }

    /// The value stored under a `$top` key, if there is one.
    func topValue(forKey key: String) throws(KeyedArchiveError) -> InPlaceValue? {
        guard let position = self.plist.position(ofKey: key, in: self.topTable) else { return nil }
        return try self.read(self.plist.value(of: self.topTable, at: position))
    }

    /// The value of the root object: under `root`, or under the only top-level key.
    /// - Throws: `DecodingError.keyNotFound` if there is neither.
    func rootValue() throws -> InPlaceValue {
        if let root = try self.topValue(forKey: "root") { return root }
        if self.topTable.count == 1 { return try self.read(self.plist.value(of: self.topTable, at: 0)) }
        throw DecodingError.archiveMissingTopKey("root", available: try self.topKeys())
    }

    // MARK: - Reading objects

    /// The object at a bplist object index.
    @inline(__always)
    func read(_ index: Int) throws(KeyedArchiveError) -> InPlaceValue {
        do {
            return try self.plist.value(at: index)
        } catch {
            throw Self.malformed(error)
        }
    }

    /// The object a UID refers to, or `nil` if the UID is out of range.
    @inline(__always)
    func object(at uid: UID) throws(KeyedArchiveError) -> InPlaceValue? {
        guard uid.rawValue < UInt64(self.objectTable.count) else { return nil }
        return try self.read(self.plist.element(of: self.objectTable, at: Int(truncatingIfNeeded: uid.rawValue)))
    }

    /// The string of a string region.
    @inline(__always)
    func string(_ region: InPlaceRegion) throws(KeyedArchiveError) -> String {
        do {
            return try self.plist.string(region)
        } catch {
            throw Self.malformed(error)
        }
    }

    /// The string at a bplist object index, which must be a string.
    func string(atObject index: Int) throws(KeyedArchiveError) -> String {
        guard case .string(let region) = try self.read(index) else {
            throw KeyedArchiveError(.malformedPropertyList, reason: "dictionary key (object \(index)) is not a string")
        }
        return try self.string(region)
    }

    /// The value under a key of a dictionary, if it has the key.
    @inline(__always)
    func value(forKey key: String, in dictionary: InPlaceRegion) throws(KeyedArchiveError) -> InPlaceValue? {
        guard let position = self.plist.position(ofKey: key, in: dictionary) else { return nil }
        return try self.read(self.plist.value(of: dictionary, at: position))
    }

    /// The error for an object of the property list that is not valid.
    @inline(never)
    static func malformed(_ error: PropertyListError) -> KeyedArchiveError {
        KeyedArchiveError(.malformedPropertyList, reason: "not a property list", underlying: error)
    }

    /// The kind of class of an object dictionary, without handing out its description.
    /// - Throws: ``KeyedArchiveError`` if `$class` is missing or does not lead to a class dictionary.
    @inline(__always)
    func classKind(of object: InPlaceRegion, uid: UID?) throws(KeyedArchiveError) -> DecodedClassInfo.Kind {
        let classUID = try self.classUID(of: object, uid: uid)
        if let index = self.recentClassUIDs.firstIndex(of: classUID.rawValue) {
            return self.recentClassKinds[index]
        }
        return try self.classInfo(ofClass: classUID).kind
    }

    /// The class of an object dictionary.
    /// - Throws: ``KeyedArchiveError`` if `$class` is missing or does not lead to a class dictionary.
    func classInfo(of object: InPlaceRegion, uid: UID?) throws(KeyedArchiveError) -> DecodedClassInfo {
        try self.classInfo(ofClass: self.classUID(of: object, uid: uid))
    }

    /// The UID of an object dictionary's class.
    @inline(__always)
    private func classUID(of object: InPlaceRegion, uid: UID?) throws(KeyedArchiveError) -> UID {
        guard case .uid(let classUID)? = try self.classReference(of: object) else {
            throw KeyedArchiveError(.missingClass, uid: uid, reason: "object dictionary without a $class UID")
        }
        return classUID
    }

    /// The class whose class dictionary has `classUID`, read once and then kept.
    private func classInfo(ofClass classUID: UID) throws(KeyedArchiveError) -> DecodedClassInfo {
        if let index = self.recentClassUIDs.firstIndex(of: classUID.rawValue) {
            return self.recentClasses[index]
        }
        if let known = self.moreClasses[classUID.rawValue] {
            return known
        }
        guard classUID.rawValue < UInt64(self.objectCount) else {
            throw KeyedArchiveError(
                .invalidReference,
                uid: classUID,
                reason: "$class \(classUID) is not below the object count \(self.objectCount)"
            )
        }
        let classObject: PropertyListValue
        do {
            // A class dictionary holds `$classname`, and arrays of names in `$classes` and `$classhints`.
            let index = self.plist.element(of: self.objectTable, at: Int(truncatingIfNeeded: classUID.rawValue))
            classObject = try self.plist.propertyList(at: index, depth: 2)
        } catch {
            throw Self.malformed(error)
        }
        let info = DecodedClassInfo(try ArchivedClass(propertyList: classObject, uid: classUID))
        if self.recentClassUIDs.count < Self.recentLimit {
            self.recentClassUIDs.append(classUID.rawValue)
            self.recentClasses.append(info)
            self.recentClassKinds.append(info.kind)
        } else {
            self.moreClasses[classUID.rawValue] = info
        }
        return info
    }

    /// The value of an object's `$class` key. `NSKeyedArchiver` writes it last, so the last key is
    /// looked at first.
    @inline(__always)
    private func classReference(of object: InPlaceRegion) throws(KeyedArchiveError) -> InPlaceValue? {
        guard object.count > 0 else { return nil }
        let last = object.count - 1
        let isLast = ("$class" as StaticString).withUTF8Buffer { classKey in
            self.plist.isString(self.plist.key(of: object, at: last), equalTo: classKey)
        }
        if isLast { return try self.read(self.plist.value(of: object, at: last)) }
        return try self.value(forKey: "$class", in: object)
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
            self.inProgress = Array(repeating: 0, count: self.objectCount)
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
            self.decodedSizeBudget = self.limits.decodedSizeBudget(forInputSize: self.distinctDecodedSize())
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
        guard let object = try? self.object(at: uid) else {
            return "UID(\(uid.rawValue)) (beyond the \(self.objectCount) objects)"
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

    /// The decoded size (see `PropertyListLimits`) of the archive's own objects, each counted once,
    /// with every UID in them counted as one value: the baseline that the decoded size of decoding
    /// is compared against, as `KeyedArchive` computes it for a tree.
    private func distinctDecodedSize() -> Int {
        var sizes: [Int: Int] = [:]
        var size = 0
        for position in 0..<self.objectTable.count {
            let index = self.plist.element(of: self.objectTable, at: position)
            size = min(size &+ self.decodedSize(of: index, depth: 0, sizes: &sizes), Int.max / 4)
        }
        return size
    }

    /// The decoded size of one object with what it contains, each shared value counted where it
    /// stands, as in a tree; computed once per object, and bounded in depth so that a container
    /// that contains itself ends.
    private func decodedSize(of index: Int, depth: Int, sizes: inout [Int: Int]) -> Int {
        let unit = PropertyListLimits.decodedValueSize
        if let known = sizes[index] { return known }
        guard depth <= self.maximumDepth, let value = try? self.plist.value(at: index) else { return unit }
        var size = unit
        switch value {
        case .string(let region): size = unit &+ self.plist.storedLength(of: region)
        case .data(let region): size = unit &+ region.count
        case .array(let region):
            for position in 0..<region.count {
                let element = self.plist.element(of: region, at: position)
                size = min(size &+ self.decodedSize(of: element, depth: depth + 1, sizes: &sizes), Int.max / 4)
            }
        case .dictionary(let region):
            for position in 0..<region.count {
                let key = self.decodedSize(
                    of: self.plist.key(of: region, at: position),
                    depth: depth + 1,
                    sizes: &sizes
                )
                let value = self.decodedSize(
                    of: self.plist.value(of: region, at: position),
                    depth: depth + 1,
                    sizes: &sizes
                )
                size = min(size &+ key &+ value, Int.max / 4)
            }
        default: break
        }
        sizes[index] = size
        return size
    }
}
