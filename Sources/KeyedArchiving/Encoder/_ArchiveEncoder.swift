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

/// The `Encoder` handed to `encode(to:)`, and the storage of the one object it builds.
///
/// The first container asked for decides the object's form: a keyed container makes an object of
/// the value's class (or, for nested containers, an `NSDictionary` with string keys), an unkeyed
/// container an `NSArray`, and a single-value container stores that value in the encoder's place. The object's UID is reserved when the container is asked for,
/// before any of its contents, and ``flush()`` writes the object, appending its class dictionary
/// after the contents, once `encode(to:)` returns.
///
/// The encoder and its containers may escape `encode(to:)` (a stored `superEncoder()`, say). The
/// session notices, keeps such encoders, and flushes them again when it finishes, so late writes
/// still land in the archive.
///
/// Stored properties here, in ``ArchiveEncodingSession`` and in ``ArchiveEncodingTypeInfo`` are
/// `@exclusivity(unchecked)`: one encoding runs on one thread and no access to them overlaps
/// another (arguments are evaluated before each mutation begins), and the dynamic checks cost about
/// a fifth of the encoding time in the benchmark.
internal final class _ArchiveEncoder: Encoder {
    /// The form of the object, fixed by the first container asked for.
    enum State {
        case undecided
        case keyed
        case unkeyed
        case single
        /// Set aside after a misuse; never written.
        case detached
    }

    /// Where a child encoder's UID goes in its parent once the child is complete.
    enum Slot {
        /// Nowhere: the UID was known when the child was made.
        case none
        /// Under a key of the parent's dictionary.
        case key(ArchiveEncodingTable.Key)
        /// At an index of the parent's elements.
        case index(Int)
    }

    let session: ArchiveEncodingSession
    /// The coding path of the position holding this encoder's value, without the last key.
    @exclusivity(unchecked) private(set) var parent: ArchiveEncodingParent
    /// The last key of this encoder's coding path, if any.
    @exclusivity(unchecked) private(set) var key: (any CodingKey)?
    @exclusivity(unchecked) private var node: CodingPathNode?
    /// The class a keyed container archives under.
    @exclusivity(unchecked) private(set) var typeInfo: ArchiveEncodingTypeInfo
    /// Whether a keyed container here builds an `NSDictionary` (`NS.keys`, `NS.objects`, every value
    /// an object) rather than an object of the value's own class (scalars inline, keys escaped).
    @exclusivity(unchecked) private(set) var isDictionary: Bool
    /// The class instance being encoded, registered under the UID once it is reserved.
    @exclusivity(unchecked) var instance: ObjectIdentifier?

    @exclusivity(unchecked) private(set) var state: State = .undecided
    /// The reserved UID (keyed, unkeyed) or the stored value's UID (single value).
    @exclusivity(unchecked) private(set) var resultUID: UID = 0
    /// One entry of a keyed object: its key and its value (a UID, or a scalar stored inline).
    struct Entry {
        var key: ArchiveEncodingTable.Key
        var value: ArchiveEncodingTable.Value
    }

    /// The object's entries, `$class` first (keyed). A key keeps its first position and its last value.
    @exclusivity(unchecked) private(set) var entries: [Entry] = []
    /// The position of each entry by canonical key, kept once there are more than ``linearLimit``.
    @exclusivity(unchecked) private var entryPositions: [UInt32: Int]?
    /// The elements' UIDs (unkeyed).
    @exclusivity(unchecked) var elements: [ArchiveEncodingTable.Value] = []

    /// Entries are found by a linear search up to this many.
    private static var linearLimit: Int { 16 }
    /// Nested containers and referencing encoders, flushed with this encoder.
    @exclusivity(unchecked) private var children: [(encoder: _ArchiveEncoder, slot: Slot)]?

    init(
        session: ArchiveEncodingSession,
        parent: ArchiveEncodingParent,
        key: (any CodingKey)?,
        typeInfo: ArchiveEncodingTypeInfo
    ) {
        self.session = session
        self.parent = parent
        self.key = key
        self.typeInfo = typeInfo
        self.isDictionary = typeInfo === session.dictionaryInfo
    }

    /// Makes a complete encoder that nothing else refers to ready to encode another value, keeping
    /// the capacity of its buffers.
    func reuse(parent: ArchiveEncodingParent, key: (any CodingKey)?, typeInfo: ArchiveEncodingTypeInfo) {
        self.parent = parent
        self.key = key
        if self.node != nil { self.node = nil }
        if self.typeInfo !== typeInfo {
            self.typeInfo = typeInfo
            self.isDictionary = typeInfo === self.session.dictionaryInfo
        }
        self.instance = nil
        self.state = .undecided
        self.resultUID = 0
        if !self.entries.isEmpty { self.entries.removeAll(keepingCapacity: true) }
        if self.entryPositions != nil { self.entryPositions = nil }
        if !self.elements.isEmpty { self.elements.removeAll(keepingCapacity: true) }
        if self.children != nil { self.children = nil }
    }

    /// Stops referring to the parent encoder once this encoder's value is complete: keeps its path
    /// as a node if this encoder may still be asked for it, else forgets it.
    func releaseParentEncoder(keepingPath: Bool) {
        guard self.parent.isTransient else { return }
        self.parent = ArchiveEncodingParent(keepingPath ? self.parent.path : .root)
    }

    /// This encoder's coding path, made on first use.
    var codingPathNode: CodingPathNode {
        if let node { return node }
        let node = self.parent.appending(self.key)
        self.node = node
        return node
    }

    var codingPath: [any CodingKey] { self.codingPathNode.path }

    var userInfo: [CodingUserInfoKey: Any] { self.session.userInfo }

    // MARK: - Containers

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        switch self.state {
        case .undecided: self.beginKeyed()
        case .keyed, .detached: break
        case .unkeyed, .single:
            self.session.recordMisuse(
                at: self.codingPathNode,
                "Asked for a keyed container after \(self.state == .unkeyed ? "an unkeyed" : "a single-value") one."
            )
            return KeyedEncodingContainer(_ArchiveKeyedEncodingContainer(owner: self.detachedCopy(), node: nil))
        }
        return KeyedEncodingContainer(_ArchiveKeyedEncodingContainer(owner: self, node: nil))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        switch self.state {
        case .undecided: self.beginUnkeyed()
        case .unkeyed, .detached: break
        case .keyed, .single:
            self.session.recordMisuse(
                at: self.codingPathNode,
                "Asked for an unkeyed container after \(self.state == .keyed ? "a keyed" : "a single-value") one."
            )
            return _ArchiveUnkeyedEncodingContainer(owner: self.detachedCopy())
        }
        return _ArchiveUnkeyedEncodingContainer(owner: self)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        switch self.state {
        case .undecided: self.state = .single
        case .single, .detached: break
        case .keyed, .unkeyed:
            self.session.recordMisuse(
                at: self.codingPathNode,
                "Asked for a single-value container after \(self.state == .keyed ? "a keyed" : "an unkeyed") one."
            )
            return _ArchiveSingleValueEncodingContainer(owner: self.detachedCopy())
        }
        return _ArchiveSingleValueEncodingContainer(owner: self)
    }

    /// Starts a keyed object: reserves its UID and puts `$class` first.
    func beginKeyed() {
        self.state = .keyed
        self.reserve()
        self.entries.reserveCapacity(self.typeInfo.entryCountHint)
        if !self.isDictionary { self.entries.append(Entry(key: self.session.table.key(.class), value: .uid(0))) }
    }

    /// The key under which a keyed container's `key` is stored: escaped in an object's own
    /// dictionary, as is in an `NSDictionary`.
    @inline(__always)
    func storageKey(_ key: String) -> ArchiveEncodingTable.Key {
        self.session.storageKey(key, inDictionary: self.isDictionary)
    }

    /// The UID of a string leaf. A method here rather than in the containers, so that the session
    /// is reached through this encoder's own `let` without being retained for the access.
    @inline(never)
    func stringLeaf(_ string: String) -> UID {
        self.session.table.leaf(string)
    }

    /// Sets the value of a key: in place if the key is there (under `==`), else appended.
    @inline(__always)
    func setEntry(_ value: ArchiveEncodingTable.Value, forKey key: ArchiveEncodingTable.Key) {
        if let index = self.position(of: key) {
            self.entries[index].value = value
            return
        }
        self.entries.append(Entry(key: key, value: value))
        if self.entryPositions != nil {
            self.entryPositions?[key.canonical] = self.entries.count - 1
        } else if self.entries.count > Self.linearLimit {
            var positions: [UInt32: Int] = [:]
            for (index, entry) in self.entries.enumerated() { positions[entry.key.canonical] = index }
            self.entryPositions = positions
        }
    }

    @inline(__always)
    private func position(of key: ArchiveEncodingTable.Key) -> Int? {
        if let entryPositions { return entryPositions[key.canonical] }
        var index = 0
        while index < self.entries.count {
            if self.entries[index].key.canonical == key.canonical { return index }
            index += 1
        }
        return nil
    }

    /// Starts an `NSArray`: reserves its UID.
    func beginUnkeyed() {
        self.state = .unkeyed
        self.reserve()
    }

    /// Stores the single value's UID in this encoder's place; a later value replaces it.
    func setSingleValue(_ uid: UID) {
        self.resultUID = uid
    }

    private func reserve() {
        self.resultUID = self.session.table.reserve()
        if let instance { self.session.register(instance, as: self.resultUID) }
    }

    /// An encoder with the same path that writes nowhere, returned after a misuse so the caller can
    /// carry on until the recorded error is thrown.
    private func detachedCopy() -> _ArchiveEncoder {
        let copy = _ArchiveEncoder(
            session: self.session,
            parent: ArchiveEncodingParent(self.parent.path),
            key: self.key,
            typeInfo: self.typeInfo
        )
        copy.state = .detached
        return copy
    }

    // MARK: - Children

    /// Makes the encoder of a nested keyed container: an `NSDictionary` with string keys, as
    /// `NSKeyedUnarchiver` reads it, whose UID is reserved now.
    func makeNestedKeyedChild(parentNode: CodingPathNode, key: any CodingKey) -> _ArchiveEncoder {
        self.makeChild(parentNode: parentNode, key: key, typeInfo: self.session.dictionaryInfo, slot: .none) {
            $0.beginKeyed()
        }
    }

    /// Makes the encoder of a nested unkeyed container: an `NSArray` whose UID is reserved now.
    func makeNestedUnkeyedChild(parentNode: CodingPathNode, key: any CodingKey) -> _ArchiveEncoder {
        self.makeChild(parentNode: parentNode, key: key, typeInfo: self.session.arrayInfo, slot: .none) {
            $0.beginUnkeyed()
        }
    }

    /// Makes an encoder for `superEncoder(forKey:)` and the like, whose UID is written to `slot` when
    /// this encoder is flushed: a keyed container there makes an `NSDictionary`.
    func makeReferencingChild(parentNode: CodingPathNode, key: any CodingKey, slot: Slot) -> _ArchiveEncoder {
        self.makeChild(parentNode: parentNode, key: key, typeInfo: self.session.dictionaryInfo, slot: slot) { _ in }
    }

    /// A child encoder of this one: detached when this one is, else started by `begin` and flushed
    /// with this one, its UID going to `slot`.
    private func makeChild(
        parentNode: CodingPathNode,
        key: any CodingKey,
        typeInfo: ArchiveEncodingTypeInfo,
        slot: Slot,
        begin: (_ArchiveEncoder) -> Void
    ) -> _ArchiveEncoder {
        let child = _ArchiveEncoder(
            session: self.session,
            parent: ArchiveEncodingParent(parentNode),
            key: key,
            typeInfo: typeInfo
        )
        if self.state == .detached {
            child.state = .detached
        } else {
            begin(child)
            self.addChild(child, slot: slot)
        }
        return child
    }

    private func addChild(_ child: _ArchiveEncoder, slot: Slot) {
        if self.children == nil { self.children = [] }
        self.children?.append((child, slot))
    }

    // MARK: - Writing

    /// Writes this encoder's object, and those of its children, to the table.
    ///
    /// An encoder that never asked for a container becomes an object with only `$class`. Flushing
    /// again rewrites the same objects with whatever was added since.
    /// - Returns: Whether a child is still referenced elsewhere, so may be written to later.
    @discardableResult
    func flush() -> Bool {
        var childEscaped = false
        if var children = self.children {
            self.children = nil
            for index in children.indices {
                if !isKnownUniquelyReferenced(&children[index].encoder) { childEscaped = true }
                let child = children[index].encoder
                if child.flush() { childEscaped = true }
                switch children[index].slot {
                case .none:
                    break
                case .key(let key):
                    self.setEntry(.uid(child.resultUID.rawValue), forKey: key)
                case .index(let position):
                    if self.elements.indices.contains(position) {
                        self.elements[position] = .uid(child.resultUID.rawValue)
                    }
                }
            }
            self.children = children
        }

        switch self.state {
        case .undecided:
            self.beginKeyed()
            self.writeKeyed()
        case .keyed:
            self.writeKeyed()
        case .unkeyed:
            let array = self.session.table.builder.array(self.elements)
            self.session.fillObject(self.resultUID, of: self.session.arrayInfo, .nsObjects, array)
        case .single, .detached:
            break
        }
        return childEscaped
    }

    private func writeKeyed() {
        self.typeInfo.entryCountHint = self.entries.count
        guard self.isDictionary else {
            let classUID = self.session.classUID(for: self.typeInfo)
            if !self.entries.isEmpty { self.entries[0].value = .uid(classUID.rawValue) }
            self.session.table.fill(self.resultUID, entries: self.entries, keyRun: &self.typeInfo.entryKeyRun)
            return
        }
        var keys: [ArchiveEncodingTable.Value] = []
        var values: [ArchiveEncodingTable.Value] = []
        keys.reserveCapacity(self.entries.count)
        values.reserveCapacity(self.entries.count)
        for entry in self.entries {
            keys.append(.uid(self.session.table.leaf(stringID: entry.key.id).rawValue))
            values.append(entry.value)
        }
        let keyArray = self.session.table.builder.array(keys)
        let valueArray = self.session.table.builder.array(values)
        self.session.fillObject(self.resultUID, of: self.typeInfo, .nsKeys, keyArray, .nsObjects, valueArray)
    }
}
