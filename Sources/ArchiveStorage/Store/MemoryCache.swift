//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-keyed-archive open source project
//
// Licensed under Apache License v2.0
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// Decoded values by key, least recently used first out, within a count and a cost
/// limit. Not thread-safe: the store keeps it in a ``Locked``.
///
/// Nodes live in an array linked by indices, so a hit allocates nothing.
struct MemoryCache<Value> {
    /// One cached value.
    struct Node {
        var key: String
        var value: Value?
        var cost: Int
        /// Seconds since 1970 after which the value is expired.
        var expiry: Double
        /// The generation slot of the entry and the counter value the value was read under.
        var slot: Int
        var generation: UInt64
        var previous: Int
        var next: Int
    }

    let countLimit: Int
    let costLimit: Int
    private(set) var totalCost = 0
    private var nodes: [Node] = []
    private var free: [Int] = []
    private var index: [ByteKey: Int] = [:]
    /// Most recently used.
    private var head = -1
    /// Least recently used.
    private var tail = -1

    init(countLimit: Int, costLimit: Int) {
        self.countLimit = max(0, countLimit)
        self.costLimit = max(0, costLimit)
    }

    /// The number of cached values.
    var count: Int { self.index.count }

    /// Whether the cache holds anything at all.
    var isEnabled: Bool { self.countLimit > 0 && self.costLimit > 0 }

    /// The value cached for `key` if it is unexpired at `now` and `currentGeneration` of its slot
    /// still equals the generation it was read under; marks it most recently used. A stale or
    /// expired value is dropped.
    mutating func value(
        forKey key: String,
        now: Double,
        currentGeneration: (Int) -> UInt64?
    ) -> Value? {
        guard let position = self.index[ByteKey(key)] else { return nil }
        let node = self.nodes[position]
        guard node.expiry > now, currentGeneration(node.slot) == node.generation, let value = node.value else {
            self.remove(at: position)
            return nil
        }
        self.moveToFront(position)
        return value
    }

    /// Caches `value` for `key`, replacing any older value, then evicts least recently used
    /// values until both limits hold. A value costing more than the cost limit is not cached.
    mutating func insert(
        _ value: Value,
        forKey key: String,
        cost: Int,
        expiry: Double,
        slot: Int,
        generation: UInt64
    ) {
        if let position = self.index[ByteKey(key)] { self.remove(at: position) }
        guard self.isEnabled, cost <= self.costLimit else { return }
        let node = Node(
            key: key,
            value: value,
            cost: cost,
            expiry: expiry,
            slot: slot,
            generation: generation,
            previous: -1,
            next: self.head
        )
        let position: Int
        if let reused = self.free.popLast() {
            position = reused
            self.nodes[reused] = node
        } else {
            position = self.nodes.count
            self.nodes.append(node)
        }
        if self.head >= 0 { self.nodes[self.head].previous = position }
        self.head = position
        if self.tail < 0 { self.tail = position }
        self.index[ByteKey(key)] = position
        self.totalCost += cost
        while self.index.count > self.countLimit || self.totalCost > self.costLimit, self.tail >= 0 {
            self.remove(at: self.tail)
        }
    }

    /// Drops the value cached for `key`, if any.
    mutating func removeValue(forKey key: String) {
        if let position = self.index[ByteKey(key)] { self.remove(at: position) }
    }

    /// Drops every value.
    mutating func removeAll() {
        self.nodes.removeAll()
        self.free.removeAll()
        self.index.removeAll()
        self.head = -1
        self.tail = -1
        self.totalCost = 0
    }

    /// Drops every value expired at `now`.
    mutating func removeExpired(now: Double) {
        for position in Array(self.index.values) where self.nodes[position].expiry <= now {
            self.remove(at: position)
        }
    }

    /// The cached keys from most to least recently used (for tests).
    var keysByRecency: [String] {
        var keys: [String] = []
        var position = self.head
        while position >= 0 {
            keys.append(self.nodes[position].key)
            position = self.nodes[position].next
        }
        return keys
    }

    private mutating func moveToFront(_ position: Int) {
        guard position != self.head else { return }
        self.unlink(position)
        self.nodes[position].previous = -1
        self.nodes[position].next = self.head
        if self.head >= 0 { self.nodes[self.head].previous = position }
        self.head = position
        if self.tail < 0 { self.tail = position }
    }

    private mutating func remove(at position: Int) {
        self.unlink(position)
        self.index[ByteKey(self.nodes[position].key)] = nil
        self.totalCost -= self.nodes[position].cost
        self.nodes[position].value = nil
        self.nodes[position].key = ""
        self.free.append(position)
    }

    private mutating func unlink(_ position: Int) {
        let previous = self.nodes[position].previous
        let next = self.nodes[position].next
        if previous >= 0 { self.nodes[previous].next = next } else { self.head = next }
        if next >= 0 { self.nodes[next].previous = previous } else { self.tail = previous }
    }
}

extension MemoryCache: Sendable where Value: Sendable {}

/// A key compared and hashed by its UTF-8 bytes, as the store compares keys: `String`'s own `==`
/// takes canonically equivalent strings (`"é"` and `"e\u{301}"`) for one key.
private struct ByteKey: Hashable {
    var string: String

    init(_ string: String) {
        self.string = string
    }

    static func == (lhs: ByteKey, rhs: ByteKey) -> Bool {
        lhs.string.utf8.elementsEqual(rhs.string.utf8)
    }

    func hash(into hasher: inout Hasher) {
        var string = self.string
        string.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
    }
}

extension MemoryCache.Node: Sendable where Value: Sendable {}
