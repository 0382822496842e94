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

/// The objects Foundation writes for `Date`, `UUID` and `URL`, in `NSKeyedArchiver`'s order: the
/// object's UID first, then what it refers to, then its class dictionary. Shared by the Codable
/// encoder and the reflection archiver.
extension ArchiveObjectTable {
    /// `NSDate`: `{$class, NS.time: seconds since 2001-01-01}`.
    mutating func addDate(_ date: Date) -> UID {
        let uid = self.reserve()
        let time: PropertyListValue = .real(date.timeIntervalSinceReferenceDate)
        self.fill(uid, self.classReference(.date), "NS.time", time)
        return uid
    }

    /// `NSUUID`: `{$class, NS.uuidbytes: 16 bytes}`.
    mutating func addUUID(_ uuid: UUID) -> UID {
        let uid = self.reserve()
        let bytes: PropertyListValue = .data(withUnsafeBytes(of: uuid.uuid) { Data($0) })
        self.fill(uid, self.classReference(.uuid), "NS.uuidbytes", bytes)
        return uid
    }

    /// `NSURL`: `{$class, NS.base: the base URL's object or 0, NS.relative: the relative string}`.
    mutating func addURL(_ url: URL) -> UID {
        let uid = self.reserve()
        let base = url.baseURL.map { self.addURL($0) } ?? UID(0)
        let relative = self.leaf(.string(url.relativeString))
        self.fill(uid, self.classReference(.url), "NS.base", .uid(base), "NS.relative", .uid(relative))
        return uid
    }

    /// Stores `{$class, key: value[, key2: value2]}` for a reserved UID, sized exactly (these
    /// objects are on the encoder's hot path).
    private mutating func fill(
        _ uid: UID,
        _ classUID: UID,
        _ key: String,
        _ value: PropertyListValue,
        _ key2: String? = nil,
        _ value2: PropertyListValue = .uid(UID(0))
    ) {
        var object = PropertyListDictionary()
        object.reserveCapacity(key2 == nil ? 2 : 3)
        object.updateValue(.uid(classUID), forKey: "$class")
        object.updateValue(value, forKey: key)
        if let key2 { object.updateValue(value2, forKey: key2) }
        self.fill(uid, with: .dictionary(object))
    }
}
