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

// The ways a session starts: over archive bytes (copied, or borrowed while decoding), or over an
// archive already read.
extension ArchiveDecodingSession {
    /// Creates a session over archive bytes, binary or XML.
    /// - Throws: ``KeyedArchiveError`` if the bytes are not a keyed archive.
    convenience init(bytes: some DataProtocol, options: KeyedArchiveDecoder.Options) throws(KeyedArchiveError) {
        guard PropertyListFormat(detecting: bytes) == .binary else {
            try self.init(archive: KeyedArchive(parsing: bytes, limits: options.limits), options: options)
            return
        }
        try self.init(
            checking: Self.binaryList { () throws(PropertyListError) in
                try InPlaceBinaryPropertyList(copying: bytes, limits: options.limits)
            },
            options: options
        )
    }

    /// Creates a session that reads a binary archive in place from the caller's bytes, without a
    /// copy; other archives are read as ``init(bytes:options:)`` reads them. The caller keeps
    /// `buffer` valid while the session is in use, and calls ``ownBytes()`` before it goes away if
    /// the session may be used afterwards.
    /// - Throws: ``KeyedArchiveError`` if the bytes are not a keyed archive.
    convenience init(
        borrowing buffer: UnsafeBufferPointer<UInt8>,
        options: KeyedArchiveDecoder.Options
    ) throws(KeyedArchiveError) {
        guard PropertyListFormat(detecting: buffer) == .binary else {
            try self.init(bytes: buffer, options: options)
            return
        }
        try self.init(
            checking: Self.binaryList { () throws(PropertyListError) in
                try InPlaceBinaryPropertyList(borrowing: buffer, limits: options.limits)
            },
            options: options
        )
    }

    /// Makes the session independent of the caller's bytes, if it borrows them.
    func ownBytes() {
        self.plist.ownBytes()
    }

    /// Creates a session over an archive that has already been read: its binary form, which holds
    /// the same objects under the same UIDs.
    convenience init(archive: KeyedArchive, options: KeyedArchiveDecoder.Options) throws(KeyedArchiveError) {
        // The archive passed the limits when it was read or is the caller's own: its size and
        // object count are not checked again, every other bound is.
        var limits = options.limits
        limits.maximumInputSize = .max
        limits.maximumObjectCount = .max
        try self.init(
            checking: Self.binaryList { () throws(PropertyListError) in
                try InPlaceBinaryPropertyList(copying: archive.serialized(as: .binary), limits: limits)
            },
            options: options
        )
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
