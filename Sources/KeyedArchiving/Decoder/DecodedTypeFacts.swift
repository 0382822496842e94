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

/// What decoding needs to know about a type that does not depend on the archive or the session:
/// its conformances and, for a type that reads its own object, its keys as stored. Found once per
/// type and process (``of(_:)``): a conformance check costs thousands of instructions, which an
/// archive of one small value would otherwise pay for each of its types.
internal final class DecodedTypeFacts: @unchecked Sendable {
    /// Whether the type has an archive form of its own (a string, number, date, data, UUID or URL).
    let hasArchiveForm: Bool
    /// Whether the type is a class, whose instances are shared by UID.
    let isClass: Bool
    /// The type as a collection the decoder reads itself, if it is one.
    let collectionType: (any ArchiveDecodableCollection.Type)?
    /// Whether the type declares the class names it accepts with ``ArchivedClassNaming``.
    let declaresClassNames: Bool
    /// The type as one that reads its object itself, if it is one.
    let objectDecoder: (any ArchiveObjectDecodable.Type)?
    /// The keys of ``objectDecoder``'s objects, as it lists them, as they are stored (escaped, in
    /// UTF-8), and the stored keys' `InPlaceReader.hash(_:)`; empty for other types.
    let objectKeys: (names: [StaticString], stored: [[UInt8]], hashes: [UInt64])
    /// The type as an enum read from its raw string, if it is one.
    let rawValueDecoder: (any ArchiveRawValueCodable.Type)?

    private init<T: Decodable>(_ type: T.Type) {
        self.hasArchiveForm = _ArchiveDecoder.hasArchiveForm(type)
        self.isClass = type is AnyObject.Type
        // A type that reads its own object (`@Archivable`'s) is no collection: the question, a scan
        // of every conformance the first time the runtime is asked it for a type, is spared.
        let objectDecoder = type as? any ArchiveObjectDecodable.Type
        self.collectionType = objectDecoder == nil ? type as? any ArchiveDecodableCollection.Type : nil
        self.declaresClassNames = type is any ArchivedClassNaming.Type
        self.objectDecoder = objectDecoder
        let names = objectDecoder?.archiveObjectKeys.names ?? []
        let stored = names.map { Array(KeyedArchive.escapedKey($0.description).utf8) }
        self.objectKeys = (names, stored, stored.map { $0.withUnsafeBufferPointer(InPlaceReader.hash) })
        self.rawValueDecoder = type as? any ArchiveRawValueCodable.Type
    }

    /// The facts of every type met so far in the process, by identifier.
    private static let known = Locked<[ObjectIdentifier: DecodedTypeFacts]>([:])

    /// The facts of `type`, found on the first call for it.
    static func of<T: Decodable>(_ type: T.Type) -> DecodedTypeFacts {
        let identifier = ObjectIdentifier(type)
        if let facts = Self.known.withLock({ $0[identifier] }) { return facts }
        // Found outside the lock: `archiveObjectKeys` is user code. Two threads may both find
        // them; they find the same facts, and the first stored is kept.
        let found = DecodedTypeFacts(type)
        return Self.known.withLock { known in
            if let existing = known[identifier] { return existing }
            known[identifier] = found
            return found
        }
    }
}
