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

/// The coding path of an object an ``ArchiveObjectWriter`` is writing: its parent and key, made
/// into a node only when a nested value asks for its path (usually for an error).
///
/// ``ArchiveEncodingSession`` keeps one per nesting depth and reuses it for the next object at
/// that depth once nothing else refers to it.
internal final class ArchiveObjectFrame {
    /// The coding path of the object's parent.
    @exclusivity(unchecked) var parent = ArchiveEncodingParent(.root)
    /// The object's key in its parent: the caller's own, borrowed while the object is written
    /// (copying a key into the frame would cost its value witnesses on every object).
    @exclusivity(unchecked) var key: UnsafePointer<(any CodingKey)?>?

    /// The object's coding path.
    var path: CodingPathNode { self.parent.appending(self.key?.pointee) }
}

extension ArchiveObjectEncodable {
    /// Writes `value` with this type's conformance if it is of this type, without a dynamic cast
    /// when `T` is this type.
    /// - Returns: The object's UID, or `nil` if `value` is not of this type.
    static func encodeArchiveValue<T>(
        _ value: T,
        in session: ArchiveEncodingSession,
        info: ArchiveEncodingTypeInfo,
        parent: ArchiveEncodingParent,
        key: (any CodingKey)?
    ) throws -> UID? {
        if T.self == Self.self {
            return try Self.encodeBorrowing(value, in: session, info: info, parent: parent, key: key)
        }
        return try Self.encodeCastValue(value, in: session, info: info, parent: parent, key: key)
    }

    /// Writes `value`, which is of this type, with this type's conformance, borrowing it in place:
    /// a bit cast to this type would copy it (retaining each of its fields).
    /// - Returns: The object's UID.
    static func encodeBorrowing<T>(
        _ value: T,
        in session: ArchiveEncodingSession,
        info: ArchiveEncodingTypeInfo,
        parent: ArchiveEncodingParent,
        key: (any CodingKey)?
    ) throws -> UID {
        try withUnsafePointer(to: value) { pointer in
            try Self.encodeArchiveValue(
                at: UnsafeMutableRawPointer(mutating: pointer),
                in: session,
                info: info,
                parent: parent,
                key: key
            )
        }
    }

    /// Writes the value of this type at `pointer` with this type's conformance, borrowing it in
    /// place: it is passed `inout`, which reaches the conformance with its own address (a call on
    /// `pointee` would copy it), and is never mutated.
    /// - Returns: The object's UID.
    static func encodeArchiveValue(
        at pointer: UnsafeMutableRawPointer,
        in session: ArchiveEncodingSession,
        info: ArchiveEncodingTypeInfo,
        parent: ArchiveEncodingParent,
        key: (any CodingKey)?
    ) throws -> UID {
        try session.encodeDirectly(
            &pointer.assumingMemoryBound(to: Self.self).pointee,
            info: info,
            parent: parent,
            key: key
        )
    }

    /// ``encodeArchiveValue(_:in:info:parent:key:)`` for a `T` that is not this type, apart: the
    /// cast's optional would otherwise cost a metadata lookup on every call, cast or not.
    @inline(never)
    private static func encodeCastValue<T>(
        _ value: T,
        in session: ArchiveEncodingSession,
        info: ArchiveEncodingTypeInfo,
        parent: ArchiveEncodingParent,
        key: (any CodingKey)?
    ) throws -> UID? {
        guard var value = value as? Self else { return nil }
        return try session.encodeDirectly(&value, info: info, parent: parent, key: key)
    }
}

extension ArchiveEncodingSession {
    /// Writes a value through its ``ArchiveObjectEncodable`` conformance: the object
    /// `encode(to:)` would write through a keyed container, under a UID reserved before its
    /// contents, its class dictionary appended after them on first use. A class instance is
    /// written once; later references get its UID.
    func encodeDirectly<Value: ArchiveObjectEncodable>(
        _ value: inout Value,
        info: ArchiveEncodingTypeInfo,
        parent: ArchiveEncodingParent,
        key: (any CodingKey)?
    ) throws -> UID {
        var instance: ObjectIdentifier?
        if info.kind == .instance {
            let object = value as AnyObject
            let identifier = ObjectIdentifier(object)
            // Registered with its UID before its contents, so a reference back to it is not pending.
            if let uid = self.instanceUIDs[identifier] { return uid }
            self.retainedInstances.append(object)
            instance = identifier
        }
        let uid = self.table.reserve()
        if let instance { self.instanceUIDs[instance] = uid }
        let keys = info.objectKeys ?? self.resolveObjectKeys(of: info)

        return try withUnsafePointer(to: key) { key in
            try self.encodeObject(&value, uid: uid, info: info, keys: keys, parent: parent, key: key)
        }
    }

    /// Writes the object of ``encodeDirectly(_:info:parent:key:)`` under its reserved UID.
    private func encodeObject<Value: ArchiveObjectEncodable>(
        _ value: inout Value,
        uid: UID,
        info: ArchiveEncodingTypeInfo,
        keys: [ArchiveEncodingTable.Key],
        parent: ArchiveEncodingParent,
        key: UnsafePointer<(any CodingKey)?>
    ) throws -> UID {
        let start = self.objectValues.push(keys.count, repeating: ArchiveObjectWriter.unset)
        let extrasStart = self.objectExtras.count
        let frame = self.objectFrame(parent: parent, key: key)
        self.objectDepth += 1
        defer {
            self.objectDepth -= 1
            // The frame must not keep its parent (an encoder, reused once unreferenced) alive.
            frame.parent = ArchiveEncodingParent(.root)
            frame.key = nil
            self.objectValues.pop(from: start)
            if self.objectExtras.count > extrasStart { self.objectExtras.removeSubrange(extrasStart...) }
        }
        var writer = ArchiveObjectWriter(
            session: self,
            info: info,
            frame: frame,
            start: start,
            extrasStart: extrasStart
        )
        try value.encodeArchiveObject(to: &writer)

        let classUID = self.classUID(for: info)
        self.table.fill(
            uid,
            classUID: classUID,
            keys: keys,
            values: self.objectValues.run(from: start, count: keys.count),
            extras: self.objectExtras[extrasStart...],
            keyRun: &info.objectKeyRun
        )
        return uid
    }

    /// Adds kept fields to the object a writer is writing, as ``_ArchiveEncoder/setArchivedFields(_:)``
    /// adds them to a keyed object: in place of a value already written under the same key, else
    /// after the object's entries.
    func setObjectFields(_ fields: [ArchivedValue.Field], info: ArchiveEncodingTypeInfo, start: Int, extrasStart: Int) {
        let keys = info.objectKeys ?? self.resolveObjectKeys(of: info)
        for field in fields {
            let value = self.table.archivedField(field.value)
            let key = self.storageKey(field.key, inDictionary: false)
            if let index = keys.firstIndex(where: { $0.canonical == key.canonical }),
                !self.objectValues[start + index].isUnset
            {
                self.objectValues[start + index] = value
            } else if let index = self.objectExtras[extrasStart...].firstIndex(where: {
                $0.key.canonical == key.canonical
            }) {
                self.objectExtras[index].value = value
            } else {
                self.objectExtras.append(_ArchiveEncoder.Entry(key: key, value: value))
            }
        }
    }

    /// The keys of a type's objects in the current archive's table, found once per archive.
    @inline(never)
    private func resolveObjectKeys(of info: ArchiveEncodingTypeInfo) -> [ArchiveEncodingTable.Key] {
        let keys = info.objectKeyNames.map { self.storageKey($0.description, inDictionary: false) }
        info.objectKeys = keys
        return keys
    }

    /// The frame for an object at the current depth: the pooled one if nothing else refers to it.
    private func objectFrame(parent: ArchiveEncodingParent, key: UnsafePointer<(any CodingKey)?>) -> ArchiveObjectFrame
    {
        let frame = self.objectFrames.frame(at: self.objectDepth)
        frame.parent = parent
        frame.key = key
        return frame
    }

    /// Encodes an array of strings as ``encodeArray(_:parent:key:)`` does, for writers that know
    /// the type: no path is needed, as strings cannot fail.
    func encodeStringArray(_ strings: [String]) -> UID {
        let uid = self.table.reserve()
        let values = self.table.stringArray(strings)
        self.fillObject(uid, of: self.arrayInfo, .nsObjects, values)
        return uid
    }

    /// Encodes an array of a standard number type or of `Bool` as ``encodeArray(_:parent:key:)``
    /// does, when `T` is one (the element types ``scalarValue(_:)`` stores); `nil` for any other
    /// type. Each branch names its element type, so that the elements' conversion is specialised.
    @inline(__always)
    func encodeScalarArray<T>(of value: T) -> UID? {
        if T.self == [Int].self { return self.encodeScalarArray(Self.reinterpret(value, as: [Int].self)) }
        if T.self == [Double].self { return self.encodeScalarArray(Self.reinterpret(value, as: [Double].self)) }
        if T.self == [Bool].self { return self.encodeScalarArray(Self.reinterpret(value, as: [Bool].self)) }
        if T.self == [Float].self { return self.encodeScalarArray(Self.reinterpret(value, as: [Float].self)) }
        if T.self == [Int64].self { return self.encodeScalarArray(Self.reinterpret(value, as: [Int64].self)) }
        if T.self == [UInt64].self { return self.encodeScalarArray(Self.reinterpret(value, as: [UInt64].self)) }
        if T.self == [Int32].self { return self.encodeScalarArray(Self.reinterpret(value, as: [Int32].self)) }
        if T.self == [UInt32].self { return self.encodeScalarArray(Self.reinterpret(value, as: [UInt32].self)) }
        if T.self == [Int16].self { return self.encodeScalarArray(Self.reinterpret(value, as: [Int16].self)) }
        if T.self == [UInt16].self { return self.encodeScalarArray(Self.reinterpret(value, as: [UInt16].self)) }
        if T.self == [Int8].self { return self.encodeScalarArray(Self.reinterpret(value, as: [Int8].self)) }
        if T.self == [UInt8].self { return self.encodeScalarArray(Self.reinterpret(value, as: [UInt8].self)) }
        if T.self == [UInt].self { return self.encodeScalarArray(Self.reinterpret(value, as: [UInt].self)) }
        return nil
    }

    /// Encodes an array of scalars, each stored as ``scalarValue(_:)`` stores it.
    private func encodeScalarArray<Element>(_ elements: [Element]) -> UID {
        let uid = self.table.reserve()
        // `scalarValue` has a value for every element type the caller passes; `false` is never used.
        let values = self.table.scalarArray(elements) { Self.scalarValue($0) ?? .bool(false) }
        self.fillObject(uid, of: self.arrayInfo, .nsObjects, values)
        return uid
    }
}

extension ArchiveEncodingTable.Value {
    /// The marker of a writer's slot no value was written to: a UID no table reaches, with a
    /// count no UID has.
    static var unset: Self { Self(kind: .uid, payload: .max, count: .max) }

    /// Whether this is ``unset``, tested without the enum's `Equatable` witness.
    @inline(__always)
    var isUnset: Bool {
        guard self.payload == .max, self.count == .max, case .uid = self.kind else { return false }
        return true
    }
}
