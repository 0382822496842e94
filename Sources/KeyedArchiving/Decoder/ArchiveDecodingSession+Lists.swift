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

extension ArchiveDecodingSession {
    /// The lists a session fills as it reads an archive; the session touches them for every
    /// object. What belongs to one archive is emptied when the session finishes (see
    /// ``ArchiveDecodingSession/finish()``); what it knows of types stays, and
    /// the key tables keep only where each key sat last (see `ArchiveObjectKeyTable`).
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
}
