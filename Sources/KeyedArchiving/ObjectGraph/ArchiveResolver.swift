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

/// Resolves UIDs into ``ArchivedValue`` trees.
///
/// Each object is resolved once and its value reused for every later reference, so heavily shared
/// graphs stay linear in time and memory. An object met again while it is being resolved is a
/// cycle and becomes ``ArchivedValue/reference(_:)``. Nesting is bounded by `maximumDepth`.
///
/// With `keepsContainersByReference`, every object that resolves to an array, dictionary or other
/// object is kept in ``containers`` and every place that holds it gets ``ArchivedValue/reference(_:)``
/// instead, counted in ``referenceCounts``: the shape ``ArchivedObjectGraph`` presents.
internal struct ArchiveResolver {
    private let archive: KeyedArchive
    private let maximumDepth: Int
    private let keepsContainersByReference: Bool
    private var resolved: [Int: ArchivedValue] = [:]
    private var inProgress: Set<Int> = []
    private var depth = 0
    /// The resolved containers, when keeping them by reference.
    private(set) var containers: [UID: ArchivedValue] = [:]
    /// How often each container is referred to, not counting cycles, when keeping them by reference.
    private(set) var referenceCounts: [UID: Int] = [:]

    init(archive: KeyedArchive, maximumDepth: Int, keepsContainersByReference: Bool = false) {
        self.archive = archive
        self.maximumDepth = maximumDepth
        self.keepsContainersByReference = keepsContainersByReference
    }

    mutating func resolve(_ uid: UID) throws(KeyedArchiveError) -> ArchivedValue {
        let object = try self.archive.object(for: uid)
        let index = Int(uid.rawValue)
        if let value = self.resolved[index] {
            self.countReference(value)
            return value
        }
        if self.inProgress.contains(index) { return .reference(uid) }
        guard self.depth < self.maximumDepth else {
            throw KeyedArchiveError(
                .depthLimitExceeded,
                uid: uid,
                reason: "objects nest deeper than \(self.maximumDepth)"
            )
        }
        self.inProgress.insert(index)
        self.depth += 1
        defer {
            self.depth -= 1
            self.inProgress.remove(index)
        }
        var value = try self.resolveObject(object, uid: uid)
        if self.keepsContainersByReference, value.isContainer {
            self.containers[uid] = value
            value = .reference(uid)
            self.countReference(value)
        }
        self.resolved[index] = value
        return value
    }

    private mutating func countReference(_ value: ArchivedValue) {
        guard self.keepsContainersByReference, case .reference(let uid) = value else { return }
        self.referenceCounts[uid, default: 0] += 1
    }

    /// A value stored inline in an object dictionary, or the object a UID refers to.
    private mutating func resolveField(_ value: PropertyListValue) throws(KeyedArchiveError) -> ArchivedValue {
        if case .uid(let uid) = value { return try self.resolve(uid) }
        return try self.resolvePlain(value, uid: nil)
    }

    private mutating func resolvePlain(_ value: PropertyListValue, uid: UID?) throws(KeyedArchiveError) -> ArchivedValue
    {
        switch value {
        case .string(let string): return uid?.rawValue == 0 ? .null : .string(string)
        case .integer(let integer): return .integer(integer)
        case .real(let real): return .real(real)
        case .float(let float): return .float(float)
        case .bool(let bool): return .bool(bool)
        case .date(let date): return .date(date)
        case .data(let data): return .data(data)
        case .uid(let reference): return try self.resolve(reference)
        case .array(let elements):
            var values: [ArchivedValue] = []
            values.reserveCapacity(elements.count)
            for element in elements { values.append(try self.resolveField(element)) }
            return .array(values, className: "")
        case .dictionary:
            throw KeyedArchiveError(.unexpectedObject, uid: uid, reason: "a dictionary where a value was expected")
        }
    }

    private mutating func resolveObject(
        _ object: PropertyListValue,
        uid: UID
    ) throws(KeyedArchiveError) -> ArchivedValue {
        guard case .dictionary(let dictionary) = object else {
            return try self.resolvePlain(object, uid: uid)
        }
        guard let archivedClass = try self.archive.archivedClass(of: object, uid: uid) else {
            throw KeyedArchiveError(.missingClass, uid: uid, reason: "object dictionary without a $class")
        }
        switch DecodedClassInfo.kind(ofClassNamed: archivedClass.name) {
        case .string:
            if let string = dictionary["NS.string"] { return try self.resolveField(string) }
            if case .data(let bytes)? = dictionary["NS.bytes"] {
                return .string(String(decoding: bytes, as: UTF8.self))
            }
        case .data:
            if case .data(let bytes)? = dictionary["NS.data"] { return .data(bytes) }
        case .date:
            if let time = dictionary["NS.time"]?.doubleValue ?? dictionary["NS.time"]?.intValue.map(Double.init) {
                return .date(Date(timeIntervalSinceReferenceDate: time))
            }
        case .uuid:
            if case .data(let bytes)? = dictionary["NS.uuidbytes"], let uuid = UUID(archivedBytes: bytes) {
                return .uuid(uuid)
            }
        case .url:
            return try self.resolveURL(dictionary, uid: uid)
        case .null:
            return .null
        default:
            break
        }
        if archivedClass.inherits(.dictionary),
            case .array(let keys)? = dictionary["NS.keys"], case .array(let values)? = dictionary["NS.objects"]
        {
            guard keys.count == values.count else {
                throw KeyedArchiveError(.unexpectedObject, uid: uid, reason: "NS.keys and NS.objects differ in length")
            }
            var entries: [ArchivedValue.Entry] = []
            entries.reserveCapacity(keys.count)
            for (key, value) in zip(keys, values) {
                entries.append(
                    ArchivedValue.Entry(key: try self.resolveField(key), value: try self.resolveField(value))
                )
            }
            return .dictionary(entries, className: archivedClass.name)
        }
        if case .array(let elements)? = dictionary["NS.objects"] {
            var values: [ArchivedValue] = []
            values.reserveCapacity(elements.count)
            for element in elements { values.append(try self.resolveField(element)) }
            return .array(values, className: archivedClass.name)
        }
        if archivedClass.inherits(.orderedSet) {
            var values: [ArchivedValue] = []
            var index = 0
            while let element = dictionary["NS.object.\(index)"] {
                values.append(try self.resolveField(element))
                index += 1
            }
            return .array(values, className: archivedClass.name)
        }
        var fields: [ArchivedValue.Field] = []
        fields.reserveCapacity(dictionary.count)
        for (key, value) in dictionary where key != "$class" {
            fields.append(
                ArchivedValue.Field(key: KeyedArchive.unescapedKey(key) ?? key, value: try self.resolveField(value))
            )
        }
        return .object(className: archivedClass.name, classes: archivedClass.classes, fields: fields)
    }

    private mutating func resolveURL(
        _ dictionary: PropertyListDictionary,
        uid: UID
    ) throws(KeyedArchiveError) -> ArchivedValue {
        guard let relativeField = dictionary["NS.relative"] else {
            throw KeyedArchiveError(.unexpectedObject, uid: uid, reason: "NSURL without NS.relative")
        }
        guard case .string(let relative) = try self.resolveField(relativeField) else {
            throw KeyedArchiveError(.unexpectedObject, uid: uid, reason: "NSURL whose NS.relative is not a string")
        }
        var baseString: String?
        if let baseField = dictionary["NS.base"] {
            switch try self.resolveField(baseField) {
            case .null: break
            case .url(let base): baseString = base
            default: throw KeyedArchiveError(.unexpectedObject, uid: uid, reason: "NSURL whose NS.base is not a URL")
            }
        }
        guard let baseString else { return .url(relative) }
        guard let url = URL(string: relative, relativeTo: URL(string: baseString)) else {
            throw KeyedArchiveError(
                .unexpectedObject,
                uid: uid,
                reason: "NSURL \(relative) relative to \(baseString) is not a URL"
            )
        }
        return .url(url.absoluteString)
    }
}

extension ArchivedValue {
    /// Whether this is an array, dictionary or object: a value that holds other values.
    internal var isContainer: Bool {
        switch self {
        case .array, .dictionary, .object, .top: return true
        default: return false
        }
    }
}
