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

/// The `Decoder` the decoded types see.
///
/// One instance serves a whole decoding run: decoding a nested value saves the current object and
/// coding path, decodes, and restores them, so nested values cost no decoder allocation. Only
/// `superDecoder()` makes a new instance, since the decoder it returns may outlive the call.
internal final class _ArchiveDecoder: Decoder {
    /// The archive-wide state, which counts its decoders (see
    /// ``ArchiveDecodingSession/decoderCount``).
    let session: ArchiveDecodingSession
    /// The object (or inline value) being decoded; never a UID.
    @exclusivity(unchecked) private(set) var object: InPlaceValue
    /// The UID of ``object``, or `nil` for an inline value.
    @exclusivity(unchecked) private(set) var uid: UID?
    /// The coding path of ``object``.
    @exclusivity(unchecked) private(set) var codingPathNode: CodingPathNode
    /// Nodes of composite values, by the depth of their parent, kept for reuse: a composite's node
    /// is usually let go when the value is decoded, and the next value at that depth takes it over.
    @exclusivity(unchecked) private var nodePool: [CodingPathNode] = []
    /// The entries of the objects ``ArchiveObjectReader``s are reading, innermost last: each
    /// reader's run of one object reference per key, -1 for a key the object lacks.
    @exclusivity(unchecked) var objectSlots = ArchiveSlotStack<Int>()
    /// The object reference ``quickIsNil(at:)`` last found not to be `nil`, with its UID and
    /// object: the value's decode then starts from the object instead of resolving the reference
    /// again. A reference always leads to the same object, so this needs no invalidation.
    @exclusivity(unchecked) private(set) var presentReference = -1
    @exclusivity(unchecked) private(set) var presentUID = UID(0)
    @exclusivity(unchecked) private(set) var presentObject = InPlaceValue.bool(false)

    /// How many depths ``nodePool`` serves; deeper values allocate their nodes.
    private static var nodePoolLimit: Int { 32 }

    init(session: ArchiveDecodingSession, object: InPlaceValue, uid: UID?, codingPath: CodingPathNode) {
        session.decoderCount &+= 1
        self.session = session
        self.object = object
        self.uid = uid
        self.codingPathNode = codingPath
    }

    deinit {
        self.session.decoderCount &-= 1
    }

    var codingPath: [any CodingKey] { self.codingPathNode.path }

    var userInfo: [CodingUserInfoKey: Any] { self.session.userInfo }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        KeyedDecodingContainer(
            try _ArchiveKeyedDecodingContainer<Key>(
                decoder: self,
                object: self.object,
                uid: self.uid,
                codingPath: self.codingPathNode
            )
        )
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        try _ArchiveUnkeyedDecodingContainer(
            decoder: self,
            object: self.object,
            uid: self.uid,
            codingPath: self.codingPathNode
        )
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        _ArchiveSingleValueDecodingContainer(decoder: self)
    }
}

// MARK: - The generic entry point

extension _ArchiveDecoder {
    /// Decodes `T` from a value as a container stores it: an inline scalar, or a UID.
    @inline(__always)
    func decode<T: Decodable>(
        _ type: T.Type,
        stored: InPlaceValue,
        at position: ArchiveDecodingPosition
    ) throws -> T {
        guard case .uid(let uid) = stored else {
            return try self.decode(type, object: stored, uid: nil, at: position, reentrant: false)
        }
        return try self.decode(
            type,
            object: self.object(at: uid, at: position),
            uid: uid,
            at: position,
            reentrant: false
        )
    }

    /// Decodes `T` from a resolved object.
    ///
    /// Types with an archive form of their own (strings, numbers, data, dates, UUIDs, URLs,
    /// dictionaries) are read here; every other type decodes itself from a container.
    /// - Parameter reentrant: Whether this decodes the current object again through a single
    ///   value container, which must not count as a cycle.
    func decode<T: Decodable>(
        _ type: T.Type,
        object: InPlaceValue,
        uid: UID?,
        at position: ArchiveDecodingPosition,
        reentrant: Bool
    ) throws -> T {
        // Looked up once per type, not tested against each archive-form type per value: this runs
        // unspecialized for every nested value.
        let typeInfo = self.session.typeInfo(type)
        guard typeInfo.hasArchiveForm else {
            return try self.decodeComposite(
                type,
                typeInfo: typeInfo,
                object: object,
                uid: uid,
                at: position,
                reentrant: reentrant
            )
        }
        return try self.decodeArchiveForm(type, object: object, uid: uid, at: position, reentrant: reentrant)
    }

    /// Decodes a type that reads itself from a container, or a dictionary.
    ///
    /// Class instances are cached by UID and shared. An object that is met again while it is still
    /// being decoded is a cycle, which a value built by `init(from:)` cannot hold: that throws.
    func decodeComposite<T: Decodable>(
        _ type: T.Type,
        typeInfo: DecodedTypeInfo,
        object: InPlaceValue,
        uid: UID?,
        at position: ArchiveDecodingPosition,
        reentrant: Bool
    ) throws -> T {
        // UID 0 is nil: decode it like an inline value, so `Optional` sees `decodeNil()`.
        let objectUID = uid.flatMap { $0.rawValue == 0 ? nil : $0 }
        try self.checkDeclaredClass(type, typeInfo: typeInfo, object: object, uid: uid, at: position)
        if let objectUID {
            // `is` then `as!`, not `as?`: an optional T would need its metadata looked up at run
            // time on every call, class or not. The `is` check makes the cast infallible, so no
            // input reaches a trap here.
            if typeInfo.isClass, let cached = self.session.instance(for: objectUID), cached is T {
                return cached as! T
            }
        }
        let marked = reentrant ? nil : objectUID
        let node = try self.nestedNode(object: object, uid: uid, marking: marked, at: position)
        if let marked { self.session.begin(marked) }
        // Swap the state in and out: moves, not copies, so no reference counting.
        var otherObject = object
        var otherUID = uid
        var otherNode = node
        self.swapState(&otherObject, &otherUID, &otherNode)
        defer {
            self.swapState(&otherObject, &otherUID, &otherNode)
            if let marked { self.session.end(marked) }
        }
        let value: T
        if let collectionType = typeInfo.collectionType {
            value = try collectionType.decode(from: self, as: T.self)
        } else if let direct = typeInfo.objectDecoder {
            // After every check above: the conformance only replaces the containers.
            value = try direct.decodeArchiveValue(as: T.self, from: self, keyTable: typeInfo.keyTable)
        } else if let rawValue = typeInfo.rawValueDecoder {
            value = try rawValue.decodeArchiveRawValue(as: T.self, from: self)
        } else {
            value = try T(from: self)
        }
        if typeInfo.isClass, let objectUID {
            self.session.remember(value as AnyObject, for: objectUID)
        }
        return value
    }

    /// Decodes a value of a type that reads its own object (not a class, which instances share)
    /// from the object with `uid`, as ``decodeComposite(_:typeInfo:object:uid:at:reentrant:)``
    /// does, with the same checks, but without its dispatch on the type or a cast of the result:
    /// the caller knows the type as `D`. The caller has resolved `uid`, which is not 0.
    /// - Parameter typeInfo: `D`'s, with ``DecodedTypeInfo/readsObjectDirectly``.
    func decodeDirect<D: ArchiveObjectDecodable>(
        _ type: D.Type,
        typeInfo: DecodedTypeInfo,
        object: InPlaceValue,
        uid: UID,
        at position: ArchiveDecodingPosition
    ) throws -> D {
        try self.checkDeclaredClass(type, typeInfo: typeInfo, object: object, uid: uid, at: position)
        let node = try self.nestedNode(object: object, uid: uid, marking: uid, at: position)
        // The same swap as `decodeComposite`'s, written out: sharing it through a closure cost
        // `decodeComposite` generic metadata lookups on every value.
        self.session.begin(uid)
        var otherObject = object
        var otherUID: UID? = uid
        var otherNode = node
        self.swapState(&otherObject, &otherUID, &otherNode)
        defer {
            self.swapState(&otherObject, &otherUID, &otherNode)
            self.session.end(uid)
        }
        return try D.decodeArchiveObject(from: self, keyTable: typeInfo.keyTable)
    }

    /// Checks the class of an object against the names `type` accepts, if it declares them.
    ///
    /// Checked at every reference, before a cached instance is handed out: an object decoded once
    /// as one type must not pass as another type with a different declared class.
    @inline(__always)
    private func checkDeclaredClass<T>(
        _ type: T.Type,
        typeInfo: DecodedTypeInfo,
        object: InPlaceValue,
        uid: UID?,
        at position: ArchiveDecodingPosition
    ) throws {
        if typeInfo.declaresClassNames,
            let accepted = (type as? any ArchivedClassNaming.Type)?.acceptedArchivedClassNames
        {
            try self.checkClass(of: object, uid: uid, accepts: accepted, for: type, at: position)
        }
    }

    /// The coding path node of a composite value at `position`, after checking that decoding it
    /// closes no cycle (when it is an object to be marked in progress) and nests within the limits.
    @inline(__always)
    private func nestedNode(
        object: InPlaceValue,
        uid: UID?,
        marking objectUID: UID?,
        at position: ArchiveDecodingPosition
    ) throws -> CodingPathNode {
        // An object met again while it is still being decoded is a cycle, which a value built by
        // `init(from:)` cannot hold.
        if let objectUID, self.session.isInProgress(objectUID) {
            throw self.cycle(objectUID, at: position)
        }
        let node = self.node(at: position)
        guard self.allows(depth: node.depth) else {
            throw self.depthExceeded(node.depth, object: object, uid: uid, at: position)
        }
        return node
    }

    /// Exchanges the decoder's current object, UID and coding path with the given ones.
    @inline(__always)
    private func swapState(_ object: inout InPlaceValue, _ uid: inout UID?, _ node: inout CodingPathNode) {
        swap(&self.object, &object)
        swap(&self.uid, &uid)
        swap(&self.codingPathNode, &node)
    }
}

extension _ArchiveDecoder {
    /// Puts the decoder at its session's top level (at `codingPath`), with no object being read:
    /// where a decoder made by ``init(topLevelOf:)`` starts. The pooled coding path nodes stay.
    func startAtTopLevel(codingPath: CodingPathNode = .root) {
        self.object = self.session.nullObject
        self.uid = nil
        self.codingPathNode = codingPath
        self.objectSlots.pop(from: 0)
        self.presentReference = -1
    }

    /// Notes the object a reference leads to, as ``presentReference`` tells.
    @inline(__always)
    func notePresent(_ object: InPlaceValue, uid: UID, at reference: Int) {
        self.presentReference = reference
        self.presentUID = uid
        self.presentObject = object
    }
}

// MARK: - Helpers for the containers

extension _ArchiveDecoder {
    /// Returns `value` as `T`, which the caller has checked is `V`'s own type.
    ///
    /// In unspecialized code `as!` makes a dynamic cast at run time, a cost a decoder pays for
    /// every value; between identical types the bit cast is exact.
    @inline(__always)
    static func exactly<V, T>(_ value: V, as _: T.Type) -> T {
        unsafeBitCast(value, to: T.self)
    }

    /// The coding path node of the value at `position`, from ``nodePool`` when the pooled node at
    /// that depth is no longer in use.
    @inline(__always)
    private func node(at position: ArchiveDecodingPosition) -> CodingPathNode {
        guard let key = position.key else { return position.parent }
        let slot = position.parent.depth
        guard slot < self.nodePool.count else { return self.addPooledNode(at: position) }
        if isKnownUniquelyReferenced(&self.nodePool[slot]) || self.freesPooledNode(at: slot) {
            let node = self.nodePool[slot]
            node.reset(parent: position.parent, key: key)
            return node
        }
        let node = position.parent.appending(key)
        self.nodePool[slot] = node
        return node
    }

    /// Whether the pooled node at `slot` is free once the pooled node a level deeper, when that
    /// one is free, lets go of it: a value's node stays the parent of the last node used below
    /// it, which would otherwise keep it from being reused by the next value at its depth.
    @inline(never)
    private func freesPooledNode(at slot: Int) -> Bool {
        let child = slot + 1
        guard child < self.nodePool.count, isKnownUniquelyReferenced(&self.nodePool[child]) else { return false }
        self.nodePool[child].detach()
        return isKnownUniquelyReferenced(&self.nodePool[slot])
    }

    /// Makes the node of the value at `position`, growing ``nodePool`` to its depth. Slots that
    /// the growth skips share the node, so they are replaced when they are first needed.
    @inline(never)
    private func addPooledNode(at position: ArchiveDecodingPosition) -> CodingPathNode {
        let node = position.node
        let slot = position.parent.depth
        if slot < Self.nodePoolLimit {
            while self.nodePool.count <= slot { self.nodePool.append(node) }
        }
        return node
    }
}

extension _ArchiveDecoder {
    /// Resolves a stored value: a UID becomes its object; an inline value stays as it is.
    @inline(__always)
    func resolve(
        _ stored: InPlaceValue,
        at position: ArchiveDecodingPosition
    ) throws -> (object: InPlaceValue, uid: UID?) {
        guard case .uid(let uid) = stored else { return (stored, nil) }
        return (try self.object(at: uid, at: position), uid)
    }

    /// The object a UID refers to.
    /// - Throws: `DecodingError.dataCorrupted` if the UID is out of range or the object is not valid.
    @inline(__always)
    func object(at uid: UID, at position: ArchiveDecodingPosition) throws -> InPlaceValue {
        let found: InPlaceValue?
        do {
            found = try self.session.object(at: uid)
        } catch {
            throw self.corrupted(error, object: nil, uid: uid, at: position)
        }
        guard let found else { throw self.invalidReference(uid, at: position) }
        return found
    }

    /// Whether a resolved value is `nil`: UID 0, or an `NSNull` object.
    func isNil(_ object: InPlaceValue, uid: UID?) -> Bool {
        if uid?.rawValue == 0 { return true }
        guard case .dictionary(let dictionary) = object else { return false }
        return (try? self.session.classKind(of: dictionary, uid: uid)) == .null
    }

    /// Whether a stored value is `nil`, resolving a UID.
    func isNil(stored: InPlaceValue) -> Bool {
        guard case .uid(let uid) = stored else { return false }
        if uid.rawValue == 0 { return true }
        guard let object = try? self.session.object(at: uid) else { return false }
        return self.isNil(object, uid: uid)
    }

    /// The class of an object dictionary, as a `DecodingError` on failure.
    func classInfo(
        of dictionary: InPlaceRegion,
        object: InPlaceValue,
        uid: UID?,
        at position: ArchiveDecodingPosition
    ) throws -> DecodedClassInfo {
        do {
            return try self.session.classInfo(of: dictionary, uid: uid)
        } catch {
            throw self.corrupted(error, object: object, uid: uid, at: position)
        }
    }

    /// The kind of class of an object dictionary, as a `DecodingError` on failure.
    @inline(__always)
    func classKind(
        of dictionary: InPlaceRegion,
        object: InPlaceValue,
        uid: UID?,
        at position: ArchiveDecodingPosition
    ) throws -> DecodedClassInfo.Kind {
        do {
            return try self.session.classKind(of: dictionary, uid: uid)
        } catch {
            throw self.corrupted(error, object: object, uid: uid, at: position)
        }
    }

    /// Checks that a container at `node` does not nest deeper than allowed.
    @inline(__always)
    func checkDepth(
        _ node: CodingPathNode,
        object: InPlaceValue,
        uid: UID?,
        at position: ArchiveDecodingPosition
    ) throws {
        guard self.allows(depth: node.depth) else {
            throw self.depthExceeded(node.depth, object: object, uid: uid, at: position)
        }
    }

    /// Whether a value may nest `depth` deep: within the depth limit and, from
    /// `StackGuard.uncheckedDepth` on, where the thread's stack has room.
    @inline(__always)
    func allows(depth: Int) -> Bool {
        depth <= self.session.maximumDepth && (depth < StackGuard.uncheckedDepth || self.session.stack.hasRoom())
    }

    @inline(never)
    private func cycle(_ uid: UID, at position: ArchiveDecodingPosition) -> DecodingError {
        let path = self.session.cyclePath(to: uid).map(\.description).joined(separator: " → ")
        let error = KeyedArchiveError(
            .cyclicReference,
            uid: uid,
            reason: "\(uid) refers back to itself while it is being decoded: \(path)"
        )
        return self.corrupted(error, object: try? self.session.object(at: uid), uid: uid, at: position)
    }

    /// Checks that an object's class is one a type declares with ``ArchivedClassNaming``.
    private func checkClass<T>(
        of object: InPlaceValue,
        uid: UID?,
        accepts accepted: Set<String>,
        for type: T.Type,
        at position: ArchiveDecodingPosition
    ) throws {
        if case .dictionary(let dictionary) = object, uid?.rawValue != 0 {
            // A malformed class is reported as such, not as a mismatch.
            if try self.classInfo(of: dictionary, object: object, uid: uid, at: position).matches(accepted) { return }
        }
        throw self.classMismatch(type, object: object, uid: uid, accepted: accepted, at: position)
    }

    @inline(never)
    private func classMismatch(
        _ type: Any.Type,
        object: InPlaceValue,
        uid: UID?,
        accepted: Set<String>,
        at position: ArchiveDecodingPosition
    ) -> DecodingError {
        let names = accepted.sorted().map { "\"\($0)\"" }.joined(separator: ", ")
        let subject = self.describeValue(object, uid: uid) + position.describe(in: self.session)
        let error = KeyedArchiveError(
            .classMismatch,
            uid: uid,
            reason: "\(subject) is \(self.summarize(object)), but \(type) accepts only class \(names)"
        )
        return .typeMismatch(
            type,
            DecodingError.Context(
                codingPath: position.node.path,
                debugDescription: error.reason,
                underlyingError: error
            )
        )
    }

    /// Counts a container of `count` stored values against the decoded-size budget.
    /// - Throws: `DecodingError.dataCorrupted` with ``KeyedArchiveError/Code/decodedSizeLimitExceeded``
    ///   once the budget is exceeded.
    @inline(__always)
    func charge(_ count: Int, object: InPlaceValue, uid: UID?, at position: ArchiveDecodingPosition) throws {
        guard self.session.charge(count) else {
            throw self.corrupted(self.session.decodedSizeExceeded(uid: uid), object: object, uid: uid, at: position)
        }
    }

    @inline(never)
    func depthExceeded(
        _ depth: Int,
        object: InPlaceValue,
        uid: UID?,
        at position: ArchiveDecodingPosition
    ) -> DecodingError {
        let error = ArchiveDecodingSession.Graph.nestingError(uid: uid, depth: depth, limit: self.session.maximumDepth)
        return self.corrupted(error, object: object, uid: uid, at: position)
    }
}
