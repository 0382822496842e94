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

extension _ArchiveDecoder {
    /// The fields of the current object whose keys are not in `known`, resolved into values with
    /// their class names (see ``ArchiveUnknownFields``).
    ///
    /// Objects holding only known keys cost one look at their keys. Otherwise the archive is read
    /// whole, once per session, and each unknown field is resolved as ``ArchivedValue`` does it,
    /// within the session's limits.
    /// - Throws: `DecodingError.dataCorrupted` at this object's path when the archive is malformed.
    func unknownFields(excluding known: Set<String>) throws -> [ArchivedValue.Field] {
        let container = try self.container(keyedBy: ArchiveEvolutionKey.self)
        guard let uid = self.uid, container.allKeys.contains(where: { !known.contains($0.stringValue) }) else {
            return []
        }
        do throws(KeyedArchiveError) {
            let archive = try self.session.wholeArchive()
            guard case .dictionary(let dictionary) = try archive.object(for: uid) else { return [] }
            var resolver = ArchiveResolver(archive: archive, limits: self.session.limits, allowedClassNames: nil)
            var fields: [ArchivedValue.Field] = []
            for (key, value) in dictionary {
                guard let name = KeyedArchive.unescapedKey(key), !known.contains(name) else { continue }
                fields.append(ArchivedValue.Field(key: name, value: try resolver.resolveTopValue(value)))
            }
            try resolver.checkDecodedSize()
            return fields
        } catch {
            throw DecodingError.dataCorrupted(
                DecodingError.Context(
                    codingPath: self.codingPath,
                    debugDescription: "the unknown fields of the object at \(uid) do not resolve: \(error)",
                    underlyingError: error
                )
            )
        }
    }
}

extension ArchiveDecodingSession {
    /// The archive read whole, for resolving objects into ``ArchivedValue``s; read on first use.
    func wholeArchive() throws(KeyedArchiveError) -> KeyedArchive {
        if let archive = self.wholeArchiveCache { return archive }
        let archive = try KeyedArchive(parsing: self.plist.bytes, limits: self.limits)
        self.wholeArchiveCache = archive
        return archive
    }
}
