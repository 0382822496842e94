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

/// An archive's property list as a tree of `PropertyListValue`s, which ``KeyedArchive``, its
/// resolver, the validator and `ArchiveInfo` read.
internal struct ArchiveTreeList: ArchivePropertyList {
    static func dictionary(_ value: PropertyListValue) -> PropertyListDictionary? {
        guard case .dictionary(let dictionary) = value else { return nil }
        return dictionary
    }

    static func array(_ value: PropertyListValue) -> [PropertyListValue]? {
        guard case .array(let elements) = value else { return nil }
        return elements
    }

    static func uid(_ value: PropertyListValue) -> UID? {
        guard case .uid(let uid) = value else { return nil }
        return uid
    }

    static func integer(_ value: PropertyListValue) -> Int? {
        value.intValue
    }

    static func kindName(of value: PropertyListValue) -> String {
        value.kindName
    }

    func string(_ value: PropertyListValue) -> String? {
        value.stringValue
    }

    func value(forKey key: StaticString, in dictionary: PropertyListDictionary) -> PropertyListValue? {
        dictionary[key.string]
    }

    func hasKey(_ key: StaticString, in dictionary: PropertyListDictionary) -> Bool {
        dictionary[key.string] != nil
    }

    func count(of array: [PropertyListValue]) -> Int {
        array.count
    }

    func element(at position: Int, of array: [PropertyListValue]) -> PropertyListValue {
        array[position]
    }

    func entryCount(of dictionary: PropertyListDictionary) -> Int {
        dictionary.count
    }

    func entryValue(at position: Int, of dictionary: PropertyListDictionary) -> PropertyListValue {
        dictionary[position].value
    }

    func entryKey(at position: Int, of dictionary: PropertyListDictionary) -> String? {
        dictionary[position].key
    }

    func entryKeyValue(at position: Int, of dictionary: PropertyListDictionary) -> PropertyListValue {
        .string(dictionary[position].key)
    }

    func tree(_ value: PropertyListValue) -> PropertyListValue? {
        value
    }

    /// A string's UTF-8 bytes, a data value's bytes.
    func storedLength(of value: PropertyListValue) -> Int? {
        switch value {
        case .string(let string): string.utf8.count
        case .data(let data): data.count
        default: nil
        }
    }

    /// `nil`: a tree holds every value where it stands.
    func objectIdentity(of value: PropertyListValue) -> Int? {
        nil
    }
}
