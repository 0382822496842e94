//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-keyed-archive open source project
//
// Licensed under Apache License v2.0
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// The buffers a ``BinaryBuilderNumbering`` works in, kept by a ``BinaryPropertyListBuilder`` so
/// that the next file it writes reuses them.
///
/// Writing a file numbers every object into buffers as large as the builder's items. Taken afresh
/// for every file, that memory costs a page fault per page whenever `malloc` has given it back to
/// the system, as it does with large blocks. A numbering takes the buffers when it starts and
/// gives them back when it ends, so a builder emptied with
/// ``BinaryPropertyListBuilder/removeAll(keepingStrings:)`` writes its next file in the same
/// memory, and a numbering that starts while another runs only allocates its own.
package final class BinaryNumberingStorage {
    var entries = UnsafeMutableBufferPointer<BinaryPropertyListBuilder.Value>(start: nil, count: 0)
    var references = UnsafeMutableBufferPointer<UInt32>(start: nil, count: 0)
    var stringIndexes = UnsafeMutableBufferPointer<Int32>(start: nil, count: 0)
    var dataIndexes = UnsafeMutableBufferPointer<Int32>(start: nil, count: 0)
    var uidIndexes = UnsafeMutableBufferPointer<Int32>(start: nil, count: 0)
    var offsets = UnsafeMutableBufferPointer<Int>(start: nil, count: 0)
    var scalars: BinaryScalarTable?

    deinit {
        self.entries.deallocate()
        self.references.deallocate()
        self.stringIndexes.deallocate()
        self.dataIndexes.deallocate()
        self.uidIndexes.deallocate()
        self.offsets.deallocate()
    }

    /// The most elements any of the buffers held when a numbering last gave them back, to bound
    /// what an owner keeps. (Stored: reading every buffer of the class costs an access check each.)
    package internal(set) var capacity = 0

    /// Takes a kept buffer of at least `count` elements, or allocates one (freeing the kept one if
    /// it is too small), leaving none kept. Its elements are uninitialized.
    static func take<Element>(
        _ kept: inout UnsafeMutableBufferPointer<Element>,
        count: Int
    ) -> UnsafeMutableBufferPointer<Element> {
        var buffer = kept
        kept = UnsafeMutableBufferPointer(start: nil, count: 0)
        if buffer.count < count {
            buffer.deallocate()
            buffer = .allocate(capacity: count)
        }
        return buffer
    }

    /// Keeps `buffer` for the next ``take(_:count:)``, freeing whatever was kept meanwhile.
    static func keep<Element>(
        _ buffer: UnsafeMutableBufferPointer<Element>,
        in kept: inout UnsafeMutableBufferPointer<Element>
    ) {
        kept.deallocate()
        kept = buffer
    }
}
