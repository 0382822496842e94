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

// What a session reads: archive bytes (copied, or borrowed while decoding) or an archive already
// read, as a binary property list read in place.
extension ArchiveDecodingSession {
    /// Where the archive's tables are, and the options it is read with.
    struct Input {
        /// The objects of the property list, read without reference counting; valid while it
        /// holds the archive.
        let reader: InPlaceReader
        /// `$objects`: the object table, an array of references.
        let objectTable: InPlaceRegion
        /// `$top`: the top-level keys and their values.
        let topTable: InPlaceRegion
        /// `$objects[0]`, the `$null` placeholder string that UID 0 refers to.
        let nullObject: InPlaceValue
        /// The user info every decoder reports.
        let userInfo: [CodingUserInfoKey: Any]
        /// The limits decoding runs with.
        let limits: PropertyListLimits

        /// Checks that `plist` is a keyed archive as `KeyedArchive(propertyList:)` does, with the
        /// same codes, and finds its tables.
        init(checking plist: InPlaceBinaryPropertyList, options: KeyedArchiveDecoder.Options) throws(KeyedArchiveError)
        {
            (self.objectTable, self.topTable, self.nullObject) = try ArchiveDecodingSession.tables(of: plist)
            self.reader = plist.reader
            // Mapping even an empty dictionary allocates.
            self.userInfo = options.userInfo.isEmpty ? [:] : options.userInfo.mapValues { $0 as Any }
            self.limits = options.limits
        }
    }

    /// The property list of archive bytes, binary or XML (written as binary), copied, read into
    /// `kept` if there is one (see `InPlaceBinaryPropertyList.read(copying:limits:)`).
    /// - Throws: ``KeyedArchiveError`` if the bytes are not a property list.
    static func list(
        copying bytes: some DataProtocol,
        limits: PropertyListLimits,
        into kept: InPlaceBinaryPropertyList?
    ) throws(KeyedArchiveError) -> InPlaceBinaryPropertyList {
        guard PropertyListFormat(detecting: bytes) == .binary else {
            return try Self.list(archive: KeyedArchive(parsing: bytes, limits: limits), limits: limits, into: kept)
        }
        return try Self.binaryList { () throws(PropertyListError) in
            guard let kept else { return try InPlaceBinaryPropertyList(copying: bytes, limits: limits) }
            try kept.read(copying: bytes, limits: limits)
            return kept
        }
    }

    /// The property list of archive bytes read in place from the caller's buffer, without a copy,
    /// into `kept` if there is one (see `InPlaceBinaryPropertyList.read(borrowing:limits:)`);
    /// other archives are read as ``list(copying:limits:into:)`` reads them. The caller keeps
    /// `buffer` valid while the session is in use, and calls ``ownBytes()`` before it goes away
    /// if the session may be used afterwards.
    /// - Throws: ``KeyedArchiveError`` if the bytes are not a property list.
    static func list(
        borrowing buffer: UnsafeBufferPointer<UInt8>,
        limits: PropertyListLimits,
        into kept: InPlaceBinaryPropertyList?
    ) throws(KeyedArchiveError) -> InPlaceBinaryPropertyList {
        guard PropertyListFormat(detecting: buffer) == .binary else {
            return try Self.list(copying: buffer, limits: limits, into: kept)
        }
        return try Self.binaryList { () throws(PropertyListError) in
            guard let kept else { return try InPlaceBinaryPropertyList(borrowing: buffer, limits: limits) }
            try kept.read(borrowing: buffer, limits: limits)
            return kept
        }
    }

    /// The binary form of an archive that has already been read, which holds the same objects
    /// under the same UIDs, read into `kept` if there is one.
    /// - Throws: ``KeyedArchiveError`` if a bound of `limits` other than the input size and the
    ///   object count is exceeded.
    static func list(
        archive: KeyedArchive,
        limits: PropertyListLimits,
        into kept: InPlaceBinaryPropertyList?
    ) throws(KeyedArchiveError) -> InPlaceBinaryPropertyList {
        // The archive passed the limits when it was read or is the caller's own: its size and
        // object count are not checked again, every other bound is.
        var limits = limits
        limits.maximumInputSize = .max
        limits.maximumObjectCount = .max
        return try Self.list(copying: archive.serialized(as: .binary), limits: limits, into: kept)
    }

    /// Makes the session independent of the caller's bytes, if it borrows them.
    func ownBytes() {
        self.plist.ownBytes()
    }

    /// The list `read` makes, its failure as ``KeyedArchiveError/Code/malformedPropertyList``.
    private static func binaryList(
        _ read: () throws(PropertyListError) -> InPlaceBinaryPropertyList
    ) throws(KeyedArchiveError) -> InPlaceBinaryPropertyList {
        do throws(PropertyListError) {
            return try read()
        } catch {
            throw KeyedArchiveError(.malformedPropertyList, reason: "not a property list", underlying: error)
        }
    }
}
