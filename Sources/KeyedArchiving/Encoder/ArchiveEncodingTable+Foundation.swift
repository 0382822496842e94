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
extension ArchiveEncodingTable {
    /// `NSDate`: `{$class, NS.time: seconds since 2001-01-01}`.
    mutating func addDate(_ date: Date) -> UID {
        let uid = self.reserve()
        let classUID = self.classReference(.date)
        self.fill(uid, classUID: classUID, self.key(.nsTime), .real(date.timeIntervalSinceReferenceDate))
        return uid
    }

    /// `NSUUID`: `{$class, NS.uuidbytes: 16 bytes}`.
    mutating func addUUID(_ uuid: UUID) -> UID {
        let uid = self.reserve()
        let bytes = Value(
            kind: .data,
            payload: UInt64(withUnsafeBytes(of: uuid.uuid) { self.builder.dataID(forBytes: $0) })
        )
        let classUID = self.classReference(.uuid)
        self.fill(uid, classUID: classUID, self.key(.nsUUIDBytes), bytes)
        return uid
    }

    /// `NSURL`: `{$class, NS.base: the base URL's object or 0, NS.relative: the relative string}`.
    mutating func addURL(_ url: URL) -> UID {
        let uid = self.reserve()
        let base = url.baseURL.map { self.addURL($0) } ?? UID(0)
        let relative = self.leaf(url.relativeString)
        let classUID = self.classReference(.url)
        self.fill(
            uid,
            classUID: classUID,
            self.key(.nsBase),
            .uid(base.rawValue),
            self.key(.nsRelative),
            .uid(relative.rawValue)
        )
        return uid
    }
}
