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

extension ArchiveEncodingTable {
    /// The value of an object's field for `value`: a number or Boolean inline, anything else by
    /// the UID of its object, as `NSKeyedArchiver` stores fields.
    mutating func archivedField(_ value: ArchivedValue) -> Value {
        switch value {
        case .integer(let integer): return .integer(integer)
        case .real(let real): return .real(real)
        case .float(let float): return .float(float)
        case .bool(let bool): return .bool(bool)
        default: return .uid(self.archivedObject(value).rawValue)
        }
    }

    /// Writes `value` as the objects it was read from (class names and chains included) and
    /// returns the UID of its root: `$null` for null and for a cycle's back reference, which a tree
    /// cannot rebuild.
    mutating func archivedObject(_ value: ArchivedValue) -> UID {
        switch value {
        case .null, .reference, .top: return UID(0)
        case .string(let string): return self.leaf(string)
        case .integer(let integer): return self.leaf(scalar: .integer(integer))
        case .real(let real): return self.leaf(scalar: .real(real))
        case .float(let float): return self.leaf(scalar: .float(float))
        case .bool(let bool): return self.leaf(scalar: .bool(bool))
        case .data(let data): return self.leaf(data)
        case .date(let date): return self.addDate(date)
        case .uuid(let uuid): return self.addUUID(uuid)
        case .url(let string):
            guard let url = URL(string: string) else { return self.leaf(string) }
            return self.addURL(url)
        case .array(let elements, let className):
            let uid = self.reserve()
            var uids: [Value] = []
            uids.reserveCapacity(elements.count)
            for element in elements { uids.append(.uid(self.archivedObject(element).rawValue)) }
            let objects = self.builder.array(uids)
            let classUID = self.classReference(ArchivedClass(name: className, classes: Self.chain(of: className)))
            self.fill(uid, classUID: classUID, self.key(.nsObjects), objects)
            return uid
        case .dictionary(let entries, let className):
            let uid = self.reserve()
            var keys: [Value] = []
            var values: [Value] = []
            keys.reserveCapacity(entries.count)
            values.reserveCapacity(entries.count)
            for entry in entries { keys.append(.uid(self.archivedObject(entry.key).rawValue)) }
            for entry in entries { values.append(.uid(self.archivedObject(entry.value).rawValue)) }
            let keysArray = self.builder.array(keys)
            let valuesArray = self.builder.array(values)
            let classUID = self.classReference(ArchivedClass(name: className, classes: Self.chain(of: className)))
            self.fill(uid, classUID: classUID, self.key(.nsKeys), keysArray, self.key(.nsObjects), valuesArray)
            return uid
        case .object(let className, let classes, let fields):
            let uid = self.reserve()
            var keys = [self.key(.class)]
            var values: [Value] = [.uid(0)]
            for field in fields {
                keys.append(self.key(KeyedArchive.escapedKey(field.key)))
                values.append(self.archivedField(field.value))
            }
            values[0] = .uid(self.classReference(ArchivedClass(name: className, classes: classes)).rawValue)
            self.fill(uid, keys: keys, values: values)
            return uid
        }
    }

    /// The class chain of a Foundation collection class, as Foundation writes it.
    private static func chain(of className: String) -> [String] {
        switch className {
        case "NSMutableArray": return ["NSMutableArray", "NSArray", "NSObject"]
        case "NSMutableSet": return ["NSMutableSet", "NSSet", "NSObject"]
        case "NSCountedSet": return ["NSCountedSet", "NSMutableSet", "NSSet", "NSObject"]
        case "NSMutableOrderedSet": return ["NSMutableOrderedSet", "NSOrderedSet", "NSObject"]
        case "NSMutableDictionary": return ["NSMutableDictionary", "NSDictionary", "NSObject"]
        default: return [className, "NSObject"]
        }
    }
}

extension _ArchiveEncoder {
    /// Adds kept fields (see ``ArchiveUnknownFields``) to this encoder's keyed object.
    func setArchivedFields(_ fields: [ArchivedValue.Field]) {
        _ = self.container(keyedBy: ArchiveEvolutionKey.self)
        guard self.state == .keyed else { return }
        for field in fields {
            let value = self.session.table.archivedField(field.value)
            self.setEntry(value, forKey: self.storageKey(field.key))
        }
    }
}
