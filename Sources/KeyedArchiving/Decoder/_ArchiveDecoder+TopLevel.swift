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

// Where decoding an archive starts: a `$top` entry, decoded by a decoder made for the session's
// top level, which may decode several entries one after the other.
extension _ArchiveDecoder {
    /// Makes a decoder for the top-level values of a session.
    convenience init(topLevelOf session: ArchiveDecodingSession) {
        self.init(session: session, object: session.nullObject, uid: nil, codingPath: .root)
    }

    /// Decodes the value of a `$top` entry, at `codingPath`: the object a UID refers to, or a
    /// scalar stored inline.
    ///
    /// The decoder starts at the top level, whatever a decode before it left (one that threw may
    /// leave entries of its objects): it must not be decoding anything else.
    /// - Throws: `DecodingError`.
    func decodeTopLevel<T: Decodable>(
        _ type: T.Type,
        stored: InPlaceValue,
        codingPath: CodingPathNode = .root
    ) throws -> T {
        self.session.stack = StackGuard()
        self.startAtTopLevel(codingPath: codingPath)
        let position = ArchiveDecodingPosition(parent: codingPath, key: nil, owner: nil)
        return try self.decode(type, stored: stored, at: position)
    }

    /// Decodes the root value, with the `schemaVersion` of `$top`, if any, as the root's version
    /// (see ``ArchiveEvolution/rootVersion``).
    /// - Throws: `DecodingError`.
    func decodeRoot<T: Decodable>(_ type: T.Type) throws -> T {
        let stored = try self.session.rootValue()
        guard let version = self.session.topSchemaVersion() else {
            return try self.decodeTopLevel(type, stored: stored)
        }
        return try ArchiveEvolution.$rootVersion.withValue(version) {
            try self.decodeTopLevel(type, stored: stored)
        }
    }
}
