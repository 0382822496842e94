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

/// An archive's binary property list read where it lies in the bytes, as the decoder reads it.
///
/// Every failure to read an object is ``KeyedArchiveError/Code/malformedPropertyList``, wrapping
/// the `PropertyListError`.
internal struct ArchiveInPlaceList: ArchivePropertyList {
    /// The property list.
    let plist: InPlaceBinaryPropertyList

    /// The property list's top object.
    /// - Throws: ``KeyedArchiveError/Code/malformedPropertyList`` if it is not a valid object.
    func topObject() throws(KeyedArchiveError) -> InPlaceValue {
        try self.read(self.plist.topObjectIndex)
    }

    /// The object at a property list object index.
    /// - Throws: ``KeyedArchiveError/Code/malformedPropertyList`` if it is not a valid object.
    @inline(__always)
    func read(_ index: Int) throws(KeyedArchiveError) -> InPlaceValue {
        do {
            return try self.plist.reader.value(at: index)
        } catch {
            throw Self.malformed(error)
        }
    }

    /// The error for an object of the property list that is not valid.
    @inline(never)
    static func malformed(_ error: PropertyListError) -> KeyedArchiveError {
        KeyedArchiveError(.malformedPropertyList, reason: "not a property list", underlying: error)
    }

    static func dictionary(_ value: InPlaceValue) -> InPlaceRegion? {
        guard case .dictionary(let region) = value else { return nil }
        return region
    }

    static func array(_ value: InPlaceValue) -> InPlaceRegion? {
        guard case .array(let region) = value else { return nil }
        return region
    }

    @inline(__always)
    static func uid(_ value: InPlaceValue) -> UID? {
        guard case .uid(let uid) = value else { return nil }
        return uid
    }

    static func integer(_ value: InPlaceValue) -> Int? {
        guard case .integer(let integer) = value else { return nil }
        return integer.exactly(Int.self)
    }

    static func kindName(of value: InPlaceValue) -> String {
        value.kindName
    }

    func string(_ value: InPlaceValue) throws(KeyedArchiveError) -> String? {
        guard case .string(let region) = value else { return nil }
        do {
            return try self.plist.string(region)
        } catch {
            throw Self.malformed(error)
        }
    }

    func value(forKey key: StaticString, in dictionary: InPlaceRegion) throws(KeyedArchiveError) -> InPlaceValue? {
        let reader = self.plist.reader
        guard let position = reader.position(ofKey: key, in: dictionary) else { return nil }
        return try self.read(reader.value(of: dictionary, at: position))
    }

    func hasKey(_ key: StaticString, in dictionary: InPlaceRegion) -> Bool {
        self.plist.reader.position(ofKey: key, in: dictionary) != nil
    }

    func count(of array: InPlaceRegion) -> Int {
        array.count
    }

    func element(at position: Int, of array: InPlaceRegion) throws(KeyedArchiveError) -> InPlaceValue {
        try self.read(self.plist.reader.element(of: array, at: position))
    }

    func entryCount(of dictionary: InPlaceRegion) -> Int {
        dictionary.count
    }

    func entryValue(at position: Int, of dictionary: InPlaceRegion) throws(KeyedArchiveError) -> InPlaceValue {
        try self.read(self.plist.reader.value(of: dictionary, at: position))
    }

    func entryKey(at position: Int, of dictionary: InPlaceRegion) -> String? {
        (try? self.plist.propertyList(at: self.plist.reader.key(of: dictionary, at: position), depth: 0))?
            .stringValue
    }

    func entryKeyValue(at position: Int, of dictionary: InPlaceRegion) throws(KeyedArchiveError) -> InPlaceValue {
        try self.read(self.plist.reader.key(of: dictionary, at: position))
    }

    /// The bytes a string or data value is stored in: a UTF-16 string's code units count twice.
    func storedLength(of value: InPlaceValue) -> Int? {
        switch value {
        case .string(let region): self.plist.reader.storedLength(of: region)
        case .data(let region): region.count
        default: nil
        }
    }

    /// The object index of a string, data value or container; scalars, which count as one value
    /// wherever they are, have none.
    func objectIdentity(of value: InPlaceValue) -> Int? {
        switch value {
        case .string(let region), .data(let region), .array(let region), .dictionary(let region): region.object
        default: nil
        }
    }

    func tree(_ value: InPlaceValue) -> PropertyListValue? {
        try? self.plist.propertyList(of: value, depth: 4)
    }
}
