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

/// Builds `$objects` in `NSKeyedArchiver`'s order.
///
/// An object's UID is reserved before its contents are encoded, its contents append their own
/// objects as they are met, and its class dictionary is appended after them on first use and
/// shared afterwards. Equal leaf values (strings, numbers, data) are stored once.
internal struct ArchiveObjectTable {
    private(set) var objects: [PropertyListValue] = [KeyedArchive.nullObject]
    private var leaves: [PropertyListValue: UID] = [:]
    private var classes: [ArchivedClass: UID] = [:]
    /// The class UIDs of `NSDate`, `NSUUID` and `NSURL` once used, so their objects skip hashing.
    private var foundationClassUIDs: [UID?] = [nil, nil, nil]

    init() {}

    /// The number of objects, `$null` included.
    var count: Int { self.objects.count }

    /// Reserves a UID for an object whose contents are about to be encoded.
    mutating func reserve() -> UID {
        let uid = UID(UInt64(self.objects.count))
        self.objects.append(KeyedArchive.nullObject)
        return uid
    }

    /// Stores the object for a reserved UID.
    mutating func fill(_ uid: UID, with object: PropertyListValue) {
        self.objects[Int(uid.rawValue)] = object
    }

    /// The UID of a leaf value (string, number, Boolean, data), adding it on first use.
    mutating func leaf(_ value: PropertyListValue) -> UID {
        if let uid = self.leaves[value] { return uid }
        let uid = UID(UInt64(self.objects.count))
        self.objects.append(value)
        self.leaves[value] = uid
        return uid
    }

    /// The UID of a class dictionary, adding it on first use.
    mutating func classReference(_ archivedClass: ArchivedClass) -> UID {
        if let uid = self.classes[archivedClass] { return uid }
        let uid = UID(UInt64(self.objects.count))
        self.objects.append(archivedClass.propertyList)
        self.classes[archivedClass] = uid
        return uid
    }

    /// The Foundation classes whose objects ``ArchiveObjectTable`` builds itself.
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
        let uid = self.classReference(foundationClass.archivedClass)
        self.foundationClassUIDs[foundationClass.rawValue] = uid
        return uid
    }
}
