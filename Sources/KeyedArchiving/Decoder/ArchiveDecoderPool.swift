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

/// Root decoders kept from one archive to the next, each with its session and the session's
/// property list, as ``ArchiveEncodingSessionPool`` keeps encoding sessions: decoding an archive
/// of one small value would otherwise allocate and free each of them (and the lists the session
/// fills) every time.
///
/// A decoder goes back only if nothing made while decoding outlives the decode (a container, a
/// nested decoder, an object reader kept by the decoded type's code): such a thing may still read
/// the archive, and keeps the session to itself.
internal final class ArchiveDecoderPool: Sendable {
    /// The pool every ``KeyedArchiveDecoder`` and ``KeyedUnarchiver`` takes from.
    static let shared = ArchiveDecoderPool()

    /// How many finished decoders are kept: one per thread decoding at once, up to this many.
    private static var keptLimit: Int { 4 }

    private let kept = Locked<Kept>(Kept())

    private struct Kept: @unchecked Sendable {
        var decoders: [_ArchiveDecoder] = []
    }

    /// Runs `body` with a decoder at the top level of the archive `list` makes, then keeps the
    /// decoder for the next archive if it can (see ``recycle(_:)``).
    /// - Parameters:
    ///   - options: The options of the decoding.
    ///   - list: Reads the archive into the property list of a kept session, which it is given and
    ///     returns, or makes a property list of the archive when given `nil`.
    ///   - body: Decodes with the decoder.
    /// - Throws: ``KeyedArchiveError`` if the property list is not a keyed archive; what `body` throws.
    @inline(__always)
    func withDecoder<Result>(
        options: KeyedArchiveDecoder.Options,
        list: (_ kept: InPlaceBinaryPropertyList?) throws(KeyedArchiveError) -> InPlaceBinaryPropertyList,
        _ body: (_ArchiveDecoder) throws -> Result
    ) throws -> Result {
        let decoder = try self.decoder(options: options, list: list)
        do {
            let result = try body(decoder)
            self.recycle(consume decoder)
            return result
        } catch {
            self.recycle(consume decoder)
            throw error
        }
    }

    /// A decoder of the archive `list` makes (see ``withDecoder(options:list:_:)``): a kept one
    /// whose session is started on it, or a new one. The caller
    /// gives it back with ``recycle(_:)`` or drops it.
    /// - Throws: ``KeyedArchiveError`` if the property list is not a keyed archive.
    func decoder(
        options: KeyedArchiveDecoder.Options,
        list: (_ kept: InPlaceBinaryPropertyList?) throws(KeyedArchiveError) -> InPlaceBinaryPropertyList
    ) throws(KeyedArchiveError) -> _ArchiveDecoder {
        guard let decoder = self.take(usesObjectDecoders: options.directArchiving.usesConformances) else {
            return _ArchiveDecoder(topLevelOf: try ArchiveDecodingSession(checking: list(nil), options: options))
        }
        // If this throws, the kept decoder is dropped: its list may hold part of the archive.
        let session = decoder.session
        let read = try list(session.plist)
        guard read === session.plist else {
            return _ArchiveDecoder(topLevelOf: try ArchiveDecodingSession(checking: read, options: options))
        }
        // Decoding starts the decoder itself at the top level (`decodeTopLevel`).
        try session.start(options: options)
        return decoder
    }

    /// Keeps a decoder that has finished decoding for the next archive, if nothing else holds it
    /// or another decoder of its session exists (which a value may have kept: the session holds
    /// no other references); otherwise makes the session independent of the caller's bytes,
    /// which what still holds it may read.
    func recycle(_ finished: consuming _ArchiveDecoder) {
        var decoder = consume finished
        guard isKnownUniquelyReferenced(&decoder), decoder.session.decoderCount == 1 else {
            decoder.session.ownBytes()
            return
        }
        guard decoder.session.finish() else { return }
        self.kept.withLock { kept in
            if kept.decoders.count < Self.keptLimit { kept.decoders.append(decoder) }
        }
    }

    /// A kept decoder whose session uses direct conformances as asked, if there is one.
    private func take(usesObjectDecoders: Bool) -> _ArchiveDecoder? {
        self.kept.withLock { kept in
            guard let index = kept.decoders.lastIndex(where: { $0.session.usesObjectDecoders == usesObjectDecoders })
            else { return nil }
            return kept.decoders.remove(at: index)
        }
    }
}
