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
/// The decoded size of the result (see `PropertyListLimits`) is computed alongside, once per
/// object: ``decodedSize`` counts a shared object at every place that holds it, as the tree an
/// ``ArchivedValue`` describes does. The caller checks it with ``checkDecodedSize()``. With an
/// allow-list, an object of any other class throws ``KeyedArchiveError/Code/classNotAllowed``.
///
/// With `keepsContainersByReference`, every object that resolves to an array, dictionary or other
/// object is kept in ``containers`` and every place that holds it gets ``ArchivedValue/reference(_:)``
/// instead, counted in ``referenceCounts``: the shape ``ArchivedObjectGraph`` presents.
internal struct ArchiveResolver {
    private let archive: KeyedArchive
    /// The graph reader over ``archive``.
    private let graph: ArchiveGraphReader<ArchiveTreeList>
    private let maximumDepth: Int
    private let keepsContainersByReference: Bool
    private let allowedClassNames: Set<String>?
    private let limits: PropertyListLimits
    private var resolved: [Int: (value: ArchivedValue, size: Int)] = [:]
    /// The decoded size of the value ``resolve(_:)`` or ``resolveTopValue(_:)`` returned last.
    private var lastSize = 0
    /// The decoded size of everything resolved from the top so far.
    private(set) var decodedSize = 0
    /// The objects being resolved; their count is how deep objects nest.
    private var inProgress = ArchiveObjectMarks()
    /// Stops nesting before the thread's stack runs out.
    private var stack = StackGuard()
    /// The resolved containers, when keeping them by reference.
    private(set) var containers: [UID: ArchivedValue] = [:]
    /// How often each container is referred to, not counting cycles, when keeping them by reference.
    private(set) var referenceCounts: [UID: Int] = [:]

    init(
        archive: KeyedArchive,
        limits: PropertyListLimits,
        allowedClassNames: Set<String>? = nil,
        keepsContainersByReference: Bool = false
    ) {
        self.archive = archive
        self.graph = ArchiveGraphReader(archive)
        self.limits = limits
        self.maximumDepth = limits.maximumDepth
        self.allowedClassNames = allowedClassNames
        self.keepsContainersByReference = keepsContainersByReference
    }

    /// The largest sum of sizes kept; larger sums saturate here, far above any budget.
    private static let sizeCap = Int.max / 4

    /// Adds decoded sizes, saturating instead of overflowing.
    private static func add(_ lhs: Int, _ rhs: Int) -> Int {
        min(lhs &+ rhs, Self.sizeCap)
    }

    /// Resolves the value of a `$top` entry: a UID's object, or an inline scalar, and adds its
    /// decoded size to ``decodedSize``.
    mutating func resolveTopValue(_ value: PropertyListValue) throws(KeyedArchiveError) -> ArchivedValue {
        let resolved = try self.resolveField(value)
        self.decodedSize = Self.add(self.decodedSize, self.lastSize)
        return resolved
    }

    /// Throws ``KeyedArchiveError/Code/decodedSizeLimitExceeded`` if ``decodedSize`` is beyond the
    /// budget for this archive: the limits' budget for an input the decoded size of the archive's
    /// own objects, each counted once.
    func checkDecodedSize() throws(KeyedArchiveError) {
        let budget = self.limits.decodedSizeBudget(
            forInputSize: self.graph.distinctDecodedSize(maximumDepth: self.maximumDepth)
        )
        guard self.decodedSize <= budget else {
            throw KeyedArchiveError(
                .decodedSizeLimitExceeded,
                reason: "with shared objects repeated, the resolved archive would exceed \(budget) decoded bytes"
            )
        }
    }

    mutating func resolve(_ uid: UID) throws(KeyedArchiveError) -> ArchivedValue {
        let index = try self.graph.objectIndex(for: uid)
        let object = self.archive.objects[index]
        if let (value, size) = self.resolved[index] {
            self.countReference(value)
            self.lastSize = size
            return value
        }
        if self.inProgress.contains(uid) {
            self.lastSize = PropertyListLimits.decodedValueSize
            return .reference(uid)
        }
        let depth = Int(self.inProgress.count)
        guard depth < self.maximumDepth, self.stack.hasRoom() else {
            // One deeper than the limit, or the depth where the stack ran out.
            throw ArchiveGraphReader<ArchiveTreeList>.nestingError(
                uid: uid,
                depth: depth < self.maximumDepth ? depth : self.maximumDepth + 1,
                limit: self.maximumDepth
            )
        }
        self.inProgress.insert(uid, objectCount: self.graph.objectCount)
        defer { self.inProgress.remove(uid) }
        var value = try self.resolveObject(object, uid: uid)
        if self.keepsContainersByReference, value.isContainer {
            // Held once, in `containers`; each place that holds it has a reference.
            self.containers[uid] = value
            self.decodedSize = Self.add(self.decodedSize, self.lastSize)
            self.lastSize = PropertyListLimits.decodedValueSize
            value = .reference(uid)
            self.countReference(value)
        }
        self.resolved[index] = (value, self.lastSize)
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
        self.lastSize = PropertyListLimits.decodedValueSize
        switch value {
        case .string(let string):
            if uid?.rawValue == 0 { return .null }
            self.lastSize += string.utf8.count
            return .string(string)
        case .integer(let integer): return .integer(integer)
        case .real(let real): return .real(real)
        case .float(let float): return .float(float)
        case .bool(let bool): return .bool(bool)
        case .date(let date): return .date(date)
        case .data(let data):
            self.lastSize += data.count
            return .data(data)
        case .uid(let reference): return try self.resolve(reference)
        case .array(let elements):
            var values: [ArchivedValue] = []
            values.reserveCapacity(elements.count)
            var size = PropertyListLimits.decodedValueSize
            for element in elements {
                values.append(try self.resolveField(element))
                size = Self.add(size, self.lastSize)
            }
            self.lastSize = size
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
        let archivedClass = try self.graph.archivedClass(of: dictionary, uid: uid)
        if let allowed = self.allowedClassNames, !allowed.contains(archivedClass.name) {
            throw KeyedArchiveError(
                .classNotAllowed,
                uid: uid,
                reason: "class \"\(archivedClass.name)\" of \(uid) is not among the allowed classes"
            )
        }
        let unit = PropertyListLimits.decodedValueSize
        switch DecodedClassInfo.kind(ofClassNamed: archivedClass.name) {
        case .string:
            if let string = dictionary[ArchiveFormatKey.nsString.string] { return try self.resolveField(string) }
            if case .data(let bytes)? = dictionary[ArchiveFormatKey.nsBytes.string] {
                self.lastSize = unit + bytes.count
                return .string(String(decoding: bytes, as: UTF8.self))
            }
        case .data:
            if case .data(let bytes)? = dictionary[ArchiveFormatKey.nsData.string] {
                self.lastSize = unit + bytes.count
                return .data(bytes)
            }
        case .date:
            if let time = dictionary[ArchiveFormatKey.nsTime.string]?.doubleValue
                ?? dictionary[ArchiveFormatKey.nsTime.string]?.intValue.map(Double.init)
            {
                self.lastSize = unit
                return .date(Date(timeIntervalSinceReferenceDate: time))
            }
        case .uuid:
            if case .data(let bytes)? = dictionary[ArchiveFormatKey.nsUUIDBytes.string],
                let uuid = UUID(archivedBytes: bytes)
            {
                self.lastSize = unit + 16
                return .uuid(uuid)
            }
        case .url:
            let url = try self.resolveURL(dictionary, uid: uid)
            if case .url(let string) = url { self.lastSize = unit + string.utf8.count }
            return url
        case .null:
            self.lastSize = unit
            return .null
        default:
            break
        }
        var size = unit
        if archivedClass.inherits(.dictionary),
            case .array(let keys)? = dictionary[ArchiveFormatKey.nsKeys.string],
            case .array(let values)? = dictionary[ArchiveFormatKey.nsObjects.string]
        {
            guard keys.count == values.count else {
                throw KeyedArchiveError(
                    .unexpectedObject,
                    uid: uid,
                    reason: "NS.keys has \(keys.count) elements but NS.objects has \(values.count)"
                )
            }
            var entries: [ArchivedValue.Entry] = []
            entries.reserveCapacity(keys.count)
            for (key, value) in zip(keys, values) {
                let resolvedKey = try self.resolveField(key)
                size = Self.add(size, self.lastSize)
                let resolvedValue = try self.resolveField(value)
                size = Self.add(size, self.lastSize)
                entries.append(ArchivedValue.Entry(key: resolvedKey, value: resolvedValue))
            }
            self.lastSize = size
            return .dictionary(entries, className: archivedClass.name)
        }
        if case .array(let elements)? = dictionary[ArchiveFormatKey.nsObjects.string] {
            var values: [ArchivedValue] = []
            values.reserveCapacity(elements.count)
            for element in elements {
                values.append(try self.resolveField(element))
                size = Self.add(size, self.lastSize)
            }
            self.lastSize = size
            return .array(values, className: archivedClass.name)
        }
        if archivedClass.inherits(.orderedSet) {
            var values: [ArchivedValue] = []
            var index = 0
            while let element = dictionary[ArchiveFormatKey.nsObject(at: index)] {
                values.append(try self.resolveField(element))
                size = Self.add(size, self.lastSize)
                index += 1
            }
            self.lastSize = size
            return .array(values, className: archivedClass.name)
        }
        var fields: [ArchivedValue.Field] = []
        fields.reserveCapacity(dictionary.count)
        for (key, value) in dictionary where key != ArchiveFormatKey.`class`.string {
            let resolved = try self.resolveField(value)
            size = Self.add(size, self.lastSize)
            fields.append(ArchivedValue.Field(key: KeyedArchive.unescapedKey(key) ?? key, value: resolved))
        }
        self.lastSize = size
        return .object(className: archivedClass.name, classes: archivedClass.classes, fields: fields)
    }

    private mutating func resolveURL(
        _ dictionary: PropertyListDictionary,
        uid: UID
    ) throws(KeyedArchiveError) -> ArchivedValue {
        guard let relativeField = dictionary[ArchiveFormatKey.nsRelative.string] else {
            throw KeyedArchiveError(.unexpectedObject, uid: uid, reason: "NSURL without NS.relative")
        }
        guard case .string(let relative) = try self.resolveField(relativeField) else {
            throw KeyedArchiveError(.unexpectedObject, uid: uid, reason: "NSURL whose NS.relative is not a string")
        }
        var baseString: String?
        if let baseField = dictionary[ArchiveFormatKey.nsBase.string] {
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
