//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-keyed-archive open source project
//
// Licensed under Apache License v2.0
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Testing

@testable import ArchiveStorage

@Suite struct MemoryCacheTests {
    private func insert(_ cache: inout MemoryCache<Int>, _ name: String, cost: Int = 1, generation: UInt64 = 0) {
        cache.insert(name.count, forKey: name, cost: cost, expiry: .infinity, slot: 0, generation: generation)
    }

    @Test func evictsTheLeastRecentlyUsedBeyondTheCountLimit() {
        var cache = MemoryCache<Int>(countLimit: 3, costLimit: 1000)
        for name in ["a", "bb", "ccc"] { self.insert(&cache, name) }
        #expect(cache.value(forKey: "a", now: 0) { _ in 0 } == 1)
        self.insert(&cache, "dddd")
        #expect(cache.keysByRecency == ["dddd", "a", "ccc"])
        #expect(cache.value(forKey: "bb", now: 0) { _ in 0 } == nil)
    }

    /// Keys are their UTF-8 bytes, as on disk: `String`'s `==` would take these two for one.
    @Test func canonicallyEquivalentKeysAreTwoKeys() {
        var cache = MemoryCache<Int>(countLimit: 10, costLimit: 1000)
        cache.insert(1, forKey: "\u{E9}", cost: 1, expiry: .infinity, slot: 0, generation: 0)
        #expect(cache.value(forKey: "e\u{301}", now: 0) { _ in 0 } == nil)
        cache.insert(2, forKey: "e\u{301}", cost: 1, expiry: .infinity, slot: 0, generation: 0)
        #expect(cache.value(forKey: "\u{E9}", now: 0) { _ in 0 } == 1)
        #expect(cache.value(forKey: "e\u{301}", now: 0) { _ in 0 } == 2)
        #expect(cache.count == 2)
    }

    @Test func evictsUntilTheCostLimitHoldsAndSkipsOversizedValues() {
        var cache = MemoryCache<Int>(countLimit: 100, costLimit: 10)
        self.insert(&cache, "a", cost: 4)
        self.insert(&cache, "b", cost: 4)
        self.insert(&cache, "c", cost: 4)
        #expect(cache.keysByRecency == ["c", "b"])
        #expect(cache.totalCost == 8)
        self.insert(&cache, "huge", cost: 11)
        #expect(cache.keysByRecency == ["c", "b"])
        self.insert(&cache, "b", cost: 1)
        #expect(cache.keysByRecency == ["b", "c"])
        #expect(cache.totalCost == 5)
    }

    @Test func dropsStaleAndExpiredValues() {
        var cache = MemoryCache<Int>(countLimit: 10, costLimit: 10)
        self.insert(&cache, "a", generation: 4)
        #expect(cache.value(forKey: "a", now: 0) { _ in 4 } == 1)
        #expect(cache.value(forKey: "a", now: 0) { _ in 6 } == nil)
        #expect(cache.count == 0)
        cache.insert(1, forKey: "b", cost: 1, expiry: 50, slot: 0, generation: 0)
        #expect(cache.value(forKey: "b", now: 49.9) { _ in 0 } == 1)
        #expect(cache.value(forKey: "b", now: 50) { _ in 0 } == nil)
        self.insert(&cache, "c")
        #expect(cache.value(forKey: "c", now: 0) { _ in nil } == nil)
    }

    @Test func zeroLimitsDisableCaching() {
        var cache = MemoryCache<Int>(countLimit: 0, costLimit: 10)
        self.insert(&cache, "a")
        #expect(cache.count == 0)
    }

    @Test func reusesFreedNodesAcrossManyOperations() {
        var cache = MemoryCache<Int>(countLimit: 8, costLimit: 1000)
        for round in 0..<1000 {
            self.insert(&cache, "key\(round % 13)", cost: round % 5)
            if round % 3 == 0 { cache.removeValue(forKey: "key\((round + 1) % 13)") }
        }
        #expect(cache.count <= 8)
        #expect(cache.keysByRecency.count == cache.count)
        #expect(Set(cache.keysByRecency).count == cache.count)
    }
}
