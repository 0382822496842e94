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

/// The objects of an archive being read, in the order reading entered them: an object met again
/// while it is marked closes a cycle, whose path the marks give, and their count is how deep
/// objects nest in objects.
///
/// The decoder and the resolver each keep one; what a cycle means is theirs (the decoder throws,
/// the resolver refers back).
internal struct ArchiveObjectMarks {
    /// For each object, its position among the marked ones (1 for the outermost), else 0; indexed
    /// by UID, filled on first use.
    private var positions: [UInt32] = []
    /// How many objects are marked. Nesting is bounded by the depth limit, far below `UInt32.max`.
    private(set) var count: UInt32 = 0

    /// Creates an empty set of marks.
    init() {}

    /// The room the marks have kept, in objects.
    var capacity: Int { self.positions.capacity }

    /// Whether the object with `uid` is marked.
    @inline(__always)
    func contains(_ uid: UID) -> Bool {
        guard let index = uid.index(below: self.positions.count) else { return false }
        return self.positions[index] != 0
    }

    /// Marks the object with `uid`, of an archive of `objectCount` objects. A UID that refers to
    /// no object is not marked (reading its object fails first).
    @inline(__always)
    mutating func insert(_ uid: UID, objectCount: Int) {
        guard let index = uid.index(below: objectCount) else { return }
        if self.positions.isEmpty {
            self.positions.append(contentsOf: repeatElement(0, count: objectCount))
        }
        self.count &+= 1
        self.positions[index] = self.count
    }

    /// Unmarks the object with `uid`; the counterpart of ``insert(_:objectCount:)``.
    @inline(__always)
    mutating func remove(_ uid: UID) {
        guard let index = uid.index(below: self.positions.count) else { return }
        self.positions[index] = 0
        self.count &-= 1
    }

    /// The objects from the one with `uid` to the innermost marked, then `uid` again: the cycle
    /// that reading `uid` now would close.
    func cycle(to uid: UID) -> [UID] {
        let marked = uid.index(below: self.positions.count).map { self.positions[$0] } ?? 0
        let start = marked != 0 ? marked : .max
        let path = self.positions.indices
            .filter { self.positions[$0] >= start }
            .sorted { self.positions[$0] < self.positions[$1] }
        return path.map { UID(UInt64($0)) } + [uid]
    }

    /// Unmarks every object, keeping the room for the next archive.
    mutating func removeAll() {
        self.positions.removeAll(keepingCapacity: true)
        self.count = 0
    }
}
