//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-keyed-archive open source project
//
// Licensed under Apache License v2.0
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

public import PropertyLists

#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

/// Archives any value — including types you do not own that are not `Codable` — from its `Mirror`,
/// for inspection and export. One way only.
///
/// Stored properties become keyed fields, a class's superclass properties are included and its
/// superclasses listed in `$classes`, collections become `NSArray`/`NSSet`/`NSDictionary`, and
/// `String`, numbers, `Bool`, `Data`, `Date`, `UUID` and `URL` are stored the way
/// ``KeyedArchiveEncoder`` stores them. A class instance reachable twice is stored once, and a
/// reference cycle is stored as the cycle it is.
///
/// There is no matching decoder, on purpose: a `Mirror` can read a value but cannot create one,
/// and building instances from archived names is what made `NSKeyedUnarchiver` an attack surface.
/// To read values back, make the type `Codable` or ``ArchiveCoding``.
///
/// ```swift
/// let data = MirrorArchiver().encode(someLibraryObject)
/// // karchive dump, or KeyedArchive(parsing: data), shows what it holds.
/// ```
public struct MirrorArchiver: Sendable {
    /// The property list format to produce. Defaults to `PropertyListFormat.binary`.
    public var outputFormat: PropertyListFormat = .binary
    /// The deepest nesting followed; deeper values are stored as `$null`. Defaults to 512.
    public var maximumDepth = 512

    /// Creates an archiver.
    public init() {}

    /// Archives `value` as the root object.
    public func encode(_ value: Any) -> Data {
        self.archive(value).serialized(as: self.outputFormat)
    }

    /// Archives `value` as the root object, as an archive model.
    public func archive(_ value: Any) -> KeyedArchive {
        var session = MirrorArchivingSession(maximumDepth: self.maximumDepth)
        let root = session.object(value, depth: 0)
        return KeyedArchive(top: [("root", root)], objects: session.table.propertyListObjects)
    }
}

/// One reflection pass over a value graph.
private struct MirrorArchivingSession: ~Copyable {
    var table = ArchiveEncodingTable()
    let maximumDepth: Int
    /// Class instances already given a UID, kept alive so their identifiers stay unique.
    var instances: [ObjectIdentifier: (UID, AnyObject)] = [:]

    init(maximumDepth: Int) {
        self.maximumDepth = maximumDepth
    }

    /// The UID of the object for `value`.
    mutating func object(_ value: Any, depth: Int) -> UID {
        if let leaf = Self.leaf(value) { return self.table.leaf(leaf) }
        guard depth < self.maximumDepth else { return UID(0) }
        let mirror = Mirror(reflecting: value)
        if mirror.displayStyle == .optional {
            guard let wrapped = mirror.children.first?.value else { return UID(0) }
            return self.object(wrapped, depth: depth)
        }
        if let special = self.foundationObject(value) { return special }
        if mirror.displayStyle == .enum, mirror.children.isEmpty {
            // A case without payload is stored as its name.
            return self.table.leaf(String(describing: value))
        }
        if mirror.displayStyle == .class {
            let instance = value as AnyObject
            let identifier = ObjectIdentifier(instance)
            if let (uid, _) = self.instances[identifier] { return uid }
            let uid = self.table.reserve()
            self.instances[identifier] = (uid, instance)
            self.fill(uid, mirror: mirror, type: type(of: value), depth: depth)
            return uid
        }
        let uid = self.table.reserve()
        self.fill(uid, mirror: mirror, type: type(of: value), depth: depth)
        return uid
    }

    private mutating func fill(_ uid: UID, mirror: Mirror, type: Any.Type, depth: Int) {
        // `$class` goes first; its UID is known only after the contents, as NSKeyedArchiver orders them.
        var object = MirrorObject(table: &self.table)
        let archivedClass: ArchivedClass
        switch mirror.displayStyle {
        case .collection, .set:
            object.set(
                ArchiveFormatKey.nsObjects.string,
                self.array(mirror.children.map(\.value), depth: depth),
                in: &self.table
            )
            archivedClass = ArchivedClass(name: mirror.displayStyle == .set ? "NSSet" : "NSArray")
        case .tuple where mirror.children.allSatisfy({ $0.label?.hasPrefix(".") ?? true }):
            // An unlabelled tuple is a fixed-size list.
            object.set(
                ArchiveFormatKey.nsObjects.string,
                self.array(mirror.children.map(\.value), depth: depth),
                in: &self.table
            )
            archivedClass = ArchivedClass(name: "NSArray")
        case .dictionary:
            var keyUIDs: [ArchiveEncodingTable.Value] = []
            var valueUIDs: [ArchiveEncodingTable.Value] = []
            for child in mirror.children {
                let pair = Array(Mirror(reflecting: child.value).children)
                guard pair.count == 2 else { continue }
                keyUIDs.append(.uid(self.object(pair[0].value, depth: depth + 1).rawValue))
                valueUIDs.append(.uid(self.object(pair[1].value, depth: depth + 1).rawValue))
            }
            object.set(ArchiveFormatKey.nsKeys.string, self.table.builder.array(keyUIDs), in: &self.table)
            object.set(ArchiveFormatKey.nsObjects.string, self.table.builder.array(valueUIDs), in: &self.table)
            archivedClass = ArchivedClass(name: "NSDictionary")
        case .enum:
            // An enum case with a payload: its name, then the payload's values under their labels,
            // or `_0`, `_1`… where unlabelled, as Codable's synthesized conformances name them.
            if let payload = mirror.children.first {
                object.set("case", .uid(self.table.leaf(payload.label ?? "").rawValue), in: &self.table)
                let payloadMirror = Mirror(reflecting: payload.value)
                if payloadMirror.displayStyle == .tuple {
                    for (index, element) in payloadMirror.children.enumerated() {
                        let label = element.label.flatMap { $0.hasPrefix(".") ? nil : $0 } ?? "_\(index)"
                        let value = self.field(element.value, depth: depth + 1)
                        object.set(KeyedArchive.escapedKey(label), value, in: &self.table)
                    }
                } else {
                    object.set("_0", self.field(payload.value, depth: depth + 1), in: &self.table)
                }
            }
            archivedClass = ArchivedClass(name: Self.className(of: type))
        default:
            var chain = [Self.className(of: type)]
            var current: Mirror? = mirror
            while let level = current {
                for (index, child) in level.children.enumerated() {
                    let key = KeyedArchive.escapedKey(child.label ?? ArchiveFormatKey.generatedKey(at: index))
                    if !object.contains(key, in: &self.table) {
                        object.set(key, self.field(child.value, depth: depth + 1), in: &self.table)
                    }
                }
                current = level.superclassMirror
                if let superclass = current?.subjectType { chain.append(Self.className(of: superclass)) }
            }
            chain.append("NSObject")
            archivedClass = ArchivedClass(name: chain[0], classes: chain)
        }
        object.values[0] = .uid(self.table.classReference(archivedClass).rawValue)
        self.table.fill(uid, keys: object.keys, values: object.values)
    }

    /// An `NS.objects` array of the objects for `elements`.
    private mutating func array(_ elements: [Any], depth: Int) -> ArchiveEncodingTable.Value {
        var uids: [ArchiveEncodingTable.Value] = []
        uids.reserveCapacity(elements.count)
        for element in elements { uids.append(.uid(self.object(element, depth: depth + 1).rawValue)) }
        return self.table.builder.array(uids)
    }

    /// A field value: scalars inline, everything else by UID.
    private mutating func field(_ value: Any, depth: Int) -> ArchiveEncodingTable.Value {
        switch Self.leaf(value) {
        case .scalar(let scalar): return scalar
        case .some(let leaf): return .uid(self.table.leaf(leaf).rawValue)
        case nil: return .uid(self.object(value, depth: depth).rawValue)
        }
    }

    private static func className(of type: Any.Type) -> String {
        ArchiveEncodingTypeFacts.swiftName(of: type)
    }

    /// The leaf for strings, numbers, Booleans and data.
    private static func leaf(_ value: Any) -> ArchiveEncodingSession.Leaf? {
        switch value {
        case let value as String: return .string(value)
        case let value as Substring: return .string(String(value))
        case let value as Bool: return .scalar(.bool(value))
        case let value as Int: return .scalar(.integer(Int64(value)))
        case let value as Int8: return .scalar(.integer(Int64(value)))
        case let value as Int16: return .scalar(.integer(Int64(value)))
        case let value as Int32: return .scalar(.integer(Int64(value)))
        case let value as Int64: return .scalar(.integer(value))
        case let value as UInt: return .scalar(.integer(UInt64(value)))
        case let value as UInt8: return .scalar(.integer(UInt64(value)))
        case let value as UInt16: return .scalar(.integer(UInt64(value)))
        case let value as UInt32: return .scalar(.integer(UInt64(value)))
        case let value as UInt64: return .scalar(.integer(value))
        case let value as Double: return .scalar(.real(value))
        case let value as Float: return .scalar(.float(value))
        case let value as Data: return .data(value)
        default: return nil
        }
    }

    /// `NSDate`, `NSUUID` and `NSURL` objects for `Date`, `UUID` and `URL`.
    private mutating func foundationObject(_ value: Any) -> UID? {
        switch value {
        case let date as Date: return self.table.addDate(date)
        case let uuid as UUID: return self.table.addUUID(uuid)
        case let url as URL: return self.table.addURL(url)
        default: return nil
        }
    }
}

/// The entries of one object being archived by reflection, `$class` first; a key set again keeps
/// its first position and takes the new value, as a property list dictionary does.
private struct MirrorObject {
    var keys: [ArchiveEncodingTable.Key]
    var values: [ArchiveEncodingTable.Value]

    init(table: inout ArchiveEncodingTable) {
        self.keys = [table.key(.class)]
        self.values = [.uid(0)]
    }

    func contains(_ key: String, in table: inout ArchiveEncodingTable) -> Bool {
        let canonical = table.key(key).canonical
        return self.keys.contains { $0.canonical == canonical }
    }

    mutating func set(_ key: String, _ value: ArchiveEncodingTable.Value, in table: inout ArchiveEncodingTable) {
        let key = table.key(key)
        if let index = self.keys.firstIndex(where: { $0.canonical == key.canonical }) {
            self.values[index] = value
        } else {
            self.keys.append(key)
            self.values.append(value)
        }
    }
}
