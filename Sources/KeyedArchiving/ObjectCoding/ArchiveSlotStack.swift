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
/// one run of slots, one per key of its type, and pops it when done. The encoding table keeps its
/// objects in one too, a slot per object, appended one at a time and replaced when filled.
///
/// Plain memory rather than an array, so that setting a slot costs no uniqueness check; the
/// storage only grows, and a run is addressed by its start, which stays valid when it grows.
internal struct ArchiveSlotStack<Element: BitwiseCopyable>: ~Copyable {
    /// The memory, allocated on the first push (many coders never push).
    private var storage = UnsafeMutableBufferPointer<Element>(start: nil, count: 0)
    /// The number of slots in use.
    private(set) var count = 0

    init() {}

    deinit {
        self.storage.deallocate()
    }

    /// Pushes a run of `count` slots, each holding `value`.
    /// - Returns: The index of the run's first slot.
    @inline(__always)
    mutating func push(_ count: Int, repeating value: Element) -> Int {
        let start = self.count
        if start + count > self.storage.count { self.grow(toHold: start + count) }
        UnsafeMutableBufferPointer(rebasing: self.storage[start..<(start + count)]).initialize(repeating: value)
        self.count = start + count
        return start
    }

    /// Appends one slot holding `value`.
    @inline(__always)
    mutating func append(_ value: Element) {
        if self.count == self.storage.count { self.grow(toHold: self.count + 1) }
        self.storage.initializeElement(at: self.count, to: value)
        self.count += 1
    }

    /// The number of slots the storage has room for.
    var capacity: Int { self.storage.count }

    /// Makes room for `capacity` slots in all.
    mutating func reserveCapacity(_ capacity: Int) {
        if capacity > self.storage.count { self.grow(toHold: capacity) }
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
        UnsafeBufferPointer(rebasing: self.storage[start..<(start + count)])
    }

    @inline(never)
    private mutating func grow(toHold count: Int) {
        let larger = UnsafeMutableBufferPointer<Element>.allocate(capacity: max(count, 64, 2 * self.storage.count))
        _ = larger.initialize(fromContentsOf: self.storage[..<self.count])
        self.storage.deallocate()
        self.storage = larger
    }
}
