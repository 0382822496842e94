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

// The session's keys, class names and type descriptions, found once per session (or per archive
// for keys and class dictionaries) and cached.
extension ArchiveEncodingSession {
    // MARK: - Keys

    /// The key under which a coding key's string is stored: escaped in an object's own
    /// dictionary, as is in an `NSDictionary`.
    @inline(__always)
    func storageKey(_ string: String, inDictionary: Bool) -> ArchiveEncodingTable.Key {
        if inDictionary {
            if let key = self.dictionaryKeys.key(for: string) { return key }
        } else {
            if let key = self.objectKeys.key(for: string) { return key }
        }
        return self.makeStorageKey(string, inDictionary: inDictionary)
    }

    @inline(never)
    private func makeStorageKey(_ string: String, inDictionary: Bool) -> ArchiveEncodingTable.Key {
        if inDictionary {
            let key = self.table.key(string)
            self.dictionaryKeys.insert(key, for: string)
            return key
        }
        let escaped = KeyedArchive.escapedKey(string)
        let stringCount = self.table.builder.strings.count
        let key = self.table.key(escaped)
        self.objectKeys.insert(key, for: string)
        // A string new to the table is kept for the next archives (one already there as a value
        // is not: its cache entry goes when the table is emptied).
        if self.table.builder.strings.count > stringCount { self.newObjectKeys.append((string, escaped)) }
        return key
    }

    // MARK: - Classes

    /// The UID of a type's class dictionary, appending it on first use.
    func classUID(for info: ArchiveEncodingTypeInfo) -> UID {
        if let uid = info.classUID { return uid }
        let number: Int
        if let known = info.classNumber {
            number = known
        } else {
            number = self.table.classNumber(info.archivedClass)
            info.classNumber = number
        }
        let uid = self.table.classReference(info.archivedClass, number: number)
        info.classUID = uid
        return uid
    }

    func typeInfo<T: Encodable>(of value: T) -> ArchiveEncodingTypeInfo {
        // A value's type is `T` unless `T` is a class, whose instance may be of a subclass: the
        // static type finds the others without asking the runtime for the dynamic type.
        let staticIdentifier = ObjectIdentifier(T.self)
        if let info = self.recentTypeInfo(staticIdentifier, slot: Self.typeSlot(staticIdentifier)),
            info.kind != .instance
        {
            return info
        }
        let type: Any.Type = Swift.type(of: value)
        let identifier = ObjectIdentifier(type)
        let slot = Self.typeSlot(identifier)
        if let info = self.recentTypeInfo(identifier, slot: slot) { return info }
        let info = self.typeInfos[identifier] ?? self.makeTypeInfo(of: value, type: type)
        // The pair's older entry makes room.
        self.recentTypes[slot + 1] = self.recentTypes[slot]
        self.recentTypeInfos[slot + 1] = self.recentTypeInfos[slot]
        self.recentTypes[slot] = identifier
        self.recentTypeInfos[slot] = info
        return info
    }

    /// The info of a type in ``recentTypes``, looked for in the two slots from `slot`.
    @inline(__always)
    private func recentTypeInfo(_ identifier: ObjectIdentifier, slot: Int) -> ArchiveEncodingTypeInfo? {
        if self.recentTypes[slot] == identifier { return self.recentTypeInfos[slot] }
        if self.recentTypes[slot + 1] == identifier { return self.recentTypeInfos[slot + 1] }
        return nil
    }

    /// The first of the two slots of ``recentTypes`` (and of the composite types) that a type may
    /// take. The caches are two-way set associative: in a direct-mapped one, two types whose slots
    /// collide (which depends on where the runtime put their metadata) would evict each other on
    /// every value.
    @inline(__always)
    static func typeSlot(_ identifier: ObjectIdentifier) -> Int {
        let bits = UInt(bitPattern: identifier) &* 0x9E37_79B9_7F4A_7C15
        return Int(truncatingIfNeeded: bits >> 58) & (Self.recentTypeCount - 2)
    }

    @inline(never)
    private func makeTypeInfo<T: Encodable>(of value: T, type: Any.Type) -> ArchiveEncodingTypeInfo {
        let facts = ArchiveEncodingTypeFacts.facts(of: value, type: type)
        let identifier = ObjectIdentifier(type)
        let archivedClass: ArchivedClass
        if self.options.classNames[identifier] == nil, let namedClass = facts.namedClass {
            archivedClass = namedClass
        } else {
            // A name set with `setClassName(_:for:)` wins, here and in the chain.
            let name = self.options.classNames[identifier] ?? facts.defaultName
            var chain = [name]
            for superclass in facts.superclasses {
                chain.append(self.options.classNames[superclass.identifier] ?? superclass.defaultName)
            }
            if chain.last != "NSObject" { chain.append("NSObject") }
            archivedClass = ArchivedClass(name: name, classes: chain)
        }
        let info = ArchiveEncodingTypeInfo(kind: facts.kind, archivedClass: archivedClass)
        info.arrayMarker = facts.arrayMarker
        if self.options.directArchiving.usesConformances {
            if let direct = facts.objectEncoder {
                info.objectEncoder = direct
                info.objectKeyNames = direct.archiveObjectKeys.names
            }
            info.rawValueEncoder = facts.rawValueEncoder
        }
        self.typeInfos[identifier] = info
        return info
    }
}
