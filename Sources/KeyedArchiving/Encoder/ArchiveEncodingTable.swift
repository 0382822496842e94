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

/// `$objects` as the Codable encoder builds it: flat values in a ``BinaryPropertyListBuilder``,
/// written to binary directly, or turned into a ``KeyedArchive`` on request.
///
/// Objects are numbered in `NSKeyedArchiver`'s order: an
/// object's UID is reserved before its contents are encoded, and its class dictionary is appended
/// after them on first use. Equal leaves (strings, numbers, data) are stored once, strings being
/// equal as `String`s are.
///
/// The table cannot be copied (its scalar table and key cache own their memory): a copy would
/// retain every array it holds, and reading a computed property of it from its session did so.
internal struct ArchiveEncodingTable: ~Copyable {
    typealias Value = BinaryPropertyListBuilder.Value

    /// A key of an object dictionary: the id of its exact string, and the canonical id that tells
    /// whether two keys are the same key.
    struct Key: Equatable {
        var id: UInt32
        var canonical: UInt32
    }

    /// The builder holding the strings, data and container contents.
    var builder = BinaryPropertyListBuilder()
    /// Every object, by UID; 0 is `$null`.
    private(set) var objects = ArchiveSlotStack<Value>()
    /// The UID of each string leaf, by canonical string id (0 = none yet).
    private var stringLeaves: [UInt32] = []
    /// The UID of each data leaf, by data id (0 = none yet).
    private var dataLeaves: [UInt32] = []
    /// The pool keys of recently stored string leaves, by the strings' raw bytes. Larger than the
    /// coding-key caches: values have more distinct strings than types have keys.
    private var recentStrings = ArchiveEncodingKeyCache(slotBits: 9)
    /// The UID of each number and Boolean leaf.
    private var scalarLeaves = BinaryScalarTable()
    /// A number for every class the table has met, kept when it is emptied, so that a class is
    /// hashed once rather than once per archive.
    private var classNumbers: [ArchivedClass: Int] = [:]
    /// The UID of each numbered class's dictionary in this archive, or 0 before its first use.
    private var classUIDs: [UInt32] = []
    /// The numbers whose ``classUIDs`` entry is set, to clear them when the table is emptied.
    private var numberedClassesUsed: [Int] = []
    /// The runs of keys `$class, key[, key2]` in the builder that objects of Foundation classes and
    /// collections share, by the keys' ids (see ``fill(_:classUID:_:_:_:_:)``).
    private var fixedKeyRuns: [(signature: UInt64, start: Int)] = []
    /// The class UIDs of `NSDate`, `NSUUID` and `NSURL` once used, so their objects skip hashing.
    private var foundationClassUIDs: [UID?] = [nil, nil, nil]
    /// How many strings, from the first, stay in the pool with their ids when the table is
    /// emptied: the fixed strings, then the keys and class names earlier archives used (see
    /// ``removeAll(keepingKeys:)``).
    private(set) var keptStringCount = FixedKey.allCases.count
    /// The class names this archive added to the pool, to keep for the next archives.
    private var classNamesToKeep: [String] = []
    /// The string values of each numbered class's names, once they are all kept strings (whose
    /// ids stand from archive to archive), so that its dictionary is built without looking them up.
    private var classTemplates: [ClassTemplate?] = []
    /// The numbers of `NSDate`, `NSUUID` and `NSURL`, once found, kept when the table is emptied.
    private var foundationClassNumbers: [Int?] = [nil, nil, nil]

    /// A class dictionary's string values: its name, its class chain and its hints.
    private struct ClassTemplate {
        var name: Value
        var chain: [Value]
        var hints: [Value]?
    }

    /// The most strings the pool keeps from one archive to the next: an archive's keys and class
    /// names are few, but keys written by `encode(to:)` can be data (unknown fields, say).
    static var keptStringLimit: Int { 1024 }

    /// Strings written by the table and the encoder rather than by `encode(to:)`: keys, and the
    /// names every archive or most of them hold. Each is in the pool from the start, its id being
    /// its raw value, and stays there when the table is emptied.
    enum FixedKey: Int, CaseIterable {
        case null, `class`, nsObjects, nsKeys, nsTime, nsUUIDBytes, nsBase, nsRelative, className, classes, classHints
        case version, archiver, top, objects, root, archiverName, nsObject, nsArray, nsDictionary, nsSet

        var string: String {
            switch self {
            case .null: return ArchiveFormatKey.null.string
            case .class: return ArchiveFormatKey.`class`.string
            case .nsObjects: return ArchiveFormatKey.nsObjects.string
            case .nsKeys: return ArchiveFormatKey.nsKeys.string
            case .nsTime: return ArchiveFormatKey.nsTime.string
            case .nsUUIDBytes: return ArchiveFormatKey.nsUUIDBytes.string
            case .nsBase: return ArchiveFormatKey.nsBase.string
            case .nsRelative: return ArchiveFormatKey.nsRelative.string
            case .className: return ArchiveFormatKey.className.string
            case .classes: return ArchiveFormatKey.classes.string
            case .classHints: return ArchiveFormatKey.classHints.string
            case .version: return ArchiveFormatKey.version.string
            case .archiver: return ArchiveFormatKey.archiver.string
            case .top: return ArchiveFormatKey.top.string
            case .objects: return ArchiveFormatKey.objects.string
            case .root: return "root"
            case .archiverName: return KeyedArchive.archiverName
            case .nsObject: return "NSObject"
            case .nsArray: return "NSArray"
            case .nsDictionary: return "NSDictionary"
            case .nsSet: return "NSSet"
            }
        }
    }

    init() {
        for fixed in FixedKey.allCases {
            let id = self.builder.strings.id(for: fixed.string)
            assert(id == UInt32(fixed.rawValue), "fixed strings are distinct and added first")
        }
        self.objects.append(.string(id: UInt32(FixedKey.null.rawValue)))
    }

    /// Empties the table for another archive, keeping its storage, its fixed strings and the
    /// numbers of its classes: a table grows its arrays to the size of its archive, and taking
    /// that memory afresh for every archive (and giving it back) costs page faults and
    /// allocations on every call. See ``ArchiveEncodingSession/recycle(into:)``.
    ///
    /// The strings the pool keeps (``keptStringCount``) grow by this archive's class names and by
    /// `keys`, the object keys it added, which the next archives then find with their ids: the
    /// same types' keys and class names are interned once per session rather than once per
    /// archive. Which ids strings have changes no byte of an archive (the writer numbers objects
    /// as it meets them).
    /// - Returns: The keys of `keys`, in order, in the emptied table; `nil` if keeping them would
    ///   pass ``keptStringLimit``, in which case only the fixed strings stay and every key the
    ///   caller holds is void.
    mutating func removeAll(keepingKeys keys: [String]) -> [Key]? {
        self.capacity = self.currentCapacity
        var kept = self.keptStringCount
        let keepsMore = kept + keys.count + self.classNamesToKeep.count <= Self.keptStringLimit
        if !keepsMore {
            kept = FixedKey.allCases.count
            self.classTemplates.removeAll()
        }
        self.builder.removeAll(keepingStrings: kept)
        self.objects.pop(from: 0)
        self.stringLeaves.removeAll(keepingCapacity: true)
        self.dataLeaves.removeAll(keepingCapacity: true)
        self.recentStrings.removeAll()
        self.scalarLeaves.removeAll()
        for number in self.numberedClassesUsed { self.classUIDs[number] = 0 }
        self.numberedClassesUsed.removeAll(keepingCapacity: true)
        self.fixedKeyRuns.removeAll(keepingCapacity: true)
        for index in self.foundationClassUIDs.indices { self.foundationClassUIDs[index] = nil }
        self.objects.append(.string(id: UInt32(FixedKey.null.rawValue)))
        guard keepsMore else {
            self.classNamesToKeep.removeAll(keepingCapacity: true)
            self.keptStringCount = kept
            return nil
        }
        for name in self.classNamesToKeep { _ = self.builder.strings.id(for: name) }
        self.classNamesToKeep.removeAll(keepingCapacity: true)
        let keptKeys = keys.map { self.key($0) }
        self.keptStringCount = self.builder.strings.count
        return keptKeys
    }

    /// The largest number of values any of the table's arrays, or the buffers it writes its file
    /// in, had room for when ``removeAll(keepingKeys:)`` last emptied it, which the arrays keep.
    /// (Stored: reading a computed property of the table from its session copies the table.)
    private(set) var capacity = 0

    /// The largest number of values any of the table's arrays, or the buffers it writes its file
    /// in, has room for.
    private var currentCapacity: Int {
        max(
            self.objects.capacity,
            self.builder.items.capacity,
            self.builder.numberingStorage.capacity,
            self.builder.strings.capacity,
            self.stringLeaves.capacity,
            self.dataLeaves.capacity,
            self.scalarLeaves.capacity,
            self.classUIDs.count
        )
    }

    /// The number of objects, `$null` included.
    var count: Int { self.objects.count }

    /// The table's size: its objects, and the values in its containers.
    var size: (objects: Int, items: Int) { (self.objects.count, self.builder.items.count) }

    /// Makes room for `times` more values of the size of one just encoded, the growth from `before`,
    /// as elements of an array. The items have room for the array's elements and for the objects,
    /// which the `$objects` array of ``binaryPropertyList(top:)`` copies there at the end. Large
    /// estimates are capped, so an unusual value cannot make the table reserve too much.
    mutating func reserveCapacity(forRepeating growth: (objects: Int, items: Int), times: Int) {
        let limit = 1 << 22
        let objects = self.objects.count + min(growth.objects * times, limit)
        let items = self.builder.items.count + min((growth.items + growth.objects + 1) * times, limit)
        if objects > self.objects.capacity { self.objects.reserveCapacity(objects) }
        if items > self.builder.items.capacity { self.builder.items.reserveCapacity(items) }
    }

    // MARK: - Keys

    /// The key for a string, adding the string to the pool if needed.
    mutating func key(_ string: String) -> Key {
        let id = self.builder.strings.id(for: string)
        return Key(id: id, canonical: self.builder.strings.canonicalIDs[Int(id)])
    }

    /// The key of one of the table's own entries.
    @inline(__always)
    func key(_ fixed: FixedKey) -> Key {
        Key(id: UInt32(fixed.rawValue), canonical: UInt32(fixed.rawValue))
    }

    // MARK: - Objects

    /// Reserves a UID for an object whose contents are about to be encoded.
    mutating func reserve() -> UID {
        let uid = UID(UInt64(self.objects.count))
        self.objects.append(.uid(0))
        return uid
    }

    /// Stores the object for a reserved UID.
    mutating func fill(_ uid: UID, with object: Value) {
        self.objects[Int(uid.rawValue)] = object
    }

    /// Stores a dictionary object for a reserved UID: `keys` and `values` in matching order.
    mutating func fill(_ uid: UID, keys: [Key], values: [Value]) {
        let start = self.builder.items.count
        for key in keys { self.builder.items.append(.string(id: key.id)) }
        self.builder.items.append(contentsOf: values)
        let count = UInt32(truncatingIfNeeded: keys.count)
        self.objects[Int(uid.rawValue)] = Value(kind: .dictionary, payload: UInt64(start), count: count)
    }

    /// Stores an object's own dictionary for a reserved UID, its entries in order. Objects whose
    /// keys are those of the run at `keyRun` share it; otherwise their keys become the new run.
    /// - Parameter keyRun: The start of the last run of keys of the object's type in this archive.
    mutating func fill(_ uid: UID, entries: [_ArchiveEncoder.Entry], keyRun: inout Int?) {
        let count = entries.count
        var keysStart = -1
        if let start = keyRun, start + count <= self.builder.items.count {
            keysStart = start
            self.builder.items.withUnsafeBufferPointer { items in
                entries.withUnsafeBufferPointer { entries in
                    // Matched as a pattern: `==` on the kind would call its `Equatable` witness.
                    for (item, entry) in zip(items[start..<(start + count)], entries) {
                        guard case .string = item.kind, item.payload == UInt64(entry.key.id) else {
                            keysStart = -1
                            break
                        }
                    }
                }
            }
        }
        if keysStart < 0 {
            keysStart = self.builder.items.count
            for entry in entries { self.builder.items.append(.string(id: entry.key.id)) }
            keyRun = keysStart
        }
        let valuesStart = self.builder.items.count
        if let dictionary = self.builder.dictionary(sharingKeysAt: keysStart, valuesAt: valuesStart, count: count) {
            for entry in entries { self.builder.items.append(entry.value) }
            self.objects[Int(uid.rawValue)] = dictionary
            return
        }
        self.fill(uid, entries: entries)
    }

    /// Stores an object's own dictionary for a reserved UID, its entries in order.
    mutating func fill(_ uid: UID, entries: [_ArchiveEncoder.Entry]) {
        let start = self.builder.items.count
        for entry in entries { self.builder.items.append(.string(id: entry.key.id)) }
        for entry in entries { self.builder.items.append(entry.value) }
        let count = UInt32(truncatingIfNeeded: entries.count)
        self.objects[Int(uid.rawValue)] = Value(kind: .dictionary, payload: UInt64(start), count: count)
    }

    /// Where a type's objects keep their keys in the current archive: the run of ``builder``
    /// items they share, and which of the type's keys it holds.
    struct KeyRun {
        /// Bit `i` is set if the type's key `i` is in the run.
        var mask: UInt64
        /// The run's first item: `$class`, then the keys in order.
        var start: Int
    }

    /// Stores an object's own dictionary for a reserved UID from a writer's run of values:
    /// `$class` first, then each key whose value is set, in order, then `extras`. Objects of a type
    /// that set the same keys (and have no extras, and fewer than 64 keys) share one run of keys in
    /// the builder.
    /// - Parameters:
    ///   - keys: The keys, one per value of the run.
    ///   - values: The run, one value per key; values that are `isUnset` are left out with their keys.
    ///   - extras: Entries after the run's (kept fields).
    ///   - keyRun: The type's shared keys in this archive, made on first use or when its keys differ.
    mutating func fill(
        _ uid: UID,
        classUID: UID,
        keys: [Key],
        values: UnsafeBufferPointer<Value>,
        extras: ArraySlice<_ArchiveEncoder.Entry>,
        keyRun: inout KeyRun?
    ) {
        if extras.isEmpty, keys.count < UInt64.bitWidth {
            var mask: UInt64 = 0
            for index in keys.indices where !values[index].isUnset { mask |= 1 &<< UInt64(index) }
            let keysStart: Int
            if let run = keyRun, run.mask == mask {
                keysStart = run.start
            } else {
                keysStart = self.builder.items.count
                self.builder.items.append(.string(id: UInt32(FixedKey.class.rawValue)))
                for index in keys.indices where mask & (1 &<< UInt64(index)) != 0 {
                    self.builder.items.append(.string(id: keys[index].id))
                }
                keyRun = KeyRun(mask: mask, start: keysStart)
            }
            let valuesStart = self.builder.items.count
            let count = mask.nonzeroBitCount + 1
            if let dictionary = self.builder.dictionary(sharingKeysAt: keysStart, valuesAt: valuesStart, count: count) {
                self.builder.items.append(.uid(classUID.rawValue))
                // The set values, found from the mask rather than tested again.
                var set = mask
                while set != 0 {
                    self.builder.items.append(values[set.trailingZeroBitCount])
                    set &= set &- 1
                }
                self.objects[Int(uid.rawValue)] = dictionary
                return
            }
        }
        let itemStart = self.builder.items.count
        self.builder.items.append(.string(id: UInt32(FixedKey.class.rawValue)))
        var count: UInt32 = 1
        for index in keys.indices where !values[index].isUnset {
            self.builder.items.append(.string(id: keys[index].id))
            count += 1
        }
        for entry in extras { self.builder.items.append(.string(id: entry.key.id)) }
        count += UInt32(truncatingIfNeeded: extras.count)
        self.builder.items.append(.uid(classUID.rawValue))
        for index in keys.indices where !values[index].isUnset {
            self.builder.items.append(values[index])
        }
        for entry in extras { self.builder.items.append(entry.value) }
        self.objects[Int(uid.rawValue)] = Value(kind: .dictionary, payload: UInt64(itemStart), count: count)
    }

    /// Stores `{$class, key: value[, key2: value2]}` for a reserved UID, without intermediate arrays
    /// (these objects are on the encoder's hot path). Objects with the same keys share one run of
    /// them in the builder.
    mutating func fill(
        _ uid: UID,
        classUID: UID,
        _ key: Key,
        _ value: Value,
        _ key2: Key? = nil,
        _ value2: Value? = nil
    ) {
        let count = key2 == nil ? 2 : 3
        let keysStart = self.fixedKeyRun(key, key2)
        let valuesStart = self.builder.items.count
        if let dictionary = self.builder.dictionary(sharingKeysAt: keysStart, valuesAt: valuesStart, count: count) {
            self.builder.items.append(.uid(classUID.rawValue))
            self.builder.items.append(value)
            if key2 != nil { self.builder.items.append(value2 ?? .uid(0)) }
            self.objects[Int(uid.rawValue)] = dictionary
            return
        }
        // Past what a shared run's start holds: the keys inline (arrays are no cost at that size).
        var keys = [self.key(.class), key]
        var values = [Value.uid(classUID.rawValue), value]
        if let key2 {
            keys.append(key2)
            values.append(value2 ?? .uid(0))
        }
        self.fill(uid, keys: keys, values: values)
    }

    /// The start of the run `$class, key[, key2]` in the builder, appended on first use in this archive.
    @inline(__always)
    private mutating func fixedKeyRun(_ key: Key, _ key2: Key?) -> Int {
        let signature = UInt64(key.id) | UInt64(key2?.id ?? UInt32.max) << 32
        for run in self.fixedKeyRuns where run.signature == signature { return run.start }
        return self.addFixedKeyRun(key, key2, signature: signature)
    }

    @inline(never)
    private mutating func addFixedKeyRun(_ key: Key, _ key2: Key?, signature: UInt64) -> Int {
        let start = self.builder.items.count
        self.builder.items.append(.string(id: UInt32(FixedKey.class.rawValue)))
        self.builder.items.append(.string(id: key.id))
        if let key2 { self.builder.items.append(.string(id: key2.id)) }
        // Few shapes use this (dates, UUIDs, URLs, collections); an unusual archive with more
        // replaces the oldest.
        if self.fixedKeyRuns.count >= 8 { self.fixedKeyRuns.removeFirst() }
        self.fixedKeyRuns.append((signature, start))
        return start
    }

    // MARK: - Leaves

    /// The UID of a string leaf, adding it on first use.
    mutating func leaf(_ string: String) -> UID {
        if let key = self.recentStrings.key(for: string) { return self.leaf(stringID: key.id) }
        let key = self.key(string)
        self.recentStrings.insert(key, for: string)
        return self.leaf(stringID: key.id)
    }

    /// The contents of an `NSArray` of strings: the UIDs of their leaves, appended straight to the
    /// builder's items (storing a leaf never adds items, so the run stays contiguous).
    /// - Returns: The array value.
    mutating func stringArray(_ strings: [String]) -> Value {
        let start = self.builder.items.count
        for string in strings {
            let uid = self.leaf(string)
            self.builder.items.append(.uid(uid.rawValue))
        }
        let count = UInt32(truncatingIfNeeded: strings.count)
        return Value(kind: .array, payload: UInt64(start), count: count)
    }

    /// The array of the scalar leaves `values` (an `NSArray`'s `NS.objects`): each value's leaf,
    /// added on first use, by reference.
    mutating func scalarArray<Element>(_ values: [Element], _ scalar: (Element) -> Value) -> Value {
        let start = self.builder.items.count
        for value in values {
            let uid = self.leaf(scalar: scalar(value))
            self.builder.items.append(.uid(uid.rawValue))
        }
        let count = UInt32(truncatingIfNeeded: values.count)
        return Value(kind: .array, payload: UInt64(start), count: count)
    }

    /// The UID of a string leaf from the pool, adding it on first use.
    mutating func leaf(stringID id: UInt32) -> UID {
        let canonical = Int(self.builder.strings.canonicalIDs[Int(id)])
        if canonical < self.stringLeaves.count {
            let existing = self.stringLeaves[canonical]
            if existing != 0 { return UID(UInt64(existing)) }
        } else {
            let newCount = max(canonical + 1, 2 * self.stringLeaves.count, 64)
            self.stringLeaves.append(contentsOf: repeatElement(0, count: newCount - self.stringLeaves.count))
        }
        let uid = self.objects.count
        self.objects.append(.string(id: id))
        self.stringLeaves[canonical] = UInt32(truncatingIfNeeded: uid)
        return UID(UInt64(uid))
    }

    /// The UID of a number or Boolean leaf, adding it on first use.
    mutating func leaf(scalar value: Value) -> UID {
        let uid = UInt32(truncatingIfNeeded: self.objects.count)
        if let existing = self.scalarLeaves.value(
            kind: value.kind.rawValue,
            bits: value.payload,
            insertingIfAbsent: uid
        ) {
            return UID(UInt64(existing))
        }
        self.objects.append(value)
        return UID(UInt64(uid))
    }

    /// The UID of a data leaf, adding it on first use.
    mutating func leaf(_ data: Data) -> UID {
        let id = Int(self.builder.dataID(for: data))
        if id < self.dataLeaves.count {
            if self.dataLeaves[id] != 0 { return UID(UInt64(self.dataLeaves[id])) }
        } else {
            self.dataLeaves.append(contentsOf: repeatElement(0, count: id + 1 - self.dataLeaves.count))
        }
        let uid = self.objects.count
        self.objects.append(Value(kind: .data, payload: UInt64(id)))
        self.dataLeaves[id] = UInt32(truncatingIfNeeded: uid)
        return UID(UInt64(uid))
    }

    /// The UID of a leaf value of any kind: a string, a number, a Boolean or data.
    mutating func leaf(_ value: ArchiveEncodingSession.Leaf) -> UID {
        switch value {
        case .string(let string): return self.leaf(string)
        case .data(let data): return self.leaf(data)
        case .scalar(let scalar): return self.leaf(scalar: scalar)
        }
    }

    // MARK: - Classes

    /// The number of a class, the same for equal classes as long as the table lives.
    mutating func classNumber(_ archivedClass: ArchivedClass) -> Int {
        if let number = self.classNumbers[archivedClass] { return number }
        let number = self.classNumbers.count
        self.classNumbers[archivedClass] = number
        self.classUIDs.append(0)
        return number
    }

    /// The UID of a class dictionary, adding it on first use.
    mutating func classReference(_ archivedClass: ArchivedClass) -> UID {
        self.classReference(archivedClass, number: self.classNumber(archivedClass))
    }

    /// The UID of a class dictionary, adding it on first use; `number` is its ``classNumber(_:)``.
    mutating func classReference(_ archivedClass: ArchivedClass, number: Int) -> UID {
        let existing = self.classUIDs[number]
        if existing != 0 { return UID(UInt64(existing)) }
        let template = self.classTemplate(archivedClass, number: number)
        let uid = UID(UInt64(self.objects.count))
        let chain = self.builder.array(template.chain)
        let hints = template.hints.map { self.builder.array($0) }
        self.objects.append(.uid(0))
        let start = self.builder.items.count
        self.builder.items.append(.string(id: UInt32(FixedKey.className.rawValue)))
        self.builder.items.append(.string(id: UInt32(FixedKey.classes.rawValue)))
        if hints != nil { self.builder.items.append(.string(id: UInt32(FixedKey.classHints.rawValue))) }
        self.builder.items.append(template.name)
        self.builder.items.append(chain)
        if let hints { self.builder.items.append(hints) }
        let count: UInt32 = hints == nil ? 2 : 3
        self.objects[Int(uid.rawValue)] = Value(kind: .dictionary, payload: UInt64(start), count: count)
        self.classUIDs[number] = UInt32(truncatingIfNeeded: uid.rawValue)
        self.numberedClassesUsed.append(number)
        return uid
    }

    /// The string values of a class dictionary, from ``classTemplates`` once its strings are kept.
    private mutating func classTemplate(_ archivedClass: ArchivedClass, number: Int) -> ClassTemplate {
        if number < self.classTemplates.count, let template = self.classTemplates[number] { return template }
        let name = self.className(archivedClass.name)
        var chain: [Value] = []
        for name in archivedClass.classes { chain.append(self.className(name)) }
        var hints: [Value]?
        if let names = archivedClass.hints {
            var values: [Value] = []
            for hint in names { values.append(self.className(hint)) }
            hints = values
        }
        let template = ClassTemplate(name: name, chain: chain, hints: hints)
        let kept = UInt64(self.keptStringCount)
        if name.payload < kept, chain.allSatisfy({ $0.payload < kept }),
            hints?.allSatisfy({ $0.payload < kept }) != false
        {
            if number >= self.classTemplates.count {
                self.classTemplates.append(
                    contentsOf: repeatElement(nil, count: number + 1 - self.classTemplates.count)
                )
            }
            self.classTemplates[number] = template
        }
        return template
    }

    /// The string value of a class name, noted to be kept for the next archives if it is new.
    private mutating func className(_ name: String) -> Value {
        let value = self.builder.string(name)
        if value.payload >= UInt64(self.keptStringCount) { self.classNamesToKeep.append(name) }
        return value
    }

    /// The Foundation classes whose objects the table builds itself.
    enum FoundationClass: Int {
        case date
        case uuid
        case url

        var archivedClass: ArchivedClass {
            switch self {
            case .date: return ArchivedClass(name: "NSDate")
            case .uuid: return ArchivedClass(name: "NSUUID")
            case .url: return ArchivedClass(name: "NSURL")
            }
        }
    }

    /// The UID of a Foundation class dictionary, adding it on first use.
    mutating func classReference(_ foundationClass: FoundationClass) -> UID {
        if let uid = self.foundationClassUIDs[foundationClass.rawValue] { return uid }
        let number =
            self.foundationClassNumbers[foundationClass.rawValue] ?? self.classNumber(foundationClass.archivedClass)
        self.foundationClassNumbers[foundationClass.rawValue] = number
        let uid = self.classReference(foundationClass.archivedClass, number: number)
        self.foundationClassUIDs[foundationClass.rawValue] = uid
        return uid
    }
}
