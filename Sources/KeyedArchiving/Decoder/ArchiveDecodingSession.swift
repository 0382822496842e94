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
/// session; they then share instances. A finished session starts again on the next archive
/// (``ArchiveDecoderPool`` keeps it with its root decoder): what it learnt of types stays, what
/// belongs to the archive is emptied.
internal final class ArchiveDecodingSession {
    /// The graph reader over the archive's bytes, whose rules the session applies.
    typealias Graph = ArchiveGraphReader<ArchiveInPlaceList>

    /// The archive's property list, read in place; it reads each archive the session starts on.
    let plist: InPlaceBinaryPropertyList

    /// Where the archive's tables are, set when the session starts on an archive.
    @exclusivity(unchecked) private(set) var input: Input
    /// Whether ``ArchiveObjectDecodable`` conformances read their objects. A session keeps it:
    /// the types it describes depend on it.
    let usesObjectDecoders: Bool
    /// How many decoders of the session exist: ``ArchiveDecoderPool`` keeps a session only while
    /// its root decoder is the one, so that nothing made while decoding still reads it.
    @exclusivity(unchecked) var decoderCount = 0

    /// The objects of ``plist``, read without reference counting; valid while ``plist`` is.
    var reader: InPlaceReader { self.input.reader }
    /// `$objects`: the object table, an array of references.
    var objectTable: InPlaceRegion { self.input.objectTable }
    /// `$top`: the top-level keys and their values.
    var topTable: InPlaceRegion { self.input.topTable }
    /// The number of objects in `$objects`.
    var objectCount: Int { self.input.objectTable.count }
    /// `$objects[0]`, the `$null` placeholder string that UID 0 refers to.
    var nullObject: InPlaceValue { self.input.nullObject }
    /// The user info every decoder reports.
    var userInfo: [CodingUserInfoKey: Any] { self.input.userInfo }
    /// The deepest coding path allowed.
    var maximumDepth: Int { self.input.limits.maximumDepth }
    /// The limits decoding runs with.
    var limits: PropertyListLimits { self.input.limits }

    // The caches below are touched for every object; `@exclusivity(unchecked)` drops the dynamic
    // exclusivity checks, which cost more than the work. No access to them overlaps another.

    /// What the session found in the archive so far, cheap to forget: ``start(options:)`` starts it anew.
    struct Marks {
        /// The object index of the last `$class` key string found, or -1.
        var classKeyObject = -1
        /// The payload offset of the object dictionary whose class UID was last looked up, and that UID.
        var lastClassObject = -1
        var lastClassUID = UID(0)
        /// The decoded size so far (see `PropertyListLimits`): every container decoded counts its
        /// elements, again each time a shared object is decoded again.
        var decodedSize = 0
        /// The decoded size allowed: the limits' allowance until it is reached, then the full budget.
        var decodedSizeBudget: Int
        var hasFullBudget = false

        init(limits: PropertyListLimits) {
            self.decodedSizeBudget = max(0, limits.decodedSizeAllowance)
        }
    }

    @exclusivity(unchecked) private var marks: Marks
    /// The decoded size allowed: the limits' allowance until it is reached, then the full budget.
    var decodedSizeBudget: Int { self.marks.decodedSizeBudget }
    /// Class descriptions beyond the first few, which ``lists`` holds.
    @exclusivity(unchecked) private var moreClasses: [UInt64: DecodedClassInfo] = [:]
    /// Type descriptions beyond the first few, which ``lists`` holds.
    @exclusivity(unchecked) private var moreTypes: [ObjectIdentifier: DecodedTypeInfo] = [:]
    /// The lists the session fills (classes by UID, field keys, types and their key tables, the
    /// objects being decoded; see ``Lists``), a short scan of which beats hashing for the few an
    /// archive uses; ``moreClasses`` and ``moreTypes`` hold the rest.
    @exclusivity(unchecked) private(set) var lists = Lists()
    /// Class instances already decoded, by UID.
    @exclusivity(unchecked) private var instances: [UInt64: AnyObject] = [:]
    /// The archive read whole, once an object's unknown fields need it.
    @exclusivity(unchecked) var wholeArchiveCache: KeyedArchive?
    /// Stops nesting before the thread's stack runs out; made anew for each top-level value, which
    /// may be decoded on another thread than the last.
    @exclusivity(unchecked) var stack = StackGuard()

    /// How many classes and types the short lists hold.
    private static var recentLimit: Int { 16 }

    /// The most objects a finished session's object marks may have room for to be kept.
    private static var keptObjectLimit: Int { 4_096 }

    /// Appends to a short list, making room for all its entries at the first: one allocation per
    /// list and session, where growing by doubling would make three or four.
    private static func append<Element>(_ element: Element, to list: inout [Element]) {
        if list.isEmpty { list.reserveCapacity(Self.recentLimit) }
        list.append(element)
    }

    /// Creates a session over a property list, checking that it is a keyed archive as
    /// `KeyedArchive(propertyList:)` does, with the same codes.
    init(checking plist: InPlaceBinaryPropertyList, options: KeyedArchiveDecoder.Options) throws(KeyedArchiveError) {
        let input = try Input(checking: plist, options: options)
        self.plist = plist
        self.input = input
        self.usesObjectDecoders = options.directArchiving.usesConformances
        self.marks = Marks(limits: input.limits)
    }

    /// Starts a finished session (see ``finish()``) on the archive ``plist`` now holds.
    /// - Throws: ``KeyedArchiveError`` if it is not a keyed archive.
    func start(options: KeyedArchiveDecoder.Options) throws(KeyedArchiveError) {
        self.input = try Input(checking: self.plist, options: options)
        self.marks = Marks(limits: self.input.limits)
    }

    /// Ends decoding an archive: forgets the archive (its instances, classes, key objects and the
    /// objects' marks), keeps what it learnt of types, and lets go of the property list's bytes.
    /// The session reads nothing until ``start(options:)``.
    /// - Returns: Whether the session is worth keeping: `false` after an archive of many objects,
    ///   whose lists are large.
    func finish() -> Bool {
        self.plist.release()
        if !self.instances.isEmpty { self.instances = [:] }
        if !self.moreClasses.isEmpty { self.moreClasses = [:] }
        self.wholeArchiveCache = nil
        guard self.lists.inProgress.capacity <= Self.keptObjectLimit else { return false }
        self.lists.recentClassUIDs.removeAll(keepingCapacity: true)
        self.lists.recentClassKinds.removeAll(keepingCapacity: true)
        self.lists.recentClasses.removeAll(keepingCapacity: true)
        self.lists.recentFieldKeys.removeAll(keepingCapacity: true)
        self.lists.inProgress.removeAll()
        if self.moreTypes.isEmpty {
            for table in self.lists.keyTables { table.forgetKeyObjects() }
        } else {
            // More types than the short lists hold: start again rather than keep a table.
            self.moreTypes = [:]
            self.lists.recentTypes.removeAll(keepingCapacity: true)
            self.lists.recentTypeInfos.removeAll(keepingCapacity: true)
            self.lists.keyTables.removeAll(keepingCapacity: true)
        }
        return true
    }

    // MARK: - Reading objects

    /// The object at a bplist object index.
    @inline(__always)
    func read(_ index: Int) throws(KeyedArchiveError) -> InPlaceValue {
        do {
            return try self.reader.value(at: index)
        } catch {
            throw Self.malformed(error)
        }
    }

    /// The object a UID refers to, or `nil` if the UID is out of range.
    @inline(__always)
    func object(at uid: UID) throws(KeyedArchiveError) -> InPlaceValue? {
        guard let index = uid.index(below: self.objectTable.count) else { return nil }
        return try self.read(self.reader.element(of: self.objectTable, at: index))
    }

    /// The region of the short ASCII string object a UID refers to, read without the general path;
    /// `nil` for any other object, which ``object(at:)`` then reads and checks.
    @inline(__always)
    func quickShortString(at uid: UID) -> InPlaceRegion? {
        guard let index = uid.index(below: self.objectTable.count) else { return nil }
        return self.reader.quickShortString(at: self.reader.element(of: self.objectTable, at: index))
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
    ///
    /// The key objects that matched the last few keys asked for are kept: archives write each key
    /// string once, so a later dictionary's key is usually the same object, and matches without
    /// comparing its bytes.
    func value(forKey key: StaticString, in dictionary: InPlaceRegion) throws(KeyedArchiveError) -> InPlaceValue? {
        // A literal's text has one address; a one-scalar `StaticString` has none, and is not kept.
        let name = key.hasPointerRepresentation ? UInt(bitPattern: key.utf8Start) : 0
        let slot = name == 0 ? nil : self.lists.recentFieldKeys.firstIndex { $0.name == name }
        let known = slot.map { self.lists.recentFieldKeys[$0].keyObject } ?? -1
        guard let (position, keyObject) = self.reader.position(ofKey: key, in: dictionary, knownKeyObject: known)
        else { return nil }
        if let slot {
            self.lists.recentFieldKeys[slot].keyObject = keyObject
        } else if name != 0, self.lists.recentFieldKeys.count < Self.recentLimit {
            Self.append((name, keyObject), to: &self.lists.recentFieldKeys)
        }
        return try self.read(self.reader.value(of: dictionary, at: position))
    }

    /// The object reference of the one field of a Foundation object, with the kind of its class,
    /// when `uid` refers to an object dictionary of two entries whose keys are the key objects
    /// that matched `key` and `$class` before, and whose class is among the recent ones; `nil`
    /// otherwise, and ``value(forKey:in:)`` and ``classKind(of:uid:)`` then read the object.
    ///
    /// It is what those two find: the field's key object is `key`'s and the other key is
    /// `$class`'s, so neither has another match in the object.
    @inline(__always)
    func quickField(_ key: StaticString, of uid: UID) -> (reference: Int, kind: DecodedClassInfo.Kind)? {
        let classKey = self.marks.classKeyObject
        guard classKey >= 0, key.hasPointerRepresentation, let index = uid.index(below: self.objectTable.count),
            let (keys, values) = self.reader.quickPair(at: self.reader.element(of: self.objectTable, at: index))
        else { return nil }
        // The field first, or `$class` first.
        let (fieldKey, field, classReference) =
            keys.1 == classKey ? (keys.0, values.0, values.1) : (keys.1, values.1, values.0)
        let name = UInt(bitPattern: key.utf8Start)
        guard keys.0 == classKey || keys.1 == classKey,
            self.lists.recentFieldKeys.contains(where: { $0.name == name && $0.keyObject == fieldKey }),
            let classUID = self.reader.quickUID(at: classReference),
            let index = self.recentClassIndex(classUID)
        else { return nil }
        return (field, self.lists.recentClassKinds[index])
    }

    /// The error for an object of the property list that is not valid, as the graph reader makes
    /// it. The reads above call this rather than the reader's: calling that from them made the
    /// optimizer inline less into the decoder's callers, at 60 more instructions per cat.
    @inline(never)
    static func malformed(_ error: PropertyListError) -> KeyedArchiveError {
        ArchiveInPlaceList.malformed(error)
    }

    /// The graph reader over the archive, for the rules the session does not apply on its own
    /// fast paths.
    var graph: Graph {
        Graph(list: ArchiveInPlaceList(plist: self.plist), objects: self.objectTable)
    }

    /// The kind of class of an object dictionary, without handing out its description.
    /// - Throws: ``KeyedArchiveError`` if `$class` is missing or does not lead to a class dictionary.
    @inline(__always)
    func classKind(of object: InPlaceRegion, uid: UID?) throws(KeyedArchiveError) -> DecodedClassInfo.Kind {
        let classUID = try self.classUID(of: object, uid: uid)
        if let index = self.recentClassIndex(classUID) {
            return self.lists.recentClassKinds[index]
        }
        return try self.classInfo(ofClass: classUID).kind
    }

    /// The position of a class among the recent ones.
    @inline(__always)
    private func recentClassIndex(_ classUID: UID) -> Int? {
        self.lists.recentClassUIDs.firstIndex(of: classUID.rawValue)
    }

    /// The class of an object dictionary.
    /// - Throws: ``KeyedArchiveError`` if `$class` is missing or does not lead to a class dictionary.
    func classInfo(of object: InPlaceRegion, uid: UID?) throws(KeyedArchiveError) -> DecodedClassInfo {
        try self.classInfo(ofClass: self.classUID(of: object, uid: uid))
    }

    /// The UID of an object dictionary's class. The last answer is kept: an object's class is
    /// asked for several times in a row (whether it is `nil`, then what it holds).
    @inline(__always)
    private func classUID(of object: InPlaceRegion, uid: UID?) throws(KeyedArchiveError) -> UID {
        if object.payload == self.marks.lastClassObject { return self.marks.lastClassUID }
        let classUID = try Graph.classUID(self.classReference(of: object), of: uid)
        self.marks.lastClassObject = object.payload
        self.marks.lastClassUID = classUID
        return classUID
    }

    /// Notes the class UID of an object dictionary from its key and value references, read
    /// already, when its `$class` key is the key object met before: ``classUID(of:uid:)`` then
    /// finds it without reading the keys again. The UID is the one that method would find.
    func noteClass(of object: InPlaceRegion, references: UnsafeBufferPointer<Int>) {
        let known = self.marks.classKeyObject
        guard known >= 0 else { return }
        let count = object.count
        var position = count
        while position > 0 {
            position &-= 1
            guard references[position] == known else { continue }
            if let classUID = self.reader.quickUID(at: references[count &+ position]) {
                self.marks.lastClassObject = object.payload
                self.marks.lastClassUID = classUID
            }
            return
        }
    }

    /// The class whose class dictionary has `classUID`, read once and then kept.
    private func classInfo(ofClass classUID: UID) throws(KeyedArchiveError) -> DecodedClassInfo {
        if let index = self.recentClassIndex(classUID) {
            return self.lists.recentClasses[index]
        }
        if let known = self.moreClasses[classUID.rawValue] {
            return known
        }
        let graph = self.graph
        let index = try self.reader.element(of: self.objectTable, at: graph.objectIndex(for: classUID))
        let info: DecodedClassInfo
        if let known = DecodedClassInfo.known(at: index, in: self.reader) {
            info = known
        } else {
            info = DecodedClassInfo(try Graph.archivedClass(in: self.read(index), uid: classUID, graph.list))
            DecodedClassInfo.remember(info)
        }
        if self.lists.recentClassUIDs.count < Self.recentLimit {
            Self.append(classUID.rawValue, to: &self.lists.recentClassUIDs)
            Self.append(info.kind, to: &self.lists.recentClassKinds)
            Self.append(info, to: &self.lists.recentClasses)
        } else {
            self.moreClasses[classUID.rawValue] = info
        }
        return info
    }

    /// The value of an object's `$class` key.
    ///
    /// Writers that store equal strings once (CoreFoundation's, Apple's and this package's) give
    /// every `$class` key the same string object, so once that object is known a key is found by
    /// comparing references; otherwise keys are compared as strings, the last one first, where
    /// `NSKeyedArchiver` puts `$class`.
    @inline(__always)
    private func classReference(of object: InPlaceRegion) throws(KeyedArchiveError) -> InPlaceValue? {
        let known = self.marks.classKeyObject
        if known >= 0, let position = self.reader.position(ofKeyObject: known, in: object, last: true) {
            return try self.read(self.reader.value(of: object, at: position))
        }
        let found: Int? = ArchiveFormatKey.`class`.withUTF8Buffer { classKey in
            var position = object.count
            while position > 0 {
                position &-= 1
                if self.reader.isString(self.reader.key(of: object, at: position), equalTo: classKey) {
                    return position
                }
            }
            return nil
        }
        guard let found else { return nil }
        self.marks.classKeyObject = self.reader.key(of: object, at: found)
        return try self.read(self.reader.value(of: object, at: found))
    }

    /// What the decoder needs to know about a type that decodes itself.
    @inline(__always)
    func typeInfo<T: Decodable>(_ type: T.Type) -> DecodedTypeInfo {
        let identifier = ObjectIdentifier(type)
        if let index = self.lists.recentTypes.firstIndex(of: identifier) {
            return self.lists.recentTypeInfos[index]
        }
        return self.addTypeInfo(type)
    }

    private func addTypeInfo<T: Decodable>(_ type: T.Type) -> DecodedTypeInfo {
        let identifier = ObjectIdentifier(type)
        if let known = self.moreTypes[identifier] { return known }
        let facts = DecodedTypeFacts.of(type)
        var keyTable: Int?
        if self.usesObjectDecoders, facts.objectDecoder != nil {
            keyTable = self.lists.keyTables.count
            self.lists.keyTables.append(ArchiveObjectKeyTable(facts.objectKeys))
        }
        let info = DecodedTypeInfo(facts, keyTable: keyTable, direct: self.usesObjectDecoders)
        if self.lists.recentTypes.count < Self.recentLimit {
            Self.append(identifier, to: &self.lists.recentTypes)
            Self.append(info, to: &self.lists.recentTypeInfos)
        } else {
            self.moreTypes[identifier] = info
        }
        return info
    }

    /// Whether the object is being decoded, so that decoding it again would never end.
    @inline(__always)
    func isInProgress(_ uid: UID) -> Bool {
        self.lists.inProgress.contains(uid)
    }

    /// Marks an object as being decoded. A UID that refers to no object is not marked (its
    /// object was read first, which fails for it).
    @inline(__always)
    func begin(_ uid: UID) {
        self.lists.inProgress.insert(uid, objectCount: self.objectCount)
    }

    /// Marks an object as decoded; the counterpart of ``begin(_:)``, which marked it if it is in range.
    @inline(__always)
    func end(_ uid: UID) {
        self.lists.inProgress.remove(uid)
    }

    /// The objects from the one with `uid` to the innermost being decoded, then `uid` again:
    /// the cycle that decoding `uid` now would close.
    func cyclePath(to uid: UID) -> [UID] {
        self.lists.inProgress.cycle(to: uid)
    }

    /// Counts `count` stored values and their container against the decoded-size budget.
    /// - Returns: `false` if the budget is exceeded.
    @inline(__always)
    func charge(_ count: Int) -> Bool {
        // `count` is at most a collection's size, so the sum stays far from overflowing.
        self.marks.decodedSize &+= (count &+ 1) &* PropertyListLimits.decodedValueSize
        return self.marks.decodedSize <= self.marks.decodedSizeBudget || self.widenBudget()
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
        if !self.marks.hasFullBudget {
            self.marks.hasFullBudget = true
            self.marks.decodedSizeBudget = self.limits.decodedSizeBudget(forInputSize: self.distinctDecodedSize())
        }
        return self.marks.decodedSize <= self.marks.decodedSizeBudget
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
}
