//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-keyed-archive open source project
//
// Licensed under Apache License v2.0
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

public import PropertyLists

/// An archive resolved object by object, keeping track of which objects are shared.
///
/// Where ``ArchivedValue/init(archive:limits:allowedClassNames:)`` copies a shared object into every place that holds
/// it, this keeps each array, set, dictionary and other object once, in ``objects``, and every place
/// that holds one — a `$top` key or another object — has ``ArchivedValue/reference(_:)`` to its UID
/// instead. Scalars (strings, numbers, dates, data, UUIDs, URLs, `null`) stay inline. Walking the
/// graph from ``top`` in order, an object whose ``referenceCount(of:)`` is more than 1 recurs, and an
/// object met again while it is being walked is a cycle.
///
/// ```swift
/// let graph = try ArchivedObjectGraph(archive: KeyedArchive(parsing: bytes))
/// if case .reference(let uid)? = graph.top.first?.value, graph.isShared(uid) { … }
/// ```
public struct ArchivedObjectGraph: Hashable, Sendable {
    /// Each `$top` key and its value, in archive order.
    public var top: [ArchivedValue.Field]
    /// The arrays, sets, dictionaries and other objects reachable from ``top``, by UID. The objects
    /// they hold are references too.
    public var objects: [UID: ArchivedValue]
    /// How many references to each of ``objects`` the graph holds, from ``top`` and from objects,
    /// not counting references back to an object from inside it (cycles).
    public var referenceCounts: [UID: Int]

    /// Creates a graph from its parts.
    /// - Parameters:
    ///   - top: Each top-level key and its value.
    ///   - objects: The objects that references refer to.
    ///   - referenceCounts: How many references to each object the graph holds.
    public init(top: [ArchivedValue.Field], objects: [UID: ArchivedValue], referenceCounts: [UID: Int]) {
        self.top = top
        self.objects = objects
        self.referenceCounts = referenceCounts
    }

    /// Resolves every `$top` key of an archive.
    /// - Parameters:
    ///   - archive: The archive.
    ///   - limits: Bounds on nesting and on the decoded size, which counts each object here once.
    ///   - allowedClassNames: The class names accepted, or `nil` (the default) to accept every
    ///     class, as ``ArchivedValue/init(archive:limits:allowedClassNames:)`` takes them.
    /// - Throws: ``KeyedArchiveError`` if a reference, class or object is malformed or not allowed,
    ///   as ``ArchivedValue/init(archive:limits:allowedClassNames:)`` does.
    /// - Complexity: O(*n*) in the number of objects reachable from `$top`.
    public init(
        archive: KeyedArchive,
        limits: PropertyListLimits = .default,
        allowedClassNames: Set<String>? = nil
    ) throws(KeyedArchiveError) {
        var resolver = ArchiveResolver(
            archive: archive,
            limits: limits,
            allowedClassNames: allowedClassNames,
            keepsContainersByReference: true
        )
        var top: [ArchivedValue.Field] = []
        top.reserveCapacity(archive.top.count)
        for entry in archive.top {
            top.append(ArchivedValue.Field(key: entry.key, value: try resolver.resolveTopValue(entry.value)))
        }
        try resolver.checkDecodedSize()
        self.init(top: top, objects: resolver.containers, referenceCounts: resolver.referenceCounts)
    }

    /// How many references to the object with `uid` the graph holds, not counting cycles.
    public func referenceCount(of uid: UID) -> Int {
        self.referenceCounts[uid] ?? 0
    }

    /// Whether the object with `uid` is referred to from more than one place, not counting cycles.
    public func isShared(_ uid: UID) -> Bool {
        self.referenceCount(of: uid) > 1
    }
}
