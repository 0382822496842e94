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

/// The lists a decoding session fills as it reads an archive, kept from one session to the next
/// as ``ArchiveEncodingSessionPool`` keeps an encoding session: an archive of one small value
/// would otherwise allocate and free each of them.
///
/// What belongs to one archive (classes by UID, key objects, objects being decoded, which key
/// object is which key) is emptied when a session ends; what the decoder knows of types (and
/// their key tables, emptied) stays, for sessions with the same ``usesObjectDecoders``.
internal final class ArchiveDecodingScratch {
    /// Whether the type descriptions were made for a session that uses direct conformances.
    let usesObjectDecoders: Bool

    /// The lists a session fills; it moves them in when it starts and back when it ends. The
    /// session touches them for every object.
    struct Lists {
        /// The keys of the types that read their objects themselves, as
        /// ``DecodedTypeInfo/keyTable`` numbers them.
        var keyTables: [ArchiveObjectKeyTable] = []
        /// Class descriptions by the UID of their class dictionary, their kinds beside them, so
        /// that asking for a kind hands out no reference.
        var recentClassUIDs: [UInt64] = []
        var recentClassKinds: [DecodedClassInfo.Kind] = []
        var recentClasses: [DecodedClassInfo] = []
        /// The keys `value(forKey:in:)` was asked for lately, by the address of their text, and
        /// the key object each last matched.
        var recentFieldKeys: [(name: UInt, keyObject: Int)] = []
        /// What the decoder needs to know about each type it met, in the same arrangement.
        var recentTypes: [ObjectIdentifier] = []
        var recentTypeInfos: [DecodedTypeInfo] = []
        /// The objects being decoded, for cycles and their paths.
        var inProgress = ArchiveObjectMarks()
    }

    /// What the last session left, emptied of its archive.
    private var lists = Lists()

    private init(usesObjectDecoders: Bool) {
        self.usesObjectDecoders = usesObjectDecoders
    }

    /// The lists, leaving empty ones in their place, so that the caller's are unshared.
    func takeLists() -> Lists {
        var lists = Lists()
        swap(&lists, &self.lists)
        return lists
    }

    /// A scratch a finished session left, if it was made for the same kind of session, else a new one.
    static func take(usesObjectDecoders: Bool) -> ArchiveDecodingScratch {
        let kept = Self.kept.withLock { $0.scratches.popLast() }
        if let kept, kept.usesObjectDecoders == usesObjectDecoders { return kept }
        return ArchiveDecodingScratch(usesObjectDecoders: usesObjectDecoders)
    }

    /// Empties what belongs to the archive just read from a session's `lists` and keeps them for
    /// the next session, unless its list of objects is larger than a small archive needs (a large
    /// archive's memory is given back).
    /// - Parameters:
    ///   - lists: The session's lists.
    ///   - keepingTypes: Whether the session's types all fit in ``recentTypes`` (so that
    ///   the key tables are those of the kept types alone).
    func recycle(_ lists: consuming Lists, keepingTypes: Bool) {
        guard lists.inProgress.capacity <= Self.keptObjectLimit else { return }
        lists.recentClassUIDs.removeAll(keepingCapacity: true)
        lists.recentClassKinds.removeAll(keepingCapacity: true)
        lists.recentClasses.removeAll(keepingCapacity: true)
        lists.recentFieldKeys.removeAll(keepingCapacity: true)
        lists.inProgress.removeAll()
        if keepingTypes {
            for table in lists.keyTables { table.forgetKeyObjects() }
        } else {
            lists.recentTypes.removeAll(keepingCapacity: true)
            lists.recentTypeInfos.removeAll(keepingCapacity: true)
            lists.keyTables.removeAll(keepingCapacity: true)
        }
        self.lists = lists
        Self.kept.withLock { state in
            if state.scratches.count < Self.keptLimit { state.scratches.append(self) }
        }
    }

    /// The most objects an archive may have for its scratch to be kept.
    private static var keptObjectLimit: Int { 4_096 }

    private static let kept = Locked<State>(State())

    /// The most scratches kept: one for each of a few sessions on several threads at once.
    private static var keptLimit: Int { 4 }

    private struct State: @unchecked Sendable {
        var scratches: [ArchiveDecodingScratch] = []
    }
}
