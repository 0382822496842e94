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

/// Foundation's value types, archived as the classes `NSKeyedArchiver` writes for them.
extension ArchiveEncodingSession {
    /// `NSDate`: `{$class, NS.time: seconds since 2001-01-01}`.
    func encodeDate(_ date: Date) -> UID {
        let uid = self.table.reserve()
        self.fillObject(uid, of: self.dateInfo, "NS.time", .real(date.timeIntervalSinceReferenceDate))
        return uid
    }

    /// `NSUUID`: `{$class, NS.uuidbytes: 16 bytes}`.
    func encodeUUID(_ uuid: UUID) -> UID {
        let uid = self.table.reserve()
        let bytes = withUnsafeBytes(of: uuid.uuid) { Data($0) }
        self.fillObject(uid, of: self.uuidInfo, "NS.uuidbytes", .data(bytes))
        return uid
    }

    /// `NSURL`: `{$class, NS.base: the base URL's object or 0, NS.relative: the relative string}`.
    func encodeURL(_ url: URL) -> UID {
        let uid = self.table.reserve()
        let base = url.baseURL.map { self.encodeURL($0) } ?? UID(0)
        let relative = self.table.leaf(.string(url.relativeString))
        self.fillObject(uid, of: self.urlInfo, "NS.base", .uid(base), "NS.relative", .uid(relative))
        return uid
    }
}
