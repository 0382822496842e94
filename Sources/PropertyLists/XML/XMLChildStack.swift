//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-keyed-archive open source project
//
// Licensed under Apache License v2.0
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// The children of the open containers, innermost last, in one buffer that grows by doubling as
/// values are read (never from a size the input declares). A closed container's children are
/// moved out into an array of exactly their number, so each container costs one allocation and
/// no reference counting.
struct XMLChildStack<Element>: ~Copyable {
    private var base: UnsafeMutablePointer<Element>
    private var capacity: Int
    /// The number of children held.
    private(set) var count = 0

    init() {
        self.capacity = 64
        self.base = UnsafeMutablePointer<Element>.allocate(capacity: self.capacity)
    }

    deinit {
        self.base.deinitialize(count: self.count)
        self.base.deallocate()
    }

    /// The child at `index`, which must be below ``count``.
    subscript(index: Int) -> Element {
        self.base[index]
    }

    mutating func append(_ element: Element) {
        if self.count == self.capacity { self.grow() }
        (self.base + self.count).initialize(to: element)
        self.count &+= 1
    }

    private mutating func grow() {
        let capacity = self.capacity * 2
        let base = UnsafeMutablePointer<Element>.allocate(capacity: capacity)
        base.moveInitialize(from: self.base, count: self.count)
        self.base.deallocate()
        self.base = base
        self.capacity = capacity
    }

    /// Removes the children from `start` on and returns them in order.
    mutating func removeArray(from start: Int) -> [Element] {
        var array: [Element] = []
        array.append(contentsOf: self.detach(from: start))
        return array
    }

    /// Removes the children from `start` on and returns them in order.
    mutating func removeContiguousArray(from start: Int) -> ContiguousArray<Element> {
        var array: ContiguousArray<Element> = []
        array.append(contentsOf: self.detach(from: start))
        return array
    }

    /// Removes the children from `start` on.
    mutating func removeAll(from start: Int) {
        let (source, count) = self.release(from: start)
        source.deinitialize(count: count)
    }

    /// Forgets the children from `start` on, which the caller must consume right away.
    private mutating func detach(from start: Int) -> XMLMovingElements<Element> {
        let (source, count) = self.release(from: start)
        return XMLMovingElements(base: source, count: count)
    }

    private mutating func release(from start: Int) -> (UnsafeMutablePointer<Element>, Int) {
        let start = min(max(start, 0), self.count)
        let released = self.count - start
        self.count = start
        return (self.base + start, released)
    }
}

extension XMLChildStack where Element == UInt64 {
    /// Whether the values from `start` on are all nonzero and no two are equal.
    func areNonzeroAndDistinct(from start: Int) -> Bool {
        var index = max(start, 0)
        while index < self.count {
            let value = self.base[index]
            guard value != 0 else { return false }
            var earlier = max(start, 0)
            while earlier < index {
                guard self.base[earlier] != value else { return false }
                earlier &+= 1
            }
            index &+= 1
        }
        return true
    }
}

/// Elements moved out of an ``XMLChildStack`` one by one as an array appends them; the array
/// reserves room for exactly ``underestimatedCount`` and takes every one.
struct XMLMovingElements<Element>: Sequence {
    let base: UnsafeMutablePointer<Element>
    let count: Int

    var underestimatedCount: Int { self.count }

    func makeIterator() -> Iterator {
        Iterator(base: self.base, count: self.count)
    }

    struct Iterator: IteratorProtocol {
        let base: UnsafeMutablePointer<Element>
        let count: Int
        var index = 0

        mutating func next() -> Element? {
            guard self.index < self.count else { return nil }
            defer { self.index &+= 1 }
            return (self.base + self.index).move()
        }
    }
}
