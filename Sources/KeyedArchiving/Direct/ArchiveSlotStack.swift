//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-keyed-archive open source project
//
// Licensed under Apache License v2.0
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// The slots of the objects being written or read directly, innermost last: each object pushes
/// one run of slots, one per key of its type, and pops it when done.
///
/// Plain memory rather than an array, so that setting a slot costs no uniqueness check; the
/// storage only grows, and a run is addressed by its start, which stays valid when it grows.
internal struct ArchiveSlotStack<Element: BitwiseCopyable>: ~Copyable {
    private var storage: UnsafeMutablePointer<Element>
    private var capacity: Int
    /// The number of slots in use.
    private(set) var count = 0

    init() {
        self.capacity = 64
        self.storage = .allocate(capacity: self.capacity)
    }

    deinit {
        self.storage.deallocate()
    }

    /// Pushes a run of `count` slots, each holding `value`.
    /// - Returns: The index of the run's first slot.
    @inline(__always)
    mutating func push(_ count: Int, repeating value: Element) -> Int {
        let start = self.count
        if start + count > self.capacity { self.grow(toHold: start + count) }
        (self.storage + start).initialize(repeating: value, count: count)
        self.count = start + count
        return start
    }

    /// Pops every slot from `start` on.
    @inline(__always)
    mutating func pop(from start: Int) {
        self.count = min(self.count, start)
    }

    /// The slot at `index`, below ``count``.
    subscript(index: Int) -> Element {
        @inline(__always) get { self.storage[index] }
        @inline(__always) nonmutating set { self.storage[index] = newValue }
    }

    /// The `count` slots from `start`, valid until the next push.
    @inline(__always)
    func run(from start: Int, count: Int) -> UnsafeBufferPointer<Element> {
        UnsafeBufferPointer(start: self.storage + start, count: count)
    }

    @inline(never)
    private mutating func grow(toHold count: Int) {
        let capacity = max(count, 2 * self.capacity)
        let larger = UnsafeMutablePointer<Element>.allocate(capacity: capacity)
        larger.initialize(from: self.storage, count: self.count)
        self.storage.deallocate()
        self.storage = larger
        self.capacity = capacity
    }
}
