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

/// A growable list of property list values that owns its memory: the encoding table's objects.
///
/// It cannot be copied, so that appending or replacing a value checks nothing for uniqueness, as
/// an array held in a struct does on every write (the table writes each object twice: reserved,
/// then filled).
internal struct ArchiveValueList: ~Copyable {
    typealias Value = BinaryPropertyListBuilder.Value

    /// The storage; the first ``count`` values are initialized.
    private var storage = UnsafeMutableBufferPointer<Value>(start: nil, count: 0)
    /// The number of values.
    private(set) var count = 0

    init() {}

    deinit {
        self.storage.deallocate()
    }

    /// The number of values the storage has room for.
    var capacity: Int { self.storage.count }

    /// The value at `index`, below ``count``: a UID the table reserved, never one read from input.
    subscript(index: Int) -> Value {
        @inline(__always) get {
            assert(index >= 0 && index < self.count, "index out of range")
            return self.storage[index]
        }
        @inline(__always) set {
            assert(index >= 0 && index < self.count, "index out of range")
            self.storage[index] = newValue
        }
    }

    /// The values, valid until the list next changes.
    var values: UnsafeBufferPointer<Value> { UnsafeBufferPointer(rebasing: self.storage[0..<self.count]) }

    /// Appends a value.
    @inline(__always)
    mutating func append(_ value: Value) {
        if self.count == self.storage.count { self.grow(toHold: self.count + 1) }
        self.storage.initializeElement(at: self.count, to: value)
        self.count += 1
    }

    /// Makes room for `capacity` values in all.
    mutating func reserveCapacity(_ capacity: Int) {
        if capacity > self.storage.count { self.grow(toHold: capacity) }
    }

    /// Removes every value, keeping the storage.
    mutating func removeAll() {
        self.count = 0
    }

    /// Moves the values to storage of at least `count` values, twice the current at least.
    @inline(never)
    private mutating func grow(toHold count: Int) {
        let larger = UnsafeMutableBufferPointer<Value>.allocate(capacity: max(count, 16, 2 * self.storage.count))
        _ = larger.initialize(fromContentsOf: self.storage[0..<self.count])
        self.storage.deallocate()
        self.storage = larger
    }
}
